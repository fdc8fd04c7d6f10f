"""Attacks (SPEC §1.5): hit flips and their outcomes, criticals, Reflex modifiers, warnings,
interfering models, area and spray attacks, ammunition, Schwerfällig, stationary and tough
targets, wound flips, and the odds the events record.

Plain fighters: Reflex 6, Resistance 3, 6 LP, Gewehr (weapon 0: FK 3, S 3), Klinge (weapon 1:
NK 3, S 3). Anna's units are 0-2, Ben's 3-5; Anna begins."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from itertools import permutations
from typing import Any

import pytest

from apps.systems.core.deck import NUMBER_CARDS, Deck, kept_value
from apps.systems.core.match import Event
from apps.systems.deathmatch.catalog import FighterProfile
from apps.systems.deathmatch.match import combat
from apps.systems.deathmatch.match.combat import Outcome
from tests.systems.deathmatch.match.helpers import (
    BLADE,
    ENGINE,
    RIFLE,
    Game,
    Member,
    default_team,
    of_type,
    one,
    profile,
    setup,
    stacked_deck,
    target,
    types,
    weapon,
)


def declared(events: Sequence[Event]) -> Mapping[str, Any]:
    attack: Mapping[str, Any] = one(events, "attack_declared")["attack"]
    return attack


def resolved(events: Sequence[Event]) -> list[Mapping[str, Any]]:
    results: list[Mapping[str, Any]] = one(events, "hit_resolved")["targets"]
    return results


def cards(flip: Mapping[str, Any]) -> list[int]:
    return [c["value"] for c in flip["cards"]]


def team(player: int, *first: Member, command: int = 0) -> list[Member]:
    """The default team with its first fighters replaced and every fighter's command set."""
    members = [*first, *default_team(player)[len(first) :]]
    return [replace(m, command=command) if isinstance(m, FighterProfile) else m for m in members]


def duel(
    anna: Sequence[Member] = (),
    ben: Sequence[Member] = (),
    *,
    mode: str = "last-man-standing",
    anna_cp: int = 0,
    ben_cp: int = 0,
) -> Game:
    g = Game(setup(mode, [team(0, *anna, command=anna_cp), team(1, *ben, command=ben_cp)]))
    g.to_round_one()
    return g


def shoot(g: Game, deck: Sequence[int], *targets: Mapping[str, Any], **args: Any) -> list[Event]:
    """Anna's unit 0 (activated if nothing is) shoots with ``deck`` stacked."""
    if g.state.active is None:
        g.activate(0)
    g.stack(0, deck)
    return g.do("ranged_attack", targets=list(targets), **args)


# --- Hit flip outcomes --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "outcome", "wound_cards"),
    [(4, "hit", 1), (3, "graze", 2), (2, "miss", 0), (0, "fail", 0)],
)
def test_hit_flip_greater_hits_equal_grazes_lower_misses_zero_fails(
    game: Game, card: int, outcome: str, wound_cards: int
) -> None:
    events = shoot(game, [card, 5, 2], target(3))
    assert resolved(events)[0]["outcome"] == outcome
    wounds = of_type(events, "wound_flipped")
    if not wound_cards:
        assert wounds == [] and types(events)[-2:] == ["wound_skipped", "attack_finished"]
        return
    (wound,) = wounds
    assert len(wound["flip"]["cards"]) == wound_cards


def test_graze_gives_a_hindered_wound_flip_keeping_the_lower_card(game: Game) -> None:
    events = shoot(game, [3, 5, 2], target(3))
    wound = one(events, "wound_flipped")
    assert wound["flip"]["modifier"] == -1 and cards(wound["flip"]) == [5, 2]
    assert one(events, "wounded")["damage"] == 2


def test_flesh_wound_in_melee_gives_a_hindered_wound_flip(game: Game) -> None:
    game.activate(0)
    game.stack(0, [3, 4, 1])
    events = game.do("melee_attack", weapon=1, targets=[target(3)])
    assert resolved(events)[0]["outcome"] == "graze"
    assert one(events, "wound_flipped")["flip"]["modifier"] == -1
    assert one(events, "wounded")["damage"] == 1


def test_wound_is_card_plus_strength_minus_resistance_never_below_zero(game: Game) -> None:
    events = shoot(game, [5, 7], target(3))
    assert one(events, "wounded")["damage"] == 7 + 3 - 3
    assert game.unit(3).lp == 0 and game.unit(3).out
    game2 = duel(ben=[profile("Ben Panzer", resistance=9)])
    events = shoot(game2, [5, 2], target(3))
    assert one(events, "wounded")["damage"] == 0


