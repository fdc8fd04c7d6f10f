"""``apply(state, event)``: how each event changes the state. No rules are checked and no card is
drawn here: ``decide`` did that and wrote every outcome into the event, so a replay of the log
rebuilds exactly the state that was stored.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import Any, Final

from apps.systems.core.deck import Deck, Flip
from apps.systems.core.engine import EventAppliers
from apps.systems.core.match import Event
from apps.systems.deathmatch.match.serial import load
from apps.systems.deathmatch.match.state import (
    Attack,
    AttackKind,
    Disengage,
    FlipPurpose,
    Gadget,
    Marker,
    Markers,
    MatchState,
    Objective,
    ObjectiveState,
    Outcome,
    PendingFlip,
    Phase,
    PlayerState,
    Result,
    Target,
    Unit,
    VpEntry,
)

Data = Mapping[str, Any]
APPLIERS: EventAppliers[MatchState] = EventAppliers()
handles = APPLIERS.event


def apply(state: MatchState, event: Event) -> MatchState:
    return APPLIERS.apply(state, event)


def _flip(data: Data, key: str = "flip") -> Flip:
    return load(data[key], Flip)


def _with_deck(state: MatchState, player: int, flip: Flip) -> MatchState:
    return state.with_player(player, deck=flip.deck)


# --- Setup ------------------------------------------------------------------------------------


@handles("match_started")
def _started(state: MatchState, data: Data) -> MatchState:
    return MatchState(
        mode=data["mode"],
        game_size=data["game_size"],
        players=load(data["players"], tuple[PlayerState, ...]),
        units=load(data["units"], tuple[Unit, ...]),
        objectives=load(data["objectives"], tuple[Objective, ...]),
        phase=Phase.SETUP,
        awaiting=data["awaiting"],
    )


@handles("gadget_chosen")
def _gadget_chosen(state: MatchState, data: Data) -> MatchState:
    if data.get("flip") is not None:
        state = _with_deck(state, data["player"], _flip(data))
    return state.with_player(data["player"], gadget=data["option"])


@handles("gadgets_placed")
def _gadgets_placed(state: MatchState, data: Data) -> MatchState:
    return replace(
        state,
        gadgets=load(data["gadgets"], tuple[Gadget, ...]),
        units=state.units + load(data["units"], tuple[Unit, ...]),
    )


@handles("awaiting")
def _awaiting(state: MatchState, data: Data) -> MatchState:
    return replace(state, awaiting=data["what"], awaiting_player=data.get("player"))


@handles("deployment_flipped")
def _deployment_flipped(state: MatchState, data: Data) -> MatchState:
    for player, flip in zip(data["players"], data["flips"], strict=True):
        state = state.with_player(player, deck=load(flip, Flip).deck)
    return replace(state, deployment_chooser=data.get("winner"))


@handles("first_deployer_chosen")
def _first_deployer(state: MatchState, data: Data) -> MatchState:
    return replace(state, first_deployer=data["player"])


@handles("vip_named")
def _vip_named(state: MatchState, data: Data) -> MatchState:
    for unit in state.team(data["player"]):
        if unit.vip:
            state = state.with_unit(unit.id, vip=False)
    return state.with_unit(data["unit"], vip=True)


@handles("king_named")
def _king_named(state: MatchState, data: Data) -> MatchState:
    for unit in state.units:
        if unit.king:
            state = state.with_unit(unit.id, king=False)
    return state.with_unit(data["unit"], king=True)


@handles("flags_assigned")
def _flags_assigned(state: MatchState, data: Data) -> MatchState:
    for marker, unit_id in zip(data["markers"], data["units"], strict=True):
        state = replace(state, objectives=(*state.objectives, load(marker, Objective)))
        state = state.with_unit(unit_id, flags=(*state.unit(unit_id).flags, marker["id"]))
    return state


# --- Rounds -----------------------------------------------------------------------------------


@handles("round_started")
def _round_started(state: MatchState, data: Data) -> MatchState:
    round_number = data["round"]
    # finish_order stays: the initiative tie-break reads last round's order in this start phase.
    players = tuple(
        replace(player, cp=cp, passed=False, free_reroll_used=False)
        for player, cp in zip(state.players, data["cp"], strict=True)
    )
    units = tuple(
        replace(
            unit,
            activated=False,
            ap=0,
            order_allowed=False,
            ordered=False,
            readiness=unit.kind == "defence" and unit.in_play,
        )
        for unit in state.units
    )
    gadgets = tuple(
        replace(gadget, active=True) if gadget.option == 8 and round_number in (2, 4) else gadget
        for gadget in state.gadgets
    )
    return replace(
        state,
        round=round_number,
        phase=Phase.START,
        players=players,
        units=units,
        gadgets=gadgets,
        turn=None,
        active=None,
        starter=None,
        initiative_winner=None,
        pass_blocked=None,
        coordinated=False,
        awaiting="initiative",
        awaiting_player=None,
    )


@handles("initiative_flipped")
def _initiative_flipped(state: MatchState, data: Data) -> MatchState:
    flips = tuple(load(flip, Flip) for flip in data["flips"])
    for player, flip in enumerate(flips):
        state = _with_deck(state, player, flip)
    return replace(
        state,
        pending=PendingFlip(
            purpose=FlipPurpose.INITIATIVE,
            flips=flips,
            players=tuple(range(len(flips))),
            rerolls=tuple(0 for _ in flips),
            deciders=tuple(data["deciders"]),
        ),
        awaiting="",
    )


@handles("initiative_won")
def _initiative_won(state: MatchState, data: Data) -> MatchState:
    return replace(
        state,
        pending=None,
        initiative_winner=data["winner"],
        initiative_order=tuple(data.get("ranking", ())),
        awaiting="starter",
        awaiting_player=data["winner"],
    )


@handles("starter_chosen")
def _starter_chosen(state: MatchState, data: Data) -> MatchState:
    return replace(
        state,
        starter=data["player"],
        initiative_order=tuple(data["order"]),
        awaiting="",
        awaiting_player=None,
    )


@handles("phase_changed")
def _phase_changed(state: MatchState, data: Data) -> MatchState:
    return replace(state, phase=Phase(data["phase"]))


@handles("turn_changed")
def _turn_changed(state: MatchState, data: Data) -> MatchState:
    return replace(
        state,
        turn=data["player"],
        turn_number=state.turn_number + 1,
        coordinated=False,
        second_due=False,
        turn_over=False,
        pass_blocked=data.get("pass_blocked"),
    )


@handles("player_finished")
def _player_finished(state: MatchState, data: Data) -> MatchState:
    return state.with_player(data["player"], finished_round=state.round, finish_order=data["order"])


@handles("round_ended")
def _round_ended(state: MatchState, data: Data) -> MatchState:
    units = tuple(replace(unit, readiness=False) for unit in state.units)
    return replace(
        state,
        phase=Phase.END,
        units=units,
        turn=None,
        active=None,
        turn_over=False,
        awaiting="score",
    )


@handles("game_ending")
def _game_ending(state: MatchState, data: Data) -> MatchState:
    return replace(state, game_ending=True)


@handles("target_reached")
def _target_reached(state: MatchState, data: Data) -> MatchState:
    if data.get("together"):
        return state  # reached at the same moment as another player: nobody was first
    return replace(state, target_reached=(*state.target_reached, data["player"]))


@handles("game_ended")
def _game_ended(state: MatchState, data: Data) -> MatchState:
    return replace(
        state,
        phase=Phase.OVER,
        result=Result(winners=tuple(data["winners"]), draw=data["draw"], reason=data["reason"]),
        turn=None,
        active=None,
        attack=None,
        pending=None,
        disengage=None,
        awaiting="",
        awaiting_player=None,
    )


@handles("conceded")  # a player who gives up is out like a team wiped out
@handles("player_eliminated")
def _player_eliminated(state: MatchState, data: Data) -> MatchState:
    return state.with_player(data["player"], eliminated=True)


# --- Flips and command points -----------------------------------------------------------------


@handles("cp_spent")
def _cp_spent(state: MatchState, data: Data) -> MatchState:
    player = state.player(data["player"])
    return state.with_player(player.index, cp=player.cp - data["cp"])


@handles("free_reroll_used")
def _free_reroll_used(state: MatchState, data: Data) -> MatchState:
    return state.with_player(data["player"], free_reroll_used=True)


@handles("flip_rerolled")
def _flip_rerolled(state: MatchState, data: Data) -> MatchState:
    """A reroll replaces the flip it was made on, wherever that flip waits."""
    flip, player, purpose = _flip(data), data["player"], FlipPurpose(data["purpose"])
    state = _with_deck(state, player, flip)
    if purpose in (FlipPurpose.HIT, FlipPurpose.WOUND) and state.attack is not None:
        attack = state.attack
        if purpose is FlipPurpose.HIT:
            attack = replace(attack, hit_flip=flip, hit_rerolls=attack.hit_rerolls + data["count"])
        else:
            target = attack.targets[attack.current]
            target = replace(
                target, wound_flip=flip, wound_rerolls=target.wound_rerolls + data["count"]
            )
            attack = replace(attack, targets=_replace_at(attack.targets, attack.current, target))
        return replace(state, attack=attack)
    if purpose is FlipPurpose.STRIKE and state.disengage is not None:
        d = state.disengage
        return replace(
            state,
            disengage=replace(
                d,
                flips=_replace_at(d.flips, d.current, flip),
                rerolls=_replace_at(d.rerolls, d.current, d.rerolls[d.current] + data["count"]),
            ),
        )
    if purpose is FlipPurpose.FREE:
        return replace(
            state, free_flip=flip, free_flip_rerolls=state.free_flip_rerolls + data["count"]
        )
    pending = state.pending
    assert pending is not None
    slot = pending.players.index(player)
    return replace(
        state,
        pending=replace(
            pending,
            flips=_replace_at(pending.flips, slot, flip),
            rerolls=_replace_at(pending.rerolls, slot, pending.rerolls[slot] + data["count"]),
        ),
    )


@handles("reroll_decided")
def _reroll_decided(state: MatchState, data: Data) -> MatchState:
    pending = state.pending
    assert pending is not None
    deciders = tuple(p for p in pending.deciders if p != data["player"])
    return replace(state, pending=replace(pending, deciders=deciders))


@handles("decks_kept")
def _decks_kept(state: MatchState, data: Data) -> MatchState:
    """After an undo: the decks as the undone command left them (seen cards stay seen)."""
    for kept in data["decks"]:
        state = state.with_player(kept["player"], deck=load(kept["deck"], Deck))
    return state


@handles("free_flipped")
def _free_flipped(state: MatchState, data: Data) -> MatchState:
    flip = _flip(data)
    state = _with_deck(state, data["player"], flip)
    return replace(
        state,
        open_free_flip=data["player"],
        free_flip=flip,
        free_flip_rerolls=0,
        free_flip_chance=data.get("chance", ""),
    )


@handles("free_flip_closed")
def _free_flip_closed(state: MatchState, data: Data) -> MatchState:
    return replace(
        state, open_free_flip=None, free_flip=None, free_flip_rerolls=0, free_flip_chance=""
    )


# --- Activations and actions ------------------------------------------------------------------


@handles("unit_activated")
def _unit_activated(state: MatchState, data: Data) -> MatchState:
    unit = state.unit(data["unit"])
    uses = tuple(use for use in unit.uses if not use.startswith("activation:"))
    state = state.with_unit(
        unit.id,
        activated=True,
        ordered=False,
        order_allowed=False,
        ap=data["ap"],
        dodges=0,
        readiness_taken=False,
        uses=uses,
    )
    return replace(
        state, active=unit.id, activation_number=state.activation_number + 1, second_due=False
    )


@handles("coordinated_activation")
def _coordinated(state: MatchState, data: Data) -> MatchState:
    return replace(state, coordinated=True)


@handles("second_activation")
def _second_activation(state: MatchState, data: Data) -> MatchState:
    """The coordinated activation's second fighter: the same turn goes on."""
    return replace(state, coordinated=False, turn_over=False, second_due=True)


