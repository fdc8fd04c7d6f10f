"""What the Universalis table has to do now: the secret choices, the deployment, whose phase
comes next, the round's end. Every button is judged by the engine (``Offers``)."""

from __future__ import annotations

from apps.systems.core.buttons import Button, Offers
from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import TimelineLine as Text
from apps.systems.universalis.match.missions import MISSIONS, mission
from apps.systems.universalis.match.order import eligible, free_activations, picking
from apps.systems.universalis.match.state import MatchState, Phase
from apps.systems.universalis.match.tracker.forms import choice
from apps.systems.universalis.match.tracker.models import RoundEnd, SecretStep


def _setup(state: MatchState, offers: Offers) -> tuple[Text, tuple[Button, ...]]:
    if not state.missions_revealed:
        return Text(_("Each player picks a mission in secret.")), ()
    if state.deployment_winner is None:
        return Text(_("The group leaders roll off for deployment (EH).")), (
            offers.command("roll_deployment", _("Roll for deployment"), style=""),
        )
    winner = state.players[state.deployment_winner].name
    text = Text(
        _(
            "%(player)s marks a deployment zone first and deploys first; then the other "
            "player. Never closer than 12 cm to enemy models."
        ),
        {"player": winner},
    )
    return text, (offers.command("start_game", _("Deployed: start round 1"), style=""),)


def _shock_payments(state: MatchState, offers: Offers) -> list[Button]:
    """An operator may pay its telematons' shock tokens at the round's start (19.7): offered
    until the round's first phase, when the engine no longer takes it."""
    buttons = []
    for unit in state.units:
        if not (unit.telematon and (unit.shock_paid or unit.shock_tokens)):
            continue
        if unit.operator is None or not state.units[unit.operator].in_play:
            continue
        button = offers.command(
            "operator_takes_shock",
            _("%(operator)s pays %(unit)s's shock token"),
            params={"operator": state.units[unit.operator].name, "unit": unit.name},
            args={"unit": unit.id},
            cost="1 AP",
        )
        if button.code != "not_now":
            buttons.append(button)
    return buttons


def _panic_moves(state: MatchState, offers: Offers) -> list[Button]:
    """The round start's panic moves (5.5.1, l. 504): each panicking model runs towards the
    nearest table edge, or off the table."""
    buttons = []
    for uid in state.panic_moves_due:
        name = state.units[uid].name
        for left, label in (
            (False, _("%(unit)s runs towards the nearest table edge")),
            (True, _("%(unit)s runs off the table")),
        ):
            buttons.append(
                offers.command(
                    "panic_move",
                    label,
                    params={"unit": name},
                    args={"unit": uid, "left_table": left},
                    style="",
                )
            )
    return buttons


def _order(state: MatchState, offers: Offers) -> tuple[Text, tuple[Button, ...]]:
    if state.panic_moves_due:
        text = Text(_("The round begins: first the panicking models run (no AP)."))
        return text, (*_panic_moves(state, offers), *_shock_payments(state, offers))
    buttons = [
        offers.command(
            "activate",
            _("%(unit)s takes its phase"),
            params={"unit": u.name},
            args={"unit": u.id},
            style="",
        )
        for u in free_activations(state)
    ]
    buttons += _shock_payments(state, offers)
    if picking(state):
        return Text(_("Both players pick their next model in secret.")), tuple(buttons)
    text = Text(_("The other group has no model left this round: activate the rest."))
    return text, tuple(buttons)


def prompt(state: MatchState, offers: Offers) -> tuple[Text, tuple[Button, ...]]:
    """The prompt's line and its buttons."""
    if state.phase is Phase.SETUP:
        return _setup(state, offers)
    if state.phase is Phase.ORDER:
        return _order(state, offers)
    if state.phase is Phase.ACTING:
        active = state.units[state.active] if state.active is not None else None
        return Text(_("%(unit)s's initiative phase."), {"unit": active.name if active else "—"}), ()
    if state.phase is Phase.ROUND_END:
        return Text(_("Round %(round)s is over: check the missions."), {"round": state.round}), ()
    return Text(_("The game is over.")), ()


def secrets(state: MatchState, offers: Offers) -> tuple[SecretStep, ...]:
    """The secret choices still open, each with its options for its player. The options are
    made for every player (a mission or a model to pick is no secret, the choice is): the page
    shows them to their owner only, and the table's legal commands hold them all."""
    steps: list[SecretStep] = []
    if state.phase is Phase.SETUP and not state.missions_revealed:
        for p in state.players:
            options = tuple(
                offers.command(
                    "choose_mission",
                    m.name,
                    args={"player": p.index, "mission": m.slug},
                    style="",
                )
                for m in MISSIONS
                if p.mission is None
            )
            steps.append(SecretStep(p.index, p.name, "mission", p.mission is not None, options))
    if picking(state):
        for p in state.players:
            options = tuple(
                offers.command("pick", u.name, args={"player": p.index, "unit": u.id}, style="")
                for u in eligible(state, p.index)
                if p.pick is None
            )
            steps.append(SecretStep(p.index, p.name, "pick", p.pick is not None, options))
    return tuple(steps)


def round_end(state: MatchState, offers: Offers) -> RoundEnd | None:
    """The round's end: the missions are checked (a player with a declared mission may
    confirm it held its condition), or a player surrenders."""
    if state.phase is not Phase.ROUND_END:
        return None
    button = offers.command("end_round", _("Check the missions and go on"))
    declared = tuple(
        choice(
            offers,
            "end_round",
            p.index,
            p.name,
            ({"held": [p.index]},),
            asked=button.enabled,
        )
        for p in state.players
        if p.mission and mission(p.mission).victory == "declared"
    )
    surrender = tuple(
        offers.command(
            "surrender",
            _("%(player)s surrenders"),
            params={"player": p.name},
            args={"player": p.index},
            style="danger",
        )
        for p in state.players
    )
    return RoundEnd(button, declared, surrender)
