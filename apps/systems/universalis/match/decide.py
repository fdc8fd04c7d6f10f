"""``decide(state, command, rng)``: the rules of a Universalis match (SPEC §3).

Each handler checks that the command is legal now and emits the events it causes; every event
is applied at once to a working copy, so a handler sees the consequences of what it emitted. A
``RuleViolation`` anywhere discards every event: an illegal command changes nothing. Every die
is rolled here through ``rng`` and written into the events with the exact odds it had.

The app never measures the table: distances, cover, who touches whom and who perceives whom are
told by the players in the commands' arguments.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from dataclasses import replace
from fractions import Fraction
from typing import Any

from apps.systems.core.errors import RuleViolation
from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import Args, Command, Event
from apps.systems.universalis.catalog import (
    Attribute,
    Effect,
    Movement,
    PowerDuration,
    PowerRange,
    Weapon,
)
from apps.systems.universalis.match import rules
from apps.systems.universalis.match.missions import MISSIONS, mission
from apps.systems.universalis.match.odds import (
    attribute_odds,
    comparative_odds,
    fraction_text,
    next_reroll,
    used,
    wound_odds,
    wound_odds_from,
)
from apps.systems.universalis.match.serial import apply, dump
from apps.systems.universalis.match.state import (
    MAX_AP,
    AreaShot,
    Burn,
    LastAction,
    MatchState,
    PanicDue,
    Phase,
    Result,
    Roll,
    Unit,
    Zone,
    ZoneName,
)
from apps.systems.universalis.match.values import (
    SHOT_EXTRA,
    attribute_value,
    dodge_values,
    melee_tie_values,
    melee_values,
    panic_modifier,
    power_value,
    reveal_value,
    shot_base,
    shot_value,
    wound_values,
)

SIDES = 12
# A colossus's hit zone by 1d12 (the rulebook's figure is not in its text: see the reference).
ZONE_ROLL = {
    **dict.fromkeys(range(1, 7), ZoneName.TORSO),
    7: ZoneName.LEFT,
    8: ZoneName.LEFT,
    9: ZoneName.RIGHT,
    10: ZoneName.RIGHT,
    11: ZoneName.MOVEMENT,
    12: ZoneName.MOVEMENT,
}


class Ctx:
    """The decision in progress: the working state, the events and the rolls so far."""

    def __init__(self, state: MatchState, rng: random.Random) -> None:
        self.state = state
        self.rng = rng
        self.events: list[Event] = []
        self.rolls: list[Roll] = []

    def emit(
        self,
        event_type: str,
        *,
        units: Mapping[int, Mapping[str, Any]] | None = None,
        players: Mapping[int, Mapping[str, Any]] | None = None,
        state: Mapping[str, Any] | None = None,
        **data: Any,
    ) -> None:
        patch: dict[str, Any] = {}
        if state:
            patch["state"] = {key: dump(value) for key, value in state.items()}
        if players:
            patch["players"] = {
                str(index): {k: dump(v) for k, v in fields.items()}
                for index, fields in players.items()
            }
        if units:
            patch["units"] = {
                str(uid): {k: dump(v) for k, v in fields.items()} for uid, fields in units.items()
            }
        event = Event(event_type, {**data, "patch": patch})
        self.state = apply(self.state, event)
        self.events.append(event)

    def unit(self, unit_id: int) -> Unit:
        return self.state.unit(unit_id)

    # --- Dice --------------------------------------------------------------------------------

    def d12(self) -> int:
        return self.rng.randint(1, SIDES)

    def attribute_roll(self, label: str, target: int, /, **params: str | int) -> tuple[bool, Roll]:
        """1d12 ≤ target; a target of 0 or less fails without rolling (4.8.1)."""
        dice: tuple[int, ...] = ()
        success = False
        if target > 0:
            face = self.d12()
            dice, success = (face,), face <= target
        roll = Roll(
            label=label,
            dice=dice,
            outcome="success" if success else "failure",
            odds=fraction_text(attribute_odds(target)),
            params=tuple(params.items()),
            target=target,
        )
        self.rolls.append(roll)
        return success, roll

    def comparative(self, label: str, a: int, b: int, /, **params: str | int) -> tuple[str, Roll]:
        """1d12 + a against 1d12 + b (4.8.2): "win", "tie" or "loss" from A's side."""
        fa, fb = self.d12(), self.d12()
        outcome = "win" if fa + a > fb + b else "tie" if fa + a == fb + b else "loss"
        odds = comparative_odds(a, b)
        roll = Roll(
            label=label,
            dice=(fa, fb),
            outcome=outcome,
            odds=fraction_text(odds.win),
            params=tuple(params.items()),
            totals=(fa + a, fb + b),
            tie_odds=fraction_text(odds.tie),
        )
        self.rolls.append(roll)
        return outcome, roll

    def plain(self, label: str, sides: int, /, **params: str | int) -> tuple[int, Roll]:
        """A die read as a number (hit zone, direction, scatter, d6 moves, random pick)."""
        face = self.rng.randint(1, sides)
        roll = Roll(
            label=label,
            dice=(face,),
            outcome=str(face),
            odds=fraction_text(Fraction(1, sides)),
            params=tuple(params.items()),
        )
        self.rolls.append(roll)
        return face, roll

    def banded(self, label: str, band: Callable[[int], str], /, **params: str | int) -> Roll:
        """A d12 read for the outcome ``band`` gives its face (hit zone, burning, a destroyed
        movement zone): the roll shows that outcome and the chance of it, not of the face."""
        face = self.d12()
        outcome = band(face)
        chance = Fraction(sum(1 for f in range(1, SIDES + 1) if band(f) == outcome), SIDES)
        roll = Roll(
            label=label,
            dice=(face,),
            outcome=outcome,
            odds=fraction_text(chance),
            params=tuple(params.items()),
        )
        self.rolls.append(roll)
        return roll


Handler = Callable[[Ctx, Args], None]
COMMANDS: dict[str, Handler] = {}


def command(name: str) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        COMMANDS[name] = handler
        return handler

    return register


def refuse(code: str, message: str) -> RuleViolation:
    return RuleViolation(code, message)


def decide(state: MatchState, cmd: Command, rng: random.Random) -> list[Event]:
    if state.phase is Phase.OVER:
        raise refuse("game_over", "The game is over.")
    handler = COMMANDS.get(cmd.type)
    if handler is None:
        raise refuse("unknown_command", f"There is no command {cmd.type!r} in Universalis.")
    ctx = Ctx(state, rng)
    handler(ctx, Args(cmd.args))
    _settle(ctx)
    if ctx.rolls:
        ctx.emit("rolls_shown", state={"last_rolls": tuple(ctx.rolls)})
    return ctx.events


def _roll_data(roll: Roll) -> Any:
    return dump(roll)


# --- Setup -----------------------------------------------------------------------------------


def _player(ctx: Ctx, args: Args) -> int:
    return ctx.state.player(args.integer("player", lo=0, hi=9)).index


@command("choose_mission")
def _choose_mission(ctx: Ctx, args: Args) -> None:
    """Each player picks a mission in secret; both are revealed once both have picked (5.2)."""
    player = _player(ctx, args)
    slug = args.text("mission", choices=[m.slug for m in MISSIONS])
    if ctx.state.phase is not Phase.SETUP or ctx.state.missions_revealed:
        raise refuse("not_now", "The missions are chosen before deployment.")
    if ctx.state.players[player].mission is not None:
        raise refuse("mission_chosen", "This player has chosen a mission already.")
    ctx.emit("mission_chosen", player=player, mission=slug, players={player: {"mission": slug}})
    if all(p.mission is not None for p in ctx.state.players):
        ctx.emit(
            "missions_revealed",
            missions=[p.mission for p in ctx.state.players],
            state={"missions_revealed": True},
        )


def _decided(ctx: Ctx, unit: Unit, label: str) -> Roll:
    """A tie decided without a die (the higher value wins), shown in the roll panel."""
    roll = Roll(label=label, dice=(), outcome="win", odds="1/1", params=(("unit", unit.name),))
    ctx.rolls.append(roll)
    return roll


def _leader(state: MatchState, player: int) -> Unit:
    team = state.team(player)
    return next((u for u in team if u.card.group_leader), team[0])


@command("roll_deployment")
def _roll_deployment(ctx: Ctx, args: Args) -> None:
    """Comparative EH roll of the group leaders; a tie goes to the higher EH, then to chance
    (5.4). The winner marks a zone and deploys first."""
    if ctx.state.phase is not Phase.SETUP or ctx.state.deployment_winner is not None:
        raise refuse("not_now", "The deployment roll-off is made once, before round 1.")
    if not ctx.state.missions_revealed:
        raise refuse("missions_first", "First every player chooses a mission.")
    a, b = _leader(ctx.state, 0), _leader(ctx.state, 1)
    ea, eb = rules.attribute(ctx.state, a, "eh"), rules.attribute(ctx.state, b, "eh")
    outcome, roll = ctx.comparative(
        _("Deployment: %(a)s against %(b)s (EH)"), ea, eb, a=a.name, b=b.name
    )
    rolls = [roll]
    if outcome == "tie" and ea != eb:
        outcome = "win" if ea > eb else "loss"
        rolls.append(_decided(ctx, a if ea > eb else b, _("Tie: %(unit)s has the higher EH")))
    while outcome == "tie":
        outcome, roll = ctx.comparative(_("Deployment tie: chance decides"), 0, 0)
        rolls.append(roll)
    winner = 0 if outcome == "win" else 1
    ctx.emit(
        "deployment_rolled",
        winner=winner,
        rolls=[_roll_data(r) for r in rolls],
        state={"deployment_winner": winner},
    )


@command("start_game")
def _start_game(ctx: Ctx, args: Args) -> None:
    if ctx.state.phase is not Phase.SETUP or ctx.state.deployment_winner is None:
        raise refuse("deployment_first", "First make the deployment roll-off and deploy.")
    _start_round(ctx, 1)


def _start_round(ctx: Ctx, number: int) -> None:
    """AP refilled to 6 (telematons 2) plus the carried AP, at most 12; shock tokens cost 1 AP
    each (5.5.1, 11.5)."""
    units: dict[int, dict[str, Any]] = {}
    for unit in ctx.state.units:
        if not unit.in_play:
            continue
        ap = min(MAX_AP, unit.card.base_ap + unit.ap)
        paid = min(unit.shock_tokens, ap)
        units[unit.id] = {
            "ap": ap - paid,
            "shock_tokens": unit.shock_tokens - paid,
            "shock_paid": paid if unit.telematon else 0,
            "activated": False,
        }
    ctx.emit(
        "round_started",
        round=number,
        units=units,
        players={p.index: {"pick": None} for p in ctx.state.players},
        state={
            "round": number,
            "phase": Phase.ORDER,
            "active": None,
            "follower": None,
            "last_action": None,
        },
    )


