"""Bunkers and Badasses: command points and the mission setup (bunkers-and-badasses.de.txt,
"Befehlspunkte", "Missionen allgemein / Aufstellung")."""

from __future__ import annotations

import pytest

from apps.systems.bunkers.match.tables import Phase, Stage
from apps.systems.core.rosters import CatalogData, RosterInput, UnitInput
from tests.systems.bunkers.test_match_support import (
    ENGINE,
    Dice,
    code,
    run,
    start,
    team,
    to_battle,
    to_phase,
)


@pytest.mark.parametrize(
    ("points", "cp"), [(500, 6), (1000, 6), (1001, 7), (1250, 7), (1251, 8), (1500, 8), (1501, 9)]
)
def test_starting_cp_by_army_points(points: int, cp: int) -> None:
    """ "Bis 1000 Punkte = 6 Befehlspunkte / Bis 1250 Punkte = 7 / Bis 1500 Punkte = 8 /
    Ab 1501 Punkten = 9 Befehlspunkte"."""
    assert team((UnitInput("Sample Unit", 10, points, 1),))["cp"] == cp


@pytest.mark.parametrize(("power", "cp"), [(50, 6), (51, 7), (75, 8), (76, 9)])
def test_starting_cp_by_power_level_counts_20_points_per_pl(power: int, cp: int) -> None:
    """ "Es macht keinen Unterschied, ob ihr eure Armeen nach Machtpunkten oder den normalen
    Punkten erstellt" — SPEC §5 decision: 1 PL counts as 20 points for the table."""
    assert team((UnitInput("Sample Unit", 10, 0, power),), "power")["cp"] == cp


def test_starting_cp_follow_the_agreed_limit_when_there_is_one() -> None:
    """ "abhängig von der gespielten Punktzahl" — the limit the players agreed (the roster's
    ``points_limit``, in PL with ``power_level``), else the army's own total."""
    units = (UnitInput("Sample Unit", 10, 900, 45),)
    for settings, cp in (
        ({"points_limit": 1500}, 8),
        ({"points_limit": 1501}, 9),
        ({"points_limit": 60, "power_level": True}, 7),
        ({}, 6),
    ):
        roster = RosterInput(faction="", settings=settings, entries=(), units=units)
        assert ENGINE.team_setup(roster, CatalogData({}, {}, {}))["cp"] == cp


def test_starting_cp_reaches_the_match() -> None:
    state = start()
    assert [p.cp for p in state.players] == [6, 6]
    assert [p.army_points for p in state.players] == [490, 250]


def test_both_players_gain_one_cp_at_every_command_phase() -> None:
    """ "Zusätzlich bekommt jeder Spieler, zu Beginn jeder Befehlsphase (die des Angreifers &
    die des Verteidigers), einen weiteren Befehlspunkt." """
    state = to_battle(start())
    assert state.phase is Phase.COMMAND and state.active == 0
    assert [p.cp for p in state.players] == [7, 7]
    state = to_phase(state, Phase.COMMAND, player=1)
    assert [p.cp for p in state.players] == [8, 8]
    state = to_phase(to_phase(state, Phase.MOVEMENT), Phase.COMMAND, player=0)
    assert state.round == 2 and [p.cp for p in state.players] == [9, 9]


def test_roll_offs_reroll_ties_and_keep_every_die() -> None:
    """ "Die Spieler würfeln gegeneinander, wer höher würfelt, wählt seine Aufstellungszonen
    aus" — a tie decides nothing: both roll again."""
    state = start()
    state, events = run(state, "roll_off", Dice(4, 4, 2, 2, 3, 5))
    assert events[0].data["rolls"] == [[4, 4], [2, 2], [3, 5]]
    assert events[0].data["winner"] == 1 and state.stage is Stage.CHOOSE_ZONES
    assert code(state, "choose_zones", player=0, side="attacker") == "not_roll_winner"
    state, _ = run(state, "choose_zones", player=1, side="defender")
    assert [p.side for p in state.players] == ["attacker", "defender"]


def test_deployment_alternates_starting_with_the_player_who_did_not_choose() -> None:
    """ "Dann stellen die Spieler abwechselnd eine Einheit nach der anderen in ihrer
    Aufstellungszone auf, beginnend mit dem Spieler, der nicht die Aufstellungszone gewählt
    hat." """
    state, _ = run(start(), "roll_off", Dice(6, 1))
    state, _ = run(state, "choose_zones", player=0, side="attacker")
    state, events = run(state, "roll_off", Dice(2, 5))
    assert events[0].data["purpose"] == "marker" and state.marker_placer == 1
    assert state.deployer == 1
    assert code(state, "deploy", unit=0, place="upper") == "not_your_deployment"
    state, _ = run(state, "deploy", unit=4, place="upper")
    assert state.deployer == 0
    state, _ = run(state, "deploy", unit=0, place="lower")
    assert code(state, "deploy", unit=0, place="lower") == "already_deployed"


def test_at_most_a_quarter_of_the_units_in_reserve() -> None:
    """ "Es dürfen maximal 25% (aufgerundet) der Einheiten in Reserve bleiben." (Anna: 4 units,
    one in reserve; Ben: 3 units, one.)"""
    state, _ = run(start(), "roll_off", Dice(6, 1))
    state, _ = run(state, "choose_zones", player=0, side="attacker")
    state, _ = run(state, "roll_off", Dice(2, 5))
    state, _ = run(state, "deploy", unit=4, place="reserve")
    state, _ = run(state, "deploy", unit=2, place="reserve")
    state, _ = run(state, "deploy", unit=5, place="upper")
    assert code(state, "deploy", unit=3, place="reserve") == "reserve_full"


def test_the_first_turn_goes_to_the_roll_off_winner() -> None:
    """ "Die Spieler würfeln erneut gegeneinander und ermitteln, wer das Spiel beginnt." """
    state = to_battle(start())
    assert state.stage is Stage.BATTLE and state.first == 0 and state.round == 1
    assert ENGINE.round_of(state) == 1 and ENGINE.mode_of(state) == "erobern-und-sichern"


def test_rounds_levels_and_mission_are_setup_choices() -> None:
    """ "Die Platte kann dabei in zwei Ebenen aufgeteilt werden." — one level by default."""
    assert [f.name for f in ENGINE.setup_fields()] == ["rounds", "levels"]
    assert ENGINE.setup_fields()[0].default == 5
    levels = ENGINE.setup_fields()[1]
    assert levels.type == "choice" and [v for v, _ in levels.choices] == ["1", "2"]
    assert levels.default == "1"
    assert [value for value, _ in ENGINE.mode_choices()] == [
        "erobern-und-sichern",
        "sichert-das-artefakt",
        "kampf-um-den-reaktor",
    ]
    assert start(rounds=3).rounds == 3