def test_boosted_hit_flip_still_causes_one_hit() -> None:
    g = duel([profile("Anna MG", weapons=(weapon("MG", bonus=2), BLADE))])
    events = shoot(g, [7, 8, 6, 1], target(3))
    assert cards(one(events, "hit_flipped")["flip"]) == [7, 8, 6]
    assert len(of_type(events, "wound_flipped")) == 1
    assert one(events, "wounded")["damage"] == 1


# --- Criticals ----------------------------------------------------------------------------------


def test_a_nine_turns_a_miss_into_an_automatic_normal_hit() -> None:
    g = duel(ben=[profile("Ben Schemen", reflex=13)])
    events = shoot(g, [9, 2], target(3))
    first = dict(resolved(events)[0])
    assert first.pop("chance") == one(events, "hit_flipped")["odds"][0]["hit"]
    assert first == {
        "unit": 3,
        "outcome": "hit",
        "crits_auto_hit": 1,
        "crits_boost": 0,
        "card": 9,
        "attack_value": 3,
        "reflex": 13,
    }
    assert one(events, "wound_flipped")["flip"]["modifier"] == 0


def test_a_nine_on_a_hit_boosts_the_wound_flip() -> None:
    g = duel()
    events = shoot(g, [9, 1, 4], target(3))
    assert resolved(events)[0]["crits_boost"] == 1
    wound = one(events, "wound_flipped")
    assert wound["flip"]["modifier"] == 1 and cards(wound["flip"]) == [1, 4]


def test_each_revealed_nine_is_a_critical_even_when_not_kept() -> None:
    g = duel([profile("Anna MG", weapons=(weapon("MG", bonus=2), BLADE))])
    events = shoot(g, [9, 9, 5, 1, 2, 3], target(3))
    assert resolved(events)[0]["crits_boost"] == 2
    assert cards(one(events, "wound_flipped")["flip"]) == [1, 2, 3]


def test_the_attacker_chooses_per_critical_between_auto_hit_and_wound_boost() -> None:
    sniper = profile("Anna MG", weapons=(weapon("MG", bonus=1), BLADE))
    g = duel([sniper], [profile("Ben Schemen", reflex=13)], anna_cp=1)
    shoot(g, [9, 9, 1, 2], target(3))
    # Two 9s against Reflex 13 (12 misses): one automatic hit and one wound boost, or both
    # boosts and no hit. The flip waits for the choice.
    assert g.state.attack is not None and g.state.attack.hit_flip is not None
    events = g.do("accept", critical_auto_hits=1)
    assert resolved(events)[0]["outcome"] == "hit"
    assert (resolved(events)[0]["crits_auto_hit"], resolved(events)[0]["crits_boost"]) == (1, 1)
    assert cards(one(events, "wound_flipped")["flip"]) == [1, 2]

    g = duel([sniper], [profile("Ben Schemen", reflex=13)], anna_cp=1)
    shoot(g, [9, 9, 1, 2], target(3))
    events = g.do("accept", critical_auto_hits=0)
    assert resolved(events)[0]["outcome"] == "miss"
    assert of_type(events, "wound_flipped") == []


def test_wound_flip_boosts_are_capped_at_three_cards() -> None:
    # ANZAHL DER KARTEN: "für einen Flip nie mehr als 3 Karten"; three 9s each boosting the
    # wound flip give ⬠⬠, not ⬠⬠⬠.
    g = duel([profile("Anna MG", weapons=(weapon("MG", bonus=2), BLADE))])
    events = shoot(g, [9, 9, 9, 1, 2, 3], target(3))
    assert resolved(events)[0]["crits_boost"] == 3
    wound = one(events, "wound_flipped")
    assert wound["flip"]["modifier"] == 2 and cards(wound["flip"]) == [1, 2, 3]
    assert one(events, "wounded")["damage"] == 3


def test_a_graze_on_a_tough_target_is_hindered_twice() -> None:
    # A graze (⬡) and Zäh (⬡) add up: three cards, the lowest kept.
    g = duel(ben=[profile("Ben Zäh", abilities=("Zäh",))])
    events = shoot(g, [3, 6, 5, 4], target(3))
    assert resolved(events)[0]["outcome"] == "graze"
    wound = one(events, "wound_flipped")
    assert wound["flip"]["modifier"] == -2 and cards(wound["flip"]) == [6, 5, 4]
    assert one(events, "wounded")["damage"] == 4


