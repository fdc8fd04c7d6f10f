"""The JSON of a Universalis catalogue row: ``card_from_stats`` / ``power_from_stats`` check it
and build the ``catalog`` dataclasses the rules work with, ``card_stats`` / ``power_stats`` write
it back (the round trip is exact), and ``format_field`` / ``parse_field`` turn a structured key
into the admin's text and back. Bad data raises ``SchemaError`` listing every problem at once
with a dotted path ("weapons.1.wk").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Final, TypeVar

from apps.systems.core.schema import FieldError, SchemaError
from apps.systems.universalis.catalog import (
    ARMOUR_EFFECTS,
    ATTRIBUTES,
    MAX_ATTRIBUTE,
    MAX_DF,
    MAX_HP,
    MAX_WK,
    MELEE,
    OPERATOR_ATTRIBUTES,
    THROWN,
    WEAPON_EFFECTS,
    Armour,
    Attribute,
    Camouflage,
    Discipline,
    Effect,
    Equipment,
    ItemKind,
    ModelType,
    Movement,
    Power,
    PowerDuration,
    PowerRange,
    PowerTarget,
    Size,
    Trait,
    UnitCard,
    Weapon,
)
from apps.systems.universalis.catalog_fields import (
    ITEM_FIELDS,
    PROFILE_FIELDS,
)

# --- Reading ---------------------------------------------------------------------------------


class _Reader:
    """Collects every problem of one card so that one SchemaError reports them all."""

    def __init__(self) -> None:
        self.errors: list[FieldError] = []

    def add(self, path: str, message: str) -> None:
        self.errors.append(FieldError(path, message))

    def done(self) -> None:
        if self.errors:
            raise SchemaError(self.errors)

    def obj(
        self, value: object, path: str, keys: Sequence[str], required: Sequence[str]
    ) -> Mapping[str, object]:
        if not isinstance(value, Mapping):
            self.add(path, f"must be an object, not {value!r}.")
            return {}
        for key in value:
            if key not in keys:
                self.add(f"{path}.{key}" if path else str(key), "unknown field.")
        for key in required:
            if key not in value:
                self.add(f"{path}.{key}" if path else key, "is required.")
        return value

    def integer(self, value: object, path: str, lo: int | None = 0, hi: int | None = None) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            self.add(path, f"must be a whole number, not {value!r}.")
            return 0
        if lo is not None and value < lo:
            self.add(path, f"must be at least {lo}, not {value}.")
        if hi is not None and value > hi:
            self.add(path, f"must be at most {hi}, not {value}.")
        return value

    def optional_int(self, value: object, path: str, lo: int = 0, hi: int = 99) -> int | None:
        return None if value is None else self.integer(value, path, lo, hi)

    def flag(self, value: object, path: str) -> bool:
        if not isinstance(value, bool):
            self.add(path, f"must be true or false, not {value!r}.")
            return False
        return value

    def text(self, value: object, path: str, *, required: bool = False) -> str:
        if not isinstance(value, str):
            self.add(path, f"must be text, not {value!r}.")
            return ""
        if required and not value.strip():
            self.add(path, "must not be empty.")
        if len(value) > 2000:
            self.add(path, "must be at most 2000 characters.")
        return value.strip()

    def choice(self, value: object, path: str, allowed: Sequence[str]) -> str:
        if value not in allowed:
            self.add(path, f"must be one of {', '.join(allowed)}, not {value!r}.")
            return allowed[0]
        assert isinstance(value, str)
        return value

    def items(self, value: object, path: str) -> list[object]:
        if not isinstance(value, list | tuple):
            self.add(path, f"must be a list, not {value!r}.")
            return []
        return list(value)

    def effects(self, value: object, path: str, allowed: frozenset[Effect]) -> tuple[Effect, ...]:
        found: list[Effect] = []
        for index, code in enumerate(self.items(value, path)):
            name = self.choice(code, f"{path}.{index}", sorted(e.value for e in allowed))
            if Effect(name) in found:
                self.add(f"{path}.{index}", f"{name!r} is listed twice.")
            found.append(Effect(name))
        return tuple(found)


_WEAPON_KEYS: Final = (
    "name",
    "wk",
    "range",
    "strength",
    "damage",
    "additive",
    "df",
    "area",
    "indirect",
    "unwieldy",
    "reload",
    "uses",
    "effects",
    "weight",
    "mount",
    "text",
    "text_en",
)


def _range(reader: _Reader, value: object, path: str) -> str:
    if value in (MELEE, THROWN):
        assert isinstance(value, str)
        return value
    if isinstance(value, str) and value.count("/") == 1:
        length, count = value.split("/")
        if length.isdigit() and count.isdigit() and int(length) > 0 and 0 < int(count) <= 12:
            return f"{int(length)}/{int(count)}"
    reader.add(path, f'must be "NK", "thrown" or bands like "20/3", not {value!r}.')
    return MELEE


def _weapon(reader: _Reader, value: object, path: str) -> Weapon:
    data = reader.obj(value, path, _WEAPON_KEYS, ("name", "wk", "range", "strength", "damage"))
    weapon = Weapon(
        name=reader.text(data.get("name", "?"), f"{path}.name", required=True),
        wk=reader.integer(data.get("wk", 1), f"{path}.wk", 1, MAX_WK),
        range=_range(reader, data.get("range", MELEE), f"{path}.range"),
        strength=reader.integer(data.get("strength", 0), f"{path}.strength", 0, 30),
        damage=reader.integer(data.get("damage", 0), f"{path}.damage", 0, MAX_HP),
        additive=reader.flag(data.get("additive", False), f"{path}.additive"),
        df=reader.integer(data.get("df", 0), f"{path}.df", 0, MAX_DF),
        area=reader.integer(data.get("area", 0), f"{path}.area", 0, 50),
        indirect=reader.flag(data.get("indirect", False), f"{path}.indirect"),
        unwieldy=reader.flag(data.get("unwieldy", False), f"{path}.unwieldy"),
        reload=reader.flag(data.get("reload", False), f"{path}.reload"),
        uses=reader.optional_int(data.get("uses"), f"{path}.uses", 1),
        effects=reader.effects(data.get("effects", []), f"{path}.effects", WEAPON_EFFECTS),
        weight=reader.integer(data.get("weight", 0), f"{path}.weight", 0, 9999),
        mount=reader.choice(data.get("mount", ""), f"{path}.mount", ("", "left", "right")),
        text=reader.text(data.get("text", ""), f"{path}.text"),
        text_en=reader.text(data.get("text_en", ""), f"{path}.text_en"),
    )
    if weapon.melee and (weapon.df or weapon.area or weapon.indirect):
        reader.add(path, "a melee weapon has no sustained fire, area or indirect fire.")
    return weapon


def _armour(reader: _Reader, value: object, path: str) -> Armour | None:
    if value is None:
        return None
    keys = ("name", "protection", "reduction", "additive", "self_supporting", "effects", "weight")
    data = reader.obj(value, path, (*keys, "text", "text_en"), ("name", "protection"))
    return Armour(
        name=reader.text(data.get("name", "?"), f"{path}.name", required=True),
        protection=reader.integer(data.get("protection", 0), f"{path}.protection", 0, 30),
        reduction=reader.integer(data.get("reduction", 0), f"{path}.reduction", 0, MAX_HP),
        additive=reader.flag(data.get("additive", False), f"{path}.additive"),
        self_supporting=reader.flag(data.get("self_supporting", False), f"{path}.self_supporting"),
        effects=reader.effects(data.get("effects", []), f"{path}.effects", ARMOUR_EFFECTS),
        weight=reader.integer(data.get("weight", 0), f"{path}.weight", 0, 9999),
        text=reader.text(data.get("text", ""), f"{path}.text"),
        text_en=reader.text(data.get("text_en", ""), f"{path}.text_en"),
    )


def _trait(reader: _Reader, value: object, path: str) -> Trait:
    data = reader.obj(value, path, ("name", "level", "uses", "ap", "text", "text_en"), ("name",))
    return Trait(
        name=reader.text(data.get("name", "?"), f"{path}.name", required=True),
        level=reader.integer(data.get("level", 0), f"{path}.level", 0, 10),
        uses=reader.optional_int(data.get("uses"), f"{path}.uses", 1),
        ap=reader.optional_int(data.get("ap"), f"{path}.ap", 0, 12),
        text=reader.text(data.get("text", ""), f"{path}.text"),
        text_en=reader.text(data.get("text_en", ""), f"{path}.text_en"),
    )


def _equipment(reader: _Reader, value: object, path: str) -> Equipment:
    keys = ("name", "ap", "uses", "unwieldy", "weight", "text", "text_en")
    data = reader.obj(value, path, keys, ("name",))
    return Equipment(
        name=reader.text(data.get("name", "?"), f"{path}.name", required=True),
        ap=reader.optional_int(data.get("ap"), f"{path}.ap", 0, 12),
        uses=reader.optional_int(data.get("uses"), f"{path}.uses", 1),
        unwieldy=reader.flag(data.get("unwieldy", False), f"{path}.unwieldy"),
        weight=reader.integer(data.get("weight", 0), f"{path}.weight", 0, 9999),
        text=reader.text(data.get("text", ""), f"{path}.text"),
        text_en=reader.text(data.get("text_en", ""), f"{path}.text_en"),
    )


def _discipline(reader: _Reader, value: object, path: str) -> Discipline:
    data = reader.obj(value, path, ("name", "level"), ("name", "level"))
    return Discipline(
        name=reader.text(data.get("name", "?"), f"{path}.name", required=True),
        level=reader.integer(data.get("level", 1), f"{path}.level", 1, 10),
    )


def _camouflage(reader: _Reader, value: object, path: str) -> Camouflage | None:
    if value is None:
        return None
    data = reader.obj(value, path, ("active", "level"), ("active", "level"))
    return Camouflage(
        active=reader.flag(data.get("active", False), f"{path}.active"),
        level=reader.integer(data.get("level", 1), f"{path}.level", 0, 12),
    )


_PROFILE_KEYS: Final = tuple(spec.name for spec in PROFILE_FIELDS)
_PROFILE_REQUIRED: Final = tuple(spec.name for spec in PROFILE_FIELDS if spec.required)


def _attribute(r: _Reader, key: str, value: object, kind: ModelType) -> int | None:
    """One attribute; a telematon has none of its own for AGI, NK, FK and EH (None), every
    other model needs them all."""
    if key not in OPERATOR_ATTRIBUTES:
        return r.integer(value if value is not None else 0, key, 0, MAX_ATTRIBUTE)
    if kind is ModelType.TELEMATON:
        if value is not None:
            r.add(key, "a telematon has no own AGI, NK, FK or EH (it uses its operator's).")
        return None
    if value is None:
        r.add(key, "is required (only a telematon uses its operator's).")
        return None
    return r.integer(value, key, 0, MAX_ATTRIBUTE)


def _hit_points(r: _Reader, data: Mapping[str, object]) -> tuple[int, int]:
    """Normal and critical hit points, at most ``MAX_HP`` together."""
    hp = r.integer(data.get("hp", 1), "hp", 1, MAX_HP)
    hp_critical = r.integer(data.get("hp_critical", 0), "hp_critical", 0, MAX_HP)
    if hp + hp_critical > MAX_HP:
        r.add("hp_critical", f"normal and critical hit points are at most {MAX_HP} together.")
    return hp, hp_critical


def _size(r: _Reader, data: Mapping[str, object], kind: ModelType) -> Size:
    """The size, within what the model type allows (3.2)."""
    size = Size(r.choice(data.get("size", "medium"), "size", [s.value for s in Size]))
    if kind is ModelType.COLOSSUS and size not in (Size.LARGE, Size.HUGE):
        r.add("size", "a colossus is large or huge (3.2).")
    if kind is ModelType.STANDARD and size is Size.HUGE:
        r.add("size", "a standard model is small to large (3.2).")
    return size


_T = TypeVar("_T")


def _listed(
    r: _Reader,
    data: Mapping[str, object],
    key: str,
    read: Callable[[_Reader, object, str], _T],
) -> tuple[_T, ...]:
    """The list under ``key``, each element read by ``read`` with its path ("traits.2")."""
    return tuple(
        read(r, value, f"{key}.{i}") for i, value in enumerate(r.items(data.get(key, []), key))
    )


def _check_card(r: _Reader, card: UnitCard) -> None:
    """The rules that tie the card's values together."""
    if card.group_leader and card.telematon:
        r.add("group_leader", "a telematon cannot lead a group.")
    if card.telematon and card.operator:
        r.add("operator", "a telematon cannot operate telematons.")
    if not card.colossus and any(w.mount for w in card.weapons):
        r.add("weapons", "only a colossus carries weapons on its left or right side.")
    if not card.factions:
        r.add("factions", "must name at least one faction.")


