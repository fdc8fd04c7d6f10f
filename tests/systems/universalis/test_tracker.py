"""The tracker screen is the engine's: every button and form on it carries the engine's verdict
on the very command it sends (enabled, or disabled with the message of the refusal's code), its
forms open with values the engine takes, and it lists everything a table can send from it."""

from __future__ import annotations

from apps.systems.core.buttons import Button
from apps.systems.core.match import Command
from apps.systems.universalis.catalog import Camouflage, Movement, PowerDuration
from apps.systems.universalis.match.refusals import REFUSALS
from tests.systems.universalis.helpers import (
    ENGINE,
    MAGE_DISCIPLINE,
    RIFLE,
    Game,
    ben_waits_ready,
    model,
    power,
    setup,
    soldier,
    there,
    tracker,
)


def acting(*anna: dict[str, object], ben: tuple[dict[str, object], ...] = ()) -> Game:
    """Round 1: Anna's first model (0) acts, Ben's first (2) follows."""
    teams = [
        list(anna) or [model(soldier("Anna", group_leader=True)), model(soldier("Anna 2"))],
        list(ben) or [model(soldier("Ben", group_leader=True)), model(soldier("Ben 2"))],
    ]
    return Game(setup(teams)).to_round_one().phase_of(0, 2)


def button(buttons: tuple[Button, ...], command: str) -> Button:
    return next(b for b in buttons if b.command == command)


def assert_engines_verdicts(g: Game) -> int:
    """Every button of every screen reachable from the plain page is enabled exactly when the
    engine takes what it sends, else disabled with the refusal's code and its message."""
    checked = 0
    for _params, view in ENGINE.reachable_screens(g.state):
        for shown in view.command_buttons():
            refusal = ENGINE.check(g.state, there(shown.sends))
            assert shown.code == (refusal.code if refusal else ""), shown
            assert shown.reason == (REFUSALS[shown.code] if shown.code else ""), shown
            checked += 1
    return checked


def test_a_tracker_buttons_disabled_reason_comes_from_the_engine() -> None:
    g = acting()
    g.do("correct", unit=0, ap=1)
    defence = button(tracker(g).members[0].buttons, "defence")
    refusal = ENGINE.check(g.state, Command("defence", {"unit": 0}))
    assert refusal is not None and refusal.code == "not_enough_ap"
    assert not defence.enabled and defence.code == refusal.code
    assert defence.reason == REFUSALS["not_enough_ap"] == "Not enough action points (AP) for that."
    g.refused("defence", "not_enough_ap", unit=0)
    g.do("correct", unit=0, ap=2)
    assert button(tracker(g).members[0].buttons, "defence").enabled
    # The threat test is refused once made, whatever the AP: the reason is the engine's too.
    g.dice(1).do("threat_test", unit=0, threat=2)
    threat = there(tracker(g).members[0].threat).button
    assert threat.code == "threat_tested" and threat.reason == REFUSALS["threat_tested"]
    assert threat.odds == ()


def test_every_button_on_every_screen_is_the_engines_verdict() -> None:
    g = ben_waits_ready(acting())
    assert assert_engines_verdicts(g) > 40
    g.do("move", unit=1, cm=5)
    assert there(tracker(g, selected=2).reactions).reaction_fire is not None
    assert assert_engines_verdicts(g) > 40


def test_the_screen_lists_every_form_it_shows() -> None:
    """``command_buttons`` holds each form of the active panel, of the selected model's panel
    and of the phase's end with the values it opens with, and ``screens`` every model in play
    selected (a secret choice is no screen: the viewer is the page's, not a query's)."""
    lasting = power("Schild", duration=PowerDuration.LASTING)
    mage = soldier("Anna", group_leader=True, disciplines=MAGE_DISCIPLINE)
    hidden = soldier("Ben", group_leader=True, camouflage=Camouflage(active=False, level=1))
    g = acting(
        model(mage, powers=(lasting,)),
        model(soldier("Anna 2")),
        ben=(model(hidden), model(soldier("Ben 2"))),
    )
    g.do("camouflage", unit=2, hidden=True)
    g.dice(12).do("use_power", unit=0, power=0)
    view = tracker(g, selected=3)
    sent = {b.command for b in view.command_buttons()}
    assert {
        "move",
        "shoot",
        "melee",
        "reveal",
        "use_power",
        "use_object",
        "fire_readiness",
        "threat_test",
        "turn",
        "prone",
        "disengage",
        "defence",
        "end_phase",
        "auto_hit",
        "fall",
        "correct",
    } <= sent
    assert list(view.screens()) == [{"unit": "0"}, {"unit": "1"}, {"unit": "2"}]
    shoot = there(view.members[0].shoot)
    assert [(c.value, c.code) for c in shoot.targets] == [(2, "target_camouflaged"), (3, "")]
    assert shoot.target == 3 and shoot.button.enabled
    assert shoot.targets[0].reason == REFUSALS["target_camouflaged"]


def test_a_form_opens_with_the_first_values_the_engine_takes() -> None:
    """With 2 AP left a rifle (WK II) still fires a snap shot: the form opens on it. A flying
    model's first action is a move: its melee form opens as a charge."""
    g = acting(model(soldier("Anna", group_leader=True, weapons=(RIFLE,))), model(soldier("A2")))
    g.do("correct", unit=0, ap=2)
    shoot = there(tracker(g).members[0].shoot)
    assert shoot.mode == "snap" and shoot.button.enabled
    assert there(shoot.button.sends).args["mode"] == "snap"
    flyer = soldier("Anna", group_leader=True, movement=Movement.FLIGHT)
    g = acting(model(flyer), model(soldier("A2")))
    member = tracker(g).members[0]
    assert there(member.melee).charge and there(member.melee).button.enabled
    shoot = there(member.shoot)
    assert shoot.button.code == "flight_moves_first"
    assert shoot.button.reason == REFUSALS["flight_moves_first"]


def test_the_heading_names_the_system_the_round_and_the_prompt() -> None:
    g = Game(setup(max_rounds=4)).to_round_one()
    system, round_, prompt = tracker(g).heading
    assert system.text == "Universalis"
    assert round_.text == "Round 1 / 4"
    assert prompt.text == "Both players pick their next model in secret."
    system, prompt = tracker(Game()).heading
    assert prompt.text == "Each player picks a mission in secret."


def test_secret_choices_are_offered_for_every_seat_and_shown_to_their_viewer() -> None:
    g = Game()
    view = tracker(g)
    assert [(s.player, s.kind, len(s.options)) for s in view.secrets] == [
        (0, "mission", 4),
        (1, "mission", 4),
    ]
    assert view.viewer is None and tracker(g, viewer=1).viewer == 1
    legal = {(o.command.type, o.command.args["player"]) for o in ENGINE.legal_commands(g.state)}
    assert legal == {("choose_mission", 0), ("choose_mission", 1)}
    g.do("choose_mission", player=0, mission="kopfjagd")
    done, open_ = tracker(g).secrets
    assert done.done and done.options == () and len(open_.options) == 4


def test_a_burning_model_can_end_its_phase() -> None:
    """A model still burning after its fire test takes no actions, but its phase ends."""
    g = acting()
    g.dice(12, 1).do("auto_hit", unit=2, strength=5, damage=1, effects=["brand"])
    g.do("end_phase")
    assert there(tracker(g).burning_due[0].button).enabled
    g.dice(1, 12, 1, 1, 5).do("burning_test", unit=2)
    assert g.unit(2).burning is not None and g.state.active == 2
    view = tracker(g)
    assert view.members == () and there(view.end_phase).enabled
