"""The post-game summary of a Deathmatch match (``core.summary``), read from the events.

- **Points**: the VP each player scored, by the round they were scored in (the state's VP
  entries carry their round).
- **Damage and knock-outs**: a wound flip's damage (``wounded``) counts as taken by the model
  hit and as dealt by the attacking model of the attack in progress; damage with no attacker
  (fire, poison, a fall) counts as taken only. The damage is the wound's, not capped at the LP
  the model had left. A knock-out counts for the model the event names (``by``).
- **Luck**: every hit flip records, before the cards are drawn, each target's exact P(hit)
  from the flipping player's deck (``hit_flipped.odds``); the observed hits are the targets
  whose final outcome is a hit (a 9 spent on an automatic hit counts, as the odds count it).
  Every wound flip records its exact expected damage (``wound_flipped.odds.expected``); the
  observed damage is what the ``wounded`` event dealt. Rerolls are part of the observed
  result, not of the expectation (the odds are those of the first flip). Flips logged before
  the odds were recorded (schema version 1) are left out of the luck lines.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import Event
from apps.systems.core.summary import Summary, Tally, odds_value
from apps.systems.deathmatch.match.state import MatchState, Phase

HIT_LUCK = _("Hits from hit flips")
WOUND_LUCK = _("Damage from wound flips")
NOTES = (
    _("Luck: the observed result against the sum of the exact odds each flip had before it."),
    _("Damage is counted as the wound flips dealt it, even beyond the LP a model had left."),
)


class _Walk:
    """The attack in progress while the events are read in order."""

    def __init__(self, tally: Tally) -> None:
        self.tally = tally
        self.attacker: int | None = None
        self.player: int | None = None
        self.hit_odds: dict[int, Fraction] = {}
        self.expected: dict[int, Fraction] = {}

    def read(self, event: Event) -> None:
        reader = _READERS.get(event.type)
        if reader is not None:
            reader(self, event.data)

    def declared(self, data: Mapping[str, Any]) -> None:
        attack = data.get("attack") or {}
        self.attacker = attack.get("attacker")
        self.player = attack.get("player")
        self.hit_odds, self.expected = {}, {}

    def hit_flipped(self, data: Mapping[str, Any]) -> None:
        self.hit_odds = {}
        for row in data.get("odds") or ():
            chance = odds_value(row.get("hit"))
            if chance is not None:
                self.hit_odds[row["unit"]] = chance

    def hit_resolved(self, data: Mapping[str, Any]) -> None:
        for result in data.get("targets") or ():
            chance = self.hit_odds.get(result.get("unit"))
            if result.get("automatic") or chance is None:
                continue
            self.tally.luck(self.player, HIT_LUCK, int(result["outcome"] == "hit"), chance)

    def wound_flipped(self, data: Mapping[str, Any]) -> None:
        expected = odds_value((data.get("odds") or {}).get("expected"))
        if expected is not None:
            self.expected[data["target"]] = expected

    def wounded(self, data: Mapping[str, Any]) -> None:
        self.tally.damage(data["unit"], data["damage"], self.attacker)
        expected = self.expected.pop(data.get("target", -1), None)
        if expected is not None:
            self.tally.luck(self.player, WOUND_LUCK, data["damage"], expected)

    def lp_lost(self, data: Mapping[str, Any]) -> None:
        self.tally.damage(data["unit"], data.get("lp", 0), None)

    def knocked_out(self, data: Mapping[str, Any]) -> None:
        self.tally.knock_out(data["unit"], data.get("by"))


_READERS = {
    "attack_declared": _Walk.declared,
    "hit_flipped": _Walk.hit_flipped,
    "hit_resolved": _Walk.hit_resolved,
    "wound_flipped": _Walk.wound_flipped,
    "wounded": _Walk.wounded,
    "lp_lost": _Walk.lp_lost,
    "poison_resolved": _Walk.lp_lost,
    "knocked_out": _Walk.knocked_out,
}


def summary(events: Sequence[Event], state: MatchState) -> Summary:
    """The summary of the match so far: ``events`` are the effective events (no undone
    command), ``state`` the state they fold to."""
    tally = Tally((HIT_LUCK, WOUND_LUCK))
    walk = _Walk(tally)
    for event in events:
        walk.read(event)
    for player in state.players:
        for entry in player.vp:
            tally.points(player.index, entry.round, entry.points)
    return tally.summary(
        players=[p.name for p in state.players],
        models=[(u.id, u.player, u.name) for u in state.units],
        rounds=state.round,
        finished=state.phase is Phase.OVER,
        points_label=_("VP"),
        notes=NOTES,
    )
