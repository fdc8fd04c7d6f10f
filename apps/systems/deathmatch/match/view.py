"""What the tracker page shows for a Deathmatch match: the teams, the scores, what the table has
to do now (as buttons that send commands, disabled with the reason where a rule forbids them),
the attack wizard with exact odds per target, and the flip waiting for a decision. Pure: the page
renders this, the rules computed it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from apps.systems.core.buttons import Button, Field
from apps.systems.core.buttons import button as _button
from apps.systems.core.deck import MAX_MODIFIER, Flip
from apps.systems.core.distributions import fraction_text, percent_text
from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import TimelineLine as Text
from apps.systems.deathmatch.catalog import Weapon, WeaponKind
from apps.systems.deathmatch.match import combat
from apps.systems.deathmatch.match.context import activatable
from apps.systems.deathmatch.match.modes import (
    CORE_REPAIR,
    Layout,
    Mode,
    ObjectiveKind,
    mode_by_slug,
)
from apps.systems.deathmatch.match.odds import attack_odds
from apps.systems.deathmatch.match.rules_text import usage_scope, weapon_rules
from apps.systems.deathmatch.match.state import (
    MAX_REROLLS_PER_FLIP,
    Attack,
    FlipPurpose,
    Marker,
    MatchState,
    ObjectiveState,
    Outcome,
    Phase,
    Unit,
    UnitKind,
)
from apps.systems.deathmatch.match.timeline import GADGET_NAMES, MARKERS, OUTCOMES
from apps.systems.deathmatch.match.units import unit_weapons

PLAYER_COLOURS = ("red", "blue", "green", "amber")

# Generic, translatable messages for refusals by code (the engine's own messages name models
# and numbers but are English; the page shows these in the reader's language).
REFUSALS: Mapping[str, str] = {
    "not_enough_ap": _("Not enough action points (AP) for that."),
    "not_enough_cp": _("Not enough command points (◆) for that."),
    "not_your_turn": _("It is not this player's turn."),
    "already_activated": _("This model has been activated this round already."),
    "already_active": _("Another model is activated: end its activation first."),
    "already_passed": _("This team has passed this round already."),
    "pass_back": _("Your opponent passed: you must activate a model."),
    "reroll_zero": _("A card showing 0 can never be replaced."),
    "reroll_twice": _("Each card can be rerolled only once per flip."),
    "reroll_limit": _("At most 3 cards of one flip can be rerolled."),
    "flip_pending": _("Finish the flip in progress first: reroll or accept it."),
    "not_now": _("That is not possible at this point of the round."),
    "stale": _("Another device moved first: this is the match now."),
    "game_over": _("The game is over."),
    "usage_limit": _("This special action has been used as often as its card allows."),
    "readiness_once": _("Bereitschaft (readiness) is allowed once per activation."),
    "out_of_ammo": _("This weapon has no ammunition left (Limitiert)."),
    "gadget_used": _("This station served a model this turn already."),
    "nothing_to_undo": _("There is nothing to undo."),
    "interferers_need_cover": _(
        "A model in the way gives the target cover: choose Deckung or harte Deckung."
    ),
    "shooting_in_melee": _(
        "The shooter stands in an enemy control zone: only a Handwaffe fires there."
    ),
    "warning_no_hit_flip": _(
        "A stationary model is hit automatically in melee: there is no hit flip to warn against."
    ),
    "bad_interferer": _(
        "Name each model in the way once; the target and the shooter are not in the way."
    ),
    "already_ready": _("This model is in readiness (Bereitschaft) already."),
    "bad_fighter": _("A fighter card of this roster cannot be read."),
    "bad_receiver": _("Hand the flag to a friendly model in base contact."),
    "bad_striker": _("That model cannot strike at the disengaging model."),
    "bad_target": _("That model cannot be attacked."),
    "cannot_activate": _("This model cannot be activated."),
    "cannot_carry": _("This model cannot carry a flag."),
    "coordinated_needs_two": _("A coordinated activation needs two models."),
    "core_intact": _("This energy core has lost no LP."),
    "critical_choices": _("Choose the use of the 9s for every target of the attack."),
    "defence_ranged_only": _("A defence system reacts with ranged attacks only."),
    "drones_first": _("The drones activate first."),
    "eliminated": _("That player is out of the game."),
    "empty_team": _("A team has no fighters."),
    "entry_not_found": _("The roster has no such entry."),
    "flag_carried": _("A model carries this flag already."),
    "flag_home": _("Your flag is in its place."),
    "flag_per_model": _("A model carries at most one flag marker."),
    "friendly_target": _("Only area and spray attacks can touch your own models."),
    "gadget_chosen": _("This player has chosen a gadget already."),
    "gadget_inactive": _("The Erlöser is active only from the start of rounds 2 and 4."),
    "game_size": _("The game size must be 3, 5 or 7 fighters."),
    "invalid_args": _("The command's details are incomplete or not valid."),
    "mode_players": _("This game mode is not played by that many players."),
    "needs_flag": _("Only a flag carrier can activate an enemy switch."),
    "no_active_unit": _("No model is activated: activate one first."),
    "no_command_points": _("This model is not part of the team: no command points."),
    "no_flag": _("This model carries no such flag."),
    "no_flag_scoring": _("Flags score nothing in this mode."),
    "no_target": _("Choose a target."),
    "nobody_to_pass_to": _("Nobody else has a model left to activate."),
    "not_a_core": _("Only a standing energy core can be repaired."),
    "not_active": _("That model is not activated."),
    "not_own_flag": _("Only your own flag scores at the farthest switch."),
    "not_ready": _("This model is not in readiness (Bereitschaft)."),
    "not_your_decision": _("Another player decides first."),
    "not_your_fighter": _("Choose a fighter of that player's team."),
    "not_your_flip": _("Only the player who flipped rerolls their cards."),
    "not_your_marker": _("Only the owner's models pick up a flag marker."),
    "nothing_changed": _("The correction changes nothing."),
    "nothing_to_accept": _("There is no flip waiting."),
    "nothing_to_reroll": _("There is no flip to reroll."),
    "nothing_to_track": _("Teleport and jump fields need no bookkeeping: move the model."),
    "one_flag": _("This model carries a flag already."),
    "one_target": _("This weapon attacks one model at a time."),
    "order_not_allowed": _(
        "Befehl is only for a model that respawned before it was activated this round."
    ),
    "own_flag": _("Bring the enemy flag into your zone, not your own."),
    "own_switch": _("Your own switches score nothing: break through to theirs."),
    "players": _("A Deathmatch match has 2 to 4 players."),
    "react_enemy": _("Only enemies of the activated model can react to it."),
    "react_target": _("A reaction attacks the activated model."),
    "reroll_nothing": _("Name the cards to reroll."),
    "settings_invalid": _("The match settings are not valid."),
    "shimmer_tarnfeld": _("The Schimmerfeld does not combine with a Tarnfeld."),
    "stationary": _("This model is stationary: it cannot do that."),
    "stim_active_only": _("The Stim-Terminal's +1 AP is for the activated model."),
    "switch_locked": _("This switch is activated for good."),
    "switch_not_enemy": _("This switch is not controlled by an enemy."),
    "switch_owned": _("This switch must be neutralised first."),
    "switch_yours": _("This switch is yours already."),
    "unknown_command": _("Deathmatch has no such command."),
    "unknown_gadget": _("There is no such gadget."),
    "unknown_mode": _("There is no such game mode."),
    "unknown_objective": _("There is no such objective."),
    "unknown_player": _("There is no such player in this match."),
    "unknown_special_action": _("This model has no such special action."),
    "unknown_unit": _("There is no such model in this match."),
    "unwieldy_reaction": _("A schwerfällig weapon cannot react from readiness (Bereitschaft)."),
    "warning_once": _("A warning (Warnung) is paid once per attack."),
    "warning_team_only": _("Only a team fighter can be warned with a command point."),
    "wrong_objective": _("That objective is of another kind."),
    "wrong_weapon": _("That weapon cannot make this attack."),
}


@dataclass(frozen=True)
class MarkerView:
    key: str
    label: str
    count: int


@dataclass(frozen=True)
class WeaponLine:
    index: int
    name: str
    symbol: str
    range_inches: int
    combat: str
    bonus: int
    strength: int
    rules: tuple[str, ...]
    ammo: int | None


@dataclass(frozen=True)
class UnitView:
    id: int
    name: str
    profile_name: str
    player: int
    colour: str
    kind: str
    lp: int
    max_lp: int
    ap: int
    reflex: int
    resistance: int
    move: int
    markers: tuple[MarkerView, ...]
    badges: tuple[Text, ...]
    weapons: tuple[WeaponLine, ...]
    abilities: tuple[str, ...]
    items: tuple[str, ...]
    out: bool
    activated: bool
    active: bool
    selected: bool
    can_activate: bool
    readiness: bool
    sample: bool
    marker_counts: tuple[tuple[str, str, int], ...] = ()

    @property
    def lppercent_text(self) -> int:
        return round(100 * self.lp / self.max_lp) if self.max_lp else 0


@dataclass(frozen=True)
class PlayerView:
    index: int
    name: str
    faction: str
    colour: str
    vp: int
    cp: int
    deck_remaining: int
    turn: bool
    passed: bool
    eliminated: bool
    finished: bool
    harmony: bool
    gadget: str  # the chosen or flipped gadget option, while setting up
    units: tuple[UnitView, ...]
    vp_rounds: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class CardView:
    position: int
    value: int
    kept: bool
    rerolled: bool
    replaced: int | None
    rerollable: bool


@dataclass(frozen=True)
class CriticalOption:
    """One way to spend a flip's 9s against one target, labelled with what it does."""

    auto_hits: int
    label: Text
    checked: bool