@command("operator_takes_shock")
def _operator_takes_shock(ctx: Ctx, args: Args) -> None:
    """At the start of a round an operator may remove its telematon's shock tokens with its own
    AP (19.7), 1 AP each: first the tokens left because the telematon's AP ran out, then those
    the telematon paid this round (it gets that AP back)."""
    unit = ctx.unit(args.integer("unit", lo=0))
    if ctx.state.phase is not Phase.ORDER or any(u.activated for u in ctx.state.units):
        raise refuse("not_now", "Only at the start of a round, before the first initiative.")
    tokens = unit.shock_tokens + unit.shock_paid
    if not unit.telematon or tokens <= 0 or unit.operator is None:
        raise refuse("no_shock_paid", f"{unit.name} has no shock token this round.")
    operator = ctx.unit(unit.operator)
    if not operator.in_play or operator.ap < 1:
        raise refuse("not_enough_ap", f"{operator.name} has no AP to pay with.")
    relieved = (
        {"shock_tokens": unit.shock_tokens - 1}
        if unit.shock_tokens
        else {"ap": unit.ap + 1, "shock_paid": unit.shock_paid - 1}
    )
    ctx.emit(
        "operator_took_shock",
        unit=unit.id,
        operator=operator.id,
        units={operator.id: {"ap": operator.ap - 1}, unit.id: relieved},
    )


# --- Order of the round ------------------------------------------------------------------------


def _orphan(state: MatchState, unit: Unit) -> bool:
    """A telematon whose operator is gone is activated last in the round (19.3)."""
    return unit.telematon and (unit.operator is None or not state.units[unit.operator].in_play)


def eligible(state: MatchState, player: int, *, orphans: bool = False) -> tuple[Unit, ...]:
    """Models of ``player`` that may still take their initiative phase this round: not the
    telematons of an operator in play (they act in its phase); orphaned telematons only when
    ``orphans``."""
    return tuple(
        u
        for u in state.units
        if u.player == player
        and u.in_play
        and not u.activated
        and (not u.telematon or (orphans and _orphan(state, u)))
    )


def picking(state: MatchState) -> bool:
    """Both players still have a model to pick: the order is rolled for."""
    return state.phase is Phase.ORDER and all(eligible(state, p.index) for p in state.players)


def free_activations(state: MatchState) -> tuple[Unit, ...]:
    """Models that take their phase without a roll: the rest of a player's models once the
    other has none left (5.5.2), then the orphaned telematons."""
    if state.phase is not Phase.ORDER or picking(state):
        return ()
    regular = tuple(u for p in state.players for u in eligible(state, p.index))
    if regular:
        return regular
    return tuple(u for p in state.players for u in eligible(state, p.index, orphans=True))


@command("pick")
def _pick(ctx: Ctx, args: Args) -> None:
    """Both players pick a model in secret; when both have, the comparative AGI roll decides
    whose phase comes first (ties: the higher AGI, then chance)."""
    player = _player(ctx, args)
    unit = ctx.unit(args.integer("unit", lo=0))
    if not picking(ctx.state):
        raise refuse("not_now", "Models are picked when both players still have one to pick.")
    if unit not in eligible(ctx.state, player):
        raise refuse("not_eligible", f"{unit.name} cannot be picked now.")
    if ctx.state.players[player].pick is not None:
        raise refuse("picked_already", "This player has picked a model already.")
    ctx.emit("picked", player=player, unit=unit.id, players={player: {"pick": unit.id}})
    picks = [p.pick for p in ctx.state.players]
    if all(pick is not None for pick in picks):
        _roll_initiative(ctx, ctx.unit(picks[0] or 0), ctx.unit(picks[1] or 0))


def _roll_initiative(ctx: Ctx, a: Unit, b: Unit) -> None:
    agi_a = rules.attribute(ctx.state, a, "agi")
    agi_b = rules.attribute(ctx.state, b, "agi")
    outcome, roll = ctx.comparative(
        _("Initiative: %(a)s against %(b)s (AGI)"),
        attribute_value(ctx.state, a, "agi"),
        attribute_value(ctx.state, b, "agi"),
        a=a.name,
        b=b.name,
    )
    rolls = [roll]
    if outcome == "tie" and agi_a != agi_b:
        outcome = "win" if agi_a > agi_b else "loss"
        rolls.append(
            _decided(ctx, a if agi_a > agi_b else b, _("Tie: %(unit)s has the higher AGI"))
        )
    while outcome == "tie":
        outcome, roll = ctx.comparative(_("Initiative tie: chance decides"), 0, 0)
        rolls.append(roll)
    first, second = (a, b) if outcome == "win" else (b, a)
    ctx.emit(
        "initiative_rolled",
        first=first.id,
        second=second.id,
        rolls=[_roll_data(r) for r in rolls],
        players={p.index: {"pick": None} for p in ctx.state.players},
        state={"follower": second.id},
    )
    _begin_phase(ctx, first.id)


@command("activate")
def _activate(ctx: Ctx, args: Args) -> None:
    unit = ctx.unit(args.integer("unit", lo=0))
    if unit not in free_activations(ctx.state):
        if picking(ctx.state):
            raise refuse("pick_first", "Both players still have models: pick in secret.")
        raise refuse("not_eligible", f"{unit.name} cannot take its initiative phase now.")
    _begin_phase(ctx, unit.id)


def _phase_group(state: MatchState, unit_id: int) -> tuple[Unit, ...]:
    """The model and its telematons, which act in its initiative phase (19.1)."""
    return tuple(
        u
        for u in state.units
        if u.in_play and (u.id == unit_id or (u.telematon and u.operator == unit_id))
    )


def _begin_phase(ctx: Ctx, unit_id: int) -> None:
    """Tokens for fast move, defence and fire readiness are removed; then poison, then burning
    (5.6) for the model and its telematons."""
    group = _phase_group(ctx.state, unit_id)
    ctx.emit(
        "phase_started",
        unit=unit_id,
        units={
            u.id: {
                "fast": False,
                "defence": False,
                "readiness": None,
                "moved_cm": 0,
                "threat_tested": False,
                "threat_failed": False,
                "acted": False,
            }
            for u in group
        },
        state={"phase": Phase.ACTING, "active": unit_id, "last_action": None},
    )
    for member in group:
        if member.poison > 0 and member.poison_by is not None:
            ctx.emit(
                "poison_acted",
                unit=member.id,
                units={member.id: {"poison": member.poison - 1}},
            )
            burn = member.poison_by
            damage = _reduced(ctx.unit(member.id), burn.damage, burn.effects)
            _lose_hp(ctx, member.id, damage, None, cause="poison")
    burning = tuple(u.id for u in _phase_group(ctx.state, unit_id) if u.burning is not None)
    if burning:
        ctx.emit("burning_due", units_due=list(burning), state={"burning_due": burning})


# --- Acting ------------------------------------------------------------------------------------


def _blocked(ctx: Ctx) -> None:
    state = ctx.state
    if state.panic_due:
        raise refuse("panic_tests_first", "First make the panic tests that are due.")
    if state.area is not None:
        raise refuse("area_first", "First tell which models the area weapon covers.")
    if state.burning_due:
        raise refuse("burning_first", "First the burning model tests its fire.")


def _actor(ctx: Ctx, args: Args, *, panicking: bool = False, action: bool = True) -> Unit:
    """The model taking an action: the active one or one of its telematons. An action ends
    what the one before offered to react to (6.2, 8, 15.4); a move or a melee then offers
    itself. ``action`` False: a test, not an action."""
    if ctx.state.phase is not Phase.ACTING or ctx.state.active is None:
        raise refuse("not_now", "Actions are taken in a model's initiative phase.")
    _blocked(ctx)
    unit = ctx.unit(args.integer("unit", lo=0))
    if unit not in _phase_group(ctx.state, ctx.state.active):
        raise refuse("not_active", f"It is not {unit.name}'s initiative phase.")
    if unit.burning is not None:
        raise refuse("burning", f"{unit.name} is burning and can take no actions.")
    if unit.panic and not panicking:
        raise refuse("panicking", f"{unit.name} panics: it can only flee.")
    if action and ctx.state.last_action is not None:
        ctx.emit("last_action", state={"last_action": None})
    return unit


def _reactor(ctx: Ctx, args: Args, name: str = "unit") -> Unit:
    if ctx.state.phase is not Phase.ACTING:
        raise refuse("not_now", "Reactions answer an action in an initiative phase.")
    _blocked(ctx)
    unit = ctx.unit(args.integer(name, lo=0))
    reason = rules.can_react(unit)
    if reason:
        raise refuse("cannot_react", f"{unit.name} cannot react ({reason}).")
    if ctx.state.active is not None and unit in _phase_group(ctx.state, ctx.state.active):
        raise refuse("cannot_react", f"{unit.name} acts in this phase; it does not react.")
    return unit


def _spend(
    ctx: Ctx,
    unit: Unit,
    cost: int,
    *,
    action: str,
    operator_ap: int | None = None,
    **data: Any,
) -> Unit:
    """Pay ``cost`` AP (a telematon its own first, the rest from its operator unless
    ``operator_ap`` says how much the operator pays). Any action or reaction ends defence and
    fire readiness (14.2, 15.3); the actions that take them set them after paying."""
    own, from_operator = min(unit.ap, cost), max(0, cost - unit.ap)
    if operator_ap is not None:
        own, from_operator = cost - operator_ap, operator_ap
    operator = ctx.unit(unit.operator) if unit.telematon and unit.operator is not None else None
    if own < 0 or own > unit.ap or (from_operator and (operator is None or not operator.in_play)):
        raise refuse("not_enough_ap", f"{unit.name} has not enough AP for that ({cost}).")
    if operator is not None and from_operator > operator.ap:
        raise refuse("not_enough_ap", f"{unit.name} and its operator lack the AP ({cost}).")
    fields: dict[str, Any] = {
        "ap": unit.ap - own,
        "acted": True,
        "defence": False,
        "readiness": None,
    }
    units: dict[int, dict[str, Any]] = {unit.id: fields}
    if operator is not None and from_operator:
        units[operator.id] = {"ap": operator.ap - from_operator}
    ctx.emit(
        "ap_spent",
        unit=unit.id,
        action=action,
        ap=cost,
        operator_ap=from_operator,
        units=units,
        **data,
    )
    return ctx.unit(unit.id)


def _operator_ap(args: Args) -> int | None:
    return args.optional_int("operator_ap", lo=0, hi=MAX_AP)


