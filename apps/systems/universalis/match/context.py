"""The decision in progress shared by every command (``core.engine.Decision``): the working
state, the dice, the command registry and the small helpers most handlers use.

Every Universalis event is a patch of the fields it changed (``serial.apply_patch``): ``emit``
builds the patch from the new values of units, players and the match.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from apps.systems.core.distributions import fraction_text
from apps.systems.core.engine import Decision
from apps.systems.core.errors import RuleViolation
from apps.systems.core.match import Args, CommandHandlers, Event
from apps.systems.universalis.match.odds import attribute_odds, comparative_odds
from apps.systems.universalis.match.serial import APPLIERS, dump
from apps.systems.universalis.match.state import MatchState, Roll, Unit
from apps.systems.universalis.match.values import attribute_value

SIDES = 12


class Ctx(Decision[MatchState]):
    """The decision in progress: the working state, the events and the rolls so far (shown in
    the roll panel once the command is decided, ``UniversalisEngine.settle``)."""

    def __init__(self, state: MatchState, rng: random.Random, *, probe: bool = False) -> None:
        super().__init__(APPLIERS.apply, state, rng, probe=probe)
        self.rolls: list[Roll] = []

    def emit(
        self,
        event_type: str,
        *,
        units: Mapping[int, Mapping[str, Any]] | None = None,
        players: Mapping[int, Mapping[str, Any]] | None = None,
        state: Mapping[str, Any] | None = None,
        **data: Any,
    ) -> None:
        """Emit ``event_type`` with ``data`` and the patch of the fields it changes: ``units``
        (unit id → fields), ``players`` (index → fields) and ``state`` (the match's fields)."""
        patch: dict[str, Any] = {}
        if state:
            patch["state"] = {key: dump(value) for key, value in state.items()}
        if players:
            patch["players"] = {
                str(index): {k: dump(v) for k, v in fields.items()}
                for index, fields in players.items()
            }
        if units:
            patch["units"] = {
                str(uid): {k: dump(v) for k, v in fields.items()} for uid, fields in units.items()
            }
        self.record(Event(event_type, {**data, "patch": patch}))

    def unit(self, unit_id: int) -> Unit:
        return self.state.unit(unit_id)

    # --- Dice --------------------------------------------------------------------------------

    def d12(self) -> int:
        return self.rng.randint(1, SIDES)

    def attribute_roll(self, label: str, target: int, /, **params: str | int) -> tuple[bool, Roll]:
        """1d12 ≤ target; a target of 0 or less fails without rolling (4.8.1)."""
        dice: tuple[int, ...] = ()
        success = False
        if target > 0:
            face = self.d12()
            dice, success = (face,), face <= target
        roll = Roll(
            label=label,
            dice=dice,
            outcome="success" if success else "failure",
            odds=fraction_text(attribute_odds(target)),
            params=tuple(params.items()),
            target=target,
        )
        self.rolls.append(roll)
        return success, roll

    def comparative(self, label: str, a: int, b: int, /, **params: str | int) -> tuple[str, Roll]:
        """1d12 + a against 1d12 + b (4.8.2): "win", "tie" or "loss" from A's side."""
        fa, fb = self.d12(), self.d12()
        outcome = "win" if fa + a > fb + b else "tie" if fa + a == fb + b else "loss"
        odds = comparative_odds(a, b)
        roll = Roll(
            label=label,
            dice=(fa, fb),
            outcome=outcome,
            odds=fraction_text(odds.win),
            params=tuple(params.items()),
            totals=(fa + a, fb + b),
            tie_odds=fraction_text(odds.tie),
        )
        self.rolls.append(roll)
        return outcome, roll

    def plain(self, label: str, sides: int, /, **params: str | int) -> tuple[int, Roll]:
        """A die read as a number (hit zone, direction, scatter, d6 moves, random pick)."""
        face = self.rng.randint(1, sides)
        roll = Roll(
            label=label,
            dice=(face,),
            outcome=str(face),
            odds=fraction_text(Fraction(1, sides)),
            params=tuple(params.items()),
        )
        self.rolls.append(roll)
        return face, roll

    def banded(self, label: str, band: Callable[[int], str], /, **params: str | int) -> Roll:
        """A d12 read for the outcome ``band`` gives its face (hit zone, burning, a destroyed
        movement zone): the roll shows that outcome and the chance of it, not of the face."""
        face = self.d12()
        outcome = band(face)
        chance = Fraction(sum(1 for f in range(1, SIDES + 1) if band(f) == outcome), SIDES)
        roll = Roll(
            label=label,
            dice=(face,),
            outcome=outcome,
            odds=fraction_text(chance),
            params=tuple(params.items()),
        )
        self.rolls.append(roll)
        return roll


COMMANDS: CommandHandlers[Ctx] = CommandHandlers()
command = COMMANDS.command


def refuse(code: str, message: str) -> RuleViolation:
    return RuleViolation(code, message)


def roll_data(roll: Roll) -> Any:
    return dump(roll)


def player_arg(ctx: Ctx, args: Args) -> int:
    return ctx.state.player(args.integer("player", lo=0, hi=9)).index


def decided_roll(ctx: Ctx, unit: Unit, label: str) -> Roll:
    """A tie decided without a die (the higher value wins), shown in the roll panel."""
    roll = Roll(label=label, dice=(), outcome="win", odds="1/1", params=(("unit", unit.name),))
    ctx.rolls.append(roll)
    return roll


def eh_test(ctx: Ctx, unit: Unit, label: str, modifier: int = 0) -> tuple[bool, Roll]:
    return ctx.attribute_roll(
        label, attribute_value(ctx.state, unit, "eh", modifier), unit=unit.name
    )
