"""Probe: a tiny points-based rule system defined only through the engine contract."""

from __future__ import annotations

from apps.systems.core.i18n import gettext_noop
from apps.systems.core.registry import DiceKind, GameSize, GameSystemInfo, Unit, points
from tests.probe.system.rules import ProbeCards, ProbeEngine, ProbeRosters, ProbeSchema

SYSTEM = GameSystemInfo(
    slug="probe",
    name="Probe (test system)",
    tagline=gettext_noop("A test system: armies by points, a strike a turn."),
    description=gettext_noop("A test system: armies by points, a strike a turn."),
    unit=Unit.INCH,
    dice=DiceKind.D6,
    min_players=2,
    max_players=2,
    sizing=points(
        GameSize(key="small", label=gettext_noop("Small (100 points)"), value=100),
        GameSize(key="large", label=gettext_noop("Large (200 points)"), value=200),
        default=100,
    ),
    rulebook="",
    package=__name__,
    catalog=ProbeSchema(),
    rosters=ProbeRosters(),
    matches=ProbeEngine(),
    cards=ProbeCards(),
)
