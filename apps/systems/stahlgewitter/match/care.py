"""Burning, medics and picking up weapons ("Flammenschäden", "Sanitäter", "Waffen aufnehmen").

- A Flammenwerfer hit sets the target burning: "Ziel brennt 1W4 Runden". "Ein brennendes Modell,
  das sich in der Bewegungsphase nicht bewegt und weder in der Fern-, noch der Nahkampfphase
  angegriffen hat, darf am Ende der Nahkampfphase versuchen, die Flammen zu löschen ... 1W10 ...
  mindestens 6 ... +1 auf den Wurf ... (maximal +3)" for each comrade in contact who helps.
- "Sanitäter, die sich in direktem Kontakt zu einem betäubten oder verletzten Modell befinden
  und die weder in der Nahkampf- noch in der Fernkampfphase gekämpft haben, können das
  betreffende Modell am Ende der Sammelphase heilen. Betäubte Modelle stehen sofort auf ...,
  verletzte Modelle erhalten einen TP zurück."
- "Ein Modell, das sich zu Beginn seiner Bewegungsphase in direktem Kontakt zu einem Gefallenen
  befindet und für den verbleibenden Spielzug keinerlei Aktionen durchführt, kann einen
  beliebigen Ausrüstungsgegenstand von dem Gefallenen aufnehmen ... Ausgenommen hiervon sind
  Spezialwaffen".

Decisions: the rulebook prints no burning damage; a burning model loses 1 TP at the end of every
round it burns (the players' extinguishing roll comes first, in the melee phase). The extinguish
roll is taken in the melee phase of the burning model's own unit (its end). A medic heals in its
unit's rally phase, once per turn, and never itself. A hidden unit's models do nothing of this
until their player sets the unit up. Special weapons are launchers and template weapons (grenade
and rocket launchers, sniper rifles, flamethrowers, shotguns, sonic rifles); a model that picks
up a weapon does nothing else this turn (it counts as having attacked and moved)."""

from __future__ import annotations

from typing import Any

from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import Args, ArgSpec, CommandSpec
from apps.systems.stahlgewitter.match.context import (
    Ctx,
    command,
    event,
    own_model,
    refusals,
    refuse,
    require_phase,
    require_shown,
    specs,
)
from apps.systems.stahlgewitter.match.damage import damage
from apps.systems.stahlgewitter.match.state import MatchState, Model, Phase, Weapon
from apps.systems.stahlgewitter.morale import burn_rounds, extinguish
from apps.systems.stahlgewitter.odds import extinguish_weight

Data = Any
MAX_HELPERS = 9

specs(
    CommandSpec(
        "extinguish",
        _(
            "End of the melee phase: a burning model that neither moved nor attacked tries to "
            "put out the flames: 1d10 ≥ 6, +1 per helping comrade in contact (at most +3)."
        ),
        (
            ArgSpec("model", "int", help=_("The burning model (its id).")),
            ArgSpec("helpers", "int", required=False, help=_("Comrades helping (0-3).")),
        ),
    ),
    CommandSpec(
        "heal",
        _(
            "End of the rally phase: a medic who did not fight heals a model in contact: a "
            "stunned model stands up, a wounded one gets 1 TP back."
        ),
        (
            ArgSpec("medic", "int", help=_("The medic (its id).")),
            ArgSpec("patient", "int", help=_("The stunned or wounded model (its id).")),
        ),
    ),
    CommandSpec(
        "pick_up",
        _(
            "Start of the movement phase: a model in contact with a fallen model takes one of "
            "its weapons (no special weapons) and does nothing else this turn."
        ),
        (
            ArgSpec("model", "int", help=_("The model picking up (its id).")),
            ArgSpec("fallen", "int", help=_("The fallen model (its id).")),
            ArgSpec("weapon", "int", help=_("The weapon (its index).")),
        ),
    ),
)
refusals(
    {
        "not_burning": _("That model is not burning."),
        "model_busy_fire": _(
            "Only a model that neither moved nor attacked this turn puts out flames."
        ),
        "not_a_medic": _("Only a Sanitäter (medic) heals."),
        "heals_itself": _("A medic heals another model in contact, not itself."),
        "unit_hidden": _("The unit is still a hidden marker: set it up (reveal it) first."),
        "medic_fought": _("A medic who fought or healed this turn heals no more."),
        "nothing_to_heal": _("That model is neither stunned nor wounded."),
        "not_friendly": _("That model belongs to the other side."),
        "not_fallen": _("Only a fallen model's weapons are picked up."),
        "special_weapon": _("Special weapons need training: they are not picked up."),
        "model_busy": _("Only a model that did nothing else this turn repairs a weapon."),
        "too_many_weapons": _("The model carries as many weapons as the tracker keeps."),
    }
)


def ignite(ctx: Ctx, target_id: int) -> None:
    """A flamethrower hit: the target burns 1W4 rounds (a fresh roll replaces a lower one)."""
    model = ctx.state.models[target_id]
    if model.dead:
        return
    roll = burn_rounds(ctx.rng)
    ctx.emit(
        "ignited",
        model=target_id,
        unit=model.unit,
        dice=list(roll.dice),
        rounds=max(roll.rounds, model.burning),
    )


@event("ignited")
def _ignited(state: MatchState, data: Data) -> MatchState:
    return state.with_model(data["model"], burning=data["rounds"])