@dataclass(frozen=True)
class CriticalChoice:
    """How an area or spray attack's 9s count against one target: automatic hits (the rest
    boost the wound flip), offered from 0 to ``nines``."""

    index: int  # the target's place in the attack
    name: str
    nines: int  # 0: the flip fails against it (or shows no 9)
    default_auto_hits: int
    options: tuple[CriticalOption, ...] = ()


@dataclass(frozen=True)
class FlipView:
    """A flip waiting for its player: reroll cards (1 CP each) or accept."""

    title: Text
    player: int
    player_name: str
    cards: tuple[CardView, ...]
    result: int
    modifier: int
    outcome_lines: tuple[Text, ...]
    can_reroll: bool
    rerolls_left: int
    cp: int
    nines: int
    default_auto_hits: int
    remaining_before_turn: int
    odds: tuple[Text, ...] = ()
    criticals: tuple[CriticalChoice, ...] = ()  # several targets: the 9s target by target
    critical_options: tuple[CriticalOption, ...] = ()  # one target: how to spend its 9s


@dataclass(frozen=True)
class TargetPreview:
    unit: UnitView
    reflex: int
    attack_value: int
    hit: str
    graze: str
    miss: str
    critical: str
    notes: tuple[str, ...]
    enabled: bool = True
    reason: str = ""


@dataclass(frozen=True)
class WizardInput:
    """What the attack wizard was asked for (from the page's query string)."""

    kind: str  # ranged, melee, charge, react_ranged, react_melee, disengage
    weapon: int = 0
    reactor: int | None = None
    situation: combat.Situation = combat.Situation()
    in_the_way: frozenset[int] = frozenset()  # models ticked as in the line of fire


@dataclass(frozen=True)
class Wizard:
    kind: str
    attacker: UnitView
    weapons: tuple[tuple[WeaponLine, bool, str], ...]  # line, usable, reason
    weapon: int
    several: bool
    targets: tuple[TargetPreview, ...]
    situation: combat.Situation
    ranged: bool
    cost: str
    modifier: int
    command: str
    fixed: tuple[Field, ...] = ()
    # Models that may stand in the line of fire (Störende Modelle): every other model in play,
    # friend or foe, but not the shooter or the target; ``in_the_way`` the ticked ones (they
    # are no target then).
    bystanders: tuple[UnitView, ...] = ()
    in_the_way: tuple[int, ...] = ()


@dataclass(frozen=True)
class ObjectiveView:
    id: str
    kind: str
    label: Text
    owner: int | None
    state: str
    carrier: str


@dataclass(frozen=True)
class MapShape:
    """One thing on the arena map with its SVG geometry worked out (inches)."""

    kind: str  # zone, focal_point, switch, flag, king_zone, core
    side: int | None
    x: float
    y: float
    width: float = 0
    height: float = 0
    radius: float = 0
    path: str = ""
    label: str = ""
    label_x: float = 0
    label_y: float = 0


def map_shapes(layout: Layout, names: tuple[str, ...]) -> tuple[MapShape, ...]:
    shapes = [
        MapShape(
            "zone",
            zone.player,
            zone.x,
            zone.y,
            zone.width,
            zone.height,
            label=names[zone.player] if zone.player < len(names) else "",
            label_x=zone.x + 0.6,
            label_y=zone.y + 1.6,
        )
        for zone in layout.zones
    ]
    for spot in layout.spots:
        x, y = spot.x, spot.y
        shape = MapShape(
            spot.kind.value, spot.side, x, y, label=spot.id, label_x=x + 1.4, label_y=y + 1.8
        )
        if spot.kind is ObjectiveKind.SWITCH:
            shape = replace(shape, x=x - 0.8, y=y - 0.8, width=1.6, height=1.6)
        elif spot.kind is ObjectiveKind.FLAG:
            path = f"M {x} {y + 1} V {y - 1.4} L {x + 1.4} {y - 0.8} L {x} {y - 0.2}"
            shape = replace(shape, path=path)
        else:
            radius = {ObjectiveKind.KING_ZONE: spot.radius, ObjectiveKind.CORE: 1.2}.get(
                spot.kind, 1
            )
            shape = replace(shape, radius=radius)
        shapes.append(shape)
    return tuple(shapes)


@dataclass(frozen=True)
class Prompt:
    """What the table does now: a heading, a line of help and the buttons for it."""

    key: str
    title: Text
    help: Text | None = None
    buttons: tuple[Button, ...] = ()
    player: int | None = None


@dataclass(frozen=True)
class ScoreInput:
    focal_points: tuple[str, ...]
    king: str | None


