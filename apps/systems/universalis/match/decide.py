"""``decide(state, command, rng)``: the rules of a Universalis match (SPEC §3).

Each handler checks that the command is legal now and emits the events it causes; every event
is applied at once to a working copy, so a handler sees the consequences of what it emitted. A
``RuleViolation`` anywhere discards every event: an illegal command changes nothing. Every die
is rolled through ``rng`` (``context.Ctx``) and written into the events with the exact odds it
had, against the values ``values`` computes.

The app never measures the table: distances, cover, who touches whom and who perceives whom are
told by the players in the commands' arguments.

The handlers live in the modules below, by topic; each registers its commands in ``COMMANDS``
when imported. This module only dispatches a command to its handler.
"""

from __future__ import annotations

import random

from apps.systems.core.match import Args, Command, Event

# The handler modules register their commands in COMMANDS when imported.
from apps.systems.universalis.match import (  # noqa: F401
    acting,
    camouflage,
    conditions,
    damage,
    melee,
    powers,
    ranged,
    rounds,
    setup,
)
from apps.systems.universalis.match.context import COMMANDS, Ctx, refuse
from apps.systems.universalis.match.rounds import settle
from apps.systems.universalis.match.state import MatchState, Phase


def decide(state: MatchState, cmd: Command, rng: random.Random) -> list[Event]:
    if state.phase is Phase.OVER:
        raise refuse("game_over", "The game is over.")
    handler = COMMANDS.get(cmd.type)
    if handler is None:
        raise refuse("unknown_command", f"There is no command {cmd.type!r} in Universalis.")
    ctx = Ctx(state, rng)
    handler(ctx, Args(cmd.args))
    settle(ctx)
    if ctx.rolls:
        ctx.emit("rolls_shown", state={"last_rolls": tuple(ctx.rolls)})
    return ctx.events
