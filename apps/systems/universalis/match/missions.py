"""The missions the tracker knows (the rulebook names none: these are the sample missions of
``fixtures/universalis/missions.json``, whose ``data`` a test keeps equal to this table).

Each player picks one in secret (5.2); victory conditions are checked at every round end (5.7).
``eliminate`` and ``leader`` the tracker checks itself; a ``declared`` mission is met when the
players confirm at ``rounds_needed`` round ends that its player held the condition.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from apps.systems.core.errors import RuleViolation
from apps.systems.core.i18n import gettext_noop


@dataclass(frozen=True)
class Mission:
    slug: str
    number: int
    name: str
    victory: str  # eliminate | leader | declared
    rounds_needed: int
    summary: str


MISSIONS: Final = (
    Mission(
        "vernichtung",
        1,
        "Vernichtung (Annihilation)",
        "eliminate",
        0,
        gettext_noop(
            "Accomplished at a round end when no enemy model is left on the table "
            "(eliminated or fled)."
        ),
    ),
    Mission(
        "kopfjagd",
        2,
        "Kopfjagd (Headhunt)",
        "leader",
        0,
        gettext_noop(
            "Accomplished at a round end when the enemy group leader is eliminated or has left "
            "the table."
        ),
    ),
    Mission(
        "stellung-halten",
        3,
        "Stellung halten (Hold the position)",
        "declared",
        3,
        gettext_noop(
            "Place a marker in the centre of the table. Accomplished at the round end when you "
            "have held it at the end of 3 rounds: one of your models within 3 cm of it and no "
            "enemy model."
        ),
    ),
    Mission(
        "durchbruch",
        4,
        "Durchbruch (Breakthrough)",
        "declared",
        1,
        gettext_noop(
            "Accomplished at a round end when two of your models stand in the enemy deployment "
            "zone."
        ),
    ),
)
SECRET: Final = "secret"


def mission(slug: str) -> Mission:
    for candidate in MISSIONS:
        if candidate.slug == slug:
            return candidate
    raise RuleViolation("unknown_mission", f"There is no Universalis mission {slug!r}.")
