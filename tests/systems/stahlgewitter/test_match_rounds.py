"""Stahlgewitter rounds: alternate activations, two in a row at more than 2:1, never the same
unit twice in a row, readiness and the Blitzaktion, the phases of a turn
(stahlgewitter.de.txt "Rundenabfolge", "Aktionsbereitschaft", "Rundenübersicht",
"Spielzugabfolge")."""

from __future__ import annotations

import random

import pytest

from apps.systems.core.errors import RuleViolation
from apps.systems.core.match import replay
from apps.systems.stahlgewitter.match.state import MatchState, Phase
from tests.systems.samples import stahlgewitter
from tests.systems.stahlgewitter.test_match_support import (
    ENGINE,
    activate,
    run,
    to_battle,
    to_phase,
    types,
    unit_named,
)


def custom(sek: list[int], legion: list[int], *, first: int = 0) -> MatchState:
    """A battle of some of the sample's units (SEK: Kommando, Feuertrupp; Legion: Offizier,
    Kultisten, Trupp), every unit revealed."""
    setup = stahlgewitter(1)
    for player, keep in zip(setup["players"], (sek, legion), strict=True):
        player["units"] = [player["units"][i] for i in keep]
    state = replay(ENGINE, ENGINE.start(setup, random.Random(1)))
    return to_battle(state, first=first)


def finish_turn(state: MatchState) -> MatchState:
    state, _ = run(state, "end_turn")
    return state


def test_the_players_alternate_activating_one_unit_each() -> None:
    """ "Der Startspieler führt mit einer beliebigen seiner Einheiten einen kompletten Zug
    durch ... Danach ist sein Gegenspieler an der Reihe" """
    state = to_battle()
    assert state.turn_player == 0
    with pytest.raises(RuleViolation) as refused:
        run(state, "activate", unit=unit_named(state, "Offizier").id)
    assert refused.value.code == "not_your_pick"
    state = finish_turn(activate(state, "Kommando"))
    assert state.turn_player == 1


def test_each_unit_activates_once_per_round() -> None:
    """ "Jede Einheit darf nur einmal pro Runde aktiviert werden." """
    state = finish_turn(activate(to_battle(), "Kommando"))
    state = finish_turn(activate(state, "Offizier"))
    with pytest.raises(RuleViolation) as refused:
        activate(state, "Kommando")
    assert refused.value.code == "already_activated"


def test_the_remaining_units_activate_one_after_another_at_the_end() -> None:
    """ "Anderenfalls aktiviert er am Ende der Runde seine verbleibenden Einheiten
    hintereinander." SEK 2 units, Legion 3."""
    state = to_battle()
    for name in ("Kommando", "Offizier", "Feuertrupp", "Kultisten"):
        state = finish_turn(activate(state, name))
    assert state.turn_player == 1
    state, events = run(activate(state, "Trupp"), "end_turn")
    assert "round_started" in types(events) and state.round == 2


def test_more_than_twice_the_units_activates_two_in_a_row() -> None:
    """ "Verfügt ein Spieler über mehr als doppelt so viele Einheiten wie sein Gegner, so darf
    er jedesmal, wenn er an der Reihe ist, zwei Einheiten nacheinander aktivieren." 1 against
    3: the Legion activates two, then the SEK."""
    state = custom([0], [0, 1, 2], first=1)
    assert state.counts == (1, 3)
    state = finish_turn(activate(state, "Offizier"))
    assert state.turn_player == 1 and state.picks == 2
    state = finish_turn(activate(state, "Kultisten"))
    assert state.turn_player == 0
    state = finish_turn(activate(state, "Kommando"))
    assert state.turn_player == 1


def test_exactly_twice_the_units_still_alternates() -> None:
    state = custom([0], [0, 1], first=1)
    state = finish_turn(activate(state, "Offizier"))
    assert state.turn_player == 0


