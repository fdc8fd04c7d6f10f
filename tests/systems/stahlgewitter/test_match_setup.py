"""Stahlgewitter setup: terrain, deployment zones, hidden deployment behind numbered markers and
the start roll (stahlgewitter.de.txt "Aufbau des Spielfeldes", "Aufbau der Einheiten",
"Spielablauf")."""

from __future__ import annotations

import pytest

from apps.systems.core.errors import RuleViolation
from apps.systems.stahlgewitter.match.state import Stage
from tests.systems.stahlgewitter.test_match_support import (
    hide_all,
    place_all,
    run,
    start,
    to_battle,
    to_markers,
    types,
)


def test_terrain_by_quarters_the_higher_die_chooses_the_zone() -> None:
    """ "Jeder Spieler kümmert sich um zwei sich diagonal gegenüberliegende Viertel ... Wer die
    höhere Zahl würfelt, sucht sich seine Aufbauzone aus." """
    state, events = run(start(), "choose_terrain", [3, 8], method="quarters")
    assert state.terrain == "quarters" and state.zone_chooser == 1
    assert state.stage is Stage.ZONE
    assert events[1].data["dice"] == [[3, 8]]


def test_alternate_terrain_the_player_who_passes_lets_the_other_choose() -> None:
    """ "Nun geht es weiter, bis einer "passe" ruft. Er plaziert dann kein weiteres
    Geländestück, und sein Gegenspieler sucht sich seine Aufbauzone aus." """
    state, _ = run(start(), "choose_terrain", [9, 4], method="alternate")
    assert state.stage is Stage.PLACING and state.terrain_first == 0
    state, _ = run(state, "pass_terrain", player=0)
    assert state.zone_chooser == 1 and state.stage is Stage.ZONE


def test_a_tied_roll_is_rolled_again() -> None:
    """ "Bei Gleichstand wird so lange wiederholt, bis unterschiedliche Ergebnisse vorliegen." """
    state, events = run(start(), "choose_terrain", [5, 5, 2, 6], method="quarters")
    assert events[1].data["dice"] == [[5, 5], [2, 6]]
    assert state.zone_chooser == 1


def test_only_the_chooser_picks_the_edge_and_the_opponent_takes_the_other() -> None:
    """ "In einem Standardspiel wird auf gegenüberliegenden Spielfeldseiten aufgebaut." """
    state, _ = run(start(), "choose_terrain", [9, 4], method="quarters")
    with pytest.raises(RuleViolation) as refused:
        run(state, "choose_zone", player=1, edge="north")
    assert refused.value.code == "not_chooser"
    state, _ = run(state, "choose_zone", player=0, edge="north")
    assert [p.edge for p in state.players] == ["north", "south"]


def test_every_player_has_one_marker_per_unit_plus_three() -> None:
    """ "Außerdem darf jeder Spieler drei Marken mehr plazieren, als er Einheiten hat." """
    state = start()
    for player in (0, 1):
        assert len(state.player_markers(player)) == len(state.side_units(player)) + 3


def test_the_higher_die_places_the_first_marker_and_then_alternately() -> None:
    """ "Wer das höchste Ergebnis erzielt, plaziert als Erster eine Einheit ... plazieren die
    Spieler jetzt abwechselnd Spielmarken" """
    state = hide_all(to_markers(start()))
    assert state.placer == 0  # rolled 8 against 2
    with pytest.raises(RuleViolation) as refused:
        run(state, "place_marker", player=1, marker=1)
    assert refused.value.code == "not_your_marker_turn"
    state, _ = run(state, "place_marker", player=0, marker=4)
    assert state.placer == 1
    state, _ = run(state, "place_marker", player=1, marker=1)
    assert state.placer == 0


def test_markers_are_placed_only_after_every_unit_has_its_number() -> None:
    """ "Auf seinem Armeeplan ordnet jeder Spieler jeder seiner Einheiten eine Nummer zu." """
    state = to_markers(start())
    with pytest.raises(RuleViolation) as refused:
        run(state, "place_marker", player=0, marker=1)
    assert refused.value.code == "hide_first"


def test_a_marker_stands_for_one_unit_and_a_unit_has_one_marker() -> None:
    state = to_markers(start())
    state, _ = run(state, "hide_unit", player=0, unit=0, marker=3)
    for unit, marker, code in ((1, 3, "marker_taken"), (0, 4, "unit_hidden_already")):
        with pytest.raises(RuleViolation) as refused:
            run(state, "hide_unit", player=0, unit=unit, marker=marker)
        assert refused.value.code == code
    with pytest.raises(RuleViolation) as refused:
        run(state, "hide_unit", player=0, unit=2, marker=1)
    assert refused.value.code == "not_your_unit"


def test_the_start_roll_decides_the_start_player_and_round_one_begins() -> None:
    """ "wirft jeder Spieler 1W10; bei Gleichstand werden die Würfe wiederholt. Der Spieler mit
    dem höchsten Ergebnis beginnt das Spiel." """
    state = place_all(hide_all(to_markers(start())))
    assert state.stage is Stage.START
    state, events = run(state, "roll_start", [4, 4, 3, 7])
    assert state.first == 1 and state.round == 1 and state.turn_player == 1
    assert types(events)[:3] == ["rolled_off", "battle_started", "round_started"]
    assert events[0].data["dice"] == [[4, 4], [3, 7]]
    assert events[0].data["p_winner"] == "45/90"  # the exact chance before the dice fell


def test_the_optional_start_rule_adds_the_best_leaders_wik() -> None:
    """ "Optionale Zusatzregel: Beide Spieler addieren zu dem Wurf ... die Willenskraft (WIK)
    ihres besten Anführers." SEK Offizier WIK 9, Legion Offizier WIK 9 (+ Unteroffizier 8)."""
    state = place_all(hide_all(to_markers(start(start_wik=True))))
    state, events = run(state, "roll_start", [3, 2])
    assert events[0].data["bonus"] == [9, 9] and events[0].data["p_winner"] == "45/90"
    assert state.first == 0


def test_units_start_hidden_behind_their_markers() -> None:
    state = to_battle(reveal=False)
    assert not any(u.revealed for u in state.units)
    assert all(m.placed for m in state.markers)


def test_revealing_a_decoy_removes_it() -> None:
    """Decoys (the three extra markers) come off the table when they are revealed."""
    state = to_battle(reveal=False)
    decoy = next(m for m in state.player_markers(1) if m.unit is None)
    state, events = run(state, "reveal_marker", player=1, marker=decoy.number, reason="seen")
    assert events[0].data["unit"] is None
    assert state.marker(1, decoy.number).removed


def test_a_marker_revealed_by_a_template_weapon_shows_its_unit() -> None:
    """ "die Spielmarke wird mit einer Schablonenwaffe (Seite XX) angegriffen" """
    state = to_battle(reveal=False)
    marker = next(m for m in state.player_markers(1) if m.unit is not None)
    state, _ = run(state, "reveal_marker", player=1, marker=marker.number, reason="template")
    assert marker.unit is not None and state.units[marker.unit].revealed
    with pytest.raises(RuleViolation) as refused:
        run(state, "reveal_marker", player=1, marker=marker.number, reason="seen")
    assert refused.value.code == "marker_revealed"
