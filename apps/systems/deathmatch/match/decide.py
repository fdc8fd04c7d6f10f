"""``decide(state, command, rng)``: the rules of a Deathmatch match (SPEC §1.3-1.8).

Each command handler checks that the command is legal now and emits the events it causes;
every emitted event is applied at once to a working copy of the state, so a handler always sees
the consequences of what it emitted. A ``RuleViolation`` anywhere discards every event: an
illegal command changes nothing.

Flips wait for their player when a reroll is possible (1 CP per card, at most 3 per flip, each
card once, a 0 never) and the command asked to confirm flips; ``reroll`` and ``accept`` then
continue the procedure where it stopped.
"""

from __future__ import annotations

import random

from apps.systems.core.match import Args, Command, Event

# The handler modules register their commands in COMMANDS when imported.
from apps.systems.deathmatch.match import (  # noqa: F401
    actions,
    attacks,
    corrections,
    objectives,
    outcomes,
    rounds,
    setup,
)
from apps.systems.deathmatch.match.context import COMMANDS, Ctx, refuse
from apps.systems.deathmatch.match.state import MatchState, Phase


def decide(state: MatchState, cmd: Command, rng: random.Random) -> list[Event]:
    if state.phase is Phase.OVER:
        raise refuse("game_over", "The game is over.")
    handler = COMMANDS.get(cmd.type)
    if handler is None:
        raise refuse("unknown_command", f"There is no command {cmd.type!r} in Deathmatch.")
    ctx = Ctx(state, rng)
    args = Args(cmd.args)
    if state.open_free_flip is not None and not _rerolls_free_flip(cmd, args):
        ctx.emit("free_flip_closed")
    handler(ctx, args)
    rounds.settle(ctx)
    return ctx.events


def _rerolls_free_flip(cmd: Command, args: Args) -> bool:
    return cmd.type == "reroll" and args.optional_int("player", lo=0, hi=3) is not None
