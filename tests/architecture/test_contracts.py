"""Architecture and code-quality gates that run with the suite."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=PROJECT, capture_output=True, text=True, timeout=300)


def test_import_contracts_keep_rules_framework_free() -> None:
    result = run(str(BIN / "lint-imports"))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Contracts: 2 kept, 0 broken." in result.stdout


def test_rule_systems_are_strictly_typed() -> None:
    result = run(str(BIN / "mypy"), "apps/systems")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_finds_nothing() -> None:
    ruff = shutil.which("ruff", path=str(BIN)) or "ruff"
    result = run(ruff, "check", "--no-cache", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_code_is_formatted() -> None:
    ruff = shutil.which("ruff", path=str(BIN)) or "ruff"
    result = run(
        ruff, "format", "--check", "--no-cache", "apps", "skirmish", "tests", "bench", "tools"
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_no_function_is_more_complex_than_the_bound() -> None:
    # radon's cyclomatic complexity (branches, loops, boolean operators) of every function in
    # apps/ and skirmish/ stays at most 15 (tools/complexity.py, also run by `make lint`).
    from tools.complexity import LIMIT, too_complex

    assert too_complex() == [], f"functions above {LIMIT}"
