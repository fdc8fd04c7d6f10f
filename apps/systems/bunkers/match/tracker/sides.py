"""The two players on the tracker: CP, VP, the 50:50 level split (on a board of two levels),
their units with models, wounds and base, and the buttons that deploy, bring in, move between
levels and report losses."""

from __future__ import annotations

from collections.abc import Mapping

from apps.systems.bunkers.army import parse_base
from apps.systems.bunkers.match.state import MatchState, Unit
from apps.systems.bunkers.match.tables import (
    BOARD,
    CONNECTIONS,
    NARROW_BASE_MM,
    OPTION_BY_KEY,
    PLACE_LABELS,
    SIDE_LABELS,
    Mission,
    Phase,
    Stage,
    table_places,
)
from apps.systems.bunkers.match.tracker.models import (
    PLAYER_COLOURS,
    PlayerView,
    SideView,
    UnitView,
)
from apps.systems.bunkers.match.units import arrival_place
from apps.systems.core.buttons import Button, NumberInput, Offers
from apps.systems.core.errors import RuleViolation
from apps.systems.core.i18n import gettext_noop as _

ADJUSTMENTS = (
    ("wound_lost", _("−1 wound"), "danger"),
    ("model_lost", _("−1 model"), "danger"),
    ("destroyed", _("Destroyed"), "danger"),
    ("wound_restored", _("+1 wound"), "secondary"),
    ("model_restored", _("+1 model"), "secondary"),
)
DEPLOY_LABELS = {
    "upper": _("Deploy: upper level"),
    "lower": _("Deploy: lower level"),
    BOARD: _("Deploy"),
    "reserve": _("Into reserve"),
}


def player_views(state: MatchState, offers: Offers) -> tuple[PlayerView, ...]:
    views = []
    for player in state.players:
        units = state.side_units(player.index)
        live = state.stage is not Stage.OVER
        views.append(
            PlayerView(
                index=player.index,
                name=player.name,
                colour=PLAYER_COLOURS[player.index % 2],
                side=SIDE_LABELS.get(player.side, ""),
                cp=player.cp,
                vp=player.total_vp,
                active=state.active == player.index and state.stage is Stage.BATTLE,
                scale=player.scale,
                army=player.army_power if player.scale == "power" else player.army_points,
                levels=state.levels,
                upper=state.placed(player.index, "upper"),
                lower=state.placed(player.index, "lower"),
                board=state.placed(player.index, BOARD),
                reserve=sum(1 for u in units if u.place == "reserve"),
                deep_strikes=player.deep_strikes,
                nowhere=player.nowhere,
                options=tuple(OPTION_BY_KEY[key].name for key in player.options),
                adjust_cp=_correction(offers, "adjust_cp", player.index, _("Correct CP"))
                if live
                else None,
                adjust_vp=_correction(offers, "adjust_vp", player.index, _("Correct VP"))
                if live
                else None,
            )
        )
    return tuple(views)


def _correction(offers: Offers, command: str, player: int, label: str) -> Button:
    points = NumberInput("args.points:int", _("Points (+/−)"), 1, -20, 20)
    return offers.command(command, label, args={"player": player}, inputs=(points,))


def _unit_buttons(state: MatchState, unit: Unit, offers: Offers) -> tuple[Button, ...]:
    args = {"unit": unit.id}
    if state.stage is Stage.DEPLOY:
        return _deployments(state, unit, offers)
    if state.stage is not Stage.BATTLE or unit.destroyed:
        return ()
    own_move = state.phase is Phase.MOVEMENT and state.active == unit.player
    if unit.place == "reserve":
        return _arrivals(state, unit, offers) if own_move else ()
    buttons = []
    if state.active == unit.player and state.phase in (Phase.MOVEMENT, Phase.CHARGE):
        buttons.append(_hazard(unit, offers))
    if own_move and state.levels >= 2:
        form = crossing_form(offers, "change_level", args)
        buttons.append(
            offers.command(
                "change_level", _("Change level (ladder/elevator)"), args=args, form=form
            )
        )
    if own_move and _artifact_lying(state):
        buttons.append(offers.command("pick_up", _("Pick up the artifact"), args=args))
    return tuple(buttons)