@handles("passed")
def _passed(state: MatchState, data: Data) -> MatchState:
    return state.with_player(data["player"], passed=True)


@handles("ap_spent")
def _ap_spent(state: MatchState, data: Data) -> MatchState:
    unit = state.unit(data["unit"])
    return state.with_unit(unit.id, ap=unit.ap - data["ap"])


@handles("ap_gained")
def _ap_gained(state: MatchState, data: Data) -> MatchState:
    unit = state.unit(data["unit"])
    return state.with_unit(unit.id, ap=unit.ap + data["ap"])


@handles("bonus_lost")
def _bonus_lost(state: MatchState, data: Data) -> MatchState:
    changes = dict.fromkeys(data["bonuses"], False)
    return state.with_unit(data["unit"], **changes)


@handles("dodged")
def _dodged(state: MatchState, data: Data) -> MatchState:
    unit = state.unit(data["unit"])
    return state.with_unit(unit.id, dodges=unit.dodges + 1)


@handles("readiness_taken")
def _readiness_taken(state: MatchState, data: Data) -> MatchState:
    changes: dict[str, object] = {"readiness": True}
    if data.get("action", True):
        changes["readiness_taken"] = True
    return state.with_unit(data["unit"], **changes)


@handles("readiness_used")
def _readiness_used(state: MatchState, data: Data) -> MatchState:
    return state.with_unit(data["unit"], readiness=False)


