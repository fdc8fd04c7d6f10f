"""Every Universalis command handler, registered in ``COMMANDS`` as its module is imported.

Each handler checks that the command is legal now and emits the events it causes; every event
is applied at once to the working state, so a handler sees the consequences of what it emitted.
A ``RuleViolation`` anywhere discards every event: an illegal command changes nothing. Every die
is rolled through the decision's ``rng`` (``context.Ctx``) and written into the events with the
exact odds it had, against the values ``values`` computes.

The app never measures the table: distances, cover, who touches whom and who perceives whom are
told by the players in the commands' arguments.
"""

from __future__ import annotations

from apps.systems.universalis.match import (  # noqa: F401 - imported for their registrations
    acting,
    camouflage,
    conditions,
    damage,
    engagement,
    melee,
    powers,
    ranged,
    rounds,
    setup,
)
from apps.systems.universalis.match.context import COMMANDS

__all__ = ["COMMANDS"]
