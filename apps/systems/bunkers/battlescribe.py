"""Reading an army list exported by BattleScribe or New Recruit (.ros XML, .rosz zip).

The upload is hostile until proven otherwise: every refusal is a ``BattleScribeRefused`` with a
stable ``code`` (the keys of ``REFUSALS``) and nothing else escapes. The XML goes through expat
with every DTD refused (what ``defusedxml``'s ``forbid_dtd`` does; the project does not depend on
it) and the depth and element limits enforced while parsing. Never validated against an XSD:
real exports order their elements freely. A unit is every selection of type "unit", and every
selection of type "model" outside a unit (a Captain; each model of a "Lieutenants" upgrade).
Costs are matched by ``typeId``; a selection's cost already includes its ``number``.
"""

from __future__ import annotations

import io
import math
import re
import zipfile
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Final
from xml.etree import ElementTree
from xml.etree.ElementTree import Element
from xml.parsers import expat

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import DefusedXMLParser

from apps.systems.bunkers.army import is_aircraft, is_deep_strike_rule, is_vehicle, likely_walker
from apps.systems.core.errors import RuleViolation
from apps.systems.core.i18n import gettext_noop
from apps.systems.core.rosters import (
    MAX_KEYWORD_LENGTH,
    MAX_UNIT_KEYWORDS,
    MAX_UNIT_MODELS,
    MAX_UNIT_POINTS,
    MAX_UNIT_POWER,
    MAX_UNIT_WOUNDS,
    UnitInput,
)

