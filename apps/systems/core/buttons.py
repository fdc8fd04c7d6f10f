"""Command buttons as a tracker's view model offers them to the generic template
``matches/_command.html``: the command, its label and hidden argument fields, and, when the
engine refuses it now, the refusal's code and reason.

A presenter never decides whether a button is enabled: it makes its buttons through ``Offers``,
which asks the engine (``Legality``) about the very command the button sends.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import urlencode

from apps.systems.core.i18n import gettext_noop
from apps.systems.core.legality import Legality, Refusal
from apps.systems.core.match import Command
from apps.systems.core.match import TimelineLine as Text

# Shown for a refusal code the system has no message for (a test keeps that from happening).
UNEXPLAINED: Final = gettext_noop("That is not possible now.")
WIZARD_PREFIX: Final = "wizard:"
ArgValue = int | str | bool | None


@dataclass(frozen=True)
class Field:
    """A hidden form field of a command: ``name`` is "args.<path>[:int|:bool]"."""

    name: str
    value: str


@dataclass(frozen=True)
class NumberInput:
    """A number the person types in before sending the command (``name`` as ``Field.name``;
    ``label`` gettext_noop-marked)."""

    name: str
    label: str
    value: int
    minimum: int
    maximum: int

    @property
    def arg(self) -> str:
        return self.name.removeprefix("args.").split(":")[0]


@dataclass(frozen=True)
class Button:
    """A command button, or (``command`` "wizard:<kind>") a link that opens a choice screen.
    ``code`` and ``reason`` say why the engine refuses it now (empty: it is enabled)."""

    command: str
    label: Text
    fields: tuple[Field, ...] = ()
    code: str = ""
    reason: str = ""
    style: str = "secondary"
    cost: str = ""
    odds: tuple[Text, ...] = ()
    inputs: tuple[NumberInput, ...] = ()
    # The command the button sends as the engine was asked about it (a wizard: none).
    sends: Command | None = None
    # A secret step that more steps of the same seat follow (Stahlgewitter: the next marker to
    # assign): the page the command answers with stays on that seat's secret view.
    keeps_secret_view: bool = False

    @property
    def enabled(self) -> bool:
        return not self.code

    @property
    def is_wizard(self) -> bool:
        return self.command.startswith(WIZARD_PREFIX)

    @property
    def wizard_query(self) -> str:
        return urlencode(self.wizard_params)

    @property
    def wizard_params(self) -> dict[str, str]:
        """The query of the screen a wizard button opens."""
        params = {"wizard": self.command.removeprefix(WIZARD_PREFIX)}
        for field_ in self.fields:
            params[field_.name.removeprefix("args.").split(":")[0]] = field_.value
        return params


def hidden_fields(args: Mapping[str, ArgValue]) -> tuple[Field, ...]:
    """``args`` as typed hidden fields; an argument that is ``None`` is left out."""
    fields = []
    for key, value in args.items():
        if value is None:
            continue
        if isinstance(value, bool):
            fields.append(Field(f"args.{key}:bool", "true" if value else "false"))
        elif isinstance(value, int):
            fields.append(Field(f"args.{key}:int", str(value)))
        else:
            fields.append(Field(f"args.{key}", value))
    return tuple(fields)


def sent_args(
    args: Mapping[str, Any] | None,
    inputs: Iterable[NumberInput] = (),
    form: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The arguments a button's form sends: its own (``None`` left out), the numbers typed
    into its inputs and the values of its other fields (``form``), as they stand."""
    sent = {key: value for key, value in (args or {}).items() if value is not None}
    for number in inputs:
        sent[number.arg] = number.value
    sent.update(form or {})
    return sent


class Offers:
    """Makes a screen's buttons with the engine's verdict on each: enabled, or disabled with the
    refusal's code and its message in ``messages`` (the system's gettext_noop-marked texts by
    refusal code)."""

    def __init__(self, legality: Legality, messages: Mapping[str, str]) -> None:
        self.legality = legality
        self.messages = messages

    def reason(self, refusal: Refusal | None) -> str:
        if refusal is None:
            return ""
        return self.messages.get(refusal.code, UNEXPLAINED)

    def refusal(self, command: str, args: Mapping[str, Any] | None = None) -> Refusal | None:
        return self.legality.refusal(Command(command, sent_args(args)))

    def command(
        self,
        command: str,
        label: str,
        *,
        params: Mapping[str, str | int] | None = None,
        args: Mapping[str, ArgValue] | None = None,
        style: str = "secondary",
        cost: str = "",
        translate: tuple[str, ...] = (),
        odds_lines: tuple[Text, ...] = (),
        inputs: tuple[NumberInput, ...] = (),
        form: Mapping[str, Any] | None = None,
        keeps_secret_view: bool = False,
    ) -> Button:
        """A button sending ``command`` with ``args`` as hidden fields, the numbers of its
        ``inputs`` and the values its form's other fields send by default (``form``: radio
        buttons, check boxes); ``odds_lines`` are the exact chances shown while it is
        enabled; ``keeps_secret_view``: see ``Button``."""
        sends = Command(command, sent_args(args, inputs, form))
        refusal = self.legality.refusal(sends)
        return Button(
            command=command,
            label=Text(label, params or {}, translate),
            fields=hidden_fields(args or {}),
            code=refusal.code if refusal else "",
            reason=self.reason(refusal),
            style=style,
            cost=cost,
            odds=odds_lines if refusal is None else (),
            inputs=inputs,
            sends=sends,
            keeps_secret_view=keeps_secret_view,
        )

    def wizard(
        self,
        kind: str,
        label: str,
        *,
        choices: Iterable[Command],
        params: Mapping[str, str | int] | None = None,
        args: Mapping[str, ArgValue] | None = None,
        style: str = "secondary",
        cost: str = "",
        translate: tuple[str, ...] = (),
    ) -> Button:
        """A link opening the choice screen ``kind``: enabled when the engine accepts one of
        the commands it can send (``choices``), else disabled with the first one's refusal."""
        refusal = self.legality.first_refusal(choices)
        return Button(
            command=f"{WIZARD_PREFIX}{kind}",
            label=Text(label, params or {}, translate),
            fields=hidden_fields(args or {}),
            code=refusal.code if refusal else "",
            reason=self.reason(refusal),
            style=style,
            cost=cost,
        )
