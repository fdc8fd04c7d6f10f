"""Exact odds are never computed while the match row is locked (issue 16): the rules decide on
the unlocked snapshot and the locked section stores that decision, deciding again only when
another command came in between."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from apps.catalog.models import GameSystem
from apps.matches import services
from apps.matches.models import Match
from apps.matches.selectors import engine_for, match_state
from apps.matches.services import match_rebuilt_state
from apps.systems.grundregeln import odds
from tests.matches.grundregeln import grund_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def grundregeln(deathmatch) -> GameSystem:  # noqa: ARG001 - loads every shipped catalogue
    return GameSystem.objects.get(slug="grundregeln")


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What happened in order: "read" and "lock" (the match fetched without and with its row
    lock) and "odds" (an exact attack distribution computed, not a cache hit)."""
    seen: list[str] = []
    fetch = services.match_for_participant

    def fetching(user: Any, match_id: int, *, lock: bool = False, **options: Any) -> Match:
        seen.append("lock" if lock else "read")
        return fetch(user, match_id, lock=lock, **options)

    lost = odds._lost

    def computing(*args: Any) -> dict[int, int]:
        seen.append("odds")
        return lost(*args)

    monkeypatch.setattr(services, "match_for_participant", fetching)
    monkeypatch.setattr(odds, "_lost", computing)
    odds.attack_damage.cache_clear()
    return seen


def _fall(match: Match, user: Any, rng: random.Random, which: int = 0) -> services.CommandOutcome:
    """A 12-inch fall of the ``which``-th model in play (-1: the last)."""
    state = match_state(match)
    unit = [m for m in state.models if not m.passive_npc and m.in_play][which]
    return services.match_apply_command(
        user=user,
        match_id=match.pk,
        command_type="fall",
        args={"unit": unit.id, "distance": 12},
        expected_seq=None,
        idempotency_key=None,
        rng=rng,
    )


def test_a_falls_odds_are_computed_before_the_row_is_locked(grundregeln, user, calls) -> None:
    match = grund_match(user, grundregeln)
    outcome = _fall(match, user, random.Random(3))
    assert "odds" in calls
    # Stored by the conditional write alone: the match is never read under its lock.
    assert calls[0] == "read" and "lock" not in calls
    assert any(row.type == "attack_rolled" or row.data.get("odds") for row in outcome.events)
    stored = engine_for(outcome.match).load_state(outcome.match.state)
    assert stored == match_rebuilt_state(outcome.match)


def test_a_command_is_decided_again_when_another_came_in_between(
    grundregeln, user, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = grund_match(user, grundregeln)
    early: Callable[..., Any] = services._decided_unlocked
    interleaved: list[int] = []

    def racing(*args: Any) -> Any:
        decided = early(*args)
        if not interleaved:  # another device's command lands before this one takes the lock
            interleaved.append(1)
            _fall(match, user, random.Random(5), which=-1)
        return decided

    monkeypatch.setattr(services, "_decided_unlocked", racing)
    seq = Match.objects.get(pk=match.pk).seq
    outcome = _fall(match, user, random.Random(3))
    assert outcome.events[0].seq > seq + 1  # stored after the command that came in between
    stored = engine_for(outcome.match).load_state(outcome.match.state)
    assert stored == match_rebuilt_state(outcome.match)
    assert outcome.match.seq == Match.objects.get(pk=match.pk).seq == outcome.events[-1].seq


def test_a_command_decided_on_a_seq_that_moved_before_its_write_is_stale(
    grundregeln, user, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The conditional write finds the seq moved: nothing of the early decision is stored, and
    a command that named its seq is refused as stale, as it would have been under the lock."""
    match = grund_match(user, grundregeln)
    early: Callable[..., Any] = services._decided_unlocked
    interleaved: list[int] = []

    def racing(*args: Any) -> Any:
        decided = early(*args)
        if not interleaved:  # another device's command lands before this one is written
            interleaved.append(1)
            _fall(match, user, random.Random(5), which=-1)
        return decided

    seq = Match.objects.get(pk=match.pk).seq
    monkeypatch.setattr(services, "_decided_unlocked", racing)
    state = match_state(match)
    unit = [m for m in state.models if not m.passive_npc and m.in_play][0]
    with pytest.raises(services.StaleCommand):
        services.match_apply_command(
            user=user,
            match_id=match.pk,
            command_type="fall",
            args={"unit": unit.id, "distance": 12},
            expected_seq=seq,
            idempotency_key="early-then-stale",
            rng=random.Random(3),
        )
    moved = Match.objects.get(pk=match.pk)
    assert moved.seq > seq
    assert not moved.events.filter(idempotency_key="early-then-stale").exists()
    assert engine_for(moved).load_state(moved.state) == match_rebuilt_state(moved)


def test_a_refusal_decided_early_is_raised_without_the_lock(
    grundregeln, user, calls: list[str]
) -> None:
    match = grund_match(user, grundregeln)
    before = Match.objects.get(pk=match.pk).seq
    with pytest.raises(services.RuleViolation):
        services.match_apply_command(
            user=user,
            match_id=match.pk,
            command_type="fall",
            args={"unit": 99999, "distance": 12},
            expected_seq=None,
            idempotency_key=None,
            rng=random.Random(1),
        )
    assert Match.objects.get(pk=match.pk).seq == before
    assert calls == ["read"]
