"""The target choice of an action with a target (an attack, a push, a pursuit, an item handed
over), for a model's action or, while an action is declared, its reaction: every model it may
be aimed at with the exact odds of the attack on it, each button the declaration as the engine
judges it.

The page's query drives it: ``wizard`` names the action, ``mod`` the attack dice modifier and
``dice`` the attack dice a model without a melee weapon on its card rolls."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final
from urllib.parse import urlencode

from apps.systems.core.buttons import Offers
from apps.systems.core.match import TimelineLine as Text
from apps.systems.grundregeln.match.rules import MAX_ATTACK_DICE, MAX_MODIFIER
from apps.systems.grundregeln.match.state import MatchState, Model
from apps.systems.grundregeln.match.tracker.actions import (
    DEFAULT_NAMED_DICE,
    NOT_A_TARGET,
    candidates,
    command_of,
    declare_args,
    named_dice,
    target_wizard,
)
from apps.systems.grundregeln.match.tracker.chances import attack_lines, push_lines
from apps.systems.grundregeln.match.tracker.models import TargetChoice, Wizard
from apps.systems.grundregeln.match.tracker.sides import model_view
from apps.systems.grundregeln.tables import ACTION_BY_KEY, Action, Effect

# The modifiers the page offers as links (the engine takes up to ±MAX_MODIFIER).
MODIFIERS: Final = range(-2, 3)


def number(params: Mapping[str, str], name: str, default: int, lo: int, hi: int) -> int:
    """A number from the page's query, clamped; anything else is the default."""
    value = str(params.get(name, ""))
    digits = value.removeprefix("-")
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 3):
        return default
    return max(lo, min(hi, int(value)))


def _lines(
    model: Model, target: Model, action: Action, modifier: int, named: int | None
) -> tuple[Text, ...]:
    if action.effect is Effect.ATTACK:
        return attack_lines(model, target, action, modifier, named)
    if action.effect is Effect.PUSH:
        return push_lines()
    return ()


def _targets(
    state: MatchState,
    model: Model,
    action: Action,
    modifier: int,
    named: int | None,
    offers: Offers,
) -> tuple[TargetChoice, ...]:
    choices = []
    for target in candidates(state, model):
        button = offers.command(
            command_of(state),
            "%(name)s",
            params={"name": target.name},
            args=declare_args(model, action, target.id, modifier, named),
            style="target",
            odds_lines=_lines(model, target, action, modifier, named),
        )
        if button.code in NOT_A_TARGET:
            continue  # a friend for an attack, a foe for an item: not offered at all
        choices.append(TargetChoice(model_view(state, target, model.id, offers), button))
    return tuple(choices)


def _modifier_links(
    model: Model, key: str, modifier: int, named: int | None
) -> tuple[tuple[int, str, bool], ...]:
    return tuple(
        (
            value,
            urlencode(
                {"wizard": key, "unit": model.id, "mod": value}
                | ({"dice": named} if named is not None else {})
            ),
            value == modifier,
        )
        for value in MODIFIERS
    )


def wizard(
    state: MatchState, model: Model, params: Mapping[str, str], offers: Offers
) -> Wizard | None:
    """The target choice the query asks for, while the link to it is enabled."""
    action = ACTION_BY_KEY.get(str(params.get("wizard", "")))
    if action is None or not action.target:
        return None
    opener = target_wizard(state, model, action, offers)
    if opener is None or not opener.enabled:
        return None
    modifier = number(params, "mod", 0, -MAX_MODIFIER, MAX_MODIFIER)
    dice = number(params, "dice", DEFAULT_NAMED_DICE, 1, MAX_ATTACK_DICE)
    named = named_dice(model, action, dice)
    return Wizard(
        action=action.key,
        label=action.label,
        attacker=model_view(state, model, model.id, offers),
        modifier=modifier,
        modifiers=_modifier_links(model, action.key, modifier, named),
        attack=action.effect is Effect.ATTACK,
        targets=_targets(state, model, action, modifier, named, offers),
        dice=named,
        reaction=state.pending is not None,
    )
