"""Gefährliches Gelände (hazardous terrain: Heiße Gase, what the table agreed):
"Jedes Modell der Einheit muss einen W6 werfen und bei einem Ergebnis von 1 einen
Rüstungswurf ablegen. Verpatzt es diesen, verliert es einen Lebenspunkt." The exact odds are
written into the event before the dice fall; each failed save is one wound lost, and a carrier
destroyed so drops the artifact. A breach (Verzweiflungstat) is no hazardous terrain: "Jedes
Modell, das den Durchbruch durchquert, muss einen W6 werfen und bekommt bei einem Ergebnis von
4+ eine tödliche Wunde" (no save); the tracker logs the option and the table rolls it."""

from __future__ import annotations

from fractions import Fraction

from apps.systems.bunkers.match.context import (
    Ctx,
    command,
    refuse,
    require_active,
    require_phase,
)
from apps.systems.bunkers.match.tables import Phase
from apps.systems.bunkers.match.units import record_change
from apps.systems.core.dice import roll_die
from apps.systems.core.distributions import fraction_text
from apps.systems.core.match import Args

# Models cross hazardous terrain when they move: in the movement and the charge phase.
HAZARD_PHASES = (Phase.MOVEMENT, Phase.CHARGE)
NO_SAVE = 7


def wound_chance(save: int) -> Fraction:
    """One model: a 1 on the d6, then a failed save (``save``+ on a d6; 7: none)."""
    fail = Fraction(min(save, NO_SAVE) - 1, 6)
    return Fraction(1, 6) * min(fail, Fraction(1))


def hazard_odds(models: int, save: int) -> tuple[Fraction, Fraction]:
    """The expected wounds lost and the chance that no model loses one."""
    p = wound_chance(save)
    return models * p, (1 - p) ** models


@command("hazard_roll")
def _hazard_roll(ctx: Ctx, args: Args) -> None:
    state = ctx.state
    require_phase(state, *HAZARD_PHASES)
    unit = state.unit(args.integer("unit", lo=0, hi=999))
    require_active(state, unit.player)
    if not unit.on_table:
        refuse("not_on_table", "That unit is not on the table.")
    models = args.integer("models", unit.models, lo=1, hi=unit.models)
    save = args.integer("save", 3, lo=2, hi=NO_SAVE)
    expected, unharmed = hazard_odds(models, save)
    odds = [["expected", fraction_text(expected)], ["unharmed", fraction_text(unharmed)]]
    dice = [roll_die(ctx.rng, 6) for _ in range(models)]
    saves = [roll_die(ctx.rng, 6) for value in dice if value == 1]
    lost = sum(1 for value in saves if value < save)
    ctx.emit(
        "hazard_rolled",
        unit=unit.id,
        player=unit.player,
        models=models,
        save=save,
        odds=odds,
        dice=dice,
        saves=saves,
        lost=lost,
    )
    for _ in range(lost):
        current = ctx.state.units[unit.id]
        if current.destroyed:
            break
        record_change(ctx, unit.id, "wound_lost")
