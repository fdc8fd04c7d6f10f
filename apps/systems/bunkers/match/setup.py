"""Mission setup: the roll-offs (ties rolled again, every die in the event), the choice of
zones, the hidden artifact, deployment unit by unit (50:50 over the levels on a board of two),
doors and barriers added to the board."""

from __future__ import annotations

from apps.systems.bunkers.army import reserve_limit
from apps.systems.bunkers.match import flow
from apps.systems.bunkers.match.context import Ctx, command, refuse, require_place
from apps.systems.bunkers.match.state import MatchState
from apps.systems.bunkers.match.tables import (
    DOOR_KIND_LABELS,
    MAX_DOORS,
    PLACES,
    SIDES,
    Mission,
    Stage,
)
from apps.systems.core.dice import roll_die
from apps.systems.core.errors import RuleViolation
from apps.systems.core.match import Args

MAX_ROLLS = 50  # a tie is rolled again; fifty ties in a row never happen with fair dice
PURPOSES = {Stage.ZONES: "zones", Stage.MARKER: "marker", Stage.FIRST: "first"}


def roll_off(ctx: Ctx) -> tuple[list[list[int]], int]:
    """Both players roll a d6, ties roll again: every pair of dice and the winner."""
    rolls: list[list[int]] = []
    for _ in range(MAX_ROLLS):
        pair = [roll_die(ctx.rng, 6), roll_die(ctx.rng, 6)]
        rolls.append(pair)
        if pair[0] != pair[1]:
            return rolls, 0 if pair[0] > pair[1] else 1
    return rolls, 0  # pragma: no cover - unreachable with fair dice


def next_deployer(state: MatchState, last: int) -> int | None:
    """Alternating unit by unit; a player with nothing left to deploy is skipped."""
    for player in (state.other(last), last):
        if any(u.place == "" for u in state.side_units(player)):
            return player
    return None


@command("roll_off")
def _roll_off(ctx: Ctx, args: Args) -> None:
    state = ctx.state
    purpose = PURPOSES.get(state.stage)
    if purpose is None:
        refuse("no_roll_off", "There is no roll-off now.")
    rolls, winner = roll_off(ctx)
    if purpose == "marker":
        chooser = state.chooser if state.chooser is not None else winner
        # "beginnend mit dem Spieler, der nicht die Aufstellungszone gewählt hat"
        deployer = next_deployer(state, chooser)
        ctx.emit("rolled_off", purpose=purpose, rolls=rolls, winner=winner, deployer=deployer)
        if state.mission == Mission.ARTEFAKT:
            die = roll_die(ctx.rng, 6)
            ctx.emit("artifact_hidden", marker=die, die=die)
        return
    ctx.emit("rolled_off", purpose=purpose, rolls=rolls, winner=winner)
    if purpose == "first":
        flow.start_battle(ctx, winner)


@command("choose_zones")
def _choose_zones(ctx: Ctx, args: Args) -> None:
    state = ctx.state
    if state.stage is not Stage.CHOOSE_ZONES or state.roll_winner is None:
        refuse("not_now", "That is not possible at this point of the game.")
    player = args.integer("player", lo=0, hi=1)
    side = args.text("side", choices=SIDES)
    if player != state.roll_winner:
        refuse("not_roll_winner", "The winner of the roll-off chooses.")
    ctx.emit("zones_chosen", player=player, side=side)


@command("deploy")
def _deploy(ctx: Ctx, args: Args) -> None:
    state = ctx.state
    if state.stage is not Stage.DEPLOY:
        refuse("not_deploying", "Units are deployed before the first battle round.")
    unit = state.unit(args.integer("unit", lo=0, hi=999))
    place = args.text("place", choices=PLACES)
    if unit.place:
        refuse("already_deployed", "This unit is deployed already.")
    if unit.player != state.deployer:
        refuse("not_your_deployment", "The other player deploys the next unit.")
    if place == "reserve":
        waiting = sum(1 for u in state.side_units(unit.player) if u.place == "reserve")
        if waiting >= reserve_limit(len(state.side_units(unit.player))):
            refuse("reserve_full", "At most 25% of the units (rounded up) stay in reserve.")
    else:
        require_place(state, place)
    after = state.with_unit(unit.id, place=place)
    if after.levels >= 2:
        require_balance_reachable(after, unit.player)
    following = next_deployer(after, unit.player)
    ctx.emit("deployed", unit=unit.id, place=place, next=following)


def require_balance_reachable(state: MatchState, player: int) -> None:
    """ "Bei Spielen auf mehreren Ebenen, müssen die Spieler ihre Einheiten während der
    Aufstellung, 50:50 auf beide Ebenen aufteilen. Bei einer ungeraden Anzahl an Einheiten,
    entscheidet der aufstellende Spieler, wo er die letzte Einheit aufstellt." At the end the
    player's upper and lower levels differ by at most one unit (reserve units do not count):
    after each deployment the difference must not exceed the units still to deploy plus one,
    since each of them can still go to the lighter level. A reserve choice uses up a unit
    that could have evened the levels, so it can make the split unreachable as well."""
    upper, lower = state.placed(player, "upper"), state.placed(player, "lower")
    left = state.placed(player, "")
    if abs(upper - lower) > left + 1:
        raise RuleViolation(
            "levels_unbalanced",
            f"Deploy 50:50 over the levels: this makes {upper} upper and {lower} lower "
            f"with {left} units left to deploy.",
            {"upper": upper, "lower": lower, "left": left},
        )


@command("add_door")
def _add_door(ctx: Ctx, args: Args) -> None:
    state = ctx.state
    if state.stage is Stage.OVER:
        refuse("game_over", "The game is over.")
    kind = args.text("kind", "door", choices=tuple(DOOR_KIND_LABELS))
    narrow = args.boolean("narrow", False)
    name = args.text("name", "").strip()[:40]
    if len(state.doors) >= MAX_DOORS:
        refuse("too_many_doors", "The board has as many doors and barriers as it can track.")
    if not name:
        word = "Door" if kind == "door" else "Barrier"
        name = f"{word} {sum(1 for d in state.doors if d.kind == kind) + 1}"
    ctx.emit("door_added", name=name, kind=kind, narrow=narrow and kind == "door")
