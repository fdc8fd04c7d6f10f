"""The action in progress: the declared action, the reactions declared to it in the order they
resolve, the models that may still react, and the next step (resolve it, or let it lapse).

An attack is measured when it is resolved, after the reactions (Nahkampf and Fernkampf, step
4-5): its resolve button takes the attack dice modifier, and a melee attack may be turned on
another model ("Angriff umlenken")."""

from __future__ import annotations

from apps.systems.core.buttons import Button, NumberInput, Offers
from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import TimelineLine as Text
from apps.systems.grundregeln.match.rules import MAX_MODIFIER
from apps.systems.grundregeln.match.state import Declared, MatchState, Pending
from apps.systems.grundregeln.match.timeline import action_label
from apps.systems.grundregeln.match.tracker.actions import NOT_A_TARGET, candidates
from apps.systems.grundregeln.match.tracker.chances import attack_lines
from apps.systems.grundregeln.match.tracker.models import DeclaredView, PendingView
from apps.systems.grundregeln.match.tracker.sides import colour, may_react, model_view
from apps.systems.grundregeln.tables import ACTION_BY_KEY, Action, Effect


def _declared_view(
    state: MatchState, declared: Declared, move_up: Button | None = None
) -> DeclaredView:
    model = state.models[declared.unit]
    return DeclaredView(
        unit=model.name,
        colour=colour(model),
        action=action_label(declared.action),
        target=state.models[declared.target].name if declared.target is not None else "",
        resolved=declared.resolved,
        possible=declared.possible,
        move_up=move_up,
    )


def _reactions(state: MatchState, pending: Pending, offers: Offers) -> tuple[DeclaredView, ...]:
    """The reactions in their order; each but the first may move up until resolution begins."""
    return tuple(
        _declared_view(
            state,
            reaction,
            offers.command("reorder_reaction", _("↑ earlier"), args={"index": index})
            if index and not pending.closed
            else None,
        )
        for index, reaction in enumerate(pending.reactions)
    )


def _upcoming(pending: Pending) -> Declared:
    """What resolves next: the first unresolved reaction, else the action."""
    return next((r for r in pending.reactions if not r.resolved), pending.action)


def _attack(declared: Declared) -> Action | None:
    action = ACTION_BY_KEY.get(declared.action)
    return action if action is not None and action.effect is Effect.ATTACK else None


def _resolve(state: MatchState, pending: Pending, label: str, offers: Offers) -> Button:
    """The next step's button; an attack's with its modifier as declared, to be changed to
    what the table measures now, and the odds of that."""
    current = _upcoming(pending)
    action = _attack(current)
    if action is None or current.target is None:
        return offers.command("resolve", label, style="primary big")
    model, target = state.models[current.unit], state.models[current.target]
    measured = NumberInput(
        "args.modifier:int",
        _("Attack dice ± measured now"),
        current.modifier,
        -MAX_MODIFIER,
        MAX_MODIFIER,
    )
    return offers.command(
        "resolve",
        label,
        style="primary big",
        inputs=(measured,),
        odds_lines=attack_lines(model, target, action, current.modifier, current.dice),
    )


def _redirects(state: MatchState, pending: Pending, offers: Offers) -> tuple[Button, ...]:
    """A melee attack about to be resolved may be turned on another model it may attack."""
    current = _upcoming(pending)
    action = _attack(current)
    if action is None or action.weapon != "melee":
        return ()
    model = state.models[current.unit]
    buttons = (
        offers.command(
            "resolve",
            _("Angriff umlenken (redirect) to %(name)s"),
            params={"name": other.name},
            args={"target": other.id},
            odds_lines=attack_lines(model, other, action, current.modifier, current.dice),
        )
        for other in candidates(state, model)
        if other.id != current.target
    )
    return tuple(button for button in buttons if button.code not in NOT_A_TARGET)


def _next_step(state: MatchState, pending: Pending) -> tuple[Text, str]:
    """What resolves next and its button's label."""
    current = _upcoming(pending)
    params = {"unit": state.models[current.unit].name, "action": action_label(current.action)}
    if current is not pending.action:
        return (
            Text(_("Next: the reaction of %(unit)s (%(action)s)"), params, ("action",)),
            _("Resolve the reaction"),
        )
    return (
        Text(_("Next: the action of %(unit)s (%(action)s)"), params, ("action",)),
        _("Resolve the action"),
    )


def pending_view(state: MatchState, selected: int | None, offers: Offers) -> PendingView | None:
    pending = state.pending
    if pending is None:
        return None
    next_label, resolve_label = _next_step(state, pending)
    return PendingView(
        actor=_declared_view(state, pending.action),
        reactions=_reactions(state, pending, offers),
        closed=pending.closed,
        next_label=next_label,
        resolve=_resolve(state, pending, resolve_label, offers),
        lapse=offers.command("resolve", _("Not possible: it lapses"), args={"possible": False}),
        redirects=_redirects(state, pending, offers),
        reactors=tuple(
            model_view(state, m, selected, offers)
            for m in state.models
            if may_react(state, m, offers)
        ),
        reacting_names=", ".join(state.players[side].name for side in pending.reacting),
    )
