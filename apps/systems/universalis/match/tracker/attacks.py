"""The attack forms of an acting model: a shot and a melee attack, each with the exact odds of
its roll as the form is filled in (the page asks again, with the form's
fields as the query, when one changes; see ``match.preview``).

A form opens with the first defaults the engine accepts (the first weapon, kind of shot and
target that can be sent now); each weapon and target it offers carries the engine's verdict."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, Final

from apps.systems.core.buttons import NumberInput, Offers
from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import TimelineLine as Text
from apps.systems.universalis.builder import ROMAN
from apps.systems.universalis.catalog import PowerRange
from apps.systems.universalis.match import rules
from apps.systems.universalis.match.preview import melee_lines, melee_odds, shot_lines, shot_odds
from apps.systems.universalis.match.state import MatchState, Unit
from apps.systems.universalis.match.tracker.actions import MeleeForm, ShotForm
from apps.systems.universalis.match.tracker.forms import (
    choice,
    first_accepted,
    read_choice,
    read_flag,
    read_int,
    read_unit,
    refused,
    unit_form,
)
from apps.systems.universalis.match.tracker.models import Option
from apps.systems.universalis.match.tracker.rerolls import (
    read_rerolls,
    reroll_fields,
    weapon_effects,
)

# The kinds of shot a form opens with, the most usual first (a snap shot costs 1 AP less).
MODES: Final = ("normal", "snap", "aimed")
DISTANCE: Final = 10  # cm, the shot form's default (less for a weapon that reaches less)
MOST_TARGETS: Final = 5  # sustained fire: at most 5 targets in all (14.12)


def weapon_label(unit: Unit, index: int) -> str:
    weapon = rules.weapon(unit, index)
    return f"{weapon.name} (WK {ROMAN[weapon.wk]}, {rules.weapon_cost(unit, weapon)} AP)"


def enemies(state: MatchState, unit: Unit) -> list[Unit]:
    return [u for u in state.units if u.player != unit.player and u.in_play]


# --- Shot ----------------------------------------------------------------------------------


def _distance(unit: Unit, index: int) -> int:
    length, count = unit.card.weapons[index].bands(unit.card.ko)
    return max(0, min(DISTANCE, length * count))


def _shots(unit: Unit, index: int, mode: str) -> int:
    """All the shots of a sustained fire on the one target; one for an area weapon or an
    aimed shot."""
    weapon = unit.card.weapons[index]
    return 1 if weapon.area or mode == "aimed" else 1 + weapon.df


def _shot(unit: Unit, index: int, mode: str, target: int) -> dict[str, Any]:
    """The shot the form sends with ``index``, ``mode`` and ``target`` and its other fields as
    they stand."""
    row = {
        "unit": target,
        "distance": _distance(unit, index),
        "cover": "none",
        "shots": _shots(unit, index, mode),
    }
    return {"unit": unit.id, "weapon": index, "mode": mode, "targets": [row]}


def _any_mode(unit: Unit, index: int, target: int) -> list[dict[str, Any]]:
    return [_shot(unit, index, mode, target) for mode in MODES]


def shot_form(
    state: MatchState, unit: Unit, params: Mapping[str, str], offers: Offers
) -> ShotForm | None:
    weapons = [i for i, w in enumerate(unit.card.weapons) if not w.melee]
    targets = [u.id for u in enemies(state, unit)]
    if not weapons or not targets:
        return None
    variants = [shot for w in weapons for t in targets for shot in _any_mode(unit, w, t)]
    default = first_accepted(offers, "shoot", variants)
    weapon, mode = default["weapon"], default["mode"]
    target = default["targets"][0]["unit"]
    form = {key: value for key, value in default.items() if key != "unit"}
    button = offers.command("shoot", _("Fire"), args={"unit": unit.id}, form=form)
    most_df = max(unit.card.weapons[w].df for w in weapons)
    asked = button.enabled
    shot = ShotForm(
        button=button,
        weapons=tuple(
            choice(
                offers, "shoot", w, weapon_label(unit, w), _any_mode(unit, w, target), asked=asked
            )
            for w in weapons
        ),
        targets=tuple(
            choice(
                offers, "shoot", t, state.units[t].name, [_shot(unit, weapon, mode, t)], asked=asked
            )
            for t in targets
        ),
        rows=tuple(range(min(MOST_TARGETS, 1 + most_df))),
        weapon=weapon,
        mode=mode,
        target=target,
        distance=default["targets"][0]["distance"],
        shots=default["targets"][0]["shots"],
        rerolls=reroll_fields(weapon_effects(unit, weapons), enemies(state, unit)),
    )
    filled = _as_filled(unit, unit_form(params, "shoot", unit), shot, weapons, targets)
    return _with_shot_preview(state, unit, params, filled, targets)


def _as_filled(
    unit: Unit, form: Mapping[str, str], shot: ShotForm, weapons: list[int], targets: list[int]
) -> ShotForm:
    """The form as the player filled it in (after a refusal the page shows it again): weapon,
    kind of shot, target and distance kept; a lone target gets every shot the weapon and kind
    of shot need, so a sustained fire is never sent with too few."""
    if not form:
        return shot
    weapon = read_int(form, "args.weapon:int", shot.weapon, -1, 20)
    weapon = weapon if weapon in weapons else shot.weapon
    mode = read_choice(form, "args.mode", MODES, shot.mode)
    target = read_int(form, "args.targets.0.unit:int", shot.target, -1, 999)
    lone = not any(read_flag(form, f"args.targets.{i}._on:bool") for i in range(1, MOST_TARGETS))
    return replace(
        shot,
        weapon=weapon,
        mode=mode,
        target=target if target in targets else shot.target,
        distance=read_int(form, "args.targets.0.distance:int", shot.distance, 0, 500),
        shots=_shots(unit, weapon, mode)
        if lone
        else read_int(form, "args.targets.0.shots:int", shot.shots, 1, 5),
    )


def _with_shot_preview(
    state: MatchState, unit: Unit, params: Mapping[str, str], shot: ShotForm, targets: list[int]
) -> ShotForm:
    """The shot's odds: each ticked target row (the first always) with its place among the
    shot's targets and its shots, as the engine will roll them."""
    form = unit_form(params, "shoot", unit)
    weapon = read_int(form, "args.weapon:int", shot.weapon, -1, 20)
    mode = read_choice(form, "args.mode", ("normal", "aimed", "snap"), shot.mode)
    indirect = read_flag(form, "args.indirect:bool")
    rows = [0] + [
        i for i in range(1, MOST_TARGETS) if read_flag(form, f"args.targets.{i}._on:bool")
    ]
    lines: list[Text] = []
    for number, row in enumerate(rows):
        key = f"args.targets.{row}."
        chosen = read_int(form, key + "unit:int", shot.target if row == 0 else -1, -1, 999)
        target = read_unit(state, chosen, targets)
        assert target is not None
        odds = shot_odds(
            state,
            unit,
            weapon,
            target,
            mode=mode,
            distance=read_int(form, key + "distance:int", shot.distance, 0, 500),
            cover=read_choice(form, key + "cover", rules.COVERS, "none"),
            touching=read_flag(form, key + "touching:bool"),
            number=number,
            count=read_int(form, key + "shots:int", shot.shots if row == 0 else 1, 1, 5),
            indirect=indirect,
            friend_sees=read_flag(form, "args.friend_sees:bool"),
            rerolls=read_rerolls(form),
        )
        if len(rows) > 1:
            lines.append(Text("%(name)s", {"name": target.name}))
        lines += refused(odds) if isinstance(odds, str) else shot_lines(odds)
    return replace(shot, preview=tuple(lines))


