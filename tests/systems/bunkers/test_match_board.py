"""Bunkers and Badasses: doors and laser barriers, reserves, levels and units
(bunkers-and-badasses.de.txt, "Das Spielfeld", "Reserven", "Spiele auf mehreren Ebenen")."""

from __future__ import annotations

from apps.systems.bunkers.match.tables import DoorState, Phase
from tests.systems.bunkers.test_match_support import (
    add_doors,
    code,
    run,
    start,
    to_battle,
    to_phase,
)


def test_a_door_has_five_wounds_and_is_sealed_after_losing_one() -> None:
    """ "Allerdings gilt die Tür ab sofort als versiegelt, wenn sie mindestens 1 Lebenspunkt
    verloren hat. Das gilt auch für Türen, die beschossen, aber nicht zerstört wurden." """
    state = add_doors(to_battle(start()), 1)
    assert (state.doors[0].wounds, state.doors[0].state) == (5, DoorState.CLOSED)
    state = to_phase(state, Phase.SHOOTING, player=0)
    state, _ = run(state, "damage_door", door=0, wounds=1)
    assert (state.doors[0].wounds, state.doors[0].state) == (4, DoorState.SEALED)


def test_a_sealed_door_opens_only_by_destruction() -> None:
    """ "Eine versiegelte Tür, kann nur durch ihre Zerstörung geöffnet werden." """
    state = to_phase(add_doors(to_battle(start()), 1), Phase.SHOOTING, player=0)
    state, _ = run(state, "damage_door", door=0, wounds=2)
    state = to_phase(state, Phase.MOVEMENT, player=1)
    assert code(state, "open_door", door=0) == "door_sealed"
    assert code(state, "close_door", door=0) == "door_sealed"
    state = to_phase(state, Phase.FIGHT, player=1)
    state, _ = run(state, "damage_door", door=0, wounds=3)
    assert (state.doors[0].wounds, state.doors[0].state) == (0, DoorState.DESTROYED)
    assert code(state, "damage_door", door=0) == "door_destroyed"


def test_doors_open_and_close_in_the_movement_phase() -> None:
    """ "Eine intakte und nicht versiegelte Tür kann von einer Einheit in direktem Kontakt,
    geöffnet oder geschlossen werden. ... zu einem beliebigen Zeitpunkt in der Bewegungsphase" """
    state = add_doors(to_battle(start()), 1)
    assert code(state, "open_door", door=0) == "wrong_phase"
    state = to_phase(state, Phase.MOVEMENT)
    assert code(state, "close_door", door=0) == "door_already"
    state, _ = run(state, "open_door", door=0)
    assert state.doors[0].state is DoorState.OPEN


def test_open_doors_close_at_the_end_of_the_turn_unless_kept_open() -> None:
    """ "Befindet sich kein Modell innerhalb von zwei Zoll zu einer Tür, schließt diese
    automatisch am Ende jedes Spielerzuges." — a sentry gun within 2" keeps it open too."""
    state = to_phase(add_doors(to_battle(start()), 3), Phase.MOVEMENT)
    state, _ = run(state, "add_door", kind="barrier")
    for door in (0, 1, 3):
        state, _ = run(state, "open_door", door=door)
    state = to_phase(state, Phase.MORALE)
    assert code(state, "next_phase", keep=[2]) == "not_open"
    state, events = run(state, "next_phase", keep=[1])
    closed = next(e for e in events if e.type == "doors_closed")
    assert closed.data == {"doors": [0, 3], "kept": [1]}
    assert [d.state for d in state.doors] == [
        DoorState.CLOSED,
        DoorState.OPEN,
        DoorState.CLOSED,
        DoorState.CLOSED,
    ]
    assert state.active == 1 and state.phase is Phase.COMMAND


def test_laser_barriers_open_and_close_but_take_no_wounds() -> None:
    """ "Ansonsten kann die Barriere wie eine Tür geschlossen und geöffnet werden." """
    state, _ = run(to_battle(start()), "add_door", kind="barrier", name="Laser A")
    state = to_phase(state, Phase.SHOOTING)
    assert code(state, "damage_door", door=0) == "not_a_door"
    state = to_phase(state, Phase.MOVEMENT, player=1)
    state, _ = run(state, "open_door", door=0)
    assert state.doors[0].state is DoorState.OPEN


