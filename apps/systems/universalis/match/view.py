"""What the tracker page shows for a Universalis match: both groups, what the table has to do
now, the active model's actions with what each needs, the reactions open to other models, and
the roll panel (dice, result and the exact odds each roll had). Pure: the page renders this.

``viewer`` is the seat whose secrets may be shown (its mission, its pick): ``None`` shows none,
and the page asks the owner to open them explicitly (see the reference).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from apps.systems.core.buttons import Button
from apps.systems.core.buttons import button as _button
from apps.systems.core.distributions import chance_text
from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import TimelineLine as Text
from apps.systems.universalis.builder import ROMAN, CardView, card_view
from apps.systems.universalis.catalog import Attribute, Equipment, PowerRange, Trait
from apps.systems.universalis.match import rules
from apps.systems.universalis.match.missions import MISSIONS, mission
from apps.systems.universalis.match.odds import attribute_odds
from apps.systems.universalis.match.order import (
    eligible,
    free_activations,
    picking,
    retest_refusal,
)
from apps.systems.universalis.match.preview import (
    chance_line,
    melee_lines,
    melee_odds,
    shot_lines,
    shot_odds,
)
from apps.systems.universalis.match.state import MatchState, Phase, Roll, Unit
from apps.systems.universalis.match.timeline import REASONS, ZONES
from apps.systems.universalis.match.values import (
    attribute_value,
    panic_modifier,
    power_value,
    reveal_value,
)

PLAYER_COLOURS = ("red", "blue")

REFUSALS: Mapping[str, str] = {
    "not_enough_ap": _("Not enough action points (AP) for that."),
    "not_now": _("That is not possible at this point of the round."),
    "game_over": _("The game is over."),
    "not_active": _("It is not this model's initiative phase."),
    "burning": _("A burning model takes no actions."),
    "panicking": _("A panicking model can only flee."),
    "panic_tests_first": _("First make the panic tests that are due."),
    "area_first": _("First tell which models the area weapon covers."),
    "burning_first": _("First the burning model tests its fire."),
    "flight_moves_first": _("A flying model's first action each round is a move."),
    "target_camouflaged": _("That model is camouflaged: reveal it first."),
    "out_of_range": _("The target is out of the weapon's range."),
    "df_shots": _("Assign every shot of the sustained fire."),
    "aimed_no_df": _("An aimed shot is a single shot."),
    "weapon_reload": _("The weapon must be reloaded first."),
    "weapon_used_up": _("The weapon has no single-use marker left."),
    "weapon_side_destroyed": _("The weapon's side is destroyed."),
    "cannot_react": _("That model cannot react now."),
    "cannot_move": _("That model cannot move."),
    "pick_first": _("Both players still have models: pick in secret."),
    "not_eligible": _("That model cannot take its initiative phase now."),
    "mission_chosen": _("This player has chosen a mission already."),
    "missions_first": _("First every player chooses a mission."),
    "surrender_at_round_end": _("A player surrenders at the end of a round."),
    "private_command": _("Only that player may make this secret choice, on their own login."),
    "push_too_big": _("That model is too big to be pushed back."),
    "touch_needs_melee": _("A touch power on an enemy needs a won melee attack first."),
    "used_up": _("No single-use marker is left."),
    "threat_tested": _("The direct-threat test is made once per phase."),
    "orphan_panic": _("A telematon without its operator keeps its panic: it cannot retest."),
    "reveal_friend": _("Only a camouflaged enemy model can be revealed."),
    "target_twice": _("Name each target once and give it all its shots."),
    "too_far": _("That is farther than the model moves with one move (its speed)."),
    "threat_failed": _("The direct-threat test failed this phase: the model cannot disengage."),
    "retest_twice": _("A panicking model retests its panic once at the end of its phase."),
    "not_panicking": _("That model is not panicking."),
    "not_indirect": _("That weapon cannot fire indirectly now (reaction fire never does)."),
    "area_one_target": _("An area weapon fires once, at one point or model."),
    "no_target": _("Name a target."),
    "target_out": _("That model is no longer in play."),
    "target_self": _("A model does not attack itself."),
    "wrong_weapon": _("That weapon does not fit the attack (ranged or melee)."),
    "no_weapon": _("A telematon cannot fight unarmed."),
    "unknown_weapon": _("That model has no such weapon."),
    "readiness_wk": _("Fire readiness needs a weapon of WK I to III."),
    "no_readiness": _("That model is not in fire readiness."),
    "no_reload": _("That weapon has no reload marker."),
    "no_move": _("Reaction fire answers an enemy's move."),
    "no_melee": _("A counter-attack answers a melee attack on this model."),
    "no_disengage": _("An opportunity attack answers an enemy disengaging."),
    "cannot_dodge": _("That model cannot dodge now (it cannot react or lies prone)."),
    "cannot_turn": _("That model cannot turn any more."),
    "prone_already": _("That model is lying down already."),
    "not_prone": _("That model is standing already."),
    "no_danger_zone": _("Telematons have no danger zone: they make no direct-threat test."),
    "deployment_first": _("First make the deployment roll-off and deploy."),
    "picked_already": _("This player has picked a model already."),
    "no_shock_paid": _("That telematon has no shock token this round."),
    "not_camouflaged": _("That model is not camouflaged."),
    "no_camouflage": _("That model has no camouflage."),
    "bad_supporter": _("Only another friend can support the reveal."),
    "unknown_item": _("That model has no such trait or equipment."),
    "no_action": _("That trait or equipment needs no action: it always applies."),
    "unknown_power": _("That model has no such power."),
    "not_touch": _("That power is not a touch power."),
    "power_in_play": _("That power is in play: end it before using it again."),
    "power_not_in_play": _("That power is not in play."),
    "cannot_block": _("That model cannot block that power (it needs a discipline)."),
    "block_own_power": _("A model blocks only an enemy's power: end an own power instead."),
    "no_panic_test": _("That model owes no panic test."),
    "no_burning_test": _("That model has no fire to test now."),
    "nothing_to_correct": _("Give the hit points, AP or shock tokens to set."),
    "unknown_unit": _("There is no such model in this match."),
    "unknown_player": _("There is no such player in this match."),
    "unknown_mission": _("There is no such Universalis mission."),
    "unknown_command": _("Universalis has no such command."),
    "invalid_args": _("The command's details are incomplete or not valid."),
    "players": _("A Universalis match has 2 players."),
    "empty_team": _("Each group needs at least 2 models."),
    "bad_model": _("A unit card of a group cannot be read."),
}
# What a wound roll's reroll is named after (odds.next_reroll's codes): the rulebook's effect.
REROLLS: Mapping[str, str] = {
    "erschuetterung": _("Erschütterung: the attacker forces an armour reroll"),
    "adaptiv": _("Adaptiv: the armour is rolled again"),
    "robust": _("Robust: the defender forces a wound reroll"),
}
ON_WIN = (("hit", _("hit")), ("push", _("push back")), ("power", _("touch power")))
COVER_CHOICES = (
    ("none", _("no cover")),
    ("soft", _("soft cover (−1)")),
    ("hard", _("hard cover (−2)")),
    ("massive", _("massive cover (−3)")),
)
# The attribute roll an object asks for (Schwierigkeit, 9.2.1); "" is an object without a roll.
OBJECT_ATTRIBUTES = (
    ("", _("no roll")),
    (Attribute.AGI.value, _("AGI (agility)")),
    (Attribute.NK.value, _("NK (melee)")),
    (Attribute.FK.value, _("FK (ranged)")),
    (Attribute.KO.value, _("KO (constitution)")),
    (Attribute.WN.value, _("WN (perception)")),
    (Attribute.EH.value, _("EH (resolve)")),
)
OUTCOMES = {
    "success": _("success"),
    "failure": _("failure"),
    "win": _("won"),
    "tie": _("tie"),
    "loss": _("lost"),
    # What a d12 decided (Ctx.banded): a colossus's hit zone, the burning test, a destroyed
    # movement zone.
    **ZONES,
    "burns": _("it burns"),
    "fire_out_shock": _("the fire goes out, 1 shock"),
    "fire_out": _("the fire goes out"),
    "can_turn": _("can still turn"),
    "cannot_turn": _("cannot turn"),
    "falls": _("falls over"),
}


@dataclass(frozen=True)
class Option:
    value: int | str
    label: str


@dataclass(frozen=True)
class UnitView:
    id: int
    name: str
    player: int
    card: CardView
    hp: int
    hp_max: int
    hp_critical: int
    hp_percent: int
    ap: int
    status: tuple[Text, ...]
    zones: tuple[Text, ...]
    in_play: bool
    active: bool
    activated: bool
    selected: bool
    telematon_of: str
    powers: tuple[str, ...]


@dataclass(frozen=True)
class PlayerView:
    index: int
    name: str
    colour: str
    mission: str  # shown to everyone once revealed, to its owner on request
    mission_summary: str
    mission_chosen: bool
    pick: str
    units: tuple[UnitView, ...]
    accomplished: bool
    held_rounds: int


@dataclass(frozen=True)
class RollView:
    label: Text
    dice: tuple[int, ...]
    outcome: str
    odds: str
    target: int | None
    totals: tuple[int, ...]
    tie_odds: str


@dataclass(frozen=True)
class MemberActions:
    """What one model of the active phase (the model or one of its telematons) can do."""

    unit: UnitView
    buttons: tuple[Button, ...]
    ranged: tuple[Option, ...]
    melee: tuple[Option, ...]
    readiness: tuple[Option, ...]
    powers: tuple[Option, ...]
    touch_powers: tuple[Option, ...]
    targets: tuple[Option, ...]
    camouflaged: tuple[Option, ...]
    friends: tuple[Option, ...]
    blockers: tuple[Option, ...]
    # Kraft blockieren (20.5): one button per lasting enemy power in play, with its odds; only
    # for a model of a discipline.
    block_powers: tuple[Button, ...]
    speed: int
    max_move: int  # the most one move takes it (the engine refuses more: too_far)
    move_cost: int
    target_rows: tuple[int, ...]
    can_flee: bool
    operator_ap: int | None
    # The exact odds of the attack and test forms as they are filled in (the page asks again,
    # with the form's fields as the query, when one changes): see ``_previews``.
    shot_preview: tuple[Text, ...] = ()
    melee_preview: tuple[Text, ...] = ()
    reveal_preview: tuple[Text, ...] = ()
    power_preview: tuple[Text, ...] = ()
    object_preview: tuple[Text, ...] = ()
    movement_test: Text | None = None


@dataclass(frozen=True)
class Reactions:
    """Reactions and table tools for the selected model when it is not acting."""

    unit: UnitView
    reaction_fire: bool
    counter_attack: bool
    opportunity_attack: bool
    melee: tuple[Option, ...]
    camouflage: bool | None  # current state, None without camouflage
    fire_preview: tuple[Text, ...] = ()
    melee_preview: tuple[Text, ...] = ()


@dataclass(frozen=True)
class PanicTest:
    """A panic test due (a friend fell) or a retest open at the phase's end, with its odds for
    the modifiers of its form."""

    unit: UnitView
    preview: tuple[Text, ...]


@dataclass(frozen=True)
class SecretStep:
    """A player's secret choice still to make (a mission, a pick)."""

    player: int
    name: str
    kind: str  # mission | pick
    done: bool
    options: tuple[Button, ...] = ()


