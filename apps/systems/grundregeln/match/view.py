"""What the tracker page shows for a Grundregeln match: both sides and the NPCs, what the table
has to do now (buttons that send commands, disabled with the reason where a rule forbids them),
the target choice with the exact odds of each attack, the action in progress with its
reactions, and the dice of the last command with the odds they had. Pure: the page renders this,
the rules computed it.

The page's query string drives it: ``unit`` selects a model (its actions or reactions show),
``wizard`` names the action whose target is being chosen, ``mod`` its attack dice modifier.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final
from urllib.parse import urlencode

from apps.systems.core.buttons import Button, NumberInput
from apps.systems.core.buttons import button as _button
from apps.systems.core.distributions import chance_text, percent_text
from apps.systems.core.errors import RuleViolation
from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import TimelineLine as Text
from apps.systems.grundregeln import odds
from apps.systems.grundregeln.catalog import Reload, RollKind
from apps.systems.grundregeln.match.decide import (
    MAX_ATTACK_DICE,
    MAX_MODIFIER,
    NPC_ACTION,
    NPC_ACTIONS,
    check_action,
    check_reactor,
    fleeing_refusal,
    has_weapon,
    needs_dice,
    unloaded_weapon,
)
from apps.systems.grundregeln.match.state import (
    Declared,
    MatchState,
    Model,
    Phase,
    RollRecord,
)
from apps.systems.grundregeln.match.timeline import REASONS, action_label
from apps.systems.grundregeln.scenario import STARTER_CHOICES, VICTORY_CHOICES
from apps.systems.grundregeln.tables import (
    ACTION_BY_KEY,
    ACTIONS,
    FLEEING_ACTIONS,
    Action,
    ActionType,
    Effect,
    damage_value,
    hit_value,
)

PLAYER_COLOURS: Final = ("red", "blue")
NPC_COLOUR: Final = "amber"

# Translatable messages for refusals by code (the engine's own messages are English and name
# models; the page shows these in the reader's language).
REFUSALS: Final[Mapping[str, str]] = {
    "not_your_turn": _("It is not this side's turn."),
    "already_activated": _("This model has taken its action this round."),
    "action_pending": _("Resolve the declared action first."),
    "in_melee": _("In melee: strike, or Lösen (disengage) first."),
    "not_in_melee": _("Only a model in melee can disengage."),
    "not_fleeing": _("Only a fleeing model can do that."),
    "target_required": _("Choose a target."),
    "invalid_target": _("That model cannot be the target."),
    "npc_passive": _("Passive NPCs cannot be attacked."),
    "not_an_enemy": _("Not an enemy."),
    "wrong_weapon": _("No such weapon ready: Waffe wechseln (change weapon) first."),
    "not_loaded": _("The weapon must be reloaded first."),
    "target_in_melee": _("Shooting into a melee is not allowed."),
    "target_not_fleeing": _("Verfolgung (pursue) needs a fleeing enemy."),
    "not_a_friend": _("Items go to a model of the same side."),
    "same_weapon": _("That weapon is ready already."),
    "nothing_to_reload": _("Nothing to reload."),
    "wrong_reload": _("That weapon is not reloaded that way."),
    "npc_only": _("Only scenario NPCs take scenario actions."),
    "no_action_pending": _("There is no declared action."),
    "reactions_closed": _("The resolution has begun: no more reactions."),
    "own_action": _("A model does not react to its own action."),
    "not_reacting_side": _("Only the other side reacts."),
    "unit_out": _("This model is out of the game."),
    "fleeing_no_reaction": _("Fleeing models cannot react."),
    "already_reacted": _("This model has reacted this round: that was its action."),
    "reaction_target": _("A reaction is aimed at the acting model."),
    "not_simple": _("Only simple (einfach) actions can be reactions."),
    "attack_dice_required": _("No melee weapon on the card: name the attack dice."),
    "no_ranged_weapon": _("This model has no ranged weapon."),
    "morale_test_first": _("A fleeing model tests its morale first."),
    "fleeing_restricted": _("A fleeing model may only restore its morale or move."),
    "already_tested": _("It passed its test: choose its action."),
    "not_now": _("That is not possible at this point of the round."),
    "game_over": _("The game is over."),
    "not_passive_npc": _("Players move passive NPCs only."),
    "npc_action_invalid": _("NPCs move, fight or act per the scenario."),
    "npc_already_moved": _("This NPC has been moved in this NPC phase."),
    "nothing_to_undo": _("There is nothing to undo."),
    "stale": _("Another device moved first: this is the match now."),
    "bad_model": _("A model card of a team cannot be read."),
    "empty_team": _("A team has no models."),
    "invalid_args": _("The command's details are incomplete or not valid."),
    "no_scenario": _("There is no scenario to draw from."),
    "not_started": _("The match has not started."),
    "players": _("A Grundregeln match has 2 players."),
    "scenario_invalid": _("The scenario cannot be played."),
    "unknown_action": _("There is no such action."),
    "unknown_command": _("Grundregeln has no such command."),
    "unknown_mission": _("There is no such scenario."),
    "unknown_player": _("There is no such player in this match."),
    "unknown_unit": _("There is no such model in this match."),
}
TYPE_LABELS: Final = {ActionType.SIMPLE: _("simple"), ActionType.COMPLEX: _("complex")}
PHASE_LABELS: Final[Mapping[Phase, str]] = {
    Phase.ROUND_START: _("Round start"),
    Phase.STARTER: _("Round start"),
    Phase.ACTIONS: _("Action phase"),
    Phase.NPC_ACTIONS: _("NPC phase"),
    Phase.NPC_MOVES: _("NPC phase"),
    Phase.SCORING: _("Round end"),
    Phase.OVER: _("Game over"),
}
ROLL_TITLES: Final[Mapping[str, str]] = {
    "hit": _("%(unit)s: hit roll against %(other)s"),
    "fall": _("%(other)s falls: attack dice"),
    "damage": _("Damage dice against %(other)s"),
    "defence": _("%(unit)s: defence dice"),
    "morale": _("%(unit)s: morale test"),
    "flight": _("%(unit)s: flight (W6+B)"),
    "move": _("%(unit)s: movement roll"),
    "push": _("%(unit)s pushes %(other)s: W6"),
    "round_start": _("%(player)s: round start roll"),
    "free": _("Free roll %(label)s"),
}
ODDS_LABELS: Final[Mapping[str, str]] = {
    "damage": _("P(at least 1 LP lost) before the roll: %(p)s"),
    "kill": _("P(eliminated): %(p)s"),
    "expected": _("Expected LP lost: %(p)s"),
    "pass": _("P(passing) before the roll: %(p)s"),
    "at_least": _("P(this result or better): %(p)s"),
    "win": _("P(winning the roll, ties rolled again): %(p)s"),
}
# The type and reach of each move as its button shows it (whole msgids, so each translates).
MOVE_COSTS: Final[Mapping[str, str]] = {
    "orient": _("simple · 0"),
    "walk": _("simple · B"),
    "disengage": _("simple · B"),
    "march": _("complex · 2×B"),
    "sprint": _("complex · 2W6+B"),
    "charge": _("complex · 2×B"),
    "walk_and_shoot": _("complex · B"),
    "flee": _("simple · W6+B"),
    "pursue": _("complex · W6+B"),
    "climb": _("complex · ½B"),
    "squeeze": _("simple · ½B"),
}
MOVE_NOTES: Final[Mapping[str, str]] = {
    "walk": _("B"),
    "disengage": _("B"),
    "march": _("2×B"),
    "sprint": _("2W6+B"),
    "charge": _("2×B"),
    "walk_and_shoot": _("B"),
    "flee": _("W6+B"),
    "pursue": _("W6+B"),
    "climb": _("½B"),
    "squeeze": _("½B"),
    "orient": _("0"),
}


def ratio(text: str) -> Fraction:
    numerator, _sep, denominator = text.partition("/")
    return Fraction(int(numerator), int(denominator or 1))


def _reason(error: RuleViolation) -> str:
    return REFUSALS.get(error.code, _("That is not possible now."))


# --- Models ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class WeaponLine:
    index: int
    name: str
    melee: bool
    attack_dice: int
    range_inches: int
    reload: str
    ready: bool
    loaded: bool


@dataclass(frozen=True)
class ModelView:
    id: int
    name: str
    profile: str
    side: int | None
    colour: str
    size: str
    move: int
    morale: int
    morale_dice: int
    lp: int
    max_lp: int
    defence: int
    weapons: tuple[WeaponLine, ...]
    chips: tuple[Text, ...]
    abilities: tuple[str, ...]
    items: tuple[str, ...]
    npc: str
    out: bool
    activated: bool
    fleeing: bool
    selected: bool
    can_act: bool
    sample: bool
    reroll_ones: tuple[str, ...]

    @property
    def lp_percent(self) -> int:
        return round(100 * self.lp / self.max_lp) if self.max_lp else 0


def _colour(model: Model) -> str:
    return NPC_COLOUR if model.side is None else PLAYER_COLOURS[model.side % 2]


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


def _can_act(state: MatchState, model: Model) -> bool:
    if state.pending is not None or not model.standing or model.activated:
        return False
    if state.rallied not in (None, model.id):
        return False
    if state.phase is Phase.ACTIONS:
        return model.side == state.turn
    return state.phase is Phase.NPC_ACTIONS and model.active_npc


def model_view(state: MatchState, model: Model, selected: int | None) -> ModelView:
    return ModelView(
        id=model.id,
        name=model.name,
        profile=model.profile,
        side=model.side,
        colour=_colour(model),
        size=model.size.value,
        move=model.move,
        morale=model.morale,
        morale_dice=model.morale_dice,
        lp=model.lp,
        max_lp=model.max_lp,
        defence=model.defence,
        weapons=tuple(
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
        ),
        chips=_chips(state, model),
        abilities=model.abilities,
        items=model.items,
        npc="" if model.npc is None else model.npc.value,
        out=model.out,
        activated=model.activated,
        fleeing=model.fleeing,
        selected=model.id == selected,
        can_act=_can_act(state, model),
        sample=model.sample,
        reroll_ones=tuple(kind.value for kind in model.reroll_ones),
    )


@dataclass(frozen=True)
class SideView:
    index: int | None
    name: str
    colour: str
    vp: int
    left: int
    total: int
    turn: bool
    starter: bool
    models: tuple[ModelView, ...]


# --- Dice ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DieView:
    value: int
    success: bool | None  # None: a roll that adds up
    extra: bool
    rerolled: bool
    cancelled: bool


@dataclass(frozen=True)
class RollView:
    title: Text
    dice: tuple[DieView, ...]
    result: Text
    odds: tuple[Text, ...]


def _roll_view(state: MatchState, record: RollRecord) -> RollView:
    names = {
        "unit": state.models[record.unit].name if record.unit is not None else "",
        "other": state.models[record.other].name if record.other is not None else "",
        "player": state.players[record.player].name if record.player is not None else "",
        "label": record.label,
    }
    count = len(record.dice)
    values = (*record.dice, *record.extra)
    dice = tuple(
        DieView(
            value=value,
            success=None if record.need is None else value >= record.need,
            extra=position >= count,
            rerolled=position in record.rerolled,
            cancelled=position in record.cancelled,
        )
        for position, value in enumerate(values)
    )
    if record.kind == "morale":
        result = Text(
            _("dice of 4+: %(n)s, needed: %(lost)s"), {"n": record.result, "lost": record.label}
        )
    elif record.kind in ("hit", "fall"):
        result = Text(_("hits: %(n)s (%(need)s+)"), {"n": record.result, "need": record.need or 0})
    elif record.kind == "damage":
        result = Text(
            _("damage: %(n)s (%(need)s+), cancelled: %(c)s"),
            {"n": record.result, "need": record.need or 0, "c": len(record.cancelled)},
        )
    elif record.kind == "defence":
        result = Text(_("damage dice cancelled: %(n)s"), {"n": record.result})
    elif record.kind in ("flight", "move", "push"):
        result = Text(_('%(n)s"'), {"n": record.result})
    elif record.kind == "free" and record.need:
        result = Text(_("dice of %(need)s+: %(n)s"), {"n": record.result, "need": record.need})
    else:
        result = Text(_("total %(n)s"), {"n": record.result})
    odds_lines = tuple(
        Text(ODDS_LABELS[code], {"p": _odds_text(code, value)})
        for code, value in record.odds
        if code in ODDS_LABELS
    )
    template = ROLL_TITLES.get(record.kind, ROLL_TITLES["free"])
    return RollView(Text(template, names), dice, result, odds_lines)


def _odds_text(code: str, value: str) -> str:
    exact = ratio(value)
    return f"{float(exact):.2f}" if code == "expected" else chance_text(exact)


# --- Actions and targets ---------------------------------------------------------------------


def attack_odds(attacker: Model, target: Model, dice: int) -> tuple[Fraction, Fraction, Fraction]:
    """P(at least 1 LP lost), P(eliminated), expected LP lost of an attack with ``dice``."""
    dist = odds.attack_damage(
        dice,
        hit_value(attacker.size, target.size),
        damage_value(attacker.size, target.size),
        target.defence,
        attacker.rerolls(RollKind.ATTACK),
        target.rerolls(RollKind.DEFENCE),
    )
    return odds.at_least(dist, 1), odds.at_least(dist, max(target.lp, 1)), odds.mean(dist)


# A model without a weapon of the attack's kind: the table names its attack dice (SPEC §2).
DEFAULT_NAMED_DICE: Final = 1


def _dice_input(value: int = DEFAULT_NAMED_DICE) -> NumberInput:
    return NumberInput("args.dice:int", _("Attack dice"), value, 1, MAX_ATTACK_DICE)


def _attack_lines(
    attacker: Model, target: Model, modifier: int, named: int | None = None
) -> tuple[Text, ...]:
    """The odds of an attack with the ready weapon's dice, or ``named`` dice (no weapon)."""
    weapon = attacker.weapon
    if named is not None:
        base = named
    elif weapon is None:
        return ()
    else:
        base = weapon.attack_dice
    dice = max(0, base + modifier)
    damage, kill, mean = attack_odds(attacker, target, dice)
    return (
        Text(
            _("%(dice)s dice, hit %(hit)s+, damage %(dmg)s+ vs %(defence)s defence dice"),
            {
                "dice": dice,
                "hit": hit_value(attacker.size, target.size),
                "dmg": damage_value(attacker.size, target.size),
                "defence": target.defence,
            },
        ),
        Text(
            _("damage %(damage)s · eliminated %(kill)s · expected %(mean)s LP"),
            {
                "damage": percent_text(damage),
                "kill": percent_text(kill),
                "mean": f"{float(mean):.2f}",
            },
        ),
    )


