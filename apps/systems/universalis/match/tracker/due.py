"""What waits before the table goes on: a burning model's fire test, the panic tests of the
friends of a model that fell, an area weapon's hits, and the end of the initiative phase with
the panic retests of its models."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from apps.systems.core.buttons import Button, NumberInput, Offers
from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import TimelineLine as Text
from apps.systems.universalis.match import rules
from apps.systems.universalis.match.order import phase_group
from apps.systems.universalis.match.preview import chance_line
from apps.systems.universalis.match.state import MatchState, Phase, Unit
from apps.systems.universalis.match.tracker.forms import choice, read_int
from apps.systems.universalis.match.tracker.models import (
    AreaForm,
    BurningTest,
    PanicTest,
    RerollField,
)
from apps.systems.universalis.match.tracker.rerolls import reroll_fields
from apps.systems.universalis.match.tracker.units import unit_view
from apps.systems.universalis.match.values import attribute_value, panic_modifier

# The panic test's modifiers as its form asks for them (11.4): field, label, most.
PANIC_FIELDS: Final = (
    ("enemies", _("Enemies (−1 each)"), 20),
    ("friends", _("Friends (+1 each)"), 20),
    ("friends_in_contact", _("Friends in base contact (+3 each)"), 8),
    ("other_eliminated", _("Other eliminated friends (−2 each)"), 20),
)
MOST_RETESTS: Final = 6


def blocked(state: MatchState) -> bool:
    """A test or the area's hits wait: nothing else is shown until they are made."""
    return bool(state.panic_due or state.area or state.burning_due)


def burning_tests(
    state: MatchState, selected: int | None, offers: Offers
) -> tuple[BurningTest, ...]:
    return tuple(
        BurningTest(
            unit_view(state, state.units[uid], selected),
            offers.command(
                "burning_test",
                _("Test the fire of %(name)s"),
                params={"name": state.units[uid].name},
                args={"unit": uid},
                inputs=(NumberInput("args.helpers:int", _("Friends in base contact"), 0, 0, 8),),
            ),
            _burning_rerolls(state.units[uid]),
        )
        for uid in state.burning_due
    )


def _burning_rerolls(unit: Unit) -> tuple[RerollField, ...]:
    """A burning model's fire hits it with the igniting weapon's profile (11.1)."""
    burn = unit.burning
    return reroll_fields(burn.effects if burn is not None else (), (unit,))


def _panic_preview(
    state: MatchState, unit: Unit, form: Mapping[str, str], prefix: str, *, retest: bool
) -> tuple[Text, ...]:
    """The panic test's chance with the modifiers of its form: −3 for the friend that fell
    (``panic_test``), none for the retest at the phase's end."""
    modifier = panic_modifier(
        just_eliminated=not retest,
        **{
            name: read_int(form, prefix + f"{name}:int", 0, 0, most)
            for name, _l, most in PANIC_FIELDS
        },
    )
    return (chance_line(attribute_value(state, unit, "eh", modifier)),)


def panic_tests(
    state: MatchState, selected: int | None, params: Mapping[str, str], offers: Offers
) -> tuple[PanicTest, ...]:
    tests = []
    for due in state.panic_due:
        unit = state.units[due.unit]
        asked = params.get("command") == "panic_test" and params.get("args.unit:int") == str(
            unit.id
        )
        inputs = tuple(
            NumberInput(f"args.{name}:int", label, 0, 0, most) for name, label, most in PANIC_FIELDS
        )
        tests.append(
            PanicTest(
                unit=unit_view(state, unit, selected),
                button=offers.command(
                    "panic_test", _("Panic test (EH)"), args={"unit": unit.id}, inputs=inputs
                ),
                preview=_panic_preview(state, unit, params if asked else {}, "args.", retest=False),
                skip=offers.command(
                    "skip_panic_test", _("It does not perceive it"), args={"unit": unit.id}
                ),
            )
        )
    return tuple(tests)


def _retest_row(unit: Unit) -> dict[str, int]:
    """A retest row of the end-phase form as it stands: ticked, every modifier 0."""
    return {"unit": unit.id, **{name: 0 for name, _l, _m in PANIC_FIELDS}}


def _retest_form(params: Mapping[str, str], unit: Unit) -> tuple[Mapping[str, str], str]:
    """The fields of ``unit``'s retest row when the page asks the end-phase form's preview."""
    if params.get("command") == "end_phase":
        for row in range(MOST_RETESTS):
            if params.get(f"args.panic_retests.{row}.unit:int") == str(unit.id):
                return params, f"args.panic_retests.{row}."
    return {}, "args."


def end_phase(
    state: MatchState, selected: int | None, params: Mapping[str, str], offers: Offers
) -> tuple[Button | None, tuple[PanicTest, ...]]:
    """Ending the running initiative phase, and the panic retests it may carry (11.4.1): each
    panicking model of the phase the engine lets retest, ticked by default."""
    if state.phase is not Phase.ACTING or state.active is None or blocked(state):
        return None, ()
    args = {"unit": state.active}
    retests = []
    for unit in phase_group(state, state.active):
        if not unit.panic:
            continue
        button = offers.command(
            "end_phase",
            _("End the initiative phase (with the panic retests ticked)"),
            args=args,
            form={"panic_retests": [_retest_row(unit)]},
        )
        if button.enabled:
            fields, prefix = _retest_form(params, unit)
            preview = _panic_preview(state, unit, fields, prefix, retest=True)
            retests.append(PanicTest(unit_view(state, unit, selected), button, preview))
    rows = [_retest_row(state.units[t.unit.id]) for t in retests]
    label = (
        _("End the initiative phase (with the panic retests ticked)")
        if rows
        else _("End the initiative phase")
    )
    form = {"panic_retests": rows} if rows else None
    return offers.command("end_phase", label, args=args, form=form), tuple(retests)


def area_form(state: MatchState, offers: Offers) -> AreaForm | None:
    """An area weapon's shot waits: a row per model in play to tick if the area covers it
    (none ticked: it hit nobody)."""
    if state.area is None:
        return None
    button = offers.command("area_hits", _("Resolve the hits"), form={"hits": []})
    rows = tuple(
        choice(
            offers, "area_hits", u.id, u.name, ({"hits": [{"unit": u.id}]},), asked=button.enabled
        )
        for u in state.units
        if u.in_play
    )
    weapon = rules.weapon(state.units[state.area.unit], state.area.weapon)
    return AreaForm(
        button, rows, reroll_fields(weapon.effects, (u for u in state.units if u.in_play))
    )
