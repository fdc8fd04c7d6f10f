"""What the Deathmatch table has to do now: the setup steps, the start phase, whose turn it is,
the end phase. Every button and form is judged by the engine (``Offers``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from apps.systems.core.buttons import Button, Offers
from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import TimelineLine as Text
from apps.systems.deathmatch.match.state import MatchState, Phase
from apps.systems.deathmatch.match.tracker.models import Prompt

PromptMaker = Callable[[MatchState, Offers], Prompt]


def _who(state: MatchState) -> str:
    return state.player(state.awaiting_player).name if state.awaiting_player is not None else ""


def _players_buttons(
    state: MatchState, offers: Offers, command: str, label: str
) -> tuple[Button, ...]:
    return tuple(
        offers.command(
            command, label, params={"player": p.name}, args={"player": p.index}, style="primary"
        )
        for p in state.players
        if not p.eliminated
    )


def _fighter_buttons(state: MatchState, offers: Offers, command: str) -> tuple[Button, ...]:
    assert state.awaiting_player is not None
    return tuple(
        offers.command(command, "%(unit)s", params={"unit": u.name}, args={"unit": u.id})
        for u in state.team(state.awaiting_player)
        if u.in_play
    )


def _gadgets(state: MatchState, offers: Offers) -> Prompt:
    choosing = [p for p in state.players if p.gadget is None]
    flips = tuple(
        offers.command(
            "flip_gadget",
            _("%(player)s: flip for a gadget"),
            params={"player": p.name},
            args={"player": p.index},
            style="primary",
        )
        for p in choosing
    )
    choices = tuple(
        offers.command(
            "choose_gadget",
            "%(player)s",
            params={"player": p.name},
            args={"player": p.index, "option": 0},
        )
        for p in choosing
    )
    return Prompt(
        "gadgets",
        Text(_("Gadgets: every player chooses one option or flips for one")),
        Text(_("Each player receives one of every chosen option and places them alternately.")),
        (*flips, offers.command("skip_gadgets", _("Play without gadgets"))),
        forms=choices,
    )


def _deployment_flip(state: MatchState, offers: Offers) -> Prompt:
    return Prompt(
        "deployment_flip",
        Text(_("Deployment: every player flips a card")),
        Text(_("The highest card decides who picks a deployment zone (and deploys) first.")),
        (offers.command("deployment_flip", _("Flip for deployment"), style="primary"),),
    )


def _first_deployer(state: MatchState, offers: Offers) -> Prompt:
    return Prompt(
        "first_deployer",
        Text(
            _("%(player)s won the flip: who picks a zone and deploys first?"),
            {"player": _who(state)},
        ),
        Text(_("That player also places the first gadget.")),
        _players_buttons(state, offers, "choose_first_deployer", _("%(player)s first")),
        state.awaiting_player,
    )


def _vip(state: MatchState, offers: Offers) -> Prompt:
    return Prompt(
        "vip",
        Text(_("%(player)s names a VIP"), {"player": _who(state)}),
        Text(_("Knocking out the enemy VIP scores extra VP.")),
        _fighter_buttons(state, offers, "name_vip"),
        state.awaiting_player,
    )


def _flags(state: MatchState, offers: Offers) -> Prompt:
    return Prompt(
        "flags",
        Text(_("%(player)s hands out up to 3 flag markers"), {"player": _who(state)}),
        Text(_("Tick the models that carry one, then confirm.")),
        (),
        state.awaiting_player,
        forms=(offers.command("assign_flags", _("Hand out the flags"), args={}),),
    )


def _ready(state: MatchState, offers: Offers) -> Prompt:
    return Prompt(
        "ready",
        Text(_("Deploy the teams, then start the game")),
        Text(_("The first deployer places their whole team first.")),
        (offers.command("start_game", _("Start round 1"), style="primary"),),
    )


def _initiative(state: MatchState, offers: Offers) -> Prompt:
    return Prompt(
        "initiative",
        Text(_("Round %(round)s: start phase"), {"round": state.round}),
        Text(_("Command pools are formed. Every player flips one card for initiative.")),
        (offers.command("flip_initiative", _("Flip for initiative"), style="primary"),),
    )


def _starter(state: MatchState, offers: Offers) -> Prompt:
    return Prompt(
        "starter",
        Text(_("%(player)s won the initiative: who begins?"), {"player": _who(state)}),
        None,
        _players_buttons(state, offers, "choose_starter", _("%(player)s begins")),
        state.awaiting_player,
    )


def _king(state: MatchState, offers: Offers) -> Prompt:
    return Prompt(
        state.awaiting,
        Text(_("%(player)s names a king"), {"player": _who(state)}),
        Text(_('King of the Hill: 3 VP for a king within 4" of the centre at round end.')),
        _fighter_buttons(state, offers, "name_king"),
        state.awaiting_player,
    )


def _score(state: MatchState, offers: Offers) -> Prompt:
    return Prompt(
        "score",
        Text(_("Round %(round)s: end phase"), {"round": state.round}),
        Text(_("Lasting effects end. Say who controls each focal point, then score the round.")),
        forms=(offers.command("score_round", _("Score the round")),),
    )


AWAITING: Final[dict[str, PromptMaker]] = {
    "gadgets": _gadgets,
    "deployment_flip": _deployment_flip,
    "first_deployer": _first_deployer,
    "vip": _vip,
    "flags": _flags,
    "ready": _ready,
    "initiative": _initiative,
    "starter": _starter,
    "king": _king,
    "king_unclear": _king,
    "score": _score,
}


def _turn(state: MatchState, offers: Offers) -> Prompt:
    assert state.turn is not None
    player = state.player(state.turn)
    if state.active is not None:
        unit = state.unit(state.active)
        return Prompt(
            "active",
            Text(_("%(unit)s is activated: %(ap)s AP left"), {"unit": unit.name, "ap": unit.ap}),
            None,
            (),
            player.index,
        )
    buttons: tuple[Button, ...] = ()
    if state.phase is Phase.DRONES:
        title = _("%(player)s activates the A-18 drone")
    else:
        title = _("%(player)s's turn: activate a model")
        buttons = (
            offers.command("pass", _("Pass"), cost=_("once per round")),
            offers.command("coordinated_activation", _("Coordinated activation"), cost="2 ◆"),
        )
    help_text = (
        Text(_("Coordinated activation: the second model follows in this turn."))
        if state.coordinated
        else Text(_("Tap the model to activate."))
    )
    return Prompt(
        "turn",
        Text(title, {"player": player.name}),
        help_text,
        buttons,
        player.index,
        activations=_activations(state, offers),
    )


def _activations(state: MatchState, offers: Offers) -> tuple[Button, ...]:
    """The models (or, in the drone phase, the drones) the engine would activate now, as
    one-tap chips."""
    assert state.turn is not None
    chips = (
        offers.command(
            "activate",
            "%(unit)s",
            params={"unit": unit.name},
            args={"unit": unit.id},
            cost=f"{1 if unit.ordered else 2} AP",
        )
        for unit in state.units
        if unit.player == state.turn and unit.in_play and not unit.activated
    )
    return tuple(chip for chip in chips if chip.enabled)


def prompt(state: MatchState, offers: Offers) -> Prompt:
    if state.phase is Phase.OVER:
        return Prompt("over", Text(_("The game is over.")))
    maker = AWAITING.get(state.awaiting)
    if maker is not None:
        return maker(state, offers)
    if state.phase in (Phase.ACTIVATION, Phase.DRONES) and state.turn is not None:
        return _turn(state, offers)
    return Prompt("wait", Text(_("Waiting")))
