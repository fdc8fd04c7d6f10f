"""Which games Stahlgewitter plays, and when the same faction on both sides is only a warning.

"Natürlich sollten Spieler, die gegeneinander kämpfen wollen, unterschiedlichen Fraktionen
angehören, es sei denn, sie spielen Angehörige des organisierten Verbrechens oder die Szenarien
Rebellion, Sabotage oder Verrat." The rulebook says *should*: the app never refuses such a
match, it says so on the tracker while the armies deploy (SPEC §4).
"""

from __future__ import annotations

from typing import Final

from apps.systems.core.i18n import gettext_noop
from apps.systems.stahlgewitter.match.state import MatchState

FREE: Final = "free"
# The scenarios the rulebook names in which one faction may fight itself; their rules are not
# printed, so they are played like any scenario: mission points the players enter.
SAME_FACTION_SCENARIOS: Final = ("rebellion", "sabotage", "verrat")
MODES: Final = (
    (FREE, gettext_noop("Free game (VP for enemy models taken out, agreed rounds)")),
    ("scenario", gettext_noop("Scenario (mission points entered by the players)")),
    ("rebellion", gettext_noop("Szenario Rebellion (scenario: rebellion, mission points)")),
    ("sabotage", gettext_noop("Szenario Sabotage (scenario: sabotage, mission points)")),
    ("verrat", gettext_noop("Szenario Verrat (scenario: betrayal, mission points)")),
)
# The faction whose members may meet each other in any game.
MAY_MEET_ITSELF: Final = frozenset({"organisiertes-verbrechen"})

SAME_FACTION: Final = gettext_noop(
    "Both armies are of the same faction. The rulebook wants different factions, except for "
    "organised crime (Organisiertes Verbrechen) and the scenarios Rebellion, Sabotage and "
    "Verrat; play on if you both agree."
)


def is_scenario(mode: str) -> bool:
    """A scenario is decided by the mission points the players enter, not by a free game's VP."""
    return mode != FREE


def same_faction_warning(state: MatchState) -> str | None:
    """The warning while both sides are of one faction outside the games that allow it."""
    factions = {player.faction for player in state.players}
    if len(state.players) < 2 or len(factions) != 1:
        return None
    (faction,) = factions
    if not faction or faction in MAY_MEET_ITSELF or state.mode in SAME_FACTION_SCENARIOS:
        return None
    return SAME_FACTION