@dataclass(frozen=True)
class TrackerView:
    phase: str
    round: int
    max_rounds: int
    viewer: int | None
    players: tuple[PlayerView, ...]
    prompt: Text
    buttons: tuple[Button, ...]
    secrets: tuple[SecretStep, ...]
    members: tuple[MemberActions, ...]
    reactions: Reactions | None
    panic_due: tuple[PanicTest, ...]
    retests: tuple[PanicTest, ...]  # panicking models of the phase that may retest at its end
    burning_due: tuple[UnitView, ...]
    area: bool
    area_targets: tuple[Option, ...]
    declared: tuple[Option, ...]
    rolls: tuple[RollView, ...]
    all_units: tuple[Option, ...]
    over: bool
    result: Text | None
    cover_choices: tuple[tuple[str, str], ...] = COVER_CHOICES
    on_win_choices: tuple[tuple[str, str], ...] = ON_WIN
    object_attributes: tuple[tuple[str, str], ...] = OBJECT_ATTRIBUTES
    missions: tuple[tuple[str, str], ...] = field(default=())


def _percent(part: int, whole: int) -> int:
    return max(0, min(100, round(100 * part / whole))) if whole else 0


def _status(state: MatchState, unit: Unit) -> tuple[Text, ...]:
    badges: list[Text] = []
    if unit.eliminated:
        badges.append(Text(_("eliminated")))
    if unit.fled:
        badges.append(Text(_("left the table")))
    flags = (
        (unit.critical, _("critical")),
        (unit.prone, _("prone")),
        (unit.fast, _("fast")),
        (unit.defence, _("defence")),
        (unit.readiness is not None, _("fire readiness")),
        (unit.burning is not None, _("burning")),
        (unit.panic, _("panic")),
        (unit.camouflaged, _("camouflaged")),
    )
    badges += [Text(label) for on, label in flags if on and unit.in_play]
    if unit.shock_tokens:
        badges.append(Text(_("%(n)s shock tokens"), {"n": unit.shock_tokens}))
    if unit.poison:
        badges.append(Text(_("%(n)s poison"), {"n": unit.poison}))
    for index in unit.reload:
        badges.append(Text(_("reload %(weapon)s"), {"weapon": unit.card.weapons[index].name}))
    if unit.immobile:
        badges.append(Text(_("immobilised")))
    return tuple(badges)


