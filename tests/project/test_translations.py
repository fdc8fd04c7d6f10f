"""Every user-facing string is translated into German, and the catalogue matches the sources."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import skip_or_fail

PROJECT = Path(__file__).resolve().parents[2]
CATALOGUE = PROJECT / "locale" / "de" / "LC_MESSAGES" / "django.po"
MSGID = re.compile(r'^msgid "(.*)"\n((?:".*"\n)*)', re.MULTILINE)


def msgids_in(text: str) -> set[str]:
    ids = {first + "".join(re.findall(r'"(.*)"', rest)) for first, rest in MSGID.findall(text)}
    ids.discard("")
    return ids


def msgids(po: Path) -> set[str]:
    return msgids_in(po.read_text(encoding="utf-8"))


def gettext_tool(name: str) -> str:
    tool = shutil.which(name)
    if tool is None:
        skip_or_fail(f"GNU gettext's {name} is not installed (apt-get install gettext)")
    return str(tool)


def test_german_catalogue_has_no_untranslated_or_fuzzy_entries() -> None:
    msgattrib = gettext_tool("msgattrib")
    for flag in ("--untranslated", "--only-fuzzy"):
        result = subprocess.run(
            [msgattrib, flag, "--no-obsolete", str(CATALOGUE)],
            capture_output=True,
            text=True,
            check=True,
        )
        assert msgids_in(result.stdout) == set(), f"{flag} entries:\n{result.stdout}"


@pytest.mark.slow
def test_german_catalogue_matches_the_sources(tmp_path: Path) -> None:
    """Regenerate the catalogue from a copy of the sources: no string may be missing from it."""
    gettext_tool("xgettext")
    copy = tmp_path / "project"
    ignore = shutil.ignore_patterns(
        ".venv",
        ".git",
        "__pycache__",
        "staticfiles",
        "media",
        "*.mo",
        "db.sqlite3",
        "tests",
        "bench",
    )
    shutil.copytree(PROJECT, copy, ignore=ignore)
    env = {**os.environ, "DJANGO_DEBUG": "true"}
    env.pop("DATABASE_URL", None)
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "de", "--no-obsolete", "--no-location"],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    regenerated = msgids(copy / "locale" / "de" / "LC_MESSAGES" / "django.po")
    committed = msgids(CATALOGUE)
    assert regenerated - committed == set(), "run `make makemessages` and translate"
    assert committed - regenerated == set(), "the catalogue has strings no source uses"
