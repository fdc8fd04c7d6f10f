"""Command buttons as a tracker's view model offers them to the generic template
``matches/_command.html``: the command, its label and hidden argument fields, and, when a rule
forbids it now, the reason it is disabled."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlencode

from apps.systems.core.match import TimelineLine as Text


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


@dataclass(frozen=True)
class Button:
    """A command button, or (``command`` "wizard:<kind>") a link that opens a wizard."""

    command: str
    label: Text
    fields: tuple[Field, ...] = ()
    enabled: bool = True
    reason: str = ""
    style: str = "secondary"
    cost: str = ""
    odds: tuple[Text, ...] = ()
    inputs: tuple[NumberInput, ...] = ()

    @property
    def is_wizard(self) -> bool:
        return self.command.startswith("wizard:")

    @property
    def uid(self) -> str:
        """Unique among the page's buttons: names its form's idempotency key and reason."""
        values = "-".join(field_.value for field_ in self.fields)
        return f"{self.command.replace(':', '-')}-{values}"

    @property
    def wizard_query(self) -> str:
        params = {"wizard": self.command.removeprefix("wizard:")}
        for field_ in self.fields:
            params[field_.name.removeprefix("args.").split(":")[0]] = field_.value
        return urlencode(params)


def button(
    command: str,
    label: str,
    *,
    params: Mapping[str, str | int] | None = None,
    args: Mapping[str, int | str | bool | None] | None = None,
    reason: str = "",
    style: str = "secondary",
    cost: str = "",
    translate: tuple[str, ...] = (),
    odds_lines: tuple[Text, ...] = (),
    inputs: tuple[NumberInput, ...] = (),
) -> Button:
    """A button sending ``command`` with ``args`` as typed hidden fields (an argument that is
    ``None`` is left out); a ``reason`` (a gettext_noop-marked sentence) disables it and is
    shown beside it; ``odds_lines`` are the exact chances shown with it; ``inputs`` are numbers
    typed in with it."""
    fields = []
    for key, value in (args or {}).items():
        if value is None:
            continue
        if isinstance(value, bool):
            fields.append(Field(f"args.{key}:bool", "true" if value else "false"))
        elif isinstance(value, int):
            fields.append(Field(f"args.{key}:int", str(value)))
        else:
            fields.append(Field(f"args.{key}", value))
    return Button(
        command=command,
        label=Text(label, params or {}, translate),
        fields=tuple(fields),
        enabled=not reason,
        reason=reason,
        style=style,
        cost=cost,
        odds=odds_lines,
        inputs=inputs,
    )