NAMESPACE: Final = "http://www.battlescribe.net/schema/rosterSchema"
POINTS_TYPE, POWER_TYPE, CP_TYPE = "points", "e356-c769-5920-6e14", "2d3b-b544-ad49-fb75"
COST_TYPES: Final = {POINTS_TYPE: "points", POWER_TYPE: "power", CP_TYPE: "cp"}
WOUNDS_CHARACTERISTICS: Final = frozenset({"W", "Wounds"})
NAME_MAX: Final = 200
UNNAMED: Final = "Unnamed unit"
MB: Final = 1024 * 1024
ZIP_MAGIC: Final = b"PK\x03\x04"
_XML_STARTS: Final = (b"<", b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")
_LEADING_INT = re.compile(r"\s*(\d{1,6})", re.ASCII)
_DIGITS = re.compile(r"[0-9]+", re.ASCII)


@dataclass(frozen=True)
class Limits:
    ros_bytes: int = 2 * MB
    rosz_bytes: int = MB
    zip_members: int = 4
    zip_ratio: int = 100
    depth: int = 40
    elements: int = 50_000
    number: int = 1000
    cost: int = 100_000


LIMITS: Final = Limits()


class BattleScribeRefused(RuleViolation):
    """An upload that is not a usable BattleScribe roster; ``code`` says why, ``template`` is
    the gettext_noop-marked English message (``REFUSALS``): translate as _(template) % params."""

    def __init__(self, code: str, template: str, params: Mapping[str, object] | None = None):
        super().__init__(code, template % dict(params or {}), params)
        self.template = template


@dataclass(frozen=True)
class Costs:
    """Points, power level and command points, each rounded to a whole number."""

    points: int = 0
    power: int = 0
    cp: int = 0


@dataclass(frozen=True)
class ImportedForce:
    name: str
    catalogue: str


@dataclass(frozen=True)
class ImportedUnit:
    name: str  # the player's custom name if given, else the entry's
    entry_name: str
    force: int  # index into ``ImportedArmy.forces``
    models: int
    wounds: int  # per model: the highest W of its profiles
    categories: tuple[str, ...]
    primary_category: str
    costs: Costs
    deep_strike_rules: tuple[str, ...]
    aircraft: bool
    vehicle: bool
    likely_walker: bool  # pre-selects the walker question; the player confirms

    @property
    def deep_strike(self) -> bool:
        return bool(self.deep_strike_rules)


@dataclass(frozen=True)
class ImportedArmy:
    name: str
    game_system: str
    forces: tuple[ImportedForce, ...]
    units: tuple[ImportedUnit, ...]
    computed: Costs  # every selection's costs at any depth
    declared: Costs | None  # the roster's own <costs>, None without them
    limits: Costs | None  # the roster's <costLimits>; 0 or less: no limit of that kind
    compressed: bool

    @property
    def totals_differ(self) -> bool:
        """The roster's declared totals disagree with its selections (stale or edited)."""
        return self.declared is not None and self.declared != self.computed


# One English message per refusal code, with the limits it names as %(max)s.
REFUSALS: Final = {
    "file_too_large": gettext_noop("The file is larger than %(max)s."),
    "file_type": gettext_noop("The file is neither a .ros nor a .rosz roster."),
    "zip_invalid": gettext_noop("The .rosz file is not a readable zip archive."),
    "zip_no_roster": gettext_noop("The .rosz file holds no .ros roster."),
    "zip_members": gettext_noop("The .rosz file must hold one .ros and at most %(max)s files."),
    "zip_bomb": gettext_noop(
        "The .rosz file unpacks to more than %(max)s or is packed suspiciously tightly."
    ),
    "xml_invalid": gettext_noop("The roster is not well-formed XML (%(detail)s)."),
    "xml_dtd": gettext_noop("The roster declares a DTD or entities, which are not allowed."),
    "xml_too_deep": gettext_noop("The roster's XML is nested more than %(max)s levels deep."),
    "xml_too_many_elements": gettext_noop("The roster has more than %(max)s XML elements."),
    "not_roster": gettext_noop("The file is XML but not a BattleScribe roster."),
    "no_units": gettext_noop("The roster %(file)s has no units."),
    "number_invalid": gettext_noop(
        "A selection's number must be a whole number from 0 to %(max)s."
    ),
    "cost_invalid": gettext_noop("A cost in the roster is not a number."),
    "cost_too_large": gettext_noop("A cost in the roster is over %(max)s."),
    "unit_out_of_range": gettext_noop(
        "The unit %(unit)s is larger than a unit can be here (at most %(models)s models, "
        "%(wounds)s wounds per model, %(points)s points and %(power)s power level)."
    ),
}


def _refuse(code: str, **params: object) -> BattleScribeRefused:
    return BattleScribeRefused(code, REFUSALS[code], params)


# --- Bytes to XML ------------------------------------------------------------------------------


def _unzipped(data: bytes, limits: Limits) -> bytes:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = archive.infolist()
        rosters = [m for m in members if m.filename.lower().endswith(".ros")]
        if len(members) > limits.zip_members or len(rosters) > 1:
            raise _refuse("zip_members", max=limits.zip_members)
        if not rosters:
            raise _refuse("zip_no_roster")
        member, bomb = rosters[0], _refuse("zip_bomb", max=f"{limits.ros_bytes / MB:.3g} MB")
        if member.file_size > min(limits.ros_bytes, limits.zip_ratio * member.compress_size):
            raise bomb
        chunks, size = [], 0
        with archive.open(member) as stream:
            # The sizes in the zip's header may lie: read in bounded chunks and count.
            while chunk := stream.read(64 * 1024):
                size += len(chunk)
                if size > limits.ros_bytes:
                    raise bomb
                chunks.append(chunk)
        return b"".join(chunks)
    except BattleScribeRefused:
        raise
    except Exception as error:  # zipfile raises a dozen kinds on damaged archives
        raise _refuse("zip_invalid") from error


class _Builder:
    """The parser's target: builds the tree (tags without their namespace), refusing
    oversized trees on the way and keeping only the text that is read."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.tree = ElementTree.TreeBuilder()
        self.depth = self.count = 0
        self.namespace = ""
        self.keep_text = False
        self.root: Element | None = None

    def start(self, name: str, attrs: dict[str, str]) -> None:
        self.count += 1
        self.depth += 1
        if self.count > self.limits.elements:
            raise _refuse("xml_too_many_elements", max=self.limits.elements)
        if self.depth > self.limits.depth:
            raise _refuse("xml_too_deep", max=self.limits.depth)
        namespace, _, tag = name.rpartition("}")
        if self.count == 1:
            self.namespace = namespace.lstrip("{")
        self.keep_text = tag == "characteristic"  # the only text read (stat values)
        self.tree.start(tag, attrs)

    def end(self, name: str) -> None:
        self.depth -= 1
        self.keep_text = False
        self.tree.end(name.rpartition("}")[2])

    def data(self, data: str) -> None:
        if self.keep_text:
            self.tree.data(data)

    def close(self) -> Element:
        self.root = self.tree.close()
        return self.root


def _parse_xml(data: bytes, limits: Limits) -> Element:
    builder = _Builder(limits)
    # defusedxml refuses any DTD, so no entity (billion laughs, external) is ever declared.
    parser = DefusedXMLParser(target=builder, forbid_dtd=True)
    try:
        parser.feed(data)
        parser.close()
    except DefusedXmlException as error:
        raise _refuse("xml_dtd") from error
    except ElementTree.ParseError as error:
        raise _refuse("xml_invalid", detail=expat.ErrorString(error.code)) from error
    except (LookupError, ValueError) as error:  # an encoding expat does not know or support
        raise _refuse("xml_invalid", detail="unsupported encoding") from error
    root = builder.root
    if root is None or root.tag != "roster" or builder.namespace not in ("", NAMESPACE):
        raise _refuse("not_roster")
    return root


def _roster_xml(data: bytes, limits: Limits) -> tuple[Element, bool]:
    zipped = data.startswith(ZIP_MAGIC)
    allowed = limits.rosz_bytes if zipped else limits.ros_bytes
    if len(data) > allowed:
        raise _refuse("file_too_large", max=f"{allowed / MB:.3g} MB")
    if zipped:
        return _parse_xml(_unzipped(data, limits), limits), True
    if not data.lstrip().startswith(_XML_STARTS):
        raise _refuse("file_type")
    return _parse_xml(data, limits), False


# --- XML to army -------------------------------------------------------------------------------


def _name(node: Element, key: str = "name") -> str:
    return " ".join(node.get(key, "").split())[:NAME_MAX]


def _number(node: Element, limits: Limits) -> int:
    text = node.get("number", "1").strip()
    # At most as many digits as the limit has: int() of thousands of digits is refused.
    if not _DIGITS.fullmatch(text) or len(text) > len(str(limits.number)):
        raise _refuse("number_invalid", max=limits.number)
    if int(text) > limits.number:
        raise _refuse("number_invalid", max=limits.number)
    return int(text)


def _costs(costs: Iterable[Element], limits: Limits) -> Costs | None:
    values: dict[str, int] = {}
    for cost in costs:
        kind = COST_TYPES.get(cost.get("typeId", ""))
        if kind is None:
            continue
        try:
            value = float(cost.get("value", "0"))
        except ValueError:
            value = math.nan
        if not math.isfinite(value):
            raise _refuse("cost_invalid")
        if abs(value) > limits.cost:
            raise _refuse("cost_too_large", max=limits.cost)
        values[kind] = values.get(kind, 0) + round(value)
    return Costs(**values) if values else None


def _tree_costs(selections: Iterable[Element], limits: Limits) -> Costs:
    """The sum of the selections' own costs; checks every ``number`` on the way."""
    total = [0, 0, 0]
    for node in selections:
        _number(node, limits)
        costs = _costs(node.iterfind("costs/cost"), limits) or Costs()
        total = [total[0] + costs.points, total[1] + costs.power, total[2] + costs.cp]
    return Costs(*total)


def _primary(node: Element) -> str:
    categories = node.iterfind("categories/category")
    return next((_name(c) for c in categories if c.get("primary") == "true"), "")


def _models(unit: Element, limits: Limits) -> int:
    """Its "model" selections' numbers, else (catalogues that file models as upgrades) those
    of its selections with a "Unit" profile; at least 1."""
    if unit.get("type") == "model":
        return max(_number(unit, limits), 1)
    below = [node for node in unit.iter("selection") if node is not unit]
    models = [n for n in below if n.get("type") == "model"] or [
        n for n in below if any(p.get("typeName") == "Unit" for p in n.iterfind("profiles/profile"))
    ]
    return max(sum(_number(n, limits) for n in models), 1)


def _wounds(unit: Element) -> int:
    """The highest W of its profiles ("13" of a Redemptor's wound track; "N/A" skipped)."""
    wounds = [
        int(match[1])
        for char in unit.iter("characteristic")
        if char.get("name", "").strip() in WOUNDS_CHARACTERISTICS
        and (match := _LEADING_INT.match(char.text or ""))
    ]
    return max(wounds, default=1) or 1


def _deep_strike_rules(unit: Element) -> tuple[str, ...]:
    abilities = (p for p in unit.iter("profile") if p.get("typeName") == "Abilities")
    names = {_name(rule) for rule in (*unit.iter("rule"), *abilities)}
    return tuple(sorted(name for name in names if is_deep_strike_rule(name)))


def _unit(node: Element, force: int, limits: Limits, wrapper_primary: str) -> ImportedUnit:
    names = tuple(dict.fromkeys(n for c in node.iterfind("categories/category") if (n := _name(c))))
    entry_name = _name(node)
    return ImportedUnit(
        name=_name(node, "customName") or entry_name or UNNAMED,
        entry_name=entry_name,
        force=force,
        models=_models(node, limits),
        wounds=_wounds(node),
        categories=names,
        primary_category=_primary(node) or wrapper_primary,
        costs=_tree_costs(node.iter("selection"), limits),
        deep_strike_rules=_deep_strike_rules(node),
        aircraft=is_aircraft(names),
        vehicle=is_vehicle(names),
        likely_walker=likely_walker(entry_name, names),
    )


def _force_units(
    node: Element, force: int, limits: Limits, primary: str = ""
) -> Iterator[ImportedUnit]:
    for selection in node.iterfind("selections/selection"):
        if selection.get("type") in ("unit", "model"):
            yield _unit(selection, force, limits, primary)
        else:  # upgrades may hold units ("Bound Creation") or models ("Lieutenants": HQ)
            yield from _force_units(selection, force, limits, _primary(selection) or primary)


def _check_size(unit: ImportedUnit) -> None:
    """A unit a roster can hold (``core.rosters``' limits): a file whose numbers are absurd is
    refused here rather than half-saved."""
    costs = unit.costs
    if not (
        1 <= unit.models <= MAX_UNIT_MODELS
        and 1 <= unit.wounds <= MAX_UNIT_WOUNDS
        and 0 <= costs.points <= MAX_UNIT_POINTS
        and 0 <= costs.power <= MAX_UNIT_POWER
    ):
        raise _refuse(
            "unit_out_of_range",
            unit=unit.name,
            models=MAX_UNIT_MODELS,
            wounds=MAX_UNIT_WOUNDS,
            points=MAX_UNIT_POINTS,
            power=MAX_UNIT_POWER,
        )


def parse_roster_file(data: bytes, filename: str, *, limits: Limits = LIMITS) -> ImportedArmy:
    """The army of an uploaded .ros or .rosz file (told apart by content, not by ``filename``,
    which only helps messages); raises ``BattleScribeRefused`` for anything unusable."""
    root, compressed = _roster_xml(data, limits)
    forces = tuple(root.iter("force"))  # nested forces too
    units = tuple(
        unit for index, force in enumerate(forces) for unit in _force_units(force, index, limits)
    )
    if not units:
        raise _refuse("no_units", file=filename[:NAME_MAX])
    for unit in units:
        _check_size(unit)
    tops = (top for force in forces for top in force.iterfind("selections/selection"))
    return ImportedArmy(
        name=_name(root),
        game_system=_name(root, "gameSystemName"),
        forces=tuple(ImportedForce(_name(f), _name(f, "catalogueName")) for f in forces),
        units=units,
        computed=_tree_costs((s for top in tops for s in top.iter("selection")), limits),
        declared=_costs(root.iterfind("costs/cost"), limits),
        limits=_costs(root.iterfind("costLimits/costLimit"), limits),
        compressed=compressed,
    )


def _keywords(categories: Iterable[str]) -> tuple[str, ...]:
    """The categories a unit keeps as keywords: without the "Faction: ..." ones, as many and
    as long as a roster holds (lenient: a list builder's extra categories are cut, not refused)."""
    words = (c[:MAX_KEYWORD_LENGTH] for c in categories if not c.startswith("Faction:"))
    return tuple(dict.fromkeys(words))[:MAX_UNIT_KEYWORDS]


def army_units(army: ImportedArmy) -> tuple[UnitInput, ...]:
    """The imported units as the roster keeps them. Keywords are the categories without the
    "Faction: ..." ones (they decide nothing here); the base stays "" because BattleScribe has
    no base sizes; a vehicle is no walker until the player confirms it ("the player confirms
    walkers", SPEC §5: the builder points out the likely ones)."""
    return tuple(
        UnitInput(
            name=unit.name,
            models=unit.models,
            points=unit.costs.points,
            power=unit.costs.power,
            keywords=_keywords(unit.categories),
            wounds=unit.wounds,
            deep_strike=unit.deep_strike,
        )
        for unit in army.units
    )
