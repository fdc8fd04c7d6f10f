"""What a rule system's roster rules look like to the rest of the app.

The Django apps hand a system plain values (the roster as a document, the catalogue rows it
refers to) and get back issues and totals; the system parses the stats itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Final, Protocol, runtime_checkable

from apps.systems.core.errors import RuleViolation
from apps.systems.core.i18n import gettext_noop, is_english, localized_stats

MAX_POINTS_LIMIT: Final = 10_000
# How many identical models one roster entry may stand for (``EntryInput.count``), in any system.
MAX_ENTRY_COUNT: Final = 20


@dataclass(frozen=True)
class CatalogEntry:
    """One profile or item as stored: the system parses ``stats`` with its own schema."""

    slug: str
    name: str
    stats: Mapping[str, object]
    version: int = 1
    sample: bool = False
    factions: tuple[str, ...] = ()
    kind: str = ""
    cost: int = 0


@dataclass(frozen=True)
class CatalogData:
    factions: Mapping[str, str]  # slug -> name
    profiles: Mapping[str, CatalogEntry]
    items: Mapping[str, CatalogEntry]


# What a system whose armies come from outside the catalogue reads (``outside_army``).
EMPTY_CATALOG: Final = CatalogData(factions={}, profiles={}, items={})


def localized_catalog(catalog: CatalogData, language: str | None) -> CatalogData:
    """The catalogue with every rule text in the reader's language (``localized_stats``).

    For what is shown (builder, printed cards); never for what is stored, such as a match's
    teams, which other players may read in another language. German readers get the catalogue
    itself: its texts are the German originals.
    """
    if not is_english(language):
        return catalog

    def localized(entry: CatalogEntry) -> CatalogEntry:
        stats = localized_stats(entry.stats, language)
        assert isinstance(stats, Mapping)
        return replace(entry, stats=stats)

    return CatalogData(
        factions=catalog.factions,
        profiles={slug: localized(entry) for slug, entry in catalog.profiles.items()},
        items={slug: localized(entry) for slug, entry in catalog.items.items()},
    )


@dataclass(frozen=True)
class EntryInput:
    """One entry of a roster. ``attach_to`` is the index of another entry this one is assigned
    to (Universalis: a telematon to its operator); systems without such a rule ignore it."""

    profile: str
    items: tuple[str, ...] = ()
    name: str = ""
    count: int = 1
    attach_to: int | None = None


# What one unit of an outside army may hold: more than any real unit, less than a typo makes.
MAX_UNIT_MODELS: Final = 200
MAX_UNIT_WOUNDS: Final = 99
MAX_UNIT_POINTS: Final = 10_000
MAX_UNIT_POWER: Final = 500
MAX_UNIT_KEYWORDS: Final = 30
MAX_KEYWORD_LENGTH: Final = 40
# A unit's base as stored (``UnitInput.base``): millimetres, whole or to a tenth.
_MM = r"[0-9]{1,3}(\.[0-9])?"
BASE_PATTERN: Final = rf"^(round:{_MM}|oval:{_MM}x{_MM})$"


@dataclass(frozen=True)
class UnitInput:
    """One unit of an army brought from outside the catalogue (Bunkers and Badasses: a Warhammer
    40,000 unit imported from BattleScribe or typed in by hand). ``wounds`` is per model (its
    toughest model); ``base`` is "round:<mm>", "oval:<w>x<h>" or "" while nobody has said;
    ``walker`` is the player's confirmation that a vehicle is a walker; ``reserve`` that the unit
    starts in reserve and ``deep_strike`` that it arrives by a deep-strike-like rule."""

    name: str
    models: int = 1
    points: int = 0
    power: int = 0
    keywords: tuple[str, ...] = ()
    wounds: int = 1
    base: str = ""
    walker: bool = False
    reserve: bool = False
    deep_strike: bool = False


@dataclass(frozen=True)
class RosterInput:
    faction: str
    settings: Mapping[str, object]
    entries: tuple[EntryInput, ...]
    # A system whose armies come from outside the catalogue keeps them here (``entries`` empty).
    units: tuple[UnitInput, ...] = ()


@dataclass(frozen=True)
class RosterIssue:
    """A broken rule: stable ``code``, a gettext_noop-marked English ``template`` with
    %(name)s placeholders, its ``params``, and the index of the entry it concerns."""

    code: str
    template: str
    params: Mapping[str, str | int] = field(default_factory=dict)
    entry: int | None = None

    @property
    def message(self) -> str:
        return self.template % dict(self.params)


@dataclass(frozen=True)
class RosterReport:
    issues: tuple[RosterIssue, ...]
    totals: Mapping[str, object]

    @property
    def valid(self) -> bool:
        return not self.issues


@dataclass(frozen=True)
class OptionChoice:
    """One choice of a ``RosterOption``: its value and its gettext_noop-marked ``label``, to be
    translated first and filled with ``params`` afterwards."""

    value: str
    label: str
    params: Mapping[str, object] = field(default_factory=dict)


class _Blank(dict[str, object]):
    """Item stats as label params: a value the item lacks reads as empty, not as an error."""

    def __missing__(self, key: str) -> object:
        return ""


@dataclass(frozen=True)
class RosterOption:
    """A yes/no roster setting beside the game size, such as a game mode that changes the
    team-building rules. ``label`` and ``help`` are gettext_noop-marked English. With
    ``choices`` ((value, gettext_noop label) pairs) it is a choice among them instead.

    With ``catalog_kind`` the choices go on with the catalogue's items of that kind, so one an
    organiser adds in the admin is offered too (Stahlgewitter's game types); each is labelled
    by ``catalog_label``, filled with the item's ``name`` and its stats, and ordered by its
    whole-number stat ``catalog_order`` (then by name) if given."""

    key: str
    label: str
    help: str = ""
    choices: tuple[tuple[str, str], ...] = ()
    catalog_kind: str = ""
    catalog_label: str = "%(name)s"
    catalog_order: str = ""

    def catalog_choices(self, catalog: CatalogData) -> tuple[OptionChoice, ...]:
        """The fixed choices, then the catalogue's items of ``catalog_kind`` in its order."""
        fixed = tuple(OptionChoice(value, label) for value, label in self.choices)
        if not self.catalog_kind:
            return fixed
        items = [item for item in catalog.items.values() if item.kind == self.catalog_kind]

        def order(item: CatalogEntry) -> tuple[int, str]:
            value = item.stats.get(self.catalog_order) if self.catalog_order else None
            number = value if isinstance(value, int) and not isinstance(value, bool) else 0
            return (number, item.name)

        return fixed + tuple(
            OptionChoice(item.slug, self.catalog_label, _Blank(item.stats, name=item.name))
            for item in sorted(items, key=order)
        )


class BuilderEntry(Protocol):
    """One roster entry as the builder page shows it."""

    @property
    def items(self) -> Sequence[object]:
        """One line per item of the entry, in the entry's order (the page pairs them with the
        stored items)."""


class BuilderView(Protocol):
    """What a system's builder page shows (``RosterRules.builder``); its template knows the
    rest of it."""

    @property
    def entries(self) -> Sequence[BuilderEntry]:
        """One per roster entry, in the roster's order."""

    @property
    def panel(self) -> object:
        """What the "add" panel shows: the page caches the panel's fragment by it."""


@runtime_checkable
class ArmyBuilderView(BuilderView, Protocol):
    """The builder view of an army from outside the catalogue (``outside_army``)."""

    @property
    def units(self) -> Sequence[object]:
        """One row per unit of ``RosterInput.units``, in the roster's order."""


class RosterRules(Protocol):
    """The roster rules a system provides (see ``GameSystemInfo.rosters``)."""

    # The yes/no settings the builder offers; each is a key of the settings.
    options: tuple[RosterOption, ...]
    # How many identical models one entry may stand for in the builder (``EntryInput.count``);
    # 1: the rules build a team model by model and the builder offers no count.
    max_count: int

    def normalise_settings(self, settings: Mapping[str, object]) -> dict[str, object]:
        """Checked settings with defaults filled in; raises ``RuleViolation`` if malformed."""

    def report(self, roster: RosterInput, catalog: CatalogData) -> RosterReport:
        """Every issue of the roster and its totals: the one validator of the system."""

    def builder(self, roster: RosterInput, catalog: CatalogData) -> BuilderView:
        """What the system's builder page shows (its template knows the rest of it)."""


def points_limit_settings(settings: Mapping[str, object]) -> dict[str, object]:
    """The settings of a points system (api.md): an optional whole-number points limit the
    players agreed on; ``None`` or no key means no limit."""
    unknown = sorted(set(settings) - {"points_limit"})
    if unknown:
        raise RuleViolation("settings_invalid", f"Unknown settings: {', '.join(unknown)}.")
    limit = settings.get("points_limit")
    if limit is None:
        return {}
    if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= MAX_POINTS_LIMIT:
        raise RuleViolation(
            "points_limit",
            gettext_noop("The points limit must be a whole number from 1 to 10000, or none."),
        )
    return {"points_limit": limit}