def _flight_first(ctx: Ctx, unit: Unit) -> None:
    """A flying model's first action of each round is a full move (8.1)."""
    if unit.card.movement is Movement.FLIGHT and not unit.acted and unit.ap > 0:
        raise refuse("flight_moves_first", f"{unit.name} flies: its first action is a move.")


@command("threat_test")
def _threat_test(ctx: Ctx, args: Args) -> None:
    """EH test to ignore a direct threat; once per initiative phase (4.5.1)."""
    unit = _actor(ctx, args, action=False)
    if unit.telematon:
        raise refuse("no_danger_zone", "Telematons have no danger zone (19.6).")
    if unit.threat_tested:
        raise refuse("threat_tested", "The direct-threat test is made once per phase.")
    _threat_roll(ctx, unit, _("%(unit)s ignores a direct threat (EH)"), "threat_tested")


def _threat_roll(ctx: Ctx, unit: Unit, label: str, event: str) -> bool:
    """The phase's one direct-threat EH test, made alone or to disengage (4.5.1, 8.3)."""
    passed, roll = _eh_test(ctx, unit, label)
    ctx.emit(
        event,
        unit=unit.id,
        passed=passed,
        roll=dump(roll),
        units={unit.id: {"threat_tested": True, "threat_failed": not passed}},
    )
    return passed


def _eh_test(ctx: Ctx, unit: Unit, label: str, modifier: int = 0) -> tuple[bool, Roll]:
    return ctx.attribute_roll(
        label, attribute_value(ctx.state, unit, "eh", modifier), unit=unit.name
    )


@command("turn")
def _turn(ctx: Ctx, args: Args) -> None:
    """Drehen: 0 AP, but an action (it ends defence and fire readiness)."""
    unit = _actor(ctx, args)
    if unit.immobile == "fixed":
        raise refuse("cannot_turn", f"{unit.name} cannot turn any more.")
    _flight_first(ctx, unit)
    _spend(ctx, unit, 0, action="turn")


def _move(ctx: Ctx, unit: Unit, cm: int, action: str, args: Args) -> None:
    """A move of ``cm`` after its cost is paid: fast move above 20 cm in the phase (8.9),
    camouflage back after 2 full moves (16.3), an optional movement test in difficult terrain
    (9.4; tracks may repeat it once)."""
    full = cm >= rules.speed(unit)
    moved = unit.moved_cm + cm
    fields: dict[str, Any] = {"moved_cm": moved, "fast": moved > rules.FAST_MOVE_CM}
    if unit.card.camouflage is not None and not unit.camouflaged and full:
        fields["revealed_moves"] = unit.revealed_moves + 1
        if unit.revealed_moves + 1 >= 2:
            fields.update(camouflaged=True, revealed_moves=0)
    ctx.emit("moved", unit=unit.id, cm=cm, action=action, units={unit.id: fields})
    if args.boolean("movement_test"):
        target = attribute_value(ctx.state, unit, "agi")
        passed, _roll = ctx.attribute_roll(
            _("%(unit)s: movement test (AGI)"), target, unit=unit.name
        )
        if not passed and unit.card.movement is Movement.TRACKS:
            passed, _roll = ctx.attribute_roll(
                _("%(unit)s: movement test again (tracks)"), target, unit=unit.name
            )
        ctx.emit(
            "movement_tested",
            unit=unit.id,
            passed=passed,
            units={} if passed else {unit.id: {"prone": True}},
        )
    ctx.emit("last_action", state={"last_action": LastAction(kind="move", unit=unit.id)})


def _move_cm(unit: Unit, args: Args) -> int:
    """The centimetres of one move action (default: its full speed), at most its speed (8.3;
    a charge and a disengage move like a normal move)."""
    cm = args.integer("cm", rules.speed(unit), lo=0, hi=200)
    most = rules.max_move(unit)
    if cm > most:
        raise refuse("too_far", f"{unit.name} moves at most {most} cm with one move.")
    return cm


def _can_move(ctx: Ctx, unit: Unit) -> bool:
    """Stationary and immobilised models do not move; a colossus whose movement zone is
    critical needs a KO roll for every move (18.3.1)."""
    if unit.card.movement is Movement.STATIONARY or unit.immobile:
        raise refuse("cannot_move", f"{unit.name} cannot move.")
    movement = next((z for z in unit.zones if z.name is ZoneName.MOVEMENT), None)
    if movement is not None and movement.critical:
        target = unit.card.ko + rules.critical_modifier(unit)
        passed, _roll = ctx.attribute_roll(
            _("%(unit)s: KO roll to move (damaged movement)"), target, unit=unit.name
        )
        ctx.emit("move_tested", unit=unit.id, passed=passed)
        return passed
    return True


@command("move")
def _move_command(ctx: Ctx, args: Args) -> None:
    """Normale Bewegung: 1 AP, 2 AP when prone (8.3)."""
    unit = _actor(ctx, args)
    cm = _move_cm(unit, args)
    unit = _spend(ctx, unit, 2 if unit.prone else 1, action="move", operator_ap=_operator_ap(args))
    if _can_move(ctx, unit):
        _move(ctx, unit, cm, "move", args)


@command("disengage")
def _disengage(ctx: Ctx, args: Args) -> None:
    """Aus Nahkampf lösen: the phase's one direct-threat EH test first (8.3, 4.5.1); failed,
    nothing happens and no AP are spent, and it cannot disengage again this phase; passed (now
    or earlier in the phase), a move for 2 AP (3 prone). Enemies in contact may attack it as it
    goes."""
    unit = _actor(ctx, args)
    cost = 3 if unit.prone else 2
    if not rules.has_ap(ctx.state, unit, cost):
        raise refuse("not_enough_ap", f"{unit.name} has not enough AP to disengage.")
    if unit.threat_failed:
        raise refuse(
            "threat_failed", f"{unit.name} failed its direct-threat test: it cannot disengage."
        )
    cm = _move_cm(unit, args)
    if not unit.threat_tested and not _threat_roll(
        ctx, unit, _("%(unit)s tries to disengage (EH)"), "disengage_tested"
    ):
        return
    unit = _spend(ctx, unit, cost, action="disengage", operator_ap=_operator_ap(args))
    if _can_move(ctx, unit):
        _move(ctx, unit, cm, "disengage", args)
    ctx.emit("last_action", state={"last_action": LastAction(kind="disengage", unit=unit.id)})


@command("prone")
def _prone(ctx: Ctx, args: Args) -> None:
    unit = _actor(ctx, args)
    if unit.prone:
        raise refuse("prone_already", f"{unit.name} is lying down already.")
    _flight_first(ctx, unit)
    unit = _spend(ctx, unit, 1, action="prone", operator_ap=_operator_ap(args))
    ctx.emit("went_prone", unit=unit.id, units={unit.id: {"prone": True}})


@command("stand_up")
def _stand_up(ctx: Ctx, args: Args) -> None:
    unit = _actor(ctx, args)
    if not unit.prone:
        raise refuse("not_prone", f"{unit.name} is standing already.")
    unit = _spend(ctx, unit, 1, action="stand_up", operator_ap=_operator_ap(args))
    ctx.emit("stood_up", unit=unit.id, units={unit.id: {"prone": False}})


@command("use_object")
def _use_object(ctx: Ctx, args: Args) -> None:
    """Objekt benutzen: 1 AP, with the object's attribute roll if it has one (9.2.1)."""
    unit = _actor(ctx, args)
    _flight_first(ctx, unit)
    unit = _spend(ctx, unit, 1, action="use_object", operator_ap=_operator_ap(args))
    if args.has("attribute"):
        name = args.text("attribute", choices=[a.value for a in Attribute])
        target = attribute_value(ctx.state, unit, name, args.integer("modifier", 0, lo=-12, hi=12))
        passed, roll = ctx.attribute_roll(
            _("%(unit)s uses an object (%(attribute)s)"),
            target,
            unit=unit.name,
            attribute=name.upper(),
        )
        ctx.emit("object_used", unit=unit.id, passed=passed, roll=dump(roll))
    else:
        ctx.emit("object_used", unit=unit.id, passed=True)


# --- Ranged combat -----------------------------------------------------------------------------


def _reveal_attacker(ctx: Ctx, unit: Unit) -> None:
    """Attacking or firing reveals a camouflaged model (16.3)."""
    if unit.camouflaged:
        ctx.emit(
            "revealed",
            unit=unit.id,
            by=None,
            units={unit.id: {"camouflaged": False, "revealed_moves": 0}},
        )


def _target(ctx: Ctx, args: Args, shooter: Unit, name: str = "unit") -> Unit:
    target = ctx.unit(args.integer(name, lo=0))
    if not target.in_play:
        raise refuse("target_out", f"{target.name} is no longer in play.")
    if target.id == shooter.id:
        raise refuse("target_self", "A model does not attack itself.")
    if target.camouflaged:
        raise refuse("target_camouflaged", f"{target.name} is camouflaged: reveal it first (16.2).")
    return target


def _use_weapon(ctx: Ctx, unit: Unit, index: int) -> None:
    """A single-use marker is struck; a weapon that reloads gets its reload marker (12.7-8)."""
    if index == -1:
        return
    weapon_ = unit.card.weapons[index]
    fields: dict[str, Any] = {}
    if weapon_.uses is not None:
        uses = list(unit.weapon_uses)
        uses[index] = (uses[index] or 0) - 1
        fields["weapon_uses"] = tuple(uses)
    if weapon_.reload:
        fields["reload"] = (*unit.reload, index)
    if fields:
        ctx.emit("weapon_used", unit=unit.id, weapon=index, units={unit.id: fields})


def _check_weapon(unit: Unit, index: int, *, melee: bool) -> Weapon:
    weapon_ = rules.weapon(unit, index)
    if weapon_.melee != melee:
        kind = "melee" if melee else "ranged"
        raise refuse("wrong_weapon", f"{weapon_.name} is not a {kind} weapon.")
    reason = rules.usable(unit, index)
    if reason:
        raise refuse(f"weapon_{reason}", f"{weapon_.name} cannot be used now ({reason}).")
    return weapon_


def _defence_test(ctx: Ctx, unit: Unit) -> None:
    """A model in defence that is shot at or targeted by a power tests EH or loses it (15.3)."""
    if unit.defence:
        passed, roll = _eh_test(ctx, unit, _("%(unit)s keeps its defence (EH)"))
        ctx.emit(
            "defence_tested",
            unit=unit.id,
            passed=passed,
            roll=dump(roll),
            units={} if passed else {unit.id: {"defence": False}},
        )


