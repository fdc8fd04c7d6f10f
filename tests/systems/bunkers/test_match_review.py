"""Bunkers and Badasses: the artifact dropped however its carrier dies, ladders and elevators
counted one by one, 60 units a team, the sentry gun and barricade cap, the end on time in
Sichert das Artefakt, doors sealed while open, sentry guns in Maximaler Schaden and the breach
(bunkers-and-badasses.de.txt)."""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils import translation

from apps.systems.bunkers.match import hazard
from apps.systems.bunkers.match.engine import MAX_UNITS
from apps.systems.bunkers.match.state import MatchState
from apps.systems.bunkers.match.tables import OPTION_BY_KEY, DoorState, Effect, Phase, Stage
from apps.systems.bunkers.match.tracker.page import TrackerView
from apps.systems.core.buttons import Button
from apps.systems.core.rosters import CatalogData, RosterInput, UnitInput
from tests.systems.bunkers.test_match_support import (
    ENGINE,
    Dice,
    add_doors,
    code,
    run,
    start,
    to_battle,
    to_phase,
)


def _vp(state: MatchState) -> list[int]:
    return [p.total_vp for p in state.players]


def _view(state: MatchState) -> TrackerView:
    view = ENGINE.tracker(state, selected=None, params={})
    assert isinstance(view, TrackerView)
    return view


def _render(state: MatchState) -> str:
    class _Match:
        pk = 1
        seq = 1

    with translation.override("en"):
        return render_to_string(
            "matches/bunkers/_board.html",
            {"view": _view(state), "match": _Match(), "readonly": False, "urls": {}},
        )


def _level_button(state: MatchState, unit: int) -> Button:
    return next(
        b
        for side in _view(state).sides
        for u in side.units
        if u.id == unit
        for b in u.buttons
        if b.command == "change_level"
    )


def _carrying(unit: int = 0) -> MatchState:
    """Sichert das Artefakt: Anna reveals the artifact and ``unit`` picks it up."""
    state = to_phase(to_battle(start("sichert-das-artefakt", rounds=2)), Phase.MOVEMENT, player=0)
    assert state.artifact is not None
    state, _ = run(state, "reveal_marker", marker=state.artifact)
    state, _ = run(state, "pick_up", unit=unit)
    assert state.carrier == unit
    return state


# 1. The artifact drops however its carrier is destroyed.


def test_a_carrier_destroyed_by_hazardous_terrain_drops_the_artifact() -> None:
    """ "Wird der Träger getötet, wird das Base an der Stelle platziert, wo der Träger entfernt
    wurde." — also when a hazardous-terrain roll kills it."""
    state = _carrying(0)
    for _ in range(4):  # the Captain (W5) has one wound left
        state, _ = run(state, "adjust", unit=0, change="wound_lost")
    state, events = run(state, "hazard_roll", Dice(1, 1), unit=0, save=3)
    assert [e.type for e in events] == ["hazard_rolled", "unit_changed", "artifact_dropped"]
    assert state.units[0].destroyed and state.carrier is None
    state, _ = run(state, "pick_up", unit=1)  # it lies there for anyone
    assert state.carrier == 1


# 2. Ladders and elevators, each by its number.


def test_each_ladder_and_elevator_carries_two_units_per_player_turn() -> None:
    """ "Es sollte durch Nummern oder farbliche Markierungen jederzeit ersichtlich sein, welche
    Leitern oder Aufzüge ... miteinander verbunden sind." / "Eine Leiter hat eine
    Transportkapazität von 15 Modellen, die sich beliebig auf maximal zwei Einheiten pro
    Spielzug aufteilen lässt." / "Ein Aufzug hat eine Transportkapazität von zwei Einheiten
    pro Spielzug." """
    state = to_phase(to_battle(start()), Phase.MOVEMENT, player=0)
    state, events = run(state, "change_level", unit=0, via="ladder", number=1)
    assert events[0].data == {
        "unit": 0,
        "place": "upper",
        "by": "move",
        "via": "ladder",
        "number": 1,
        "models": 1,
    }
    state, _ = run(state, "change_level", unit=1, via="ladder", number=1)
    assert code(state, "change_level", unit=2, via="ladder", number=1) == "level_changes_spent"
    state, _ = run(state, "change_level", unit=2, via="ladder", number=2)
    state, _ = run(state, "change_level", unit=3, via="elevator", number=1)
    assert state.crossing("elevator", 1).units == 1 and state.crossing("ladder", 1).units == 2
    assert code(state, "change_level", unit=0, via="elevator", number=0) == "invalid_args"
    assert code(state, "change_level", unit=0, via="rope", number=1) == "invalid_args"
    # Ben's turn: every ladder and elevator carries again.
    state = to_phase(state, Phase.MOVEMENT, player=1)
    assert state.crossings == ()
    state, _ = run(state, "change_level", unit=4, via="ladder", number=1)


