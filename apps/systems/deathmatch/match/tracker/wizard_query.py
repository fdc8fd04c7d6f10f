"""The attack wizard's state as the page's query string carries it: the kind of attack, the
weapon, the reacting model, the modifiers as toggles and the models ticked as in the way."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any, Final

from apps.systems.deathmatch.match import combat
from apps.systems.deathmatch.match.tracker.models import WizardInput

KINDS: Final = ("ranged", "melee", "charge", "react_ranged", "react_melee", "disengage")
FLAGS: Final = tuple(f.name for f in fields(combat.Situation) if f.name != "cover")
IN_THE_WAY: Final = "in_the_way_"


def _number(params: Mapping[str, Any], key: str) -> int | None:
    # ASCII digits only, and few: str.isdigit also passes "²" and 5000 digits, which int refuses.
    value = str(params.get(key, ""))
    return int(value) if value.isascii() and value.isdigit() and len(value) <= 9 else None


def _flag(params: Mapping[str, Any], key: str) -> bool:
    return str(params.get(key, "")) in ("1", "true", "on")


def _in_the_way(params: Mapping[str, Any]) -> frozenset[int]:
    ticked = set()
    for key in params:
        number = _number({"n": str(key).removeprefix(IN_THE_WAY)}, "n")
        if str(key).startswith(IN_THE_WAY) and number is not None and _flag(params, str(key)):
            ticked.add(number)
    return frozenset(ticked)


def wizard_input(params: Mapping[str, Any]) -> WizardInput | None:
    """The wizard's state from the page's query string (strings; anything odd is ignored)."""
    kind = str(params.get("wizard", ""))
    if kind not in KINDS:
        return None
    cover = str(params.get("cover", "none"))
    situation = combat.Situation(
        cover=cover if cover in ("none", "cover", "hard") else "none",
        **{flag: _flag(params, flag) for flag in FLAGS},
    )
    return WizardInput(
        kind=kind,
        weapon=_number(params, "weapon") or 0,
        reactor=_number(params, "reactor"),
        in_the_way=_in_the_way(params),
        situation=situation,
    )


def situation_args(situation: combat.Situation) -> dict[str, Any]:
    """The situation as the wizard's form sends it for a target (only the ticked toggles)."""
    return {"cover": situation.cover, **{f: True for f in FLAGS if getattr(situation, f)}}