def crossing_form(offers: Offers, command: str, args: Mapping[str, object]) -> dict[str, object]:
    """The ladder/elevator form's starting choice: ladder 1, else elevator 1 if the engine
    accepts only that (the players pick the one they use)."""
    for via in CONNECTIONS:
        form: dict[str, object] = {"via": via, "number": 1}
        if offers.refusal(command, {**args, **form}) is None:
            return form
    return {"via": CONNECTIONS[0], "number": 1}


def _artifact_lying(state: MatchState) -> bool:
    return state.mission == Mission.ARTEFAKT and state.artifact_found and state.carrier is None


def _deployments(state: MatchState, unit: Unit, offers: Offers) -> tuple[Button, ...]:
    """The places of this board and the reserve; on two levels a place that would make the
    50:50 split unreachable is disabled with the engine's reason."""
    if unit.place or unit.player != state.deployer:
        return ()
    return tuple(
        offers.command("deploy", DEPLOY_LABELS[place], args={"unit": unit.id, "place": place})
        for place in (*table_places(state.levels), "reserve")
    )


def _arrivals(state: MatchState, unit: Unit, offers: Offers) -> tuple[Button, ...]:
    """On two levels the form chooses the level (lower first); on one the unit comes onto the
    board."""
    args = {"unit": unit.id}
    form = {"place": arrival_place(state)}
    return (
        offers.command(
            "arrive", _("Arrive by deep strike"), args={**args, "deep_strike": True}, form=form
        ),
        offers.command(
            "arrive",
            _("Arrive from the own table edge"),
            args={**args, "deep_strike": False},
            form=form,
        ),
    )


def base_view(text: str) -> tuple[str, bool]:
    """The base as a player reads it ("32 mm", "120×92 mm oval") and whether it is too large
    for narrow doors: "Schmale Türen können nur von Modellen bis 50mm Base Größe durchschritten
    werden" (an oval by its long side). A text that is no base is shown as it stands."""
    try:
        base = parse_base(text)
    except RuleViolation:
        return text, False
    if base is None:
        return "", False
    return base.label, max(base.width_mm, base.length_mm) > NARROW_BASE_MM


def _hazard(unit: Unit, offers: Offers) -> Button:
    inputs = (
        NumberInput("args.models:int", _("Models"), unit.models, 1, unit.models),
        NumberInput("args.save:int", _("Save (7: none)"), 3, 2, 7),
    )
    return offers.command(
        "hazard_roll", _("Hazardous terrain roll"), args={"unit": unit.id}, inputs=inputs
    )


def _adjust_buttons(state: MatchState, unit: Unit, offers: Offers) -> tuple[Button, ...]:
    if state.stage not in (Stage.BATTLE, Stage.FINAL):
        return ()
    return tuple(
        offers.command("adjust", label, args={"unit": unit.id, "change": change}, style=style)
        for change, label, style in ADJUSTMENTS
    )


def unit_view(state: MatchState, unit: Unit, offers: Offers) -> UnitView:
    start = unit.wounds_start
    base, wide = base_view(unit.base)
    return UnitView(
        id=unit.id,
        name=unit.name,
        colour=PLAYER_COLOURS[unit.player % 2],
        models=unit.models,
        models_start=unit.models_start,
        wounds=unit.wounds,
        wounds_start=start,
        wounds_per_model=unit.wounds_per_model,
        place=unit.place,
        place_label=PLACE_LABELS.get(unit.place, _("not deployed yet")),
        destroyed=unit.destroyed,
        below_half=unit.below_half,
        deep_strike=unit.deep_strike,
        carrier=state.carrier == unit.id,
        base=base,
        wide_base=wide,
        percent=round(100 * unit.wounds / start) if start else 0,
        buttons=_unit_buttons(state, unit, offers),
        adjust=_adjust_buttons(state, unit, offers),
    )


def side_views(state: MatchState, offers: Offers) -> tuple[SideView, ...]:
    return tuple(
        SideView(
            index=player.index,
            name=player.name,
            colour=PLAYER_COLOURS[player.index % 2],
            units=tuple(unit_view(state, u, offers) for u in state.side_units(player.index)),
        )
        for player in state.players
    )