def test_narrow_doors_are_flagged() -> None:
    """ "Schmale Türen können nur von Modellen bis 50mm Base Größe durchschritten werden." """
    state, _ = run(start(), "add_door", name="Hatch", narrow=True)
    assert state.doors[0].narrow and state.doors[0].name == "Hatch"


def test_one_free_deep_strike_further_ones_need_aus_dem_nichts() -> None:
    """ "Jeder Spieler darf eine seiner Einheiten die über die entsprechende Sonderregel verfügt
    und sich in Reserve befindet, so aufstellen. Jede weitere Einheit, die über diese
    Sonderregel aufgestellt werden soll, muss dazu die Gefechtsoption „Aus dem Nichts“
    nutzen." """
    state = to_battle(start())
    state = state.with_unit(2, place="reserve").with_unit(3, place="reserve")
    state = to_phase(state, Phase.MOVEMENT, player=0)
    assert code(state, "arrive", unit=0, deep_strike=True) == "not_in_reserve"
    state, events = run(state, "arrive", unit=2, deep_strike=True, place="upper")
    assert events[0].data["paid"] is False and state.units[2].place == "upper"
    assert code(state, "arrive", unit=3, deep_strike=True) == "needs_aus_dem_nichts"
    state, _ = run(state, "buy_option", player=0, option="aus-dem-nichts")
    state, events = run(state, "arrive", unit=3, deep_strike=True)
    assert events[0].data["paid"] is True and state.players[0].nowhere == 0


def test_reserves_may_always_come_from_the_own_table_edge() -> None:
    """ "Es ist auch weiterhin möglich, Einheiten aus der Reserve heraus, über die
    Spielfeldkante in der eigenen Aufstellungszone aufzustellen" """
    state = to_battle(start()).with_unit(1, place="reserve")
    state = to_phase(state, Phase.MOVEMENT, player=0)
    assert code(state, "arrive", unit=1, deep_strike=True) == "no_deep_strike"
    state, _ = run(state, "arrive", unit=1, deep_strike=False)
    assert state.units[1].place == "lower"
    assert code(state, "arrive", unit=1) == "not_in_reserve"


def test_ladders_and_elevators_carry_two_units_per_turn() -> None:
    """ "Eine Leiter hat eine Transportkapazität von 15 Modellen, die sich beliebig auf maximal
    zwei Einheiten pro Spielzug aufteilen lässt." / "Ein Aufzug hat eine Transportkapazität
    von zwei Einheiten pro Spielzug." """
    state = to_phase(to_battle(start()), Phase.MOVEMENT, player=0)
    state, _ = run(state, "change_level", unit=0)
    state, _ = run(state, "change_level", unit=1)
    assert code(state, "change_level", unit=2) == "level_changes_spent"
    assert code(state, "change_level", unit=4) == "not_your_turn"
    state = to_phase(state, Phase.MOVEMENT, player=1)
    state, _ = run(state, "change_level", unit=4)


def test_unit_losses_and_corrections() -> None:
    """The players report what the table resolved: wounds go on the wounded model first."""
    state = to_battle(start())
    state, _ = run(state, "adjust", unit=1, change="wound_lost")  # 5 models, 2 W each
    assert (state.units[1].models, state.units[1].wounds) == (5, 9)
    state, _ = run(state, "adjust", unit=1, change="model_lost")
    assert (state.units[1].models, state.units[1].wounds) == (4, 8)
    state, _ = run(state, "adjust", unit=1, change="model_restored")
    assert (state.units[1].models, state.units[1].wounds) == (5, 10)
    assert code(state, "adjust", unit=1, change="wound_restored") == "at_full_strength"
    state, _ = run(state, "adjust", unit=1, change="destroyed")
    assert state.units[1].destroyed
    assert code(state, "adjust", unit=1, change="wound_lost") == "unit_destroyed"