@handles("aimed")
def _aimed(state: MatchState, data: Data) -> MatchState:
    return state.with_unit(data["unit"], aim=True)


@handles("power_strike_readied")
def _power_strike(state: MatchState, data: Data) -> MatchState:
    return state.with_unit(data["unit"], power_strike=True)


@handles("moved")
def _moved(state: MatchState, data: Data) -> MatchState:
    return state


@handles("special_action_used")
def _special_action(state: MatchState, data: Data) -> MatchState:
    unit = state.unit(data["unit"])
    return state.with_unit(unit.id, uses=(*unit.uses, *data["uses"]))


@handles("order_given")
def _order_given(state: MatchState, data: Data) -> MatchState:
    return state.with_unit(data["unit"], activated=False, ordered=True, order_allowed=False)


@handles("activation_ended")
def _activation_ended(state: MatchState, data: Data) -> MatchState:
    state = state.with_unit(data["unit"], ap=0, fresh_markers=())
    return replace(state, active=None, turn_over=True)


@handles("ammo_used")
def _ammo_used(state: MatchState, data: Data) -> MatchState:
    unit = state.unit(data["unit"])
    index = data["weapon"]
    left = unit.ammo[index]
    assert left is not None
    return state.with_unit(unit.id, ammo=_replace_at(unit.ammo, index, left - 1))


