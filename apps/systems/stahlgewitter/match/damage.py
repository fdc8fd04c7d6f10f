"""What a result letter does to the models (the design's damage decision and "Erläuterungen"):
"getötet / N" = N TP lost, "ausgelöscht" = dead whatever its TP, a model at 0 TP is dead and
its army points go to the enemy; "Betäubte Modelle erleiden 1 TP Schaden, wenn sie nochmals
betäubt werden"; "Modelle, die sich nicht vom Feind weg zurückziehen können, erleiden 1 TP
Schaden"; models in hard cover or fortified positions ignore retreats (the cover a shot's
target counts as: a prone model in soft cover counts as hard); Khirf never retreat; Morphin
turns a stun into a retreat; the ranged E puts the defender down (prone); ranged A and B are
weapon faults (B: repaired at the end of the next round, A: until repaired)."""

from __future__ import annotations

from typing import Any

from apps.systems.stahlgewitter.combat import Cover, ignores_retreat
from apps.systems.stahlgewitter.match.context import Ctx, event
from apps.systems.stahlgewitter.match.state import MatchState, Model
from apps.systems.stahlgewitter.match.victory import score
from apps.systems.stahlgewitter.tables import Letter, Outcome

Data = Any
HITS = frozenset({Letter.E, Letter.F, Letter.G, Letter.H, Letter.I, Letter.J})
RETREAT_CM = 5


def damage(ctx: Ctx, model_id: int, tp: int, by: int | None, cause: str) -> None:
    """``model_id`` loses ``tp`` TP; at 0 it is out and its army points go to the enemy; a
    unit with no model left is wiped out."""
    model = ctx.state.models[model_id]
    if model.dead or tp <= 0:
        return
    left = max(0, model.tp - tp)
    ctx.emit(
        "damaged",
        model=model_id,
        unit=model.unit,
        tp=model.tp - left,
        left=left,
        by=by,
        cause=cause,
    )
    if left == 0:
        score(ctx, 1 - model.player, model.points, "taken_out", model.name)
        if not ctx.state.living(model.unit):
            ctx.emit("unit_out", unit=model.unit, player=model.player, reason="wiped")


@event("damaged")
def _damaged(state: MatchState, data: Data) -> MatchState:
    dead = data["left"] == 0
    changes: dict[str, object] = {"tp": data["left"]}
    if dead:
        changes.update(dead=True, stunned=False, wakes=False, prone=False)
    return state.with_model(data["model"], **changes)


@event("unit_out")
def _unit_out(state: MatchState, data: Data) -> MatchState:
    return state.with_unit(data["unit"], out=data["reason"], panic=False, ready=False)


def stun(
    ctx: Ctx, model_id: int, by: int | None, cover: Cover = Cover.OPEN, *, blocked: bool = False
) -> None:
    model = ctx.state.models[model_id]
    if model.dead:
        return
    if "morphine" in model.effects:
        retreat(ctx, model_id, cover, blocked=blocked, by=by, cause="morphine")
        return
    if model.stunned:
        damage(ctx, model_id, 1, by, "stunned_twice")
        return
    ctx.emit("stunned", model=model_id, unit=model.unit, by=by)


@event("stunned")
def _stunned(state: MatchState, data: Data) -> MatchState:
    # Stunned during its own unit's turn: it stands up at the end of the unit's next turn.
    return state.with_model(data["model"], stunned=True, wakes=False)


def retreat(
    ctx: Ctx, model_id: int, cover: Cover, *, blocked: bool, by: int | None, cause: str = ""
) -> None:
    model = ctx.state.models[model_id]
    if model.dead:
        return
    if "khirf" in model.effects:
        ctx.emit("retreat_ignored", model=model_id, reason="khirf")
    elif ignores_retreat(cover):
        ctx.emit("retreat_ignored", model=model_id, reason="cover")
    elif blocked:
        damage(ctx, model_id, 1, by, "no_retreat")
    else:
        ctx.emit("retreats", model=model_id, cm=RETREAT_CM, cause=cause)


@event("retreat_ignored")
def _retreat_ignored(state: MatchState, data: Data) -> MatchState:
    return state


@event("retreats")
def _retreats(state: MatchState, data: Data) -> MatchState:
    return state


@event("prone_changed")
def _prone_changed(state: MatchState, data: Data) -> MatchState:
    return state.with_model(data["model"], prone=data["prone"])


@event("weapon_fault")
def _weapon_fault(state: MatchState, data: Data) -> MatchState:
    return state.with_weapon(data["model"], data["weapon"], fault=True, fault_until=data["until"])


def apply_outcome(
    ctx: Ctx,
    attacker: Model,
    weapon_index: int,
    target: Model,
    result: Outcome,
    *,
    melee: bool,
    cover: Cover,
    blocked: bool,
    attacker_blocked: bool,
) -> None:
    """Everything ``result`` does, to the defender first, then to the attacker."""
    weapon = attacker.weapons[weapon_index]
    stunned, tp, wiped = result.defender_stunned, result.defender_tp, result.defender_wiped
    retreat_cm, prone = result.defender_retreat_cm, result.defender_takes_cover
    if weapon.stun_from_e and result.letter in HITS:
        # Kontaktstunner: "alle Ergebnisse ab E = Verteidiger betäubt".
        stunned, tp, wiped, retreat_cm, prone = True, 0, False, 0, False
    if wiped:
        damage(ctx, target.id, target.tp, attacker.id, "wiped")
    elif tp:
        damage(ctx, target.id, tp, attacker.id, "hit")
    if stunned:
        stun(ctx, target.id, attacker.id, cover, blocked=blocked)
    if retreat_cm:
        retreat(ctx, target.id, cover, blocked=blocked, by=attacker.id)
    if prone and ctx.state.models[target.id].alive:
        ctx.emit("prone_changed", model=target.id, prone=True, cause="result")
    if result.attacker_tp:
        damage(ctx, attacker.id, result.attacker_tp, target.id, "hit")
    if result.attacker_stunned:
        stun(ctx, attacker.id, target.id, blocked=attacker_blocked)
    if result.attacker_retreat_cm:
        retreat(ctx, attacker.id, Cover.OPEN, blocked=attacker_blocked, by=target.id)
    if result.weapon_fault and ctx.state.models[attacker.id].alive:
        until = ctx.state.round + result.repair_rounds if result.repair_rounds else 0
        ctx.emit(
            "weapon_fault",
            model=attacker.id,
            weapon=weapon_index,
            weapon_name=weapon.name,
            until=until,
        )