def test_a_graze_with_a_nine_kept_as_a_boost_stays_a_graze_with_a_plain_wound_flip() -> None:
    g = duel(ben=[profile("Ben Flink", reflex=12)], anna_cp=1)
    shoot(g, [9, 4], target(3))
    events = g.do("accept", critical_auto_hits=0)
    assert resolved(events)[0]["outcome"] == "graze"
    assert one(events, "wound_flipped")["flip"]["modifier"] == 0


def area_flip_with_a_nine() -> Game:
    """A Granate flips a 9 (9 + 3 = 12) against Ben's Reflex 6 (a hit) and Reflex 13 (a miss);
    the flip waits for Anna's decision."""
    grenadier = profile("Anna Granate", weapons=(weapon("Granate", rules=['Flächenschaden 2"']),))
    g = duel([grenadier], [profile("Ben Nah"), profile("Ben Schemen", reflex=13)], anna_cp=1)
    shoot(g, [9, 1, 2, 3], target(3), target(4))
    assert g.state.attack is not None and g.state.attack.hit_flip is not None
    return g


def test_without_a_choice_a_target_that_hits_keeps_its_nine_as_a_boost() -> None:
    # KRITISCHE TREFFER: each 9 is an automatic hit "oder" a boosted wound flip, chosen "je
    # nachdem was er gerade benötigt"; the default spends it where it helps most.
    g = area_flip_with_a_nine()
    events = g.do("accept")
    results = resolved(events)
    assert [(r["outcome"], r["crits_auto_hit"], r["crits_boost"]) for r in results] == [
        ("hit", 0, 1),
        ("hit", 1, 0),
    ]
    while g.state.attack is not None:  # Anna may reroll each wound flip: she accepts
        events += g.do("accept")
    wounds = of_type(events, "wound_flipped")
    assert [(w["victim"], w["flip"]["modifier"]) for w in wounds] == [(3, 1), (4, 0)]


def test_one_number_of_automatic_hits_counts_like_the_same_number_per_target() -> None:
    # One rule for both ways of choosing: the number counts against every target, also one
    # the flip hits anyway (there it declines the boost).
    for choice in ({"critical_auto_hits": 1}, {"critical_auto_hits_per_target": [1, 1]}):
        g = area_flip_with_a_nine()
        results = resolved(g.do("accept", **choice))
        assert [(r["outcome"], r["crits_auto_hit"], r["crits_boost"]) for r in results] == [
            ("hit", 1, 0),
            ("hit", 1, 0),
        ], choice
    for choice in ({"critical_auto_hits": 0}, {"critical_auto_hits_per_target": [0, 0]}):
        g = area_flip_with_a_nine()
        results = resolved(g.do("accept", **choice))
        assert [(r["outcome"], r["crits_auto_hit"], r["crits_boost"]) for r in results] == [
            ("hit", 0, 1),
            ("miss", 0, 1),
        ], choice


def test_a_single_target_that_hits_can_decline_the_boost() -> None:
    g = duel(anna_cp=1)
    shoot(g, [9, 1, 4], target(3))
    events = g.do("accept", critical_auto_hits=1)
    assert (resolved(events)[0]["crits_auto_hit"], resolved(events)[0]["crits_boost"]) == (1, 0)
    assert one(events, "wound_flipped")["flip"]["modifier"] == 0


@pytest.mark.parametrize(
    ("outcome", "nines", "wanted", "split"),
    [
        (Outcome.HIT, 2, None, (0, 2)),
        (Outcome.HIT, 2, 1, (1, 1)),
        (Outcome.MISS, 2, None, (1, 1)),
        (Outcome.GRAZE, 1, 0, (0, 1)),
        (Outcome.MISS, 1, 3, (1, 0)),
        (Outcome.FAIL, 1, 1, (0, 0)),
        (Outcome.HIT, 0, 1, (0, 0)),
    ],
)
def test_critical_split(outcome: Outcome, nines: int, wanted: int | None, split: tuple) -> None:
    assert combat.critical_split(outcome, nines, wanted) == split


