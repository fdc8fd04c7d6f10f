"""Every Stahlgewitter command handler and event applier, registered on import by its topic
module (``context``'s registries): a new topic joins by being imported here."""

from __future__ import annotations

from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import CommandSpec
from apps.systems.stahlgewitter.match import (  # noqa: F401 - imported for their registrations
    attacks,
    care,
    damage,
    fleeing,
    markers,
    movement,
    panic,
    rounds,
    setup,
    surrender,
    victory,
)
from apps.systems.stahlgewitter.match.context import (
    APPLIERS,
    COMMANDS,
    REFUSAL_DETAILS,
    REFUSALS,
    SPECS,
)

COMMAND_SPECS = (*SPECS, CommandSpec("undo", _("Undo the last command that is not undone yet.")))

__all__ = ["APPLIERS", "COMMANDS", "COMMAND_SPECS", "REFUSALS", "REFUSAL_DETAILS"]