def test_a_ladder_carries_fifteen_models_in_total() -> None:
    """ "Eine Leiter hat eine Transportkapazität von 15 Modellen" — an elevator counts units
    only."""
    state = to_battle(start()).with_unit(6, models=6, models_start=6, wounds=6)
    state = to_phase(state, Phase.MOVEMENT, player=1)
    state, _ = run(state, "change_level", unit=5, via="ladder", number=3)  # 10 Boyz
    assert code(state, "change_level", unit=6, via="ladder", number=3) == "ladder_models_spent"
    state, _ = run(state, "change_level", unit=6, via="elevator", number=3)
    assert state.crossing("ladder", 3).models == 10
    assert state.crossing("elevator", 3).models == 6


def test_ladders_take_bases_up_to_40_mm_characters_up_to_50_mm() -> None:
    """ "Leitern dürfen nur von Modellen benutzt werden, die maximal auf einem 40mm Base stehen
    (Charaktere dürfen auch auf einem 50mm Base stehen)." / "Aufzüge dürfen von allen Modellen
    benutzt werden." An unknown base is allowed."""
    state = to_battle(start())
    state = state.with_unit(0, base="round:50")  # the Captain, a character
    state = state.with_unit(1, base="round:50")  # Intercessors, no character
    state = state.with_unit(2, base="oval:60x35")
    state = state.with_unit(3, base="")
    state = to_phase(state, Phase.MOVEMENT, player=0)
    assert code(state, "change_level", unit=1, via="ladder", number=1) == "ladder_base"
    assert code(state, "change_level", unit=2, via="ladder", number=1) == "ladder_base"
    state, _ = run(state, "change_level", unit=1, via="elevator", number=1)
    state, _ = run(state, "change_level", unit=0, via="ladder", number=1)
    state, _ = run(state, "change_level", unit=3, via="ladder", number=1)
    big_character = state.with_unit(2, base="round:60", keywords=("Character",))
    assert code(big_character, "change_level", unit=2, via="ladder", number=2) == "ladder_base"


def test_eile_ist_geboten_uses_a_ladder_or_elevator_and_counts_towards_it() -> None:
    """ "Wenn sich eine Einheit am Ende ihrer Bewegung, vollständig innerhalb von 3 Zoll zu einer
    Leiter oder einem Aufzug befindet, kann sie direkt die Etage wechseln (siehe hierzu unter
    „Spiele auf mehreren Ebenen“)." """
    state = to_phase(to_battle(start()), Phase.MOVEMENT, player=0).with_player(0, cp=10)
    state, _ = run(state, "change_level", unit=0, via="elevator", number=2)
    state, events = run(
        state, "buy_option", player=0, option="eile-ist-geboten", unit=1, via="elevator", number=2
    )
    changed = events[-1].data
    assert (changed["by"], changed["via"], changed["number"]) == ("hurry", "elevator", 2)
    assert code(state, "change_level", unit=2, via="elevator", number=2) == "level_changes_spent"
    refused = code(
        state, "buy_option", player=0, option="eile-ist-geboten", unit=2, via="elevator", number=2
    )
    assert refused == "level_changes_spent" and state.players[0].cp == 8  # nothing spent
    state, _ = run(state, "buy_option", player=0, option="eile-ist-geboten", unit=2)  # ladder 1
    assert state.crossing("ladder", 1).units == 1


