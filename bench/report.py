"""Timing helpers and the printed report."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Timing:
    name: str
    samples_ns: tuple[int, ...]
    note: str = ""

    @property
    def median_ms(self) -> float:
        return statistics.median(self.samples_ns) / 1e6

    @property
    def p90_ms(self) -> float:
        ordered = sorted(self.samples_ns)
        return ordered[int(0.9 * (len(ordered) - 1))] / 1e6


def measure(
    name: str, action: Callable[[], object], *, repeat: int, warmup: int = 10, note: str = ""
) -> Timing:
    for _ in range(warmup):
        action()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter_ns()
        action()
        samples.append(time.perf_counter_ns() - start)
    return Timing(name=name, samples_ns=tuple(samples), note=note)


class Report:
    def __init__(self) -> None:
        self.timings: list[Timing] = []

    def add(self, timing: Timing) -> None:
        self.timings.append(timing)
        print(
            f"  {timing.name:<58} median {timing.median_ms:9.3f} ms   "
            f"p90 {timing.p90_ms:9.3f} ms   n={len(timing.samples_ns)}"
            + (f"   ({timing.note})" if timing.note else ""),
            flush=True,
        )

    def section(self, title: str) -> None:
        print(f"\n{title}", flush=True)
