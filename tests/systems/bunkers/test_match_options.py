"""Bunkers and Badasses: the Gefechtsoptionen (battle options), each with its cost, its
timing window and its limits (bunkers-and-badasses.de.txt, "Gefechtsoptionen")."""

from __future__ import annotations

from typing import Any

import pytest

from apps.systems.bunkers.match.state import MatchState
from apps.systems.bunkers.match.tables import (
    OPTIONS,
    OWN_WINDOWS,
    BattleOption,
    DoorState,
    Effect,
    Phase,
    Window,
)
from tests.systems.bunkers.test_match_support import (
    ENGINE,
    add_doors,
    code,
    run,
    start,
    to_battle,
    to_phase,
)

# Where each window is open for Anna (player 0), whose turn comes first.
WINDOW_PHASE = {
    Window.OWN_MOVEMENT: Phase.MOVEMENT,
    Window.OWN_SHOOTING: Phase.SHOOTING,
    Window.MOVEMENT: Phase.MOVEMENT,
    Window.SHOOTING: Phase.SHOOTING,
    Window.FIGHT: Phase.FIGHT,
    Window.OWN_TURN: Phase.CHARGE,
    Window.ANY: Phase.MORALE,
}
# The rulebook's cost of each option ("### **2 Punkte (...)**").
COSTS = {
    "Wartungsschächte": 2,
    "Sprengfalle": 1,
    "Rauchgranate": 1,
    "Tür verschweißen": 1,
    "Plasmaschneider": 1,
    "Bewegungsscanner": 2,
    "Heiße Gase": 1,
    "Hacker Angriff": 3,
    "Aufklärungsdrohne": 2,
    "Sentry Gun": 2,
    "Barrikaden": 2,
    "Höllenfeuer": 2,
    "Massives Vorrücken": 1,
    "Aus dem Nichts": 2,
    "Verzweiflungstat": 4,
    "Eile ist geboten": 2,
}


def test_the_options_table_holds_the_rulebook_costs() -> None:
    assert {o.name: o.cost for o in OPTIONS} == COSTS


def _in_window(option: BattleOption) -> tuple[MatchState, dict[str, Any]]:
    """A battle in the option's window (Anna's turn), with a target it accepts."""
    state = add_doors(to_battle(start()))
    state = to_phase(state, WINDOW_PHASE[option.window], player=0)
    args: dict[str, Any] = {"player": 0, "option": option.key}
    if option.effect is Effect.CUT:
        state, _ = run(state, "damage_door", door=0, wounds=1)  # sealed now
    if option.effect in (Effect.WELD, Effect.CUT, Effect.HACK, Effect.TRAP):
        args["door"] = 0
    if option.effect is Effect.HURRY:
        args["unit"] = 0
    return state, args


@pytest.mark.parametrize("option", OPTIONS, ids=[o.key for o in OPTIONS])
def test_each_option_costs_its_cp_in_its_window(option: BattleOption) -> None:
    """ "Jedem Spieler stehen Kommandopunkte zur Verfügung, die er beliebig vor und während
    des Spiels für Gefechtsoptionen ausgeben darf. Alle Beschränkungen stehen bei der
    jeweiligen Gefechtsoption dabei." """
    state, args = _in_window(option)
    before = state.players[0].cp
    after, events = run(state, "buy_option", **args)
    assert after.players[0].cp == before - option.cost
    assert events[0].type == "option_bought" and events[0].data["option"] == option.key


@pytest.mark.parametrize("option", OPTIONS, ids=[o.key for o in OPTIONS])
def test_each_option_is_refused_outside_its_window(option: BattleOption) -> None:
    state, args = _in_window(option)
    if option.window is Window.ANY:
        state, _ = run(start(), "roll_off")  # before the battle too
        assert ENGINE.check(state, _command(args)) is None
        return
    if option.window in OWN_WINDOWS:
        assert code(state, "buy_option", **{**args, "player": 1}) == "not_your_turn"
    else:
        assert ENGINE.check(state, _command({**args, "player": 1})) is None
    if option.window is not Window.OWN_TURN:
        command_phase = to_phase(state, Phase.COMMAND, player=0)
        assert code(command_phase, "buy_option", **args) == "wrong_phase"


@pytest.mark.parametrize("option", OPTIONS, ids=[o.key for o in OPTIONS])
def test_each_option_is_refused_without_the_cp(option: BattleOption) -> None:
    """ "The tracker refuses one the player cannot afford" (SPEC §5)."""
    state, args = _in_window(option)
    state, _ = run(state, "adjust_cp", player=0, points=option.cost - 1 - state.players[0].cp)
    assert code(state, "buy_option", **args) == "cp_short"


def _command(args: dict[str, Any]) -> Any:
    from apps.systems.core.match import Command

    return Command("buy_option", args)