def _unit_view(state: MatchState, unit: Unit, selected: int | None) -> UnitView:
    operator = state.units[unit.operator].name if unit.operator is not None else ""
    return UnitView(
        id=unit.id,
        name=unit.name,
        player=unit.player,
        card=card_view(unit.card),
        hp=max(unit.hp, 0),
        hp_max=unit.card.hp_total,
        hp_critical=unit.card.hp_critical,
        hp_percent=_percent(max(unit.hp, 0), unit.card.hp_total),
        ap=unit.ap,
        status=_status(state, unit),
        zones=tuple(
            Text(
                _("%(zone)s %(hp)s/%(max)s HP%(state)s"),
                {
                    "zone": ZONES[z.name.value],
                    "hp": z.hp,
                    "max": z.hp_max,
                    "state": " ✕" if z.destroyed else " !" if z.critical else "",
                },
                translate=("zone",),
            )
            for z in unit.zones
        ),
        in_play=unit.in_play,
        active=state.active is not None
        and (unit.id == state.active or (unit.telematon and unit.operator == state.active)),
        activated=unit.activated,
        selected=unit.id == selected,
        telematon_of=operator,
        powers=tuple(
            f"{p.name}{' ●' if i in unit.powers_in_play else ''}" for i, p in enumerate(unit.powers)
        ),
    )


