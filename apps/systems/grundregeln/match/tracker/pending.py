"""The action in progress: the declared action, the reactions declared to it in the order they
resolve, the models that may still react, and the next step (resolve it, or let it lapse)."""

from __future__ import annotations

from apps.systems.core.buttons import Button, Offers
from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import TimelineLine as Text
from apps.systems.grundregeln.match.state import Declared, MatchState, Pending
from apps.systems.grundregeln.match.timeline import action_label
from apps.systems.grundregeln.match.tracker.models import DeclaredView, PendingView
from apps.systems.grundregeln.match.tracker.sides import colour, may_react, model_view


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


def _next_step(state: MatchState, pending: Pending) -> tuple[Text, str]:
    """What resolves next (the first unresolved reaction, else the action) and its button."""
    upcoming = next((r for r in pending.reactions if not r.resolved), None)
    current = upcoming or pending.action
    params = {"unit": state.models[current.unit].name, "action": action_label(current.action)}
    if upcoming is not None:
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
        resolve=offers.command("resolve", resolve_label, style="primary big"),
        lapse=offers.command("resolve", _("Not possible: it lapses"), args={"possible": False}),
        reactors=tuple(
            model_view(state, m, selected, offers)
            for m in state.models
            if may_react(state, m, offers)
        ),
        reacting_names=", ".join(state.players[side].name for side in pending.reacting),
    )
