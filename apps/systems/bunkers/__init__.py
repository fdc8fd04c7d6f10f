"""Bunkers and Badasses: close-quarters house rules for Warhammer 40,000 9th edition
(bunkers-and-badasses.de.txt)."""

from __future__ import annotations

from apps.systems.bunkers.cards import BunkersCardLayouts
from apps.systems.bunkers.match.engine import BunkersEngine
from apps.systems.bunkers.roster import BunkersRosterRules
from apps.systems.core.i18n import gettext_noop
from apps.systems.core.registry import DiceKind, GameSize, GameSystemInfo, Unit, points

SYSTEM = GameSystemInfo(
    slug="bunkers",
    name="Bunkers and Badasses",
    tagline=gettext_noop(
        "Close-quarters house rules for Warhammer 40,000 (9th edition) fought inside a bunker."
    ),
    description=gettext_noop(
        "Bring a Battle-forged Warhammer 40,000 9th edition army and fight through corridors, "
        "doors and laser barriers on one or two levels. Command points depend on the game size "
        "and buy battle options such as welding a door shut or a sentry gun; three missions "
        "decide who holds the bunker."
    ),
    unit=Unit.INCH,
    dice=DiceKind.D6,
    min_players=2,
    max_players=2,
    # Starting command points by points level: up to 1000 -> 6, 1250 -> 7, 1500 -> 8, more -> 9.
    sizing=points(
        GameSize(key="1000", label=gettext_noop("1000 points (6 CP)"), value=1000),
        GameSize(key="1250", label=gettext_noop("1250 points (7 CP)"), value=1250),
        GameSize(key="1500", label=gettext_noop("1500 points (8 CP)"), value=1500),
        GameSize(key="2000", label=gettext_noop("2000 points (9 CP)"), value=2000),
        default=1000,
    ),
    rulebook="bunkers-and-badasses.de.txt",
    package=__name__,
    rosters=BunkersRosterRules(),
    matches=BunkersEngine(),
    outside_army=True,
    cards=BunkersCardLayouts(),
)
