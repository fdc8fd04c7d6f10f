"""The post-game summary of a Universalis match (``core.summary``), read from the events.

- **Points**: Universalis scores no VP; the points are those a league reads
  (``engine.result``): the points values of the enemy models taken out (eliminated or fled),
  counted in the round they went out.
- **Damage and knock-outs**: hit points lost to a wound (``hp_lost`` and ``zone_damaged``)
  count as taken by the model hit and as dealt by the model whose shot or melee attack was last
  resolved; fire, automatic hits, falls, poison and powers count as taken only. An elimination
  by a wound counts as a knock-out for that model.
- **Luck**: every attribute and comparative roll records its exact odds before the dice fall
  (``roll.odds``). A shot is compared on whether it hit (P(hit) of the FK roll); a wound
  against armour on whether it did damage (the odds of the outcome after every reroll the
  effects allow, as the event records them). Melee fights are left out: a tie is rolled again
  on other values, whose odds the event holds only when a tie happened.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import Event
from apps.systems.core.summary import Summary, Tally, odds_value
from apps.systems.universalis.match.state import MatchState, Phase

SHOT_LUCK = _("Shots that hit")
WOUND_LUCK = _("Wounds through armour")
NOTES = (_("Luck: the observed result against the sum of the exact odds each roll had before it."),)
# Events after which no model of the last attack wounds: the next wound has no attacker.
_NO_ATTACKER = frozenset({"burning_tested", "auto_hit", "fell", "round_started"})


class _Walk:
    def __init__(self, tally: Tally, state: MatchState) -> None:
        self.tally = tally
        self.players = {u.id: u.player for u in state.units}
        self.everyone = {p.index for p in state.players}
        self.points = {u.id: u.card.points for u in state.units}
        self.out: set[int] = set()
        self.round = 0
        self.attacker: int | None = None

    def read(self, event: Event) -> None:
        data = event.data
        if event.type in _NO_ATTACKER:
            self.attacker = None
        if event.type == "round_started":
            self.round = data.get("round", self.round)
        elif event.type in ("shot", "area_pending", "melee_fought"):
            self.attacker = data["unit"]
            if event.type == "shot":
                self._luck(SHOT_LUCK, data.get("roll"), bool(data.get("hit")))
        elif event.type == "wound_rolled":
            rolls = data.get("rolls") or [None]
            self._luck(WOUND_LUCK, rolls[0], data["wound"] > data["armour"])
        elif event.type in ("hp_lost", "zone_damaged"):
            wound = event.type == "zone_damaged" or data.get("cause") == "wound"
            self.tally.damage(data["unit"], data["amount"], self.attacker if wound else None)
        elif event.type == "eliminated":
            by_wound = data.get("cause") == "wound"
            self.tally.knock_out(data["unit"], self.attacker if by_wound else None)
        self._went_out((data.get("patch") or {}).get("units"))

    def _luck(self, label: str, roll: Mapping[str, Any] | None, success: bool) -> None:
        chance = odds_value((roll or {}).get("odds"))
        if chance is not None and self.attacker is not None:
            self.tally.luck(self.players.get(self.attacker), label, int(success), chance)

    def _went_out(self, units: Mapping[Any, Any] | None) -> None:
        """A model eliminated or fled (the event's patch says so): its points go to every
        other player."""
        for key, fields in (units or {}).items():
            unit = int(key)
            if unit in self.out or not (fields.get("eliminated") or fields.get("fled")):
                continue
            self.out.add(unit)
            for player in sorted(self.everyone - {self.players.get(unit)}):
                self.tally.points(player, self.round, self.points.get(unit, 0))


def summary(events: Sequence[Event], state: MatchState) -> Summary:
    """The summary of the match so far: ``events`` are the effective events (no undone
    command), ``state`` the state they fold to."""
    tally = Tally((SHOT_LUCK, WOUND_LUCK))
    walk = _Walk(tally, state)
    for event in events:
        walk.read(event)
    return tally.summary(
        players=[p.name for p in state.players],
        models=[(u.id, u.player, u.name) for u in state.units],
        rounds=state.round,
        finished=state.phase is Phase.OVER,
        points_label=_("Points of enemy models taken out"),
        notes=NOTES,
    )
