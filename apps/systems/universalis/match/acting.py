"""Taking an action in an initiative phase: who may act or react, paying AP (a telematon with
its operator's), the direct-threat test, moving, going prone, standing up, using an object.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import Args
from apps.systems.universalis.catalog import Attribute, Movement
from apps.systems.universalis.match import rules
from apps.systems.universalis.match.context import Ctx, command, eh_test, refuse
from apps.systems.universalis.match.engagement import release
from apps.systems.universalis.match.order import phase_group
from apps.systems.universalis.match.serial import dump
from apps.systems.universalis.match.state import MAX_AP, LastAction, Phase, Unit, ZoneName
from apps.systems.universalis.match.values import attribute_value


def blocked(ctx: Ctx) -> None:
    state = ctx.state
    if state.panic_due:
        raise refuse("panic_tests_first", "First make the panic tests that are due.")
    if state.area is not None:
        raise refuse("area_first", "First tell which models the area weapon covers.")
    if state.burning_due:
        raise refuse("burning_first", "First the burning model tests its fire.")


def actor(
    ctx: Ctx,
    args: Args,
    *,
    panicking: bool = False,
    action: bool = True,
    in_melee: bool = False,
    attack: bool = False,
) -> Unit:
    """The model taking an action: the active one or one of its telematons. An action ends
    what the one before offered to react to (6.2, 8, 15.4); a move or a melee then offers
    itself. ``action`` False: a test, not an action. ``in_melee``: an action a model in melee
    may take (15); ``attack``: an attack, which checks its targets with ``answer_threat``."""
    if ctx.state.phase is not Phase.ACTING or ctx.state.active is None:
        raise refuse("not_now", "Actions are taken in a model's initiative phase.")
    blocked(ctx)
    unit = ctx.unit(args.integer("unit", lo=0))
    if unit not in phase_group(ctx.state, ctx.state.active):
        raise refuse("not_active", f"It is not {unit.name}'s initiative phase.")
    if unit.burning is not None:
        raise refuse("burning", f"{unit.name} is burning and can take no actions.")
    if unit.panic and not panicking:
        raise refuse("panicking", f"{unit.name} panics: it can only flee.")
    if ctx.state.charge is not None:
        raise refuse("charge_pending", "First the charge ends in its attack.")
    if action and not panicking:
        _may_act(unit, in_melee=in_melee, attack=attack)
    if action and ctx.state.last_action is not None:
        ctx.emit("last_action", state={"last_action": None})
    return unit


def _may_act(unit: Unit, *, in_melee: bool, attack: bool) -> None:
    """In melee only Angriff, Verwegener Angriff, Aus Nahkampf lösen and Kraft einsetzen
    (15, l. 1362); after a failed direct-threat test only an attack (4.5.1, l. 391)."""
    if unit.engaged and not in_melee:
        raise refuse(
            "in_melee", f"{unit.name} is in melee: it attacks, disengages or uses a power."
        )
    if unit.must_attack and not attack:
        raise refuse("attack_threat", f"{unit.name} failed its direct-threat test: it attacks.")


def answer_threat(ctx: Ctx, unit: Unit, targets: Iterable[int | None]) -> None:
    """After a failed direct-threat test the model's next action is an attack on the threat
    ("muss ein Angriff gegen die direkte Bedrohung erfolgen", 4.5.1): an attack on
    ``targets`` answers it, or is refused."""
    if not unit.must_attack:
        return
    if not set(unit.must_attack) & {t for t in targets if t is not None}:
        raise refuse("attack_threat", f"{unit.name} must attack the direct threat first.")
    ctx.emit("threat_answered", unit=unit.id, units={unit.id: {"must_attack": ()}})


def reactor(ctx: Ctx, args: Args, name: str = "unit", *, in_melee: bool = False) -> Unit:
    """The model reacting; ``in_melee``: a reaction a model in melee may make (15)."""
    if ctx.state.phase is not Phase.ACTING:
        raise refuse("not_now", "Reactions answer an action in an initiative phase.")
    blocked(ctx)
    unit = ctx.unit(args.integer(name, lo=0))
    reason = rules.reaction_refusal(unit)
    if reason:
        raise refuse("cannot_react", f"{unit.name} cannot react ({reason}).")
    if ctx.state.active is not None and unit in phase_group(ctx.state, ctx.state.active):
        raise refuse("cannot_react", f"{unit.name} acts in this phase; it does not react.")
    if unit.engaged and not in_melee:
        raise refuse("melee_reaction", f"{unit.name} is in melee: it cannot make that reaction.")
    return unit


def spend(
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


def operator_ap_arg(args: Args) -> int | None:
    return args.optional_int("operator_ap", lo=0, hi=MAX_AP)


def flight_first(ctx: Ctx, unit: Unit, cm: int | None = None) -> None:
    """A flying model's first action of each round is a full move (8.1, l. 632: "immer eine
    volle Bewegung"): any other action is refused, and so is a move (``cm``) shorter than its
    speed."""
    if unit.card.movement is not Movement.FLIGHT or unit.acted or unit.ap <= 0:
        return
    if cm is None or cm < rules.speed(unit):
        raise refuse("flight_moves_first", f"{unit.name} flies: its first action is a full move.")


@command("threat_test")
def _threat_test(ctx: Ctx, args: Args) -> None:
    """EH test to ignore a direct threat; once per initiative phase (4.5.1). Failed, the
    model's next action must be an attack against the ``threat`` (l. 391)."""
    unit = actor(ctx, args, action=False)
    if unit.telematon:
        raise refuse("no_danger_zone", "Telematons have no danger zone (19.6).")
    if unit.threat_tested:
        raise refuse("threat_tested", "The direct-threat test is made once per phase.")
    threat = ctx.unit(args.integer("threat", lo=0))
    if threat.player == unit.player or not threat.in_play or threat.camouflaged:
        raise refuse("not_threat", f"{threat.name} cannot be a direct threat to {unit.name}.")
    _threat_roll(
        ctx, unit, _("%(unit)s ignores a direct threat (EH)"), "threat_tested", (threat.id,)
    )