# --- Melee ---------------------------------------------------------------------------------


def melee_weapons(unit: Unit) -> list[int]:
    """The melee weapons of the card, and unarmed (-1) but for a telematon, which has no
    unarmed attack."""
    unarmed = [] if unit.telematon else [-1]
    return [i for i, w in enumerate(unit.card.weapons) if w.melee] + unarmed


# The friends touching either side (15.7.2), as a melee attack's form asks for them.
MELEE_NUMBERS: Final = (
    NumberInput("args.friends:int", _("Other friends touching it"), 0, 0, 8),
    NumberInput("args.enemy_friends:int", _("Its friends touching this model"), 0, 0, 8),
)


def touch_powers(unit: Unit) -> tuple[Option, ...]:
    return tuple(
        Option(i, p.name) for i, p in enumerate(unit.powers) if p.range is PowerRange.TOUCH
    )


def _melee(
    unit: Unit, weapon: int, target: int, *, charge: bool, touch: Sequence[Option]
) -> dict[str, Any]:
    """The attack the form sends with ``weapon``, ``target`` and ``charge``, its other fields
    as they stand (no friends, a hit if it wins)."""
    args: dict[str, Any] = {
        "unit": unit.id,
        "friends": 0,
        "enemy_friends": 0,
        "target": target,
        "weapon": weapon,
        "on_win": "hit",
    }
    if touch:
        args["power"] = touch[0].value
    if charge:
        args["charge"] = True
    return args


