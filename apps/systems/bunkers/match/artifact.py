"""Sichert das Artefakt: numbered markers revealed one by one, the hidden artifact found,
carried, handed over at the end of movement, dropped when its carrier dies, taken from the
opponent."""

from __future__ import annotations

from apps.systems.bunkers.match.context import (
    Ctx,
    command,
    refuse,
    require_battle,
    require_phase,
    require_scored,
)
from apps.systems.bunkers.match.tables import (
    VP_CAPTURED,
    VP_FOUND,
    VP_REVEALED,
    Mission,
    Phase,
)
from apps.systems.bunkers.match.units import own_unit_on_table
from apps.systems.core.match import Args


def _require_artifact_mission(ctx: Ctx) -> None:
    if ctx.state.mission != Mission.ARTEFAKT:
        refuse("no_artifact", "Only Sichert das Artefakt has an artifact.")


@command("reveal_marker")
def _reveal_marker(ctx: Ctx, args: Args) -> None:
    """The player whose turn it is turns a numbered marker over: 1 VP, and 2 VP more when the
    artifact is under it."""
    state = ctx.state
    _require_artifact_mission(ctx)
    require_battle(state)
    require_scored(state)
    number = args.integer("marker", lo=1, hi=len(state.markers))
    if state.markers[number - 1].revealed:
        refuse("marker_revealed", "That marker is revealed already.")
    assert state.active is not None
    found = state.artifact == number
    ctx.emit("marker_revealed", marker=number, player=state.active, artifact=found)
    ctx.vp(state.active, VP_REVEALED, "revealed", str(number))
    if found:
        ctx.vp(state.active, VP_FOUND, "found", str(number))


@command("pick_up")
def _pick_up(ctx: Ctx, args: Args) -> None:
    """A unit moves into contact with the artifact and picks it up (3 VP when the opponent
    carried it last: "Für das Erobern des Artefaktes vom Gegner")."""
    state = ctx.state
    _require_artifact_mission(ctx)
    require_phase(state, Phase.MOVEMENT)
    if not state.artifact_found:
        refuse("artifact_hidden", "The artifact has not been found yet.")
    if state.carrier is not None:
        refuse("artifact_carried", "A unit carries the artifact already.")
    assert state.active is not None
    unit = own_unit_on_table(state, args.integer("unit", lo=0, hi=999), state.active)
    captured = state.last_carrier_player == state.other(unit.player)
    ctx.emit("artifact_picked_up", unit=unit.id, player=unit.player, captured=captured)
    if captured:
        ctx.vp(unit.player, VP_CAPTURED, "captured")


@command("hand_over")
def _hand_over(ctx: Ctx, args: Args) -> None:
    """At the end of its movement the carrier hands the artifact to a model in contact."""
    state = ctx.state
    _require_artifact_mission(ctx)
    require_phase(state, Phase.MOVEMENT)
    if state.carrier is None:
        refuse("no_carrier", "Nobody carries the artifact.")
    carrier = state.units[state.carrier]
    if state.active != carrier.player:
        refuse("not_your_turn", "It is not this player's turn.")
    to = own_unit_on_table(state, args.integer("to", lo=0, hi=999), carrier.player)
    if to.id == carrier.id:
        refuse("same_unit", "The unit carries it already.")
    ctx.emit("artifact_handed_over", unit=carrier.id, to=to.id)


@command("drop")
def _drop(ctx: Ctx, args: Args) -> None:
    """The carrier model was killed: the artifact lies where it fell."""
    state = ctx.state
    _require_artifact_mission(ctx)
    require_battle(state)
    if state.carrier is None:
        refuse("no_carrier", "Nobody carries the artifact.")
    ctx.emit("artifact_dropped", unit=state.carrier)
