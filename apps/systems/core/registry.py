"""The registry of rule systems.

``SYSTEM_PACKAGES`` is the one place where a system is registered. Each listed package defines
a module-level ``SYSTEM: GameSystemInfo``. The packages are imported dynamically so that
``core`` stays below the system packages in the layering (they import core, never the reverse).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from importlib import resources
from typing import Final

from apps.systems.core.cards import CardLayouts
from apps.systems.core.errors import RuleViolation
from apps.systems.core.i18n import gettext_noop, ngettext_noop
from apps.systems.core.match import MatchEngine
from apps.systems.core.rosters import MAX_POINTS_LIMIT, RosterRules
from apps.systems.core.scenarios import ScenarioRules
from apps.systems.core.schema import CatalogSchema

SYSTEM_PACKAGES: Final = (
    "apps.systems.deathmatch",
    "apps.systems.grundregeln",
    "apps.systems.universalis",
    "apps.systems.stahlgewitter",
    "apps.systems.bunkers",
)

FALLBACK_LANGUAGE: Final = "en"
_LANGUAGE_CODE = re.compile(r"[a-z]{2,3}(-[a-z0-9]{2,8})*")


class Unit(StrEnum):
    INCH = "inch"
    CM = "cm"


class DiceKind(StrEnum):
    RNG_DECK = "rng_deck"
    D6 = "d6"
    D12 = "d12"
    D10_D6 = "d10_d6"


@dataclass(frozen=True)
class GameSize:
    """A game size preset: fighters per team or default army points."""

    key: str
    label: str
    value: int


class SizeKind(StrEnum):
    MODELS = "models"
    POINTS = "points"


@dataclass(frozen=True)
class Sizing:
    """How a team is sized, and the words for it: by a number of models (Deathmatch's 3/5/7
    fighters, one of the presets, required) or by points (a points limit, any whole number, the
    presets only suggestions). ``setting`` is the roster and match setting that holds it; the
    labels are gettext_noop-marked, ``amount`` a (singular, plural) pair with %(n)s."""

    kind: SizeKind
    setting: str
    label: str
    amount: tuple[str, str]
    presets: tuple[GameSize, ...] = ()
    default: int | None = None
    required: bool = False
    maximum: int = MAX_POINTS_LIMIT

    def parse(self, value: object) -> int | None:
        """The size a setting holds: a whole number (digits in a text are read as one, as a form
        or a hand-written document sends them); ``None`` for no size where none is required.
        Raises ``RuleViolation("settings_invalid")`` for anything else or a size the presets
        do not allow."""
        if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
            value = int(value.strip())
        if value is None or value == "":
            if self.required:
                raise RuleViolation("settings_invalid", self._expected())
            return None
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= self.maximum:
            raise RuleViolation("settings_invalid", self._expected())
        if self.kind is SizeKind.MODELS and value not in {p.value for p in self.presets}:
            raise RuleViolation("settings_invalid", self._expected())
        return value

    def _expected(self) -> str:
        if self.kind is SizeKind.MODELS:
            sizes = ", ".join(str(p.value) for p in self.presets)
            return f"The game size must be one of {sizes} models."
        return f"The points limit must be a whole number from 1 to {self.maximum}."


def fighters(*presets: GameSize, default: int) -> Sizing:
    """Teams of a fixed number of models, one of ``presets``."""
    return Sizing(
        SizeKind.MODELS,
        "game_size",
        gettext_noop("Game size"),
        ngettext_noop("%(n)s fighter", "%(n)s fighters"),
        presets,
        default,
        required=True,
    )


def points(*presets: GameSize, default: int | None = None) -> Sizing:
    """Teams or armies up to an optional points limit; ``presets`` are suggestions."""
    return Sizing(
        SizeKind.POINTS,
        "points_limit",
        gettext_noop("Points limit"),
        ngettext_noop("%(n)s point", "%(n)s points"),
        presets,
        default,
    )


@dataclass(frozen=True)
class GameSystemInfo:
    """What the app shows and needs to know about a rule system before any rules run.

    ``tagline``, ``description`` and game size labels are English, marked with
    ``gettext_noop`` and translated by the Django layer; ``name`` is a proper name.
    """

    slug: str
    name: str
    tagline: str
    description: str
    unit: Unit
    dice: DiceKind
    min_players: int
    max_players: int
    sizing: Sizing
    rulebook: str
    package: str
    # Filled in as each system's rules arrive; None means "not modelled yet".
    catalog: CatalogSchema | None = None
    rosters: RosterRules | None = None
    matches: MatchEngine | None = None
    # What goes on the system's printed cards and roster sheet (plain data; the Django layer
    # renders it with templates/cards/<slug>/).
    cards: CardLayouts | None = None
    # Systems whose missions are data an organiser writes in the scenario editor.
    scenarios: ScenarioRules | None = None
    # Armies come from outside the catalogue (imported from a list builder or typed in): a
    # roster holds ``units`` (``core.rosters.UnitInput``), never catalogue entries.
    outside_army: bool = False

    @property
    def game_sizes(self) -> tuple[GameSize, ...]:
        """The size presets (api.md's ``game_sizes``)."""
        return self.sizing.presets

    def reference(self, language: str) -> str:
        """The Markdown rules reference in ``language`` (e.g. "de", "de-at"), else English.

        Reads the package data file ``reference/<language>.md``; a regional code falls back to
        its base language first. Anything that is not a language code is never used as a path.
        """
        code = language.lower().replace("_", "-")
        folder = resources.files(self.package).joinpath("reference")
        for candidate in dict.fromkeys((code, code.split("-")[0])):
            if _LANGUAGE_CODE.fullmatch(candidate):
                page = folder.joinpath(f"{candidate}.md")
                if page.is_file():
                    return page.read_text(encoding="utf-8")
        return folder.joinpath(f"{FALLBACK_LANGUAGE}.md").read_text(encoding="utf-8")


class UnknownSystem(RuleViolation):
    def __init__(self, slug: str) -> None:
        super().__init__("unknown_system", f"There is no rule system called {slug!r}.")
        self.slug = slug


class Registry:
    """The rule systems by slug, in registration order."""

    def __init__(self, systems: Iterable[GameSystemInfo]) -> None:
        self._systems: dict[str, GameSystemInfo] = {}
        for system in systems:
            if system.slug in self._systems:
                raise ValueError(f"rule system {system.slug!r} is registered twice")
            self._systems[system.slug] = system

    def all(self) -> tuple[GameSystemInfo, ...]:
        return tuple(self._systems.values())

    def get(self, slug: str) -> GameSystemInfo:
        try:
            return self._systems[slug]
        except KeyError:
            raise UnknownSystem(slug) from None

    def slugs(self) -> tuple[str, ...]:
        return tuple(self._systems)


def _load(package: str) -> GameSystemInfo:
    system = getattr(importlib.import_module(package), "SYSTEM", None)
    if not isinstance(system, GameSystemInfo):
        raise TypeError(f"{package}.SYSTEM must be a GameSystemInfo")
    if system.package != package:
        raise ValueError(f"{package}.SYSTEM names its package {system.package!r}")
    return system


@cache
def registry() -> Registry:
    return Registry(_load(package) for package in SYSTEM_PACKAGES)
