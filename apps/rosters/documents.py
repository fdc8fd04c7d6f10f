"""The roster document of api.md: parsing with every problem reported, and building one.

``{"format": "skirmish-roster/1", "system", "name", "faction", "settings",
"entries": [{"profile", "items", "count", "name", "attach_to"}]}``; ``attach_to`` (optional) is
the index of another entry this one is assigned to (a Universalis telematon's operator). A
problem names where it is in the document ("entries[2].items[0]") and what is wrong, so an import
can report all of them at once and save nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from apps.catalog.models import Faction, GameSystem, Item, Profile
from apps.catalog.selectors import team_factions
from apps.rosters.models import MAX_ENTRY_COUNT, Roster
from apps.rosters.problems import Problem
from apps.rosters.unit_documents import parse_units, units_document
from apps.systems.core.errors import RuleViolation
from apps.systems.core.registry import registry
from apps.systems.core.rosters import EntryInput, RosterInput, RosterRules, UnitInput

FORMAT = "skirmish-roster/1"
MAX_ENTRIES = 50
MAX_ITEMS_PER_ENTRY = 30
MAX_NAME_LENGTH = 100


_UNIT_PATH = re.compile(r"^units\[(\d+)\](?:\.(\w+))?$")
_ENTRY_PATH = re.compile(r"^entries\[(\d+)\](?:\.(\w+)(?:\[(\d+)\])?)?$")


def problem_location(path: str) -> str:
    """Where a problem is, in words a player reads: "entry 2, item 1" for
    ``entries[1].items[0]`` (paths count from 0, people from 1). The words fit every system:
    an entry is a fighter, a model or a squad of identical models, an item a card or a weapon."""
    fields = {
        "format": _("format"),
        "system": _("rule system"),
        "name": _("team name"),
        "faction": _("faction"),
        "settings": _("settings"),
        "entries": _("entries"),
        "profile": _("profile"),
        "count": _("number of models"),
        "items": _("items"),
        "attach_to": _("assigned to"),
    }
    if unit := _UNIT_PATH.match(path):
        where = _("unit %(number)d") % {"number": int(unit[1]) + 1}
        return f"{where}, {unit[2]}" if unit[2] else where
    match = _ENTRY_PATH.match(path)
    if match is None:
        return str(fields.get(path, path))
    entry, name, item = match.groups()
    where = _("entry %(number)d") % {"number": int(entry) + 1}
    if name is None:
        return where
    if name == "items" and item is not None:
        return _("%(entry)s, item %(number)d") % {"entry": where, "number": int(item) + 1}
    label = _("nickname") if name == "name" else fields.get(name, name)
    return f"{where}, {label}"


class DocumentInvalid(RuleViolation):
    """The document cannot be imported; ``problems`` lists every reason."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        first = problems[0]
        more = len(problems) - 1
        message = f"{first.path}: {first.message}" if first.path else first.message
        if more:
            message += " " + _("(and %(count)d more problems)") % {"count": more}
        super().__init__(first.code if len(problems) == 1 else "invalid_document", message)


@dataclass
class ParsedEntry:
    profile: Profile
    items: list[Item] = field(default_factory=list)
    count: int = 1
    name: str = ""
    attach_to: int | None = None


@dataclass
class ParsedRoster:
    system: GameSystem
    name: str
    faction: Faction | None
    settings: dict[str, object]
    entries: list[ParsedEntry]
    # An outside army's units (``GameSystemInfo.outside_army``); empty for every other system.
    units: list[UnitInput] = field(default_factory=list)


def _text(
    value: Any, path: str, problems: list[Problem], *, required: bool, limit: int = MAX_NAME_LENGTH
) -> str:
    if value is None or value == "":
        if required:
            problems.append(Problem("required", path, _("This field is required.")))
        return ""
    if not isinstance(value, str):
        problems.append(Problem("invalid_type", path, _("Must be text.")))
        return ""
    if len(value) > limit:
        problems.append(
            Problem("too_long", path, _("At most %(limit)d characters.") % {"limit": limit})
        )
        return ""
    return value.strip()


def parse_document(document: Any, *, expected_system: str | None = None) -> ParsedRoster:
    """Check a roster document against the catalogue; raise ``DocumentInvalid`` listing every
    problem. Rule issues (an illegal team) are not problems here: such a roster is a draft."""
    problems: list[Problem] = []
    if not isinstance(document, dict):
        raise DocumentInvalid([Problem("invalid_document", "", _("Expected a JSON object."))])
    _check_format(document, problems)
    name = _text(document.get("name"), "name", problems, required=True)
    system, rules = _known_system(document.get("system"), expected_system, problems)
    faction = _faction(system, document.get("faction"), problems)
    settings = _settings(document.get("settings", {}), rules, problems)
    entries = _parse_entries(system, document.get("entries", []), problems)
    units = _units(system.slug, document, problems)
    if problems:
        raise DocumentInvalid(problems)
    return ParsedRoster(
        system=system, name=name, faction=faction, settings=settings, entries=entries, units=units
    )