@handles("erloeser_fired")
def _erloeser_fired(state: MatchState, data: Data) -> MatchState:
    return state.with_unit(data["unit"], erloeser=False)


# --- Attacks ----------------------------------------------------------------------------------


@handles("attack_declared")
def _attack_declared(state: MatchState, data: Data) -> MatchState:
    attack = load(data["attack"], Attack)
    if attack.kind is not AttackKind.AUTO:  # a waiting charge attack goes ahead
        state = replace(state, charge=None)
    return replace(state, attack=attack)


@handles("charge_moved")
def _charge_moved(state: MatchState, data: Data) -> MatchState:
    return replace(state, charge=load(data["attack"], Attack))


@handles("charge_dropped")
def _charge_dropped(state: MatchState, data: Data) -> MatchState:
    return replace(state, charge=None)


@handles("hit_flipped")
def _hit_flipped(state: MatchState, data: Data) -> MatchState:
    attack = state.attack
    assert attack is not None
    flip = _flip(data)
    state = _with_deck(state, attack.player, flip)
    odds = {row["unit"]: row["hit"] for row in data.get("odds", [])}
    targets = tuple(replace(t, hit_odds=odds.get(t.unit, t.hit_odds)) for t in attack.targets)
    return replace(state, attack=replace(attack, hit_flip=flip, targets=targets))