# The push roll as its buttons show it: one exploding d6, the same whoever is pushed.
PUSH_FAR: Final = 7


def _push_lines() -> tuple[Text, ...]:
    dist = odds.push()
    return (
        Text(
            _('W6" (a 6 explodes): %(mean)s" on average, 7" or more %(p)s'),
            {
                "mean": f"{float(odds.mean(dist)):.2f}",
                "p": chance_text(odds.at_least(dist, PUSH_FAR)),
            },
        ),
    )


def _cost(action: Action) -> str:
    return TYPE_LABELS[action.type]


def _action_buttons(
    state: MatchState, model: Model, keys: Sequence[str], command: str, *, reaction: bool
) -> tuple[Button, ...]:
    """One button per action the model could take now, disabled with the reason where a rule
    forbids it; actions with a target open the target choice (reactions aim at the actor)."""
    buttons = []
    actor = state.model(state.pending.action.unit) if reaction and state.pending else None
    for key in keys:
        action = ACTION_BY_KEY.get(key)
        if key == NPC_ACTION:
            buttons.append(
                _button(
                    "declare",
                    _("NPC-Aktion (scenario action)"),
                    args={"unit": model.id, "action": NPC_ACTION},
                    cost=_("per the scenario"),
                )
            )
            continue
        if action is None:
            continue
        if action.effect is Effect.SWITCH_WEAPON:
            for index, weapon in enumerate(model.weapons):
                if index != model.ready_weapon:
                    buttons.append(
                        _button(
                            command,
                            _("Waffe wechseln: %(weapon)s"),
                            params={"weapon": weapon.name},
                            args={"unit": model.id, "action": key, "weapon": index},
                            cost=_cost(action),
                        )
                    )
            continue
        if action.effect is Effect.RELOAD:
            speed = Reload.FAST if key == "reload_fast" else Reload.SLOW
            weapon_index = unloaded_weapon(model, speed)
            if weapon_index is not None:
                buttons.append(
                    _button(
                        command,
                        action.label,
                        args={"unit": model.id, "action": key, "weapon": weapon_index},
                        cost=_cost(action),
                    )
                )
            continue
        if action.effect is Effect.RESTORE_MORALE and not model.fleeing:
            continue
        if key == "disengage" and not model.engaged:
            continue
        if action.weapon == "ranged" and not has_weapon(model, "ranged"):
            continue
        cost = MOVE_COSTS.get(key, _cost(action))
        target = actor.id if actor is not None and action.target else None
        named = DEFAULT_NAMED_DICE if needs_dice(model, action) else None
        declared = Declared(unit=model.id, action=key, target=target, dice=named)
        reason = ""
        try:
            if action.target and actor is None:
                if not _any_target(state, model, action):
                    # Nobody to aim at (no fleeing enemy to pursue, no friend nearby to hand
                    # an item to): the button would only be noise.
                    continue
            else:
                check_action(state, model, action, declared)
        except RuleViolation as error:
            reason = _reason(error)
        if action.target and actor is None:
            buttons.append(
                _button(
                    f"wizard:{key}", action.label, args={"unit": model.id}, reason=reason, cost=cost
                )
            )
            continue
        lines: tuple[Text, ...] = ()
        if actor is not None and action.effect is Effect.ATTACK and not reason and named is None:
            lines = _attack_lines(model, actor, 0)
        elif action.effect is Effect.PUSH and not reason:
            lines = _push_lines()
        buttons.append(
            _button(
                command,
                action.label,
                args={"unit": model.id, "action": key},
                reason=reason,
                cost=cost,
                odds_lines=lines,
                style="secondary",
                inputs=(_dice_input(),) if named is not None and not reason else (),
            )
        )
    return tuple(buttons)


