"""Writes of the scenario editor: a scenario is a catalogue mission of its system."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.db import transaction
from django.utils.text import slugify

from apps.catalog.models import GameSystem, Mission
from apps.rosters.selectors import catalog_data
from apps.systems.core.errors import RuleViolation
from apps.systems.core.registry import registry
from apps.systems.core.scenarios import NpcChoice, ScenarioRules

MAX_SCENARIOS_PER_SYSTEM = 500


def scenario_rules(system: GameSystem) -> ScenarioRules:
    rules = registry().get(system.slug).scenarios
    if rules is None:
        raise RuleViolation("no_scenarios", f"{system.name} has no scenario editor.")
    return rules


def _free_slug(system: GameSystem, name: str) -> str:
    base = (slugify(name) or "scenario")[:70]
    slug, number = base, 1
    while Mission.objects.filter(system=system, slug=slug).exists():
        number += 1
        slug = f"{base}-{number}"
    return slug


@transaction.atomic
def scenario_save(
    *,
    system: GameSystem,
    name: str,
    values: Mapping[str, object],
    npcs: Sequence[NpcChoice],
    mission: Mission | None = None,
) -> Mission:
    """Create or change a scenario; raises ``SchemaError`` (a ``RuleViolation``) listing every
    problem and then saves nothing. Matches already played keep the scenario they copied."""
    data = scenario_rules(system).build(values=values, npcs=npcs, catalog=catalog_data(system))
    if mission is None:
        if Mission.objects.filter(system=system).count() >= MAX_SCENARIOS_PER_SYSTEM:
            raise RuleViolation("too_many_scenarios", "This system has too many scenarios.")
        mission = Mission(system=system, slug=_free_slug(system, name))
    mission.name, mission.data = name.strip(), data
    mission.full_clean()
    mission.save()
    return mission


@transaction.atomic
def scenario_delete(*, mission: Mission) -> None:
    mission.delete()
