"""One card render in a process of its own, for its peak memory: ``python -m bench.card_memory``
reads a pickled print job (without its layouts) on stdin and prints JSON: the process's RSS
before the render, its peak during it (both MB) and the render's time. A fresh process, like a
worker's pool process, so that earlier benchmarks' memory does not count."""

from __future__ import annotations

import json
import os
import pickle
import resource
import sys
import time


def _rss_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _reset_peak() -> None:
    """Start the peak (VmHWM) afresh: the render's own peak, not the warm-up's."""
    with open("/proc/self/clear_refs", "w") as clear_refs:
        clear_refs.write("5")


def _peak_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "skirmish.settings")
    import django

    django.setup()
    from dataclasses import replace

    from django.utils import translation

    from apps.cards import rendering
    from apps.systems.core.registry import registry

    job, language = pickle.loads(sys.stdin.buffer.read())
    job = replace(job, layouts=registry().get(job.system_slug).cards)
    with translation.override(language):
        rendering.render_pdf(replace(job, cards=job.cards[:1], sheet=None))  # imports, fonts
        if os.environ.get("BENCH_CARD_RUNS") == "2":
            rendering.render_pdf(job)  # the store learns the fits; the peak is this run's
        before = _rss_mb()
        _reset_peak()
        start = time.perf_counter()
        pdf = rendering.render_pdf(job)
        seconds = time.perf_counter() - start
    peak = _peak_mb()
    print(json.dumps({"before_mb": before, "peak_mb": peak, "seconds": seconds, "bytes": len(pdf)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