@handles("hit_resolved")
def _hit_resolved(state: MatchState, data: Data) -> MatchState:
    attack = state.attack
    assert attack is not None
    targets = tuple(
        replace(
            target,
            outcome=Outcome(result["outcome"]),
            crits_auto_hit=result["crits_auto_hit"],
            crits_boost=result["crits_boost"],
            redirected_to=result.get("redirected_to"),
        )
        for target, result in zip(attack.targets, data["targets"], strict=True)
    )
    return replace(
        state, attack=replace(attack, targets=targets, stage=FlipPurpose.WOUND, current=-1)
    )


@handles("interference_flipped")
def _interference_flipped(state: MatchState, data: Data) -> MatchState:
    return state.with_player(data["player"], deck=load(data["deck"], Deck))


@handles("wound_flipped")
def _wound_flipped(state: MatchState, data: Data) -> MatchState:
    attack = state.attack
    assert attack is not None
    flip = _flip(data)
    state = _with_deck(state, attack.player, flip)
    index = data["target"]
    target = replace(
        attack.targets[index],
        wound_flip=flip,
        wound_modifier=flip.modifier,
        strength=data["strength"],
        resistance=data["resistance"],
        knock_out_odds=data.get("odds", {}).get("knock_out", ""),
    )
    return replace(
        state,
        attack=replace(attack, targets=_replace_at(attack.targets, index, target), current=index),
    )


@handles("wound_skipped")
def _wound_skipped(state: MatchState, data: Data) -> MatchState:
    attack = state.attack
    assert attack is not None
    return replace(state, attack=replace(attack, current=data["target"]))


@handles("wounded")
def _wounded(state: MatchState, data: Data) -> MatchState:
    unit = state.unit(data["unit"])
    state = state.with_unit(unit.id, lp=max(0, unit.lp - data["damage"]))
    charge = state.charge
    if charge is not None and charge.attacker == unit.id and data["damage"] > 0:
        # Hurt on the way to its target: a Wuchtschlag lapses ("sobald ... Schaden erleidet").
        state = replace(state, charge=replace(charge, power_strike=False))
    if data.get("shield_used"):
        state = state.with_unit(unit.id, shields=unit.shields - 1)
    attack = state.attack
    if attack is not None and data.get("target") is not None:
        index = data["target"]
        target: Target = replace(attack.targets[index], damage=data["damage"])
        state = replace(
            state, attack=replace(attack, targets=_replace_at(attack.targets, index, target))
        )
    return state


@handles("lp_lost")
def _lp_lost(state: MatchState, data: Data) -> MatchState:
    unit = state.unit(data["unit"])
    return state.with_unit(unit.id, lp=max(0, unit.lp - data["lp"]))


@handles("marker_added")
def _marker_added(state: MatchState, data: Data) -> MatchState:
    unit = state.unit(data["unit"])
    fresh = unit.fresh_markers
    if state.active == unit.id and data["marker"] not in fresh:
        # Received during its own activation: it acts at the end of the *next* one.
        fresh = (*fresh, data["marker"])
    return state.with_unit(
        unit.id,
        markers=unit.markers.add(Marker(data["marker"]), data.get("by")),
        fresh_markers=fresh,
    )


@handles("markers_cleared")
def _markers_cleared(state: MatchState, data: Data) -> MatchState:
    unit = state.unit(data["unit"])
    changes: dict[str, object] = dict.fromkeys(data["markers"], 0)
    if "fire" in data["markers"]:
        changes["fire_by"] = ()
    if "poison" in data["markers"] and data.get("all", True):
        changes["poison_by"] = ()
    return state.with_unit(unit.id, markers=replace(unit.markers, **changes))  # type: ignore[arg-type]


