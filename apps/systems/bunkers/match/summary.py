"""The post-game summary of a Bunkers and Badasses match (``core.summary``).

- **Points**: the VP each player scored, by battle round (the VP entries carry their round).
- **Damage taken** per unit: the wounds its reports took away (``unit_changed``); the tracker
  does not know who dealt them, so nobody deals damage and there is no MVP.
- **Luck**: every hazardous terrain roll records its exact expected wounds before the dice
  fall; the unit's player is compared on the models that came through unharmed (a model
  loses at most one wound). Roll-offs record no odds and are left out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from apps.systems.bunkers.match.state import MatchState
from apps.systems.bunkers.match.tables import Stage
from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import Event
from apps.systems.core.summary import Summary, Tally, odds_value

HAZARD_LUCK = _("Models unharmed by hazardous terrain")

NOTES = (
    _(
        "Damage taken: the wounds reported lost per unit. The players resolve combat at the "
        "table, so nobody is credited with dealing it."
    ),
)


def summary(events: Sequence[Event], state: MatchState) -> Summary:
    tally = Tally((HAZARD_LUCK,))
    wounds = {unit.id: unit.wounds_start for unit in state.units}
    for event in events:
        if event.type == "hazard_rolled":
            _hazard_luck(tally, event.data)
        if event.type != "unit_changed":
            continue
        unit = event.data["unit"]
        before, after = wounds.get(unit, 0), event.data["wounds"]
        tally.damage(unit, before - after, None)
        if after == 0 and before > 0:
            tally.knock_out(unit, None)
        wounds[unit] = after
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


def _hazard_luck(tally: Tally, data: Mapping[str, Any]) -> None:
    expected = odds_value(next((v for k, v in data.get("odds") or () if k == "expected"), None))
    if expected is None:
        return
    models = data["models"]
    tally.luck(data["player"], HAZARD_LUCK, models - data["lost"], models - expected)
