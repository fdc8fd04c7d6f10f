"""The odds preview cannot drift from the rules: for many situations, the chances the tracker
shows before a roll are exactly the ones ``decide`` records in the events once the command is
made (the wound odds include the rerolls the effects allow)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from apps.systems.core.distributions import fraction_text
from apps.systems.core.match import Args
from apps.systems.universalis.catalog import Armour, Camouflage, Effect, Size, UnitCard, Weapon
from apps.systems.universalis.match.damage import reroll_args
from apps.systems.universalis.match.odds import WoundOdds, attribute_odds
from apps.systems.universalis.match.preview import (
    MeleeOdds,
    ShotOdds,
    melee_lines,
    melee_odds,
    shot_lines,
    shot_odds,
)
from apps.systems.universalis.match.values import attribute_value, power_value
from tests.systems.universalis.helpers import (
    KNIFE,
    MAGE_DISCIPLINE,
    RIFLE,
    Game,
    ben_waits_ready,
    model,
    of_type,
    one,
    power,
    setup,
    shown_chance,
    soldier,
    there,
    tracker,
)

ANNA = soldier("Anna", group_leader=True)
BEN = soldier("Ben", group_leader=True)
TOUGH = Armour("Panzer", 6, effects=(Effect.ADAPTIV, Effect.ROBUST))
SHOCKER = Weapon(
    "Schocker", wk=2, range="20/3", strength=6, damage=2, effects=(Effect.ERSCHUETTERUNG,)
)
CANNON = Weapon(
    "Kanone",
    wk=3,
    range="30/3",
    strength=4,
    damage=3,
    unwieldy=True,
    effects=(Effect.EXPLOSIV, Effect.PANZERBRECHEND),
)
MORTAR = Weapon(
    "Mörser", wk=3, range="40/3", strength=6, damage=2, indirect=True, effects=(Effect.SCHRAPNELL,)
)
MG = Weapon("MG", wk=2, range="20/3", strength=5, damage=1, df=2)
HAMMER = Weapon("Hammer", wk=2, range="NK", strength=6, damage=2, effects=(Effect.ERSCHUETTERUNG,))


def duel(anna: UnitCard = ANNA, ben: UnitCard = BEN, *, ben_first: bool = False) -> Game:
    teams = [
        [model(anna), model(soldier("Anna 2"))],
        [model(ben), model(soldier("Ben 2"))],
    ]
    g = Game(setup(teams)).to_round_one()
    return g.phase_of(2, 0) if ben_first else g.phase_of(0, 2)


def assert_wound(recorded: Mapping[str, Any], odds: WoundOdds) -> None:
    first = recorded["rolls"][0]
    assert (first["odds"], first["tie_odds"]) == (
        fraction_text(odds.damage),
        fraction_text(odds.shock),
    )


def fire(g: Game, targets: list[dict[str, Any]], **args: Any) -> list[ShotOdds]:
    """Preview every target's shot, then shoot (the first shot hits) and compare."""
    shooter = g.unit(0)
    previews = []
    for number, target in enumerate(targets):
        odds = shot_odds(
            g.state,
            shooter,
            args.get("weapon", 0),
            g.unit(target["unit"]),
            mode=args.get("mode", "normal"),
            distance=target["distance"],
            cover=target.get("cover", "none"),
            touching=target.get("touching", False),
            number=number,
            count=target.get("shots", 1),
            indirect=args.get("indirect", False),
            friend_sees=args.get("friend_sees", False),
            rerolls=reroll_args(Args(args)),
        )
        assert isinstance(odds, ShotOdds), odds
        previews.append(odds)
    assert previews[0].value >= 1
    events = g.dice(1).do("shoot", unit=0, targets=targets, **args)
    shots = of_type(events, "shot")
    assert [s["roll"]["odds"] for s in shots] == [fraction_text(p.hit) for p in previews]
    assert [s["roll"]["target"] for s in shots] == [p.value for p in previews]
    wounds = of_type(events, "wound_rolled")
    assert wounds
    by_unit = {t["unit"]: p for t, p in zip(targets, previews, strict=True)}
    for wound in wounds:
        assert_wound(wound, by_unit[wound["unit"]].wound)
    return previews