def test_the_attacker_chooses_the_use_of_a_nine_target_by_target() -> None:
    # Against a friend or an enemy it does not need to hurt more, the attacker may spend the 9
    # on the model it already hits ("automatic hit": no boost) and leave the other one missed.
    g = area_flip_with_a_nine()
    events = g.do("accept", critical_auto_hits_per_target=[1, 0])
    results = resolved(events)
    assert [(r["outcome"], r["crits_auto_hit"], r["crits_boost"]) for r in results] == [
        ("hit", 1, 0),
        ("miss", 0, 1),
    ]
    (wound,) = of_type(events, "wound_flipped")
    assert (wound["victim"], wound["flip"]["modifier"]) == (3, 0)


def test_a_choice_per_target_names_every_target() -> None:
    g = area_flip_with_a_nine()
    g.refused("accept", "critical_choices", critical_auto_hits_per_target=[1])


# --- Reflex modifiers ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("situation", "reflex", "note"),
    [
        ({"cover": "cover"}, 8, "cover +2"),
        ({"cover": "hard"}, 8, "hard_cover +2"),
        ({"target_elevated": True}, 7, "target_elevated +1"),
        ({"attacker_elevated": True}, 5, "attacker_elevated -1"),
        ({"rear": True}, 4, "rear -2"),
        ({"target_in_melee": True}, 8, "in_melee +2"),
        ({"obstacle": True}, 6, None),
        ({"several_enemies": True}, 6, None),
    ],
)
def test_ranged_reflex_modifiers(
    game: Game, situation: dict[str, Any], reflex: int, note: str | None
) -> None:
    events = shoot(game, [1], target(3, **situation))
    aimed_at = declared(events)["targets"][0]
    assert aimed_at["reflex"] == reflex
    if note:
        assert note in aimed_at["reflex_notes"]


@pytest.mark.parametrize(
    ("situation", "reflex"),
    [
        ({"obstacle": True}, 8),
        ({"several_enemies": True}, 5),
        ({"rear": True}, 4),
        ({"target_elevated": True}, 7),
        ({"attacker_elevated": True}, 5),
        ({"cover": "hard"}, 6),
        ({"target_in_melee": True}, 6),
    ],
)
def test_melee_reflex_modifiers(game: Game, situation: dict[str, Any], reflex: int) -> None:
    game.activate(0)
    game.stack(0, [1])
    events = game.do("melee_attack", weapon=1, targets=[target(3, **situation)])
    assert declared(events)["targets"][0]["reflex"] == reflex


def test_hard_cover_adds_one_resistance_against_the_shot(game: Game) -> None:
    events = shoot(game, [9, 5, 5], target(3, cover="hard"))
    assert declared(events)["targets"][0]["resistance_bonus"] == 1
    assert one(events, "wound_flipped")["resistance"] == 4


def test_ruhige_hand_ignores_the_in_melee_bonus() -> None:
    g = duel([profile("Anna Ruhig", abilities=("Ruhige Hand",))])
    events = shoot(g, [1], target(3, target_in_melee=True, cover="cover"))
    assert declared(events)["targets"][0]["reflex"] == 8


def test_only_a_handwaffe_fires_from_an_enemy_control_zone() -> None:
    # Rulebook FERNKAMPF, Das Ziel wählen: no ranged attack from an enemy control zone "außer es
    # trägt eine Waffe mit der Sonderregel Handwaffe", whose target must be in the same melee
    # (HANDWAFFE) -- so it counts as in melee: +2 Reflex (gilt auch, wenn das Ziel mit dem
    # Schützen im Nahkampf ist).
    pistol = weapon("Pistole", rules=("Handwaffe",), range_inches=8)
    g = duel([profile("Anna Duellantin", weapons=(RIFLE, pistol, BLADE))])
    g.activate(0)
    g.refused(
        "ranged_attack", "shooting_in_melee", weapon=0, targets=[target(3, attacker_in_melee=True)]
    )
    assert g.unit(0).ap == 2
    events = shoot(g, [5, 4], target(3, attacker_in_melee=True), weapon=1)
    assert resolved(events)[0]["reflex"] == 6 + 2
    assert "in_melee +2" in declared(events)["targets"][0]["reflex_notes"]


