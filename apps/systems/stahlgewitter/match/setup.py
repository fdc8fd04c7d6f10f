"""Setting up the table ("Aufbau des Spielfeldes", "Aufbau der Einheiten", "Spielablauf"):
the terrain method and who chose the deployment zone, the roll for the first marker, hidden
deployment behind numbered markers (each player's marker→unit mapping is a private command:
only its owner sees it) and the start roll that decides the start player."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import Args, ArgSpec, CommandSpec
from apps.systems.stahlgewitter.match import rounds
from apps.systems.stahlgewitter.match.context import Ctx, command, event, refusals, refuse, specs
from apps.systems.stahlgewitter.match.serial import load
from apps.systems.stahlgewitter.match.state import (
    Marker,
    MatchState,
    Model,
    PlayerState,
    Stage,
    Unit,
)
from apps.systems.stahlgewitter.match.team import best_leader_wik
from apps.systems.stahlgewitter.morale import start_roll
from apps.systems.stahlgewitter.odds import start_weights

Data = Any
METHODS = ("quarters", "alternate")
EDGES = ("north", "south")
_PLAYER = ArgSpec("player", "int", help=_("The player (0 or 1)."))

specs(
    CommandSpec(
        "choose_terrain",
        _(
            "Terrain: by quarters (each builds two diagonal quarters, the higher die chooses the "
            "zone) or alternately (the higher die places first, until a player passes)."
        ),
        (ArgSpec("method", "str", help=_("quarters or alternate")),),
    ),
    CommandSpec(
        "pass_terrain",
        _("Alternate terrain placing: this player passes; the opponent chooses the zone."),
        (_PLAYER,),
    ),
    CommandSpec(
        "choose_zone",
        _("The chooser picks a table edge for the deployment zone; the opponent takes the other."),
        (_PLAYER, ArgSpec("edge", "str", help=_("north or south"))),
    ),
    CommandSpec(
        "roll_deployment", _("Each player rolls a d10: the higher places the first marker.")
    ),
    CommandSpec(
        "hide_unit",
        _("Secret: the numbered marker standing for one of the player's units (only they see it)."),
        (
            _PLAYER,
            ArgSpec("unit", "int", help=_("The unit (its id).")),
            ArgSpec("marker", "int", help=_("The marker's number.")),
        ),
        seat_arg="player",
    ),
    CommandSpec(
        "place_marker",
        _("The players place their markers alternately in their deployment zones."),
        (_PLAYER, ArgSpec("marker", "int", help=_("The marker's number."))),
    ),
    CommandSpec(
        "skip_decoys",
        _(
            "The placing player's unit markers are on the table: the decoys not placed yet stay "
            'off it ("darf drei Marken mehr plazieren").'
        ),
        (_PLAYER,),
    ),
    CommandSpec(
        "roll_start",
        _("The start roll: 1d10 each (optionally + the best leader's WIK), ties rolled again."),
    ),
)
refusals(
    {
        "not_now": _("That is not possible at this point of the game."),
        "not_chooser": _("The other player chooses."),
        "not_your_marker_turn": _("The other player places the next marker."),
        "marker_placed": _("That marker is on the table already."),
        "marker_taken": _("That marker stands for another unit already."),
        "unit_hidden_already": _("That unit has its marker already."),
        "hide_first": _("Give every unit its marker first (secretly)."),
        "not_your_unit": _("That unit belongs to the other player."),
        "unknown_marker": _("There is no such marker."),
        "units_first": _("Place the markers of all units first; then the decoys may stay off."),
        "no_decoys_left": _("No decoy is left to place."),
    }
)


def roll_off(ctx: Ctx, purpose: str, bonus: tuple[int, int] = (0, 0)) -> int:
    """1d10 each (+ bonus), ties rolled again; the event keeps every pair and the chance the
    winner had before the dice fell."""
    first, second = start_weights(bonus)
    roll = start_roll(ctx.rng, bonus)
    ctx.emit(
        "rolled_off",
        purpose=purpose,
        dice=[list(pair) for pair in roll.dice],
        bonus=list(bonus),
        winner=roll.first,
        p_winner=f"{(first, second)[roll.first]}/{first + second}",
    )
    return roll.first


@event("match_started")
def _match_started(state: MatchState, data: Data) -> MatchState:
    return MatchState(
        mode=data["mode"],
        rounds=data["rounds"],
        start_wik=data["start_wik"],
        players=load(data["players"], tuple[PlayerState, ...]),
        units=load(data["units"], tuple[Unit, ...]),
        models=load(data["models"], tuple[Model, ...]),
        markers=load(data["markers"], tuple[Marker, ...]),
        stage=Stage.TERRAIN,
    )


@command("choose_terrain")
def _choose_terrain(ctx: Ctx, args: Args) -> None:
    if ctx.state.stage is not Stage.TERRAIN:
        refuse("not_now", "That is not possible at this point of the game.")
    method = args.text("method", choices=METHODS)
    ctx.emit("terrain_chosen", method=method)
    winner = roll_off(ctx, "terrain")
    if method == "quarters":
        ctx.emit("zone_chooser", player=winner)


@event("terrain_chosen")
def _terrain_chosen(state: MatchState, data: Data) -> MatchState:
    return replace(state, terrain=data["method"])


@event("rolled_off")
def _rolled_off(state: MatchState, data: Data) -> MatchState:
    winner = data["winner"]
    if data["purpose"] == "terrain":
        return replace(state, terrain_first=winner, stage=Stage.PLACING)
    if data["purpose"] == "deployment":
        return replace(state, placer=winner, stage=Stage.MARKERS)
    return replace(state, first=winner)


@command("pass_terrain")
def _pass_terrain(ctx: Ctx, args: Args) -> None:
    state = ctx.state
    if state.stage is not Stage.PLACING or state.terrain != "alternate":
        refuse("not_now", "That is not possible at this point of the game.")
    player = args.integer("player", lo=0, hi=1)
    ctx.emit("terrain_passed", player=player)
    ctx.emit("zone_chooser", player=state.other(player))


@event("terrain_passed")
def _terrain_passed(state: MatchState, data: Data) -> MatchState:
    return state


@event("zone_chooser")
def _zone_chooser(state: MatchState, data: Data) -> MatchState:
    return replace(state, zone_chooser=data["player"], stage=Stage.ZONE)


@command("choose_zone")
def _choose_zone(ctx: Ctx, args: Args) -> None:
    state = ctx.state
    if state.stage is not Stage.ZONE:
        refuse("not_now", "That is not possible at this point of the game.")
    player = args.integer("player", lo=0, hi=1)
    edge = args.text("edge", choices=EDGES)
    if player != state.zone_chooser:
        refuse("not_chooser", "The other player chooses.")
    ctx.emit("zone_chosen", player=player, edge=edge)


@event("zone_chosen")
def _zone_chosen(state: MatchState, data: Data) -> MatchState:
    player, edge = data["player"], data["edge"]
    other = EDGES[1 - EDGES.index(edge)]
    state = state.with_player(player, edge=edge).with_player(1 - player, edge=other)
    return replace(state, stage=Stage.DEPLOY_ROLL)


@command("roll_deployment")
def _roll_deployment(ctx: Ctx, args: Args) -> None:
    if ctx.state.stage is not Stage.DEPLOY_ROLL:
        refuse("not_now", "That is not possible at this point of the game.")
    roll_off(ctx, "deployment")


@command("hide_unit")
def _hide_unit(ctx: Ctx, args: Args) -> None:
    """ "Auf seinem Armeeplan ordnet jeder Spieler jeder seiner Einheiten eine Nummer zu." """
    state = ctx.state
    if state.stage is not Stage.MARKERS:
        refuse("not_now", "That is not possible at this point of the game.")
    player = args.integer("player", lo=0, hi=1)
    unit = state.unit(args.integer("unit", lo=0, hi=999))
    marker = state.marker(player, args.integer("marker", lo=1, hi=99))
    if unit.player != player:
        refuse("not_your_unit", "That unit belongs to the other player.")
    if state.marker_of(unit.id) is not None:
        refuse("unit_hidden_already", "That unit has its marker already.")
    if marker.unit is not None:
        refuse("marker_taken", "That marker stands for another unit already.")
    ctx.emit("unit_hidden", player=player, unit=unit.id, marker=marker.number)


@event("unit_hidden")
def _unit_hidden(state: MatchState, data: Data) -> MatchState:
    return state.with_marker(data["player"], data["marker"], unit=data["unit"])


def hidden_all(state: MatchState, player: int) -> bool:
    return all(state.marker_of(u.id) is not None for u in state.side_units(player))


def next_placer(state: MatchState, last: int) -> int | None:
    """Alternately; a player whose markers are all on the table is skipped."""
    for player in (state.other(last), last):
        if any(not m.placed and not m.removed for m in state.player_markers(player)):
            return player
    return None


@command("place_marker")
def _place_marker(ctx: Ctx, args: Args) -> None:
    """ "Statt dessen plazieren die Spieler jetzt abwechselnd Spielmarken mit Zahlen ... Außerdem
    darf jeder Spieler drei Marken mehr plazieren, als er Einheiten hat." """
    state = ctx.state
    if state.stage is not Stage.MARKERS:
        refuse("not_now", "That is not possible at this point of the game.")
    player = args.integer("player", lo=0, hi=1)
    marker = state.marker(player, args.integer("marker", lo=1, hi=99))
    if player != state.placer:
        refuse("not_your_marker_turn", "The other player places the next marker.")
    if not hidden_all(state, player):
        refuse("hide_first", "Give every unit its marker first (secretly).")
    if marker.placed or marker.removed:
        refuse("marker_placed", "That marker is on the table already.")
    after = state.with_marker(player, marker.number, placed=True)
    ctx.emit("marker_placed", player=player, marker=marker.number, next=next_placer(after, player))


