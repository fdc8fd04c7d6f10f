"""Pytest fixtures that add the test systems to the registry for one test, as if they were
listed in ``SYSTEM_PACKAGES``: their templates join the template directories and the probe's
shipped catalogue is loaded. Import the fixtures into a test module to use them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from apps.systems.core import registry as registry_module

HERE = Path(__file__).resolve().parent


def _registered(monkeypatch: pytest.MonkeyPatch, *packages: str) -> None:
    monkeypatch.setattr(
        registry_module, "SYSTEM_PACKAGES", (*registry_module.SYSTEM_PACKAGES, *packages)
    )
    registry_module.registry.cache_clear()


@pytest.fixture
def plain_systems(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Two registered systems without rosters or matches, "plain" and "other" (leagues report
    their results by hand); their rows are made when first asked for."""
    _registered(monkeypatch, "tests.probe.plain", "tests.probe.other")
    yield
    monkeypatch.undo()
    registry_module.registry.cache_clear()


@pytest.fixture
def probe_system(db: None, monkeypatch: pytest.MonkeyPatch, settings: Any) -> Iterator[Any]:
    """The probe system registered with its templates and its shipped catalogue loaded."""
    from apps.catalog.services import catalog_load

    _registered(monkeypatch, "tests.probe.system")
    settings.TEMPLATES = [
        {**engine, "DIRS": [*engine.get("DIRS", []), HERE / "templates"]}
        for engine in settings.TEMPLATES
    ]
    catalog_load(HERE / "fixtures" / "probe" / "catalog.json")
    from apps.catalog.models import GameSystem

    yield GameSystem.objects.get(slug="probe")
    monkeypatch.undo()
    registry_module.registry.cache_clear()
