"""Every Grundregeln command handler, registered in ``COMMANDS`` as its module is imported."""

from __future__ import annotations

from apps.systems.grundregeln.match import (  # noqa: F401 - imported for their registrations
    actions,
    corrections,
    rounds,
)
from apps.systems.grundregeln.match.context import COMMANDS

__all__ = ["COMMANDS"]