def _roll_view(roll: Roll) -> RollView:
    params = dict(roll.params)
    translate: tuple[str, ...] = ()
    effect = params.get("effect")
    if isinstance(effect, str) and effect in REROLLS:
        # A wound reroll names its effect by its code: shown by its rulebook name.
        params["effect"], translate = REROLLS[effect], ("effect",)
    return RollView(
        label=Text(roll.label, params, translate),
        dice=roll.dice,
        outcome=OUTCOMES.get(roll.outcome, roll.outcome),
        odds=roll.odds,
        target=roll.target,
        totals=roll.totals,
        tie_odds=roll.tie_odds,
    )


def _ap_reason(state: MatchState, unit: Unit, cost: int) -> str:
    return "" if rules.has_ap(state, unit, cost) else REFUSALS["not_enough_ap"]


def _weapon_label(unit: Unit, index: int) -> str:
    weapon = rules.weapon(unit, index)
    cost = rules.weapon_cost(unit, weapon)
    return f"{weapon.name} (WK {ROMAN[weapon.wk]}, {cost} AP)"


# --- Odds previews -----------------------------------------------------------------------------


def _form(params: Mapping[str, str], command: str, unit: Unit) -> Mapping[str, str]:
    """The fields of ``command``'s form of ``unit`` when the page asks for its preview (the
    query carries the form's fields), else nothing: the form's defaults."""
    if params.get("command") == command and params.get("args.unit:int") == str(unit.id):
        return params
    return {}


def _int(form: Mapping[str, str], key: str, default: int, lo: int, hi: int) -> int:
    try:
        value = int(form.get(key, ""))
    except ValueError:
        return default
    return min(max(value, lo), hi)


def _flag(form: Mapping[str, str], key: str) -> bool:
    return form.get(key, "") in ("true", "on", "1")


def _choice(form: Mapping[str, str], key: str, choices: Sequence[str], default: str) -> str:
    value = form.get(key, default)
    return value if value in choices else default


def _pick(state: MatchState, value: int, allowed: Sequence[Option]) -> Unit | None:
    """The form's model if it is one of the form's options, else the first option's."""
    ids = [int(o.value) for o in allowed]
    if not ids:
        return None
    return state.units[value if value in ids else ids[0]]


def _refused(code: str) -> tuple[Text, ...]:
    return (Text(REFUSALS.get(code, code)),)


def _shot_preview(
    state: MatchState, unit: Unit, params: Mapping[str, str], targets: Sequence[Option]
) -> tuple[Text, ...]:
    """The shot form's odds: each ticked target row (the first always) with its place among
    the shot's targets and its shots, as ``decide`` will roll them."""
    form = _form(params, "shoot", unit)
    weapons = [
        i for i, w in enumerate(unit.card.weapons) if not w.melee and not rules.usable(unit, i)
    ]
    if not weapons or not targets:
        return ()
    weapon = _int(form, "args.weapon:int", weapons[0], -1, 20)
    mode = _choice(form, "args.mode", ("normal", "aimed", "snap"), "normal")
    indirect = _flag(form, "args.indirect:bool")
    rows = [0] + [i for i in range(1, 5) if _flag(form, f"args.targets.{i}._on:bool")]
    lines: list[Text] = []
    for number, row in enumerate(rows):
        key = f"args.targets.{row}."
        target = _pick(state, _int(form, key + "unit:int", -1, -1, 999), targets)
        if target is None:
            continue
        odds = shot_odds(
            state,
            unit,
            weapon,
            target,
            mode=mode,
            distance=_int(form, key + "distance:int", 10, 0, 500),
            cover=_choice(form, key + "cover", rules.COVERS, "none"),
            number=number,
            count=_int(form, key + "shots:int", 1, 1, 5),
            indirect=indirect,
            friend_sees=_flag(form, "args.friend_sees:bool"),
        )
        if len(rows) > 1:
            lines.append(Text("%(name)s", {"name": target.name}))
        lines += _refused(odds) if isinstance(odds, str) else shot_lines(odds)
    return tuple(lines)


def _melee_preview(
    state: MatchState, unit: Unit, params: Mapping[str, str], targets: Sequence[Option]
) -> tuple[Text, ...]:
    form = _form(params, "melee", unit)
    weapons = [i for i, w in enumerate(unit.card.weapons) if w.melee and not rules.usable(unit, i)]
    weapons += [] if unit.telematon else [-1]
    target = _pick(state, _int(form, "args.target:int", -1, -1, 999), targets)
    if not weapons or target is None:
        return ()
    odds = melee_odds(
        state,
        unit,
        target,
        _int(form, "args.weapon:int", weapons[0], -1, 20),
        friends=_int(form, "args.friends:int", 0, 0, 8),
        enemy_friends=_int(form, "args.enemy_friends:int", 0, 0, 8),
        charge=_flag(form, "args.charge:bool"),
        reckless=_flag(form, "args.reckless:bool"),
    )
    return _refused(odds) if isinstance(odds, str) else melee_lines(odds)


