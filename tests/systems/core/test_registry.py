"""The registry of rule systems and their rules references."""

from __future__ import annotations

import uuid
from dataclasses import replace
from importlib import resources
from pathlib import Path

import pytest

from apps.systems.core.errors import RuleViolation
from apps.systems.core.registry import (
    SYSTEM_PACKAGES,
    GameSystemInfo,
    Registry,
    UnknownSystem,
    registry,
)


def test_five_systems_are_registered_in_order() -> None:
    assert registry().slugs() == (
        "deathmatch",
        "grundregeln",
        "universalis",
        "stahlgewitter",
        "bunkers",
    )
    assert tuple(system.package for system in registry().all()) == SYSTEM_PACKAGES


def test_get_returns_the_system_by_slug() -> None:
    assert registry().get("bunkers").name == "Bunkers and Badasses"


def test_unknown_slug_is_refused() -> None:
    with pytest.raises(UnknownSystem) as error:
        registry().get("chess")
    assert isinstance(error.value, RuleViolation)
    assert error.value.code == "unknown_system"


def test_a_slug_cannot_be_registered_twice() -> None:
    deathmatch = registry().get("deathmatch")
    with pytest.raises(ValueError):
        Registry([deathmatch, deathmatch])


def test_system_info_is_consistent() -> None:
    for system in registry().all():
        assert 2 <= system.min_players <= system.max_players
        assert system.rulebook.endswith(".de.txt")
        assert system.tagline and system.description
        assert len({size.key for size in system.game_sizes}) == len(system.game_sizes)
    assert [size.value for size in registry().get("deathmatch").game_sizes] == [3, 5, 7]
    assert registry().get("deathmatch").max_players == 4


@pytest.mark.parametrize("slug", [info.rsplit(".", 1)[1] for info in SYSTEM_PACKAGES])
def test_each_reference_falls_back_to_english_when_the_language_is_missing(slug: str) -> None:
    system = registry().get(slug)
    folder = resources.files(system.package).joinpath("reference")
    english = system.reference("en")
    assert english == folder.joinpath("en.md").read_text(encoding="utf-8")
    german = folder.joinpath("de.md")
    expected = german.read_text(encoding="utf-8") if german.is_file() else english
    assert system.reference("de") == expected
    assert system.reference("de-AT") == expected
    assert system.reference("tlh") == english


@pytest.fixture
def reference_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, Path]:
    """An importable package with only an English reference, under a fresh name."""
    name = f"reference_fixture_{uuid.uuid4().hex}"
    folder = tmp_path / name / "reference"
    folder.mkdir(parents=True)
    (tmp_path / name / "__init__.py").write_text('"""Test package."""\n')
    (folder / "en.md").write_text("# English\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    return name, folder


def test_reference_uses_the_language_file_when_it_exists(
    reference_package: tuple[str, Path],
) -> None:
    name, folder = reference_package
    system = replace(registry().get("deathmatch"), package=name)
    assert isinstance(system, GameSystemInfo)
    assert system.reference("de") == "# English\n"
    (folder / "de.md").write_text("# Deutsch\n", encoding="utf-8")
    assert system.reference("de") == "# Deutsch\n"
    assert system.reference("de-ch") == "# Deutsch\n"
    assert system.reference("../en") == "# English\n"


def test_command_handlers_register_by_type_and_leave_others_alone() -> None:
    from apps.systems.core.match import Args, CommandHandlers

    handlers: CommandHandlers[list[str]] = CommandHandlers()

    @handlers.command("ping")
    def ping(seen: list[str], args: Args) -> None:
        seen.append("ping")

    seen: list[str] = []
    handlers["ping"](seen, Args({}))
    assert seen == ["ping"] and handlers.get("pong") is None and list(handlers) == ["ping"]


def test_field_errors_collect_every_problem_before_raising() -> None:
    import pytest

    from apps.systems.core.schema import (
        FieldErrors,
        SchemaError,
        field_path,
        numbered_lines,
        read_int,
    )

    errors = FieldErrors()
    errors.raise_if_any()
    assert read_int(errors, 3, "lp", 1, 6) == 3
    assert read_int(errors, True, field_path("weapons", 1), 0, None) == 0
    read_int(errors, 9, "lp", 1, 6)
    with pytest.raises(SchemaError) as raised:
        errors.raise_if_any()
    assert [e.field for e in raised.value.errors] == ["weapons.1", "lp"]
    assert numbered_lines("a\n\n  b  \n") == [(1, "a"), (3, "b")]