# Refusals that only say "not this target": the action itself may still be possible.
TARGET_ONLY: Final = frozenset(
    {"not_an_enemy", "not_a_friend", "npc_passive", "invalid_target", "target_not_fleeing"}
)


def _any_target(state: MatchState, model: Model, action: Action) -> bool:
    """Whether some model could be the target; raise the refusal that concerns the acting model
    itself (a weapon not ready, in melee) before saying there is nobody to aim at."""
    found = False
    for target in state.models:
        if target.id == model.id or target.out:
            continue
        named = DEFAULT_NAMED_DICE if needs_dice(model, action) else None
        declared = Declared(model.id, action.key, target=target.id, dice=named)
        try:
            check_action(state, model, action, declared)
        except RuleViolation as error:
            if error.code not in TARGET_ONLY and error.code != "target_in_melee":
                raise
            continue
        found = True
    return found


@dataclass(frozen=True)
class TargetChoice:
    model: ModelView
    button: Button


@dataclass(frozen=True)
class Wizard:
    action: str
    label: str
    attacker: ModelView
    modifier: int
    modifiers: tuple[tuple[int, str, bool], ...]  # value, query, chosen
    attack: bool
    targets: tuple[TargetChoice, ...]
    dice: int | None = None  # the attack dice the table names (a model without the weapon)
    max_dice: int = MAX_ATTACK_DICE