def _threat_roll(ctx: Ctx, unit: Unit, label: str, event: str, threats: tuple[int, ...]) -> bool:
    """The phase's one direct-threat EH test, made alone or to disengage (4.5.1, 8.3); failed,
    the model must attack one of ``threats`` next."""
    passed, roll = eh_test(ctx, unit, label)
    fields: dict[str, Any] = {"threat_tested": True, "threat_failed": not passed}
    if not passed:
        fields["must_attack"] = threats
    ctx.emit(event, unit=unit.id, passed=passed, roll=dump(roll), units={unit.id: fields})
    return passed


@command("turn")
def _turn(ctx: Ctx, args: Args) -> None:
    """Drehen: 0 AP, but an action (it ends defence and fire readiness)."""
    unit = actor(ctx, args)
    if unit.immobile == "fixed":
        raise refuse("cannot_turn", f"{unit.name} cannot turn any more.")
    flight_first(ctx, unit)
    spend(ctx, unit, 0, action="turn")


def make_move(ctx: Ctx, unit: Unit, cm: int, action: str, args: Args) -> None:
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


def move_cm(unit: Unit, args: Args) -> int:
    """The centimetres of one move action (default: its full speed), at most its speed (8.3;
    a charge and a disengage move like a normal move)."""
    cm = args.integer("cm", rules.speed(unit), lo=0, hi=200)
    most = rules.max_move(unit)
    if cm > most:
        raise refuse("too_far", f"{unit.name} moves at most {most} cm with one move.")
    return cm


def can_move(ctx: Ctx, unit: Unit) -> bool:
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
    unit = actor(ctx, args)
    cm = move_cm(unit, args)
    flight_first(ctx, unit, cm)
    unit = spend(
        ctx, unit, 2 if unit.prone else 1, action="move", operator_ap=operator_ap_arg(args)
    )
    if can_move(ctx, unit):
        make_move(ctx, unit, cm, "move", args)


@command("disengage")
def _disengage(ctx: Ctx, args: Args) -> None:
    """Aus Nahkampf lösen, for a model in melee (l. 656): the phase's one direct-threat EH
    test first (8.3, 4.5.1); failed, nothing happens and no AP are spent, it cannot disengage
    again this phase and must attack one of its opponents (every enemy in base contact is a
    direct threat); passed (now or earlier in the phase), a move for 2 AP (3 prone) that ends
    its melee. The enemies it leaves may attack it as it goes (15.4)."""
    unit = actor(ctx, args, in_melee=True)
    if not unit.engaged:
        raise refuse("not_engaged", f"{unit.name} is not in melee.")
    cost = 3 if unit.prone else 2
    if not rules.has_ap(ctx.state, unit, cost):
        raise refuse("not_enough_ap", f"{unit.name} has not enough AP to disengage.")
    if unit.threat_failed:
        raise refuse(
            "threat_failed", f"{unit.name} failed its direct-threat test: it cannot disengage."
        )
    cm = move_cm(unit, args)
    if not unit.threat_tested and not _threat_roll(
        ctx, unit, _("%(unit)s tries to disengage (EH)"), "disengage_tested", unit.engaged
    ):
        return
    unit = spend(ctx, unit, cost, action="disengage", operator_ap=operator_ap_arg(args))
    left: tuple[int, ...] = ()
    if can_move(ctx, unit):
        left = release(ctx, unit.id)
        make_move(ctx, ctx.unit(unit.id), cm, "disengage", args)
    ctx.emit(
        "last_action",
        state={"last_action": LastAction(kind="disengage", unit=unit.id, left=left)},
    )


@command("prone")
def _prone(ctx: Ctx, args: Args) -> None:
    unit = actor(ctx, args)
    if unit.prone:
        raise refuse("prone_already", f"{unit.name} is lying down already.")
    flight_first(ctx, unit)
    unit = spend(ctx, unit, 1, action="prone", operator_ap=operator_ap_arg(args))
    ctx.emit("went_prone", unit=unit.id, units={unit.id: {"prone": True}})


@command("stand_up")
def _stand_up(ctx: Ctx, args: Args) -> None:
    unit = actor(ctx, args)
    if not unit.prone:
        raise refuse("not_prone", f"{unit.name} is standing already.")
    unit = spend(ctx, unit, 1, action="stand_up", operator_ap=operator_ap_arg(args))
    ctx.emit("stood_up", unit=unit.id, units={unit.id: {"prone": False}})


@command("use_object")
def _use_object(ctx: Ctx, args: Args) -> None:
    """Objekt benutzen: 1 AP, with the object's attribute roll and its modifier if it has one
    (Schwierigkeit, 9.2.1); no attribute (or "", the form's "no roll") means no roll."""
    unit = actor(ctx, args)
    name = args.text("attribute", "", choices=["", *(a.value for a in Attribute)])
    flight_first(ctx, unit)
    unit = spend(ctx, unit, 1, action="use_object", operator_ap=operator_ap_arg(args))
    if name:
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