def burn_round(ctx: Ctx) -> None:
    """The end of a round: every burning model loses 1 TP (decision) and burns a round less."""
    for model in ctx.state.models:
        if model.burning and model.alive:
            ctx.emit("burned", model=model.id, unit=model.unit, left=model.burning - 1)
            damage(ctx, model.id, 1, None, "burning")


@event("burned")
def _burned(state: MatchState, data: Data) -> MatchState:
    return state.with_model(data["model"], burning=data["left"])


@command("extinguish")
def _extinguish(ctx: Ctx, args: Args) -> None:
    state = ctx.state
    require_phase(state, Phase.MELEE)
    model = own_model(state, args.integer("model", lo=0, hi=9999))
    helpers = args.integer("helpers", 0, lo=0, hi=MAX_HELPERS)
    require_shown(state, model.unit)
    if not model.burning:
        refuse("not_burning", "That model is not burning.")
    if model.moved or model.acted or model.stunned:
        refuse("model_busy_fire", "Only a model that neither moved nor attacked puts out flames.")
    num, den = extinguish_weight(helpers)
    roll = extinguish(ctx.rng, helpers)
    ctx.emit(
        "extinguish_rolled",
        model=model.id,
        unit=model.unit,
        player=model.player,
        helpers=helpers,
        dice=list(roll.dice),
        bonus=roll.bonus,
        extinguished=roll.extinguished,
        p_out=f"{num}/{den}",
    )


@event("extinguish_rolled")
def _extinguish_rolled(state: MatchState, data: Data) -> MatchState:
    state = state.with_model(data["model"], acted="extinguish")
    if data["extinguished"]:
        state = state.with_model(data["model"], burning=0)
    return state


@command("heal")
def _heal(ctx: Ctx, args: Args) -> None:
    state = ctx.state
    require_phase(state, Phase.RALLY)
    medic = own_model(state, args.integer("medic", lo=0, hi=9999))
    patient = state.model(args.integer("patient", lo=0, hi=9999))
    require_shown(state, medic.unit)
    if "medic" not in medic.effects:
        refuse("not_a_medic", "Only a medic heals.")
    if patient.id == medic.id:
        # "Sanitäter, die sich in direktem Kontakt zu einem ... Modell befinden": another one.
        refuse("heals_itself", "A medic heals another model, not itself.")
    if medic.acted or medic.stunned:
        refuse("medic_fought", "A medic who fought or healed this turn heals no more.")
    if patient.player != medic.player:
        refuse("not_friendly", "A medic heals the own side.")
    if patient.dead:
        refuse("model_dead", "That model is out of the game.")
    if not patient.stunned and patient.tp >= patient.tp_start:
        refuse("nothing_to_heal", "That model is neither stunned nor wounded.")
    ctx.emit(
        "medic_healed",
        medic=medic.id,
        model=patient.id,
        unit=patient.unit,
        woke=patient.stunned,
        tp=0 if patient.stunned else 1,
    )


@event("medic_healed")
def _medic_healed(state: MatchState, data: Data) -> MatchState:
    state = state.with_model(data["medic"], acted="medic")
    patient = state.models[data["model"]]
    if data["woke"]:
        return state.with_model(patient.id, stunned=False, wakes=False)
    return state.with_model(patient.id, tp=patient.tp + data["tp"])


def special(weapon: Weapon) -> bool:
    return weapon.type == "launcher" or weapon.template_cm > 0


def pickable(fallen: Model) -> list[int]:
    return [i for i, w in enumerate(fallen.weapons) if not special(w)]


@command("pick_up")
def _pick_up(ctx: Ctx, args: Args) -> None:
    state = ctx.state
    require_phase(state, Phase.MOVEMENT)
    model = own_model(state, args.integer("model", lo=0, hi=9999))
    fallen = state.model(args.integer("fallen", lo=0, hi=9999))
    index = args.integer("weapon", lo=0, hi=20)
    require_shown(state, model.unit)
    if model.moved or model.acted or model.stunned:
        refuse("model_busy", "Only a model that did nothing else this turn picks up a weapon.")
    if not fallen.dead:
        refuse("not_fallen", "Only a fallen model's weapons are picked up.")
    if not 0 <= index < len(fallen.weapons):
        refuse("no_such_weapon", "The fallen model has no such weapon.")
    if special(fallen.weapons[index]):
        refuse("special_weapon", "Special weapons are not picked up.")
    if len(model.weapons) >= 12:
        refuse("too_many_weapons", "The model carries as many weapons as the tracker keeps.")
    ctx.emit(
        "picked_up",
        model=model.id,
        unit=model.unit,
        fallen=fallen.id,
        weapon=index,
        weapon_name=fallen.weapons[index].name,
    )


@event("picked_up")
def _picked_up(state: MatchState, data: Data) -> MatchState:
    fallen = state.models[data["fallen"]]
    weapon = fallen.weapons[data["weapon"]]
    rest = tuple(w for i, w in enumerate(fallen.weapons) if i != data["weapon"])
    state = state.with_model(fallen.id, weapons=rest)
    model = state.models[data["model"]]
    return state.with_model(
        model.id, weapons=(*model.weapons, weapon), acted="pick_up", moved="far"
    )