@dataclass(frozen=True)
class TrackerView:
    mode: Mode
    layout: Layout
    shapes: tuple[MapShape, ...]
    phase: str
    round: int
    players: tuple[PlayerView, ...]
    prompt: Prompt
    actions: tuple[Button, ...]
    free_actions: tuple[Button, ...]
    selected: UnitView | None
    selected_buttons: tuple[Button, ...]
    flip: FlipView | None
    wizard: Wizard | None
    score: ScoreInput | None
    objectives: tuple[ObjectiveView, ...]
    gadgets: tuple[tuple[str, str, str, bool], ...]  # id, name, owner, active
    result: Text | None
    over: bool
    active: UnitView | None
    reactors: tuple[Button, ...] = field(default=())
    free_flip: FlipView | None = None
    # An automatic hit on the selected model (a fall after Rückstoß, off a wall): the players
    # who may have caused it, for the knock-out credit (empty: not possible now).
    auto_hit_credit: tuple[tuple[int, str], ...] = ()


# --- Units and players ------------------------------------------------------------------------


def _weapon_line(unit: Unit, index: int, weapon: Weapon) -> WeaponLine:
    value = (
        combat.attack_value(unit, index).value if index < len(unit.weapons) else weapon.combat_value
    )
    return WeaponLine(
        index=index,
        name=weapon.name,
        symbol=weapon.symbol,
        range_inches=weapon.range_inches,
        combat=f"{weapon.combat_label} {value}",
        bonus=weapon.bonus_cards,
        strength=weapon.strength,
        rules=weapon.special_rules,
        ammo=unit.ammo[index] if index < len(unit.ammo) else None,
    )


def _badges(state: MatchState, unit: Unit) -> tuple[Text, ...]:
    badges: list[Text] = []
    if unit.kind is UnitKind.DRONE:
        badges.append(Text(_("A-18 drone")))
    if unit.kind is UnitKind.DEFENCE:
        badges.append(Text(_("Defence system")))
    if unit.kind is UnitKind.CORE:
        badges.append(Text(_("Energy core (Energiekern)")))
    if unit.vip:
        badges.append(Text(_("VIP")))
    if unit.king:
        badges.append(Text(_("King")))
    for flag in unit.flags:
        badges.append(Text(_("Carries %(flag)s"), {"flag": flag}))
    if unit.readiness:
        badges.append(Text(_("Bereitschaft (readiness)")))
    if unit.dodges:
        badges.append(Text(_("Ausweichen +%(bonus)s Reflex"), {"bonus": 2 * unit.dodges}))
    if unit.aim:
        badges.append(Text(_("Zielen (aimed)")))
    if unit.power_strike:
        badges.append(Text(_("Wuchtschlag (power strike)")))
    if unit.respawn_shock:
        badges.append(Text(_("Respawn-Schock")))
    elif unit.respawns and unit.profile.mech:
        badges.append(Text(_("Respawned (Mech: no shock)")))
    if unit.shields:
        badges.append(Text(_("Energieschild ×%(n)s"), {"n": unit.shields}))
    if unit.penetration:
        badges.append(Text(_("Durchschlag (+2 S)")))
    if unit.shimmer:
        badges.append(Text(_("Schimmer (+3 Reflex vs. shots)")))
    if unit.erloeser:
        badges.append(Text(_("Erlöser shot")))
    if unit.order_allowed:
        badges.append(Text(_("Respawned: Befehl possible")))
    return tuple(badges)


def _unit_view(state: MatchState, unit: Unit, selected: int | None) -> UnitView:
    weapons = unit_weapons(unit)
    reflex = combat.target_reflex(None, unit, combat.Situation(), ranged=False, aimed=False)
    return UnitView(
        id=unit.id,
        name=unit.name,
        profile_name=unit.profile.name,
        player=unit.player,
        colour=PLAYER_COLOURS[unit.player % len(PLAYER_COLOURS)],
        kind=unit.kind.value,
        lp=unit.lp,
        max_lp=unit.max_lp,
        ap=unit.ap,
        reflex=reflex.value - 2 * unit.dodges,
        resistance=combat.resistance(unit, hard_cover=False) - 3 * unit.shields,
        move=unit.profile.move_inches,
        markers=tuple(
            MarkerView(key, MARKERS[key], count)
            for key, count in (
                ("fire", unit.markers.fire),
                ("shock", unit.markers.shock),
                ("acid", unit.markers.acid),
                ("poison", unit.markers.poison),
            )
            if count
        ),
        badges=_badges(state, unit),
        weapons=tuple(_weapon_line(unit, i, w) for i, w in enumerate(weapons)),
        abilities=tuple(a.name for a in unit.profile.abilities),
        items=tuple(item.name for item in unit.items),
        out=unit.out,
        activated=unit.activated,
        active=state.active == unit.id,
        selected=selected == unit.id,
        can_activate=_can_activate_now(state, unit),
        readiness=unit.readiness,
        sample=unit.profile.sample,
        marker_counts=tuple(
            (key, MARKERS[key], unit.markers.count(Marker(key)))
            for key in ("fire", "shock", "acid", "poison")
        ),
    )


def _can_activate_now(state: MatchState, unit: Unit) -> bool:
    return (
        state.phase in (Phase.ACTIVATION, Phase.DRONES)
        and not state.awaiting
        and state.active is None
        and state.attack is None
        and state.pending is None
        and state.disengage is None
        and state.turn == unit.player
        and unit in activatable(state, unit.player)
    )


def _player_views(state: MatchState, selected: int | None) -> tuple[PlayerView, ...]:
    views = []
    for player in state.players:
        rounds: dict[int, int] = {}
        for entry in player.vp:
            rounds[entry.round] = rounds.get(entry.round, 0) + entry.points
        views.append(
            PlayerView(
                index=player.index,
                name=player.name,
                faction=player.faction,
                colour=PLAYER_COLOURS[player.index % len(PLAYER_COLOURS)],
                vp=player.total_vp,
                cp=player.cp,
                deck_remaining=player.deck.remaining_before_turn,
                turn=state.turn == player.index and state.phase in (Phase.ACTIVATION, Phase.DRONES),
                passed=player.passed,
                eliminated=player.eliminated,
                finished=player.finished_round == state.round and state.round > 0,
                harmony=player.harmony,
                gadget=GADGET_NAMES[player.gadget] if player.gadget is not None else "",
                units=tuple(
                    _unit_view(state, u, selected) for u in state.units if u.player == player.index
                ),
                vp_rounds=tuple(sorted(rounds.items())),
            )
        )
    return tuple(views)


# --- What to do now ---------------------------------------------------------------------------


def _players_buttons(state: MatchState, command: str, label: str) -> tuple[Button, ...]:
    return tuple(
        _button(
            command, label, params={"player": p.name}, args={"player": p.index}, style="primary"
        )
        for p in state.players
        if not p.eliminated
    )


def _fighter_buttons(state: MatchState, command: str, player: int) -> tuple[Button, ...]:
    return tuple(
        _button(command, "%(unit)s", params={"unit": u.name}, args={"unit": u.id})
        for u in state.team(player)
        if u.in_play
    )


