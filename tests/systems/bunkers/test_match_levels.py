"""Bunkers and Badasses: a board of one level or two (bunkers-and-badasses.de.txt, "Spiele auf
mehreren Ebenen", "Gefechtsoptionen / Schlachtfeld"), the 50:50 deployment over two levels and
the bases on the unit lines ("Schmale Türen")."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from apps.systems.bunkers.match.state import MatchState
from apps.systems.bunkers.match.tables import Phase, Stage
from apps.systems.bunkers.match.tracker.page import TrackerView
from apps.systems.bunkers.match.tracker.sides import base_view
from apps.systems.core.buttons import Button
from apps.systems.core.errors import RuleViolation
from apps.systems.core.match import Command, replay
from tests.systems.bunkers.test_match_support import (
    ENGINE,
    Dice,
    code,
    run,
    start,
    to_battle,
    to_phase,
)
from tests.systems.samples import bunkers


def _deploying(levels: int) -> MatchState:
    """Deployment has begun: Ben (1) deploys first, then Anna (0)."""
    state, _ = run(start(levels=levels), "roll_off", Dice(6, 1))
    state, _ = run(state, "choose_zones", player=0, side="attacker")
    state, _ = run(state, "roll_off", Dice(2, 5))
    assert state.stage is Stage.DEPLOY and state.deployer == 1
    return state


def _view(state: MatchState) -> TrackerView:
    view = ENGINE.tracker(state, selected=None, params={})
    assert isinstance(view, TrackerView)
    return view


def _unit_buttons(state: MatchState, unit: int) -> list[Button]:
    return [b for side in _view(state).sides for u in side.units if u.id == unit for b in u.buttons]


def _render(state: MatchState) -> str:
    class _Match:
        pk = 1
        seq = 1

    # English whatever language an earlier test left active: the assertions read English.
    with translation.override("en"):
        return render_to_string(
            "matches/bunkers/_board.html",
            {"view": _view(state), "match": _Match(), "readonly": False, "urls": {}},
        )


def test_the_board_has_one_level_unless_the_players_choose_two() -> None:
    """ "Die Platte kann dabei in zwei Ebenen aufgeteilt werden." — may, so one level is the
    default; a match started without the setting has one."""
    setup = {
        "mode": "erobern-und-sichern",
        "players": [
            {"name": "Anna", "units": [{"name": "A"}]},
            {"name": "Ben", "units": [{"name": "B"}]},
        ],
    }
    events = ENGINE.start(setup, Dice())
    assert events[0].data["levels"] == 1
    assert start(levels=1).levels == 1 and start(levels=2).levels == 2
    with pytest.raises(RuleViolation) as refused:
        ENGINE.start({**setup, "levels": 3}, Dice())
    assert refused.value.code == "invalid_args"


def test_one_level_deploys_on_the_board_or_into_reserve() -> None:
    """ "Wenn ihr auf mehreren Etagen spielen wollt, wählt den entsprechenden Spielplan für
    mehrere Ebenen." — without that choice there is no upper or lower level."""
    state = _deploying(levels=1)
    buttons = _unit_buttons(state, 4)
    assert [(b.sends.args["place"] if b.sends else "") for b in buttons] == ["board", "reserve"]
    assert all(b.enabled for b in buttons)
    assert code(state, "deploy", unit=4, place="upper") == "one_level"
    assert code(state, "deploy", unit=4, place="lower") == "one_level"
    state, _ = run(state, "deploy", unit=4, place="board")
    assert state.units[4].place == "board" and state.units[4].on_table
    html = _render(state)
    assert "upper 0 · lower 0" not in html and "on the board 1 · reserve 0" in html


def test_two_levels_deploy_on_the_upper_or_lower_level() -> None:
    state = _deploying(levels=2)
    buttons = _unit_buttons(state, 4)
    sent = [b.sends.args["place"] if b.sends else "" for b in buttons]
    assert sent == ["upper", "lower", "reserve"]
    assert code(state, "deploy", unit=4, place="board") == "choose_level"
    html = _render(state)
    assert "upper 0 · lower 0 · reserve 0" in html