def test_no_unit_activates_twice_in_a_row_even_when_the_round_changes() -> None:
    """ "Unter keinen Umständen darf eine Einheit zweimal direkt hintereinander aktiviert
    werden. Diese Regel gilt auch und insbesondere, wenn die Runde gerade gewechselt hat." The
    rulebook's example: the side that ended round 1 may not begin round 2 with that unit."""
    state = to_battle(first=1)
    for name in ("Offizier", "Kommando", "Kultisten", "Feuertrupp", "Trupp"):
        state = finish_turn(activate(state, name))
    assert state.round == 2 and state.turn_player == 1 and state.last_unit is not None
    with pytest.raises(RuleViolation) as refused:
        activate(state, "Trupp")
    assert refused.value.code == "twice_in_a_row"
    activate(state, "Offizier")


def test_a_unit_on_readiness_uses_its_pick_without_acting() -> None:
    """ "Die Einheit erhält einen Aktionsbereit-Marker, handelt aber nicht. Statt dessen ist nun
    wieder der Gegner an der Reihe." """
    state = to_battle()
    state, events = run(state, "ready", unit=unit_named(state, "Kommando").id)
    assert state.units[unit_named(state, "Kommando").id].ready
    assert state.active is None and state.turn_player == 1
    assert types(events) == ["readied", "pick"]


def test_a_panicking_unit_cannot_go_on_readiness() -> None:
    """ "Diese Möglichkeit besteht nur für Einheiten, die nicht unter den Auswirkungen einer
    verpatzten Moralprobe leiden" """
    state = to_battle()
    kommando = unit_named(state, "Kommando")
    state = state.with_unit(kommando.id, panic=True)
    with pytest.raises(RuleViolation) as refused:
        run(state, "ready", unit=kommando.id)
    assert refused.value.code == "panicking"


def _ready_kommando_then_legion_moves() -> MatchState:
    state = to_battle()
    state, _ = run(state, "ready", unit=unit_named(state, "Kommando").id)
    return activate(state, "Offizier")


def test_a_blitzaktion_starts_after_the_current_phase_and_the_interrupted_unit_goes_on() -> None:
    """ "Die Blitzaktion kann zwar mitten in einer laufenden Phase angesagt werden, die Einheit,
    die die Blitzaktion ausführt, wird aber erst nach Abschluß dieser Phase aktiv. Nach der
    genommenen Blitzaktion (= ein kompletter Zug) setzt die Einheit, die die Blitzaktion
    ausgelöst hat, ihren Zug mit ihren verbleibenden Phasen fort." """
    state = _ready_kommando_then_legion_moves()
    kommando, offizier = unit_named(state, "Kommando").id, unit_named(state, "Offizier").id
    state, _ = run(state, "blitz", unit=kommando, trigger="view")
    assert state.blitz == kommando and state.active == offizier
    state, events = run(state, "next_phase")
    assert types(events) == ["blitz_started"]
    assert state.active == kommando and state.phase is Phase.MOVEMENT
    assert state.interrupted == offizier and state.resume == "ranged"
    state, events = run(state, "end_turn")
    assert types(events) == ["turn_ended", "turn_resumed"]
    assert state.active == offizier and state.phase is Phase.RANGED
    assert not state.units[kommando].ready


def test_never_activated_and_blitzed_in_one_round() -> None:
    """ "Sie darf jedoch nicht in einer Runde aktiviert werden und eine Blitzaktion
    durchführen." """
    state = _ready_kommando_then_legion_moves()
    kommando = unit_named(state, "Kommando").id
    state, _ = run(state, "blitz", unit=kommando, trigger="view")
    state, _ = run(state, "next_phase")
    state = finish_turn(finish_turn(state))  # the Blitzaktion, then the Offizier's turn
    assert state.turn_player == 0
    with pytest.raises(RuleViolation) as refused:
        run(state, "activate", unit=kommando)
    assert refused.value.code == "blitzed_this_round"


def test_readiness_is_carried_into_the_next_round() -> None:
    """ "Falls eine in Aktionsbereitschaft befindliche Einheit nicht die Gelegenheit bekommt,
    in einer Runde eine Blitzaktion durchzuführen, übernimmt sie ihre Aktionsbereitschaft in die
    folgende Runde. Sie kann in der folgenden Runde entweder in Aktionsbereitschaft bleiben oder
    normal aktiviert werden." """
    state = to_battle()
    kommando = unit_named(state, "Kommando").id
    state, _ = run(state, "ready", unit=kommando)
    for name in ("Offizier", "Feuertrupp", "Kultisten", "Trupp"):
        state = finish_turn(activate(state, name))
    assert state.round == 2 and state.units[kommando].ready
    state = activate(state, "Kommando")
    assert not state.units[kommando].ready