def _reveal_preview(
    state: MatchState, unit: Unit, params: Mapping[str, str], camouflaged: Sequence[Option]
) -> tuple[Text, ...]:
    form = _form(params, "reveal", unit)
    target = _pick(state, _int(form, "args.target:int", -1, -1, 999), camouflaged)
    if target is None:
        return ()
    supporters = sum(1 for i in range(8) if form.get(f"args.supporters.{i}:int"))
    extra = _int(form, "args.extra_ap:int", 0, 0, 10)
    return (chance_line(reveal_value(state, unit, target, extra=extra, supporters=supporters)),)


def _power_preview(
    state: MatchState, unit: Unit, params: Mapping[str, str], blockers: Sequence[Unit]
) -> tuple[Text, ...]:
    """The power roll's chance, and each enemy that may block it: its own roll against the
    power's attribute and difficulty (20.5), made only when the power roll succeeded."""
    form = _form(params, "use_power", unit)
    usable = [i for i in range(len(unit.powers)) if i not in unit.powers_in_play]
    if not usable:
        return ()
    index = _int(form, "args.power:int", usable[0], 0, 20)
    power = unit.powers[usable[0] if index not in usable else index]
    block_chances = ((b.name, attribute_odds(power_value(state, b, power))) for b in blockers)
    block_lines = tuple(
        Text(
            _("If %(name)s tries to block: success %(p)s"),
            {"name": name, "p": chance_text(p)},
        )
        for name, p in block_chances
    )
    return (chance_line(power_value(state, unit, power)), *block_lines)


def _object_preview(state: MatchState, unit: Unit, params: Mapping[str, str]) -> tuple[Text, ...]:
    """Objekt benutzen: the object's attribute roll with its modifier (9.2.1), as ``decide``
    rolls it, or no roll at all."""
    form = _form(params, "use_object", unit)
    attribute = _choice(form, "args.attribute", [value for value, _label in OBJECT_ATTRIBUTES], "")
    if not attribute:
        return (Text(_("No roll: the object simply works.")),)
    modifier = _int(form, "args.modifier:int", 0, -12, 12)
    return (chance_line(attribute_value(state, unit, attribute, modifier)),)


def _block_buttons(state: MatchState, unit: Unit, enemies: Sequence[Unit]) -> tuple[Button, ...]:
    """Kraft blockieren (2 AP): a model of a discipline may try to end each lasting enemy power
    in play, on a roll against the power's attribute and difficulty (20.3, 20.5)."""
    if not unit.card.disciplines:
        return ()
    buttons = []
    for owner in enemies:
        for index in owner.powers_in_play:
            power = owner.powers[index]
            odds = [chance_line(power_value(state, unit, power))]
            if power.hp_loss:
                odds.append(
                    Text(
                        _("It loses %(hp)s HP always")
                        if power.hp_loss_always
                        else _("It loses %(hp)s HP on a failure"),
                        {"hp": power.hp_loss},
                    )
                )
            buttons.append(
                _button(
                    "block_power",
                    _("Block %(power)s (%(owner)s)"),
                    params={"power": power.name, "owner": owner.name},
                    args={"unit": unit.id, "owner": owner.id, "power": index},
                    cost="2 AP",
                    reason=_ap_reason(state, unit, 2),
                    odds_lines=tuple(odds),
                )
            )
    return tuple(buttons)


def _panic_test(
    state: MatchState,
    unit: Unit,
    selected: int | None,
    params: Mapping[str, str],
    *,
    retest: bool,
) -> PanicTest:
    """The panic test's EH with the modifiers of its form: the test of a friend that saw a
    model fall (``panic_test``, −3 for it) or the retest in the end-phase form."""
    form: Mapping[str, str] = {}
    prefix = "args."
    if retest and params.get("command") == "end_phase":
        for row in range(6):
            if params.get(f"args.panic_retests.{row}.unit:int") == str(unit.id):
                form, prefix = params, f"args.panic_retests.{row}."
    elif not retest:
        form = _form(params, "panic_test", unit)
    modifier = panic_modifier(
        just_eliminated=not retest,
        other_eliminated=_int(form, prefix + "other_eliminated:int", 0, 0, 20),
        enemies=_int(form, prefix + "enemies:int", 0, 0, 20),
        friends=_int(form, prefix + "friends:int", 0, 0, 20),
        friends_in_contact=_int(form, prefix + "friends_in_contact:int", 0, 0, 8),
    )
    return PanicTest(
        unit=_unit_view(state, unit, selected),
        preview=(chance_line(attribute_value(state, unit, "eh", modifier)),),
    )