def test_one_level_offers_no_level_change() -> None:
    """Ladders and elevators connect the levels ("untereinander über Leitern und Aufzüge zu
    erreichen"): one level has none, and "Eile ist geboten" changes nothing there."""
    state = to_phase(to_battle(start(levels=1)), Phase.MOVEMENT, player=0)
    assert state.units[0].place == "board"
    commands = {b.command for b in _unit_buttons(state, 0)}
    assert "change_level" not in commands and "hazard_roll" in commands
    assert code(state, "change_level", unit=0) == "one_level"
    lines = {line.key for options in _view(state).options for line in options.lines}
    assert "eile-ist-geboten" not in lines and "barrikaden" in lines
    assert code(state, "buy_option", player=0, option="eile-ist-geboten", unit=0) == "one_level"


def test_one_level_reserves_arrive_on_the_board() -> None:
    state = _deploying(levels=1)
    for unit, place in ((4, "reserve"), (2, "reserve")):
        state, _ = run(state, "deploy", unit=unit, place=place)
    while state.stage is Stage.DEPLOY:
        unit = next(u for u in state.units if u.place == "" and u.player == state.deployer)
        state, _ = run(state, "deploy", unit=unit.id, place="board")
    state, _ = run(state, "roll_off", Dice(5, 2))
    state = to_phase(state, Phase.MOVEMENT, player=0)
    arrive = [b for b in _unit_buttons(state, 2) if b.command == "arrive"]
    assert arrive and all(b.sends and b.sends.args["place"] == "board" for b in arrive)
    assert code(state, "arrive", unit=2, place="lower") == "one_level"
    assert 'name="args.place" value="board"' in _render(state)
    state, _ = run(state, "arrive", unit=2)
    assert state.units[2].place == "board" and state.units[2].on_table


def test_an_odd_last_unit_goes_where_its_player_chooses() -> None:
    """ "Bei einer ungeraden Anzahl an Einheiten, entscheidet der aufstellende Spieler, wo er
    die letzte Einheit aufstellt." — Ben's third unit may go up or down."""
    state = _deploying(levels=2)
    state, _ = run(state, "deploy", unit=4, place="upper")
    state, _ = run(state, "deploy", unit=0, place="upper")
    state, _ = run(state, "deploy", unit=5, place="lower")
    state, _ = run(state, "deploy", unit=1, place="lower")
    for place in ("upper", "lower"):
        after, _ = run(state, "deploy", unit=6, place=place)
        assert after.units[6].place == place


def test_deployment_on_two_levels_is_split_50_50() -> None:
    """ "Bei Spielen auf mehreren Ebenen, müssen die Spieler ihre Einheiten während der
    Aufstellung, 50:50 auf beide Ebenen aufteilen. Bei einer ungeraden Anzahl an Einheiten,
    entscheidet der aufstellende Spieler, wo er die letzte Einheit aufstellt." — a deployment
    after which the levels could no longer end at most one unit apart is refused."""
    state = _deploying(levels=2)
    state, _ = run(state, "deploy", unit=4, place="upper")  # Ben: 1-0, 2 left
    state, _ = run(state, "deploy", unit=0, place="upper")  # Anna: 1-0, 3 left
    state, _ = run(state, "deploy", unit=5, place="upper")  # Ben: 2-0, 1 left
    state, _ = run(state, "deploy", unit=1, place="upper")  # Anna: 2-0, 2 left
    assert code(state, "deploy", unit=6, place="upper") == "levels_unbalanced"
    state, _ = run(state, "deploy", unit=6, place="lower")  # Ben: 2-1, his odd one
    assert code(state, "deploy", unit=2, place="upper") == "levels_unbalanced"
    state, _ = run(state, "deploy", unit=2, place="lower")  # Anna: 2-1, 1 left
    assert code(state, "deploy", unit=3, place="upper") == "levels_unbalanced"
    state, _ = run(state, "deploy", unit=3, place="lower")  # Anna: 2-2
    assert state.stage is Stage.FIRST
    for player in (0, 1):
        assert abs(state.placed(player, "upper") - state.placed(player, "lower")) <= 1


