"""The selected model's panel: its one action (or, while an action is declared, its reaction),
its morale test when it flees, and its corrections by hand. Which buttons a model shows follows
its card and the situation (no reload button without an unloaded weapon, no Lösen out of
melee); whether each is enabled, and why not, is the engine's verdict on the command it sends.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Final

from apps.systems.core.buttons import Button, NumberInput, Offers, sent_args
from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import Command
from apps.systems.core.match import TimelineLine as Text
from apps.systems.grundregeln.match.rules import (
    MAX_FALL,
    NPC_ACTION,
    NPC_ACTIONS,
    has_weapon,
    needs_dice,
    reload_speed,
    unloaded_weapon,
)
from apps.systems.grundregeln.match.state import MatchState, Model, Phase
from apps.systems.grundregeln.match.tracker.chances import morale_lines
from apps.systems.grundregeln.match.tracker.labels import MOVE_COSTS, TYPE_LABELS
from apps.systems.grundregeln.match.tracker.models import ButtonGroup, Selection
from apps.systems.grundregeln.match.tracker.sides import may_react, model_view
from apps.systems.grundregeln.tables import (
    ACTION_BY_KEY,
    ACTIONS,
    FLEEING_ACTIONS,
    Action,
    Effect,
)

# A model without a weapon of the attack's kind: the table names its attack dice (SPEC §2).
DEFAULT_NAMED_DICE: Final = 1
# Refusals that only say "not this model": the target choice leaves such models out.
NOT_A_TARGET: Final = frozenset({"not_an_enemy", "not_a_friend", "npc_passive", "invalid_target"})
# An action the engine refuses for every model it could be aimed at, for a reason of the
# target's (nobody fleeing to pursue, every enemy in a melee): its button would only be noise.
NOBODY_TO_AIM_AT: Final = NOT_A_TARGET | {
    "target_not_fleeing",
    "target_in_melee",
    "nothing_to_choose",
}
FIGHT_ACTIONS: Final = frozenset({"strike", "shoot", "charge", "walk_and_shoot", "push", "block"})
MOVE_ACTIONS: Final = frozenset(
    {"orient", "walk", "disengage", "march", "sprint", "flee", "pursue", "climb", "squeeze"}
)
REACTIONS: Final = tuple(a.key for a in ACTIONS if a.reaction)


def cost_of(action: Action) -> str:
    return MOVE_COSTS.get(action.key, TYPE_LABELS[action.type])


def candidates(state: MatchState, model: Model) -> list[Model]:
    """The models an action may name: every other one on the table (the engine refuses the
    ones this action cannot be aimed at); a reaction's list starts with the acting model."""
    actor = state.pending.action.unit if state.pending is not None else None
    others = [m for m in state.models if not m.out and m.id != model.id]
    return sorted(others, key=lambda m: m.id != actor)


def command_of(state: MatchState) -> str:
    """What a model's buttons send: its action, or while an action is declared its reaction
    (any simple action, aimed at any model it may name, l. 65)."""
    return "declare" if state.pending is None else "react"


def declare_args(
    model: Model, action: Action, target: int, modifier: int = 0, named: int | None = None
) -> dict[str, int | str | None]:
    """The declaration of ``action`` aimed at ``target`` as a target button sends it."""
    return {
        "unit": model.id,
        "action": action.key,
        "target": target,
        "modifier": modifier or None,
        "dice": named,
    }


def named_dice(model: Model, action: Action, dice: int = DEFAULT_NAMED_DICE) -> int | None:
    return dice if needs_dice(model, action) else None


def target_wizard(state: MatchState, model: Model, action: Action, offers: Offers) -> Button | None:
    """The link to the target choice of ``action``, enabled when the engine accepts it aimed
    at some model; none when every model is refused as a target."""
    named = named_dice(model, action)
    choices = [
        Command(command_of(state), sent_args(declare_args(model, action, target.id, named=named)))
        for target in candidates(state, model)
    ]
    button = offers.wizard(
        action.key, action.label, choices=choices, args={"unit": model.id}, cost=cost_of(action)
    )
    return None if button.code in NOBODY_TO_AIM_AT else button


@dataclass(frozen=True)
class _Acting:
    """A model's buttons being made: for its action, or (while an action is declared) for its
    reaction."""

    state: MatchState
    model: Model
    offers: Offers

    @property
    def command(self) -> str:
        return command_of(self.state)

    def args(self, action: Action, **more: int) -> dict[str, int | str | None]:
        return {"unit": self.model.id, "action": action.key, **more}


def _switches(acting: _Acting, action: Action) -> list[Button]:
    return [
        acting.offers.command(
            acting.command,
            _("Waffe wechseln: %(weapon)s"),
            params={"weapon": weapon.name},
            args=acting.args(action, weapon=index),
            cost=cost_of(action),
        )
        for index, weapon in enumerate(acting.model.weapons)
        if index != acting.model.ready_weapon
    ]


def _reloads(acting: _Acting, action: Action) -> list[Button]:
    weapon = unloaded_weapon(acting.model, reload_speed(action))
    if weapon is None:
        return []
    return [
        acting.offers.command(
            acting.command,
            action.label,
            args=acting.args(action, weapon=weapon),
            cost=cost_of(action),
        )
    ]