def _member(
    state: MatchState, unit: Unit, selected: int | None, params: Mapping[str, str]
) -> MemberActions:
    enemies = [u for u in state.units if u.player != unit.player and u.in_play]
    friends = [u for u in state.units if u.player == unit.player and u.in_play and u.id != unit.id]
    blockers = [u for u in enemies if u.card.disciplines and not rules.reaction_refusal(u)]
    weapons = list(enumerate(unit.card.weapons))
    usable = [(i, w) for i, w in weapons if not rules.usable(unit, i)]
    eh_odds = chance_line(attribute_value(state, unit, "eh"))
    buttons = [
        _button(
            "threat_test",
            _("Direct threat: EH test"),
            args={"unit": unit.id},
            reason=_("Once per phase.") if unit.threat_tested else "",
            odds_lines=() if unit.threat_tested else (eh_odds,),
        )
        if not unit.telematon
        else None,
        _button(
            "turn",
            _("Turn"),
            args={"unit": unit.id},
            cost="0 AP",
            reason=_("It cannot turn.") if unit.immobile == "fixed" else "",
        ),
        _button(
            "stand_up",
            _("Stand up"),
            args={"unit": unit.id},
            cost="1 AP",
            reason=_ap_reason(state, unit, 1),
        )
        if unit.prone
        else _button(
            "prone",
            _("Go prone"),
            args={"unit": unit.id},
            cost="1 AP",
            reason=_ap_reason(state, unit, 1),
        ),
        _button(
            "disengage",
            _("Disengage (EH test)"),
            args={"unit": unit.id},
            cost="3 AP" if unit.prone else "2 AP",
            reason=REFUSALS["threat_failed"]
            if unit.threat_failed
            else _ap_reason(state, unit, 3 if unit.prone else 2),
            # Once the phase's direct-threat test is passed, disengaging needs no roll.
            odds_lines=() if unit.threat_tested else (eh_odds,),
        ),
        _button(
            "defence",
            _("Defence"),
            args={"unit": unit.id},
            cost="2 AP",
            reason=_ap_reason(state, unit, 2),
        ),
    ]
    for index in unit.reload:
        weapon = unit.card.weapons[index]
        cost = rules.weapon_cost(unit, weapon)
        buttons.append(
            _button(
                "reload",
                _("Reload %(weapon)s"),
                params={"weapon": weapon.name},
                args={"unit": unit.id, "weapon": index},
                cost=f"{cost} AP",
                reason=_ap_reason(state, unit, cost),
            )
        )
    marked: tuple[tuple[str, Sequence[Trait | Equipment], tuple[int | None, ...]], ...] = (
        ("trait", unit.card.traits, unit.trait_uses),
        ("equipment", unit.card.equipment, unit.equipment_uses),
    )
    for kind, items, uses in marked:
        for index, item in enumerate(items):
            if item.ap is None:
                continue
            reason = (
                _("No single-use marker left.")
                if item.uses is not None and uses[index] == 0
                else ""
            )
            buttons.append(
                _button(
                    f"use_{kind}",
                    _("Use %(name)s"),
                    params={"name": item.name},
                    args={"unit": unit.id, kind: index},
                    cost=f"{item.ap} AP",
                    reason=reason or _ap_reason(state, unit, item.ap),
                )
            )
    for index in unit.powers_in_play:
        buttons.append(
            _button(
                "end_power",
                _("End %(power)s"),
                params={"power": unit.powers[index].name},
                args={"unit": unit.id, "power": index},
                cost="1 AP",
                reason=_ap_reason(state, unit, 1),
            )
        )
    operator_ap = None
    if unit.telematon and unit.operator is not None and state.units[unit.operator].in_play:
        operator_ap = state.units[unit.operator].ap
    targets = tuple(Option(u.id, u.name) for u in enemies if not u.camouflaged)
    camouflaged = tuple(Option(u.id, u.name) for u in enemies if u.camouflaged)
    return MemberActions(
        unit=_unit_view(state, unit, selected),
        buttons=tuple(b for b in buttons if b is not None),
        ranged=tuple(Option(i, _weapon_label(unit, i)) for i, w in usable if not w.melee),
        melee=tuple(
            [Option(i, _weapon_label(unit, i)) for i, w in usable if w.melee]
            + ([] if unit.telematon else [Option(-1, _weapon_label(unit, -1))])
        ),
        readiness=tuple(Option(i, w.name) for i, w in usable if not w.melee and w.wk <= 3),
        powers=tuple(
            Option(i, f"{p.name} ({p.ap} AP, {p.attribute.value.upper()}{p.difficulty:+d})")
            for i, p in enumerate(unit.powers)
            if i not in unit.powers_in_play
        ),
        touch_powers=tuple(
            Option(i, p.name) for i, p in enumerate(unit.powers) if p.range is PowerRange.TOUCH
        ),
        targets=targets,
        camouflaged=camouflaged,
        friends=tuple(Option(u.id, u.name) for u in friends if not rules.reaction_refusal(u)),
        blockers=tuple(Option(u.id, u.name) for u in blockers),
        block_powers=_block_buttons(state, unit, enemies),
        speed=rules.speed(unit),
        max_move=rules.max_move(unit),
        move_cost=2 if unit.prone else 1,
        # One target row, and more for sustained fire (at most 5 targets in all, 14.12).
        target_rows=tuple(
            range(min(5, 1 + max((w.df for _i, w in usable if not w.melee), default=0)))
        ),
        can_flee=unit.panic,
        operator_ap=operator_ap,
        shot_preview=_shot_preview(state, unit, params, targets),
        melee_preview=_melee_preview(state, unit, params, targets),
        reveal_preview=_reveal_preview(state, unit, params, camouflaged),
        power_preview=_power_preview(state, unit, params, blockers),
        object_preview=_object_preview(state, unit, params),
        movement_test=chance_line(attribute_value(state, unit, "agi")),
    )