def test_a_plain_shot_through_cover_at_the_second_band() -> None:
    fire(duel(), [{"unit": 2, "distance": 25, "cover": "hard"}])


def test_an_aimed_shot_against_armour_that_rerolls() -> None:
    g = duel(soldier("Anna", group_leader=True, weapons=(SHOCKER,)), soldier("Ben", armour=TOUGH))
    fire(
        g,
        [{"unit": 2, "distance": 45, "cover": "hard", "touching": True}],
        mode="aimed",
        erschuetterung="behind",
        adaptiv="behind_or_tie",
        robust="behind",
    )


def test_a_snap_shot_with_an_unwieldy_explosive_armour_piercing_weapon_at_a_small_target() -> None:
    anna = soldier("Anna", group_leader=True, fk=12, weapons=(CANNON,))
    fire(duel(anna, soldier("Ben", size=Size.SMALL)), [{"unit": 2, "distance": 10}], mode="snap")


def test_indirect_fire_a_friend_sees_with_shrapnel() -> None:
    anna = soldier("Anna", group_leader=True, fk=12, weapons=(MORTAR,))
    targets = [{"unit": 2, "distance": 50, "cover": "hard"}]
    fire(duel(anna), targets, indirect=True, friend_sees=True)


def test_sustained_fire_on_two_targets() -> None:
    g = duel(soldier("Anna", group_leader=True, weapons=(MG,)))
    previews = fire(g, [{"unit": 2, "distance": 5}, {"unit": 3, "distance": 8, "shots": 2}])
    # The second target: one target switch (−1), one extra shot (+1 FK, +1 strength).
    assert previews[1].value == previews[0].value


def test_a_prone_shooter_at_a_revealed_actively_camouflaged_target() -> None:
    ben = soldier("Ben", group_leader=True, camouflage=Camouflage(active=True, level=2))
    g = duel(ben=ben)
    g.do("camouflage", unit=2, hidden=False)
    g.do("prone", unit=0)
    fire(g, [{"unit": 2, "distance": 15}])


def strike(g: Game, attacker: int, target: int, **args: Any) -> MeleeOdds:
    """Preview a melee attack (a charge: once it moved), then make it (it wins) and compare."""
    charge = args.pop("charge", False)
    if charge:
        g.do("melee", unit=attacker, target=target, charge=True, **args)
    odds = melee_odds(
        g.state,
        g.unit(attacker),
        g.unit(target),
        args.get("weapon", 0),
        friends=args.get("friends", 0),
        enemy_friends=args.get("enemy_friends", 0),
        charge=charge,
        reckless=args.get("reckless", False),
        rerolls=reroll_args(Args(args)),
    )
    assert isinstance(odds, MeleeOdds), odds
    if charge:
        events = g.dice(12, 1).do("charge_attack", unit=attacker)
    else:
        events = g.dice(12, 1).do("melee", unit=attacker, target=target, **args)
    fought = one(events, "melee_fought")
    first = fought["rolls"][0]
    assert (first["odds"], first["tie_odds"]) == (
        fraction_text(odds.nk.win),
        fraction_text(odds.nk.tie),
    )
    assert first["totals"][0] - 12 == odds.values[0]
    assert fought["won"]
    assert_wound(one(events, "wound_rolled"), odds.wound)
    return odds


def test_a_melee_attack_with_friends_on_both_sides() -> None:
    strike(duel(), 0, 2, weapon=1, friends=1, enemy_friends=2)


def test_a_reckless_charge_on_a_model_in_defence_gets_no_charge_bonus() -> None:
    g = duel(ben_first=True)
    g.do("defence", unit=2)
    g.do("end_phase")
    assert g.state.active == 0
    odds = strike(g, 0, 2, weapon=1, charge=True, reckless=True)
    assert odds.values[0] == 4 + 3