def test_verzweiflungstat_once_per_team_and_game() -> None:
    """ "4 Punkte (zu Beginn der Nahkampfphase/ nur einmal pro Team/Spiel)" """
    state = to_phase(to_battle(start()), Phase.FIGHT, player=0)
    state, _ = run(state, "buy_option", player=0, option="verzweiflungstat")
    assert code(state, "buy_option", player=0, option="verzweiflungstat") == "once_per_game_spent"
    state = to_phase(state, Phase.FIGHT, player=1)
    state, _ = run(state, "adjust_cp", player=0, points=4)
    assert code(state, "buy_option", player=0, option="verzweiflungstat") == "once_per_game_spent"
    state, _ = run(state, "buy_option", player=1, option="verzweiflungstat")  # the other team


def test_tuer_verschweissen_seals_a_closed_door() -> None:
    """ "Eine verschweißte Tür gilt ab sofort als „versiegelt“ und kann nur noch geöffnet
    werden, wenn sie zerstört wird." """
    state = to_phase(add_doors(to_battle(start())), Phase.MOVEMENT, player=0)
    state, _ = run(state, "buy_option", player=0, option="tuer-verschweissen", door=0)
    assert state.doors[0].state is DoorState.SEALED
    assert code(state, "open_door", door=0) == "door_sealed"
    assert code(state, "buy_option", player=0, option="tuer-verschweissen", door=0) == (
        "door_sealed"
    )


def test_plasmaschneider_destroys_only_a_sealed_door() -> None:
    """ "darf eine Einheit die in direktem Kontakt zu einer versiegelten Tür steht, diese
    aufschneiden. Die Tür gilt danach als zerstört" """
    state = to_phase(add_doors(to_battle(start())), Phase.SHOOTING, player=0)
    assert code(state, "buy_option", player=0, option="plasmaschneider", door=1) == (
        "door_not_sealed"
    )
    state, _ = run(state, "damage_door", door=1, wounds=2)
    state, _ = run(state, "buy_option", player=0, option="plasmaschneider", door=1)
    assert state.doors[1].state is DoorState.DESTROYED


def test_hacker_angriff_opens_or_closes_a_door_in_own_turn() -> None:
    """ "Eine Einheit kann eine Tür in ihrem Sichtfeld öffnen oder schließen" (3 Punkte, zu
    einem beliebigen Zeitpunkt im eigenen Spielerzug)."""
    state = to_phase(add_doors(to_battle(start())), Phase.SHOOTING, player=0)
    assert code(state, "open_door", door=0) == "wrong_phase"
    state, _ = run(state, "buy_option", player=0, option="hacker-angriff", door=0)
    assert state.doors[0].state is DoorState.OPEN and state.players[0].cp == 4


def test_sprengfalle_goes_off_when_the_door_is_opened() -> None:
    """ "Versucht eine Einheit die Tür zu öffnen ... wird die Sprengfalle automatisch
    ausgelöst und die Einheit erleidet W3 tödliche Wunden. Die Tür ist danach automatisch
    zerstört" """
    state = to_phase(add_doors(to_battle(start())), Phase.MOVEMENT, player=0)
    state, _ = run(state, "buy_option", player=0, option="sprengfalle", door=0)
    assert state.doors[0].trapped
    state, events = run(state, "open_door", door=0)
    assert events[0].type == "trap_triggered" and 1 <= events[0].data["mortal_wounds"] <= 3
    assert state.doors[0].state is DoorState.DESTROYED


def test_sentry_gun_and_barricade_are_tracked_pieces() -> None:
    """Sentry Gun: "Ballistische Fertigkeit 5 / Widerstand 4 / Lebenspunkte 2 /
    Rüstungswurf 4+"; Barrikaden: "darf eine Einheit eine Barrikade ... errichten"."""
    state = to_phase(to_battle(start()), Phase.MOVEMENT, player=0)
    state, _ = run(state, "buy_option", player=0, option="sentry-gun")
    state, _ = run(state, "buy_option", player=0, option="barrikaden")
    sentry, barricade = state.pieces
    assert (sentry.kind, sentry.wounds, barricade.kind) == ("sentry", 2, "barricade")
    state = to_phase(state, Phase.SHOOTING, player=1)
    state, _ = run(state, "damage_piece", piece=0, wounds=1)
    assert state.pieces[0].wounds == 1 and not state.pieces[0].removed
    assert code(state, "damage_piece", piece=1) == "no_wounds"
    state, _ = run(state, "damage_piece", piece=0)
    assert state.pieces[0].removed
    state, _ = run(state, "remove_piece", piece=1)
    assert code(state, "remove_piece", piece=1) == "unknown_piece"


def test_eile_ist_geboten_changes_a_units_level() -> None:
    """ "kann sie direkt die Etage wechseln" (2 Punkte, am Ende der Bewegung einer Einheit)."""
    state = to_phase(to_battle(start()), Phase.MOVEMENT, player=0)
    level = state.units[0].place
    state, _ = run(state, "buy_option", player=0, option="eile-ist-geboten", unit=0)
    assert state.units[0].place != level
    assert code(state, "buy_option", player=0, option="eile-ist-geboten", unit=4) == (
        "not_your_unit"
    )