def _first_melee(unit: Unit) -> int:
    """The melee weapon the reaction forms offer first (as ``Reactions.melee`` lists them)."""
    for index, weapon in enumerate(unit.card.weapons):
        if weapon.melee and not rules.usable(unit, index):
            return index
    return -1


def _reaction_fire_preview(
    state: MatchState, unit: Unit, weapon: int, mover: int, params: Mapping[str, str]
) -> tuple[Text, ...]:
    """Reaction fire puts all 1 + DF shots on the mover (14.12), like ``decide``."""
    form = _form(params, "reaction_fire", unit)
    shots = 1 if unit.card.weapons[weapon].area else 1 + unit.card.weapons[weapon].df
    odds = shot_odds(
        state,
        unit,
        weapon,
        state.units[mover],
        mode="reaction",
        distance=_int(form, "args.target.distance:int", 10, 0, 500),
        cover=_choice(form, "args.target.cover", rules.COVERS, "none"),
        count=shots,
    )
    return _refused(odds) if isinstance(odds, str) else shot_lines(odds)


def _reactions(
    state: MatchState, unit: Unit, selected: int | None, params: Mapping[str, str]
) -> Reactions | None:
    if state.phase is not Phase.ACTING or not unit.in_play:
        return None
    last = state.last_action
    can = not rules.reaction_refusal(unit)
    in_phase = state.active is not None and (
        unit.id == state.active or (unit.telematon and unit.operator == state.active)
    )
    if in_phase:
        return None
    enemy_moved = (
        last is not None
        and last.kind in ("move", "disengage")
        and state.units[last.unit].player != unit.player
    )
    reaction_fire = can and unit.readiness is not None and enemy_moved
    counter_attack = can and last is not None and last.kind == "melee" and last.target == unit.id
    opportunity_attack = (
        can
        and last is not None
        and last.kind == "disengage"
        and state.units[last.unit].player != unit.player
    )
    fire_preview: tuple[Text, ...] = ()
    if reaction_fire and last is not None and unit.readiness is not None:
        fire_preview = _reaction_fire_preview(state, unit, unit.readiness, last.unit, params)
    melee_preview: tuple[Text, ...] = ()
    if (counter_attack or opportunity_attack) and last is not None:
        command = "counter_attack" if counter_attack else "opportunity_attack"
        form = _form(params, command, unit)
        enemy = state.units[last.unit]  # the attacker countered, or the model disengaging
        odds = melee_odds(
            state,
            unit,
            enemy,
            _int(form, "args.weapon:int", _first_melee(unit), -1, 20),
            friends=_int(form, "args.friends:int", 0, 0, 8),
            defender_zero=opportunity_attack or last.reckless_lost,
        )
        melee_preview = _refused(odds) if isinstance(odds, str) else melee_lines(odds)
    return Reactions(
        unit=_unit_view(state, unit, selected),
        reaction_fire=reaction_fire,
        counter_attack=counter_attack,
        opportunity_attack=opportunity_attack,
        fire_preview=fire_preview,
        melee_preview=melee_preview,
        melee=tuple(
            [
                Option(i, _weapon_label(unit, i))
                for i, w in enumerate(unit.card.weapons)
                if w.melee and not rules.usable(unit, i)
            ]
            + ([] if unit.telematon else [Option(-1, _weapon_label(unit, -1))])
        ),
        camouflage=None if unit.card.camouflage is None else unit.camouflaged,
    )


def _secrets(state: MatchState, viewer: int | None) -> tuple[SecretStep, ...]:
    steps: list[SecretStep] = []
    if state.phase is Phase.SETUP and not state.missions_revealed:
        for p in state.players:
            options: tuple[Button, ...] = ()
            if viewer == p.index and p.mission is None:
                options = tuple(
                    _button(
                        "choose_mission",
                        m.name,
                        args={"player": p.index, "mission": m.slug},
                        style="",
                    )
                    for m in MISSIONS
                )
            steps.append(SecretStep(p.index, p.name, "mission", p.mission is not None, options))
    if picking(state):
        for p in state.players:
            options = ()
            if viewer == p.index and p.pick is None:
                options = tuple(
                    _button("pick", u.name, args={"player": p.index, "unit": u.id}, style="")
                    for u in eligible(state, p.index)
                )
            steps.append(SecretStep(p.index, p.name, "pick", p.pick is not None, options))
    return tuple(steps)