def test_a_camouflaged_attacker_with_a_concussive_hammer_against_robust_armour() -> None:
    anna = soldier(
        "Anna", group_leader=True, weapons=(HAMMER,), camouflage=Camouflage(active=True, level=1)
    )
    g = duel(anna, soldier("Ben", group_leader=True, armour=TOUGH))
    g.do("camouflage", unit=0, hidden=True)
    strike(g, 0, 2, erschuetterung="behind_or_tie", robust="behind")


def test_unarmed_against_a_bigger_model() -> None:
    strike(duel(ben=soldier("Ben", group_leader=True, size=Size.LARGE)), 0, 2, weapon=-1)


def test_the_direct_threat_button_shows_the_recorded_chance() -> None:
    g = duel()
    shown = there(tracker(g, selected=None, params={}).members[0].threat).button.odds[0]
    events = g.do("threat_test", unit=0, threat=2)
    assert shown.params["p"] == shown_chance(one(events, "threat_tested")["roll"]["odds"])
    assert shown.params["p"] == shown_chance(
        attribute_odds(attribute_value(g.state, g.unit(0), "eh"))
    )


def test_the_reveal_and_power_previews_show_the_recorded_chances() -> None:
    ben = soldier("Ben", group_leader=True, camouflage=Camouflage(active=False, level=3))
    mage = model(ANNA, powers=[power(difficulty=-1)])
    teams = [[mage, model(soldier("Anna 2"))], [model(ben), model(soldier("Ben 2"))]]
    g = Game(setup(teams)).to_round_one().phase_of(0, 2)
    g.do("camouflage", unit=2, hidden=True)
    form = {
        "command": "reveal",
        "args.unit:int": "0",
        "args.target:int": "2",
        "args.extra_ap:int": "1",
        "args.supporters.0:int": "1",
    }
    shown = there(tracker(g, selected=None, params=form).members[0].reveal).preview[0]
    events = g.do("reveal", unit=0, target=2, extra_ap=1, supporters=[1])
    assert shown.params["p"] == shown_chance(one(events, "reveal_rolled")["roll"]["odds"])
    shown = there(tracker(g, selected=None, params={}).members[0].power).preview[0]
    events = g.do("use_power", unit=0, power=0, target=3)
    assert shown.params["p"] == shown_chance(one(events, "power_rolled")["roll"]["odds"])
    assert shown.params["p"] == shown_chance(
        attribute_odds(power_value(g.state, g.unit(0), g.unit(0).powers[0]))
    )
    assert MAGE_DISCIPLINE


def test_the_shot_form_preview_reads_the_form_as_the_command_does() -> None:
    g = duel(soldier("Anna", group_leader=True, weapons=(KNIFE, MG, RIFLE)))
    form = {
        "command": "shoot",
        "args.unit:int": "0",
        "args.weapon:int": "1",
        "args.mode": "normal",
        "args.targets.0._on:bool": "true",
        "args.targets.0.unit:int": "2",
        "args.targets.0.distance:int": "25",
        "args.targets.0.cover": "soft",
        "args.targets.0.shots:int": "1",
        "args.targets.1._on:bool": "true",
        "args.targets.1.unit:int": "3",
        "args.targets.1.distance:int": "12",
        "args.targets.1.cover": "none",
        "args.targets.1.shots:int": "2",
        "args.targets.2.unit:int": "3",
    }
    lines = there(tracker(g, selected=None, params=form).members[0].shoot).preview
    first = shot_odds(g.state, g.unit(0), 1, g.unit(2), distance=25, cover="soft")
    second = shot_odds(g.state, g.unit(0), 1, g.unit(3), distance=12, number=1, count=2)
    assert isinstance(first, ShotOdds) and isinstance(second, ShotOdds)
    assert [line.params.get("name") for line in lines if line.template == "%(name)s"] == [
        "Ben",
        "Ben 2",
    ]
    assert [line for line in lines if line.template != "%(name)s"] == [
        *shot_lines(first),
        *shot_lines(second),
    ]
    # Without the form's fields: its defaults (the first ranged weapon and target the engine
    # takes, 10 cm, all of the sustained fire's shots on the target), and the form's button
    # sends exactly those.
    shot = there(tracker(g, selected=None, params={}).members[0].shoot)
    odds = shot_odds(g.state, g.unit(0), 1, g.unit(2), distance=10, count=1 + MG.df)
    assert isinstance(odds, ShotOdds) and shot.preview == shot_lines(odds)
    assert shot.button.enabled and shot.button.sends is not None
    assert shot.button.sends.args == {
        "unit": 0,
        "weapon": 1,
        "mode": "normal",
        "targets": [{"unit": 2, "distance": 10, "cover": "none", "shots": 3}],
    }


