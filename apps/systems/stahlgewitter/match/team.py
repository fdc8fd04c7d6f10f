"""A roster as the match's units: each unit is a head entry (``attach_to`` None, its ``name`` is
the unit's name) and the entries attached to it; an entry of ``count`` identical models becomes
that many models. The catalogue's own maths (``catalog.py``) gives each model its PW and B with
the armour it wears, its weapons with the variants applied and its equipment's effects; a model
is worth what the roster charges for it (``roster.model_cost``: a bought armour costs only the
difference to the standard one), the victory points an enemy gets for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from cattrs.errors import ClassValidationError

from apps.systems.core.errors import RuleViolation
from apps.systems.core.match import Args
from apps.systems.core.rosters import CatalogData, EntryInput, RosterInput
from apps.systems.stahlgewitter.catalog import Catalog, loadout, stahlgewitter_catalog
from apps.systems.stahlgewitter.catalog_types import Weapon
from apps.systems.stahlgewitter.match.serial import load
from apps.systems.stahlgewitter.match.state import Marker, Model, Unit
from apps.systems.stahlgewitter.match.state import Weapon as MatchWeapon
from apps.systems.stahlgewitter.roster import model_cost

MAX_UNITS: Final = 30
MAX_MODELS: Final = 120
MAX_WEAPONS: Final = 12
# Footnote 1) of the Vibro-Varianten: "nur zum Öffnen von Schotts, Luken, etc.".
BULKHEAD_NOTE: Final = "Schott"
DECOYS: Final = 3  # "Außerdem darf jeder Spieler drei Marken mehr plazieren, als er Einheiten hat."


def _weapon(weapon: Weapon, stk: int) -> dict[str, Any]:
    return {
        "slug": weapon.slug,
        "name": weapon.name,
        "type": weapon.type.value,
        "fkw": weapon.fkw,
        "nkw": weapon.nkw,
        "range_cm": weapon.range_for(stk),
        "burst": weapon.burst,
        "template_cm": weapon.template_cm,
        "move_and_fight": weapon.move_and_fight,
        "armour_breaker": weapon.armour_breaker,
        "bulkheads_only": weapon.armour_breaker and BULKHEAD_NOTE in weapon.breaker_note,
        "ignores_armour": weapon.ignores_armour,
        "pw_always_1": weapon.pw_always_1,
        "row_bonus": weapon.row_bonus,
        "stun_from_e": weapon.stun_from_e,
        "morale_test": weapon.morale_test,
        "burns": weapon.burns_d4,
        "no_burst_range_penalty": weapon.no_burst_range_penalty,
    }


def _models(entry: EntryInput, catalog: Catalog) -> list[dict[str, Any]]:
    profile = catalog.profiles.get(entry.profile)
    if profile is None:
        raise RuleViolation("bad_team", f"There is no profile {entry.profile!r}.")
    kit = loadout(entry.items, catalog)
    values = catalog.values(profile, kit.armour)
    points = model_cost(profile, kit, catalog)  # the roster's price: armour as a difference
    name = entry.name.strip() or profile.name
    count = max(1, min(entry.count, MAX_MODELS))
    return [
        {
            "name": name,
            "profile": profile.slug,
            "rank": profile.rank.value,
            "rank_order": profile.rank_order,
            "skills": [skill.value for skill in profile.skills],
            "effects": sorted(effect.value for effect in kit.effects),
            "b": values.b,
            "pw": values.pw,
            "armour_pw": values.pw - values.base_pw,
            "ges": profile.ges,
            "wik": profile.wik,
            "stk": profile.stk,
            "tp": profile.tp,
            "points": points,
            "weapons": [_weapon(w, profile.stk) for w in kit.armed_weapons],
        }
        for _index in range(count)
    ]


def _numbered(models: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Models of one unit that share a name are numbered within it (Soldat 1, Soldat 2)."""
    names = [m["name"] for m in models]
    seen: dict[str, int] = {}
    for model in models:
        name = model["name"]
        if names.count(name) > 1:
            seen[name] = seen.get(name, 0) + 1
            model["name"] = f"{name} {seen[name]}"[:60]
    return models