def _units(slug: str, document: dict[str, Any], problems: list[Problem]) -> list[UnitInput]:
    """The units of an outside army; a document of another system has none to give."""
    if registry().get(slug).outside_army:
        return parse_units(document.get("units", []), problems)
    units = document.get("units", [])
    if not isinstance(units, list):
        problems.append(Problem("invalid_type", "units", _("Must be a list.")))
    elif units:
        problems.append(
            Problem("not_supported", "units", _("Teams of this rule system have no units."))
        )
    return []


def _check_format(document: dict[str, Any], problems: list[Problem]) -> None:
    if document.get("format") != FORMAT:
        problems.append(
            Problem("wrong_format", "format", _("Must be %(format)s.") % {"format": FORMAT})
        )


def _known_system(
    slug: Any, expected_system: str | None, problems: list[Problem]
) -> tuple[GameSystem, RosterRules]:
    """The document's system and its roster rules. Raises ``DocumentInvalid`` with the problems
    so far when the system is unknown, not the one expected or builds no rosters: profiles,
    items and settings only mean something within the right, known system."""
    system = GameSystem.objects.filter(slug=slug).first() if isinstance(slug, str) else None
    if system is None or slug not in registry().slugs():
        problems.append(
            Problem(
                "unknown_system", "system", _("Unknown rule system %(system)r.") % {"system": slug}
            )
        )
        raise DocumentInvalid(problems)
    if expected_system and slug != expected_system:
        problems.append(
            Problem(
                "wrong_system",
                "system",
                _("This roster is for %(found)s, expected %(expected)s.")
                % {"found": slug, "expected": expected_system},
            )
        )
        raise DocumentInvalid(problems)
    rules = registry().get(system.slug).rosters
    if rules is None:
        problems.append(
            Problem(
                "not_supported",
                "system",
                _("Rosters for %(system)s cannot be built in Skirmish yet.")
                % {"system": system.name},
            )
        )
        raise DocumentInvalid(problems)
    return system, rules


def _faction(system: GameSystem, slug: Any, problems: list[Problem]) -> Faction | None:
    """The team's faction of ``system``; None when there is none to name (or a problem)."""
    if slug is None:
        # A system whose catalogue has factions builds every team for one of them.
        if Faction.objects.filter(system=system).exists():
            problems.append(Problem("required", "faction", _("This field is required.")))
        return None
    faction = (
        Faction.objects.filter(system=system, slug=slug).first() if isinstance(slug, str) else None
    )
    if faction is None:
        problems.append(
            Problem(
                "unknown_faction", "faction", _("Unknown faction %(faction)r.") % {"faction": slug}
            )
        )
    elif not team_factions(system).filter(pk=faction.pk).exists():
        problems.append(
            Problem(
                "npc_faction",
                "faction",
                _("The faction %(faction)s is fielded by scenarios only, never in a team.")
                % {"faction": faction.name},
            )
        )
        return None
    return faction


def _settings(raw: Any, rules: RosterRules | None, problems: list[Problem]) -> dict[str, object]:
    """The settings as the system's rules normalise them (taken as they are for a system
    without roster rules); empty when they are not an object or the rules refuse them."""
    if not isinstance(raw, dict):
        problems.append(Problem("invalid_type", "settings", _("Must be an object.")))
        return {}
    try:
        return rules.normalise_settings(raw) if rules else dict(raw)
    except RuleViolation as error:
        problems.append(Problem(error.code, "settings", _(error.message)))
        return {}


def _is_count(value: Any) -> bool:
    """A number of models an entry may stand for (a bool is an int to Python, not here)."""
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_ENTRY_COUNT


def _count_problem(path: str) -> Problem:
    return Problem(
        "count_invalid",
        f"{path}.count",
        _("Must be a whole number from 1 to %(limit)d.") % {"limit": MAX_ENTRY_COUNT},
    )


def _items_problem(path: str) -> Problem:
    return Problem(
        "invalid_type",
        f"{path}.items",
        _("Must be a list of at most %(limit)d item slugs.") % {"limit": MAX_ITEMS_PER_ENTRY},
    )


