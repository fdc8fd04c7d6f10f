"""A rule system whose rosters and matches are not modelled: leagues still run for it (results
are reported by hand)."""

from __future__ import annotations

from apps.systems.core.i18n import gettext_noop
from apps.systems.core.registry import DiceKind, GameSystemInfo, Unit, points


def rosterless(slug: str, name: str, package: str) -> GameSystemInfo:
    """A registered system with nothing but its name."""
    return GameSystemInfo(
        slug=slug,
        name=name,
        tagline=gettext_noop("A test system without rosters."),
        description=gettext_noop("A test system without rosters."),
        unit=Unit.INCH,
        dice=DiceKind.D6,
        min_players=2,
        max_players=2,
        sizing=points(),
        rulebook="",
        package=package,
    )


SYSTEM = rosterless("plain", "Plain (test system)", __name__)