def team_setup(roster: RosterInput, catalog_data: CatalogData) -> dict[str, Any]:
    """The roster's units, each with its models, and the army's points."""
    catalog = stahlgewitter_catalog(catalog_data)
    entries = roster.entries
    units: list[dict[str, Any]] = []
    for index, entry in enumerate(entries):
        if entry.attach_to is not None and 0 <= entry.attach_to < len(entries):
            continue
        profile = catalog.profiles.get(entry.profile)
        name = entry.name.strip() or (profile.name if profile else entry.profile)
        members = [entry] + [e for e in entries if e.attach_to == index]
        models = _numbered([model for member in members for model in _models(member, catalog)])
        units.append({"name": name[:60], "models": models})
    units = units[:MAX_UNITS]
    points = sum(m["points"] for u in units for m in u["models"])
    return {"faction": roster.faction, "points": points, "units": units}


def build(
    player: int, entries: Sequence[Args], first_unit: int, first_model: int
) -> tuple[list[Unit], list[Model], list[Marker]]:
    """The player's units and models from ``team_setup``'s ``units`` (ids continue the other
    player's), and their markers: one per unit plus three decoys, none assigned yet."""
    units: list[Unit] = []
    models: list[Model] = []
    for offset, entry in enumerate(entries):
        unit_id = first_unit + offset
        ids = []
        for raw in entry.objects("models", most=MAX_MODELS):
            model_id = first_model + len(models)
            models.append(_model(raw, model_id, unit_id, player))
            ids.append(model_id)
        if not ids:
            raise RuleViolation("bad_team", "A unit has no models.")
        units.append(Unit(unit_id, player, entry.text("name", "?")[:60] or "?", tuple(ids)))
    markers = [Marker(player, number) for number in range(1, len(units) + DECOYS + 1)]
    return units, models, markers


def _model(raw: Args, model_id: int, unit_id: int, player: int) -> Model:
    tp = raw.integer("tp", 1, lo=1, hi=9)
    listed = raw.raw("weapons") if raw.has("weapons") else []
    if not isinstance(listed, list) or len(listed) > MAX_WEAPONS:
        raise RuleViolation("bad_team", "A model's weapons cannot be read.")
    try:
        arms = tuple(load(dict(w), MatchWeapon) for w in listed)
    except (ClassValidationError, TypeError, ValueError, KeyError) as error:
        raise RuleViolation("bad_team", "A weapon cannot be read.") from error
    return Model(
        id=model_id,
        unit=unit_id,
        player=player,
        name=raw.text("name", "?")[:60],
        profile=raw.text("profile", ""),
        rank=raw.text("rank", "soldier", choices=("leader", "soldier")),
        rank_order=raw.integer("rank_order", 0, lo=0, hi=9),
        skills=raw.strs("skills", most=8),
        effects=raw.strs("effects", most=8),
        b=raw.integer("b", 12, lo=0, hi=99),
        pw=raw.integer("pw", 0, lo=0, hi=99),
        armour_pw=raw.integer("armour_pw", 0, lo=0, hi=99),
        ges=raw.integer("ges", 1, lo=0, hi=99),
        wik=raw.integer("wik", 7, lo=0, hi=99),
        stk=raw.integer("stk", 1, lo=0, hi=99),
        tp_start=tp,
        tp=tp,
        points=raw.integer("points", 0, lo=0, hi=99_999),
        weapons=arms,
    )


def commander(models: Sequence[Model]) -> Model | None:
    """The army commander (decision): the army's highest-ranking leader (rank order, then WIK,
    then roster order)."""
    leaders = [m for m in models if m.leader]
    if not leaders:
        return None
    return max(leaders, key=lambda m: (m.rank_order, m.wik, -m.id))


def best_leader_wik(models: Sequence[Model]) -> int:
    """The optional start roll bonus: "die Willenskraft (WIK) ihres besten Anführers"."""
    return max((m.wik for m in models if m.leader), default=0)
