"""Grundregeln: a compact generic skirmish core with exploding d6 (grundregeln.de.txt)."""

from __future__ import annotations

from apps.systems.core.i18n import gettext_noop
from apps.systems.core.registry import DiceKind, GameSystemInfo, Unit, points
from apps.systems.grundregeln.cards import GrundregelnCardLayouts
from apps.systems.grundregeln.match.engine import GrundregelnEngine
from apps.systems.grundregeln.scenario import GrundregelnScenarioRules
from apps.systems.grundregeln.system import GrundregelnCatalogSchema, GrundregelnRosterRules

SYSTEM = GameSystemInfo(
    slug="grundregeln",
    name="Grundregeln",
    tagline=gettext_noop("A compact generic skirmish core with exploding six-sided dice."),
    description=gettext_noop(
        "A lean rule set for small skirmishes in any setting: models from size XS to XL, one "
        "action per activation, reactions and morale. Every 6 rolled explodes once, and "
        "non-player characters act in a phase of their own at the end of each round."
    ),
    unit=Unit.INCH,
    dice=DiceKind.D6,
    min_players=2,
    max_players=2,
    # The rulebook sets no game sizes: teams are built to a points limit the players agree on.
    sizing=points(),
    rulebook="grundregeln.de.txt",
    package=__name__,
    catalog=GrundregelnCatalogSchema(),
    rosters=GrundregelnRosterRules(),
    matches=GrundregelnEngine(),
    cards=GrundregelnCardLayouts(),
    scenarios=GrundregelnScenarioRules(),
)