@handles("poison_resolved")
def _poison_resolved(state: MatchState, data: Data) -> MatchState:
    unit = state.unit(data["unit"])
    poison = max(0, unit.markers.poison - 1)
    markers = replace(
        unit.markers, poison=poison, poison_by=unit.markers.poison_by if poison else ()
    )
    return state.with_unit(unit.id, lp=max(0, unit.lp - data["lp"]), markers=markers)


@handles("attack_finished")
def _attack_finished(state: MatchState, data: Data) -> MatchState:
    return replace(state, attack=None)


@handles("penetration_used")
def _penetration_used(state: MatchState, data: Data) -> MatchState:
    return state.with_unit(data["unit"], penetration=False)


@handles("shimmer_used")
def _shimmer_used(state: MatchState, data: Data) -> MatchState:
    return state.with_unit(data["unit"], shimmer=False)


@handles("disengage_declared")
def _disengage_declared(state: MatchState, data: Data) -> MatchState:
    return replace(state, disengage=load(data["disengage"], Disengage))


@handles("strike_flipped")
def _strike_flipped(state: MatchState, data: Data) -> MatchState:
    d = state.disengage
    assert d is not None
    flip = _flip(data)
    index = data["index"]
    state = _with_deck(state, data["player"], flip)
    return replace(
        state,
        disengage=replace(d, flips=_replace_at(d.flips, index, flip), current=index),
    )


@handles("disengage_resolved")
def _disengage_resolved(state: MatchState, data: Data) -> MatchState:
    return replace(state, disengage=None)


# --- Knock-outs, respawns and victory points --------------------------------------------------


@handles("knocked_out")
def _knocked_out(state: MatchState, data: Data) -> MatchState:
    if state.charge is not None and state.charge.attacker == data["unit"]:
        state = replace(state, charge=None)  # knocked out on the way: the charge ends
    return state.with_unit(data["unit"], lp=0)


# What a knocked-out model loses whether it respawns or leaves: markers, power-ups, bonuses,
# readiness, remaining AP and any flag it carried.
_KNOCKED_OUT: Final[Mapping[str, Any]] = MappingProxyType(
    {
        "ap": 0,
        "markers": Markers(),
        "dodges": 0,
        "aim": False,
        "power_strike": False,
        "readiness": False,
        "shields": 0,
        "penetration": False,
        "shimmer": False,
        "erloeser": False,
        "flags": (),
    }
)


@handles("respawned")
def _respawned(state: MatchState, data: Data) -> MatchState:
    unit = state.unit(data["unit"])
    was_waiting = not unit.activated
    return state.with_unit(
        unit.id,
        **_KNOCKED_OUT,
        lp=unit.max_lp,
        respawns=unit.respawns + 1,
        activated=True,
        order_allowed=was_waiting and state.phase in (Phase.ACTIVATION, Phase.DRONES),
        ordered=False,
    )


@handles("ammo_restored")
def _ammo_restored(state: MatchState, data: Data) -> MatchState:
    """A respawned model's ammunition markers are back (all markers go on respawn)."""
    return state.with_unit(data["unit"], ammo=tuple(data["ammo"]))


@handles("removed")
def _removed(state: MatchState, data: Data) -> MatchState:
    return state.with_unit(data["unit"], **_KNOCKED_OUT, out=True)


@handles("vp_scored")
def _vp_scored(state: MatchState, data: Data) -> MatchState:
    player = state.player(data["player"])
    entry = VpEntry(
        round=state.round,
        points=data["points"],
        reason=data["reason"],
        detail=data.get("detail", ""),
    )
    return state.with_player(player.index, vp=(*player.vp, entry))


@handles("first_core_destroyed")
def _first_core(state: MatchState, data: Data) -> MatchState:
    return replace(state, first_core_destroyer=data["player"], game_ending=True)


# --- Objectives and gadgets -------------------------------------------------------------------