@dataclass(frozen=True)
class _Catalogue:
    """The profiles and items the entries name, by slug, read in two queries."""

    profiles: dict[str, Profile]
    items: dict[str, Item]


def _catalogue_for(system: GameSystem, raw: list[Any]) -> _Catalogue:
    # Only text can be a slug: a list or object here would not even hash.
    profile_slugs = {
        e["profile"] for e in raw if isinstance(e, dict) and isinstance(e.get("profile"), str)
    }
    item_slugs = {
        slug
        for e in raw
        if isinstance(e, dict) and isinstance(e.get("items"), list)
        for slug in e["items"]
        if isinstance(slug, str)
    }
    return _Catalogue(
        profiles={p.slug: p for p in Profile.objects.filter(system=system, slug__in=profile_slugs)},
        items={i.slug: i for i in Item.objects.filter(system=system, slug__in=item_slugs)},
    )


def _parse_entries(system: GameSystem, raw: Any, problems: list[Problem]) -> list[ParsedEntry]:
    if not isinstance(raw, list):
        problems.append(Problem("invalid_type", "entries", _("Must be a list.")))
        return []
    if len(raw) > MAX_ENTRIES:
        problems.append(
            Problem(
                "too_many_entries",
                "entries",
                _("At most %(limit)d entries.") % {"limit": MAX_ENTRIES},
            )
        )
        return []
    catalogue = _catalogue_for(system, raw)
    entries = []
    for index, entry in enumerate(raw):
        parsed = _parse_entry(catalogue, entry, index, len(raw), problems)
        if parsed is not None:
            entries.append(parsed)
    return entries


def _parse_entry(
    catalogue: _Catalogue, entry: Any, index: int, size: int, problems: list[Problem]
) -> ParsedEntry | None:
    """One entry of ``size``, every problem with it reported; None when it names no known
    profile (its other problems are reported all the same)."""
    path = f"entries[{index}]"
    if not isinstance(entry, dict):
        problems.append(Problem("invalid_type", path, _("Must be an object.")))
        return None
    profile_slug = entry.get("profile")
    profile = catalogue.profiles.get(profile_slug) if isinstance(profile_slug, str) else None
    if profile is None:
        problems.append(
            Problem(
                "unknown_profile",
                f"{path}.profile",
                _("Unknown profile %(profile)r.") % {"profile": profile_slug},
            )
        )
    count = entry.get("count", 1)
    if not _is_count(count):
        problems.append(_count_problem(path))
        count = 1
    nickname = _text(entry.get("name"), f"{path}.name", problems, required=False, limit=60)
    entry_items = _entry_items(catalogue, entry.get("items", []), path, problems)
    attach_to = _attach_to(entry, index, size, path, problems)
    if profile is None:
        return None
    return ParsedEntry(
        profile=profile, items=entry_items, count=count, name=nickname, attach_to=attach_to
    )


def _entry_items(catalogue: _Catalogue, raw: Any, path: str, problems: list[Problem]) -> list[Item]:
    """The entry's known items in order; an unknown one is a problem at its own index."""
    if not isinstance(raw, list) or len(raw) > MAX_ITEMS_PER_ENTRY:
        problems.append(_items_problem(path))
        return []
    items: list[Item] = []
    for item_index, slug in enumerate(raw):
        item = catalogue.items.get(slug) if isinstance(slug, str) else None
        if item is None:
            problems.append(
                Problem(
                    "unknown_item",
                    f"{path}.items[{item_index}]",
                    _("Unknown item %(item)r.") % {"item": slug},
                )
            )
        else:
            items.append(item)
    return items


def _attach_to(
    entry: dict[str, Any], index: int, size: int, path: str, problems: list[Problem]
) -> int | None:
    """The optional index of the entry this one is assigned to: another entry of the list."""
    value = entry.get("attach_to")
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < size:
        problems.append(
            Problem(
                "attach_invalid",
                f"{path}.attach_to",
                _("Must be the index of another entry (0 to %(last)d).") % {"last": size - 1},
            )
        )
        return None
    if value == index:
        problems.append(
            Problem(
                "attach_invalid", f"{path}.attach_to", _("An entry cannot be assigned to itself.")
            )
        )
        return None
    return value


