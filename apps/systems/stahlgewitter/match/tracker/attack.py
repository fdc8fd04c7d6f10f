"""The attack wizard (``?wizard=attack&model=<id>[&weapon=<i>]``): the attacker's weapons for
this phase, then one form per enemy model of every revealed unit, with cover, prone, the
distance band the players confirm (within 5 cm, half range, full range), single shot or burst
and whether the target can retreat. Each form shows the exact letter distribution of its column
for every kind of cover before the roll."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from apps.systems.core.buttons import Button, Offers
from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import Command
from apps.systems.core.match import TimelineLine as Text
from apps.systems.stahlgewitter.combat import Cover
from apps.systems.stahlgewitter.match.attacks import column_for
from apps.systems.stahlgewitter.match.labels import COVER_LABELS
from apps.systems.stahlgewitter.match.state import MatchState, Model, Phase
from apps.systems.stahlgewitter.match.tracker.models import (
    LETTERS,
    AttackWizard,
    ModelView,
    OddsRow,
    TargetGroup,
)
from apps.systems.stahlgewitter.odds import ROW_DENOMINATOR, letter_weights
from apps.systems.stahlgewitter.tables import Letter, outcome

HIT_LETTERS = frozenset("EFGHIJ")


def usable_weapons(state: MatchState, model: Model) -> list[int]:
    melee = state.phase is Phase.MELEE
    return [
        i for i, w in enumerate(model.weapons) if (w.melee if melee else w.ranged) and not w.fault
    ]


def targets(state: MatchState, model: Model) -> list[Model]:
    return [
        m
        for u in state.units
        if u.player != model.player and u.revealed and not u.out
        for m in state.living(u.id)
    ]


def default_form(state: MatchState, model: Model, weapon: int, target: Model) -> dict[str, Any]:
    if state.phase is Phase.MELEE:
        return {"cover": "open", "cannot_retreat": False, "attacker_cannot_retreat": False}
    arm = model.weapons[weapon]
    return {
        "cover": "open",
        "prone": target.prone,
        "distance": "half",
        "mode": "burst" if arm.burst else "single",
        "cannot_retreat": False,
    }


def attack_args(model: Model, weapon: int, target: Model) -> dict[str, Any]:
    return {"attacker": model.id, "weapon": weapon, "target": target.id}


def attack_choices(state: MatchState, model: Model) -> list[Command]:
    """Every attack the wizard can send for ``model`` (each weapon at each target, its form as
    it opens): the wizard link is enabled when one of them is accepted."""
    return [
        Command("attack", {**attack_args(model, w, t), **default_form(state, model, w, t)})
        for w in usable_weapons(state, model)
        for t in targets(state, model)
    ]


def odds_rows(state: MatchState, model: Model, weapon: int, target: Model) -> tuple[OddsRow, ...]:
    """The letters' chances at the column of each kind of cover (melee: no cover), in %."""
    arm = model.weapons[weapon]
    melee = state.phase is Phase.MELEE
    covers = (Cover.OPEN,) if melee else tuple(Cover)
    rows = []
    for cover in covers:
        column, value, pw, _counted = column_for(
            model, arm, target, melee=melee, cover=cover, prone=target.prone, near=False
        )
        weights = {
            k.value: w * 100 // ROW_DENOMINATOR
            for k, w in letter_weights(column, arm.row_bonus).items()
        }
        rows.append(
            OddsRow(
                cover=COVER_LABELS[cover.value],
                column=column,
                value=value,
                pw=pw,
                hit=sum(w for letter, w in weights.items() if letter in HIT_LETTERS),
                cells=tuple(weights.get(letter, 0) for letter in LETTERS),
            )
        )
    return tuple(rows)


def assumed(state: MatchState, target: Model) -> Text:
    """What the odds assume: the form as it opens (the target standing or prone as the tracker
    knows it, more than 5 cm away); a changed form moves the column."""
    if state.phase is Phase.MELEE:
        return Text(
            _("Melee: no cover, no prone target counts for the column (5 cm plays no part).")
        )
    return Text(
        _(
            "As the form opens: the target %(stance)s, more than 5 cm away; marking it prone or "
            "within 5 cm changes the column."
        ),
        {"stance": _("lies prone") if target.prone else _("stands")},
        ("stance",),
    )


