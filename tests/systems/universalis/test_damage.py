"""Wound against armour, damage and its effects, and the conditions they cause (SPEC §3)."""

from __future__ import annotations

from typing import Any

import pytest

from apps.systems.universalis.catalog import Armour, Camouflage, Effect
from apps.systems.universalis.match.tracker.units import REROLLS
from tests.systems.universalis.helpers import Game, model, one, setup, soldier, tracker


def acting(ben: Any = None) -> Game:
    teams = [
        [model(soldier("Anna Chefin", group_leader=True)), model(soldier("Anna Soldat"))],
        [model(ben or soldier("Ben Chef", group_leader=True)), model(soldier("Ben Soldat"))],
    ]
    return Game(setup(teams)).to_round_one().phase_of(0, 2)


def hit(g: Game, *dice: int, effects: tuple[str, ...] = (), damage: int = 2, **args: Any) -> Any:
    """An automatic hit of strength 5 on Ben's leader with the given dice."""
    return g.dice(*dice).do(
        "auto_hit", unit=2, strength=5, damage=damage, effects=list(effects), **args
    )


def test_a_higher_armour_roll_does_nothing() -> None:
    g = acting()
    hit(g, 1, 2)
    assert (g.unit(2).hp, g.unit(2).ap) == (8, 6)


def test_a_tie_is_one_shock() -> None:
    g = acting()
    hit(g, 4, 4)
    assert (g.unit(2).hp, g.unit(2).ap) == (8, 5)


def test_a_higher_wound_roll_applies_the_damage_and_the_survivor_takes_a_shock() -> None:
    g = acting()
    hit(g, 9, 1)
    assert (g.unit(2).hp, g.unit(2).ap) == (6, 5)


def test_damage_reduction_lowers_the_damage() -> None:
    g = acting(soldier("Ben", group_leader=True, armour=Armour("Platte", 5, reduction=1)))
    hit(g, 9, 1)
    assert g.unit(2).hp == 7


def test_ko_counts_when_higher_than_the_protection_or_without_armour() -> None:
    g = acting(soldier("Ben", group_leader=True, armour=None, ko=7))
    events = hit(g, 1, 1)
    assert one(events, "wound_rolled")["armour"] == 8


def test_additive_armour_adds_to_ko() -> None:
    g = acting(soldier("Ben", group_leader=True, armour=Armour("Robe", 3, additive=True)))
    assert one(hit(g, 1, 1), "wound_rolled")["armour"] == 1 + 4 + 3


def test_panzerbrechend_halves_the_protection_rounded_up() -> None:
    g = acting(soldier("Ben", group_leader=True, armour=Armour("Platte", 9), ko=2))
    assert one(hit(g, 1, 1, effects=("panzerbrechend",)), "wound_rolled")["armour"] == 1 + 5


def test_explosiv_doubles_the_strength() -> None:
    g = acting()
    assert one(hit(g, 1, 12, effects=("explosiv",)), "wound_rolled")["wound"] == 1 + 10


def test_an_armour_effect_cancels_the_same_weapon_effect() -> None:
    armour = Armour("Schutz", 5, effects=(Effect.EXPLOSIV,))
    g = acting(soldier("Ben", group_leader=True, armour=armour))
    assert one(hit(g, 1, 12, effects=("explosiv",)), "wound_rolled")["wound"] == 6


@pytest.mark.parametrize(("cover", "bonus"), [("soft", 0), ("hard", 1), ("massive", 2)])
def test_cover_adds_to_the_armour_roll(cover: str, bonus: int) -> None:
    g = acting()
    assert one(hit(g, 1, 1, cover=cover), "wound_rolled")["armour"] == 6 + bonus


def test_schrapnell_ignores_the_cover_and_camouflage_bonus() -> None:
    g = acting()
    events = hit(g, 1, 1, cover="massive", effects=("schrapnell",))
    assert one(events, "wound_rolled")["armour"] == 6


def test_revealed_active_camouflage_adds_1_to_the_armour_roll() -> None:
    ben = soldier("Ben", group_leader=True, camouflage=Camouflage(active=True, level=1))
    g = acting(ben)
    g.do("camouflage", unit=2, hidden=False)
    assert one(hit(g, 1, 1), "wound_rolled")["armour"] == 7


def test_zerfetzen_doubles_the_loss_when_the_ko_roll_fails() -> None:
    g = acting()
    hit(g, 9, 1, 12, effects=("zerfetzen",))
    assert g.unit(2).hp == 4
    g2 = acting()
    hit(g2, 9, 1, 1, effects=("zerfetzen",))
    assert g2.unit(2).hp == 6


def test_trauma_deals_shocks_instead_of_hit_points() -> None:
    g = acting()
    hit(g, 9, 1, effects=("trauma",), damage=3)
    assert (g.unit(2).hp, g.unit(2).ap) == (8, 3)


def test_strukturverstaerkt_halves_the_damage_unless_strukturschaedigend() -> None:
    armour = Armour("Panzer", 5, effects=(Effect.STRUKTURVERSTAERKT,))
    g = acting(soldier("Ben", group_leader=True, armour=armour))
    hit(g, 9, 1, damage=3)
    assert g.unit(2).hp == 7
    hit(g, 9, 1, damage=3, effects=("strukturschaedigend",))
    assert g.unit(2).hp == 4


def test_erschuetterung_forces_the_armour_roll_again_when_the_attacker_is_behind() -> None:
    g = acting()
    events = hit(g, 1, 12, 1, effects=("erschuetterung",), erschuetterung="behind")
    wound = one(events, "wound_rolled")
    assert len(wound["rolls"]) == 2 and (wound["wound"], wound["armour"]) == (6, 6)
    reroll = tracker(g, selected=None, params={}).rolls[-1].label
    # Named by the effect's (translatable) rulebook name, never by its code.
    assert reroll.params["effect"] == REROLLS["erschuetterung"]
    assert reroll.translate == ("effect",)
    assert "Erschütterung" in reroll.text