def card_from_stats(
    *,
    slug: str,
    name: str,
    factions: Sequence[str],
    stats: Mapping[str, object],
    version: int = 1,
    sample: bool = False,
) -> UnitCard:
    """A unit card from its database row; raises ``SchemaError`` listing every problem."""
    r = _Reader()
    data = r.obj(stats, "", _PROFILE_KEYS, _PROFILE_REQUIRED)
    kind = ModelType(r.choice(data.get("type", "standard"), "type", [m.value for m in ModelType]))
    attributes = {key: _attribute(r, key, data.get(key), kind) for key in ATTRIBUTES}
    hp, hp_critical = _hit_points(r, data)
    size = _size(r, data, kind)
    ko = attributes["ko"]
    card = UnitCard(
        slug=r.text(slug, "slug", required=True),
        name=r.text(name, "name", required=True),
        factions=tuple(r.text(f, f"factions.{i}", required=True) for i, f in enumerate(factions)),
        type=kind,
        size=size,
        movement=Movement(
            r.choice(data.get("movement", "legs"), "movement", [m.value for m in Movement])
        ),
        speed=r.integer(data.get("speed", 0), "speed", 0, 99),
        hp=hp,
        hp_critical=hp_critical,
        agi=attributes["agi"],
        nk=attributes["nk"],
        fk=attributes["fk"],
        ko=ko if ko is not None else 0,
        wn=attributes["wn"] or 0,
        eh=attributes["eh"],
        points=r.integer(data.get("points", 0), "points", 0, 9999),
        group_leader=r.flag(data.get("group_leader", False), "group_leader"),
        operator=r.integer(data.get("operator", 0), "operator", 0, 9),
        camouflage=_camouflage(r, data.get("camouflage"), "camouflage"),
        traits=_listed(r, data, "traits", _trait),
        weapons=_listed(r, data, "weapons", _weapon),
        armour=_armour(r, data.get("armour"), "armour"),
        equipment=_listed(r, data, "equipment", _equipment),
        disciplines=_listed(r, data, "disciplines", _discipline),
        version=version,
        sample=sample,
    )
    _check_card(r, card)
    r.done()
    return card


