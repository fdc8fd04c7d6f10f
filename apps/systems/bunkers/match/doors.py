"""Doors and laser barriers: open and close (not when sealed or destroyed), wounds (a door that
lost a wound is sealed, at 0 it is destroyed; an open door sealed so stays open), booby traps,
sentry guns and barricades."""

from __future__ import annotations

from apps.systems.bunkers.match.context import Ctx, command, refuse, require_phase
from apps.systems.bunkers.match.state import Door
from apps.systems.bunkers.match.tables import DoorState, Phase
from apps.systems.core.dice import roll_die
from apps.systems.core.match import Args

# Doors are shot at in the shooting phase and attacked in the fight phase.
DAMAGE_PHASES = (Phase.SHOOTING, Phase.FIGHT)


def switch_refusal(door: Door, wanted: DoorState) -> str:
    """Why ``door`` cannot be opened or closed ("" = it can)."""
    if door.sealed:
        return "door_sealed"
    if door.state is DoorState.DESTROYED:
        return "door_destroyed"
    if door.state is wanted:
        return "door_already"
    return ""


def open_or_close(ctx: Ctx, door_id: int, *, by: str, wanted: DoorState | None = None) -> None:
    """Open a closed door or close an open one; opening a trapped door sets off the trap
    ("die Einheit erleidet W3 tödliche Wunden. Die Tür ist danach automatisch zerstört")."""
    door = ctx.state.door(door_id)
    target = wanted or (DoorState.CLOSED if door.state is DoorState.OPEN else DoorState.OPEN)
    code = switch_refusal(door, target)
    if code:
        refuse(code, "The door cannot be opened or closed now.")
    if target is DoorState.OPEN and door.trapped:
        d6 = roll_die(ctx.rng, 6)
        ctx.emit("trap_triggered", door=door.id, die=d6, mortal_wounds=(d6 + 1) // 2)
        return
    ctx.emit("door_changed", door=door.id, state=target.value, by=by)


@command("open_door")
def _open_door(ctx: Ctx, args: Args) -> None:
    """A unit in contact opens an intact, unsealed door during the movement phase."""
    require_phase(ctx.state, Phase.MOVEMENT)
    open_or_close(ctx, args.integer("door", lo=0, hi=99), by="unit", wanted=DoorState.OPEN)


@command("close_door")
def _close_door(ctx: Ctx, args: Args) -> None:
    require_phase(ctx.state, Phase.MOVEMENT)
    open_or_close(ctx, args.integer("door", lo=0, hi=99), by="unit", wanted=DoorState.CLOSED)


@command("damage_door")
def _damage_door(ctx: Ctx, args: Args) -> None:
    """Wounds a door lost (after its T8 and 3+ save): sealed from the first, destroyed at 0;
    a trapped door attacked in melee sets off the trap. "Allerdings gilt die Tür ab sofort als
    versiegelt, wenn sie mindestens 1 Lebenspunkt verloren hat": sealed, not shut, so an open
    door stays open (``sealed_open``) and can no longer be closed."""
    require_phase(ctx.state, *DAMAGE_PHASES)
    door = ctx.state.door(args.integer("door", lo=0, hi=99))
    wounds = args.integer("wounds", 1, lo=1, hi=20)
    if door.kind != "door":
        refuse("not_a_door", "Laser barriers have no wounds.")
    if door.state is DoorState.DESTROYED:
        refuse("door_destroyed", "The door is destroyed.")
    if door.trapped and ctx.state.phase is Phase.FIGHT:
        d6 = roll_die(ctx.rng, 6)
        ctx.emit("trap_triggered", door=door.id, die=d6, mortal_wounds=(d6 + 1) // 2)
        return
    left = max(door.wounds - wounds, 0)
    sealed = DoorState.SEALED_OPEN if door.is_open else DoorState.SEALED
    state = DoorState.DESTROYED if left == 0 else sealed
    ctx.emit("door_damaged", door=door.id, wounds=wounds, left=left, state=state.value)


@command("damage_piece")
def _damage_piece(ctx: Ctx, args: Args) -> None:
    """A sentry gun lost wounds (W2): removed at 0."""
    require_phase(ctx.state, *DAMAGE_PHASES)
    piece = ctx.state.piece(args.integer("piece", lo=0, hi=999))
    if piece.kind != "sentry":
        refuse("no_wounds", "Only a sentry gun has wounds: remove a barricade instead.")
    wounds = args.integer("wounds", 1, lo=1, hi=20)
    ctx.emit("piece_damaged", piece=piece.id, wounds=wounds, left=max(piece.wounds - wounds, 0))


@command("remove_piece")
def _remove_piece(ctx: Ctx, args: Args) -> None:
    if ctx.state.result is not None:
        refuse("game_over", "The game is over.")
    piece = ctx.state.piece(args.integer("piece", lo=0, hi=999))
    ctx.emit("piece_removed", piece=piece.id)
