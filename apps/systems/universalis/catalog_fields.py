"""The admin form of a Universalis catalogue row: one input per key of ``stats`` (the structured
keys, weapons, armour, traits, equipment, disciplines and camouflage, as JSON text) and the
choices of its select fields. ``catalog_stats`` reads and writes the JSON they describe.
"""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Final

from apps.systems.core.i18n import gettext_noop
from apps.systems.core.schema import FieldError, FieldSpec, SchemaError
from apps.systems.universalis.catalog import (
    MAX_ATTRIBUTE,
    MAX_HP,
    Attribute,
    ItemKind,
    ModelType,
    Movement,
    PowerDuration,
    PowerRange,
    PowerTarget,
    Size,
)

# --- Field descriptions for forms ------------------------------------------------------------


class FieldType(StrEnum):
    INT = "int"
    BOOL = "bool"
    CHOICE = "choice"
    TEXT = "text"
    JSON = "json"


TYPE_CHOICES: Final = (
    (ModelType.STANDARD.value, gettext_noop("Standard")),
    (ModelType.TELEMATON.value, gettext_noop("Telematon")),
    (ModelType.COLOSSUS.value, gettext_noop("Koloss (colossus)")),
)
SIZE_CHOICES: Final = (
    (Size.SMALL.value, gettext_noop("klein (small)")),
    (Size.MEDIUM.value, gettext_noop("mittel (medium)")),
    (Size.LARGE.value, gettext_noop("groß (large)")),
    (Size.HUGE.value, gettext_noop("riesig (huge)")),
)
MOVEMENT_CHOICES: Final = (
    (Movement.LEGS.value, gettext_noop("Beine (legs)")),
    (Movement.FLIGHT.value, gettext_noop("Flug (flight)")),
    (Movement.TRACKS.value, gettext_noop("Kette (tracks)")),
    (Movement.WHEELS.value, gettext_noop("Rad (wheels)")),
    (Movement.HOVER.value, gettext_noop("Schweben (hover)")),
    (Movement.STATIONARY.value, gettext_noop("Stationär (stationary)")),
)
ATTRIBUTE_CHOICES: Final = tuple((a.value, a.value.upper()) for a in Attribute)
TARGET_CHOICES: Final = (
    (PowerTarget.AREA.value, gettext_noop("Bereich (area)")),
    (PowerTarget.MODEL.value, gettext_noop("Modell (model)")),
    (PowerTarget.USER.value, gettext_noop("Nutzer (user)")),
)
RANGE_CHOICES: Final = (
    (PowerRange.TOUCH.value, gettext_noop("Berührung (touch)")),
    (PowerRange.DISTANCE.value, gettext_noop("Distanz (distance)")),
)
DURATION_CHOICES: Final = (
    (PowerDuration.INSTANT.value, gettext_noop("Sofort (instant)")),
    (PowerDuration.LASTING.value, gettext_noop("Dauerhaft (lasting)")),
)
ITEM_KIND_CHOICES: Final = ((ItemKind.POWER.value, gettext_noop("Kraft (power)")),)


def _attr(name: str, label: str, *, operator: bool = False) -> FieldSpec:
    return FieldSpec(
        name,
        label,
        FieldType.INT,
        minimum=0,
        maximum=MAX_ATTRIBUTE,
        required=not operator,
        help=gettext_noop("Left empty for a telematon, which uses its operator's value.")
        if operator
        else "",
    )