def odds_lines(state: MatchState, model: Model, weapon: int, target: Model) -> tuple[Text, ...]:
    """The letters' chances at the column of each kind of cover (melee: no cover), then what
    they assume."""
    arm = model.weapons[weapon]
    melee = state.phase is Phase.MELEE
    covers = (Cover.OPEN,) if melee else tuple(Cover)
    lines = []
    for cover in covers:
        column, value, pw, counted = column_for(
            model, arm, target, melee=melee, cover=cover, prone=target.prone, near=False
        )
        weights = letter_weights(column, arm.row_bonus)
        hit = sum(w for letter, w in weights.items() if letter.value in HIT_LETTERS)
        letters = " · ".join(
            f"{letter.value} {weight}"
            for letter, weight in weights.items()
            if letter != Letter.MISS
        )
        lines.append(
            Text(
                _(
                    "%(cover)s: column %(column)s (%(value)s − PW %(pw)s), hit %(hit)s %%: "
                    "%(letters)s %%"
                ),
                {
                    "cover": COVER_LABELS[counted.value if melee else cover.value],
                    "column": column,
                    "value": value,
                    "pw": pw,
                    "hit": hit * 100 // ROW_DENOMINATOR,
                    "letters": letters,
                },
                ("cover",),
            )
        )
    lines.append(assumed(state, target))
    return tuple(lines)


def _number(params: Mapping[str, str], key: str) -> int:
    raw = str(params.get(key, ""))
    return int(raw) if raw.isascii() and raw.isdigit() else -1


def _attacker(
    state: MatchState, params: Mapping[str, str], models: Mapping[int, ModelView]
) -> Model | None:
    """The model the wizard is open for: a living model of the active unit shown on the page."""
    if params.get("wizard") != "attack" or state.phase not in (Phase.RANGED, Phase.MELEE):
        return None
    index = _number(params, "model")
    if not 0 <= index < len(state.models) or index not in models:
        return None
    model = state.models[index]
    return model if model.unit == state.active and model.alive else None


def _choices(state: MatchState, model: Model, weapon: int, enemies: list[Model]) -> list[Command]:
    return [
        Command(
            "attack", {**attack_args(model, weapon, t), **default_form(state, model, weapon, t)}
        )
        for t in enemies
    ]


def _chosen(
    state: MatchState, model: Model, weapons: list[int], wanted: int, offers: Offers
) -> int:
    """The weapon asked for, else the first one the engine accepts an attack with."""
    if wanted in weapons:
        return wanted
    enemies = targets(state, model)
    return next(
        (
            w
            for w in weapons
            if any(
                offers.refusal(c.type, c.args) is None for c in _choices(state, model, w, enemies)
            )
        ),
        weapons[0],
    )


def _weapon_links(
    state: MatchState, model: Model, weapons: list[int], chosen: int, offers: Offers
) -> tuple[Button, ...]:
    enemies = targets(state, model)
    return tuple(
        offers.wizard(
            "attack",
            "%(weapon)s",
            params={"weapon": model.weapons[w].name},
            choices=_choices(state, model, w, enemies),
            args={"model": model.id, "weapon": w},
            style="primary" if w == chosen else "secondary",
        )
        for w in weapons
    )


def _target_groups(
    state: MatchState, model: Model, chosen: int, offers: Offers
) -> tuple[TargetGroup, ...]:
    """One group per enemy unit: a form per model with its odds."""
    groups: dict[int, list[Button]] = {}
    tables: dict[int, list[tuple[OddsRow, ...]]] = {}
    for target in targets(state, model):
        tables.setdefault(target.unit, []).append(odds_rows(state, model, chosen, target))
        groups.setdefault(target.unit, []).append(
            offers.command(
                "attack",
                "%(target)s",
                params={"target": target.name},
                args=attack_args(model, chosen, target),
                form=default_form(state, model, chosen, target),
                odds_lines=odds_lines(state, model, chosen, target),
                style="primary",
            )
        )
    return tuple(
        TargetGroup(state.units[u].name, tuple(b), tuple(tables[u])) for u, b in groups.items()
    )


def attack_wizard(
    state: MatchState, params: Mapping[str, str], offers: Offers, models: Mapping[int, ModelView]
) -> AttackWizard | None:
    model = _attacker(state, params, models)
    weapons = usable_weapons(state, model) if model is not None else []
    if model is None or not weapons:
        return None
    chosen = _chosen(state, model, weapons, _number(params, "weapon"), offers)
    return AttackWizard(
        model=models[model.id],
        melee=state.phase is Phase.MELEE,
        weapon=chosen,
        weapons=_weapon_links(state, model, weapons, chosen, offers),
        targets=_target_groups(state, model, chosen, offers),
        burst=model.weapons[chosen].burst,
        moved=model.moved,
        legend=legend(melee=state.phase is Phase.MELEE),
    )


def legend(*, melee: bool) -> tuple[tuple[str, str, str], ...]:
    """Each letter's meaning for infantry (the engine has no cavalry), in the odds table's
    order: the players read what a letter does before they roll for it."""
    rows = []
    for letter in LETTERS:
        meaning = outcome(Letter(letter), melee=melee, cavalry=False)
        rows.append((letter, meaning.text, meaning.text_de))
    return tuple(rows)
