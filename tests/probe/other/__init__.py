"""A second rule system without rosters or matches: leagues still run for it (results
are reported by hand)."""

from __future__ import annotations

from apps.systems.core.i18n import gettext_noop
from apps.systems.core.registry import DiceKind, GameSystemInfo, Unit, points

SYSTEM = GameSystemInfo(
    slug="other",
    name="Other (test system)",
    tagline=gettext_noop("A test system without rosters."),
    description=gettext_noop("A test system without rosters."),
    unit=Unit.INCH,
    dice=DiceKind.D6,
    min_players=2,
    max_players=2,
    sizing=points(),
    rulebook="",
    package=__name__,
)