def _readiness_test(ctx: Ctx, unit: Unit, by: Unit) -> None:
    """A model in fire readiness that is the target of a successful action or reaction of an
    enemy ``by`` tests EH or loses it (14.2): a hit, a won melee, an area weapon that hit, a
    power, a reveal."""
    unit = ctx.unit(unit.id)
    if unit.readiness is not None and unit.in_play and unit.player != by.player:
        passed, roll = _eh_test(ctx, unit, _("%(unit)s keeps its fire readiness (EH)"))
        ctx.emit(
            "readiness_tested",
            unit=unit.id,
            passed=passed,
            roll=dump(roll),
            units={} if passed else {unit.id: {"readiness": None}},
        )


def _shots(args: Args, weapon_: Weapon, mode: str) -> list[tuple[Args, int]]:
    targets = args.objects("targets", most=5)
    if not targets:
        raise refuse("no_target", "Name a target.")
    named = [t.integer("unit", lo=0) for t in targets if t.has("unit")]
    if len(set(named)) != len(named):
        # Several shots on one target are one roll with a bonus, never separate rolls (14.12).
        raise refuse("target_twice", "Name each target once and give it all its shots.")
    shots = [(t, t.integer("shots", 1, lo=1, hi=5)) for t in targets]
    total = sum(n for _t, n in shots)
    if weapon_.area:
        if len(shots) != 1 or total != 1:
            raise refuse("area_one_target", "An area weapon fires once at one point.")
    elif mode == "aimed":
        if total != 1:
            raise refuse("aimed_no_df", "An aimed shot is one shot (no sustained fire).")
    elif total != 1 + weapon_.df:
        raise refuse(
            "df_shots", f"{weapon_.name} fires {1 + weapon_.df} shots: assign all of them."
        )
    return shots


def _shoot(ctx: Ctx, unit: Unit, index: int, mode: str, args: Args) -> None:
    weapon_ = _check_weapon(unit, index, melee=False)
    indirect = args.boolean("indirect")
    if indirect and (not weapon_.indirect or mode == "reaction"):
        raise refuse("not_indirect", f"{weapon_.name} cannot fire indirectly now.")
    shots = _shots(args, weapon_, mode)
    targets: list[tuple[Unit | None, Args, int, int]] = []
    for target_args, count in shots:
        distance = target_args.integer("distance", lo=0, hi=500)
        penalty = rules.band_penalty(weapon_, unit.card.ko, distance, aimed=mode == "aimed")
        if penalty is None:
            raise refuse("out_of_range", f"{weapon_.name} does not reach {distance} cm.")
        target = (
            _target(ctx, target_args, unit) if not weapon_.area or target_args.has("unit") else None
        )
        targets.append((target, target_args, count, penalty))
    cost = rules.weapon_cost(unit, weapon_, SHOT_EXTRA[mode])
    if mode != "reaction":
        _flight_first(ctx, unit)
    unit = _spend(ctx, unit, cost, action=f"shot_{mode}", operator_ap=_operator_ap(args))
    _reveal_attacker(ctx, unit)
    _use_weapon(ctx, unit, index)
    base = shot_base(
        ctx.state, unit, mode, indirect=indirect, friend_sees=args.boolean("friend_sees")
    )
    for number, (target, target_args, count, penalty) in enumerate(targets):
        modifier = shot_value(
            base,
            weapon_,
            target,
            cover=target_args.text("cover", "none", choices=rules.COVERS),
            indirect=indirect,
            penalty=penalty,
            number=number,
            count=count,
        )
        if target is not None:
            if target_args.boolean("dodge"):
                modifier -= _dodge(ctx, target, unit)
            _defence_test(ctx, target)
        hit, roll = ctx.attribute_roll(
            _("%(unit)s shoots %(target)s with %(weapon)s (FK)"),
            modifier,
            unit=unit.name,
            target=target.name if target is not None else "—",
            weapon=weapon_.name,
        )
        ctx.emit(
            "shot",
            unit=unit.id,
            target=None if target is None else target.id,
            weapon=index,
            mode=mode,
            shots=count,
            hit=hit,
            roll=dump(roll),
        )
        if weapon_.area:
            _area_shot(ctx, unit, index, hit, roll, target_args, count - 1, indirect)
            return
        if hit and target is not None:
            victim = _melee_victim(ctx, target, target_args)
            _readiness_test(ctx, victim, unit)
            cover = (
                "massive" if indirect else target_args.text("cover", "none", choices=rules.COVERS)
            )
            _wound(ctx, unit, victim.id, weapon_, extra=count - 1, cover=cover)


def _dodge(ctx: Ctx, target: Unit, shooter: Unit) -> int:
    """Beschuss Ausweichen (1 AP, not prone): the target wins a comparative AGI roll and the
    shooter gets −1 (8.4)."""
    if rules.can_react(target) or target.prone:
        raise refuse("cannot_dodge", f"{target.name} cannot dodge now.")
    target = _spend(ctx, target, 1, action="dodge")
    outcome, roll = ctx.comparative(
        _("%(unit)s dodges %(shooter)s (AGI)"),
        *dodge_values(ctx.state, target, shooter),
        unit=target.name,
        shooter=shooter.name,
    )
    ctx.emit("dodged", unit=target.id, won=outcome == "win", roll=dump(roll))
    return 1 if outcome == "win" else 0


def _melee_victim(ctx: Ctx, target: Unit, target_args: Args) -> Unit:
    """Shooting into melee: every combatant is equally likely to be hit (14.8)."""
    others = [ctx.unit(uid) for uid in target_args.ints("melee_with", hi=999, most=6)]
    combatants = [target, *[u for u in others if u.in_play and u.id != target.id]]
    if len(combatants) == 1:
        return target
    face, roll = ctx.plain(
        _("Who is hit in the melee (1 to %(count)s)"), len(combatants), count=len(combatants)
    )
    victim = combatants[face - 1]
    ctx.emit("melee_victim", unit=victim.id, roll=dump(roll))
    return victim