def test_adaptiv_lets_the_defender_roll_the_armour_again() -> None:
    g = acting(soldier("Ben", group_leader=True, armour=Armour("A", 5, effects=(Effect.ADAPTIV,))))
    wound = one(hit(g, 9, 1, 12, adaptiv="behind"), "wound_rolled")
    assert (wound["wound"], wound["armour"]) == (14, 17)


def test_robust_forces_the_wound_roll_again() -> None:
    g = acting(soldier("Ben", group_leader=True, armour=Armour("A", 5, effects=(Effect.ROBUST,))))
    wound = one(hit(g, 9, 1, 1, robust="behind"), "wound_rolled")
    assert (wound["wound"], wound["armour"]) == (6, 6)


def test_a_shock_without_ap_becomes_a_shock_token() -> None:
    g = acting()
    g.do("correct", unit=2, ap=0)
    hit(g, 4, 4)
    assert g.unit(2).shock_tokens == 1


def test_only_critical_hit_points_left_is_the_critical_state_with_its_maluses() -> None:
    g = acting()
    hit(g, 12, 1, damage=6)
    unit = g.unit(2)
    assert unit.critical and unit.hp == 2
    g.do("end_phase")
    events = g.dice(1).do("threat_test", unit=2, threat=0)
    assert one(events, "threat_tested")["roll"]["target"] == 4
    assert g.state.units[2].card.effective_speed == 10
    from apps.systems.universalis.match import rules

    assert rules.speed(g.unit(2)) == 5 and rules.perception(g.unit(2)) == 10


def test_the_critical_state_comes_once_then_a_shock_instead() -> None:
    g = acting()
    hit(g, 12, 1, damage=6)
    g.do("correct", unit=2, ap=6)
    hit(g, 12, 1, damage=1)
    assert g.unit(2).critical and g.unit(2).ap == 4


def test_brand_sets_a_survivor_on_fire() -> None:
    g = acting()
    hit(g, 9, 1, effects=("brand",))
    assert g.unit(2).burning is not None


def test_giftig_gives_half_the_difference_in_poison_markers_rounded_up() -> None:
    g = acting()
    hit(g, 9, 1, effects=("giftig",))
    assert g.unit(2).poison == 4


def test_poison_acts_at_the_start_of_the_phase() -> None:
    g = acting()
    hit(g, 9, 1, effects=("giftig",), damage=1)
    g.do("end_phase")
    assert (g.unit(2).poison, g.unit(2).hp) == (3, 6)


def test_a_burning_model_tests_its_fire_before_anything_else() -> None:
    g = acting()
    hit(g, 9, 1, effects=("brand",), damage=1)
    g.do("end_phase")
    g.refused("move", "burning_first", unit=2)
    g.dice(10).do("burning_test", unit=2, helpers=0)
    assert g.unit(2).burning is None and g.unit(2).ap == 4


def test_friends_in_base_contact_help_against_the_fire() -> None:
    g = acting()
    hit(g, 9, 1, effects=("brand",), damage=1)
    g.do("end_phase")
    events = g.dice(8).do("burning_test", unit=2, helpers=2)
    assert one(events, "burning_tested")["total"] == 12
    assert g.unit(2).burning is None and g.unit(2).ap == 5


def test_burning_1_to_8_is_a_hit_then_d6_runs_in_random_directions() -> None:
    g = acting()
    hit(g, 9, 1, effects=("brand",), damage=1)
    g.do("end_phase")
    events = g.dice(3, 12, 1, 2, 5, 7).do("burning_test", unit=2)
    ran = one(events, "ran_burning")
    assert (ran["moves"], ran["directions"]) == (2, [5, 7])
    assert g.unit(2).burning is not None
    g.refused("move", "burning", unit=2)


def test_elimination_asks_every_friend_for_a_panic_test() -> None:
    g = acting()
    hit(g, 12, 1, damage=20)
    assert g.unit(2).eliminated
    assert [d.unit for d in g.state.panic_due] == [3]
    g.refused("move", "panic_tests_first", unit=0)


def test_panic_test_modifiers() -> None:
    g = acting()
    hit(g, 12, 1, damage=20)
    events = g.dice(4).do(
        "panic_test", unit=3, enemies=2, friends=1, friends_in_contact=1, other_eliminated=1
    )
    # EH 6 − 3 (the friend just eliminated) − 2 − 2 + 1 + 3 = 3
    assert one(events, "panic_tested")["roll"]["target"] == 3
    assert g.unit(3).panic


def test_a_panicking_model_flees_and_may_retest_at_the_end_of_its_phase() -> None:
    g = acting()
    hit(g, 12, 1, damage=20)
    g.dice(12).do("panic_test", unit=3)
    g.do("end_phase")
    g.do("pick", player=0, unit=1)
    g.dice(1, 9).do("pick", player=1, unit=3)
    g.refused("move", "panicking", unit=3)
    g.do("flee", unit=3)
    assert g.unit(3).ap == 0
    g.dice(1).do("end_phase", panic_retests=[{"unit": 3, "friends": 0}])
    assert not g.unit(3).panic


def test_a_fleeing_model_that_leaves_the_table_is_out() -> None:
    g = acting()
    hit(g, 12, 1, damage=20)
    g.dice(12).do("panic_test", unit=3)
    g.do("end_phase")
    g.do("pick", player=0, unit=1)
    g.dice(1, 9).do("pick", player=1, unit=3)
    g.do("flee", unit=3, left_table=True)
    assert g.unit(3).fled and g.state.active == 1
