"""Same faction on both sides: only a warning, and only outside the games the rulebook allows.

"Natürlich sollten Spieler, die gegeneinander kämpfen wollen, unterschiedlichen Fraktionen
angehören, es sei denn, sie spielen Angehörige des organisierten Verbrechens oder die Szenarien
Rebellion, Sabotage oder Verrat." (stahlgewitter.de.txt, Zusammenstellung der Streitkräfte)
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from apps.systems.core.errors import RuleViolation
from apps.systems.stahlgewitter.match.factions import (
    SAME_FACTION,
    is_scenario,
    same_faction_warning,
)
from apps.systems.stahlgewitter.match.state import MatchState
from tests.systems.samples import stahlgewitter
from tests.systems.stahlgewitter.test_match_support import ENGINE, start


def _both(state: MatchState, faction: str) -> MatchState:
    return replace(state, players=tuple(replace(p, faction=faction) for p in state.players))


def test_different_factions_get_no_warning() -> None:
    assert same_faction_warning(start()) is None


def test_the_same_faction_in_a_free_game_is_a_warning_not_a_refusal() -> None:
    """ "sollten ... unterschiedlichen Fraktionen angehören": a match of one faction starts."""
    setup = stahlgewitter(0)
    setup["players"][1]["faction"] = setup["players"][0]["faction"]
    events = ENGINE.start(setup, random.Random(0))
    assert events[0].type == "match_started"
    state = _both(start(0), "sek")
    assert same_faction_warning(state) == SAME_FACTION


def test_organised_crime_may_meet_itself() -> None:
    """ "es sei denn, sie spielen Angehörige des organisierten Verbrechens" """
    assert same_faction_warning(_both(start(0), "organisiertes-verbrechen")) is None


@pytest.mark.parametrize("scenario", ["rebellion", "sabotage", "verrat"])
def test_the_three_scenarios_allow_one_faction(scenario: str) -> None:
    """ "... oder die Szenarien Rebellion, Sabotage oder Verrat." """
    state = _both(start(0, mode=scenario), "legion-666")
    assert state.mode == scenario
    assert same_faction_warning(state) is None


def test_another_scenario_still_warns() -> None:
    assert same_faction_warning(_both(start(1, mode="scenario"), "sek")) == SAME_FACTION


def test_the_named_scenarios_score_mission_points_like_any_scenario() -> None:
    assert is_scenario("rebellion") and is_scenario("scenario") and not is_scenario("free")


def test_an_unknown_mode_is_refused() -> None:
    with pytest.raises(RuleViolation) as refused:
        ENGINE.start({**stahlgewitter(0), "mode": "piraterie"}, random.Random(0))
    assert refused.value.code == "unknown_mode"