def test_the_board_asks_which_ladder_or_elevator() -> None:
    """The unit's button sends ladder 1 until the engine refuses it, then elevator 1; the form
    has a select for ladder or elevator and the number."""
    state = to_phase(to_battle(start()), Phase.MOVEMENT, player=0).with_player(0, cp=10)
    button = _level_button(state, 0)
    assert button.sends is not None
    assert button.sends.args == {"unit": 0, "via": "ladder", "number": 1}
    state, _ = run(state, "change_level", unit=0)
    state, _ = run(state, "change_level", unit=1)
    button = _level_button(state, 2)
    assert button.enabled and button.sends is not None
    assert button.sends.args["via"] == "elevator"
    hurry = next(
        line.button
        for group in _view(state).options
        if group.player == 0
        for line in group.lines
        if line.key == "eile-ist-geboten"
    )
    assert hurry.enabled and hurry.sends is not None and hurry.sends.args["via"] == "elevator"
    html = _render(state)
    assert 'name="args.via"' in html and 'name="args.number:int"' in html
    assert '<option value="elevator" selected>' in html


# 3. 60 units a team.


def test_a_team_of_60_units_is_kept_whole() -> None:
    """An army may hold 60 units: the match leaves none out."""
    units = tuple(UnitInput(f"Unit {n}", 1, 10, 1, ("infantry",), 1) for n in range(60))
    roster = RosterInput(faction="", settings={}, entries=(), units=units)
    setup = ENGINE.team_setup(roster, CatalogData({}, {}, {}))
    assert MAX_UNITS == 60 and len(setup["units"]) == 60
    started = ENGINE.start({"players": [{"name": "A", **setup}, {"name": "B", **setup}]}, Dice())
    assert len(started[0].data["units"]) == 120


# 4. The cap of sentry guns and barricades counts those on the board.


def test_the_piece_cap_counts_only_pieces_on_the_board() -> None:
    """Twelve sentry guns and barricades at once; one removed or destroyed makes room."""
    state = to_phase(to_battle(start()), Phase.MOVEMENT, player=0).with_player(0, cp=40)
    for _ in range(12):
        state, _ = run(state, "buy_option", player=0, option="barrikaden")
    assert code(state, "buy_option", player=0, option="barrikaden") == "too_many_pieces"
    state, _ = run(state, "remove_piece", piece=3)
    state, _ = run(state, "buy_option", player=0, option="sentry-gun")
    assert sum(1 for p in state.pieces if not p.removed) == 12 and len(state.pieces) == 13


# 5. The end on time in Sichert das Artefakt.


def test_end_on_time_asks_where_the_artifact_is() -> None:
    """ "Wer sich am Ende des Spiels mit dem Artefakt in einer seiner Aufstellungszone
    befindet, bekommt 2 Siegespunkte." — also when the time ends the game."""
    state = _carrying(1)
    before = _vp(state)
    state, events = run(state, "end_on_time")  # the "Match" section's button sends nothing
    assert [e.type for e in events] == ["final_stage"] and events[0].data == {"reason": "time"}
    assert state.stage is Stage.FINAL and state.ending == "time"
    assert _view(state).prompt.key == "final"
    assert code(state, "end_on_time") == "final_question"
    state, _ = run(state, "score_end", home=True)
    assert ENGINE.result(state) is not None and ENGINE.result(state)["reason"] == "time"
    assert _vp(state)[0] == before[0] + 2


def test_end_on_time_takes_the_answer_at_once() -> None:
    state = _carrying(1)
    before = _vp(state)
    state, events = run(state, "end_on_time", home=True)
    assert events[-1].type == "game_ended" and events[-1].data["reason"] == "time"
    assert _vp(state)[0] == before[0] + 2
    state = _carrying(1)
    state, _ = run(state, "end_on_time", home=False)
    assert _vp(state) == before and state.stage is Stage.OVER


def test_end_on_time_without_a_carrier_ends_at_once() -> None:
    state = to_phase(to_battle(start("sichert-das-artefakt")), Phase.MOVEMENT, player=0)
    state, events = run(state, "end_on_time")
    assert events[-1].type == "game_ended" and state.stage is Stage.OVER


