"""The other forms of an acting model: revealing a camouflaged enemy, using a power, using an
object, each with the chance of its roll as the form is filled in, and fire readiness. Each
target, supporter, power, blocker and weapon a form offers carries the engine's verdict."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from apps.systems.core.buttons import NumberInput, Offers
from apps.systems.core.distributions import chance_text
from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import TimelineLine as Text
from apps.systems.universalis.catalog import Attribute
from apps.systems.universalis.match.odds import attribute_odds
from apps.systems.universalis.match.preview import chance_line
from apps.systems.universalis.match.state import MatchState, Unit
from apps.systems.universalis.match.tracker.actions import (
    ObjectForm,
    PowerForm,
    ReadinessForm,
    RevealForm,
)
from apps.systems.universalis.match.tracker.forms import (
    choice,
    first_accepted,
    read_choice,
    read_int,
    read_unit,
    unit_form,
)
from apps.systems.universalis.match.tracker.models import Choice, Option
from apps.systems.universalis.match.values import attribute_value, power_value, reveal_value

# The attribute roll an object asks for (Schwierigkeit, 9.2.1); "" is an object without a roll.
OBJECT_ATTRIBUTES: Final = (
    ("", _("no roll")),
    (Attribute.AGI.value, _("AGI (agility)")),
    (Attribute.NK.value, _("NK (melee)")),
    (Attribute.FK.value, _("FK (ranged)")),
    (Attribute.KO.value, _("KO (constitution)")),
    (Attribute.WN.value, _("WN (perception)")),
    (Attribute.EH.value, _("EH (resolve)")),
)


def _reveal(unit: Unit, target: int, supporters: list[int] | None = None) -> dict[str, Any]:
    args: dict[str, Any] = {"unit": unit.id, "extra_ap": 0, "target": target}
    if supporters:
        args["supporters"] = supporters
    return args


def reveal_form(
    state: MatchState, unit: Unit, params: Mapping[str, str], offers: Offers
) -> RevealForm | None:
    """Aufklären: offered while an enemy is camouflaged; friends may support it."""
    targets = [u.id for u in state.units if u.player != unit.player and u.in_play and u.camouflaged]
    if not targets:
        return None
    friends = [u for u in state.units if u.player == unit.player and u.in_play and u.id != unit.id]
    target = first_accepted(offers, "reveal", [_reveal(unit, t) for t in targets])["target"]
    button = offers.command(
        "reveal",
        _("Reveal (WN)"),
        args={"unit": unit.id},
        form={"target": target},
        inputs=(NumberInput("args.extra_ap:int", _("Extra AP (+1 each)"), 0, 0, 10),),
        cost="2 AP",
    )
    asked = button.enabled
    return RevealForm(
        button=button,
        targets=tuple(
            choice(offers, "reveal", t, state.units[t].name, [_reveal(unit, t)], asked=asked)
            for t in targets
        ),
        supporters=tuple(
            choice(offers, "reveal", f.id, f.name, [_reveal(unit, target, [f.id])], asked=asked)
            for f in friends
        ),
        target=target,
        preview=_reveal_preview(state, unit, params, target, targets),
    )


def _reveal_preview(
    state: MatchState, unit: Unit, params: Mapping[str, str], target: int, targets: list[int]
) -> tuple[Text, ...]:
    """The WN roll's chance with the form's target, extra AP and supporters."""
    form = unit_form(params, "reveal", unit)
    chosen = read_unit(state, read_int(form, "args.target:int", target, -1, 999), targets)
    assert chosen is not None
    helping = sum(1 for i in range(8) if form.get(f"args.supporters.{i}:int"))
    extra = read_int(form, "args.extra_ap:int", 0, 0, 10)
    return (chance_line(reveal_value(state, unit, chosen, extra=extra, supporters=helping)),)


def _power(unit: Unit, power: int, blockers: list[int] | None = None) -> dict[str, Any]:
    """The power the form sends on the model itself (its default target)."""
    args: dict[str, Any] = {"unit": unit.id, "power": power, "target": unit.id}
    if blockers:
        args["blockers"] = blockers
    return args


def power_form(
    state: MatchState, unit: Unit, params: Mapping[str, str], offers: Offers
) -> PowerForm | None:
    """Kraft einsetzen: the enemies of a discipline may try to block it (3 AP, 20.5), each with
    the chance of its own roll, made only when the power roll succeeded."""
    if not unit.powers:
        return None
    indices = list(range(len(unit.powers)))
    power = first_accepted(offers, "use_power", [_power(unit, i) for i in indices])["power"]
    button = offers.command(
        "use_power",
        _("Use the power"),
        args={"unit": unit.id},
        form={"power": power, "target": unit.id},
    )
    asked = button.enabled
    blockers = tuple(
        choice(offers, "use_power", b.id, b.name, [_power(unit, power, [b.id])], asked=asked)
        for b in state.units
        if b.player != unit.player and b.in_play and b.card.disciplines
    )
    powers = tuple(
        choice(
            offers,
            "use_power",
            i,
            f"{p.name} ({p.ap} AP, {p.attribute.value.upper()}{p.difficulty:+d})",
            [_power(unit, i)],
            asked=asked,
        )
        for i, p in enumerate(unit.powers)
    )
    form = unit_form(params, "use_power", unit)
    chosen = unit.powers[_power_index(form, power, indices)]
    block_lines = tuple(
        Text(
            _("If %(name)s tries to block: success %(p)s"),
            {
                "name": b.label,
                "p": chance_text(
                    attribute_odds(power_value(state, state.units[int(b.value)], chosen))
                ),
            },
        )
        for b in blockers
        if b.enabled
    )
    return PowerForm(
        button=button,
        powers=powers,
        targets=tuple(Option(u.id, u.name) for u in state.units if u.in_play and u.id != unit.id),
        blockers=blockers,
        power=power,
        preview=(chance_line(power_value(state, unit, chosen)), *block_lines),
    )


def _power_index(form: Mapping[str, str], default: int, indices: list[int]) -> int:
    index = read_int(form, "args.power:int", default, 0, 20)
    return index if index in indices else default


def object_form(
    state: MatchState, unit: Unit, params: Mapping[str, str], offers: Offers
) -> ObjectForm:
    """Objekt benutzen: the object's attribute roll with its modifier (9.2.1), as the engine
    rolls it, or no roll at all."""
    button = offers.command(
        "use_object",
        _("Use the object"),
        args={"unit": unit.id},
        form={"attribute": ""},
        inputs=(NumberInput("args.modifier:int", _("Difficulty (modifier)"), 0, -12, 12),),
        cost="1 AP",
    )
    form = unit_form(params, "use_object", unit)
    attribute = read_choice(form, "args.attribute", [value for value, _l in OBJECT_ATTRIBUTES], "")
    if not attribute:
        return ObjectForm(button, (Text(_("No roll: the object simply works.")),))
    modifier = read_int(form, "args.modifier:int", 0, -12, 12)
    return ObjectForm(button, (chance_line(attribute_value(state, unit, attribute, modifier)),))


# --- Fire readiness ------------------------------------------------------------------------


def readiness_form(state: MatchState, unit: Unit, offers: Offers) -> ReadinessForm | None:
    """Feuerbereitschaft (2 AP) with one of its firearms; weapons the engine never takes for it
    (above WK III) are not offered."""
    weapons = []
    for index, weapon_ in enumerate(unit.card.weapons):
        if weapon_.melee:
            continue
        refusal = offers.refusal("fire_readiness", {"unit": unit.id, "weapon": index})
        if refusal is None or refusal.code != "readiness_wk":
            weapons.append(index)
    if not weapons:
        return None
    variants = [{"unit": unit.id, "weapon": w} for w in weapons]
    weapon = first_accepted(offers, "fire_readiness", variants)["weapon"]
    button = offers.command(
        "fire_readiness",
        _("Fire readiness"),
        args={"unit": unit.id},
        form={"weapon": weapon},
        cost="2 AP",
    )
    choices: tuple[Choice, ...] = tuple(
        choice(
            offers,
            "fire_readiness",
            w,
            unit.card.weapons[w].name,
            [{"unit": unit.id, "weapon": w}],
            asked=button.enabled,
        )
        for w in weapons
    )
    return ReadinessForm(button, choices, weapon)