PROFILE_FIELDS: Final = (
    FieldSpec("type", gettext_noop("Model type"), FieldType.CHOICE, choices=TYPE_CHOICES),
    FieldSpec("size", gettext_noop("Size (Größenprofil)"), FieldType.CHOICE, choices=SIZE_CHOICES),
    FieldSpec(
        "movement",
        gettext_noop("Movement kind (Bewegungsart)"),
        FieldType.CHOICE,
        choices=MOVEMENT_CHOICES,
    ),
    FieldSpec("speed", gettext_noop("Speed GK (cm)"), FieldType.INT, minimum=0, maximum=99),
    FieldSpec(
        "hp", gettext_noop("Hit points, normal (white)"), FieldType.INT, minimum=1, maximum=MAX_HP
    ),
    FieldSpec(
        "hp_critical",
        gettext_noop("Hit points, critical (orange)"),
        FieldType.INT,
        minimum=0,
        maximum=MAX_HP,
        help=gettext_noop("Normal and critical together at most 20. A colossus: its torso."),
    ),
    _attr("agi", gettext_noop("AGI (agility, unburdened)"), operator=True),
    _attr("nk", gettext_noop("NK (melee)"), operator=True),
    _attr("fk", gettext_noop("FK (ranged)"), operator=True),
    _attr("ko", gettext_noop("KO (constitution)")),
    _attr("wn", gettext_noop("WN (perception)")),
    _attr("eh", gettext_noop("EH (resolve)"), operator=True),
    FieldSpec("points", gettext_noop("Points"), FieldType.INT, minimum=0, maximum=9999),
    FieldSpec(
        "group_leader",
        gettext_noop("Group leader (Gruppenführer)"),
        FieldType.BOOL,
        required=False,
        default=False,
        help=gettext_noop("The faction's leader card: a group has exactly one."),
    ),
    FieldSpec(
        "operator",
        gettext_noop("Operator: telematons it may control"),
        FieldType.INT,
        minimum=0,
        maximum=9,
        required=False,
        default=0,
    ),
    FieldSpec(
        "camouflage",
        gettext_noop("Camouflage (Tarnung)"),
        FieldType.JSON,
        required=False,
        help=gettext_noop('JSON, e.g. {"active": false, "level": 2}'),
    ),
    FieldSpec(
        "traits",
        gettext_noop("Traits (Eigenschaften)"),
        FieldType.JSON,
        required=False,
        help=gettext_noop('JSON list, e.g. [{"name": "Zäh", "level": 2, "uses": 3, "ap": 1}]'),
    ),
    FieldSpec(
        "weapons",
        gettext_noop("Weapons (Waffen)"),
        FieldType.JSON,
        required=False,
        help=gettext_noop(
            'JSON list, e.g. [{"name": "Gewehr", "wk": 2, "range": "20/3", "strength": 4, '
            '"damage": 2, "df": 1, "effects": ["panzerbrechend"], "weight": 4}]; range "NK" '
            'for melee, "thrown" for throwing weapons.'
        ),
    ),
    FieldSpec(
        "armour",
        gettext_noop("Armour (Rüstung)"),
        FieldType.JSON,
        required=False,
        help=gettext_noop(
            'JSON, e.g. {"name": "Gefechtsanzug", "protection": 8, "reduction": 2, '
            '"self_supporting": false, "weight": 8}'
        ),
    ),
    FieldSpec(
        "equipment",
        gettext_noop("Equipment (Ausrüstung)"),
        FieldType.JSON,
        required=False,
        help=gettext_noop('JSON list, e.g. [{"name": "Medizinisches Spray", "ap": 1, "uses": 3}]'),
    ),
    FieldSpec(
        "disciplines",
        gettext_noop("Disciplines (Disziplinen)"),
        FieldType.JSON,
        required=False,
        help=gettext_noop('JSON list, e.g. [{"name": "Feuermagie", "level": 2}]'),
    ),
)

ITEM_FIELDS: Final = (
    FieldSpec("discipline", gettext_noop("Discipline (Disziplin)"), FieldType.TEXT),
    FieldSpec("ap", gettext_noop("AP cost"), FieldType.INT, minimum=0, maximum=12),
    FieldSpec("attribute", gettext_noop("Attribute"), FieldType.CHOICE, choices=ATTRIBUTE_CHOICES),
    FieldSpec(
        "difficulty",
        gettext_noop("Difficulty (e.g. -4 for FK-4)"),
        FieldType.INT,
        minimum=-12,
        maximum=12,
        required=False,
        default=0,
    ),
    FieldSpec(
        "hp_loss",
        gettext_noop("Hit point loss"),
        FieldType.INT,
        minimum=0,
        maximum=MAX_HP,
        required=False,
        default=0,
    ),
    FieldSpec(
        "hp_loss_always",
        gettext_noop("Hit points are lost on every use (not only on failure)"),
        FieldType.BOOL,
        required=False,
        default=False,
    ),
    FieldSpec(
        "target",
        gettext_noop("Target (Ziel)"),
        FieldType.CHOICE,
        choices=TARGET_CHOICES,
        required=False,
        default=PowerTarget.MODEL.value,
    ),
    FieldSpec(
        "range",
        gettext_noop("Range (Reichweite)"),
        FieldType.CHOICE,
        choices=RANGE_CHOICES,
        required=False,
        default=PowerRange.DISTANCE.value,
    ),
    FieldSpec(
        "duration",
        gettext_noop("Duration (Dauer)"),
        FieldType.CHOICE,
        choices=DURATION_CHOICES,
        required=False,
        default=PowerDuration.INSTANT.value,
    ),
    FieldSpec(
        "text",
        gettext_noop("Rules (Regeln)"),
        FieldType.TEXT,
        required=False,
        default="",
    ),
    FieldSpec(
        "text_en",
        gettext_noop("Rules in English"),
        FieldType.TEXT,
        required=False,
        default="",
        help=gettext_noop("Shown instead of the German rules in English."),
    ),
)
_STRUCTURED: Final = frozenset({spec.name for spec in PROFILE_FIELDS if spec.type == "json"})


# --- Form text of the structured fields ------------------------------------------------------


def format_field(spec: FieldSpec, value: object) -> object:
    """A structured field as the JSON text of its textarea; plain fields pass through."""
    if spec.name not in _STRUCTURED:
        return value
    return json.dumps(value, ensure_ascii=False, indent=1)


def parse_field(spec: FieldSpec, value: object) -> object:
    """The inverse of ``format_field``: JSON text checked by the card reader later."""
    if spec.name not in _STRUCTURED:
        return value
    try:
        parsed: object = json.loads(str(value))
    except json.JSONDecodeError as error:
        raise SchemaError(
            [FieldError(spec.name, f"is not valid JSON: {error.msg}", error.lineno)]
        ) from None
    except (ValueError, RecursionError):
        # An integer of thousands of digits, or nesting deeper than the parser's stack.
        raise SchemaError([FieldError(spec.name, "is not JSON a card can hold")]) from None
    return parsed