def _area_shot(
    ctx: Ctx,
    unit: Unit,
    index: int,
    hit: bool,
    roll: Roll,
    target_args: Args,
    extra: int,
    indirect: bool,
) -> None:
    """A miss scatters the impact point by (difference × 3 cm) in a random direction, at most
    half the distance shot (14.13); then the table says whom the area covers."""
    scatter = direction = 0
    if not hit:
        rolled = roll.dice[0] if roll.dice else SIDES
        target = roll.target or 0
        distance = target_args.integer("distance", lo=0, hi=500)
        scatter = min((rolled - max(target, 0)) * 3, distance // 2)
        direction, _roll = ctx.plain(_("Scatter direction (clock face)"), SIDES)
    ctx.emit(
        "area_pending",
        unit=unit.id,
        weapon=index,
        scatter_cm=scatter,
        direction=direction,
        state={
            "area": AreaShot(
                unit=unit.id,
                weapon=index,
                hit=hit,
                scatter_cm=scatter,
                direction=direction,
                extra_strength=extra,
                indirect=indirect,
            )
        },
    )


@command("area_hits")
def _area_hits(ctx: Ctx, args: Args) -> None:
    """The models the area covers: fully (a normal hit) or partly (half damage, rounded up).
    Camouflaged models cannot be hit by area weapons (16.2)."""
    area = ctx.state.area
    if area is None:
        raise refuse("not_now", "No area weapon waits for its hits.")
    shooter = ctx.unit(area.unit)
    weapon_ = rules.weapon(shooter, area.weapon)
    hits = args.objects("hits", most=12)
    victims = []
    for hit in hits:
        victim = ctx.unit(hit.integer("unit", lo=0))
        if not victim.in_play:
            raise refuse("target_out", f"{victim.name} is no longer in play.")
        if victim.camouflaged:
            raise refuse("target_camouflaged", f"{victim.name} is camouflaged (16.2).")
        victims.append((victim, hit))
    ctx.emit("area_resolved", units_hit=[v.id for v, _h in victims], state={"area": None})
    for victim, hit in victims:
        if area.hit:
            _readiness_test(ctx, victim, shooter)
        cover = "massive" if area.indirect else hit.text("cover", "none", choices=rules.COVERS)
        _wound(
            ctx,
            shooter,
            victim.id,
            weapon_,
            extra=area.extra_strength,
            cover=cover,
            partial=hit.boolean("partial"),
        )


@command("shoot")
def _shoot_command(ctx: Ctx, args: Args) -> None:
    """Normaler Schuss (WK+1), Gezielter Schuss (WK+2: +2, bands doubled, no sustained fire),
    Schnellschuss (WK: −2)."""
    unit = _actor(ctx, args)
    mode = args.text("mode", "normal", choices=("normal", "aimed", "snap"))
    _shoot(ctx, unit, args.integer("weapon", 0, lo=0, hi=20), mode, args)


@command("reaction_fire")
def _reaction_fire(ctx: Ctx, args: Args) -> None:
    """Reaktionsfeuer (WK, −1) with the weapon of its fire readiness, at an enemy that just
    moved inside its perception range; the readiness is used up (14.3). Only the mover may be
    shot at, so a sustained fire puts all its 1 + DF shots on it (14.12)."""
    unit = _reactor(ctx, args)
    last = ctx.state.last_action
    if unit.readiness is None:
        raise refuse("no_readiness", f"{unit.name} is not in fire readiness.")
    if last is None or last.kind not in ("move", "disengage"):
        raise refuse("no_move", "Reaction fire answers an enemy's move.")
    mover = ctx.unit(last.unit)
    if mover.player == unit.player:
        raise refuse("no_move", "Reaction fire answers an enemy's move.")
    situation = args.mapping("target")
    target = {
        key: situation[key] for key in ("distance", "cover", "dodge", "shots") if key in situation
    }
    weapon_ = rules.weapon(unit, unit.readiness)
    target.setdefault("shots", 1 if weapon_.area else 1 + weapon_.df)
    shot: dict[str, Any] = {
        "targets": [{"unit": mover.id, **target}],
        "indirect": args.boolean("indirect"),
    }
    _shoot(ctx, unit, unit.readiness, "reaction", Args(shot))


@command("fire_readiness")
def _fire_readiness(ctx: Ctx, args: Args) -> None:
    """Feuerbereitschaft (2 AP) with a WK I-III firearm until its next phase (14.2)."""
    unit = _actor(ctx, args)
    index = args.integer("weapon", 0, lo=0, hi=20)
    weapon_ = _check_weapon(unit, index, melee=False)
    if weapon_.wk > 3:
        raise refuse("readiness_wk", "Fire readiness needs a weapon of WK I to III.")
    _flight_first(ctx, unit)
    unit = _spend(ctx, unit, 2, action="fire_readiness", operator_ap=_operator_ap(args))
    ctx.emit("readiness_taken", unit=unit.id, weapon=index, units={unit.id: {"readiness": index}})


@command("reload")
def _reload(ctx: Ctx, args: Args) -> None:
    """Nachladen (WK): the reload marker of the weapon is removed (14.2)."""
    unit = _actor(ctx, args)
    index = args.integer("weapon", 0, lo=0, hi=20)
    weapon_ = rules.weapon(unit, index)
    if index not in unit.reload:
        raise refuse("no_reload", f"{weapon_.name} has no reload marker.")
    _flight_first(ctx, unit)
    unit = _spend(
        ctx, unit, rules.weapon_cost(unit, weapon_), action="reload", operator_ap=_operator_ap(args)
    )
    ctx.emit(
        "reloaded",
        unit=unit.id,
        weapon=index,
        units={unit.id: {"reload": tuple(i for i in unit.reload if i != index)}},
    )


# --- Melee -------------------------------------------------------------------------------------


def _melee(
    ctx: Ctx,
    attacker: Unit,
    defender: Unit,
    index: int,
    args: Args,
    *,
    charge: bool = False,
    reckless: bool = False,
    attacker_zero: bool = False,
    defender_zero: bool = False,
    kind: str = "melee",
) -> None:
    weapon_ = _check_weapon(attacker, index, melee=True)
    on_win = args.text("on_win", "hit", choices=("hit", "push", "power"))
    if on_win == "push" and rules.size_steps(defender, attacker) > 0:
        raise refuse("push_too_big", f"{defender.name} is too big to be pushed back (15.2).")
    power_index = args.integer("power", 0, lo=0, hi=20) if on_win == "power" else None
    if power_index is not None:
        _touch_power(attacker, power_index)
    # Valued before the attack reveals a camouflaged attacker: it strikes from hiding.
    value_a, value_d = melee_values(
        ctx.state,
        attacker,
        defender,
        friends=args.integer("friends", 0, lo=0, hi=8),
        enemy_friends=args.integer("enemy_friends", 0, lo=0, hi=8),
        charge=charge,
        reckless=reckless,
        attacker_zero=attacker_zero,
        defender_zero=defender_zero,
    )
    _reveal_attacker(ctx, attacker)
    _use_weapon(ctx, attacker, index)
    outcome, roll = ctx.comparative(
        _("%(unit)s attacks %(target)s with %(weapon)s (NK)"),
        value_a,
        value_d,
        unit=attacker.name,
        target=defender.name,
        weapon=weapon_.name,
    )
    rolls = [roll]
    while outcome == "tie":
        outcome, roll = ctx.comparative(
            _("Melee tie: %(unit)s against %(target)s (AGI)"),
            *melee_tie_values(ctx.state, attacker, defender),
            unit=attacker.name,
            target=defender.name,
        )
        rolls.append(roll)
    won = outcome == "win"
    ctx.emit(
        "melee_fought",
        unit=attacker.id,
        target=defender.id,
        weapon=index,
        kind=kind,
        won=won,
        on_win=on_win if won else "",
        rolls=[_roll_data(r) for r in rolls],
        units={defender.id: {"defence": False}} if defender.defence else {},
        state={
            "last_action": LastAction(
                kind="melee",
                unit=attacker.id,
                target=defender.id,
                reckless_lost=reckless and not won,
            )
        },
    )
    if not won:
        return
    _readiness_test(ctx, defender, attacker)
    if on_win == "hit":
        _wound(ctx, attacker, defender.id, weapon_, cover="none")
    elif on_win == "power" and power_index is not None:
        _resolve_power(ctx, ctx.unit(attacker.id), power_index, defender, args)


@command("melee")
def _melee_command(ctx: Ctx, args: Args) -> None:
    """Angriff (WK), Verwegener Angriff (WK+2: +3 NK), and with ``charge`` the
    Angriffsbewegung: a move costing the weapon's WK that becomes the attack (+2 NK unless the
    defender is in defence) when it reaches base contact."""
    unit = _actor(ctx, args)
    index = args.integer("weapon", 0, lo=-1, hi=20)
    weapon_ = _check_weapon(unit, index, melee=True)
    reckless = args.boolean("reckless")
    charge = args.boolean("charge")
    cost = rules.weapon_cost(unit, weapon_, 2 if reckless else 0)
    if charge and not args.boolean("reached", True):
        if not _can_move_freely(unit):
            raise refuse("cannot_move", f"{unit.name} cannot move.")
        cm = _move_cm(unit, args)
        unit = _spend(ctx, unit, cost, action="charge", operator_ap=_operator_ap(args))
        if _can_move(ctx, unit):
            _move(ctx, unit, cm, "charge", args)
        return
    target = _target(ctx, args, unit, "target")
    if charge and not _can_move_freely(unit):
        raise refuse("cannot_move", f"{unit.name} cannot move.")
    cm = _move_cm(unit, args) if charge else 0
    if not charge:
        _flight_first(ctx, unit)
    unit = _spend(
        ctx,
        unit,
        cost,
        action="reckless" if reckless else "charge" if charge else "melee",
        operator_ap=_operator_ap(args),
    )
    if charge:
        # A colossus with a critical movement zone that fails its KO roll does not move, so
        # its charge never reaches the enemy (18.3.1).
        if not _can_move(ctx, unit):
            return
        _move(ctx, unit, cm, "charge", args)
    _melee(ctx, ctx.unit(unit.id), target, index, args, charge=charge, reckless=reckless)


def _can_move_freely(unit: Unit) -> bool:
    """Whether the model may move at all, checked before paying (the KO roll of a damaged
    movement zone comes after, with ``_can_move``)."""
    return unit.card.movement is not Movement.STATIONARY and not unit.immobile


@command("counter_attack")
def _counter_attack(ctx: Ctx, args: Args) -> None:
    """Gegenangriff (WK), right after a melee, by its defender; a reckless attacker that lost
    defends with NK 0 (15.3-15.4)."""
    unit = _reactor(ctx, args)
    last = ctx.state.last_action
    if last is None or last.kind != "melee" or last.target != unit.id:
        raise refuse("no_melee", "A counter-attack answers a melee attack on this model.")
    attacker = ctx.unit(last.unit)
    if not attacker.in_play:
        raise refuse("target_out", f"{attacker.name} is no longer in play.")
    index = args.integer("weapon", 0, lo=-1, hi=20)
    weapon_ = _check_weapon(unit, index, melee=True)
    unit = _spend(ctx, unit, rules.weapon_cost(unit, weapon_), action="counter_attack")
    _melee(
        ctx, unit, attacker, index, args, defender_zero=last.reckless_lost, kind="counter_attack"
    )


@command("opportunity_attack")
def _opportunity_attack(ctx: Ctx, args: Args) -> None:
    """Gelegenheitsangriff (WK) on a model disengaging from base contact: it fights with NK 0."""
    unit = _reactor(ctx, args)
    last = ctx.state.last_action
    if last is None or last.kind != "disengage":
        raise refuse("no_disengage", "An opportunity attack answers a model disengaging.")
    mover = ctx.unit(last.unit)
    if mover.player == unit.player or not mover.in_play:
        raise refuse("no_disengage", "An opportunity attack answers an enemy disengaging.")
    index = args.integer("weapon", 0, lo=-1, hi=20)
    weapon_ = _check_weapon(unit, index, melee=True)
    unit = _spend(ctx, unit, rules.weapon_cost(unit, weapon_), action="opportunity_attack")
    _melee(ctx, unit, mover, index, args, defender_zero=True, kind="opportunity_attack")
    ctx.emit("last_action", state={"last_action": last})


@command("defence")
def _defence(ctx: Ctx, args: Args) -> None:
    """Verteidigung (2 AP) until its next phase: no charge bonus against it (15.3)."""
    unit = _actor(ctx, args)
    _flight_first(ctx, unit)
    unit = _spend(ctx, unit, 2, action="defence", operator_ap=_operator_ap(args))
    ctx.emit("defence_taken", unit=unit.id, units={unit.id: {"defence": True}})


# --- Camouflage --------------------------------------------------------------------------------


@command("reveal")
def _reveal(ctx: Ctx, args: Args) -> None:
    """Aufklären (2+ AP): a WN roll, harder by the camouflage level, 1 easier per extra AP and
    per model giving Aufklärungsunterstützung (2 AP each, a reaction) (16.4-16.5)."""
    unit = _actor(ctx, args)
    target = ctx.unit(args.integer("target", lo=0))
    if target.player == unit.player:
        raise refuse("reveal_friend", "Aufklären looks for a camouflaged enemy (16.4).")
    if not target.in_play or not target.camouflaged or target.card.camouflage is None:
        raise refuse("not_camouflaged", f"{target.name} is not camouflaged.")
    extra = args.integer("extra_ap", 0, lo=0, hi=10)
    supporters = [ctx.unit(uid) for uid in args.ints("supporters", hi=999, most=6)]
    for supporter in supporters:
        if supporter.player != unit.player or supporter.id == unit.id:
            raise refuse("bad_supporter", f"{supporter.name} cannot support this reveal.")
        if rules.can_react(supporter):
            raise refuse("cannot_react", f"{supporter.name} cannot react now.")
    _flight_first(ctx, unit)
    unit = _spend(ctx, unit, 2 + extra, action="reveal", operator_ap=_operator_ap(args))
    for supporter in supporters:
        _spend(ctx, ctx.unit(supporter.id), 2, action="recon_support")
    value = reveal_value(ctx.state, unit, target, extra=extra, supporters=len(supporters))
    passed, roll = ctx.attribute_roll(
        _("%(unit)s tries to reveal %(target)s (WN)"), value, unit=unit.name, target=target.name
    )
    ctx.emit(
        "reveal_rolled",
        unit=unit.id,
        target=target.id,
        passed=passed,
        roll=dump(roll),
        units={target.id: {"camouflaged": False, "revealed_moves": 0}} if passed else {},
    )
    if passed:
        _readiness_test(ctx, target, unit)


@command("camouflage")
def _camouflage(ctx: Ctx, args: Args) -> None:
    """The table says a model's camouflage is (again) on or off: passive camouflage needs
    contact with terrain, which only the players see (16.1)."""
    if ctx.state.phase is Phase.OVER:
        raise refuse("game_over", "The game is over.")
    unit = ctx.unit(args.integer("unit", lo=0))
    hidden = args.boolean("hidden")
    if unit.card.camouflage is None or not unit.in_play:
        raise refuse("no_camouflage", f"{unit.name} has no camouflage.")
    ctx.emit(
        "camouflage_set",
        unit=unit.id,
        hidden=hidden,
        units={unit.id: {"camouflaged": hidden, "revealed_moves": 0}},
    )


# --- Traits, equipment, powers -----------------------------------------------------------------


def _use_marked(ctx: Ctx, unit: Unit, kind: str, index: int, args: Args) -> None:
    items = unit.card.traits if kind == "trait" else unit.card.equipment
    if not 0 <= index < len(items):
        raise refuse("unknown_item", f"{unit.name} has no {kind} number {index}.")
    item = items[index]
    uses = unit.trait_uses if kind == "trait" else unit.equipment_uses
    if item.ap is None:
        raise refuse("no_action", f"{item.name} needs no action: it always applies.")
    if item.uses is not None and uses[index] == 0:
        raise refuse("used_up", f"{item.name} has no single-use marker left.")
    _flight_first(ctx, unit)
    unit = _spend(ctx, unit, item.ap, action=f"use_{kind}", operator_ap=_operator_ap(args))
    fields: dict[str, Any] = {}
    if item.uses is not None:
        left = list(uses)
        left[index] = (left[index] or 0) - 1
        fields["trait_uses" if kind == "trait" else "equipment_uses"] = tuple(left)
    ctx.emit(f"{kind}_used", unit=unit.id, index=index, units={unit.id: fields} if fields else {})


@command("use_trait")
def _use_trait(ctx: Ctx, args: Args) -> None:
    unit = _actor(ctx, args)
    _use_marked(ctx, unit, "trait", args.integer("trait", lo=0, hi=30), args)


@command("use_equipment")
def _use_equipment(ctx: Ctx, args: Args) -> None:
    unit = _actor(ctx, args)
    _use_marked(ctx, unit, "equipment", args.integer("equipment", lo=0, hi=30), args)


def _touch_power(unit: Unit, index: int) -> None:
    if not 0 <= index < len(unit.powers):
        raise refuse("unknown_power", f"{unit.name} has no power number {index}.")
    if unit.powers[index].range is not PowerRange.TOUCH:
        raise refuse("not_touch", f"{unit.powers[index].name} is not a touch power.")


def _power_roll(ctx: Ctx, unit: Unit, index: int, owner: Unit, label: str) -> bool:
    """The power's attribute roll with its difficulty; HP are lost on a failure, or always
    (20.2.2-20.2.3). ``owner`` holds the power (a blocker rolls against another's power)."""
    power = owner.powers[index]
    passed, roll = ctx.attribute_roll(
        label,
        power_value(ctx.state, unit, power),
        unit=unit.name,
        power=power.name,
    )
    ctx.emit("power_rolled", unit=unit.id, power=power.name, passed=passed, roll=dump(roll))
    if power.hp_loss and (power.hp_loss_always or not passed):
        _lose_hp(ctx, unit.id, power.hp_loss, None, cause="power", shock=False)
    return passed


def _resolve_power(ctx: Ctx, unit: Unit, index: int, target: Unit | None, args: Args) -> bool:
    """Roll, blocks and effect of a power; True when it took effect."""
    power = unit.powers[index]
    blockers = [ctx.unit(uid) for uid in args.ints("blockers", hi=999, most=4)]
    for blocker in blockers:
        _check_blocker(ctx, blocker, unit)
    if power.ap:
        unit = _spend(ctx, unit, power.ap, action="use_power", operator_ap=_operator_ap(args))
    if target is not None and target.player != unit.player:
        _defence_test(ctx, target)
    if not _power_roll(ctx, unit, index, unit, _("%(unit)s uses %(power)s")):
        return False
    for blocker in blockers:
        blocker = _spend(ctx, ctx.unit(blocker.id), 3, action="block_power_reaction")
        if _power_roll(ctx, blocker, index, unit, _("%(unit)s tries to block %(power)s")):
            ctx.emit("power_blocked", unit=unit.id, power=power.name, by=blocker.id)
            return False
    unit = ctx.unit(unit.id)
    lasting = power.duration is PowerDuration.LASTING
    ctx.emit(
        "power_used",
        unit=unit.id,
        power=power.name,
        index=index,
        target=None if target is None else target.id,
        units={unit.id: {"powers_in_play": (*unit.powers_in_play, index)}} if lasting else {},
    )
    return True


def _check_blocker(ctx: Ctx, blocker: Unit, owner: Unit) -> None:
    """Only models of a discipline block powers (20.5)."""
    if blocker.player == owner.player or not blocker.card.disciplines:
        raise refuse("cannot_block", f"{blocker.name} cannot block powers.")
    if rules.can_react(blocker):
        raise refuse("cannot_react", f"{blocker.name} cannot react now.")


@command("use_power")
def _use_power(ctx: Ctx, args: Args) -> None:
    """Kraft einsetzen (X AP). A touch power on an enemy needs a won melee attack first
    (``melee`` with on_win "power")."""
    unit = _actor(ctx, args)
    index = args.integer("power", lo=0, hi=20)
    if not 0 <= index < len(unit.powers):
        raise refuse("unknown_power", f"{unit.name} has no power number {index}.")
    power = unit.powers[index]
    if index in unit.powers_in_play:
        raise refuse("power_in_play", f"{power.name} is in play: end it before using it again.")
    target = ctx.unit(args.integer("target", lo=0)) if args.has("target") else None
    if power.range is PowerRange.TOUCH and target is not None and target.player != unit.player:
        raise refuse("touch_needs_melee", "A touch power on an enemy needs a won melee first.")
    if target is not None and target.camouflaged and target.player != unit.player:
        raise refuse("target_camouflaged", f"{target.name} is camouflaged.")
    _flight_first(ctx, unit)
    if _resolve_power(ctx, unit, index, target, args) and target is not None:
        # Here, not in _resolve_power: a touch power after a won melee is part of that
        # melee, which made the test already.
        _readiness_test(ctx, target, unit)


@command("end_power")
def _end_power(ctx: Ctx, args: Args) -> None:
    unit = _actor(ctx, args)
    index = args.integer("power", lo=0, hi=20)
    if index not in unit.powers_in_play:
        raise refuse("power_not_in_play", "That power is not in play.")
    unit = _spend(ctx, unit, 1, action="end_power", operator_ap=_operator_ap(args))
    ctx.emit(
        "power_ended",
        unit=unit.id,
        power=unit.powers[index].name,
        units={unit.id: {"powers_in_play": tuple(i for i in unit.powers_in_play if i != index)}},
    )


@command("block_power")
def _block_power(ctx: Ctx, args: Args) -> None:
    """Kraft blockieren (2 AP, an action): a lasting enemy power in play ends on a successful
    roll against its attribute and difficulty (20.3, 20.5)."""
    unit = _actor(ctx, args)
    owner = ctx.unit(args.integer("owner", lo=0))
    index = args.integer("power", lo=0, hi=20)
    if index not in owner.powers_in_play:
        raise refuse("power_not_in_play", "That power is not in play.")
    if owner.player == unit.player or not unit.card.disciplines:
        raise refuse("cannot_block", f"{unit.name} cannot block that power.")
    unit = _spend(ctx, unit, 2, action="block_power", operator_ap=_operator_ap(args))
    if _power_roll(ctx, unit, index, owner, _("%(unit)s tries to block %(power)s")):
        ctx.emit(
            "power_ended",
            unit=owner.id,
            power=owner.powers[index].name,
            by=unit.id,
            units={
                owner.id: {"powers_in_play": tuple(i for i in owner.powers_in_play if i != index)}
            },
        )


# --- Wounds, damage, conditions ----------------------------------------------------------------


def _reduced(victim: Unit, damage: int, effects: tuple[Effect, ...]) -> int:
    """Damage reduction, then Strukturverstärkt halves (rounded down) unless the weapon is
    Strukturschädigend (10.3.3, 10.5)."""
    armour = victim.card.armour
    if armour is None:
        return damage
    damage = max(0, damage - armour.reduction)
    if Effect.STRUKTURVERSTAERKT in armour.effects and Effect.STRUKTURSCHAEDIGEND not in effects:
        damage //= 2
    return damage


def _wound(
    ctx: Ctx,
    attacker: Unit | None,
    victim_id: int,
    weapon_: Weapon,
    *,
    extra: int = 0,
    cover: str = "none",
    partial: bool = False,
) -> None:
    """The wound against armour roll of a hit and the damage it does (10.4-10.5)."""
    victim = ctx.unit(victim_id)
    if not victim.in_play:
        return
    zone = _hit_zone(ctx, victim)
    values = wound_values(attacker, victim, weapon_, extra=extra, cover=cover)
    effects, rerolls = values.effects, values.rerolls
    wound_value, armour_value = values.wound, values.armour
    ko = attacker.card.ko if attacker is not None else 0
    outcome, roll = ctx.comparative(
        _("Wound against armour: %(weapon)s against %(target)s"),
        wound_value,
        armour_value,
        weapon=weapon_.name,
        target=victim.name,
    )
    # The chances shown are those of the outcome after every reroll, not of these dice alone.
    chance = wound_odds(wound_value, armour_value, rerolls)
    roll = ctx.rolls[-1] = replace(
        roll, odds=fraction_text(chance.damage), tie_odds=fraction_text(chance.shock)
    )
    rolls = [roll]
    wound, armour = roll.totals
    while name := next_reroll(wound, armour, rerolls):
        chance = wound_odds_from(wound, armour, wound_value, armour_value, rerolls)
        rerolls = used(rerolls, name)
        face = ctx.d12()
        if name == "robust":
            wound = wound_value + face
        else:
            armour = armour_value + face
        reroll = Roll(
            label=_("Reroll (%(effect)s)"),
            dice=(face,),
            outcome="win" if wound > armour else "tie" if wound == armour else "loss",
            odds=fraction_text(chance.damage),
            params=(("effect", name),),
            totals=(wound, armour),
            tie_odds=fraction_text(chance.shock),
        )
        ctx.rolls.append(reroll)
        rolls.append(reroll)
    ctx.emit(
        "wound_rolled",
        unit=victim.id,
        weapon=weapon_.name,
        zone=None if zone is None else zone.value,
        wound=wound,
        armour=armour,
        rolls=[_roll_data(r) for r in rolls],
    )
    if wound < armour:
        return
    if wound == armour:
        _shock(ctx, victim.id, 1, cause="tie")
        return
    damage = math.ceil(weapon_.damage / 2) if partial else weapon_.damage
    damage = _reduced(victim, damage, tuple(effects))
    if Effect.ZERFETZEN in effects and damage > 0:
        passed, _roll = ctx.attribute_roll(
            _("%(unit)s resists Zerfetzen (KO)"),
            victim.card.ko + rules.critical_modifier(victim),
            unit=victim.name,
        )
        if not passed:
            damage *= 2
    if Effect.TRAUMA in effects:
        _shock(ctx, victim.id, damage, cause="trauma")
        return
    _lose_hp(ctx, victim.id, damage, zone, cause="wound")
    victim = ctx.unit(victim.id)
    if victim.in_play:
        burn = Burn(weapon_.name, weapon_.strength_for(ko), weapon_.damage, weapon_.effects)
        if Effect.BRAND in effects and victim.burning is None:
            ctx.emit("set_on_fire", unit=victim.id, units={victim.id: {"burning": burn}})
        if Effect.GIFTIG in effects:
            markers = math.ceil((wound - armour) / 2)
            ctx.emit(
                "poisoned",
                unit=victim.id,
                markers=markers,
                units={victim.id: {"poison": victim.poison + markers, "poison_by": burn}},
            )


def _hit_zone(ctx: Ctx, victim: Unit) -> ZoneName | None:
    """A colossus's hit zone by 1d12; a destroyed zone's hits go to the torso."""
    if not victim.zones:
        return None
    destroyed = {z.name for z in victim.zones if z.destroyed}

    def zone_hit(face: int) -> str:
        zone = ZONE_ROLL[face]
        return (ZoneName.TORSO if zone in destroyed else zone).value

    roll = ctx.banded(_("Hit zone of %(unit)s"), zone_hit, unit=victim.name)
    zone = ZoneName(roll.outcome)
    ctx.emit("zone_rolled", unit=victim.id, zone=zone.value, roll=dump(roll))
    return zone


def _shock(ctx: Ctx, unit_id: int, count: int, *, cause: str) -> None:
    """Each shock costs 1 AP at once, or becomes a shock token without AP (11.5)."""
    unit = ctx.unit(unit_id)
    if count <= 0 or not unit.in_play:
        return
    from_ap = min(unit.ap, count)
    ctx.emit(
        "shocked",
        unit=unit_id,
        count=count,
        cause=cause,
        units={
            unit_id: {"ap": unit.ap - from_ap, "shock_tokens": unit.shock_tokens + count - from_ap}
        },
    )


def _lose_hp(
    ctx: Ctx, unit_id: int, amount: int, zone: ZoneName | None, *, cause: str, shock: bool = True
) -> None:
    """Hit points are lost: at 0 the model is eliminated; a survivor takes 1 shock and, with
    only critical hit points left, falls into the critical state once (later: 1 shock more)
    (10.5, 11.3). A colossus's side and movement zones have their own effects (18.3)."""
    unit = ctx.unit(unit_id)
    if not unit.in_play or amount <= 0:
        return
    if zone is not None and zone is not ZoneName.TORSO:
        _zone_damage(ctx, unit, zone, amount)
        if shock:
            _shock(ctx, unit_id, 1, cause="survived")
        return
    hp = unit.hp - amount
    ctx.emit("hp_lost", unit=unit_id, amount=amount, cause=cause, units={unit_id: {"hp": hp}})
    if hp <= 0:
        _eliminate(ctx, unit_id, cause=cause)
        return
    if shock:
        _shock(ctx, unit_id, 1, cause="survived")
    if unit.card.hp_critical and hp <= unit.card.hp_critical:
        # The critical state lasts for the rest of the game and comes once; damage that would
        # bring it again costs 1 shock instead (11.3).
        if unit.was_critical:
            _shock(ctx, unit_id, 1, cause="critical_again")
        else:
            ctx.emit(
                "critical", unit=unit_id, units={unit_id: {"critical": True, "was_critical": True}}
            )


def _zone_damage(ctx: Ctx, unit: Unit, name: ZoneName, amount: int) -> None:
    zones = list(unit.zones)
    index = next(i for i, z in enumerate(zones) if z.name is name)
    zone = zones[index]
    hp = max(0, zone.hp - amount)
    critical = zone.critical or (zone.hp_critical > 0 and hp <= zone.hp_critical)
    zones[index] = Zone(
        name=zone.name,
        hp=hp,
        hp_max=zone.hp_max,
        hp_critical=zone.hp_critical,
        critical=critical and hp > 0,
        destroyed=hp <= 0,
    )
    ctx.emit(
        "zone_damaged",
        unit=unit.id,
        zone=name.value,
        amount=amount,
        destroyed=hp <= 0,
        units={unit.id: {"zones": tuple(zones)}},
    )
    if hp <= 0 and name is ZoneName.MOVEMENT:
        roll = ctx.banded(
            _("%(unit)s: movement destroyed"),
            lambda face: "falls" if face == SIDES else "can_turn" if face <= 6 else "cannot_turn",
            unit=unit.name,
        )
        if roll.outcome == "falls":
            ctx.emit("fell_over", unit=unit.id, roll=dump(roll))
            _eliminate(ctx, unit.id, cause="fell_over")
        else:
            immobile = "turn" if roll.outcome == "can_turn" else "fixed"
            ctx.emit(
                "immobilised",
                unit=unit.id,
                immobile=immobile,
                roll=dump(roll),
                units={unit.id: {"immobile": immobile}},
            )


def _eliminate(ctx: Ctx, unit_id: int, *, cause: str) -> None:
    """Eliminated (11.2): every friend that perceives it tests for panic; its telematons panic;
    a telematon's elimination feeds back on its operator (19.8)."""
    unit = ctx.unit(unit_id)
    ctx.emit(
        "eliminated",
        unit=unit_id,
        cause=cause,
        units={
            unit_id: {"eliminated": True, "ap": 0, "burning": None, "poison": 0, "panic": False}
        },
    )
    friends = [
        u for u in ctx.state.units if u.player == unit.player and u.in_play and u.id != unit_id
    ]
    _operator_gone(ctx, unit_id)
    due = tuple(
        PanicDue(unit=u.id, cause=unit_id)
        for u in friends
        if not ctx.unit(u.id).panic and not (u.telematon and u.operator == unit_id)
    )
    if due:
        ctx.emit(
            "panic_tests_due",
            units_due=[d.unit for d in due],
            state={"panic_due": ctx.state.panic_due + due},
        )
    if unit.telematon and unit.operator is not None and ctx.unit(unit.operator).in_play:
        operator = ctx.unit(unit.operator)
        passed, roll = _eh_test(ctx, operator, _("%(unit)s withstands the feedback (EH)"))
        ctx.emit("feedback", unit=operator.id, telematon=unit_id, passed=passed, roll=dump(roll))
        if not passed:
            _lose_hp(ctx, operator.id, unit.card.ko // 2, None, cause="feedback", shock=False)


def _operator_gone(ctx: Ctx, operator_id: int) -> None:
    """Telematons whose operator was eliminated or left the table panic (19.3)."""
    for telematon in ctx.state.units:
        if (
            telematon.telematon
            and telematon.operator == operator_id
            and telematon.in_play
            and not telematon.panic
        ):
            ctx.emit(
                "panicked",
                unit=telematon.id,
                cause="operator",
                units={telematon.id: {"panic": True}},
            )


@command("panic_test")
def _panic_test(ctx: Ctx, args: Args) -> None:
    """The EH test of a friend that perceives the eliminated model (11.4): −3 for it, −2 per
    other eliminated friend, −1 per enemy, +1 per friend, +3 per friend in base contact in its
    perception range (panicking models ignored)."""
    unit = ctx.unit(args.integer("unit", lo=0))
    due = next((d for d in ctx.state.panic_due if d.unit == unit.id), None)
    if due is None:
        raise refuse("no_panic_test", f"{unit.name} owes no panic test.")
    ctx.emit(
        "panic_test_taken",
        unit=unit.id,
        state={"panic_due": tuple(d for d in ctx.state.panic_due if d is not due)},
    )
    _panic_roll(ctx, unit, args, just_eliminated=True)


def _panic_roll(ctx: Ctx, unit: Unit, args: Args, *, just_eliminated: bool) -> None:
    modifier = panic_modifier(
        just_eliminated=just_eliminated,
        other_eliminated=args.integer("other_eliminated", 0, lo=0, hi=20),
        enemies=args.integer("enemies", 0, lo=0, hi=20),
        friends=args.integer("friends", 0, lo=0, hi=20),
        friends_in_contact=args.integer("friends_in_contact", 0, lo=0, hi=8),
    )
    passed, roll = _eh_test(ctx, unit, _("%(unit)s: panic test (EH)"), modifier)
    ctx.emit(
        "panic_tested",
        unit=unit.id,
        passed=passed,
        roll=dump(roll),
        units={unit.id: {"panic": not passed}} if passed == unit.panic else {},
    )


@command("skip_panic_test")
def _skip_panic_test(ctx: Ctx, args: Args) -> None:
    """The friend does not perceive the eliminated model: no test."""
    unit = ctx.unit(args.integer("unit", lo=0))
    due = next((d for d in ctx.state.panic_due if d.unit == unit.id), None)
    if due is None:
        raise refuse("no_panic_test", f"{unit.name} owes no panic test.")
    ctx.emit(
        "panic_test_skipped",
        unit=unit.id,
        state={"panic_due": tuple(d for d in ctx.state.panic_due if d is not due)},
    )


@command("flee")
def _flee(ctx: Ctx, args: Args) -> None:
    """A panicking model spends all its AP running to the nearest table edge; once it has left
    the table it is out of the game (11.4.1) and its telematons panic (19.3)."""
    unit = _actor(ctx, args, panicking=True)
    if not unit.panic:
        raise refuse("not_panicking", f"{unit.name} is not panicking.")
    left = args.boolean("left_table")
    ctx.emit(
        "fled",
        unit=unit.id,
        ap=unit.ap,
        left_table=left,
        units={unit.id: {"ap": 0, "fled": left, "acted": True}},
    )
    if left:
        _operator_gone(ctx, unit.id)
    else:
        # Its run to the edge is one continuous move enemies may answer (8, 14.3).
        ctx.emit("last_action", state={"last_action": LastAction(kind="move", unit=unit.id)})


@command("burning_test")
def _burning_test(ctx: Ctx, args: Args) -> None:
    """Brennen at the start of its phase: 1d12 + 2 per friend in base contact (11.1). 1-8: an
    automatic hit with the igniting weapon's profile, then (if it survives) d6 moves of full
    speed in random directions, paying AP; 9-11: the marker goes, 1 shock; 12+: it goes."""
    unit = ctx.unit(args.integer("unit", lo=0))
    if unit.id not in ctx.state.burning_due or unit.burning is None:
        raise refuse("no_burning_test", f"{unit.name} has no fire to test now.")
    bonus = 2 * args.integer("helpers", 0, lo=0, hi=8)
    roll = ctx.banded(
        _("%(unit)s burns (1d12 + %(bonus)s)"),
        lambda face: (
            "fire_out" if face + bonus >= 12 else "fire_out_shock" if face + bonus >= 9 else "burns"
        ),
        unit=unit.name,
        bonus=bonus,
    )
    total = roll.dice[0] + bonus
    ctx.emit(
        "burning_tested",
        unit=unit.id,
        total=total,
        roll=dump(roll),
        state={"burning_due": tuple(u for u in ctx.state.burning_due if u != unit.id)},
    )
    burn = unit.burning
    if total >= 12:
        ctx.emit("fire_out", unit=unit.id, units={unit.id: {"burning": None}})
    elif total >= 9:
        ctx.emit("fire_out", unit=unit.id, units={unit.id: {"burning": None}})
        _shock(ctx, unit.id, 1, cause="fire")
    else:
        weapon_ = Weapon(
            name=burn.name,
            wk=1,
            range="NK",
            strength=burn.strength,
            damage=burn.damage,
            effects=burn.effects,
        )
        _wound(ctx, None, unit.id, weapon_)
        unit = ctx.unit(unit.id)
        if unit.in_play:
            times, _times_roll = ctx.plain(_("%(unit)s runs burning (d6 moves)"), 6, unit=unit.name)
            cost = 2 if unit.prone else 1
            moves = min(times, unit.ap // cost) if cost else times
            directions = [ctx.plain(_("Direction (clock face)"), SIDES)[0] for _n in range(moves)]
            ctx.emit(
                "ran_burning",
                unit=unit.id,
                moves=moves,
                directions=directions,
                units={unit.id: {"ap": unit.ap - moves * cost}},
            )


@command("auto_hit")
def _auto_hit(ctx: Ctx, args: Args) -> None:
    """An automatic hit the tracker does not model itself (a power's effect, a trap): the wound
    against armour roll of the given profile."""
    if ctx.state.phase not in (Phase.ACTING, Phase.ORDER, Phase.ROUND_END):
        raise refuse("not_now", "Automatic hits happen during the rounds.")
    victim = ctx.unit(args.integer("unit", lo=0))
    if not victim.in_play:
        raise refuse("target_out", f"{victim.name} is no longer in play.")
    effects = tuple(
        Effect(e) for e in args.strs("effects", choices=[e.value for e in Effect], most=9)
    )
    weapon_ = Weapon(
        name=args.text("name", "—")[:60] or "—",
        wk=1,
        range="NK",
        strength=args.integer("strength", lo=0, hi=30),
        damage=args.integer("damage", lo=0, hi=20),
        effects=effects,
    )
    ctx.emit("auto_hit", unit=victim.id, name=weapon_.name)
    _wound(ctx, None, victim.id, weapon_, cover=args.text("cover", "none", choices=rules.COVERS))


@command("fall")
def _fall(ctx: Ctx, args: Args) -> None:
    """Fall damage (8.8.1): up to its size nothing; up to double a movement test (AGI) avoids a
    hit of strength KO and damage KO/2 (rounded down); higher, a hit of strength and damage KO."""
    if ctx.state.phase not in (Phase.ACTING, Phase.ROUND_END):
        raise refuse("not_now", "Falls happen during the rounds.")
    unit = ctx.unit(args.integer("unit", lo=0))
    height = args.text("height", choices=("size", "double", "higher"))
    ctx.emit("fell", unit=unit.id, height=height)
    if height == "size" or not unit.in_play:
        return
    damage = unit.card.ko
    if height == "double":
        target = attribute_value(ctx.state, unit, "agi")
        passed, _roll = ctx.attribute_roll(_("%(unit)s lands safely (AGI)"), target, unit=unit.name)
        if passed:
            return
        damage //= 2
    fall = Weapon(name="Sturz", wk=1, range="NK", strength=unit.card.ko, damage=damage)
    _wound(ctx, None, unit.id, fall)


@command("correct")
def _correct(ctx: Ctx, args: Args) -> None:
    """A hand correction of what the table agrees is wrong: hit points, AP, shock tokens."""
    if ctx.state.phase is Phase.SETUP:
        raise refuse("not_now", "Corrections are made during the rounds.")
    unit = ctx.unit(args.integer("unit", lo=0))
    fields: dict[str, Any] = {}
    if args.has("hp"):
        fields["hp"] = args.integer("hp", lo=1, hi=unit.card.hp_total)
    if args.has("ap"):
        fields["ap"] = args.integer("ap", lo=0, hi=MAX_AP)
    if args.has("shock_tokens"):
        fields["shock_tokens"] = args.integer("shock_tokens", lo=0, hi=20)
    if not fields or not unit.in_play:
        raise refuse("nothing_to_correct", "Give the hit points, AP or shock tokens to set.")
    ctx.emit("corrected", unit=unit.id, values=fields, units={unit.id: fields})


# --- End of a phase, a round, the game -----------------------------------------------------------


@command("end_phase")
def _end_phase(ctx: Ctx, args: Args) -> None:
    """Ends the initiative phase; a panicking model may retest at its end (11.4.1): the active
    model (``panic_retest``) and the telematons acting in its phase (``panic_retests``, each
    naming its ``unit``), except a telematon without its operator: it has no EH of its own and
    its panic comes from having no operator, so it keeps it (19.3, 19.5)."""
    if ctx.state.phase is not Phase.ACTING or ctx.state.active is None:
        raise refuse("not_now", "No initiative phase is running.")
    _blocked(ctx)
    unit = ctx.unit(ctx.state.active)
    if args.has("unit") and args.integer("unit", lo=0) != unit.id:
        raise refuse("not_active", "That model's phase is not running.")
    retests: list[tuple[Unit, Args]] = []
    if unit.in_play and unit.panic and args.has("panic_retest"):
        retests.append((unit, Args(args.mapping("panic_retest"))))
    group = _phase_group(ctx.state, unit.id)
    for retest in args.objects("panic_retests", most=6):
        member = ctx.unit(retest.integer("unit", lo=0))
        if member not in group:
            raise refuse("not_active", f"It is not {member.name}'s initiative phase.")
        if not member.panic:
            raise refuse("not_panicking", f"{member.name} is not panicking.")
        if any(done.id == member.id for done, _retest in retests):
            raise refuse("retest_twice", f"{member.name} retests its panic once.")
        retests.append((member, retest))
    for member, _retest in retests:
        if _orphan(ctx.state, member):
            raise refuse("orphan_panic", f"{member.name} has no operator: its panic stays.")
    for member, retest in retests:
        _panic_roll(ctx, ctx.unit(member.id), retest, just_eliminated=False)
    _finish_phase(ctx)


def may_retest(state: MatchState, unit: Unit) -> str:
    """Why ``unit`` cannot retest its panic at the end of the running phase ("" if it can): it
    must panic, be in play and act in this phase, and not be a telematon without its operator
    (11.4.1, 19.3)."""
    if state.phase is not Phase.ACTING or state.active is None:
        return "not_now"
    if not unit.in_play or unit not in _phase_group(state, state.active):
        return "not_active"
    if not unit.panic:
        return "not_panicking"
    if _orphan(state, unit):
        return "orphan_panic"
    return ""


def _finish_phase(ctx: Ctx) -> None:
    active = ctx.state.active
    assert active is not None
    group = [
        u.id for u in ctx.state.units if u.id == active or (u.telematon and u.operator == active)
    ]
    follower = ctx.state.follower
    ctx.emit(
        "phase_ended",
        unit=active,
        units={uid: {"activated": True} for uid in group},
        state={"active": None, "phase": Phase.ORDER, "last_action": None, "follower": None},
    )
    if follower is not None and ctx.unit(follower).in_play and not ctx.unit(follower).activated:
        _begin_phase(ctx, follower)
        return
    if not free_activations(ctx.state) and not picking(ctx.state):
        ctx.emit("round_over", round=ctx.state.round, state={"phase": Phase.ROUND_END})


def _settle(ctx: Ctx) -> None:
    """After a command: an active model that left play ends its phase once nothing waits."""
    state = ctx.state
    if (
        state.phase is Phase.ACTING
        and state.active is not None
        and not state.units[state.active].in_play
        and not state.panic_due
        and state.area is None
        and not state.burning_due
    ):
        _finish_phase(ctx)


@command("surrender")
def _surrender(ctx: Ctx, args: Args) -> None:
    """At a round's end a player may give up and loses at once (5.7)."""
    player = _player(ctx, args)
    if ctx.state.phase is not Phase.ROUND_END:
        raise refuse("surrender_at_round_end", "A player surrenders at the end of a round.")
    winners = tuple(p.index for p in ctx.state.players if p.index != player)
    ctx.emit(
        "surrendered",
        player=player,
        players={player: {"surrendered": True}},
        state={
            "phase": Phase.OVER,
            "result": Result(winners=winners, draw=False, reason="surrender"),
            "missions_revealed": True,
        },
    )


def _accomplished(state: MatchState, player: int) -> bool:
    slug = state.players[player].mission
    if slug is None:
        return False
    goal = mission(slug)
    enemies = [u for u in state.units if u.player != player]
    if goal.victory == "eliminate":
        return not any(u.in_play for u in enemies)
    if goal.victory == "leader":
        return any(u.card.group_leader and not u.in_play for u in enemies)
    return state.players[player].held_rounds >= goal.rounds_needed


@command("end_round")
def _end_round(ctx: Ctx, args: Args) -> None:
    """Round end (5.7): declared missions are confirmed for this round, victory conditions are
    checked; a group with no model left loses; otherwise unspent AP are halved (rounded down)
    and carried into the next round."""
    if ctx.state.phase is not Phase.ROUND_END:
        raise refuse("not_now", "The round is not over yet.")
    _blocked(ctx)
    held = set(args.ints("held", hi=9, most=4))
    players: dict[int, dict[str, Any]] = {}
    for p in ctx.state.players:
        slug = p.mission
        if slug is not None and mission(slug).victory == "declared" and p.index in held:
            players[p.index] = {"held_rounds": p.held_rounds + 1}
    ctx.emit("round_checked", round=ctx.state.round, held=sorted(held), players=players)
    met = [p.index for p in ctx.state.players if _accomplished(ctx.state, p.index)]
    standing = [
        p.index for p in ctx.state.players if any(u.in_play for u in ctx.state.team(p.index))
    ]
    result: Result | None = None
    if len(standing) < len(ctx.state.players):
        result = Result(winners=tuple(standing), draw=not standing, reason="group_gone")
    elif met:
        result = Result(winners=tuple(met), draw=len(met) > 1, reason="mission")
    elif ctx.state.max_rounds and ctx.state.round >= ctx.state.max_rounds:
        result = Result(winners=(), draw=True, reason="round_limit")
    if result is not None:
        ctx.emit(
            "game_over",
            accomplished=met,
            players={i: {"accomplished": True} for i in met},
            state={"phase": Phase.OVER, "result": result},
        )
        return
    ctx.emit(
        "ap_carried",
        units={u.id: {"ap": u.ap // 2} for u in ctx.state.units if u.in_play},
    )
    _start_round(ctx, ctx.state.round + 1)