def roster_document(roster: Roster) -> dict[str, Any]:
    """The roster as a document (export); call with entries and items prefetched."""
    entries = list(roster.entries.all())
    index = {entry.pk: position for position, entry in enumerate(entries)}
    rows = []
    for entry in entries:
        row: dict[str, Any] = {
            "profile": entry.profile.slug,
            "items": [item_row.item.slug for item_row in entry.items.all()],
            "count": entry.count,
            "name": entry.name,
        }
        if entry.attach_to_id is not None and entry.attach_to_id in index:
            row["attach_to"] = index[entry.attach_to_id]
        rows.append(row)
    document: dict[str, Any] = {
        "format": FORMAT,
        "system": roster.system.slug,
        "name": roster.name,
        "faction": roster.faction.slug if roster.faction else None,
        "settings": roster.settings,
        "entries": rows,
    }
    if registry().get(roster.system.slug).outside_army:
        document["units"] = units_document(roster)
    return document


def document_roster_input(document: Any) -> tuple[GameSystem, RosterInput]:
    """A document as the rules see it, for validation without saving: only its shape is
    checked here; unknown profiles and items are the validator's issues, not problems."""
    if not isinstance(document, dict):
        raise DocumentInvalid([Problem("invalid_document", "", _("Expected a JSON object."))])
    slug = document.get("system")
    if not isinstance(slug, str) or slug not in registry().slugs():
        raise DocumentInvalid(
            [
                Problem(
                    "unknown_system",
                    "system",
                    _("Unknown rule system %(system)r.") % {"system": slug},
                )
            ]
        )
    system, _created = GameSystem.objects.get_or_create(
        slug=slug, defaults={"name": registry().get(slug).name}
    )
    return system, system_roster_input(system, document)


def system_roster_input(system: GameSystem, document: Any) -> RosterInput:
    """``document`` read as a roster of ``system``, which the caller already knows (a season
    reading all its registered rosters at once: no query per document). Raises
    ``DocumentInvalid`` listing every problem of its shape, a document of another system
    included."""
    if not isinstance(document, dict):
        raise DocumentInvalid([Problem("invalid_document", "", _("Expected a JSON object."))])
    slug = document.get("system")
    if slug != system.slug:
        raise DocumentInvalid(
            [
                Problem(
                    "wrong_system",
                    "system",
                    _("This roster is for %(found)s, expected %(expected)s.")
                    % {"found": slug, "expected": system.slug},
                )
            ]
        )
    problems: list[Problem] = []
    # The same shape as an import: a document validate calls valid must also import.
    _check_format(document, problems)
    _text(document.get("name"), "name", problems, required=True)
    faction = document.get("faction")
    if faction is None:
        faction = ""
    elif not isinstance(faction, str):
        problems.append(Problem("invalid_type", "faction", _("Must be text.")))
    settings = _settings(document.get("settings", {}), registry().get(slug).rosters, problems)
    entries = _entry_inputs(document.get("entries", []), problems)
    units = _units(slug, document, problems)
    if problems:
        raise DocumentInvalid(problems)
    return RosterInput(
        faction=faction if isinstance(faction, str) else "",
        settings=settings,
        entries=tuple(entries),
        units=tuple(units),
    )


def _entry_inputs(raw: Any, problems: list[Problem]) -> list[EntryInput]:
    if not isinstance(raw, list) or len(raw) > MAX_ENTRIES:
        problems.append(
            Problem(
                "invalid_type",
                "entries",
                _("Must be a list of at most %(limit)d entries.") % {"limit": MAX_ENTRIES},
            )
        )
        return []
    entries = []
    for index, entry in enumerate(raw):
        entry_input = _entry_input(entry, index, len(raw), problems)
        if entry_input is not None:
            entries.append(entry_input)
    return entries


def _entry_input(entry: Any, index: int, size: int, problems: list[Problem]) -> EntryInput | None:
    """One entry as the rules see it; None (and a problem) when its shape is wrong."""
    path = f"entries[{index}]"
    if not isinstance(entry, dict) or not isinstance(entry.get("profile"), str):
        problems.append(Problem("invalid_type", path, _("Must be an object with a profile slug.")))
        return None
    items = entry.get("items", [])
    if (
        not isinstance(items, list)
        or len(items) > MAX_ITEMS_PER_ENTRY
        or not all(isinstance(slug, str) for slug in items)
    ):
        problems.append(_items_problem(path))
        return None
    count = entry.get("count", 1)
    # The same range as an import: a count no roster can store is a malformed document,
    # not a team to report on (it would turn every total absurd).
    if not _is_count(count):
        problems.append(_count_problem(path))
        return None
    name = _text(entry.get("name"), f"{path}.name", problems, required=False, limit=60)
    return EntryInput(
        profile=entry["profile"],
        items=tuple(items),
        name=name,
        count=count,
        attach_to=_attach_to(entry, index, size, path, problems),
    )
