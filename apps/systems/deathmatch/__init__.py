"""Deathmatch: sci-fi arena team skirmish played with an RNG card deck (deathmatch.de.txt)."""

from __future__ import annotations

from apps.systems.core.i18n import gettext_noop
from apps.systems.core.registry import DiceKind, GameSize, GameSystemInfo, Unit, fighters
from apps.systems.deathmatch.cards import DeathmatchCardLayouts
from apps.systems.deathmatch.match.engine import DeathmatchEngine
from apps.systems.deathmatch.system import DeathmatchCatalogSchema, DeathmatchRosterRules

SYSTEM = GameSystemInfo(
    slug="deathmatch",
    name="Deathmatch",
    tagline=gettext_noop("Sci-fi arena team skirmish with an RNG card deck instead of dice."),
    description=gettext_noop(
        "Teams of 3, 5 or 7 fighters battle in a futuristic arena where respawners bring the "
        "fallen back. Every player draws from their own 41-card RNG deck instead of rolling "
        "dice and spends command points on orders, warnings and rerolls. Ten game modes for two "
        "players and five for three or four."
    ),
    unit=Unit.INCH,
    dice=DiceKind.RNG_DECK,
    min_players=2,
    # The rulebook has separate game modes for three and four players.
    max_players=4,
    sizing=fighters(
        GameSize(key="small", label=gettext_noop("Small (3 fighters)"), value=3),
        GameSize(key="standard", label=gettext_noop("Standard (5 fighters)"), value=5),
        GameSize(key="large", label=gettext_noop("Large (7 fighters)"), value=7),
        default=5,
    ),
    rulebook="deathmatch.de.txt",
    package=__name__,
    catalog=DeathmatchCatalogSchema(),
    rosters=DeathmatchRosterRules(),
    matches=DeathmatchEngine(),
    cards=DeathmatchCardLayouts(),
)