_POWER_KEYS: Final = tuple(spec.name for spec in ITEM_FIELDS)


def power_from_stats(
    *,
    slug: str,
    name: str,
    kind: str,
    stats: Mapping[str, object],
    version: int = 1,
    sample: bool = False,
) -> Power:
    """A power card from its database row; raises ``SchemaError`` listing every problem."""
    r = _Reader()
    r.choice(kind, "kind", [k.value for k in ItemKind])
    data = r.obj(stats, "", _POWER_KEYS, ("discipline", "ap", "attribute"))
    power = Power(
        slug=r.text(slug, "slug", required=True),
        name=r.text(name, "name", required=True),
        discipline=r.text(data.get("discipline", ""), "discipline", required=True),
        ap=r.integer(data.get("ap", 0), "ap", 0, 12),
        attribute=Attribute(
            r.choice(data.get("attribute", "wn"), "attribute", [a.value for a in Attribute])
        ),
        difficulty=r.integer(data.get("difficulty", 0), "difficulty", -12, 12),
        hp_loss=r.integer(data.get("hp_loss", 0), "hp_loss", 0, MAX_HP),
        hp_loss_always=r.flag(data.get("hp_loss_always", False), "hp_loss_always"),
        target=PowerTarget(
            r.choice(data.get("target", "model"), "target", [t.value for t in PowerTarget])
        ),
        range=PowerRange(
            r.choice(data.get("range", "distance"), "range", [x.value for x in PowerRange])
        ),
        duration=PowerDuration(
            r.choice(data.get("duration", "instant"), "duration", [d.value for d in PowerDuration])
        ),
        text=r.text(data.get("text", ""), "text"),
        text_en=r.text(data.get("text_en", ""), "text_en"),
        version=version,
        sample=sample,
    )
    r.done()
    return power


