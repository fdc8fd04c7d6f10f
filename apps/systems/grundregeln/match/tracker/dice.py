"""The dice panel: the dice of the last command, each roll with its result and the exact odds it
had before it was rolled (written into its event by the engine)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Final

from apps.systems.core.distributions import chance_text
from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import TimelineLine as Text
from apps.systems.grundregeln.match.state import MatchState, RollRecord
from apps.systems.grundregeln.match.tracker.labels import ODDS_LABELS, ROLL_TITLES
from apps.systems.grundregeln.match.tracker.models import DieView, RollView


def ratio(text: str) -> Fraction:
    numerator, _sep, denominator = text.partition("/")
    return Fraction(int(numerator), int(denominator or 1))


def _hits(record: RollRecord) -> Text:
    return Text(_("hits: %(n)s (%(need)s+)"), {"n": record.result, "need": record.need or 0})


def _distance(record: RollRecord) -> Text:
    return Text(_('%(n)s"'), {"n": record.result})


def _free(record: RollRecord) -> Text:
    if record.need:
        return Text(_("dice of %(need)s+: %(n)s"), {"n": record.result, "need": record.need})
    return Text(_("total %(n)s"), {"n": record.result})


RESULTS: Final[Mapping[str, Callable[[RollRecord], Text]]] = {
    "morale": lambda r: Text(
        _("dice of 4+: %(n)s, needed: %(lost)s"), {"n": r.result, "lost": r.label}
    ),
    "hit": _hits,
    "fall": _hits,
    "damage": lambda r: Text(
        _("damage: %(n)s (%(need)s+), cancelled: %(c)s"),
        {"n": r.result, "need": r.need or 0, "c": len(r.cancelled)},
    ),
    "defence": lambda r: Text(_("damage dice cancelled: %(n)s"), {"n": r.result}),
    "flight": _distance,
    "move": _distance,
    "push": _distance,
}


def _odds_text(code: str, value: str) -> str:
    exact = ratio(value)
    return f"{float(exact):.2f}" if code == "expected" else chance_text(exact)


def _dice(record: RollRecord) -> tuple[DieView, ...]:
    count = len(record.dice)
    return tuple(
        DieView(
            value=value,
            success=None if record.need is None else value >= record.need,
            extra=position >= count,
            rerolled=position in record.rerolled,
            cancelled=position in record.cancelled,
        )
        for position, value in enumerate((*record.dice, *record.extra))
    )


def _names(state: MatchState, record: RollRecord) -> dict[str, str | int]:
    return {
        "unit": state.models[record.unit].name if record.unit is not None else "",
        "other": state.models[record.other].name if record.other is not None else "",
        "player": state.players[record.player].name if record.player is not None else "",
        "label": record.label,
    }


def roll_view(state: MatchState, record: RollRecord) -> RollView:
    odds_lines = tuple(
        Text(ODDS_LABELS[code], {"p": _odds_text(code, value)})
        for code, value in record.odds
        if code in ODDS_LABELS
    )
    template = ROLL_TITLES.get(record.kind, ROLL_TITLES["free"])
    result = RESULTS.get(record.kind, _free)(record)
    return RollView(Text(template, _names(state, record)), _dice(record), result, odds_lines)


def roll_views(state: MatchState) -> tuple[RollView, ...]:
    return tuple(roll_view(state, record) for record in state.rolls)
