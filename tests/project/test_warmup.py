"""A web process loads at start what its first requests would load (apps.common.warmup): the
first tracker page of a fresh gunicorn worker cost about 0.7 s of CPU, and five workers
replaced together stalled a club night's server (issue 16)."""

from __future__ import annotations

import pytest
from django.template import engines
from django.template.loaders.cached import Loader as CachedLoader
from django.urls import get_resolver
from django.utils.translation import trans_real

from apps.common import warmup
from apps.systems.core.registry import registry


def test_every_project_template_and_partial_is_named() -> None:
    names = warmup.project_template_names()
    assert "matches/tracker.html" in names
    assert "matches/tracker.html#tracker" in names
    assert "leagues/season.html#standings" in names
    assert len(names) == len(set(names))


def test_every_project_template_compiles() -> None:
    compiled, failed = warmup.compile_templates()
    assert failed == ()
    assert compiled == len(warmup.project_template_names())


def test_a_broken_template_is_reported_and_the_others_still_compile(
    monkeypatch: pytest.MonkeyPatch, tmp_path
) -> None:  # noqa: ANN001
    (tmp_path / "broken.html").write_text("{% if %}")
    (tmp_path / "fine.html").write_text("{{ value }}")
    monkeypatch.setattr(engines["django"].engine, "dirs", [str(tmp_path)])
    monkeypatch.setattr(warmup, "project_template_names", lambda: ["broken.html", "fine.html"])
    assert warmup.compile_templates() == (1, ("broken.html",))


def _cached_loaders(loaders: list[object]) -> list[CachedLoader]:
    """The cached loaders among ``loaders`` and the loaders they wrap (django-template-partials
    wraps Django's cached loader, which production settings use)."""
    found: list[CachedLoader] = []
    for loader in loaders:
        if isinstance(loader, CachedLoader):
            found.append(loader)
        found.extend(_cached_loaders(getattr(loader, "loaders", [])))
    return found


def test_warming_leaves_the_templates_compiled_and_the_catalogues_and_url_tables_loaded() -> None:
    engine = engines["django"].engine
    assert not engine.debug
    cached = _cached_loaders(engine.template_loaders)
    assert cached
    for loader in cached:
        loader.reset()
    trans_real._translations.pop("de", None)
    get_resolver()._reverse_dict.clear()

    warmed = warmup.warm_process()

    assert warmed.systems == len(registry().all()) == 5
    assert warmed.failed == ()
    assert warmed.languages == 2
    assert "de" in trans_real._translations
    assert {"de", "en"} <= set(get_resolver()._reverse_dict)
    # A partial is found in its template, which the loader keeps compiled.
    assert "matches/tracker.html" in cached[0].get_template_cache
