"""Every refusal a match engine can give has a clear translatable message, in each system: the
codes are read from the system's source (so a new ``refuse(...)`` without a message fails here),
and the page shows the message in the reader's language instead of the engine's English text."""

from __future__ import annotations

import ast
import inspect
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from apps.systems.core import engine as core_engine
from apps.systems.core import legality as core_legality
from apps.systems.core import match as core_match
from apps.systems.core.engine import RuleEngine
from apps.systems.core.registry import registry
from apps.systems.universalis.match import rules as universalis_rules

SYSTEMS = Path(core_match.__file__).parent.parent
RAISED = re.compile(r'\b(?:refuse|RuleViolation|Refusal)\(\s*(f?)"([^"]+)"')
# A call whose code is not a string literal: only the helpers that pass a code on may do that.
ANY_CALL = re.compile(r"\b(?:refuse|RuleViolation)\(\s*([^\s)])")
PASS_ON = re.compile(r"\b(?:refuse|RuleViolation)\(code: str|RuleViolation\(code, message\)")
# The one code built at run time: Universalis' "weapon_" + why rules.usable refuses the weapon.
USABLE = re.compile(r'return "(\w+)"')
# A refusal passed on from a helper named ``*_refusal`` that returns the code ("" = allowed).
HELPER_CODE = re.compile(r"\b(?:refuse|RuleViolation)\(\s*(code|reason)\b")
ASSIGNED = re.compile(r"(\w+) = (?:\w+\.)?(\w+_refusal)\(")

ENGINES: dict[str, tuple[RuleEngine[Any, Any], Mapping[str, str]]] = {
    info.slug: (info.matches, info.matches.refusals)  # type: ignore[misc]
    for info in registry().all()
    if isinstance(info.matches, RuleEngine)
}


def helper_codes(text: str) -> dict[str, set[str]]:
    """The codes each ``*_refusal`` helper defined in ``text`` returns ("" means allowed)."""
    return {
        function.name: {
            node.value.value
            for node in ast.walk(function)
            if isinstance(node, ast.Return)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
            and node.value.value
        }
        for function in ast.walk(ast.parse(text))
        if isinstance(function, ast.FunctionDef) and function.name.endswith("_refusal")
    }


def passed_on_helpers(text: str) -> set[str]:
    """The ``*_refusal`` helpers whose answer ``text`` raises as a refusal code."""
    return {
        helper
        for variable, helper in ASSIGNED.findall(text)
        if re.search(rf"\b(?:refuse|RuleViolation)\(\s*{variable}\b", text)
    }


def raised_codes(system: str) -> set[str]:
    core = (core_match, core_engine, core_legality)
    sources = [*sorted((SYSTEMS / system).rglob("*.py")), *(Path(m.__file__) for m in core)]
    codes: set[str] = set()
    helpers: dict[str, set[str]] = {}
    code_helpers: set[str] = set()
    for path in sources:
        text = path.read_text(encoding="utf-8")
        helpers |= helper_codes(text)
        code_helpers |= passed_on_helpers(text)
        for call in ANY_CALL.finditer(text):
            line = text[call.start() : text.find("\n", call.start())]
            passed_on = PASS_ON.search(line) or (HELPER_CODE.search(line) and "_refusal(" in text)
            assert call.group(1) in '"f' or passed_on, f"{path.name}: {line}"
        for formatted, code in RAISED.findall(text):
            if not formatted:
                codes.add(code)
                continue
            assert (system, code) == ("universalis", "weapon_{reason}"), (
                f"{path.name}: a refusal code built at run time"
            )
            reasons = USABLE.findall(inspect.getsource(universalis_rules.usable))
            assert reasons
            codes |= {f"weapon_{reason}" for reason in reasons}
    for helper in code_helpers:
        assert helpers.get(helper), f"{helper} returns no refusal codes the scan can read"
        codes |= helpers[helper]
    return codes


def test_the_scan_finds_the_engine_refusals() -> None:
    assert {
        "not_indirect",
        "too_far",
        "weapon_reload",
        "orphan_panic",
        "invalid_args",
        "not_panicking",
    } <= raised_codes("universalis")
    assert {"bad_interferer", "warning_team_only", "flag_home", "invalid_args"} <= (
        raised_codes("deathmatch")
    )
    assert {"already_reacted", "unknown_mission", "invalid_args", "morale_test_first"} <= (
        raised_codes("grundregeln")
    )
    assert all(len(raised_codes(system)) > 45 for system in ENGINES)


@pytest.mark.parametrize("system", sorted(ENGINES))
def test_every_refusal_code_has_a_message(system: str) -> None:
    engine, refusals = ENGINES[system]
    codes = raised_codes(system)
    missing = sorted(code for code in codes if not refusals.get(code))
    assert missing == []
    assert all(engine.refusal(code) for code in codes)


@pytest.mark.parametrize("system", sorted(ENGINES))
def test_refusal_messages_are_sentences(system: str) -> None:
    for code, message in ENGINES[system][1].items():
        assert message[:1].isupper() and message.endswith("."), code