def _wizard(
    state: MatchState, model: Model, key: str, modifier: int, selected: int | None, dice: int
) -> Wizard | None:
    action = ACTION_BY_KEY.get(key)
    if action is None or not action.target or not _can_act(state, model):
        return None
    named = dice if needs_dice(model, action) else None
    choices = []
    for target in state.models:
        if target.id == model.id or target.out:
            continue
        declared = Declared(model.id, key, target=target.id, modifier=modifier, dice=named)
        try:
            check_action(state, model, action, declared)
        except RuleViolation as error:
            if error.code in ("not_an_enemy", "not_a_friend", "npc_passive", "invalid_target"):
                continue
            reason = _reason(error)
        else:
            reason = ""
        lines: tuple[Text, ...] = ()
        if action.effect is Effect.ATTACK:
            lines = _attack_lines(model, target, modifier, named)
        elif action.effect is Effect.PUSH:
            lines = _push_lines()
        button = _button(
            "declare",
            "%(name)s",
            params={"name": target.name},
            args={
                "unit": model.id,
                "action": key,
                "target": target.id,
                "modifier": modifier or None,
                "dice": named,
            },
            reason=reason,
            style="target",
            odds_lines=lines if not reason else (),
        )
        choices.append(TargetChoice(model_view(state, target, selected), button))
    modifiers = tuple(
        (
            value,
            urlencode(
                {"wizard": key, "unit": model.id, "mod": value}
                | ({"dice": named} if named is not None else {})
            ),
            value == modifier,
        )
        for value in range(-2, 3)
    )
    return Wizard(
        action=key,
        label=action.label,
        attacker=model_view(state, model, selected),
        modifier=modifier,
        modifiers=modifiers,
        attack=action.effect is Effect.ATTACK,
        targets=tuple(choices),
        dice=named,
    )