def test_a_reserve_choice_that_makes_the_split_unreachable_is_refused() -> None:
    """ "Einheiten, die in der Reserve verbleiben, zählen nicht für diese Regel." — a unit
    kept in reserve counts on neither level, so it can no longer even them out."""
    state = _deploying(levels=2)
    state, _ = run(state, "deploy", unit=4, place="upper")  # Ben: 1-0, 2 left
    state, _ = run(state, "deploy", unit=0, place="lower")
    state, _ = run(state, "deploy", unit=5, place="upper")  # Ben: 2-0, 1 left
    state, _ = run(state, "deploy", unit=1, place="upper")
    assert code(state, "deploy", unit=6, place="reserve") == "levels_unbalanced"
    with pytest.raises(RuleViolation) as refused:
        ENGINE.decide(state, Command("deploy", {"unit": 6, "place": "reserve"}), Dice())
    assert refused.value.params == {"upper": 2, "lower": 0, "left": 0}
    detail = ENGINE.refusal_detail("levels_unbalanced")
    assert detail is not None
    assert "2 upper and 0 lower with 0 units" in detail % refused.value.params


def test_a_reserve_choice_that_keeps_the_split_reachable_is_accepted() -> None:
    """Reserve units do not count: 1-0 with a unit in reserve is an even enough split."""
    state = _deploying(levels=2)
    state, _ = run(state, "deploy", unit=4, place="upper")
    state, _ = run(state, "deploy", unit=0, place="lower")
    state, _ = run(state, "deploy", unit=5, place="reserve")  # Ben: 1-0, 1 left
    state, _ = run(state, "deploy", unit=1, place="upper")
    assert code(state, "deploy", unit=6, place="upper") == "levels_unbalanced"
    state, _ = run(state, "deploy", unit=6, place="lower")
    assert [state.placed(1, place) for place in ("upper", "lower", "reserve")] == [1, 1, 1]


def test_the_tracker_disables_an_unbalancing_deployment_with_the_engines_reason() -> None:
    """The buttons come from the engine's verdict: the level that would break the 50:50 split
    is disabled with the reason, the other stays enabled."""
    state = _deploying(levels=2)
    state, _ = run(state, "deploy", unit=4, place="upper")
    state, _ = run(state, "deploy", unit=0, place="lower")
    state, _ = run(state, "deploy", unit=5, place="upper")
    state, _ = run(state, "deploy", unit=1, place="upper")
    buttons = {b.sends.args["place"]: b for b in _unit_buttons(state, 6) if b.sends}
    assert buttons["lower"].enabled
    for place in ("upper", "reserve"):
        assert buttons[place].code == "levels_unbalanced"
        assert buttons[place].reason == ENGINE.refusals["levels_unbalanced"]
    assert "50:50" in _render(state)


@pytest.mark.parametrize(
    ("text", "label", "wide"),
    [
        ("round:32", "32 mm", False),
        ("round:50", "50 mm", False),
        ("round:60", "60 mm", True),
        ("oval:120x92", "120×92 mm oval", True),
        ("oval:50x35", "50×35 mm oval", False),
        ("", "", False),
        ("square:20", "square:20", False),
    ],
)
def test_bases_read_as_millimetres_and_wide_ones_miss_narrow_doors(
    text: str, label: str, wide: bool
) -> None:
    """ "Schmale Türen können nur von Modellen bis 50mm Base Größe durchschritten werden. Alle
    Modelle mit größerer Base, können nur durch die breiten Türen gehen." """
    assert base_view(text) == (label, wide)


def test_the_unit_lines_show_the_base_label_and_no_narrow_doors() -> None:
    """The sample Dreadnought stands on a 60 mm base: no narrow doors for it."""
    state = replay(ENGINE, ENGINE.start(bunkers(1), Dice()))
    units = {u.name: u for side in _view(state).sides for u in side.units}
    assert units["Sample Intercessors"].base == "32 mm"
    assert not units["Sample Intercessors"].wide_base
    assert units["Sample Dreadnought"].base == "60 mm" and units["Sample Dreadnought"].wide_base
    html = _render(state)
    assert "round:32" not in html and "32 mm" in html
    assert html.count("no narrow doors") == 1
