"""Every Deathmatch command handler, registered in ``COMMANDS`` as its module is imported."""

from __future__ import annotations

from apps.systems.deathmatch.match import (  # noqa: F401 - imported for their registrations
    actions,
    attacks,
    corrections,
    objectives,
    outcomes,
    rounds,
    setup,
)
from apps.systems.deathmatch.match.context import COMMANDS

__all__ = ["COMMANDS"]
