"""The sides on the Grundregeln tracker: every model with its values and status chips, which of
them the engine lets act or react now, and the two players with the scenario's NPCs."""

from __future__ import annotations

from apps.systems.core.buttons import Offers
from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import TimelineLine as Text
from apps.systems.grundregeln.match.state import MatchState, Model, Phase
from apps.systems.grundregeln.match.tracker.models import (
    NPC_COLOUR,
    PLAYER_COLOURS,
    ModelView,
    SideView,
    WeaponLine,
)

# The action every model that may act can take (in melee, after rallying, as an NPC), and the
# reaction every model that may react can make: the engine's verdict on them says whether it
# may act or react at all.
ANY_ACTION = "orient"
ANY_REACTION = "block"


def colour(model: Model) -> str:
    return NPC_COLOUR if model.side is None else PLAYER_COLOURS[model.side % 2]


def may_act(state: MatchState, model: Model, offers: Offers) -> bool:
    """Whether the engine lets the model act now: an action or, fleeing, its morale test
    (asked only of standing models without a marker while nothing is declared: the others'
    answer is plainly no)."""
    if state.pending is not None or not model.standing or model.activated:
        return False
    action = offers.refusal("declare", {"unit": model.id, "action": ANY_ACTION})
    return action is None or offers.refusal("test_morale", {"unit": model.id}) is None


def may_react(state: MatchState, model: Model, offers: Offers) -> bool:
    """Whether the engine lets the model react to the declared action now."""
    if state.pending is None or state.pending.closed or not model.standing:
        return False
    return offers.refusal("react", {"unit": model.id, "action": ANY_REACTION}) is None


def _chips(state: MatchState, model: Model) -> tuple[Text, ...]:
    chips = []
    if model.fleeing:
        chips.append(Text(_("fleeing (Flucht)")))
    if model.engaged:
        names = ", ".join(state.models[m].name for m in model.engaged)
        chips.append(Text(_("in melee with %(names)s"), {"names": names}))
    if model.blocking:
        chips.append(Text(_("Blocken: +1 armour")))
    if model.reacted:
        chips.append(Text(_("reacted")))
    for index in model.unloaded:
        chips.append(Text(_("%(weapon)s unloaded"), {"weapon": model.weapons[index].name}))
    if model.lp == 0 and not model.out:
        chips.append(Text(_("0 LP: removed after the exchange")))
    return tuple(chips)


def _weapons(model: Model) -> tuple[WeaponLine, ...]:
    return tuple(
        WeaponLine(
            index=i,
            name=w.name,
            melee=w.melee,
            attack_dice=w.attack_dice,
            range_inches=w.range_inches,
            reload=w.reload.value,
            ready=i == model.ready_weapon,
            loaded=i not in model.unloaded,
        )
        for i, w in enumerate(model.weapons)
    )


def model_view(state: MatchState, model: Model, selected: int | None, offers: Offers) -> ModelView:
    return ModelView(
        id=model.id,
        name=model.name,
        profile=model.profile,
        side=model.side,
        colour=colour(model),
        size=model.size.value,
        move=model.move,
        morale=model.morale,
        morale_dice=model.morale_dice,
        lp=model.lp,
        max_lp=model.max_lp,
        defence=model.defence,
        weapons=_weapons(model),
        chips=_chips(state, model),
        abilities=model.abilities,
        items=model.items,
        npc="" if model.npc is None else model.npc.value,
        out=model.out,
        activated=model.activated,
        fleeing=model.fleeing,
        selected=model.id == selected,
        can_act=may_act(state, model, offers),
        sample=model.sample,
        reroll_ones=tuple(kind.value for kind in model.reroll_ones),
    )


def sides(state: MatchState, selected: int | None, offers: Offers) -> tuple[SideView, ...]:
    """The two players' sides, then the NPCs (if the scenario has any)."""
    views = [
        SideView(
            index=player.index,
            name=player.name,
            colour=PLAYER_COLOURS[player.index % 2],
            vp=player.total_vp,
            left=sum(1 for m in state.side(player.index) if m.standing),
            total=len(state.side(player.index)),
            turn=state.turn == player.index and state.phase in (Phase.ACTIONS, Phase.NPC_MOVES),
            starter=state.starter == player.index,
            models=tuple(model_view(state, m, selected, offers) for m in state.side(player.index)),
        )
        for player in state.players
    ]
    npcs = state.npcs()
    if npcs:
        views.append(
            SideView(
                index=None,
                name="NPC",
                colour=NPC_COLOUR,
                vp=0,
                left=sum(1 for m in npcs if m.standing),
                total=len(npcs),
                turn=False,
                starter=False,
                models=tuple(model_view(state, m, selected, offers) for m in npcs),
            )
        )
    return tuple(views)