# --- Writing ---------------------------------------------------------------------------------


def _drop_defaults(data: dict[str, object], defaults: Mapping[str, object]) -> dict[str, object]:
    return {key: value for key, value in data.items() if defaults.get(key, ...) != value}


_WEAPON_DEFAULTS: Final[Mapping[str, object]] = {
    "additive": False,
    "df": 0,
    "area": 0,
    "indirect": False,
    "unwieldy": False,
    "reload": False,
    "uses": None,
    "effects": [],
    "weight": 0,
    "mount": "",
    "text": "",
    "text_en": "",
}


def weapon_stats(weapon: Weapon) -> dict[str, object]:
    return _drop_defaults(
        {
            "name": weapon.name,
            "wk": weapon.wk,
            "range": weapon.range,
            "strength": weapon.strength,
            "damage": weapon.damage,
            "additive": weapon.additive,
            "df": weapon.df,
            "area": weapon.area,
            "indirect": weapon.indirect,
            "unwieldy": weapon.unwieldy,
            "reload": weapon.reload,
            "uses": weapon.uses,
            "effects": [e.value for e in weapon.effects],
            "weight": weapon.weight,
            "mount": weapon.mount,
            "text": weapon.text,
            "text_en": weapon.text_en,
        },
        _WEAPON_DEFAULTS,
    )