def test_the_melee_form_preview_reads_the_form_as_the_command_does() -> None:
    g = duel()
    form = {
        "command": "melee",
        "args.unit:int": "0",
        "args.target:int": "3",
        "args.weapon:int": "-1",
        "args.friends:int": "2",
        "args.enemy_friends:int": "1",
        "args.charge:bool": "true",
    }
    lines = there(tracker(g, selected=None, params=form).members[0].melee).preview
    odds = melee_odds(g.state, g.unit(0), g.unit(3), -1, friends=2, enemy_friends=1, charge=True)
    assert isinstance(odds, MeleeOdds) and lines == melee_lines(odds)


@pytest.mark.parametrize(
    "form",
    [
        {"args.weapon:int": "x", "args.targets.0.distance:int": "-5", "args.mode": "??"},
        {"args.weapon:int": "7", "args.targets.0.unit:int": "99999999999"},
        {"args.targets.0.distance:int": "400", "args.targets.0.cover": "<script>"},
        {"args.weapon:int": "-1"},
    ],
)
def test_bad_form_fields_give_a_refusal_or_odds_never_an_error(form: dict[str, str]) -> None:
    g = duel()
    params = {"command": "shoot", "args.unit:int": "0", **form}
    lines = there(tracker(g, selected=None, params=params).members[0].shoot).preview
    assert lines and all(line.text for line in lines)


def test_the_reaction_fire_preview_is_the_recorded_chance() -> None:
    g = ben_waits_ready(duel())
    g.do("move", unit=1, cm=5)
    form = {
        "command": "reaction_fire",
        "args.unit:int": "2",
        "args.target.distance:int": "25",
        "args.target.cover": "soft",
    }
    shown = tracker(g, selected=2, params=form).reactions
    odds = shot_odds(g.state, g.unit(2), 0, g.unit(1), mode="reaction", distance=25, cover="soft")
    assert shown is not None and isinstance(odds, ShotOdds)
    assert there(shown.reaction_fire).preview == shot_lines(odds)
    events = g.dice(1).do("reaction_fire", unit=2, target={"distance": 25, "cover": "soft"})
    assert one(events, "shot")["roll"]["odds"] == fraction_text(odds.hit)
    assert_wound(one(events, "wound_rolled"), odds.wound)


def test_the_counter_attack_preview_of_a_lost_reckless_attack_is_the_recorded_chance() -> None:
    g = duel()
    g.dice(1, 12).do("melee", unit=0, target=2, weapon=1, reckless=True)
    form = {
        "command": "counter_attack",
        "args.unit:int": "2",
        "args.weapon:int": "1",
        "args.friends:int": "1",
    }
    shown = tracker(g, selected=2, params=form).reactions
    odds = melee_odds(g.state, g.unit(2), g.unit(0), 1, friends=1, defender_zero=True)
    assert shown is not None and isinstance(odds, MeleeOdds)
    assert there(shown.strike).preview == melee_lines(odds)
    events = g.dice(12, 1).do("counter_attack", unit=2, weapon=1, friends=1)
    first = one(events, "melee_fought")["rolls"][0]
    assert (first["odds"], first["tie_odds"]) == (
        fraction_text(odds.nk.win),
        fraction_text(odds.nk.tie),
    )
    assert_wound(one(events, "wound_rolled"), odds.wound)


