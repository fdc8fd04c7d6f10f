"""The schemathesis run's summary: how many requests each operation got, by status; and one
test id per operation."""

from __future__ import annotations

from collections import Counter, defaultdict

import pytest

# Statuses answered per operation (filled by test_schemathesis.py).
ANSWERS: defaultdict[str, Counter[int]] = defaultdict(Counter)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not ANSWERS:
        return
    terminalreporter.section("schemathesis: answers by operation and status")
    total = 0
    for label in sorted(ANSWERS):
        statuses = ANSWERS[label]
        total += sum(statuses.values())
        shown = ", ".join(f"{status}×{count}" for status, count in sorted(statuses.items()))
        terminalreporter.write_line(f"{label}: {shown}")
    ok = sum(n for s in ANSWERS.values() for status, n in s.items() if status < 300)
    terminalreporter.write_line(
        f"{len(ANSWERS)} operations, {total} requests, {ok} answered 2xx, "
        f"{sum(n for s in ANSWERS.values() for st, n in s.items() if st >= 500)} answered 5xx"
    )


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Give every operation's test its own id, ``test_…[GET /api/v1/…]``.

    pytest 9.2 builds an item's node id from its ``originalname`` and callspec, and
    schemathesis 4.32 passes neither for its per-operation items, so all of them share one id.
    pytest alone runs them anyway; pytest-xdist (``make test``) schedules by id and ran one of
    the 48 operations. Refuse to run at all if the ids still clash, rather than test less.
    """
    ids: Counter[str] = Counter()
    for item in items:
        label = getattr(item, "operation_label", None)
        if label is None:
            continue
        node_id = getattr(item, "_id", None)
        if node_id is not None and getattr(node_id, "params", "") is None:
            item._id = node_id.with_params(label)  # type: ignore[attr-defined]
        ids[item.nodeid] += 1
    clashing = [nodeid for nodeid, count in ids.items() if count > 1]
    if clashing:
        raise pytest.UsageError(f"schemathesis tests share a node id: {clashing[:3]}")
