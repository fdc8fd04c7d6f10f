"""The engine's verdicts on commands: a ``Refusal`` (why not), an ``Option`` (a command with its
verdict) and ``Legality``, which asks the engine about each command of one state once."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from apps.systems.core.errors import RuleViolation
from apps.systems.core.match import Command


@dataclass(frozen=True)
class Refusal:
    """Why a command is not accepted now: the engine's stable ``code`` and English message."""

    code: str
    message: str

    @classmethod
    def of(cls, error: RuleViolation) -> Refusal:
        return cls(error.code, error.message)


@dataclass(frozen=True)
class Option:
    """A command a screen offers, with the engine's verdict on it (``None``: accepted)."""

    command: Command
    refusal: Refusal | None

    @property
    def legal(self) -> bool:
        return self.refusal is None


def command_key(command: Command) -> str:
    """One text per distinct command (type and arguments), for memoising verdicts."""
    return json.dumps([command.type, command.args], sort_keys=True, default=str)


class Legality:
    """The engine's verdicts on the commands of one state, each command decided once: what a
    tracker screen asks before it shows a button enabled or disabled with the reason."""

    def __init__(self, check: Callable[[Command], Refusal | None]) -> None:
        self._check = check
        self._verdicts: dict[str, Option] = {}

    def refusal(self, command: Command) -> Refusal | None:
        key = command_key(command)
        if key not in self._verdicts:
            self._verdicts[key] = Option(command, self._check(command))
        return self._verdicts[key].refusal

    def first_refusal(self, commands: Iterable[Command]) -> Refusal | None:
        """``None`` when any of ``commands`` is legal, else the refusal of the first one (a
        screen that opens a choice, such as the attack wizard, is enabled when some choice in
        it is); no commands at all is ``nothing_to_choose``."""
        first: Refusal | None = None
        for command in commands:
            refusal = self.refusal(command)
            if refusal is None:
                return None
            first = first or refusal
        return first or Refusal("nothing_to_choose", "There is nothing to choose from.")

    def options(self) -> tuple[Option, ...]:
        """Every command asked about so far with its verdict, in the order first asked."""
        return tuple(self._verdicts.values())