def _prompt(state: MatchState, mode: Mode) -> Prompt:
    awaiting = state.awaiting
    who = state.player(state.awaiting_player).name if state.awaiting_player is not None else ""
    if state.phase is Phase.OVER:
        return Prompt("over", Text(_("The game is over.")))
    if awaiting == "gadgets":
        buttons: list[Button] = []
        for p in state.players:
            if p.gadget is None:
                buttons.append(
                    _button(
                        "flip_gadget",
                        _("%(player)s: flip for a gadget"),
                        params={"player": p.name},
                        args={"player": p.index},
                        style="primary",
                    )
                )
        buttons.append(_button("skip_gadgets", _("Play without gadgets")))
        return Prompt(
            "gadgets",
            Text(_("Gadgets: every player chooses one option or flips for one")),
            Text(_("Each player receives one of every chosen option and places them alternately.")),
            tuple(buttons),
        )
    if awaiting == "deployment_flip":
        return Prompt(
            "deployment_flip",
            Text(_("Deployment: every player flips a card")),
            Text(_("The highest card decides who picks a deployment zone (and deploys) first.")),
            (_button("deployment_flip", _("Flip for deployment"), style="primary"),),
        )
    if awaiting == "first_deployer":
        return Prompt(
            "first_deployer",
            Text(
                _("%(player)s won the flip: who picks a zone and deploys first?"), {"player": who}
            ),
            Text(_("That player also places the first gadget.")),
            _players_buttons(state, "choose_first_deployer", _("%(player)s first")),
            state.awaiting_player,
        )
    if awaiting == "vip":
        assert state.awaiting_player is not None
        return Prompt(
            "vip",
            Text(_("%(player)s names a VIP"), {"player": who}),
            Text(_("Knocking out the enemy VIP scores extra VP.")),
            _fighter_buttons(state, "name_vip", state.awaiting_player),
            state.awaiting_player,
        )
    if awaiting == "flags":
        return Prompt(
            "flags",
            Text(_("%(player)s hands out up to 3 flag markers"), {"player": who}),
            Text(_("Tick the models that carry one, then confirm.")),
            (),
            state.awaiting_player,
        )
    if awaiting == "ready":
        return Prompt(
            "ready",
            Text(_("Deploy the teams, then start the game")),
            Text(_("The first deployer places their whole team first.")),
            (_button("start_game", _("Start round 1"), style="primary"),),
        )
    if awaiting == "initiative":
        return Prompt(
            "initiative",
            Text(_("Round %(round)s: start phase"), {"round": state.round}),
            Text(_("Command pools are formed. Every player flips one card for initiative.")),
            (_button("flip_initiative", _("Flip for initiative"), style="primary"),),
        )
    if awaiting == "starter":
        return Prompt(
            "starter",
            Text(_("%(player)s won the initiative: who begins?"), {"player": who}),
            None,
            _players_buttons(state, "choose_starter", _("%(player)s begins")),
            state.awaiting_player,
        )
    if awaiting in ("king", "king_unclear"):
        assert state.awaiting_player is not None
        return Prompt(
            awaiting,
            Text(_("%(player)s names a king"), {"player": who}),
            Text(_('King of the Hill: 3 VP for a king within 4" of the centre at round end.')),
            _fighter_buttons(state, "name_king", state.awaiting_player),
            state.awaiting_player,
        )
    if awaiting == "score":
        return Prompt(
            "score",
            Text(_("Round %(round)s: end phase"), {"round": state.round}),
            Text(
                _("Lasting effects end. Say who controls each focal point, then score the round.")
            ),
        )
    if state.phase in (Phase.ACTIVATION, Phase.DRONES) and state.turn is not None:
        player = state.player(state.turn)
        if state.active is not None:
            unit = state.unit(state.active)
            return Prompt(
                "active",
                Text(
                    _("%(unit)s is activated: %(ap)s AP left"), {"unit": unit.name, "ap": unit.ap}
                ),
                None,
                (),
                player.index,
            )
        drones = state.phase is Phase.DRONES
        title = (
            _("%(player)s activates the A-18 drone")
            if drones
            else _("%(player)s's turn: activate a model")
        )
        buttons = []
        if not drones:
            reason = ""
            if player.passed:
                reason = _("This team has passed this round already.")
            elif state.pass_blocked == player.index:
                reason = _("Your opponent passed: you must activate a model.")
            elif state.coordinated:
                reason = _("A coordinated activation cannot be passed.")
            elif not any(activatable(state, p) for p in state.opponents(player.index)):
                reason = _("Nobody else has a model left to activate.")
            buttons.append(_button("pass", _("Pass"), reason=reason, cost=_("once per round")))
            coordinated_reason = ""
            if state.coordinated:
                coordinated_reason = _("This turn is a coordinated activation already.")
            elif player.cp < 2:
                coordinated_reason = _("Needs 2 command points.")
            elif len(activatable(state, player.index)) < 2:
                coordinated_reason = _("Needs two models left to activate.")
            buttons.append(
                _button(
                    "coordinated_activation",
                    _("Coordinated activation"),
                    reason=coordinated_reason,
                    cost="2 ◆",
                )
            )
        help_text = (
            Text(_("Coordinated activation: the second model follows in this turn."))
            if state.coordinated
            else Text(_("Tap one of the highlighted models, then Activate."))
        )
        return Prompt(
            "turn", Text(title, {"player": player.name}), help_text, tuple(buttons), player.index
        )
    return Prompt("wait", Text(_("Waiting")))


# --- The active model's actions ---------------------------------------------------------------


def _ap_reason(unit: Unit, cost: int) -> str:
    return _("Not enough action points (AP) for that.") if unit.ap < cost else ""