def test_the_motion_scanner_trigger_needs_a_motion_scanner() -> None:
    """ "Ein Modell in der aktionsbereiten Einheit verfügt über einen Motion-Scanner und ein
    Gegner bewegt sich in maximal 25 cm Umkreis" (the SEK Kommando carries one)."""
    state = _ready_kommando_then_legion_moves()
    run(state, "blitz", unit=unit_named(state, "Kommando").id, trigger="scanner")
    state = to_battle()
    state, _ = run(state, "ready", unit=unit_named(state, "Kommando").id)
    state, _ = run(state, "ready", unit=unit_named(state, "Offizier").id)
    state = activate(state, "Feuertrupp")
    with pytest.raises(RuleViolation) as refused:
        run(state, "blitz", unit=unit_named(state, "Offizier").id, trigger="scanner")
    assert refused.value.code == "no_scanner"


def test_the_attacked_trigger_needs_an_attack_on_a_friend() -> None:
    """ "Ein Mitglied der Einheit in Aktionsbereitschaft oder ein Modell einer verbündeten
    Einheit innerhalb von 10 cm ... wird beschossen oder im Nahkampf angegriffen." """
    state = _ready_kommando_then_legion_moves()
    kommando = unit_named(state, "Kommando").id
    with pytest.raises(RuleViolation) as refused:
        run(state, "blitz", unit=kommando, trigger="attacked")
    assert refused.value.code == "nobody_attacked"
    state = to_phase(state, Phase.RANGED)
    shooter = state.units[state.active or 0].models[0]
    target = state.units[kommando].models[1]
    state, _ = run(state, "attack", [5], attacker=shooter, weapon=0, target=target)
    run(state, "blitz", unit=kommando, trigger="attacked")


def test_the_view_trigger_is_an_enemy_moving() -> None:
    state = to_phase(_ready_kommando_then_legion_moves(), Phase.RANGED)
    with pytest.raises(RuleViolation) as refused:
        run(state, "blitz", unit=unit_named(state, "Kommando").id, trigger="view")
    assert refused.value.code == "not_moving"


def test_a_blitzaktion_interrupts_only_an_opponents_turn() -> None:
    state = to_battle()
    state, _ = run(state, "ready", unit=unit_named(state, "Kommando").id)
    state = finish_turn(activate(state, "Offizier"))
    state = activate(state, "Feuertrupp")
    with pytest.raises(RuleViolation) as refused:
        run(state, "blitz", unit=unit_named(state, "Kommando").id, trigger="view")
    assert refused.value.code == "own_turn"


def test_a_turn_walks_movement_ranged_melee_and_rally() -> None:
    """ "Die Züge unterteilen sich in folgende Phasen: 1. Bewegungsphase 2. Fernkampfphase
    3. Nahkampfphase 4. Sammelphase" """
    state = activate(to_battle(), "Kommando")
    seen = [state.phase]
    for _ in range(3):
        state, _events = run(state, "next_phase")
        seen.append(state.phase)
    assert seen == [Phase.MOVEMENT, Phase.RANGED, Phase.MELEE, Phase.RALLY]
    state, events = run(state, "next_phase")
    assert "turn_ended" in types(events) and state.active is None


def test_a_stunned_model_stands_up_at_the_end_of_its_units_next_turn() -> None:
    """Design decision: "A stunned model stands up at the end of its own unit's next turn"."""
    state = to_battle()
    kommando = unit_named(state, "Kommando")
    model = kommando.models[1]
    state = state.with_model(model, stunned=True)
    state = activate(state, "Kommando")
    with pytest.raises(RuleViolation) as refused:
        run(state, "prone", model=model, down=True)
    assert refused.value.code == "model_stunned"
    state, events = run(state, "end_turn")
    assert events[0].data["woke"] == [model] and not state.models[model].stunned
