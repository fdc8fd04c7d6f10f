"""The post-game summary of a Stahlgewitter match (``core.summary``).

- **Points**: the VP each player scored, by round (army points of enemy models taken out, a
  surrendered unit half, mission points).
- **Damage** per unit: the TP its models lost and dealt (``damaged`` names the model that
  did it); a model taken out is a knock-out for the unit that did it.
- **Luck**: every attack records its letter distribution before the dice fall, every morale
  and rally test its chance: hits (a letter from E on) against the chance of a hit, morale tests
  passed against their chance, rally tests that rallied against theirs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import Event
from apps.systems.core.summary import Summary, Tally, odds_value
from apps.systems.stahlgewitter.match.state import MatchState, Stage

HIT_LUCK = _("Attacks that hit (E to J)")
MORALE_LUCK = _("Morale tests passed")
RALLY_LUCK = _("Rally tests that rallied")
NOTES = (
    _(
        "Damage: the TP each unit's models lost and dealt; a model taken out counts as a "
        "knock-out for the unit whose model did it."
    ),
    _("VP: the army points of enemy models taken out (a surrendered unit half), mission points."),
)


def summary(events: Sequence[Event], state: MatchState) -> Summary:
    tally = Tally((HIT_LUCK, MORALE_LUCK, RALLY_LUCK))
    unit_of = {m.id: m.unit for m in state.models}
    for event in events:
        data = event.data
        if event.type == "damaged":
            _damage(tally, data, unit_of)
        elif event.type == "attacked":
            _attack_luck(tally, data)
        elif event.type == "morale_tested":
            _morale_luck(tally, data)
        elif event.type == "rally_tested":
            _rally_luck(tally, data)
    for player in state.players:
        for entry in player.vp:
            tally.points(player.index, entry.round, entry.points)
    return tally.summary(
        players=[p.name for p in state.players],
        models=[(u.id, u.player, u.name) for u in state.units],
        rounds=state.round,
        finished=state.stage is Stage.OVER,
        points_label=_("VP"),
        notes=NOTES,
    )


def _attack_luck(tally: Tally, data: Mapping[str, Any]) -> None:
    chance = odds_value(data.get("p_hit"))
    if chance is None:
        return
    hit = data["letter"] in {"E", "F", "G", "H", "I", "J"}
    tally.luck(data["player"], HIT_LUCK, int(hit), chance)


def _damage(tally: Tally, data: Mapping[str, Any], unit_of: Mapping[int, int]) -> None:
    victim = data["unit"]
    by = unit_of.get(data["by"]) if data.get("by") is not None else None
    tally.damage(victim, data["tp"], by)
    if data["left"] == 0:
        tally.knock_out(victim, by)


def _morale_luck(tally: Tally, data: Mapping[str, Any]) -> None:
    chance = odds_value(data.get("p_pass"))
    if chance is not None:
        tally.luck(data["player"], MORALE_LUCK, int(data["passed"]), chance)


def _rally_luck(tally: Tally, data: Mapping[str, Any]) -> None:
    weights = data.get("weights") or {}
    if data.get("denominator"):
        chance = Fraction(weights.get("rallied", 0), data["denominator"])
        tally.luck(data["player"], RALLY_LUCK, int(data["result"] == "rallied"), chance)