def _actions(state: MatchState, mode: Mode) -> tuple[Button, ...]:
    if state.active is None or state.attack or state.pending or state.disengage or state.awaiting:
        return ()
    unit = state.unit(state.active)
    weapons = unit_weapons(unit)
    ranged = [i for i, w in enumerate(weapons) if w.kind is WeaponKind.RANGED]
    melee = [i for i, w in enumerate(weapons) if w.kind is WeaponKind.MELEE]
    cheapest_ranged = min(
        (2 if weapon_rules(weapons[i]).unwieldy else 1 for i in ranged), default=1
    )
    stationary = _("Stationary models cannot do that.") if unit.stationary else ""
    buttons = [
        _button(
            "wizard:ranged",
            _("Ranged attack"),
            reason=(_("No ranged weapon.") if not ranged else _ap_reason(unit, cheapest_ranged)),
            style="primary",
            cost=f"{cheapest_ranged} AP",
        ),
        _button(
            "wizard:melee",
            _("Melee attack"),
            reason=_("No melee weapon.") if not melee else _ap_reason(unit, 1),
            style="primary",
            cost="1 AP",
        ),
        _button(
            "wizard:charge",
            _("Sturmangriff (charge)"),
            reason=stationary or (_("No melee weapon.") if not melee else _ap_reason(unit, 2)),
            cost="2 AP",
        ),
        _button(
            "move",
            _('Bewegung (move %(inches)s")'),
            params={"inches": unit.profile.move_inches},
            reason=stationary or _ap_reason(unit, 1),
            cost="1 AP",
        ),
        _button(
            "wizard:disengage",
            _("Lösen (disengage)"),
            reason=stationary or _ap_reason(unit, 1),
            cost="1 AP",
        ),
        _button(
            "dodge", _("Ausweichen (dodge)"), reason=stationary or _ap_reason(unit, 1), cost="1 AP"
        ),
        _button(
            "aim",
            _("Zielen (aim)"),
            reason=(_("No ranged weapon.") if not ranged else _ap_reason(unit, 1)),
            cost="1 AP",
        ),
        _button(
            "power_strike",
            _("Wuchtschlag (power strike)"),
            reason=(_("No melee weapon.") if not melee else _ap_reason(unit, 1)),
            cost="1 AP",
        ),
        _button(
            "readiness",
            _("Bereitschaft (readiness)"),
            reason=(
                _("Bereitschaft (readiness) is allowed once per activation.")
                if unit.readiness_taken
                else _("Already in readiness.")
                if unit.readiness
                else _ap_reason(unit, 1)
            ),
            cost="1 AP",
        ),
    ]
    for item in unit.items:
        action = item.special_action
        if action is None:
            continue
        scope = usage_scope(item)
        used = any(use.endswith(f":{item.slug}") and _use_current(state, use) for use in unit.uses)
        reason = (
            _("This special action has been used as often as its card allows.")
            if used and (scope or action.ap == 0)
            else _ap_reason(unit, action.ap)
        )
        buttons.append(
            _button(
                "special_action",
                _("%(action)s (%(card)s)"),
                params={"action": action.name, "card": item.name},
                args={"item": item.slug},
                reason=reason,
                cost=f"{action.ap} AP",
            )
        )
    for objective in state.objectives:
        if objective.kind != ObjectiveKind.SWITCH.value:
            continue
        if mode.breakthrough:
            if objective.side == unit.player or objective.locked:
                continue
            carrier = any(state.objective(f).side == unit.player for f in unit.flags)
            buttons.append(
                _button(
                    "activate_switch",
                    _("Activate switch %(switch)s"),
                    params={"switch": objective.id},
                    args={"objective": objective.id},
                    reason=_ap_reason(unit, 1)
                    or ("" if carrier else _("Only a flag carrier can activate an enemy switch.")),
                    cost="1 AP",
                )
            )
            continue
        if objective.owner is None:
            buttons.append(
                _button(
                    "activate_switch",
                    _("Activate switch %(switch)s"),
                    params={"switch": objective.id},
                    args={"objective": objective.id},
                    reason=_ap_reason(unit, 1),
                    cost="1 AP",
                )
            )
        elif objective.owner != unit.player:
            buttons.append(
                _button(
                    "neutralise_switch",
                    _("Neutralise switch %(switch)s"),
                    params={"switch": objective.id},
                    args={"objective": objective.id},
                    reason=_ap_reason(unit, 1),
                    cost="1 AP",
                )
            )
    for core in state.units:
        if core.kind is UnitKind.CORE and core.in_play and core.lp < core.max_lp:
            buttons.append(
                _button(
                    "repair_core",
                    _("Reparieren: %(core)s +%(lp)s LP"),
                    params={
                        "core": f"{core.name} ({state.player(core.player).name})",
                        "lp": CORE_REPAIR[state.game_size],
                    },
                    args={"core": core.id},
                    reason=_ap_reason(unit, 1),
                    cost="1 AP",
                )
            )
    return tuple(buttons)


def _use_current(state: MatchState, use: str) -> bool:
    scope, _sep, rest = use.partition(":")
    if scope == "game":
        return True
    stamp = rest.split(":")[0]
    current = {
        "activation": state.activation_number,
        "turn": state.turn_number,
        "round": state.round,
    }.get(scope)
    return current is not None and stamp == str(current)


def _free_actions(state: MatchState, mode: Mode, selected: Unit | None) -> tuple[Button, ...]:
    """Things any model may do at the moment it touches something: flags and stations."""
    if (
        selected is None
        or not selected.in_play
        or state.phase not in (Phase.ACTIVATION, Phase.DRONES)
        or state.attack
        or state.pending
        or state.disengage
        or state.awaiting
    ):
        return ()
    buttons: list[Button] = []
    if selected.team_member:
        for objective in state.objectives:
            if (
                objective.kind != ObjectiveKind.FLAG.value
                or objective.state is ObjectiveState.CARRIED
            ):
                continue
            if mode.breakthrough and objective.side != selected.player:
                continue
            if (
                mode.flag_return_vp
                and objective.side == selected.player
                and objective.state is ObjectiveState.HOME
            ):
                continue
            buttons.append(
                _button(
                    "pick_up_flag",
                    _("Pick up %(flag)s"),
                    params={"flag": objective.id},
                    args={"unit": selected.id, "objective": objective.id},
                    reason=_("Carries a flag already.") if selected.flags else "",
                )
            )
        if selected.flags and mode.flag_score_vp:
            buttons.append(
                _button(
                    "score_flag",
                    _("Score %(flag)s"),
                    params={"flag": selected.flags[0]},
                    args={"unit": selected.id},
                    style="primary",
                )
            )
        if selected.flags:
            for friend in state.team(selected.player):
                if friend.id != selected.id and friend.in_play and not friend.flags:
                    buttons.append(
                        _button(
                            "hand_over_flag",
                            _("Hand %(flag)s to %(unit)s"),
                            params={"flag": selected.flags[0], "unit": friend.name},
                            args={
                                "unit": selected.id,
                                "to": friend.id,
                                "objective": selected.flags[0],
                            },
                        )
                    )
    for gadget in state.gadgets:
        if gadget.option not in (1, 4, 5, 6, 7, 8):
            continue
        reason = ""
        if gadget.used_turn == state.turn_number:
            reason = _("This station served a model this turn already.")
        elif not gadget.active:
            reason = _("Active only from the start of rounds 2 and 4.")
        buttons.append(
            _button(
                "touch_gadget",
                _("Touches %(gadget)s (%(owner)s)"),
                params={
                    "gadget": GADGET_NAMES[gadget.option],
                    "owner": state.player(gadget.owner).name,
                },
                args={"unit": selected.id, "gadget": gadget.id},
                reason=reason,
                translate=("gadget",),
            )
        )
    return tuple(buttons)


def _selected_buttons(state: MatchState, selected: Unit | None) -> tuple[Button, ...]:
    if selected is None:
        return ()
    buttons: list[Button] = []
    view_can_activate = _can_activate_now(state, selected)
    if view_can_activate:
        ap = 1 if selected.ordered else 2
        buttons.append(
            _button(
                "activate",
                _("Activate %(unit)s"),
                params={"unit": selected.name},
                args={"unit": selected.id},
                style="primary",
                cost=f"{ap} AP",
            )
        )
    if selected.order_allowed and state.phase in (Phase.ACTIVATION, Phase.DRONES):
        cp = state.player(selected.player).cp
        buttons.append(
            _button(
                "order",
                _("Befehl: activate after respawn with 1 AP"),
                args={"unit": selected.id},
                reason="" if cp >= 1 else _("Needs 1 command point."),
                cost="1 ◆",
            )
        )
    return tuple(buttons)


