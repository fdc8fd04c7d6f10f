"""Hidden units during the battle ("Aufbau der Einheiten"): a unit acts as its numbered marker
until it is revealed, "es sei denn 1. eine Spielmarke gelangt in die Sichtlinie ... 2. die
Einheit ... will Feuern oder einen Nahkampf einleiten, 3. die Spielmarke wird mit einer
Schablonenwaffe ... angegriffen", or its player sets the unit up ("Ein Spieler kann jederzeit
entscheiden, statt einer Spielmarke die von ihr repräsentierte Einheit aufzubauen"). A decoy
marker is taken off the table when it is revealed."""

from __future__ import annotations

from typing import Any

from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import Args, ArgSpec, CommandSpec
from apps.systems.stahlgewitter.match.context import (
    Ctx,
    command,
    event,
    refusals,
    refuse,
    require_battle,
    specs,
)
from apps.systems.stahlgewitter.match.state import MatchState

Data = Any
REASONS = ("seen", "template", "choice")
MARKER_MOVE_CM = 9  # "Spielmarken bewegen sich, wenn sie aktiviert werden, stets mit ... 9 cm"

specs(
    CommandSpec(
        "reveal_marker",
        _(
            "Reveal a marker: it came into an enemy's line of sight (seen), a template weapon "
            "attacks it (template), or its player sets the unit up (choice). A decoy is removed."
        ),
        (
            ArgSpec("player", "int", help=_("The marker's owner (0 or 1).")),
            ArgSpec("marker", "int", help=_("The marker's number.")),
            ArgSpec("reason", "str", help=_("seen, template or choice")),
        ),
    ),
)
refusals(
    {
        "marker_not_placed": _("That marker is not on the table."),
        "marker_revealed": _("That marker is revealed already."),
    }
)


@command("reveal_marker")
def _reveal_marker(ctx: Ctx, args: Args) -> None:
    state = ctx.state
    require_battle(state)
    player = args.integer("player", lo=0, hi=1)
    marker = state.marker(player, args.integer("marker", lo=1, hi=99))
    reason = args.text("reason", choices=REASONS)
    if not marker.placed:
        refuse("marker_not_placed", "That marker is not on the table.")
    if marker.revealed or marker.removed:
        refuse("marker_revealed", "That marker is revealed already.")
    ctx.emit(
        "marker_revealed", player=player, marker=marker.number, unit=marker.unit, reason=reason
    )


def reveal(ctx: Ctx, unit_id: int, reason: str) -> None:
    """A hidden unit shows itself: it fires, fights or is charged at."""
    state = ctx.state
    unit = state.units[unit_id]
    marker = state.marker_of(unit_id)
    if unit.revealed or marker is None:
        return
    ctx.emit(
        "marker_revealed", player=unit.player, marker=marker.number, unit=unit_id, reason=reason
    )


@event("marker_revealed")
def _marker_revealed(state: MatchState, data: Data) -> MatchState:
    unit = data["unit"]
    state = state.with_marker(data["player"], data["marker"], revealed=True, removed=unit is None)
    if unit is not None:
        state = state.with_unit(unit, revealed=True)
    return state
