"""Stahlgewitter morale, panic and rallying (stahlgewitter.de.txt "Moral", "Sammelphase",
"Khirf"), and repairing a weapon fault in the rally phase."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from apps.systems.core.errors import RuleViolation
from apps.systems.stahlgewitter.match import panic
from apps.systems.stahlgewitter.match.state import MatchState, Phase
from tests.systems.stahlgewitter.test_match_support import (
    activate,
    run,
    to_battle,
    to_phase,
    types,
    unit_named,
)


def take_test(
    state: MatchState, name: str, faces: list[int], **args: object
) -> tuple[MatchState, dict[str, Any]]:
    state, events = run(state, "morale_test", faces, unit=unit_named(state, name).id, **args)
    return state, dict(events[0].data)


def test_a_morale_test_passes_at_1d10_plus_wik_of_10_or_more() -> None:
    """ "würfelt der Spieler der betroffenen Einheit 1W10 und addiert die WIK ... Ist das
    Ergebnis 10 oder höher, so ist die Probe gelungen." The Feuertrupp tests on its
    Unteroffizier's WIK 8: a 2 passes, a 1 fails."""
    state, data = take_test(to_battle(), "Feuertrupp", [2])
    assert data["passed"] and data["wik"] == 8 and not state.units[1].panic
    state, data = take_test(to_battle(), "Feuertrupp", [1])
    assert not data["passed"] and state.units[1].panic


def test_a_rolled_10_counts_0_in_a_morale_test() -> None:
    """ "eine gewürfelte 10 bei einer Moralprobe stets eine Null darstellt" """
    _s, data = take_test(to_battle(), "Feuertrupp", [10])
    assert not data["passed"] and data["p_pass"] == "8/10"


def test_the_unit_tests_on_its_highest_ranking_leader() -> None:
    """ "Moralproben werden bei Einheiten, die einen Anführer enthalten, auf dessen
    Willenskraft (WIK) ausgeführt. Ist kein Anführer verfügbar, so testet die Einheit auf die
    WIK eines ihrer normalen Angehörigen." """
    state = to_battle()
    kultisten = unit_named(state, "Kultisten")
    assert panic.test_model(state, kultisten).wik == 8  # type: ignore[union-attr]
    state = state.with_model(kultisten.models[0], dead=True, tp=0)
    assert panic.test_model(state, kultisten).wik == 6  # type: ignore[union-attr]


def test_the_army_commander_or_a_banner_rerolls_a_failed_test_once() -> None:
    """ "Wird eine Einheit vom Armeekommandanten begleitet, so darf sie eine mißlungene
    Moralprobe einmal wiederholen. Das gleiche gilt, wenn sich in der Einheit ein Modell
    befindet, das deutlich sichtbar eine Fahne ... trägt." The SEK Kommando has both."""
    state, data = take_test(to_battle(), "Kommando", [10, 4])
    assert data["reroll"] and data["rerolled"] and data["passed"] and data["dice"] == [10, 4]
    assert data["p_pass"] == f"{9 * 10 + 1 * 9}/100"
    _s, data = take_test(to_battle(), "Feuertrupp", [10, 4])
    assert not data["reroll"] and data["dice"] == [10]


def test_the_commander_is_the_armys_highest_ranking_leader() -> None:
    """Decision: the army commander is the roster's highest-ranking leader (Legion: the
    Offizier, rank 2, over the Kultisten's Unteroffizier)."""
    state = to_battle()
    offizier = unit_named(state, "Offizier")
    assert state.players[1].commander == offizier.models[0]
    assert panic.may_reroll(state, offizier)
    assert not panic.may_reroll(state, unit_named(state, "Kultisten"))


def test_khirf_units_take_no_morale_tests() -> None:
    """ "Sie müssen keine Moralproben ablegen und können nicht in Panik versetzt werden." """
    state = to_battle()
    trupp = unit_named(state, "Trupp")
    state = state.with_model(trupp.models[0], dead=True, tp=0)  # only the Khirf Soldat is left
    with pytest.raises(RuleViolation) as refused:
        run(state, "morale_test", unit=trupp.id)
    assert refused.value.code == "khirf"