def _reactors(state: MatchState) -> tuple[Button, ...]:
    """Models in readiness that may react to the activated enemy now."""
    if state.active is None or state.attack or state.pending or state.disengage or state.awaiting:
        return ()
    enemy = state.unit(state.active)
    buttons = []
    for unit in state.units:
        if unit.player == enemy.player or not unit.readiness or not unit.in_play:
            continue
        weapons = unit_weapons(unit)
        if any(w.kind is WeaponKind.RANGED and not weapon_rules(w).unwieldy for w in weapons):
            buttons.append(
                _button(
                    "wizard:react_ranged",
                    _("%(unit)s shoots (readiness)"),
                    params={"unit": unit.name},
                    args={"reactor": unit.id},
                )
            )
        if unit.kind is not UnitKind.DEFENCE and any(w.kind is WeaponKind.MELEE for w in weapons):
            buttons.append(
                _button(
                    "wizard:react_melee",
                    _("%(unit)s strikes (readiness)"),
                    params={"unit": unit.name},
                    args={"reactor": unit.id},
                )
            )
        if unit.kind is not UnitKind.DEFENCE and not unit.stationary:
            buttons.append(
                _button(
                    "react",
                    _("%(unit)s dodges (readiness)"),
                    params={"unit": unit.name},
                    args={"unit": unit.id, "action": "dodge"},
                )
            )
    return tuple(buttons)


# --- Flips waiting for a decision -------------------------------------------------------------


def _cards(flip: Flip) -> tuple[CardView, ...]:
    kept = flip.result
    kept_index = next(i for i, c in enumerate(flip.cards) if c.value == kept)
    return tuple(
        CardView(
            position=i,
            value=c.value,
            kept=i == kept_index,
            rerolled=c.rerolled,
            replaced=c.replaced,
            rerollable=not c.rerolled and c.value != 0,
        )
        for i, c in enumerate(flip.cards)
    )


def _flip_view(state: MatchState) -> FlipView | None:
    if state.attack is not None:
        return _attack_flip(state, state.attack)
    if state.disengage is not None:
        d = state.disengage
        flip = d.flips[d.current]
        if flip is None:
            return None
        strike = d.strikes[d.current]
        striker = state.unit(strike.unit)
        hits = flip.result != 0 and (
            flip.nines > 0 or flip.result + strike.attack_value >= strike.reflex
        )
        return _make_flip(
            state,
            Text(
                _("%(striker)s strikes at %(unit)s as it disengages"),
                {"striker": striker.name, "unit": state.unit(d.unit).name},
            ),
            striker.player,
            flip,
            d.rerolls[d.current],
            (
                Text(
                    _("%(card)s + %(value)s vs Reflex %(reflex)s → %(outcome)s"),
                    {
                        "card": flip.result,
                        "value": strike.attack_value,
                        "reflex": strike.reflex,
                        "outcome": _("hit: the move stops")
                        if hits
                        else _("miss: the move goes on"),
                    },
                    ("outcome",),
                ),
            ),
        )
    if state.pending is not None and state.pending.deciders:
        pending = state.pending
        player = pending.deciders[0]
        slot = pending.players.index(player)
        flip = pending.flips[slot]
        assert flip is not None
        others = tuple(
            Text(
                _("%(player)s: %(card)s"),
                {"player": state.player(p).name, "card": f.result if f else "-"},
            )
            for p, f in zip(pending.players, pending.flips, strict=True)
        )
        return _make_flip(
            state,
            Text(
                _("Initiative: %(player)s may reroll (1 ◆, loser decides first)"),
                {"player": state.player(player).name},
            ),
            player,
            flip,
            pending.rerolls[slot],
            others,
        )
    return None


def _make_flip(
    state: MatchState,
    title: Text,
    player: int,
    flip: Flip,
    rerolls_used: int,
    lines: tuple[Text, ...],
    *,
    nines: int = 0,
    default_auto: int = 0,
    odds: tuple[Text, ...] = (),
    criticals: tuple[CriticalChoice, ...] = (),
    critical_options: tuple[CriticalOption, ...] = (),
) -> FlipView:
    owner = state.player(player)
    left = MAX_REROLLS_PER_FLIP - rerolls_used
    can = owner.cp >= 1 and left > 0 and any(not c.rerolled and c.value != 0 for c in flip.cards)
    return FlipView(
        title=title,
        player=player,
        player_name=owner.name,
        cards=_cards(flip),
        result=flip.result,
        modifier=flip.modifier,
        outcome_lines=lines,
        can_reroll=can,
        rerolls_left=min(left, owner.cp),
        cp=owner.cp,
        nines=nines,
        default_auto_hits=default_auto,
        remaining_before_turn=owner.deck.remaining_before_turn,
        odds=odds,
        criticals=criticals,
        critical_options=critical_options,
    )


def _critical_options(outcome: Outcome, nines: int) -> tuple[CriticalOption, ...]:
    """Every split of ``nines`` between automatic hits and wound boosts, each labelled with
    its effect (``combat.critical_split``, the rule the engine applies)."""
    default, _boost = combat.critical_split(outcome, nines, None)
    options = []
    for wanted in range(nines + 1):
        auto, boost = combat.critical_split(outcome, nines, wanted)
        final = combat.with_criticals(outcome, auto)
        if final in (Outcome.HIT, Outcome.GRAZE):
            label = Text(
                _("%(auto)s as automatic hit: %(outcome)s, %(boosts)s ⬠ on the wound flip"),
                {"auto": auto, "outcome": OUTCOMES[final.value], "boosts": boost},
                ("outcome",),
            )
        else:
            label = Text(
                _("%(auto)s as automatic hit: %(outcome)s"),
                {"auto": auto, "outcome": OUTCOMES[final.value]},
                ("outcome",),
            )
        options.append(CriticalOption(auto, label, auto == default))
    return tuple(options)


