"""What the presenters share to make a form: its default values as the first variant the engine
accepts, its options with the engine's verdicts, and reading the fields of a form the page
asks a preview for (the query carries the form's fields; anything odd falls back)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from apps.systems.core.buttons import Offers
from apps.systems.core.match import Command
from apps.systems.core.match import TimelineLine as Text
from apps.systems.universalis.match.refusals import REFUSALS
from apps.systems.universalis.match.state import MatchState, Unit
from apps.systems.universalis.match.tracker.models import Choice

Args = Mapping[str, Any]


def first_accepted(offers: Offers, command: str, variants: Sequence[Args]) -> Args:
    """The first of a form's possible defaults (the most natural first) the engine accepts, or
    the first: a form opens with values the table can send as they stand."""
    for variant in variants:
        if offers.refusal(command, variant) is None:
            return variant
    return variants[0]


def choice(
    offers: Offers,
    command: str,
    value: int | str,
    label: str,
    variants: Iterable[Args],
    *,
    asked: bool = True,
) -> Choice:
    """An option of a form: refused when the engine refuses every way the form can send it
    (``variants``); not asked (``asked`` false) while the form itself is refused, whose button
    gives the reason."""
    if not asked:
        return Choice(value, label)
    refusal = offers.legality.first_refusal(Command(command, dict(v)) for v in variants)
    if refusal is None:
        return Choice(value, label)
    return Choice(value, label, refusal.code, offers.reason(refusal))


def unit_form(params: Mapping[str, str], command: str, unit: Unit) -> Mapping[str, str]:
    """The fields of ``command``'s form of ``unit`` when the page asks for its preview, else
    nothing: the form's defaults."""
    if params.get("command") == command and params.get("args.unit:int") == str(unit.id):
        return params
    return {}


def read_int(form: Mapping[str, str], key: str, default: int, lo: int, hi: int) -> int:
    try:
        value = int(form.get(key, ""))
    except ValueError:
        return default
    return min(max(value, lo), hi)


def read_flag(form: Mapping[str, str], key: str, default: bool = False) -> bool:
    """A check box: ``default`` for the form's defaults (no fields), else ticked or not."""
    if not form:
        return default
    return form.get(key, "") in ("true", "on", "1")


def read_choice(form: Mapping[str, str], key: str, choices: Sequence[str], default: str) -> str:
    value = form.get(key, default)
    return value if value in choices else default


def read_unit(state: MatchState, value: int, allowed: Sequence[int]) -> Unit | None:
    """The form's model if it is one of the form's options, else the first option's."""
    if not allowed:
        return None
    return state.units[value if value in allowed else allowed[0]]


def refused(code: str) -> tuple[Text, ...]:
    """A preview's line for a form the rules refuse: the refusal's message."""
    return (Text(REFUSALS.get(code, code)),)