def test_a_panicking_unit_does_nothing_but_defend_itself() -> None:
    """ "Solange sich die Einheit in Panik befindet, darf sie nichts tun, außer sich gegen
    Nahkampfangriffe zur Wehr zu setzen." """
    state, _ = take_test(to_battle(), "Kommando", [10, 10])
    state = to_phase(activate(state, "Kommando"), Phase.RANGED)
    officer = unit_named(state, "Kommando").models[0]
    target = unit_named(state, "Kultisten").models[1]
    with pytest.raises(RuleViolation) as refused:
        run(state, "attack", attacker=officer, weapon=0, target=target)
    assert refused.value.code == "panicking"


def rally_phase(state: MatchState, name: str) -> MatchState:
    state = state.with_unit(unit_named(state, name).id, panic=True)
    return to_phase(activate(state, name), Phase.RALLY)


def test_a_rally_test_succeeds_on_at_most_the_morale_value() -> None:
    """ "Wird dabei maximal der entsprechende Moralwert gewürfelt, so gilt die Einheit als
    gesammelt" (Kommando: its Offizier's WIK 9)."""
    state, events = run(rally_phase(to_battle(), "Kommando"), "rally", [9])
    assert events[0].data["result"] == "rallied" and not state.units[0].panic
    assert events[0].data["weights"] == {"rallied": 9, "panic": 0, "deserted": 1}
    with pytest.raises(RuleViolation) as refused:
        run(state, "rally", [1])
    assert refused.value.code == "not_panicking"


def test_a_rally_test_that_fails_with_a_10_deserts() -> None:
    """ "Scheitert die Sammelprobe mit einer 10, so desertieren die Angehörigen der Einheit und
    werden als Verluste aus dem Spiel entfernt." """
    state, events = run(rally_phase(to_battle(), "Kommando"), "rally", [10])
    assert types(events)[:2] == ["rally_tested", "unit_removed"]
    assert state.units[0].out == "deserted"
    assert state.players[1].total_vp == sum(state.models[m].points for m in state.units[0].models)


def test_a_unit_without_a_leader_rallies_only_with_one_near_or_behind_hard_cover() -> None:
    """ "Voraussetzung hierfür ist, daß sich ein Anführer innerhalb von 10 cm ... befindet.
    Befindet sich kein Anführer bei der Einheit, so darf die Sammelprobe nur durchgeführt
    werden, wenn sich die Einheit bereits hinter harter Deckung befindet." """
    state = to_battle()
    feuertrupp = unit_named(state, "Feuertrupp")
    state = state.with_model(feuertrupp.models[0], dead=True, tp=0)
    state = rally_phase(state, "Feuertrupp")
    with pytest.raises(RuleViolation) as refused:
        run(state, "rally", [1])
    assert refused.value.code == "rally_needs_leader"
    _s, events = run(state, "rally", [1], hard_cover=True)
    assert events[0].data["value"] == 8  # the Soldat (V)'s WIK
    run(state, "rally", [1], leader_near=True)


def test_the_rally_test_is_taken_once_per_rally_phase() -> None:
    """ "Mißlingt die Probe, so bleibt die Einheit in Panik und darf erst in der folgenden
    Sammelphase wieder eine erneute Sammelprobe durchführen." """
    state = rally_phase(to_battle(), "Feuertrupp")
    state, _ = run(state, "rally", [9])
    with pytest.raises(RuleViolation) as refused:
        run(state, "rally", [1])
    assert refused.value.code == "rallied_already"


def test_the_pass_chance_is_exact_with_the_reroll() -> None:
    state = to_battle()
    assert panic.pass_chance(state, unit_named(state, "Feuertrupp")) == Fraction(8, 10)
    assert panic.pass_chance(state, unit_named(state, "Kommando")) == Fraction(99, 100)


def test_a_fault_without_repair_time_is_repaired_in_the_rally_phase() -> None:
    """Decision: a ranged A's fault lasts until a model that did nothing else this turn repairs
    it in its rally phase."""
    state = to_battle()
    soldier = unit_named(state, "Kommando").models[1]
    state = state.with_weapon(soldier, 0, fault=True, fault_until=0)
    state = to_phase(activate(state, "Kommando"), Phase.RALLY)
    state, events = run(state, "repair", model=soldier, weapon=0)
    assert types(events) == ["weapon_repaired"] and not state.models[soldier].weapons[0].fault