def _attack_flip(state: MatchState, attack: Attack) -> FlipView | None:
    attacker = state.unit(attack.attacker).name if attack.attacker is not None else ""
    if attack.stage is FlipPurpose.HIT and attack.hit_flip is not None:
        flip = attack.hit_flip
        lines = []
        nines = 0
        default_auto = 0
        odds: list[Text] = []
        criticals: list[CriticalChoice] = []
        for index, target in enumerate(attack.targets):
            outcome = combat.hit_outcome(flip, target.attack_value, target.reflex)
            n = 0 if outcome is Outcome.FAIL else flip.nines
            auto, _boost = combat.critical_split(outcome, n, None)
            nines, default_auto = max(nines, n), max(default_auto, auto)
            options = _critical_options(outcome, n)
            name = state.unit(target.unit).name
            criticals.append(CriticalChoice(index, name, n, auto, options))
            final = combat.with_criticals(outcome, auto)
            lines.append(
                Text(
                    _("%(target)s: %(card)s + %(value)s vs Reflex %(reflex)s → %(outcome)s"),
                    {
                        "target": state.unit(target.unit).name,
                        "card": flip.result,
                        "value": target.attack_value,
                        "reflex": target.reflex,
                        "outcome": OUTCOMES[final.value],
                    },
                    ("outcome",),
                )
            )
            if target.hit_odds:
                odds.append(
                    Text(
                        _("%(target)s: the chance of a hit was %(percent)s."),
                        {
                            "target": state.unit(target.unit).name,
                            "percent": percent_text(target.hit_odds),
                        },
                    )
                )
        weapon = attack.weapon.name if attack.weapon else ""
        return _make_flip(
            state,
            Text(
                _("%(attacker)s: hit flip with %(weapon)s"),
                {"attacker": attacker, "weapon": weapon},
            ),
            attack.player,
            flip,
            attack.hit_rerolls,
            tuple(lines),
            nines=nines,
            default_auto=default_auto,
            odds=tuple(odds),
            criticals=tuple(criticals) if len(criticals) > 1 and nines else (),
            critical_options=criticals[0].options if len(criticals) == 1 and nines else (),
        )
    if attack.stage is FlipPurpose.WOUND and 0 <= attack.current < len(attack.targets):
        target = attack.targets[attack.current]
        wound = target.wound_flip
        if wound is None:
            return None
        victim_id = target.redirected_to if target.redirected_to is not None else target.unit
        victim = state.unit(victim_id)
        damage = combat.damage(wound.result, target.strength, target.resistance)
        line = Text(
            _(
                "%(card)s + S %(strength)s − Resistance %(resistance)s = %(damage)s damage: "
                "%(unit)s %(lp)s → %(after)s LP"
            ),
            {
                "card": wound.result,
                "strength": target.strength,
                "resistance": target.resistance,
                "damage": damage,
                "unit": victim.name,
                "lp": victim.lp,
                "after": max(0, victim.lp - damage),
            },
        )
        title = (
            Text(_("Automatic hit on %(unit)s: wound flip"), {"unit": victim.name})
            if attack.attacker is None
            else Text(
                _("%(attacker)s: wound flip against %(unit)s"),
                {"attacker": attacker, "unit": victim.name},
            )
        )
        chance = (
            (
                Text(
                    _("The chance of a knock-out was %(percent)s."),
                    {"percent": percent_text(target.knock_out_odds)},
                ),
            )
            if target.knock_out_odds
            else ()
        )
        return _make_flip(
            state, title, attack.player, wound, target.wound_rerolls, (line,), odds=chance
        )
    return None


# --- The attack wizard ------------------------------------------------------------------------


def _wizard(state: MatchState, request: WizardInput, selected: int | None) -> Wizard | None:
    if state.attack or state.pending or state.disengage or state.awaiting:
        return None
    kind = request.kind
    if kind.startswith("react_"):
        if request.reactor is None or state.active is None:
            return None
        attacker = state.unit(request.reactor)
        if not attacker.readiness or attacker.player == state.unit(state.active).player:
            return None
    else:
        if state.active is None:
            return None
        attacker = state.unit(state.active)
    ranged = kind in ("ranged", "react_ranged")
    weapons = unit_weapons(attacker)
    if kind == "disengage":
        return _disengage_wizard(state, attacker, request, selected)
    usable = []
    for i, weapon in enumerate(weapons):
        rules = weapon_rules(weapon)
        reason = ""
        if (weapon.kind is WeaponKind.RANGED) != ranged:
            continue
        if ranged and i < len(attacker.ammo) and attacker.ammo[i] == 0:
            reason = _("This weapon has no ammunition left (Limitiert).")
        elif kind.startswith("react") and rules.unwieldy:
            reason = _("Schwerfällig: not in readiness.")
        elif ranged and request.situation.attacker_in_melee and not rules.sidearm:
            reason = _("In an enemy control zone only a Handwaffe fires.")
        elif not kind.startswith("react"):
            cost = 2 if kind == "charge" or rules.unwieldy else 1
            reason = _ap_reason(attacker, cost)
        usable.append((_weapon_line(attacker, i, weapon), not reason, reason))
    if not usable:
        return None
    indices = [line.index for line, ok, _r in usable]
    ready = [line.index for line, ok, _r in usable if ok]
    # The weapon asked for if it can attack now, else the first that can (a shooter that just
    # stepped into a control zone switches to its Handwaffe).
    weapon_index = (
        request.weapon
        if request.weapon in ready
        else ready[0]
        if ready
        else request.weapon
        if request.weapon in indices
        else indices[0]
    )
    weapon = weapons[weapon_index]
    rules = weapon_rules(weapon)
    several = ranged and rules.several_targets
    aimed = ranged and attacker.aim
    modifier = max(-MAX_MODIFIER, min(MAX_MODIFIER, weapon.bonus_cards + int(aimed)))
    deck = state.player(attacker.player).deck
    if kind.startswith("react"):
        candidates = [state.unit(state.active)] if state.active is not None else []
    else:
        candidates = [
            u
            for u in state.units
            if u.in_play and u.id != attacker.id and (several or u.player != attacker.player)
        ]
    # A model in the way is not the target, nor is the shooter: the page offers each model as
    # one or the other (the engine refuses a target named as in the way).
    may_interfere = ranged and not several
    bystanders = [
        u
        for u in state.units
        if may_interfere
        and u.in_play
        and u.id != attacker.id
        and not (len(candidates) == 1 and u.id == candidates[0].id)
    ]
    in_the_way = tuple(u.id for u in bystanders if u.id in request.in_the_way)
    candidates = [u for u in candidates if u.id not in in_the_way]
    previews = []
    for target in candidates:
        reflex = combat.target_reflex(
            attacker, target, request.situation, ranged=ranged, aimed=aimed
        )
        value = (
            combat.attack_value(attacker, weapon_index).value
            if weapon_index < len(attacker.weapons)
            else weapon.combat_value
        )
        if not ranged and target.stationary:
            hit, graze, miss, crit = "1/1", "0/1", "0/1", "0/1"
        else:
            odds = attack_odds(deck, modifier, value, reflex.value)
            hit, graze, miss, crit = (
                fraction_text(odds.hit),
                fraction_text(odds.graze),
                fraction_text(odds.miss + odds.fail),
                fraction_text(odds.critical),
            )
        previews.append(
            TargetPreview(
                unit=_unit_view(state, target, selected),
                reflex=reflex.value,
                attack_value=value,
                hit=hit,
                graze=graze,
                miss=miss,
                critical=crit,
                notes=reflex.notes,
            )
        )
    command = {
        "ranged": "ranged_attack",
        "melee": "melee_attack",
        "charge": "charge",
        "react_ranged": "react",
        "react_melee": "react",
    }[kind]
    fixed: tuple[Field, ...] = (Field("args.weapon:int", str(weapon_index)),)
    if kind.startswith("react"):
        fixed += (
            Field("args.unit:int", str(attacker.id)),
            Field("args.action", "ranged_attack" if ranged else "melee_attack"),
        )
    price = (
        "0 AP"
        if kind.startswith("react")
        else "2 AP"
        if kind == "charge" or rules.unwieldy
        else "1 AP"
    )
    return Wizard(
        kind=kind,
        attacker=_unit_view(state, attacker, selected),
        weapons=tuple(usable),
        weapon=weapon_index,
        several=several,
        targets=tuple(previews),
        situation=request.situation,
        ranged=ranged,
        cost=price,
        modifier=modifier,
        command=command,
        fixed=fixed,
        bystanders=tuple(_unit_view(state, u, selected) for u in bystanders),
        in_the_way=in_the_way,
    )