def test_the_attack_wizard_offers_only_a_handwaffe_from_an_enemy_control_zone() -> None:
    pistol = weapon("Pistole", rules=("Handwaffe",), range_inches=8)
    g = duel([profile("Anna Duellantin", weapons=(RIFLE, pistol, BLADE))])
    g.activate(0)
    params = {"wizard": "ranged", "attacker_in_melee": "1"}
    wizard = ENGINE.tracker(g.state, selected=0, params=params).wizard
    assert wizard is not None
    usable = {choice.line.name: choice.usable for choice in wizard.weapons}
    assert usable == {"Gewehr": False, "Pistole": True}
    assert wizard.weapon == 1 and wizard.situation.attacker_in_melee
    assert {t.reflex for t in wizard.targets} == {6 + 2}


def test_a_reaction_shot_from_an_enemy_control_zone_needs_a_handwaffe(game: Game) -> None:
    game.activate(0)
    game.do("readiness")
    game.end()
    game.activate(3)
    game.refused(
        "react",
        "shooting_in_melee",
        unit=0,
        action="ranged_attack",
        targets=[target(3, attacker_in_melee=True)],
    )


def test_warning_costs_the_defender_one_cp_for_one_reflex() -> None:
    g = duel(ben_cp=1)
    events = shoot(g, [1], target(3, warning=True))
    assert one(events, "cp_spent") == {"player": 1, "cp": 1, "reason": "warning"}
    assert declared(events)["targets"][0]["reflex"] == 7
    assert g.cp(1) == 2


def test_warning_needs_a_command_point(game: Game) -> None:
    game.activate(0)
    game.refused("ranged_attack", "not_enough_cp", targets=[target(3, warning=True)])


def test_warning_is_once_per_attack() -> None:
    grenadier = profile("Anna Granate", weapons=(weapon("Granate", rules=['Flächenschaden 2"']),))
    g = duel([grenadier], ben_cp=1)
    g.activate(0)
    g.refused(
        "ranged_attack",
        "warning_once",
        targets=[target(3, warning=True), target(4, warning=True)],
    )


# --- Interfering models -------------------------------------------------------------------------


def test_interfering_model_takes_a_shot_that_misses_only_because_of_its_cover() -> None:
    # The rulebook's example: FK 2 against Reflex 7 in hard cover behind D and in melee (11);
    # a 7 or an 8 would have hit without D's cover, so D is hit instead.
    anna = [profile("Anna A", weapons=(weapon("Gewehr", value=2), BLADE))]
    ben = [profile("Ben C", reflex=7), profile("Ben D", reflex=7)]
    for card in (7, 8):
        g = duel(anna, ben)
        events = shoot(g, [card, 5], target(3, cover="hard", target_in_melee=True, interferers=[4]))
        result = resolved(events)[0]
        assert (result["reflex"], result["outcome"], result["redirected_to"]) == (11, "miss", 4)
        wound = one(events, "wound_flipped")
        # D takes a normal hit without C's hard-cover Resistance.
        assert (wound["victim"], wound["resistance"], wound["flip"]["modifier"]) == (4, 3, 0)
        assert g.unit(4).lp == 6 - (5 + 3 - 3) and g.unit(3).lp == 6
    g = duel(anna, ben)
    events = shoot(g, [6], target(3, cover="hard", target_in_melee=True, interferers=[4]))
    assert "redirected_to" not in resolved(events)[0]
    assert of_type(events, "wound_flipped") == []


def test_several_interfering_models_flip_a_card_each_and_the_closest_adds_two(
    game: Game,
) -> None:
    events = shoot(game, [4, 3, 4, 2], target(3, cover="cover", interferers=[4, 5]))
    flipped = one(events, "interference_flipped")
    assert flipped["cards"] == [3, 4] and flipped["totals"] == [5, 4]
    assert flipped["chosen"] == 4
    assert one(events, "wound_flipped")["victim"] == 4


def test_several_interfering_models_the_highest_total_is_hit(game: Game) -> None:
    events = shoot(game, [4, 1, 6, 2], target(3, cover="cover", interferers=[4, 5]))
    assert one(events, "interference_flipped")["chosen"] == 5
    assert one(events, "wound_flipped")["victim"] == 5


def test_an_obstacle_in_the_way_takes_the_shot_harmlessly(game: Game) -> None:
    events = shoot(game, [4, 8, 2], target(3, cover="cover", interferers=[-1, 5]))
    assert one(events, "interference_flipped")["chosen"] == -1
    assert of_type(events, "wound_flipped") == []