# --- The action in progress ------------------------------------------------------------------


@dataclass(frozen=True)
class DeclaredView:
    unit: str
    colour: str
    action: str
    target: str
    resolved: bool
    possible: bool
    move_up: Button | None = None


@dataclass(frozen=True)
class PendingView:
    actor: DeclaredView
    reactions: tuple[DeclaredView, ...]
    closed: bool
    next_label: Text
    resolve: Button
    lapse: Button
    reactors: tuple[ModelView, ...]
    reacting_names: str


def _declared_view(
    state: MatchState, declared: Declared, move_up: Button | None = None
) -> DeclaredView:
    model = state.models[declared.unit]
    return DeclaredView(
        unit=model.name,
        colour=_colour(model),
        action=action_label(declared.action),
        target=state.models[declared.target].name if declared.target is not None else "",
        resolved=declared.resolved,
        possible=declared.possible,
        move_up=move_up,
    )


def _reactors(state: MatchState) -> tuple[Model, ...]:
    reactors = []
    for model in state.models:
        try:
            check_reactor(state, model)
        except RuleViolation:
            continue
        reactors.append(model)
    return tuple(reactors)


def _pending_view(state: MatchState, selected: int | None) -> PendingView | None:
    pending = state.pending
    if pending is None:
        return None
    reactions = []
    for index, reaction in enumerate(pending.reactions):
        move_up = (
            _button("reorder_reaction", _("↑ earlier"), args={"index": index})
            if index and not pending.closed
            else None
        )
        reactions.append(_declared_view(state, reaction, move_up))
    upcoming = next((r for r in pending.reactions if not r.resolved), None)
    current = upcoming or pending.action
    who = state.models[current.unit].name
    if upcoming is not None:
        next_label = Text(
            _("Next: the reaction of %(unit)s (%(action)s)"),
            {"unit": who, "action": action_label(upcoming.action)},
            ("action",),
        )
        resolve_label = _("Resolve the reaction")
    else:
        next_label = Text(
            _("Next: the action of %(unit)s (%(action)s)"),
            {"unit": who, "action": action_label(current.action)},
            ("action",),
        )
        resolve_label = _("Resolve the action")
    names = ", ".join(state.players[side].name for side in pending.reacting)
    return PendingView(
        actor=_declared_view(state, pending.action),
        reactions=tuple(reactions),
        closed=pending.closed,
        next_label=next_label,
        resolve=_button("resolve", resolve_label, style="primary big"),
        lapse=_button(
            "resolve", _("Not possible: it lapses"), args={"possible": False}, style="secondary"
        ),
        reactors=tuple(model_view(state, m, selected) for m in _reactors(state)),
        reacting_names=names,
    )


