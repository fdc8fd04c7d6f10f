"""The optional rerolls of a wound roll as the forms ask for them: Erschütterung, Adaptiv and
Robust are the owner's choice ("darf", 10.3), so a form that may lead to a wound roll asks
each owner when to use its reroll (no by default: never applied unasked); the previews read
the same choice (``damage.reroll_args`` reads it from the command)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

from apps.systems.core.i18n import gettext_noop as _
from apps.systems.universalis.catalog import Effect
from apps.systems.universalis.match import rules
from apps.systems.universalis.match.damage import REROLL_ARGS, REROLL_WHEN
from apps.systems.universalis.match.odds import NEVER, Rerolls
from apps.systems.universalis.match.state import Unit
from apps.systems.universalis.match.tracker.models import RerollField
from apps.systems.universalis.match.tracker.units import REROLLS

REROLL_CHOICES: Final = (
    ("no", _("no reroll")),
    ("behind", _("when behind")),
    ("behind_or_tie", _("when behind or tied")),
)
_EFFECTS: Final = {
    "erschuetterung": Effect.ERSCHUETTERUNG,
    "adaptiv": Effect.ADAPTIV,
    "robust": Effect.ROBUST,
}


def reroll_fields(
    weapon_effects: Iterable[Effect], victims: Iterable[Unit]
) -> tuple[RerollField, ...]:
    """The rerolls a form asks about: Erschütterung when the attacker's weapon (any the form
    offers, ``weapon_effects``) has it, Adaptiv and Robust when a model it may hit
    (``victims``) wears armour with them."""
    present = set(weapon_effects) & {Effect.ERSCHUETTERUNG}
    for victim in victims:
        armour = victim.card.armour
        if armour is not None:
            present |= set(armour.effects) & {Effect.ADAPTIV, Effect.ROBUST}
    return tuple(
        RerollField(name, REROLLS[name]) for name in REROLL_ARGS if _EFFECTS[name] in present
    )


def weapon_effects(unit: Unit, weapons: Iterable[int]) -> tuple[Effect, ...]:
    """The effects of the weapons (indices, -1 unarmed) a form offers."""
    return tuple(e for index in weapons for e in rules.weapon(unit, index).effects)


def read_rerolls(form: Mapping[str, str], prefix: str = "args.") -> Rerolls:
    """The rerolls a form's fields choose (as a command sends them)."""
    when = {name: REROLL_WHEN.get(form.get(prefix + name, "no"), NEVER) for name in REROLL_ARGS}
    return Rerolls(**when)