def _pointless(model: Model, action: Action) -> bool:
    """An action the model's situation or card rules out at a glance."""
    return (
        (action.effect is Effect.RESTORE_MORALE and not model.fleeing)
        or (action.key == "disengage" and not model.engaged)
        or (action.weapon == "ranged" and not has_weapon(model, "ranged"))
    )


def _plain(acting: _Acting, action: Action) -> list[Button]:
    """An action with a target opens its target choice; any other is one button."""
    if _pointless(acting.model, action):
        return []
    if action.target:
        wizard = target_wizard(acting.state, acting.model, action, acting.offers)
        return [wizard] if wizard is not None else []
    return [
        acting.offers.command(
            acting.command, action.label, args=acting.args(action), cost=cost_of(action)
        )
    ]


MAKERS: Final[Mapping[Effect, Callable[[_Acting, Action], list[Button]]]] = {
    Effect.SWITCH_WEAPON: _switches,
    Effect.RELOAD: _reloads,
}


def _npc_action(acting: _Acting) -> Button:
    return acting.offers.command(
        acting.command,
        _("NPC-Aktion (scenario action)"),
        args={"unit": acting.model.id, "action": NPC_ACTION},
        cost=_("per the scenario"),
    )


def action_buttons(acting: _Acting, keys: Iterable[str]) -> tuple[Button, ...]:
    buttons: list[Button] = []
    for key in keys:
        if key == NPC_ACTION:
            buttons.append(_npc_action(acting))
            continue
        action = ACTION_BY_KEY[key]
        buttons += MAKERS.get(action.effect, _plain)(acting, action)
    return tuple(buttons)


def _grouped(buttons: Sequence[Button]) -> tuple[ButtonGroup, ...]:
    """Fighting, moving, the rest: the table looks for the first two most."""

    def key(button: Button) -> str:
        action = next((f.value for f in button.fields if f.name == "args.action"), "")
        return button.command.removeprefix("wizard:") if button.is_wizard else action

    groups = (
        (_("Fight"), [b for b in buttons if key(b) in FIGHT_ACTIONS]),
        (_("Move"), [b for b in buttons if key(b) in MOVE_ACTIONS]),
        (_("Other"), [b for b in buttons if key(b) not in FIGHT_ACTIONS | MOVE_ACTIONS]),
    )
    return tuple(ButtonGroup(title, tuple(group)) for title, group in groups if group)


def action_keys(state: MatchState, model: Model) -> list[str]:
    """The actions offered: a rallied model's rally or moves, an NPC's per the scenario."""
    if model.fleeing:
        return [a.key for a in ACTIONS if a.key in FLEEING_ACTIONS]
    if state.phase is Phase.NPC_ACTIONS:
        return [a.key for a in ACTIONS if a.key in NPC_ACTIONS] + [NPC_ACTION]
    return [a.key for a in ACTIONS]


def _corrections(model: Model, offers: Offers) -> tuple[Button, Button]:
    """The hand corrections with their defaults: the model as it stands, a fall of 1 inch."""
    fallen = NumberInput("args.distance:int", _("Fallen (fall): inches fallen"), 1, 1, MAX_FALL)
    adjust = offers.command(
        "adjust",
        _("Save the correction"),
        args={"unit": model.id},
        form={"lp": model.lp, "fleeing": model.fleeing},
    )
    fall = offers.command("fall", _("Roll the fall"), args={"unit": model.id}, inputs=(fallen,))
    return adjust, fall


def _morale_test(model: Model, offers: Offers) -> tuple[ButtonGroup, ...]:
    button = offers.command(
        "test_morale",
        _("Test morale (%(n)s of %(dice)s dice of 4+)"),
        params={"n": model.lost, "dice": model.morale_dice},
        args={"unit": model.id},
        style="primary",
        odds_lines=morale_lines(model),
    )
    return (ButtonGroup("", (button,)),)


def selection(state: MatchState, model: Model, offers: Offers) -> Selection:
    view = model_view(state, model, model.id, offers)
    named = Text("%(name)s", {"name": model.name})
    if state.phase is Phase.OVER or model.out:
        return Selection(view, named)
    adjust, fall = _corrections(model, offers)
    plain = Selection(view, named, adjust=adjust, fall=fall)
    if state.pending is not None:
        if not may_react(state, model, offers):
            return plain
        keys = [*REACTIONS, NPC_ACTION] if model.active_npc else REACTIONS
        reactions = action_buttons(_Acting(state, model, offers), keys)
        title = Text(_("Reaction of %(name)s"), {"name": model.name})
        return replace(plain, title=title, groups=_grouped(reactions))
    if not view.can_act:
        return plain
    if model.fleeing and state.rallied != model.id:
        title = Text(_("%(name)s flees"), {"name": model.name})
        return replace(plain, title=title, groups=_morale_test(model, offers))
    if state.phase is Phase.NPC_ACTIONS:
        title = Text(_("%(name)s acts"), {"name": model.name})
    else:
        title = Text(_("Activate %(name)s: one action"), {"name": model.name})
    buttons = action_buttons(_Acting(state, model, offers), action_keys(state, model))
    return replace(plain, title=title, groups=_grouped(buttons))
