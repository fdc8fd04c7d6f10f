"""Every Bunkers and Badasses command handler, registered in ``COMMANDS`` on import."""

from __future__ import annotations

from apps.systems.bunkers.match import (  # noqa: F401 - imported for their registrations
    artifact,
    corrections,
    doors,
    flow,
    hazard,
    options,
    setup,
    units,
)
from apps.systems.bunkers.match.context import COMMANDS

__all__ = ["COMMANDS"]
