"""`python -m bench`: run every benchmark against a throw-away test database and print figures."""

from __future__ import annotations

import os
import sys


def main() -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "skirmish.settings")
    import django

    django.setup()
    from django.test.utils import setup_databases, teardown_databases

    from bench import (
        browser,
        bunkers_import,
        cards,
        dice_odds,
        flip_odds,
        framework,
        growth,
        leagues,
        matches,
        rosters,
        stahlgewitter,
        universalis,
    )
    from bench.report import Report

    benchmarks = [
        framework,
        flip_odds,
        dice_odds,
        bunkers_import,
        rosters,
        matches,
        growth,
        universalis,
        stahlgewitter,
        leagues,
        cards,
        browser,
    ]

    # Not setup_test_environment(): it instruments template rendering for test assertions,
    # which would inflate every page's time. Only the throw-away databases are needed.
    databases = setup_databases(verbosity=0, interactive=False)
    report = Report()
    try:
        print(f"Skirmish benchmarks (python {sys.version.split()[0]}, {os.cpu_count()} cores)")
        for benchmark in benchmarks:
            benchmark.run(report)
    finally:
        teardown_databases(databases, verbosity=0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
