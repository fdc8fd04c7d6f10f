"""Every refusal the Universalis engine can give has a clear translatable message: the codes are
read from the engine's source (so a new ``refuse(...)`` without a message fails here)."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

from apps.systems.core import match as core_match
from apps.systems.universalis.match import order, rules
from apps.systems.universalis.match.engine import UniversalisEngine
from apps.systems.universalis.match.view import REFUSALS

MATCH = Path(rules.__file__).parent
RAISED = re.compile(r'\b(?:refuse|RuleViolation)\(\s*(f?)"([^"]+)"')
# Codes built at run time: "weapon_" + why rules.usable refuses the weapon, and end_phase's
# refusal of a panic retest, passed on from order.retest_refusal.
RETURNED = re.compile(r'return "(\w+)"')


def raised_codes() -> set[str]:
    sources = [*sorted(MATCH.glob("*.py")), Path(core_match.__file__)]
    codes: set[str] = set()
    for path in sources:
        for formatted, code in RAISED.findall(path.read_text(encoding="utf-8")):
            if not formatted:
                codes.add(code)
                continue
            assert code == "weapon_{reason}", f"{path.name}: a refusal code built at run time"
            reasons = RETURNED.findall(inspect.getsource(rules.usable))
            assert reasons
            codes |= {f"weapon_{reason}" for reason in reasons}
    retest = RETURNED.findall(inspect.getsource(order.retest_refusal))
    assert retest
    return codes | set(retest)


def test_the_scan_finds_the_engine_refusals() -> None:
    codes = raised_codes()
    assert {"not_indirect", "too_far", "weapon_reload", "orphan_panic", "invalid_args"} <= codes
    assert len(codes) > 60


def test_every_refusal_code_has_a_message() -> None:
    missing = sorted(code for code in raised_codes() if not REFUSALS.get(code))
    assert missing == []
    engine = UniversalisEngine()
    assert all(engine.refusal(code) for code in raised_codes())


def test_refusal_messages_are_sentences() -> None:
    for code, message in REFUSALS.items():
        assert message[:1].isupper() and message.endswith("."), code
