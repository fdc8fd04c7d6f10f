"""The movement phase ("Bewegungsphase", "Liegende Ziele", "Sturmangriff"): the players move
the models on the table; the tracker records how far (at most 3 cm, which still allows a single
shot from a rapid-fire weapon, or more), a hidden unit moving as its marker (9 cm: nothing about
its single models until its player sets it up), models going prone or standing up, and a
charge: a unit that moves more than 5 cm through the defender's view to start a melee draws
the defensive fire of every defender with a ranged weapon that is no launcher first. Also the
players' correction of a model's TP."""

from __future__ import annotations

from typing import Any

from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import Args, ArgSpec, CommandSpec
from apps.systems.stahlgewitter.match import attacks, markers
from apps.systems.stahlgewitter.match.context import (
    Ctx,
    active_unit,
    command,
    event,
    own_model,
    refusals,
    refuse,
    require_battle,
    require_phase,
    require_shown,
    specs,
)
from apps.systems.stahlgewitter.match.damage import damage
from apps.systems.stahlgewitter.match.rounds import hidden_marker
from apps.systems.stahlgewitter.match.state import MatchState, Phase

Data = Any
BANDS = ("short", "far")  # at most 3 cm, more
CHANGES = ("tp_lost", "tp_restored")

specs(
    CommandSpec(
        "move",
        _(
            "Movement phase: how far the active unit's models moved (short: at most 3 cm, a "
            "single shot stays possible; far: more). A hidden unit moves as its marker, 9 cm."
        ),
        (
            ArgSpec("band", "str", help=_("short or far")),
            ArgSpec("model", "int", required=False, help=_("One model only (default: all).")),
        ),
    ),
    CommandSpec(
        "prone",
        _("Movement phase: a model of the active unit goes prone (down) or stands up."),
        (ArgSpec("model", "int"), ArgSpec("down", "bool")),
    ),
    CommandSpec(
        "charge",
        _(
            "Movement phase: the active unit charges an enemy unit; moving more than 5 cm "
            "through its view draws the defenders' fire first."
        ),
        (
            ArgSpec("target", "int", help=_("The charged unit (its id).")),
            ArgSpec("through_view", "bool", help=_("More than 5 cm through the defender's view.")),
        ),
    ),
    CommandSpec(
        "adjust",
        _("Correct a model's TP by hand (the tracker missed something)."),
        (ArgSpec("model", "int"), ArgSpec("change", "str", help=_("tp_lost or tp_restored"))),
    ),
)
refusals(
    {
        "already_prone": _("The model lies prone already."),
        "not_prone": _("The model is standing already."),
        "charged_already": _("The unit has charged this turn already."),
        "at_full_tp": _("The model has all its TP."),
    }
)


@command("move")
def _move(ctx: Ctx, args: Args) -> None:
    state = ctx.state
    require_phase(state, Phase.MOVEMENT)
    unit = active_unit(state)
    band = args.text("band", choices=BANDS)
    if args.has("model"):
        model = own_model(state, args.integer("model", lo=0, hi=9999))
        require_shown(state, unit.id)
        if model.stunned:
            refuse("model_stunned", "A stunned model cannot move.")
        moving = [model.id]
    else:
        moving = [m.id for m in state.living(unit.id) if not m.stunned]
    marker = hidden_marker(state, unit)
    ctx.emit(
        "moved",
        unit=unit.id,
        player=unit.player,
        band="far" if marker is not None else band,
        models=moving,
        marker=marker,
    )


@event("moved")
def _moved(state: MatchState, data: Data) -> MatchState:
    for model in data["models"]:
        state = state.with_model(model, moved=data["band"])
    return state


@command("prone")
def _prone(ctx: Ctx, args: Args) -> None:
    """ "freiwillig zu Beginn seiner Bewegungsphase ... wirft sich ein Modell ... auf den
    Boden" (and stands up again in a movement phase)."""
    state = ctx.state
    require_phase(state, Phase.MOVEMENT)
    model = own_model(state, args.integer("model", lo=0, hi=9999))
    down = args.boolean("down")
    require_shown(state, model.unit)
    if model.stunned:
        refuse("model_stunned", "A stunned model cannot act.")
    if down and model.prone:
        refuse("already_prone", "The model lies prone already.")
    if not down and not model.prone:
        refuse("not_prone", "The model is standing already.")
    ctx.emit("prone_changed", model=model.id, player=model.player, prone=down, cause="choice")


@command("charge")
def _charge(ctx: Ctx, args: Args) -> None:
    state = ctx.state
    require_phase(state, Phase.MOVEMENT)
    unit = active_unit(state)
    target = state.unit(args.integer("target", lo=0, hi=999))
    through_view = args.boolean("through_view")
    if unit.panic:
        refuse("panicking", "A panicking unit can do nothing.")
    if target.player == unit.player:
        refuse("not_an_enemy", "Choose an enemy unit.")
    if target.out:
        refuse("unit_out", "That unit is out of the game.")
    if not target.revealed:
        refuse("target_hidden", "That unit is still a hidden marker: reveal it first.")
    if any(m.moved == "charge" for m in state.living(unit.id)):
        refuse("charged_already", "The unit has charged this turn already.")
    markers.reveal(ctx, unit.id, "fought")
    chargers = [m.id for m in ctx.state.living(unit.id) if not m.stunned]
    ctx.emit(
        "charged",
        unit=unit.id,
        player=unit.player,
        target=target.id,
        through_view=through_view,
        models=chargers,
    )
    if through_view:
        attacks.defensive_fire(ctx, unit.id, target.id)


@event("charged")
def _charged(state: MatchState, data: Data) -> MatchState:
    for model in data["models"]:
        state = state.with_model(model, moved="charge")
    return state


@command("adjust")
def _adjust(ctx: Ctx, args: Args) -> None:
    state = ctx.state
    require_battle(state)
    model = state.model(args.integer("model", lo=0, hi=9999))
    change = args.text("change", choices=CHANGES)
    if model.dead:
        refuse("model_dead", "That model is out of the game.")
    require_shown(state, model.unit)
    if change == "tp_lost":
        damage(ctx, model.id, 1, None, "correction")
        return
    if model.tp >= model.tp_start:
        refuse("at_full_tp", "The model has all its TP.")
    ctx.emit("healed", model=model.id, unit=model.unit, tp=1, cause="correction")


@event("healed")
def _healed(state: MatchState, data: Data) -> MatchState:
    model = state.models[data["model"]]
    return state.with_model(model.id, tp=model.tp + data["tp"])