# 6. A door sealed while open stays open.


def test_a_door_shot_while_open_is_sealed_and_stays_open() -> None:
    """ "Allerdings gilt die Tür ab sofort als versiegelt, wenn sie mindestens 1 Lebenspunkt
    verloren hat. Das gilt auch für Türen, die beschossen, aber nicht zerstört wurden." /
    "Eine versiegelte Tür, kann nur durch ihre Zerstörung geöffnet werden." — sealed, it can be
    neither opened nor closed; nothing shuts it."""
    state = to_phase(add_doors(to_battle(start()), 1), Phase.MOVEMENT, player=0)
    state, _ = run(state, "open_door", door=0)
    state = to_phase(state, Phase.SHOOTING, player=0)
    state, events = run(state, "damage_door", door=0, wounds=1)
    assert events[0].data["state"] == "sealed_open"
    door = state.doors[0]
    assert door.state is DoorState.SEALED_OPEN and door.sealed and door.is_open
    assert "versiegelt, offen (sealed, open)" in _render(state)
    state = to_phase(state, Phase.MORALE, player=0)
    state, events = run(state, "next_phase", keep=[])
    assert state.doors[0].state is DoorState.SEALED_OPEN  # not closed at the end of the turn
    assert not any(e.type == "doors_closed" for e in events)
    state = to_phase(state, Phase.MOVEMENT, player=1).with_player(1, cp=10)
    assert code(state, "close_door", door=0) == "door_sealed"
    assert code(state, "buy_option", player=1, option="hacker-angriff", door=0) == "door_sealed"
    state = to_phase(state, Phase.SHOOTING, player=1)
    state, _ = run(state, "damage_door", door=0, wounds=1)
    assert state.doors[0].state is DoorState.SEALED_OPEN and state.doors[0].wounds == 3
    state, _ = run(state, "buy_option", player=1, option="plasmaschneider", door=0)
    assert state.doors[0].state is DoorState.DESTROYED


# 7. A destroyed sentry gun is a destroyed unit for Maximaler Schaden.


def test_a_destroyed_enemy_sentry_gun_scores_as_a_destroyed_unit() -> None:
    """ "Sie gilt nach dem Aufstellen als eigenständige Einheit" / "Am Ende des Spiels gibt es
    für jede vollständig vernichtete Einheit 2 Siegespunkte" — one removed by hand does not
    count, nor does a barricade."""
    state = to_phase(to_battle(start()), Phase.MOVEMENT, player=0).with_player(0, cp=10)
    state, _ = run(state, "buy_option", player=0, option="sentry-gun")
    state, _ = run(state, "buy_option", player=0, option="sentry-gun")
    state, _ = run(state, "buy_option", player=0, option="barrikaden")
    state = to_phase(state, Phase.SHOOTING, player=0)
    state, _ = run(state, "damage_piece", piece=0, wounds=2)
    state, _ = run(state, "remove_piece", piece=1)
    state, _ = run(state, "remove_piece", piece=2)
    assert state.pieces[0].destroyed and not state.pieces[1].destroyed
    state, events = run(state, "end_on_time")
    scored = [e.data for e in events if e.type == "vp_scored"]
    assert scored == [{"player": 1, "points": 2, "reason": "max_damage", "detail": "1/0"}]


# 8. A breach is no hazardous terrain.


def test_a_breach_is_no_hazardous_terrain() -> None:
    """ "Jedes Modell, das den Durchbruch durchquert, muss einen W6 werfen und bekommt bei einem
    Ergebnis von 4+ eine tödliche Wunde." — a mortal wound on 4+, no save: not the hazardous
    terrain roll (a 1, then a save); the tracker only logs the Verzweiflungstat."""
    doc = hazard.__doc__ or ""
    listed = doc.split(":", 1)[0]
    assert "breach" not in listed and "4+ eine tödliche Wunde" in doc
    assert OPTION_BY_KEY["verzweiflungstat"].effect is Effect.LOG
    spec = next(s for s in ENGINE.commands() if s.type == "hazard_roll")
    assert "breach" not in spec.help
