"""Exact flip odds of the Deathmatch RNG deck."""

from __future__ import annotations

import random

from apps.systems.core.deck import draw, shuffled_deck
from apps.systems.core.flip_odds import flip_outcomes, hit_chance
from bench.report import Report, measure


def run(report: Report) -> None:
    report.section("Exact flip odds (fractions, from the player's remaining deck)")
    rng = random.Random(7)
    fresh = shuffled_deck(rng)
    for modifier in (0, 2, -2):
        report.add(
            measure(
                f"flip_outcomes, fresh deck, modifier {modifier:+d}",
                lambda m=modifier: flip_outcomes(fresh, m),
                repeat=300,
            )
        )
    worn = fresh
    for _ in range(34):  # one card above the Wendepunkt: a ⬠⬠ flip crosses it
        worn = draw(worn, rng).deck
    report.add(
        measure(
            "flip_outcomes, 1 card before Wendepunkt, +2",
            lambda: flip_outcomes(worn, 2),
            repeat=300,
        )
    )
    report.add(
        measure(
            "hit_chance, fresh deck, +2, attack 3 vs Reflex 8",
            lambda: hit_chance(fresh, 2, 3, 8),
            repeat=300,
        )
    )