def _prompt(state: MatchState) -> tuple[Text, tuple[Button, ...]]:
    phase = state.phase
    if phase is Phase.SETUP:
        if not state.missions_revealed:
            return Text(_("Each player picks a mission in secret.")), ()
        if state.deployment_winner is None:
            return Text(_("The group leaders roll off for deployment (EH).")), (
                _button("roll_deployment", _("Roll for deployment"), style=""),
            )
        winner = state.players[state.deployment_winner].name
        return (
            Text(
                _(
                    "%(player)s marks a deployment zone first and deploys first; then the other "
                    "player. Never closer than 12 cm to enemy models."
                ),
                {"player": winner},
            ),
            (_button("start_game", _("Deployed: start round 1"), style=""),),
        )
    if phase is Phase.ORDER:
        buttons = [
            _button(
                "activate",
                _("%(unit)s takes its phase"),
                params={"unit": u.name},
                args={"unit": u.id},
                style="",
            )
            for u in free_activations(state)
        ]
        if not any(u.activated for u in state.units):
            buttons += [
                _button(
                    "operator_takes_shock",
                    _("%(operator)s pays %(unit)s's shock token"),
                    params={"operator": state.units[u.operator].name, "unit": u.name},
                    args={"unit": u.id},
                    cost="1 AP",
                )
                for u in state.units
                if u.telematon
                and (u.shock_paid or u.shock_tokens)
                and u.operator is not None
                and state.units[u.operator].in_play
                and state.units[u.operator].ap
            ]
        if picking(state):
            return Text(_("Both players pick their next model in secret.")), tuple(buttons)
        return Text(_("The other group has no model left this round: activate the rest.")), tuple(
            buttons
        )
    if phase is Phase.ACTING:
        active = state.units[state.active] if state.active is not None else None
        return Text(_("%(unit)s's initiative phase."), {"unit": active.name if active else "—"}), ()
    if phase is Phase.ROUND_END:
        buttons = [
            _button(
                "surrender",
                _("%(player)s surrenders"),
                params={"player": p.name},
                args={"player": p.index},
                style="danger",
            )
            for p in state.players
        ]
        return Text(
            _("Round %(round)s is over: check the missions."), {"round": state.round}
        ), tuple(buttons)
    return Text(_("The game is over.")), ()


def _result(state: MatchState) -> Text | None:
    result = state.result
    if result is None:
        return None
    reason = REASONS.get(result.reason, "")
    if result.draw or not result.winners:
        return Text(_("A draw (%(reason)s)."), {"reason": reason}, ("reason",))
    return Text(
        _("%(player)s wins (%(reason)s)."),
        {"player": state.players[result.winners[0]].name, "reason": reason},
        ("reason",),
    )


def _players(state: MatchState, viewer: int | None, selected: int | None) -> tuple[PlayerView, ...]:
    views = []
    for p in state.players:
        shown = p.mission if p.mission and (state.missions_revealed or viewer == p.index) else None
        goal = mission(shown) if shown else None
        views.append(
            PlayerView(
                index=p.index,
                name=p.name,
                colour=PLAYER_COLOURS[p.index % len(PLAYER_COLOURS)],
                mission=goal.name if goal else "",
                mission_summary=goal.summary if goal else "",
                mission_chosen=p.mission is not None,
                pick=state.units[p.pick].name if p.pick is not None and viewer == p.index else "",
                units=tuple(_unit_view(state, u, selected) for u in state.team(p.index)),
                accomplished=p.accomplished,
                held_rounds=p.held_rounds,
            )
        )
    return tuple(views)


def tracker_view(
    state: MatchState,
    *,
    selected: int | None,
    params: Mapping[str, str],
    viewer: int | None = None,
) -> TrackerView:
    prompt, buttons = _prompt(state)
    members: tuple[MemberActions, ...] = ()
    blocked = bool(state.panic_due or state.area or state.burning_due)
    if state.phase is Phase.ACTING and state.active is not None and not blocked:
        members = tuple(
            _member(state, u, selected, params)
            for u in state.units
            if u.in_play
            and u.burning is None
            and (u.id == state.active or (u.telematon and u.operator == state.active))
        )
    chosen = (
        state.units[selected] if selected is not None and 0 <= selected < len(state.units) else None
    )
    declared = tuple(
        Option(p.index, p.name)
        for p in state.players
        if p.mission and mission(p.mission).victory == "declared"
    )
    return TrackerView(
        phase=state.phase.value,
        round=state.round,
        max_rounds=state.max_rounds,
        viewer=viewer,
        players=_players(state, viewer, selected),
        prompt=prompt,
        buttons=buttons,
        secrets=_secrets(state, viewer),
        members=members,
        reactions=_reactions(state, chosen, selected, params)
        if chosen is not None and not blocked
        else None,
        panic_due=tuple(
            _panic_test(state, state.units[d.unit], selected, params, retest=False)
            for d in state.panic_due
        ),
        retests=tuple(
            _panic_test(state, u, selected, params, retest=True)
            for u in state.units
            if not blocked and not retest_refusal(state, u)
        ),
        burning_due=tuple(_unit_view(state, state.units[u], selected) for u in state.burning_due),
        area=state.area is not None,
        area_targets=tuple(
            Option(u.id, u.name) for u in state.units if u.in_play and not u.camouflaged
        ),
        declared=declared,
        rolls=tuple(_roll_view(r) for r in state.last_rolls),
        all_units=tuple(Option(u.id, u.name) for u in state.units if u.in_play),
        over=state.phase is Phase.OVER,
        result=_result(state),
        missions=tuple((m.slug, m.name) for m in MISSIONS),
    )