@handles("switch_changed")
def _switch_changed(state: MatchState, data: Data) -> MatchState:
    return state.with_objective(
        data["objective"], owner=data.get("owner"), locked=data.get("locked", False)
    )


@handles("flag_taken")
def _flag_taken(state: MatchState, data: Data) -> MatchState:
    """A model picks up or receives a flag (or Breakthrough marker)."""
    flag_id, unit_id = data["objective"], data["unit"]
    previous = state.objective(flag_id).carrier
    if previous is not None:
        holder = state.unit(previous)
        state = state.with_unit(previous, flags=tuple(f for f in holder.flags if f != flag_id))
    state = state.with_objective(flag_id, state=ObjectiveState.CARRIED, carrier=unit_id)
    return state.with_unit(unit_id, flags=(*state.unit(unit_id).flags, flag_id))


@handles("flag_placed")
def _flag_placed(state: MatchState, data: Data) -> MatchState:
    """A flag leaves its carrier: dropped, returned home, back to its zone, or spent."""
    flag_id = data["objective"]
    carrier = state.objective(flag_id).carrier
    if carrier is not None:
        holder = state.unit(carrier)
        state = state.with_unit(carrier, flags=tuple(f for f in holder.flags if f != flag_id))
    if data["state"] == "spent":
        return replace(state, objectives=tuple(o for o in state.objectives if o.id != flag_id))
    return state.with_objective(flag_id, state=ObjectiveState(data["state"]), carrier=None)


@handles("gadget_used")
def _gadget_used(state: MatchState, data: Data) -> MatchState:
    gadget = state.gadget(data["gadget"])
    # Spent until the next start phase recharges it (``round``: 0 in logs before version 3).
    state = state.with_gadget(gadget.id, used_turn=state.turn_number, used_round=data["round"])
    if gadget.option == 8:
        state = state.with_gadget(gadget.id, active=False)
    unit = state.unit(data["unit"])
    effect = data["effect"]
    if effect == "heal":
        return state.with_unit(unit.id, lp=min(unit.max_lp, unit.lp + data["roll"]))
    if effect == "shield":
        return state.with_unit(unit.id, shields=unit.shields + 1)
    if effect == "penetration":
        return state.with_unit(unit.id, penetration=True)
    if effect == "shimmer":
        return state.with_unit(unit.id, shimmer=True)
    if effect == "stim":
        return state.with_unit(unit.id, ap=unit.ap + 1)
    if effect == "erloeser":
        return state.with_unit(unit.id, erloeser=True)
    return state


@handles("gadgets_lapsed")
def _gadgets_lapsed(state: MatchState, data: Data) -> MatchState:
    """An Erlöser unused in its round lapses (active only in rounds 2 and 4)."""
    for gadget_id in data["gadgets"]:
        state = state.with_gadget(gadget_id, active=False)
    return state


@handles("core_repaired")
def _core_repaired(state: MatchState, data: Data) -> MatchState:
    core = state.unit(data["core"])
    return state.with_unit(core.id, lp=min(core.max_lp, core.lp + data["lp"]))


# --- Corrections --------------------------------------------------------------------------------


@handles("unit_adjusted")
def _unit_adjusted(state: MatchState, data: Data) -> MatchState:
    unit = state.unit(data["unit"])
    changes: dict[str, object] = {}
    if "lp" in data:
        changes["lp"] = data["lp"]
    if "ap" in data:
        changes["ap"] = data["ap"]
    if "markers" in data:
        changes["markers"] = replace(unit.markers, **data["markers"])
    if "modifiers" in data:
        changes["modifiers"] = replace(unit.modifiers, **data["modifiers"])
    if "max_lp" in data:
        changes["max_lp"] = data["max_lp"]
    return state.with_unit(unit.id, **changes)


@handles("cp_adjusted")
def _cp_adjusted(state: MatchState, data: Data) -> MatchState:
    return state.with_player(data["player"], cp=data["cp"])


def _replace_at(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*values[:index], value, *values[index + 1 :])