# --- Prompts per phase -----------------------------------------------------------------------


@dataclass(frozen=True)
class Prompt:
    key: str
    title: Text
    help: Text | None = None
    buttons: tuple[Button, ...] = ()


def _side_morale(state: MatchState, player: int) -> int:
    return max((m.morale for m in state.side(player) if m.standing), default=0)


def _prompt(state: MatchState) -> Prompt:
    names = [p.name for p in state.players]
    if state.phase is Phase.ROUND_START:
        morale = [_side_morale(state, p) for p in (0, 1)]
        win_a, win_b = odds.round_start_win(morale[0], morale[1])
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
                    "ma": morale[0],
                    "mb": morale[1],
                    "pa": percent_text(win_a),
                    "pb": percent_text(win_b),
                },
            ),
            (_button("roll_round_start", _("Roll for the round start"), style="primary big"),),
        )
    if state.phase is Phase.STARTER:
        winner = state.roll_winner if state.roll_winner is not None else 0
        return Prompt(
            "starter",
            Text(_("%(winner)s won the roll: who begins?"), {"winner": names[winner]}),
            None,
            tuple(
                _button(
                    "choose_starter",
                    _("%(player)s begins"),
                    params={"player": names[p]},
                    args={"player": p},
                    style="primary" if p == winner else "secondary",
                )
                for p in (0, 1)
            ),
        )
    if state.phase is Phase.ACTIONS and state.pending is None:
        player = names[state.turn] if state.turn is not None else "?"
        if state.rallied is not None:
            return Prompt(
                "rallied",
                Text(
                    _("%(unit)s passed its morale test: choose its action"),
                    {"unit": state.models[state.rallied].name},
                ),
                Text(_("Moral wiederherstellen (restore morale) ends the flight; or it moves.")),
            )
        return Prompt(
            "activate",
            Text(_("%(player)s: activate a model"), {"player": player}),
            Text(_("Tap one of the side's models marked ready, then choose its one action.")),
        )
    if state.phase is Phase.NPC_ACTIONS and state.pending is None:
        skips = tuple(
            _button(
                "skip_npc",
                _("%(npc)s does nothing"),
                params={"npc": m.name},
                args={"unit": m.id},
            )
            for m in state.models
            if m.active_npc and _can_act(state, m) and not fleeing_refusal(state, m)
        )
        return Prompt(
            "npc_actions",
            Text(_("NPC phase: the scenario NPCs act")),
            Text(
                _(
                    "Tap an active NPC and choose what it does as the scenario says; models "
                    "may react."
                )
            ),
            skips,
        )
    if state.phase is Phase.NPC_MOVES and state.turn is not None and state.pending is None:
        mover = state.players[state.turn]
        buttons = [
            _button(
                "move_npc",
                _("%(npc)s: %(move)s"),
                params={"npc": m.name, "move": ACTION_BY_KEY[key].label},
                args={"unit": m.id, "action": key},
                translate=("move",),
                cost=MOVE_NOTES[key],
            )
            for m in state.models
            if m.passive_npc and m.in_play and not m.activated
            for key in ("walk", "march", "sprint")
        ]
        buttons.append(
            _button(
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
                    "Players move up to two different passive NPCs each, one at a time, the "
                    "start player first; each NPC moves once. Models may react to a move."
                )
            ),
            tuple(buttons),
        )
    if state.phase is Phase.SCORING:
        return Prompt(
            "scoring",
            Text(_("Round %(round)s ends: who holds the objectives?"), {"round": state.round}),
            Text(_("A held objective scores its VP for this round.")),
        )
    return Prompt("none", Text(_("The game is over.")))