def test_the_power_preview_shows_each_blockers_recorded_chance() -> None:
    """A discipline model of the enemy may block (3 AP, 20.5): its own roll against the power's
    attribute and difficulty, shown before the power is used."""
    mage = model(ANNA, powers=[power(difficulty=-1)])
    blocker = soldier("Ben", group_leader=True, disciplines=MAGE_DISCIPLINE, wn=3)
    teams = [[mage, model(soldier("Anna 2"))], [model(blocker), model(soldier("Ben 2"))]]
    g = Game(setup(teams)).to_round_one().phase_of(0, 2)
    own, ben = there(tracker(g, selected=None, params={}).members[0].power).preview
    assert ben.params["name"] == "Ben"
    events = g.dice(1, 1).do("use_power", unit=0, power=0, blockers=[2])
    rolls = [e.data["roll"]["odds"] for e in events if e.type == "power_rolled"]
    assert [own.params["p"], ben.params["p"]] == [shown_chance(odds) for odds in rolls]
    assert own.params["p"] != ben.params["p"]


GRENADE = Weapon("Granate", wk=1, range="10/2", strength=5, damage=1, uses=1)
SNEAKY = soldier("Ben", group_leader=True, camouflage=Camouflage(active=True, level=2))


@pytest.mark.parametrize(
    ("ben", "shot", "code"),
    [
        (BEN, {"weapon": 7, "targets": [{"unit": 2, "distance": 10}]}, "unknown_weapon"),
        (BEN, {"weapon": 1, "targets": [{"unit": 2, "distance": 10}]}, "wrong_weapon"),
        (BEN, {"indirect": True, "targets": [{"unit": 2, "distance": 400}]}, "not_indirect"),
        (SNEAKY, {"targets": [{"unit": 2, "distance": 400}]}, "out_of_range"),
        (BEN, {"targets": [{"unit": 0, "distance": 10}]}, "target_self"),
        (SNEAKY, {"targets": [{"unit": 2, "distance": 10}]}, "target_camouflaged"),
    ],
)
def test_a_refused_shot_previews_the_code_the_command_is_refused_with(
    ben: UnitCard, shot: dict[str, Any], code: str
) -> None:
    g = duel(ben=ben)
    target = shot["targets"][0]
    odds = shot_odds(
        g.state,
        g.unit(0),
        shot.get("weapon", 0),
        g.unit(target["unit"]),
        distance=target["distance"],
        indirect=shot.get("indirect", False),
    )
    assert odds == code
    g.refused("shoot", code, unit=0, **{"weapon": 0, **shot})


@pytest.mark.parametrize(
    ("ben", "weapon", "target", "code"),
    [
        (BEN, 7, 2, "unknown_weapon"),
        (BEN, 0, 0, "wrong_weapon"),
        (BEN, 1, 0, "target_self"),
        (SNEAKY, 1, 2, "target_camouflaged"),
    ],
)
def test_a_refused_melee_attack_previews_the_code_the_command_is_refused_with(
    ben: UnitCard, weapon: int, target: int, code: str
) -> None:
    g = duel(ben=ben)
    assert melee_odds(g.state, g.unit(0), g.unit(target), weapon) == code
    g.refused("melee", code, unit=0, target=target, weapon=weapon)


def test_a_used_up_ranged_weapon_in_melee_is_the_wrong_weapon_in_both() -> None:
    g = duel(soldier("Anna", group_leader=True, weapons=(GRENADE, KNIFE)))
    g.dice(12).do("shoot", unit=0, targets=[{"unit": 2, "distance": 5}])
    assert melee_odds(g.state, g.unit(0), g.unit(2), 0) == "wrong_weapon"
    g.refused("melee", "wrong_weapon", unit=0, target=2, weapon=0)