@event("marker_placed")
def _marker_placed(state: MatchState, data: Data) -> MatchState:
    state = state.with_marker(data["player"], data["marker"], placed=True)
    return _next_placer(state, data["next"])


def _next_placer(state: MatchState, placer: int | None) -> MatchState:
    if placer is None:
        return replace(state, placer=None, stage=Stage.START)
    return replace(state, placer=placer)


@command("skip_decoys")
def _skip_decoys(ctx: Ctx, args: Args) -> None:
    """The three extra markers are a choice ("darf"): once a player's unit markers stand, the
    decoys left are taken off the game."""
    state = ctx.state
    if state.stage is not Stage.MARKERS:
        refuse("not_now", "That is not possible at this point of the game.")
    player = args.integer("player", lo=0, hi=1)
    if player != state.placer:
        refuse("not_your_marker_turn", "The other player places the next marker.")
    if not hidden_all(state, player):
        refuse("hide_first", "Give every unit its marker first (secretly).")
    mine = state.player_markers(player)
    if any(m.unit is not None and not m.placed for m in mine):
        refuse("units_first", "Place the markers of all units first.")
    left = [m.number for m in mine if not m.placed and not m.removed]
    if not left:
        refuse("no_decoys_left", "No decoy is left to place.")
    after = state
    for number in left:
        after = after.with_marker(player, number, removed=True)
    ctx.emit("decoys_skipped", player=player, markers=left, next=next_placer(after, player))


@event("decoys_skipped")
def _decoys_skipped(state: MatchState, data: Data) -> MatchState:
    for number in data["markers"]:
        state = state.with_marker(data["player"], number, removed=True)
    return _next_placer(state, data["next"])


@command("roll_start")
def _roll_start(ctx: Ctx, args: Args) -> None:
    """ "wirft jeder Spieler 1W10; bei Gleichstand werden die Würfe wiederholt"; with the
    optional rule (a match setting) each adds the WIK of their best leader."""
    state = ctx.state
    if state.stage is not Stage.START:
        refuse("not_now", "That is not possible at this point of the game.")
    bonus = (0, 0)
    if state.start_wik:
        bonus = (
            best_leader_wik([m for m in state.models if m.player == 0]),
            best_leader_wik([m for m in state.models if m.player == 1]),
        )
    winner = roll_off(ctx, "start", bonus)
    ctx.emit("battle_started", first=winner)
    rounds.start_round(ctx, 1)


@event("battle_started")
def _battle_started(state: MatchState, data: Data) -> MatchState:
    return replace(state, stage=Stage.BATTLE, first=data["first"])