# --- Selection -------------------------------------------------------------------------------


FIGHT_ACTIONS: Final = frozenset({"strike", "shoot", "charge", "walk_and_shoot", "push", "block"})
MOVE_ACTIONS: Final = frozenset(
    {"orient", "walk", "disengage", "march", "sprint", "flee", "pursue", "climb", "squeeze"}
)


@dataclass(frozen=True)
class ButtonGroup:
    title: str
    buttons: tuple[Button, ...]


@dataclass(frozen=True)
class Selection:
    model: ModelView
    title: Text
    groups: tuple[ButtonGroup, ...] = ()


def _grouped(buttons: Sequence[Button]) -> tuple[ButtonGroup, ...]:
    """Fighting, moving, the rest: the table looks for the first two most."""

    def key(button: Button) -> str:
        action = next((f.value for f in button.fields if f.name == "args.action"), "")
        return button.command.removeprefix("wizard:") if button.is_wizard else action

    groups = (
        (_("Fight"), [b for b in buttons if key(b) in FIGHT_ACTIONS]),
        (_("Move"), [b for b in buttons if key(b) in MOVE_ACTIONS]),
        (_("Other"), [b for b in buttons if key(b) not in FIGHT_ACTIONS | MOVE_ACTIONS]),
    )
    return tuple(ButtonGroup(title, tuple(group)) for title, group in groups if group)


def _selection(state: MatchState, model: Model, selected: int | None) -> Selection | None:
    view = model_view(state, model, selected)
    if state.phase is Phase.OVER or model.out:
        return Selection(view, Text("%(name)s", {"name": model.name}))
    pending = state.pending
    if pending is not None:
        try:
            check_reactor(state, model)
        except RuleViolation:
            return Selection(view, Text("%(name)s", {"name": model.name}))
        keys = [a.key for a in ACTIONS if a.reaction]
        return Selection(
            view,
            Text(_("Reaction of %(name)s"), {"name": model.name}),
            _grouped(_action_buttons(state, model, keys, "react", reaction=True)),
        )
    if not _can_act(state, model):
        return Selection(view, Text("%(name)s", {"name": model.name}))
    if model.fleeing and state.rallied != model.id:
        chance = odds.morale_pass(model.morale_dice, model.lost, model.rerolls(RollKind.MORALE))
        button = _button(
            "test_morale",
            _("Test morale (%(n)s of %(dice)s dice of 4+)"),
            params={"n": model.lost, "dice": model.morale_dice},
            args={"unit": model.id},
            style="primary",
            odds_lines=(Text(_("P(passing): %(p)s"), {"p": percent_text(chance)}),),
        )
        return Selection(
            view, Text(_("%(name)s flees"), {"name": model.name}), (ButtonGroup("", (button,)),)
        )
    if model.fleeing:
        keys = [a.key for a in ACTIONS if a.key in FLEEING_ACTIONS]
    elif state.phase is Phase.NPC_ACTIONS:
        keys = [k for k in (a.key for a in ACTIONS) if k in NPC_ACTIONS] + [NPC_ACTION]
    else:
        keys = [a.key for a in ACTIONS]
    if state.phase is Phase.NPC_ACTIONS:
        return Selection(
            view,
            Text(_("%(name)s acts"), {"name": model.name}),
            _grouped(_action_buttons(state, model, keys, "declare", reaction=False)),
        )
    return Selection(
        view,
        Text(_("Activate %(name)s: one action"), {"name": model.name}),
        _grouped(_action_buttons(state, model, keys, "declare", reaction=False)),
    )


# --- The whole page --------------------------------------------------------------------------


@dataclass(frozen=True)
class ScenarioView:
    name: str
    summary: str
    victory: str
    rounds: int
    starter: str  # gettext_noop-marked: who begins each round
    objectives: tuple[str, ...]
    vp_kill: int
    vp_npc: int
    vp_objective: int
    sample: bool
    npcs: tuple[tuple[str, str, int], ...]  # name, behaviour, count


