"""Exact odds, worst cases, cold (every odds cache emptied before each run) and warm (the same
call again): Grundregeln attacks and falls, the Universalis wound roll with three rerolls and
the Deathmatch flip odds. Issue 16's goal: ≤ 5 ms each, cold. The floor is a warm cache hit of
a cached odds function, measured in the same run."""

from __future__ import annotations

import random
from collections.abc import Callable

from apps.systems.core.deck import draw, shuffled_deck
from apps.systems.core.flip_odds import flip_odds
from apps.systems.grundregeln import odds as grundregeln
from apps.systems.universalis.match import odds as universalis
from bench.report import Report, Timing, measure

GOAL_MS = 5.0


def _cold_grundregeln() -> None:
    grundregeln.clear_caches()


def _cold_universalis() -> None:
    for cached in (
        universalis._wound,
        universalis._table,
        universalis._settle,
        universalis._settle_counts,
    ):
        cached.cache_clear()


def _nothing() -> None:
    """Flip odds keep no cache: every call is cold."""


def _cold(clear: Callable[[], None], action: Callable[[], object]) -> Callable[[], object]:
    def run() -> object:
        clear()
        return action()

    return run


def _worn_deck() -> object:
    rng = random.Random(7)
    deck = shuffled_deck(rng)
    for _ in range(34):  # one card above the Wendepunkt: a ⬠⬠ flip crosses it
        deck = draw(deck, rng).deck
    return deck


_RULES_REROLLS = universalis.Rerolls(
    universalis.BEHIND_OR_TIE, universalis.BEHIND_OR_TIE, universalis.BEHIND_OR_TIE
)
_WORN = _worn_deck()

# name, how to empty its caches, the call, cold repeats
CASES: list[tuple[str, Callable[[], None], Callable[[], object], int]] = [
    (
        "Grundregeln 3 vs 2 attack (4/4)",
        _cold_grundregeln,
        lambda: grundregeln.attack_damage(3, 4, 4, 2),
        30,
    ),
    (
        "Grundregeln Oger attack (4 dice, 3/3 vs 2)",
        _cold_grundregeln,
        lambda: grundregeln.attack_damage(4, 3, 3, 2),
        20,
    ),
    (
        "Grundregeln 12-inch fall (12 vs 3, 4/4)",
        _cold_grundregeln,
        lambda: grundregeln.fall_damage(12, 4, 3, False),
        5,
    ),
    (
        "Grundregeln 12 vs 5, rerolls both sides (4/4)",
        _cold_grundregeln,
        lambda: grundregeln.attack_damage(12, 4, 4, 5, True, True),
        5,
    ),
    (
        "Universalis wound roll, three rerolls",
        _cold_universalis,
        lambda: universalis.wound_odds(4, 4, _RULES_REROLLS),
        50,
    ),
    (
        "Deathmatch flip odds, ⬠⬠ across the Wendepunkt",
        _nothing,
        lambda: flip_odds(_WORN, 2),  # type: ignore[arg-type]
        100,
    ),
]


def _row(report: Report, timing: Timing, floor: Timing) -> None:
    ratio = timing.median_ms / floor.median_ms if floor.median_ms else float("inf")
    verdict = "ok" if timing.median_ms <= GOAL_MS else "OVER"
    report.add(
        Timing(
            timing.name,
            timing.samples_ns,
            note=f"{ratio:,.0f}x floor; goal ≤ {GOAL_MS:g} ms: {verdict}",
        )
    )


def run(report: Report) -> None:
    report.section(f"Exact odds, worst cases, cold and warm (goal ≤ {GOAL_MS:g} ms cold)")
    floor = measure(
        "floor: warm cache hit", lambda: grundregeln.attack_damage(3, 4, 4, 2), repeat=300
    )
    report.add(floor)
    for name, clear, action, repeat in CASES:
        _row(report, measure(f"{name}, cold", _cold(clear, action), repeat=repeat, warmup=1), floor)
        _row(report, measure(f"{name}, warm", action, repeat=100, warmup=1), floor)
