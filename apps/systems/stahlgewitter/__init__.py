"""Stahlgewitter: tactical battles in the Space Gothic universe (stahlgewitter.de.txt)."""

from __future__ import annotations

from apps.systems.core.i18n import gettext_noop
from apps.systems.core.registry import DiceKind, GameSize, GameSystemInfo, Unit, points
from apps.systems.stahlgewitter.cards import StahlgewitterCardLayouts
from apps.systems.stahlgewitter.match.engine import StahlgewitterEngine
from apps.systems.stahlgewitter.system import StahlgewitterCatalogSchema, StahlgewitterRosterRules

SYSTEM = GameSystemInfo(
    slug="stahlgewitter",
    name="Stahlgewitter",
    tagline=gettext_noop(
        "Tactical miniatures battles in the Space Gothic universe, decided on a combat result "
        "table."
    ),
    description=gettext_noop(
        "Armies built from army points fight unit by unit through movement, ranged combat, "
        "melee and rally phases. A d10 roll on the combat result table decides every attack, "
        "and morale, panic and surrender can break a unit long before it is wiped out."
    ),
    unit=Unit.CM,
    dice=DiceKind.D10_D6,
    min_players=2,
    max_players=2,
    # The rulebook leaves the point ranges blank. SPEC §4 Decision: 200-400, 400-800 and
    # 800-1500 army points; the values are defaults inside those ranges.
    sizing=points(
        GameSize(
            key="scharmuetzel", label=gettext_noop("Scharmützel (skirmish, 1-2 hours)"), value=300
        ),
        GameSize(key="gefecht", label=gettext_noop("Gefecht (engagement, 3-4 hours)"), value=600),
        GameSize(key="schlacht", label=gettext_noop("Schlacht (battle, 4-6 hours)"), value=1000),
        default=600,
    ),
    rulebook="stahlgewitter.de.txt",
    package=__name__,
    catalog=StahlgewitterCatalogSchema(),
    rosters=StahlgewitterRosterRules(),
    cards=StahlgewitterCardLayouts(),
    matches=StahlgewitterEngine(),
)