@dataclass(frozen=True)
class TrackerView:
    phase: str
    phase_label: str
    round: int
    scenario: ScenarioView | None
    sides: tuple[SideView, ...]
    prompt: Prompt
    selection: Selection | None
    wizard: Wizard | None
    pending: PendingView | None
    rolls: tuple[RollView, ...]
    objectives: tuple[str, ...]
    holders: tuple[tuple[str, str], ...]  # objective, holder name
    result: Text | None
    over: bool
    players: tuple[tuple[int, str], ...]
    action_table: tuple[tuple[str, str, str], ...]  # label, type, note


def _scenario_view(state: MatchState) -> ScenarioView | None:
    scenario = state.scenario
    if scenario is None:
        return None
    victory = dict(VICTORY_CHOICES)[scenario.victory.value]
    return ScenarioView(
        name=scenario.name,
        summary=scenario.summary,
        victory=victory,
        rounds=scenario.rounds,
        starter=dict(STARTER_CHOICES)[scenario.starter.value],
        objectives=scenario.objective_names,
        vp_kill=scenario.vp_kill,
        vp_npc=scenario.vp_npc,
        vp_objective=scenario.vp_objective,
        sample=scenario.sample,
        npcs=tuple((npc.name, npc.behaviour.value, npc.count) for npc in scenario.npcs),
    )


def _sides(state: MatchState, selected: int | None) -> tuple[SideView, ...]:
    sides = [
        SideView(
            index=player.index,
            name=player.name,
            colour=PLAYER_COLOURS[player.index % 2],
            vp=player.total_vp,
            left=sum(1 for m in state.side(player.index) if m.standing),
            total=len(state.side(player.index)),
            turn=state.turn == player.index and state.phase in (Phase.ACTIONS, Phase.NPC_MOVES),
            starter=state.starter == player.index,
            models=tuple(model_view(state, m, selected) for m in state.side(player.index)),
        )
        for player in state.players
    ]
    npcs = state.npcs()
    if npcs:
        sides.append(
            SideView(
                index=None,
                name="NPC",
                colour=NPC_COLOUR,
                vp=0,
                left=sum(1 for m in npcs if m.standing),
                total=len(npcs),
                turn=False,
                starter=False,
                models=tuple(model_view(state, m, selected) for m in npcs),
            )
        )
    return tuple(sides)


def _result(state: MatchState) -> Text | None:
    result = state.result
    if result is None:
        return None
    reason = REASONS.get(result.reason, result.reason)
    if result.draw or not result.winners:
        return Text(_("A draw (%(reason)s)."), {"reason": reason}, ("reason",))
    return Text(
        _("%(winner)s wins (%(reason)s)."),
        {"winner": state.players[result.winners[0]].name, "reason": reason},
        ("reason",),
    )


def _number(params: Mapping[str, str], name: str, default: int, lo: int, hi: int) -> int:
    try:
        value = int(params.get(name, default))
    except ValueError:
        return default
    return max(lo, min(hi, value))


def _modifier(params: Mapping[str, str]) -> int:
    return _number(params, "mod", 0, -MAX_MODIFIER, MAX_MODIFIER)


def tracker_view(
    state: MatchState, *, selected: int | None, params: Mapping[str, str]
) -> TrackerView:
    if selected is not None and not 0 <= selected < len(state.models):
        selected = None
    model = state.models[selected] if selected is not None else None
    wizard = None
    if model is not None and params.get("wizard"):
        dice = _number(params, "dice", DEFAULT_NAMED_DICE, 1, MAX_ATTACK_DICE)
        wizard = _wizard(state, model, params["wizard"], _modifier(params), selected, dice)
    scenario = state.scenario
    holders: tuple[tuple[str, str], ...] = ()
    if scenario is not None and state.holders:
        holders = tuple(
            (name, state.players[h].name if h is not None else "-")
            for name, h in zip(scenario.objective_names, state.holders, strict=False)
        )
    return TrackerView(
        phase=state.phase.value,
        phase_label=PHASE_LABELS[state.phase],
        round=state.round,
        scenario=_scenario_view(state),
        sides=_sides(state, selected),
        prompt=_prompt(state),
        selection=_selection(state, model, selected) if model is not None else None,
        wizard=wizard,
        pending=_pending_view(state, selected),
        rolls=tuple(_roll_view(state, record) for record in state.rolls),
        objectives=scenario.objective_names if scenario is not None else (),
        holders=holders,
        result=_result(state),
        over=state.phase is Phase.OVER,
        players=tuple((p.index, p.name) for p in state.players),
        action_table=tuple(
            (a.label, TYPE_LABELS[a.type], MOVE_NOTES.get(a.key, "")) for a in ACTIONS
        ),
    )