def test_a_model_in_the_way_needs_the_cover_it_gives(game: Game) -> None:
    # Rulebook FERNKAMPF, Störende Modelle: only a target "das Deckung durch ein anderes Modell
    # erhält" can be missed because of that model. Without cover a shot that misses by one
    # (FK 3 + card 2 = 5 against Reflex 6) misses: it must not be redirected.
    game.activate(0)
    game.stack(0, [2, 5])
    game.refused("ranged_attack", "interferers_need_cover", targets=[target(3, interferers=[4])])


def test_the_target_and_the_shooter_are_not_in_their_own_way(game: Game) -> None:
    game.activate(0)
    for blocker in (3, 0):
        game.refused(
            "ranged_attack",
            "bad_interferer",
            targets=[target(3, cover="cover", interferers=[blocker])],
        )
    game.refused(
        "ranged_attack", "bad_interferer", targets=[target(3, cover="cover", interferers=[4, 4])]
    )
    # Several obstacles are fine: each draws its own card.
    events = shoot(game, [3, 1, 2], target(3, cover="cover", interferers=[-1, -1]))
    assert one(events, "interference_flipped")["blockers"] == [-1, -1]


# --- Area and spray attacks ---------------------------------------------------------------------


@pytest.mark.parametrize("rule", ['Flächenschaden 2"', 'Flächenschaden 3"', "Sprühangriff"])
def test_area_and_spray_attacks_compare_one_hit_flip_with_every_model(rule: str) -> None:
    g = duel(
        [profile("Anna Granate", weapons=(weapon("Granate", rules=[rule]), BLADE))],
        [profile("Ben Flink", reflex=7), profile("Ben Träge", reflex=5)],
    )
    events = shoot(g, [4, 2, 5, 1], target(3), target(4), target(5, cover="cover"))
    assert len(of_type(events, "hit_flipped")) == 1
    assert [r["outcome"] for r in resolved(events)] == ["graze", "hit", "miss"]
    # Separate wound flips, target by target: a hindered one for the graze, a normal one.
    wounds = of_type(events, "wound_flipped")
    assert [(w["victim"], cards(w["flip"])) for w in wounds] == [(3, [2, 5]), (4, [1])]
    assert [w["damage"] for w in of_type(events, "wounded")] == [2, 1]


def test_only_area_and_spray_attacks_take_several_targets_or_friends(game: Game) -> None:
    game.activate(0)
    game.refused("ranged_attack", "one_target", targets=[target(3), target(4)])
    game.refused("ranged_attack", "friendly_target", targets=[target(1)])
    game.refused("ranged_attack", "bad_target", targets=[target(0)])
    game.refused("ranged_attack", "no_target", targets=[])


def test_own_area_damage_knock_out_is_credited_to_the_opponent() -> None:
    grenadier = profile("Anna Granate", weapons=(weapon("Granate", rules=['Flächenschaden 2"']),))
    g = duel([grenadier], mode="flag-rush")
    events = shoot(g, [6, 9, 9], target(1), target(3))
    knocked = of_type(events, "knocked_out")
    assert knocked == [
        {"unit": 1, "credit": [1], "cause": "attack", "by": 0},
        {"unit": 3, "credit": [0], "cause": "attack", "by": 0},
    ]
    assert (g.vp(0), g.vp(1)) == (1, 1)


# --- Ammunition and unwieldy weapons ------------------------------------------------------------


def test_limitiert_uses_one_ammo_marker_per_attack_and_stops_when_empty() -> None:
    g = duel([profile("Anna Rakete", weapons=(weapon("Rakete", rules=["Limitiert (2)"]), BLADE))])
    assert g.unit(0).ammo == (2, None)
    shoot(g, [1], target(3))
    assert g.unit(0).ammo == (1, None)
    shoot(g, [1], target(3))
    assert g.unit(0).ammo == (0, None)
    g.end()
    g.finish_round()
    g.score()
    g.start_round()
    g.activate(0)
    g.refused("ranged_attack", "out_of_ammo", targets=[target(3)])
    g.stack(0, [1])
    g.do("melee_attack", weapon=1, targets=[target(3)])


def test_a_respawn_refills_limitiert_ammunition() -> None:
    # RESPAWN removes "alle Marker und Effekte", the ammunition markers included (SPEC §6).
    rocket = weapon("Rakete", rules=["Limitiert (2)"])
    g = duel([profile("Anna Rakete", weapons=(rocket, BLADE))], mode="flag-rush")
    shoot(g, [1], target(3))
    g.do("auto_hit", unit=0, strength=9, cause="effect")
    assert g.unit(0).respawns == 1 and g.unit(0).lp == 6
    assert g.unit(0).ammo == (2, None)


