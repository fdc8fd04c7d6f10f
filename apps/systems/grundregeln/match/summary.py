"""The post-game summary of a Grundregeln match (``core.summary``), read from the events.

- **Points**: the VP each player scored, by round (the state's VP entries carry their round).
- **Damage and knock-outs**: an attack's LP lost (``attacked.lost``) count as taken by the
  target and dealt by the attacker; a fall (no attacker) as taken only. A model removed as a
  casualty counts as knocked out by the last model whose attack took LP from it (none when a
  fall took the last LP).
- **Luck**: every attack records the exact expected LP loss of its whole roll (hit, damage
  and defence dice, rerolls of ones included) before the dice fall (``odds`` "expected");
  the attacker's player is compared on the LP the attack actually took. Every morale test
  records its exact P(pass); the testing model's player is compared on the tests passed.
  Events without odds are left out of the luck lines.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import Event
from apps.systems.core.summary import Summary, Tally, odds_value
from apps.systems.grundregeln.match.state import MatchState, Phase

ATTACK_LUCK = _("LP taken by attacks")
MORALE_LUCK = _("Morale tests passed")
NOTES = (_("Luck: the observed result against the sum of the exact odds each roll had before it."),)


def _odds(data: Mapping[str, Any], name: str) -> Any:
    """One named value of an event's ``odds`` list (``[["expected", "7/4"], ...]``)."""
    return next((value for key, value in data.get("odds") or () if key == name), None)


def summary(events: Sequence[Event], state: MatchState) -> Summary:
    """The summary of the match so far: ``events`` are the effective events (no undone
    command), ``state`` the state they fold to."""
    tally = Tally((ATTACK_LUCK, MORALE_LUCK))
    sides = {m.id: m.side for m in state.models}
    last_hit_by: dict[int, int | None] = {}
    for event in events:
        data = event.data
        if event.type == "attacked":
            attacker, lost = data.get("attacker"), data.get("lost", 0)
            tally.damage(data["target"], lost, attacker)
            if lost > 0:
                last_hit_by[data["target"]] = attacker
            expected = odds_value(_odds(data, "expected"))
            if attacker is not None and expected is not None:
                tally.luck(sides.get(attacker), ATTACK_LUCK, lost, expected)
        elif event.type == "morale_tested":
            chance = odds_value(_odds(data, "pass"))
            if chance is not None:
                tally.luck(sides.get(data["unit"]), MORALE_LUCK, int(bool(data["passed"])), chance)
        elif event.type == "casualties_removed":
            for unit in data.get("units", ()):
                tally.knock_out(unit, last_hit_by.get(unit))
    for player in state.players:
        for entry in player.vp:
            tally.points(player.index, entry.round, entry.points)
    return tally.summary(
        players=[p.name for p in state.players],
        models=[(m.id, m.side, m.name) for m in state.models],
        rounds=state.round,
        finished=state.phase is Phase.OVER,
        points_label=_("VP"),
        notes=NOTES,
    )
