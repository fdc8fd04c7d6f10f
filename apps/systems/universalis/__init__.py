"""Universalis: a universal 28 mm skirmish played with d12 only (universalis.de.txt)."""

from __future__ import annotations

from apps.systems.core.i18n import gettext_noop
from apps.systems.core.registry import DiceKind, GameSystemInfo, Unit, points
from apps.systems.universalis.cards import UniversalisCardLayouts
from apps.systems.universalis.match.engine import UniversalisEngine
from apps.systems.universalis.system import UniversalisCatalogSchema, UniversalisRosterRules

SYSTEM = GameSystemInfo(
    slug="universalis",
    name="Universalis",
    tagline=gettext_noop(
        "A universal 28 mm skirmish driven by action points and twelve-sided dice."
    ),
    description=gettext_noop(
        "Groups of one faction, each led by a group leader, spend 6 action points per round and "
        "carry half of what they save into the next. A d12 decides everything, as attribute "
        "rolls and comparative rolls, with reactions, conditions, camouflage, colossi, "
        "telematons and powers."
    ),
    unit=Unit.CM,
    dice=DiceKind.D12,
    min_players=2,
    max_players=2,
    # A points limit is optional (SPEC §3 Decision), so there are no presets.
    sizing=points(),
    rulebook="universalis.de.txt",
    package=__name__,
    catalog=UniversalisCatalogSchema(),
    rosters=UniversalisRosterRules(),
    matches=UniversalisEngine(),
    cards=UniversalisCardLayouts(),
)