def melee_form(
    state: MatchState, unit: Unit, params: Mapping[str, str], offers: Offers
) -> MeleeForm | None:
    targets = [u.id for u in enemies(state, unit)]
    weapons = melee_weapons(unit)
    if not targets or not weapons:
        return None
    touch = touch_powers(unit)
    charges = (False, True)
    variants = [
        _melee(unit, w, t, charge=c, touch=touch) for w in weapons for t in targets for c in charges
    ]
    default = first_accepted(offers, "melee", variants)
    weapon, target, charge = default["weapon"], default["target"], bool(default.get("charge"))
    numbers = MELEE_NUMBERS
    form = {
        key: value
        for key, value in default.items()
        if key not in ("unit", "friends", "enemy_friends")
    }
    button = offers.command("melee", _("Attack"), args={"unit": unit.id}, form=form, inputs=numbers)
    asked = button.enabled
    melee = MeleeForm(
        button=button,
        targets=tuple(
            choice(
                offers,
                "melee",
                t,
                state.units[t].name,
                [_melee(unit, weapon, t, charge=c, touch=touch) for c in charges],
                asked=asked,
            )
            for t in targets
        ),
        weapons=tuple(
            choice(
                offers,
                "melee",
                w,
                weapon_label(unit, w),
                [_melee(unit, w, target, charge=c, touch=touch) for c in charges],
                asked=asked,
            )
            for w in weapons
        ),
        touch_powers=touch,
        target=target,
        weapon=weapon,
        charge=charge,
        rerolls=reroll_fields(weapon_effects(unit, weapons), enemies(state, unit)),
    )
    return replace(melee, preview=_melee_preview(state, unit, params, melee, targets))


def _melee_preview(
    state: MatchState, unit: Unit, params: Mapping[str, str], melee: MeleeForm, targets: list[int]
) -> tuple[Text, ...]:
    """The attack's odds with the form's target, weapon, friends and bonuses."""
    form = unit_form(params, "melee", unit)
    chosen = read_unit(state, read_int(form, "args.target:int", melee.target, -1, 999), targets)
    assert chosen is not None
    odds = melee_odds(
        state,
        unit,
        chosen,
        read_int(form, "args.weapon:int", melee.weapon, -1, 20),
        friends=read_int(form, "args.friends:int", 0, 0, 8),
        enemy_friends=read_int(form, "args.enemy_friends:int", 0, 0, 8),
        charge=read_flag(form, "args.charge:bool", melee.charge),
        reckless=read_flag(form, "args.reckless:bool"),
        rerolls=read_rerolls(form),
    )
    return refused(odds) if isinstance(odds, str) else melee_lines(odds)