def test_schwerfaellig_costs_two_ap_and_is_not_allowed_in_readiness() -> None:
    heavy = weapon("Kanone", rules=["Schwerfällig"])
    g = duel([profile("Anna Kanone", weapons=(heavy, BLADE))])
    events = shoot(g, [1], target(3))
    assert one(events, "ap_spent") == {"unit": 0, "ap": 2}
    assert g.unit(0).ap == 0


def test_the_ranged_attack_button_costs_two_ap_with_only_a_schwerfaellig_weapon() -> None:
    cannon = weapon("Kanone", rules=("Schwerfällig",))
    g = duel([profile("Anna Kanonier", weapons=(cannon, BLADE))])
    g.activate(0)
    buttons = ENGINE.tracker(g.state, selected=0, params={}).actions
    (ranged,) = [b for b in buttons if b.command == "wizard:ranged"]
    assert ranged.cost == "2 AP" and ranged.enabled


def test_schwerfaellig_weapon_cannot_react() -> None:
    heavy = weapon("Kanone", rules=["Schwerfällig"])
    g = duel([profile("Anna Kanone", weapons=(heavy, BLADE))])
    g.activate(0)
    g.do("readiness")
    g.end()
    g.activate(3)
    g.refused("react", "unwieldy_reaction", unit=0, action="ranged_attack", weapon=0)


# --- Stationary and tough targets ---------------------------------------------------------------


def test_stationary_model_is_hit_automatically_in_melee_with_a_boosted_wound_flip() -> None:
    g = duel(ben=[profile("Ben Turm", reflex=9, abilities=("Stationär",))])
    g.activate(0)
    g.stack(0, [1, 4])
    events = g.do("melee_attack", weapon=1, targets=[target(3)])
    assert declared(events)["targets"][0]["auto_hit"] is True
    assert of_type(events, "hit_flipped") == []
    assert resolved(events)[0] == {
        "unit": 3,
        "outcome": "hit",
        "crits_auto_hit": 0,
        "crits_boost": 0,
        "automatic": True,
    }
    wound = one(events, "wound_flipped")
    assert wound["flip"]["modifier"] == 1 and cards(wound["flip"]) == [1, 4]


def test_no_warning_is_paid_when_no_hit_flip_is_made() -> None:
    # KOMMANDOPUNKTE, Warnung: "Vor einem gegnerischen Trefferflip"; a stationary model is hit
    # automatically in melee, so there is no hit flip to warn against and no CP to spend.
    g = duel(ben=[profile("Ben Turm", reflex=9, abilities=("Stationär",))], ben_cp=1)
    g.activate(0)
    g.refused("melee_attack", "warning_no_hit_flip", weapon=1, targets=[target(3, warning=True)])
    assert g.cp(1) == 3


def test_stationary_model_has_reflex_three_against_shots() -> None:
    g = duel(ben=[profile("Ben Turm", reflex=9, abilities=("Stationär",))])
    events = shoot(g, [1], target(3, cover="cover"))
    aimed_at = declared(events)["targets"][0]
    assert aimed_at["reflex"] == 3 + 2
    assert aimed_at["reflex_notes"][0] == "stationary"


def test_zaeh_hinders_wound_flips_against_the_model() -> None:
    g = duel(ben=[profile("Ben Zäh", abilities=("Zäh",))])
    events = shoot(g, [5, 4, 2], target(3))
    wound = one(events, "wound_flipped")
    assert wound["flip"]["modifier"] == -1 and cards(wound["flip"]) == [4, 2]


def test_zaeh_cancels_a_charge_boost() -> None:
    g = duel(ben=[profile("Ben Zäh", abilities=("Zäh",))])
    g.activate(0)
    g.stack(0, [5, 4])
    events = g.do("charge", weapon=1, targets=[target(3)])
    assert one(events, "wound_flipped")["flip"]["modifier"] == 0


# --- Odds recorded in the events ----------------------------------------------------------------


