"""Ranged combat (SPEC §3 Ranged): range bands, every modifier, sustained fire, area weapons,
dodging, shooting into melee, fire readiness and reaction fire."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from apps.systems.universalis.catalog import Camouflage, Size, Weapon
from tests.systems.universalis.helpers import (
    RIFLE,
    Game,
    ben_waits_ready,
    model,
    of_type,
    one,
    setup,
    soldier,
)


def acting(anna: Any = None, ben: Any = None) -> Game:
    teams = [
        [model(anna or soldier("Anna Chefin", group_leader=True)), model(soldier("Anna Soldat"))],
        [model(ben or soldier("Ben Chef", group_leader=True)), model(soldier("Ben Soldat"))],
    ]
    return Game(setup(teams)).to_round_one().phase_of(0, 2)


def ready_to_react(ben: Any = None) -> Game:
    """Ben's leader (unit 2) ends its phase in fire readiness; Anna's soldier (unit 1) acts."""
    return ben_waits_ready(acting(ben=ben))


def fk_target(g: Game, **target: Any) -> int:
    """The FK value Anna's leader rolls against when shooting Ben's leader (a miss: a 12)."""
    options = {key: target.pop(key) for key in ("mode", "indirect", "friend_sees") if key in target}
    events = g.dice(12).do(
        "shoot", unit=0, targets=[{"unit": 2, "distance": 10, **target}], **options
    )
    return int(one(events, "shot")["roll"]["target"])


@pytest.mark.parametrize(("distance", "penalty"), [(15, 0), (20, 0), (21, 1), (42, 2), (60, 2)])
def test_minus_1_per_fully_used_range_band(distance: int, penalty: int) -> None:
    assert fk_target(acting(), distance=distance) == 6 - penalty


def test_no_shot_beyond_the_last_band() -> None:
    acting().refused("shoot", "out_of_range", unit=0, targets=[{"unit": 2, "distance": 61}])


def test_aimed_shot_doubles_the_bands_and_gives_plus_2() -> None:
    assert fk_target(acting(), distance=39, mode="aimed") == 8


def test_snap_shot_gives_minus_2() -> None:
    assert fk_target(acting(), mode="snap") == 4


@pytest.mark.parametrize(
    ("size", "modifier"), [(Size.SMALL, -1), (Size.MEDIUM, 0), (Size.LARGE, 1)]
)
def test_target_size_modifies_the_shot(size: Size, modifier: int) -> None:
    g = acting(ben=soldier("Ben Chef", group_leader=True, size=size))
    assert fk_target(g) == 6 + modifier


def test_a_prone_target_counts_one_size_smaller() -> None:
    g = acting(ben=soldier("Ben Chef", group_leader=True, size=Size.LARGE))
    g.do("end_phase")
    g.do("prone", unit=2)
    g.do("end_phase")
    g.do("pick", player=0, unit=1)
    g.dice(9, 1).do("pick", player=1, unit=3)
    events = g.dice(12).do("shoot", unit=1, targets=[{"unit": 2, "distance": 10}])
    assert one(events, "shot")["roll"]["target"] == 6


def test_a_huge_target_gives_plus_2() -> None:
    huge = soldier("Ben", group_leader=True, size=Size.HUGE)
    assert fk_target(acting(ben=huge)) == 6 + 2


@pytest.mark.parametrize(("cover", "modifier"), [("soft", -1), ("hard", -2), ("massive", -3)])
def test_cover_modifies_the_shot(cover: str, modifier: int) -> None:
    assert fk_target(acting(), cover=cover) == 6 + modifier


def test_an_unwieldy_weapon_gets_minus_3_against_small_and_medium_targets() -> None:
    anna = soldier("Anna", group_leader=True, weapons=(replace(RIFLE, unwieldy=True),))
    assert fk_target(acting(anna=anna)) == 3
    big = soldier("Ben", group_leader=True, size=Size.LARGE)
    assert fk_target(acting(anna=anna, ben=big)) == 7


def test_a_prone_shooter_gets_plus_2() -> None:
    g = acting()
    g.do("prone", unit=0)
    assert fk_target(g) == 8


def test_a_fast_moving_target_gives_minus_2() -> None:
    g = acting()
    g.do("end_phase")
    for cm in (10, 10, 1):
        g.do("move", unit=2, cm=cm)
    assert g.unit(2).fast
    g.do("end_phase")
    g.do("pick", player=0, unit=1)
    g.dice(9, 1).do("pick", player=1, unit=3)
    events = g.dice(12).do("shoot", unit=1, targets=[{"unit": 2, "distance": 10}])
    assert one(events, "shot")["roll"]["target"] == 4


def test_a_thrown_weapon_has_3_bands_of_ko_times_2_or_half_ko_when_unwieldy() -> None:
    stone = Weapon("Stein", 1, "thrown", 3, 1)
    thrower = soldier("Anna", group_leader=True, ko=5, weapons=(stone,))
    assert fk_target(acting(anna=thrower), distance=30) == 6 - 2
    acting(anna=thrower).refused(
        "shoot", "out_of_range", unit=0, targets=[{"unit": 2, "distance": 31}]
    )
    rock = soldier("Anna", group_leader=True, ko=5, weapons=(replace(stone, unwieldy=True),))
    assert fk_target(acting(anna=rock), distance=9) == 6 - 2 - 3
    acting(anna=rock).refused(
        "shoot", "out_of_range", unit=0, targets=[{"unit": 2, "distance": 10}]
    )


def test_indirect_fire_is_minus_5_or_minus_3_seen_by_a_friend_without_cover() -> None:
    mortar = replace(RIFLE, indirect=True)
    anna = soldier("Anna", group_leader=True, weapons=(mortar,))
    assert fk_target(acting(anna=anna), indirect=True, cover="massive") == 1
    assert fk_target(acting(anna=anna), indirect=True, friend_sees=True) == 3


def test_indirect_fire_needs_an_indirect_weapon() -> None:
    acting().refused(
        "shoot", "not_indirect", unit=0, targets=[{"unit": 2, "distance": 5}], indirect=True
    )


def test_indirect_hits_count_as_massive_cover_for_the_armour_roll() -> None:
    anna = soldier("Anna", group_leader=True, weapons=(replace(RIFLE, indirect=True),))
    g = acting(anna=anna)
    events = g.dice(1, 6, 4).do(
        "shoot", unit=0, targets=[{"unit": 2, "distance": 10}], indirect=True
    )
    wound = one(events, "wound_rolled")
    assert (wound["wound"], wound["armour"]) == (11, 11)


def test_sustained_fire_splits_shots_with_a_cumulative_switch_penalty() -> None:
    smg = replace(RIFLE, name="MP", df=3)
    g = acting(anna=soldier("Anna", group_leader=True, weapons=(smg,)))
    events = g.dice(12, 12).do(
        "shoot",
        unit=0,
        targets=[{"unit": 2, "distance": 10, "shots": 2}, {"unit": 3, "distance": 10, "shots": 2}],
    )
    targets = [shot["roll"]["target"] for shot in of_type(events, "shot")]
    assert targets == [7, 6]


def test_sustained_fire_must_assign_every_shot() -> None:
    smg = replace(RIFLE, name="MP", df=3)
    g = acting(anna=soldier("Anna", group_leader=True, weapons=(smg,)))
    g.refused("shoot", "df_shots", unit=0, targets=[{"unit": 2, "distance": 10, "shots": 3}])
    g.refused(
        "shoot",
        "aimed_no_df",
        unit=0,
        mode="aimed",
        targets=[{"unit": 2, "distance": 10, "shots": 4}],
    )


def test_a_target_is_named_once_in_a_sustained_fire_split() -> None:
    smg = replace(RIFLE, name="MP", df=2)
    g = acting(anna=soldier("Anna", group_leader=True, weapons=(smg,)))
    twice = [{"unit": 2, "distance": 5}, {"unit": 3, "distance": 5}, {"unit": 2, "distance": 5}]
    g.refused("shoot", "target_twice", unit=0, targets=twice)


def test_extra_shots_on_one_target_add_to_the_wound_roll() -> None:
    smg = replace(RIFLE, name="MP", df=3)
    g = acting(anna=soldier("Anna", group_leader=True, weapons=(smg,)))
    events = g.dice(1, 1, 1).do("shoot", unit=0, targets=[{"unit": 2, "distance": 10, "shots": 4}])
    assert one(events, "shot")["roll"]["target"] == 9
    assert one(events, "wound_rolled")["wound"] == 1 + 5 + 3


def test_a_won_dodge_gives_the_shooter_minus_1_and_costs_1_ap() -> None:
    g = acting()
    events = g.dice(10, 1, 12).do(
        "shoot", unit=0, targets=[{"unit": 2, "distance": 10, "dodge": True}]
    )
    assert one(events, "dodged")["won"] is True
    assert one(events, "shot")["roll"]["target"] == 5
    assert g.unit(2).ap == 5


def test_a_prone_model_cannot_dodge() -> None:
    g = acting()
    g.do("end_phase")
    g.do("prone", unit=2)
    g.do("end_phase")
    g.do("pick", player=0, unit=1)
    g.dice(9, 1).do("pick", player=1, unit=3)
    g.refused("shoot", "cannot_dodge", unit=1, targets=[{"unit": 2, "distance": 10, "dodge": True}])


def test_shooting_into_melee_hits_each_combatant_equally_likely() -> None:
    g = acting()
    events = g.dice(1, 2, 1, 1).do(
        "shoot", unit=0, targets=[{"unit": 2, "distance": 10, "melee_with": [1]}]
    )
    assert one(events, "melee_victim")["unit"] == 1
    assert one(events, "wound_rolled")["unit"] == 1


def test_an_area_weapon_that_misses_scatters_difference_times_3_cm_at_most_half_the_distance() -> (
    None
):
    launcher = replace(RIFLE, name="Werfer", area=5)
    g = acting(anna=soldier("Anna", group_leader=True, weapons=(launcher,)))
    events = g.dice(8, 4).do("shoot", unit=0, targets=[{"distance": 20}])
    pending = one(events, "area_pending")
    assert (pending["scatter_cm"], pending["direction"]) == (6, 4)
    g.refused("move", "area_first", unit=0)
    g2 = acting(anna=soldier("Anna", group_leader=True, weapons=(launcher,)))
    events = g2.dice(12, 3).do("shoot", unit=0, targets=[{"distance": 8}])
    assert one(events, "area_pending")["scatter_cm"] == 4


def test_area_hits_partly_covered_models_take_half_damage_rounded_up() -> None:
    launcher = replace(RIFLE, name="Werfer", area=5, damage=3)
    g = acting(anna=soldier("Anna", group_leader=True, weapons=(launcher,)))
    g.dice(1).do("shoot", unit=0, targets=[{"unit": 2, "distance": 10}])
    g.dice(12, 1).do("area_hits", hits=[{"unit": 2, "partial": True}])
    assert g.unit(2).hp == 8 - 2


def test_camouflaged_models_cannot_be_hit_by_area_weapons() -> None:
    launcher = replace(RIFLE, name="Werfer", area=5)
    sneaky = soldier("Ben", group_leader=True, camouflage=Camouflage(active=False, level=1))
    g = acting(anna=soldier("Anna", group_leader=True, weapons=(launcher,)), ben=sneaky)
    g.dice(1).do("shoot", unit=0, targets=[{"distance": 10}])
    g.refused("area_hits", "target_camouflaged", hits=[{"unit": 2}])


def test_a_model_in_defence_tests_eh_when_shot_at() -> None:
    g = acting()
    g.do("end_phase")
    g.do("defence", unit=2)
    g.do("end_phase")
    g.do("pick", player=0, unit=1)
    g.dice(9, 1).do("pick", player=1, unit=3)
    events = g.dice(12, 12).do("shoot", unit=1, targets=[{"unit": 2, "distance": 10}])
    assert one(events, "defence_tested")["passed"] is False
    assert not g.unit(2).defence


def test_fire_readiness_is_tested_when_the_model_is_hit() -> None:
    g = ready_to_react()
    events = g.dice(1, 12, 1, 12).do("shoot", unit=1, targets=[{"unit": 2, "distance": 10}])
    assert one(events, "readiness_tested")["passed"] is False
    assert g.unit(2).readiness is None


def test_fire_readiness_is_tested_when_an_area_weapon_hits_the_model() -> None:
    launcher = replace(RIFLE, name="Werfer", area=5)
    teams = [
        [model(soldier("Anna", group_leader=True)), model(soldier("Anna 2", weapons=(launcher,)))],
        [model(soldier("Ben", group_leader=True)), model(soldier("Ben 2"))],
    ]
    g = ben_waits_ready(Game(setup(teams)).to_round_one().phase_of(0, 2))
    g.dice(12, 4).do("shoot", unit=1, targets=[{"unit": 2, "distance": 10}])
    events = g.dice(1, 12).do("area_hits", hits=[{"unit": 2}])
    assert not of_type(events, "readiness_tested")  # a scattered miss is no successful action
    g.dice(1).do("shoot", unit=1, targets=[{"unit": 2, "distance": 10}])
    events = g.dice(12, 1, 12).do("area_hits", hits=[{"unit": 2}, {"unit": 0}])
    assert one(events, "readiness_tested")["unit"] == 2
    assert g.unit(2).readiness is None


def test_reaction_fire_answers_an_enemy_move_with_minus_1() -> None:
    g = ready_to_react()
    g.refused("reaction_fire", "no_move", unit=2, target={"distance": 10})
    g.do("move", unit=1)
    events = g.dice(12).do("reaction_fire", unit=2, target={"distance": 10})
    assert one(events, "shot")["roll"]["target"] == 5
    assert g.unit(2).readiness is None and g.unit(2).ap == 2


def test_reaction_fire_with_sustained_fire_puts_every_shot_on_the_mover() -> None:
    smg = replace(RIFLE, name="MP", df=2)
    g = ready_to_react(ben=soldier("Ben", group_leader=True, weapons=(smg,)))
    g.do("move", unit=1)
    g.refused("reaction_fire", "df_shots", unit=2, target={"distance": 10, "shots": 2})
    events = g.dice(1, 1, 1).do("reaction_fire", unit=2, target={"distance": 10})
    shot = one(events, "shot")
    assert (shot["target"], shot["shots"]) == (1, 3)
    assert shot["roll"]["target"] == 6 - 1 + 2
    assert one(events, "wound_rolled")["wound"] == 1 + 5 + 2


def test_reaction_fire_answers_only_the_action_just_taken() -> None:
    g = ready_to_react()
    g.do("move", unit=1)
    g.dice(12).do("shoot", unit=1, targets=[{"unit": 3, "distance": 10}])
    g.refused("reaction_fire", "no_move", unit=2, target={"distance": 10})
    g.do("move", unit=1)
    g.do("prone", unit=1)
    g.refused("reaction_fire", "no_move", unit=2, target={"distance": 10})


def test_a_fleeing_model_may_be_fired_at_in_reaction() -> None:
    g = ready_to_react()
    g.dice(12, 1).do("auto_hit", unit=0, strength=20, damage=20)
    g.dice(12).do("panic_test", unit=1)
    g.do("flee", unit=1)
    events = g.dice(12).do("reaction_fire", unit=2, target={"distance": 10})
    assert one(events, "shot")["target"] == 1


def test_reaction_fire_needs_fire_readiness() -> None:
    g = acting()
    g.do("move", unit=0)
    g.refused("reaction_fire", "no_readiness", unit=3, target={"distance": 10})


def test_camouflaged_models_cannot_be_shot() -> None:
    sneaky = soldier("Ben", group_leader=True, camouflage=Camouflage(active=True, level=2))
    g = acting(ben=sneaky)
    g.refused("shoot", "target_camouflaged", unit=0, targets=[{"unit": 2, "distance": 10}])


def test_melee_weapons_do_not_shoot() -> None:
    knife_only = soldier("Anna", group_leader=True, weapons=(Weapon("Messer", 1, "NK", 3, 1),))
    acting(anna=knife_only).refused(
        "shoot", "wrong_weapon", unit=0, targets=[{"unit": 2, "distance": 1}]
    )


def test_panicking_or_burning_models_cannot_react() -> None:
    g = ready_to_react()
    g.dice(12, 1).do("auto_hit", unit=3, strength=20, damage=20)
    g.dice(12).do("panic_test", unit=2)
    g.do("move", unit=1)
    g.refused("reaction_fire", "cannot_react", unit=2, target={"distance": 10})
    g2 = ready_to_react()
    g2.dice(9, 1).do("auto_hit", unit=2, strength=5, damage=1, effects=["brand"])
    g2.do("move", unit=1)
    g2.refused("reaction_fire", "cannot_react", unit=2, target={"distance": 10})


def test_reaction_fire_is_never_indirect() -> None:
    mortar = replace(RIFLE, name="Werfer", indirect=True)
    g = ready_to_react(ben=soldier("Ben", group_leader=True, weapons=(mortar,)))
    g.do("move", unit=1)
    g.refused("reaction_fire", "not_indirect", unit=2, target={"distance": 10}, indirect=True)
