"""The Gefechtsoptionen on the tracker: one line per option and player with its cost and
timing, enabled or disabled with the engine's reason (wrong phase, not your turn, too few CP,
once per game spent). An option aimed at a door or a unit sends the one chosen in its form,
starting with the first one the engine accepts. A board of one level shows no "Eile ist
geboten" (the engine refuses it there: ``one_level``)."""

from __future__ import annotations

from apps.systems.bunkers.match.state import MatchState
from apps.systems.bunkers.match.tables import DOOR_EFFECTS, OPTIONS, BattleOption, Effect, Stage
from apps.systems.bunkers.match.tracker.models import PLAYER_COLOURS, OptionLine, OptionsView
from apps.systems.bunkers.match.tracker.sides import crossing_form
from apps.systems.core.buttons import Offers


def _default(
    offers: Offers, args: dict[str, object], name: str, choices: tuple[tuple[int, str], ...]
) -> dict[str, object]:
    """The form's starting choice: the first the engine accepts, else the first."""
    for value, _label in choices:
        if offers.refusal("buy_option", {**args, name: value}) is None:
            return {name: value}
    return {name: choices[0][0]} if choices else {}


def _line(
    state: MatchState,
    option: BattleOption,
    player: int,
    offers: Offers,
    doors: tuple[tuple[int, str], ...],
    units: tuple[tuple[int, str], ...],
) -> OptionLine:
    args: dict[str, object] = {"player": player, "option": option.key}
    target = ""
    form: dict[str, object] = {}
    if option.effect in DOOR_EFFECTS:
        target, form = "door", _default(offers, args, "door", doors)
    elif option.effect is Effect.HURRY:
        target, form = "unit", _default(offers, args, "unit", units)
        form = {**form, **crossing_form(offers, "buy_option", {**args, **form})}
    button = offers.command(
        "buy_option",
        "%(option)s",
        params={"option": option.name},
        args={"player": player, "option": option.key},
        form=form,
        cost=f"{option.cost} CP",
    )
    return OptionLine(
        key=option.key,
        name=option.name,
        gloss=option.gloss,
        cost=option.cost,
        timing=option.timing,
        once=option.once_per_game,
        target=target,
        button=button,
    )


def options_views(state: MatchState, offers: Offers) -> tuple[OptionsView, ...]:
    if state.stage is Stage.OVER or not state.players:
        return ()
    doors = tuple((d.id, d.name) for d in state.doors if d.kind == "door")
    views = []
    for player in state.players:
        units = tuple((u.id, u.name) for u in state.side_units(player.index) if u.on_table)
        views.append(
            OptionsView(
                player=player.index,
                name=player.name,
                colour=PLAYER_COLOURS[player.index % 2],
                lines=tuple(
                    _line(state, option, player.index, offers, doors, units)
                    for option in OPTIONS
                    if state.levels >= 2 or option.effect is not Effect.HURRY
                ),
                doors=doors,
                units=units,
                active=state.active == player.index,
            )
        )
    return tuple(views)