def ordered_draws(deck: Deck, size: int) -> Iterator[tuple[tuple[int, ...], Fraction]]:
    """Every ordered draw of ``size`` cards as the flipping player knows the deck: the unseen
    cards in any order, then (after the Wendepunkt) a fresh deck of 40 (SPEC §1.3 Decision)."""
    unseen = deck.above_turn + deck.below_turn
    first = min(size, deck.remaining_before_turn)
    heads = list(permutations(range(len(unseen)), first))
    tails = list(permutations(range(len(NUMBER_CARDS)), size - first))
    weight = Fraction(1, len(heads) * len(tails))
    for head in heads:
        for tail in tails:
            yield (
                tuple(unseen[i] for i in head) + tuple(NUMBER_CARDS[j] for j in tail),
                weight,
            )


def enumerated_hit_odds(deck: Deck, modifier: int, value: int, reflex: int) -> dict[str, str]:
    odds = dict.fromkeys(("hit", "graze", "miss", "critical"), Fraction(0))
    for values, p in ordered_draws(deck, 1 + abs(modifier)):
        kept = kept_value(values, modifier)
        if 9 in values:
            odds["critical"] += p
        if kept != 0 and (kept + value > reflex or 9 in values):
            odds["hit"] += p
        elif kept != 0 and kept + value == reflex:
            odds["graze"] += p
        else:
            odds["miss"] += p
    return {k: f"{v.numerator}/{v.denominator}" for k, v in odds.items()}


def test_hit_flip_odds_equal_an_enumeration_of_the_unseen_cards() -> None:
    g = duel([profile("Anna MG", weapons=(weapon("MG", bonus=1), BLADE))])
    g.activate(0)
    g.stack(0, [6, 9, 0, 0, 0, 3, 3, 3], before_turn=30)
    before = g.state.players[0].deck
    events = g.do("ranged_attack", targets=[target(3, cover="cover")])
    (row,) = one(events, "hit_flipped")["odds"]
    assert row == {"unit": 3, **enumerated_hit_odds(before, 1, 3, 8)}


def test_wound_flip_odds_equal_an_enumeration_of_the_unseen_cards(game: Game) -> None:
    game.activate(0)
    game.stack(0, [5, 2, 2, 2, 7])
    events = game.do("ranged_attack", targets=[target(3)])
    # The wound flip is drawn from the deck as it stands after the hit flip.
    after_hit = Deck.from_dict(one(events, "hit_flipped")["flip"]["deck"])
    assert after_hit.drawn == (5,)
    damage: dict[int, Fraction] = {}
    for values, p in ordered_draws(after_hit, 1):
        dealt = max(0, values[0] + 3 - 3)
        damage[dealt] = damage.get(dealt, Fraction(0)) + p
    wound = one(events, "wound_flipped")
    assert wound["odds"]["damage"] == {
        str(d): f"{p.numerator}/{p.denominator}" for d, p in sorted(damage.items())
    }
    ko = sum((p for d, p in damage.items() if d >= 6), Fraction(0))
    assert wound["odds"]["knock_out"] == f"{ko.numerator}/{ko.denominator}"


def test_wendepunkt_mid_flip_reshuffles_all_cards_and_the_flip_goes_on() -> None:
    g = duel([profile("Anna MG", weapons=(weapon("MG", bonus=1), BLADE))])
    g.activate(0)
    g.stack(0, [7], before_turn=1)
    before = g.state.players[0].deck
    events = g.do("ranged_attack", targets=[target(3)], confirm_flips=False)
    flip = one(events, "hit_flipped")["flip"]
    assert flip["reshuffled"] is True
    assert cards(flip)[0] == 7
    # The new pile holds every card, the 7 just shown included: 34 above the Wendepunkt now.
    deck = flip["deck"]
    assert len(deck["below_turn"]) == 5 and len(deck["drawn"]) == 1
    assert len(deck["above_turn"]) == 34
    assert resolved(events)[0]["card"] == max(cards(flip))
    (row,) = one(events, "hit_flipped")["odds"]
    assert row == {"unit": 3, **enumerated_hit_odds(before, 1, 3, 6)}


def test_the_stacked_deck_helper_is_valid() -> None:
    deck = stacked_deck([9, 9, 9, 9, 0], before_turn=7)
    assert deck.above_turn[:5] == (9, 9, 9, 9, 0)
    assert len(deck.above_turn) == 7 and len(deck.below_turn) == 5
    assert sorted(deck.above_turn + deck.below_turn + deck.drawn) == sorted(NUMBER_CARDS)
    assert RIFLE.combat_value == BLADE.combat_value == 3