def _disengage_wizard(
    state: MatchState, mover: Unit, request: WizardInput, selected: int | None
) -> Wizard:
    reflex = combat.disengage_reflex(mover, request.situation)
    previews = []
    for striker in state.units:
        if striker.player == mover.player or not striker.in_play or striker.stationary:
            continue
        melee = [i for i, w in enumerate(striker.weapons) if w.kind is WeaponKind.MELEE]
        if not melee:
            continue
        value = max(combat.attack_value(striker, i).value for i in melee)
        odds = attack_odds(state.player(striker.player).deck, 0, value, reflex.value)
        previews.append(
            TargetPreview(
                unit=_unit_view(state, striker, selected),
                reflex=reflex.value,
                attack_value=value,
                hit=fraction_text(odds.hit + odds.graze),
                graze="0/1",
                miss=fraction_text(odds.miss + odds.fail),
                critical=fraction_text(odds.critical),
                notes=reflex.notes,
            )
        )
    return Wizard(
        kind="disengage",
        attacker=_unit_view(state, mover, selected),
        weapons=(),
        weapon=0,
        several=True,
        targets=tuple(previews),
        situation=request.situation,
        ranged=False,
        cost="1 AP",
        modifier=0,
        command="disengage",
    )


# --- The whole page ---------------------------------------------------------------------------


def _objectives(state: MatchState) -> tuple[ObjectiveView, ...]:
    views = []
    for o in state.objectives:
        label = {
            ObjectiveKind.SWITCH.value: _("Schalter (switch) %(id)s"),
            ObjectiveKind.FOCAL_POINT.value: _("Brennpunkt (focal point) %(id)s"),
            ObjectiveKind.FLAG.value: _("Flagge (flag) %(id)s"),
        }.get(o.kind, "%(id)s")
        views.append(
            ObjectiveView(
                id=o.id,
                kind=o.kind,
                label=Text(label, {"id": o.id}),
                owner=o.owner,
                state=o.state.value,
                carrier=state.unit(o.carrier).name if o.carrier is not None else "",
            )
        )
    return tuple(views)


def _result(state: MatchState) -> Text | None:
    if state.result is None:
        return None
    if state.result.draw:
        names = ", ".join(state.player(p).name for p in state.result.winners)
        return Text(_("A draw between %(players)s."), {"players": names})
    return Text(_("%(player)s wins!"), {"player": state.player(state.result.winners[0]).name})


def tracker_view(
    state: MatchState, *, selected: int | None = None, wizard: WizardInput | None = None
) -> TrackerView:
    mode = mode_by_slug(state.mode)
    if selected is not None and not 0 <= selected < len(state.units):
        selected = None
    if selected is None and state.active is not None:
        selected = state.active
    chosen = state.unit(selected) if selected is not None else None
    focal = tuple(o.id for o in state.objectives if o.kind == ObjectiveKind.FOCAL_POINT.value)
    king = next((u.name for u in state.units if u.king and u.in_play), None)
    score = ScoreInput(focal, king if mode.king else None) if state.awaiting == "score" else None
    active = state.unit(state.active) if state.active is not None else None
    layout = mode.layout(len(state.players), state.game_size)
    return TrackerView(
        mode=mode,
        layout=layout,
        shapes=map_shapes(layout, tuple(p.name for p in state.players)),
        phase=state.phase.value,
        round=state.round,
        players=_player_views(state, selected),
        prompt=_prompt(state, mode),
        actions=_actions(state, mode),
        free_actions=_free_actions(state, mode, chosen),
        selected=_unit_view(state, chosen, selected) if chosen is not None else None,
        selected_buttons=_selected_buttons(state, chosen),
        flip=_flip_view(state),
        wizard=_wizard(state, wizard, selected) if wizard is not None else None,
        score=score,
        objectives=_objectives(state),
        gadgets=tuple(
            (g.id, GADGET_NAMES[g.option], state.player(g.owner).name, g.active)
            for g in state.gadgets
        ),
        result=_result(state),
        over=state.phase is Phase.OVER,
        active=_unit_view(state, active, selected) if active is not None else None,
        reactors=_reactors(state),
        free_flip=_free_flip_view(state),
        auto_hit_credit=_auto_hit_credit(state, chosen),
    )


def _auto_hit_credit(state: MatchState, unit: Unit | None) -> tuple[tuple[int, str], ...]:
    """Who may have caused an automatic hit on ``unit`` (its opponents), when the command
    ``auto_hit`` is allowed: during a round, no flip waiting, the model in play."""
    if (
        unit is None
        or not unit.in_play
        or state.phase in (Phase.SETUP, Phase.OVER)
        or state.attack
        or state.pending
        or state.disengage
    ):
        return ()
    return tuple((p, state.player(p).name) for p in state.opponents(unit.player))


def _free_flip_view(state: MatchState) -> FlipView | None:
    if state.open_free_flip is None or state.free_flip is None:
        return None
    player = state.player(state.open_free_flip)
    return _make_flip(
        state,
        Text(
            _("Free flip from %(player)s's deck: %(result)s"),
            {"player": player.name, "result": state.free_flip.result},
        ),
        player.index,
        state.free_flip,
        state.free_flip_rerolls,
        (),
        odds=(
            Text(
                _("The chance of %(result)s or more was %(percent)s."),
                {
                    "result": state.free_flip.result,
                    "percent": percent_text(state.free_flip_chance),
                },
            ),
        )
        if state.free_flip_chance
        else (),
    )


def wizard_input(params: Mapping[str, Any]) -> WizardInput | None:
    """The wizard's state from the page's query string (strings; anything odd is ignored)."""
    kind = str(params.get("wizard", ""))
    if kind not in ("ranged", "melee", "charge", "react_ranged", "react_melee", "disengage"):
        return None

    def number(key: str) -> int | None:
        # ASCII digits only, and few: str.isdigit also passes "²" and 5000 digits, which int
        # refuses.
        value = str(params.get(key, ""))
        return int(value) if value.isascii() and value.isdigit() and len(value) <= 9 else None

    def flag(key: str) -> bool:
        return str(params.get(key, "")) in ("1", "true", "on")

    cover = str(params.get("cover", "none"))
    prefix = "in_the_way_"
    in_the_way = frozenset(
        int(key[len(prefix) :])
        for key in params
        if str(key).startswith(prefix)
        and flag(str(key))
        and str(key)[len(prefix) :].isascii()
        and str(key)[len(prefix) :].isdigit()
        and len(str(key)) <= len(prefix) + 9
    )
    return WizardInput(
        kind=kind,
        weapon=number("weapon") or 0,
        reactor=number("reactor"),
        in_the_way=in_the_way,
        situation=combat.Situation(
            cover=cover if cover in ("none", "cover", "hard") else "none",
            target_elevated=flag("target_elevated"),
            attacker_elevated=flag("attacker_elevated"),
            rear=flag("rear"),
            target_in_melee=flag("target_in_melee"),
            attacker_in_melee=flag("attacker_in_melee"),
            obstacle=flag("obstacle"),
            several_enemies=flag("several_enemies"),
            warning=flag("warning"),
            friends_engaged=flag("friends_engaged"),
            not_in_contact=flag("not_in_contact"),
        ),
    )
