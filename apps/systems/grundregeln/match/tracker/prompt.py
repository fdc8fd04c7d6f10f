"""What the Grundregeln table does now, phase by phase: the round start roll and who begins,
whose activation it is, the NPC phase, the scoring at the round's end. Every button and form
is judged by the engine (``Offers``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from apps.systems.core.buttons import Button, Offers
from apps.systems.core.distributions import percent_text
from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import TimelineLine as Text
from apps.systems.grundregeln.match.rolls import round_start_chances
from apps.systems.grundregeln.match.rules import NPC_ACTION, side_morale
from apps.systems.grundregeln.match.state import MatchState, Phase
from apps.systems.grundregeln.match.timeline import action_label
from apps.systems.grundregeln.match.tracker.labels import MOVE_NOTES
from apps.systems.grundregeln.match.tracker.models import Prompt

# What a player lets a passive NPC do from the prompt: a move (the API takes every NPC move)
# or its scenario action ("NPCs können nur NPC-Aktionen durchführen ... oder sich bewegen").
NPC_PROMPT_MOVES: Final = ("walk", "march", "sprint", NPC_ACTION)
NPC_ACTION_COST: Final = _("per the scenario")
OVER: Final = Text(_("The game is over."))
PENDING: Final = Text(_("Resolve the declared action first."))


def _round_start(state: MatchState, offers: Offers) -> Prompt:
    names = [p.name for p in state.players]
    win_a, win_b = round_start_chances(state)
    return Prompt(
        "round_start",
        Text(_("Round %(round)s: round start roll"), {"round": state.round}),
        Text(
            _(
                "Each player rolls 1d6 + their side's highest morale (%(a)s +%(ma)s, %(b)s "
                "+%(mb)s); a 6 explodes, ties roll again. %(a)s wins %(pa)s, %(b)s %(pb)s."
            ),
            {
                "a": names[0],
                "b": names[1],
                "ma": side_morale(state, 0),
                "mb": side_morale(state, 1),
                "pa": percent_text(win_a),
                "pb": percent_text(win_b),
            },
        ),
        (offers.command("roll_round_start", _("Roll for the round start"), style="primary big"),),
    )


def _starter(state: MatchState, offers: Offers) -> Prompt:
    winner = state.roll_winner if state.roll_winner is not None else 0
    return Prompt(
        "starter",
        Text(_("%(winner)s won the roll: who begins?"), {"winner": state.players[winner].name}),
        None,
        tuple(
            offers.command(
                "choose_starter",
                _("%(player)s begins"),
                params={"player": p.name},
                args={"player": p.index},
                style="primary" if p.index == winner else "secondary",
            )
            for p in state.players
        ),
    )


def _actions(state: MatchState, offers: Offers) -> Prompt:
    if state.rallied is not None:
        return Prompt(
            "rallied",
            Text(
                _("%(unit)s passed its morale test: choose its action"),
                {"unit": state.models[state.rallied].name},
            ),
            Text(_("Moral wiederherstellen (restore morale) ends the flight; or it moves.")),
        )
    player = state.players[state.turn].name if state.turn is not None else "?"
    return Prompt(
        "activate",
        Text(_("%(player)s: activate a model"), {"player": player}),
        Text(_("Tap one of the side's models marked ready, then choose its one action.")),
    )


def _npc_actions(state: MatchState, offers: Offers) -> Prompt:
    skips = tuple(
        offers.command(
            "skip_npc", _("%(npc)s does nothing"), params={"npc": m.name}, args={"unit": m.id}
        )
        for m in state.models
        if m.active_npc and m.standing and not m.activated
    )
    return Prompt(
        "npc_actions",
        Text(_("NPC phase: the scenario NPCs act")),
        Text(
            _("Tap an active NPC and choose what it does as the scenario says; models may react.")
        ),
        skips,
    )


def _npc_moves(state: MatchState, offers: Offers) -> Prompt:
    if state.turn is None:
        return Prompt("none", OVER)
    mover = state.players[state.turn]
    buttons: list[Button] = [
        offers.command(
            "move_npc",
            _("%(npc)s: %(move)s"),
            params={"npc": m.name, "move": action_label(key)},
            args={"unit": m.id, "action": key},
            translate=("move",),
            cost=MOVE_NOTES.get(key, NPC_ACTION_COST),
        )
        for m in state.models
        if m.passive_npc and m.in_play and not m.activated
        for key in NPC_PROMPT_MOVES
    ]
    buttons.append(
        offers.command(
            "end_npc_moves",
            _("%(player)s moves no more NPCs"),
            params={"player": mover.name},
            args={"player": mover.index},
            style="primary",
        )
    )
    return Prompt(
        "npc_moves",
        Text(
            _("NPC phase: %(player)s moves a passive NPC (%(n)s of 2)"),
            {"player": mover.name, "n": mover.npc_moves + 1},
        ),
        Text(
            _(
                "Players move up to two different passive NPCs each (or let them take their "
                "scenario action), one at a time, the start player first; each NPC once. The "
                "other player's models may react."
            )
        ),
        tuple(buttons),
    )


def _scoring(state: MatchState, offers: Offers) -> Prompt:
    """The scoring form, with nobody holding any objective until the table says otherwise."""
    objectives = state.scenario.objectives if state.scenario is not None else 0
    return Prompt(
        "scoring",
        Text(_("Round %(round)s ends: who holds the objectives?"), {"round": state.round}),
        Text(_("A held objective scores its VP for this round.")),
        score=offers.command(
            "score_round", _("Score the round"), form={"holders": [None] * objectives}
        ),
    )


PROMPTS: Final[Mapping[Phase, Callable[[MatchState, Offers], Prompt]]] = {
    Phase.ROUND_START: _round_start,
    Phase.STARTER: _starter,
    Phase.ACTIONS: _actions,
    Phase.NPC_ACTIONS: _npc_actions,
    Phase.NPC_MOVES: _npc_moves,
    Phase.SCORING: _scoring,
}


def prompt(state: MatchState, offers: Offers) -> Prompt:
    """The phase's prompt; while an action is declared the pending panel takes its place."""
    maker = PROMPTS.get(state.phase)
    if maker is None:
        return Prompt("none", OVER)
    if state.pending is not None:
        return Prompt("pending", PENDING)
    return maker(state, offers)
