"""What a web process would otherwise load on its first requests, loaded at once: the rule
systems, every template of the project compiled, the translation catalogue of every language,
the URL reversal tables of every language and the static files' manifest.

gunicorn loads the app in its master and forks the workers from it (deploy/gunicorn.conf.py,
``preload_app``): warmed there, every worker starts with all of this, also each one that replaces
a worker after ``max_requests``. Unwarmed, a new worker spent about 0.7 s of CPU on its first
tracker page (importing the five rule systems, compiling the tracker's templates). Under a club
night's load the five workers, started together, reach ``max_requests`` within seconds of each
other, and those first requests stalled the whole server for about a second (issue 16: the p95
by ten seconds of ``make bench-load``).
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles.storage import staticfiles_storage
from django.template import TemplateSyntaxError, engines
from django.urls import URLResolver, get_resolver
from django.utils import translation
from django.utils.translation import trans_real

from apps.systems.core.registry import registry

logger = logging.getLogger(__name__)

# django-template-partials: a partial is loaded as "<template>#<name>" from its compiled
# template; loading each one here also checks that it is there.
_PARTIAL = re.compile(r"{%\s*partialdef\s+([\w-]+)")
TEMPLATE_SUFFIXES = (".html", ".txt", ".svg", ".xml")


@dataclass(frozen=True)
class Warmed:
    systems: int
    templates: int
    languages: int
    failed: tuple[str, ...] = ()


def project_template_names() -> list[str]:
    """Every template under the project's template folders (``TEMPLATES["DIRS"]``), with each
    partial it defines, by the names views load them with."""
    names: list[str] = []
    for folder in engines["django"].engine.dirs:
        root = Path(folder)
        for path in sorted(root.rglob("*")):
            if not path.is_file() or path.suffix not in TEMPLATE_SUFFIXES:
                continue
            name = path.relative_to(root).as_posix()
            names.append(name)
            text = path.read_text(encoding="utf-8")
            names.extend(f"{name}#{partial}" for partial in _PARTIAL.findall(text))
    return names


def compile_templates() -> tuple[int, tuple[str, ...]]:
    """Each project template compiled into the engine's cached loader; the names that would not
    compile are logged and returned (their pages fail as they would have anyway)."""
    engine = engines["django"]
    compiled, failed = 0, []
    for name in project_template_names():
        try:
            engine.get_template(name)
        except TemplateSyntaxError:
            logger.exception("template %s does not compile", name)
            failed.append(name)
        else:
            compiled += 1
    return compiled, tuple(failed)


def load_catalogues() -> int:
    """The translation catalogue of each language the site speaks, read into the process."""
    for code, _name in settings.LANGUAGES:
        trans_real.translation(code)
    return len(settings.LANGUAGES)


def _populate(resolver: URLResolver) -> None:
    resolver.reverse_dict  # noqa: B018 - built on first access, per language
    for pattern in resolver.url_patterns:
        if isinstance(pattern, URLResolver):
            _populate(pattern)


def populate_url_tables() -> None:
    """Django builds a resolver's reversal tables on the first ``reverse`` in each language,
    for each included URLconf: all of them now."""
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            _populate(get_resolver())


def warm_process() -> Warmed:
    systems = len(registry().all())
    templates, failed = compile_templates()
    languages = load_catalogues()
    populate_url_tables()
    # The storage is set up (and, with hashed names, reads its manifest) on first use.
    staticfiles_storage.base_url  # noqa: B018
    return Warmed(systems=systems, templates=templates, languages=languages, failed=failed)
