"""Worst-case exact dice odds, cold (every odds cache emptied before each run): Grundregeln
attacks and falls, and the Universalis wound roll with three rerolls. Issue 16's goal: ≤ 5 ms."""

from __future__ import annotations

from collections.abc import Callable

from apps.systems.grundregeln import odds as grundregeln
from apps.systems.universalis.match import odds as universalis
from bench.report import Report, measure


def _cold_grundregeln() -> None:
    for cached in (
        grundregeln.attack_damage,
        grundregeln.uncancelled,
        grundregeln._row,
        grundregeln._sixes,
    ):
        cached.cache_clear()


def _cold_universalis() -> None:
    for cached in (universalis._wound, universalis._settle, universalis._settle_counts):
        cached.cache_clear()


def _cold(clear: Callable[[], None], action: Callable[[], object]) -> Callable[[], object]:
    def run() -> object:
        clear()
        return action()

    return run


CASES: list[tuple[str, Callable[[], object], int]] = [
    ("Grundregeln 3 vs 2 attack (4/4)", lambda: grundregeln.attack_damage(3, 4, 4, 2), 30),
    (
        "Grundregeln Oger attack (4 dice, 3/3 vs 2)",
        lambda: grundregeln.attack_damage(4, 3, 3, 2),
        20,
    ),
    (
        "Grundregeln 12-inch fall (12 vs 3, 4/4)",
        lambda: grundregeln.fall_damage(12, 4, 3, False),
        3,
    ),
    (
        "Grundregeln 12 vs 5, rerolls both sides (4/4)",
        lambda: grundregeln.attack_damage(12, 4, 4, 5, True, True),
        3,
    ),
]


def run(report: Report) -> None:
    report.section("Exact dice odds, cold caches (goal ≤ 5 ms each)")
    # The floor: a warm cache hit of the same call, measured in this run.
    report.add(
        measure("floor: warm cache hit", lambda: grundregeln.attack_damage(3, 4, 4, 2), repeat=300)
    )
    for name, action, repeat in CASES:
        report.add(measure(name, _cold(_cold_grundregeln, action), repeat=repeat, warmup=1))
    rerolls = universalis.Rerolls(
        universalis.BEHIND_OR_TIE, universalis.BEHIND_OR_TIE, universalis.BEHIND_OR_TIE
    )
    report.add(
        measure(
            "Universalis wound roll, three rerolls",
            _cold(_cold_universalis, lambda: universalis.wound_odds(4, 4, rerolls)),
            repeat=50,
            warmup=2,
        )
    )