def card_stats(card: UnitCard) -> dict[str, object]:
    """The ``stats`` JSON of a unit card (optional keys at their default are left out)."""
    stats: dict[str, object] = {
        "type": card.type.value,
        "size": card.size.value,
        "movement": card.movement.value,
        "speed": card.speed,
        "hp": card.hp,
        "hp_critical": card.hp_critical,
    }
    for key in ATTRIBUTES:
        value = getattr(card, key)
        if value is not None:
            stats[key] = value
    stats["points"] = card.points
    optional: dict[str, object] = {
        "group_leader": card.group_leader,
        "operator": card.operator,
        "camouflage": None
        if card.camouflage is None
        else {"active": card.camouflage.active, "level": card.camouflage.level},
        "traits": [
            _drop_defaults(
                {
                    "name": t.name,
                    "level": t.level,
                    "uses": t.uses,
                    "ap": t.ap,
                    "text": t.text,
                    "text_en": t.text_en,
                },
                {"level": 0, "uses": None, "ap": None, "text": "", "text_en": ""},
            )
            for t in card.traits
        ],
        "weapons": [weapon_stats(w) for w in card.weapons],
        "armour": None
        if card.armour is None
        else _drop_defaults(
            {
                "name": card.armour.name,
                "protection": card.armour.protection,
                "reduction": card.armour.reduction,
                "additive": card.armour.additive,
                "self_supporting": card.armour.self_supporting,
                "effects": [e.value for e in card.armour.effects],
                "weight": card.armour.weight,
                "text": card.armour.text,
                "text_en": card.armour.text_en,
            },
            {
                "reduction": 0,
                "additive": False,
                "self_supporting": False,
                "effects": [],
                "weight": 0,
                "text": "",
                "text_en": "",
            },
        ),
        "equipment": [
            _drop_defaults(
                {
                    "name": e.name,
                    "ap": e.ap,
                    "uses": e.uses,
                    "unwieldy": e.unwieldy,
                    "weight": e.weight,
                    "text": e.text,
                    "text_en": e.text_en,
                },
                {
                    "ap": None,
                    "uses": None,
                    "unwieldy": False,
                    "weight": 0,
                    "text": "",
                    "text_en": "",
                },
            )
            for e in card.equipment
        ],
        "disciplines": [{"name": d.name, "level": d.level} for d in card.disciplines],
    }
    stats.update(
        _drop_defaults(
            optional,
            {
                "group_leader": False,
                "operator": 0,
                "camouflage": None,
                "traits": [],
                "weapons": [],
                "armour": None,
                "equipment": [],
                "disciplines": [],
            },
        )
    )
    return stats


def power_stats(power: Power) -> dict[str, object]:
    return {
        "discipline": power.discipline,
        "ap": power.ap,
        "attribute": power.attribute.value,
        "difficulty": power.difficulty,
        "hp_loss": power.hp_loss,
        "hp_loss_always": power.hp_loss_always,
        "target": power.target.value,
        "range": power.range.value,
        "duration": power.duration.value,
        "text": power.text,
        "text_en": power.text_en,
    }
