"""The tracker screen offers what the rules allow, with the engine's verdict on every button
(the view model, no database)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from apps.systems.core.buttons import Button
from apps.systems.core.errors import RuleViolation
from apps.systems.core.match import Args, Command
from apps.systems.grundregeln.match.refusals import REFUSALS
from apps.systems.grundregeln.match.tracker.page import TrackerView
from tests.systems.grundregeln.match.helpers import (
    CROSSBOW,
    ENGINE,
    Game,
    model,
    npc,
    profile,
    scenario,
    setup,
)


def npc_game() -> Game:
    data = scenario(npcs=[npc("Hund", "active", size="S"), npc("Bürger", "passive", count=3)])
    return Game(setup(data=data)).begin()


def finish_actions(g: Game) -> None:
    for unit in ("Anna 1", "Ben 1", "Anna 2", "Ben 2"):
        g.act(unit, "walk")


def view(g: Game, unit: str | None = None, **params: str) -> TrackerView:
    selected = g.unit(unit) if unit is not None else None
    query = {**params, **({"unit": str(selected)} if selected is not None else {})}
    tracker: TrackerView = ENGINE.tracker(g.state, selected=selected, params=query)
    return tracker


def buttons(g: Game, unit: str | None = None) -> list[Button]:
    """The prompt's buttons and the selected model's actions (not its corrections)."""
    tracker = view(g, unit)
    found = list(tracker.prompt.buttons)
    if tracker.selection is not None:
        found += [b for group in tracker.selection.groups for b in group.buttons]
    return found


def commands(found: list[Button]) -> list[tuple[str, str]]:
    """(command, action or unit) of each enabled button."""
    return [(b.command, args(b).get("action", args(b).get("unit", ""))) for b in found if b.enabled]


def args(button: Button) -> dict[str, str]:
    return {f.name.removeprefix("args.").split(":")[0]: f.value for f in button.fields}


def button_for(g: Game, unit: str, action: str) -> Button:
    return next(b for b in buttons(g, unit) if args(b).get("action") == action)


def test_a_fleeing_active_npc_is_offered_its_morale_test_only() -> None:
    g = npc_game()
    g.do("adjust", unit=g.unit("Hund"), lp=2, fleeing=True)
    finish_actions(g)
    offered = commands(buttons(g, "Hund"))
    assert offered == [("test_morale", str(g.unit("Hund")))]
    g.dice(4, 4, 1).do("test_morale", unit=g.unit("Hund"))
    actions = {action for _command, action in commands(buttons(g, "Hund"))}
    assert "restore_morale" in actions and "walk" in actions
    assert not actions & {"strike", "npc_action", "block"}


def test_a_fleeing_npc_that_would_pass_shows_the_engines_reason() -> None:
    g = npc_game()
    g.do("adjust", unit=g.unit("Hund"), lp=2, fleeing=True)
    finish_actions(g)
    (skip,) = [b for b in buttons(g) if b.command == "skip_npc"]
    assert (skip.code, skip.reason) == ("morale_test_first", REFUSALS["morale_test_first"])


def test_while_a_rallied_npc_acts_the_others_wait_with_the_engines_reason() -> None:
    g = Game(setup(data=scenario(npcs=[npc("Hund", "active", size="S", count=2)]))).begin()
    for hound in ("Hund 1", "Hund 2"):
        g.do("adjust", unit=g.unit(hound), lp=2, fleeing=True)
    finish_actions(g)
    g.dice(4, 4, 1).do("test_morale", unit=g.unit("Hund 1"))
    skips = {args(b)["unit"]: b for b in buttons(g) if b.command == "skip_npc"}
    waiting = skips[str(g.unit("Hund 2"))]
    assert (waiting.code, waiting.reason) == ("action_pending", REFUSALS["action_pending"])
    assert skips[str(g.unit("Hund 1"))].enabled
    assert not view(g).sides[2].models[1].can_act and view(g).sides[2].models[0].can_act


def test_a_moved_passive_npc_is_not_offered_again() -> None:
    g = npc_game()
    finish_actions(g)
    g.do("skip_npc", unit=g.unit("Hund"))
    g.do("move_npc", unit=g.unit("Bürger 1"), action="walk")
    assert view(g).pending is not None
    g.do("resolve")
    moved = {args(b)["unit"] for b in buttons(g) if b.command == "move_npc"}
    assert moved == {str(g.unit("Bürger 2")), str(g.unit("Bürger 3"))}


def test_a_model_that_reacted_is_offered_no_action() -> None:
    g = npc_game()
    g.do("declare", unit=g.unit("Anna 1"), action="walk")
    g.do("react", unit=g.unit("Ben 1"), action="block")
    g.do("resolve")
    g.do("resolve")
    assert commands(buttons(g, "Ben 1")) == []
    assert commands(buttons(g, "Ben 2"))


def test_push_buttons_carry_the_exact_odds_of_the_push_roll() -> None:
    g = npc_game()
    wizard = view(g, "Anna 1", wizard="push").wizard
    assert wizard is not None
    target = next(t for t in wizard.targets if t.model.name == "Ben 1")
    texts = [line.params for line in target.button.odds]
    assert texts == [{"mean": "4.08", "p": "17 % (1/6)"}]
    g.do("declare", unit=g.unit("Anna 1"), action="walk")
    reaction = view(g, "Ben 1", wizard="push").wizard
    assert reaction is not None and reaction.reaction
    at_anna = next(t for t in reaction.targets if t.model.name == "Anna 1")
    assert at_anna.button.sends is not None and at_anna.button.sends.type == "react"
    assert [line.params for line in at_anna.button.odds] == texts


def test_the_target_choice_asks_a_model_without_a_melee_weapon_for_its_attack_dice() -> None:
    unarmed = profile("Faust", weapons=[])
    g = Game(setup([[model(unarmed)], [model(profile("Ben"))]])).begin()
    wizard = view(g, "Faust", wizard="strike", dice="2", mod="1").wizard
    assert wizard is not None and wizard.dice == 2
    target = wizard.targets[0].button
    assert args(target)["dice"] == "2" and args(target)["modifier"] == "1"
    assert target.odds[0].params["dice"] == 3
    armed = view(g, "Faust", wizard="strike").wizard
    assert armed is not None and armed.dice == 1
    # Nothing to shoot with: the page does not offer a shot.
    assert "shoot" not in {args(b).get("action") for b in buttons(g, "Faust")}
    assert "wizard:shoot" not in {b.command for b in buttons(g, "Faust")}


def test_a_reaction_strike_without_a_melee_weapon_asks_for_its_attack_dice() -> None:
    unarmed = profile("Faust", weapons=[])
    g = Game(setup([[model(profile("Anna"))], [model(unarmed)]])).begin()
    g.do("declare", unit=g.unit("Anna"), action="walk")
    wizard = view(g, "Faust", wizard="strike", dice="2").wizard
    assert wizard is not None and wizard.reaction and wizard.dice == 2
    (target,) = wizard.targets
    assert target.button.enabled and target.button.sends == Command(
        "react",
        {"unit": g.unit("Faust"), "action": "strike", "target": g.unit("Anna"), "dice": 2},
    )
    armed = Game(setup()).begin()
    armed.do("declare", unit=armed.unit("Anna 1"), action="walk")
    strike = view(armed, "Ben 1", wizard="strike").wizard
    assert strike is not None and strike.dice is None and strike.targets[0].button.odds


def test_a_model_that_has_acted_is_offered_its_reaction() -> None:
    """l. 71: "Alle Modelle mit Sicht dürfen reagieren, die nicht auf der Flucht sind" (SPEC
    §6: also one that has already acted this round)."""
    g = Game(setup()).begin()
    g.act("Anna 1", "walk")
    g.do("declare", unit=g.unit("Ben 1"), action="walk")
    pending = view(g).pending
    assert pending is not None
    assert [m.name for m in pending.reactors] == ["Anna 1", "Anna 2"]
    assert ("react", "block") in commands(buttons(g, "Anna 1"))


def test_a_reaction_with_a_target_opens_the_choice_of_every_model_it_may_name() -> None:
    """l. 65: "Jede einfache Aktion kann als Reaktion genutzt werden": a strike at any enemy, a
    push of any model, an item handed to a friend; the acting model comes first."""
    g = Game(setup()).begin()
    g.do("declare", unit=g.unit("Anna 2"), action="walk")
    links = {b.command: b for b in buttons(g, "Ben 1") if b.is_wizard}
    for kind in ("strike", "push", "hand_over"):
        assert links[f"wizard:{kind}"].enabled
    strike = view(g, "Ben 1", wizard="strike").wizard
    assert strike is not None and strike.reaction
    assert [t.model.name for t in strike.targets] == ["Anna 2", "Anna 1"]
    assert strike.targets[1].button.sends == Command(
        "react", {"unit": g.unit("Ben 1"), "action": "strike", "target": g.unit("Anna 1")}
    )
    hand_over = view(g, "Ben 1", wizard="hand_over").wizard
    assert hand_over is not None and [t.model.name for t in hand_over.targets] == ["Ben 2"]
    queries = [dict(params) for params, _view in ENGINE.reachable_screens(g.state)]
    assert {"unit": str(g.unit("Ben 1")), "wizard": "hand_over"} in queries


def test_only_the_other_players_models_may_react_to_a_passive_npc_move() -> None:
    """l. 71: "Der passive Spieler sagt seine Reaktionen für die Einheiten/Modelle an": Anna
    moves the NPC, Ben's models may react."""
    g = npc_game()
    finish_actions(g)
    g.do("skip_npc", unit=g.unit("Hund"))
    g.do("move_npc", unit=g.unit("Bürger 1"), action="walk")
    pending = view(g).pending
    assert pending is not None and [m.name for m in pending.reactors] == ["Ben 1", "Ben 2"]
    assert commands(buttons(g, "Anna 1")) == []


def test_the_passive_npcs_are_offered_their_scenario_action_besides_their_moves() -> None:
    """l. 148: "NPCs können nur NPC-Aktionen durchführen (siehe Szenario-Regeln) oder sich
    bewegen"."""
    g = npc_game()
    finish_actions(g)
    g.do("skip_npc", unit=g.unit("Hund"))
    offered = {
        (args(b)["unit"], args(b)["action"])
        for b in view(g).prompt.buttons
        if b.command == "move_npc" and b.enabled
    }
    burger = str(g.unit("Bürger 1"))
    assert {(burger, "walk"), (burger, "npc_action")} <= offered


def test_an_active_npc_is_offered_its_scenario_action_as_a_reaction() -> None:
    """l. 65: "Szenario-NPCs dürfen mit ihren Aktionen in der Spielerphase reagieren"."""
    g = npc_game()
    g.do("declare", unit=g.unit("Anna 1"), action="walk")
    assert ("react", "npc_action") in commands(buttons(g, "Hund"))
    assert ("react", "npc_action") not in commands(buttons(g, "Ben 1"))


# --- The engine's verdicts ------------------------------------------------------------------


def test_a_disabled_buttons_reason_is_the_engines_refusal() -> None:
    # Anna 1 is in melee with Ben 1: a walk in reaction is the engine's "in_melee", word for word.
    g = Game(setup()).begin()
    g.dice(1, 1, 1).act("Anna 1", "strike", "Ben 1")
    g.do("declare", unit=g.unit("Ben 2"), action="walk")
    walk = button_for(g, "Anna 1", "walk")
    assert walk.sends == Command("react", {"unit": g.unit("Anna 1"), "action": "walk"})
    refusal = ENGINE.check(g.state, walk.sends)
    assert refusal is not None and refusal.code == "in_melee"
    assert (walk.enabled, walk.code, walk.reason) == (False, refusal.code, REFUSALS["in_melee"])


def test_a_buttons_verdict_comes_from_the_engine_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the engine refuse a walk it would accept: the button says what the engine says."""
    g = Game(setup()).begin()
    declare = ENGINE.handlers["declare"]

    def no_walking(ctx: Any, command_args: Args) -> None:
        if command_args.text("action") == "walk":
            raise RuleViolation("stale", "Refused for the test.")
        declare(ctx, command_args)

    assert button_for(g, "Anna 1", "walk").enabled
    monkeypatch.setitem(ENGINE.handlers, "declare", no_walking)
    walk = button_for(g, "Anna 1", "walk")
    assert (walk.code, walk.reason) == ("stale", REFUSALS["stale"])
    assert button_for(g, "Anna 1", "march").enabled


def test_the_target_choice_link_carries_the_engines_refusal_of_its_targets() -> None:
    g = Game(setup()).begin()
    for unit, action, more in (
        ("Anna 1", "switch_weapon", {"weapon": 1}),
        ("Ben 1", "walk", {}),
        ("Anna 2", "walk", {}),
        ("Ben 2", "walk", {}),
    ):
        g.act(unit, action, **more)
    g.begin()
    # The crossbow is ready: the strike's link is disabled with the engine's own refusal.
    strike = next(b for b in buttons(g, "Anna 1") if b.command == "wizard:strike")
    assert (strike.code, strike.reason) == ("wrong_weapon", REFUSALS["wrong_weapon"])
    at_ben = Command(
        "declare", {"unit": g.unit("Anna 1"), "action": "strike", "target": g.unit("Ben 1")}
    )
    refused = ENGINE.check(g.state, at_ben)
    assert refused is not None and refused.code == strike.code
    # A target choice whose link is disabled does not open.
    assert view(g, "Anna 1", wizard="strike").wizard is None


def test_every_button_on_every_screen_is_the_engines_verdict() -> None:
    g = npc_game()
    states = [g.state]
    g.do("declare", unit=g.unit("Anna 1"), action="walk")
    states.append(g.state)
    for state in states:
        checked = 0
        for params, screen in ENGINE.reachable_screens(state):
            for button in screen.command_buttons():
                assert button.reason == (REFUSALS[button.code] if button.code else "")
                if button.is_wizard:
                    continue  # a link to a choice: its targets are checked on its screen
                assert button.sends is not None, (params, button)
                refusal = ENGINE.check(state, button.sends)
                assert (refusal.code if refusal else "") == button.code, (params, button)
                checked += 1
        assert checked > 20


def test_the_screens_lead_to_each_model_and_each_open_target_choice() -> None:
    g = Game(setup()).begin()
    anna = str(g.unit("Anna 1"))
    queries = [dict(params) for params, _view in ENGINE.reachable_screens(g.state)]
    assert {"unit": anna} in queries
    assert {"unit": anna, "wizard": "strike"} in queries
    assert {"unit": anna, "wizard": "shoot"} not in queries  # no crossbow ready: not enabled
    legal = {
        (o.command.type, o.command.args.get("action"))
        for o in ENGINE.legal_commands(g.state)
        if o.legal
    }
    assert ("declare", "strike") in legal and ("declare", "walk") in legal


def test_every_form_with_inputs_is_offered_with_its_defaults() -> None:
    g = Game(setup(data=scenario("objectives", objectives=2, vp_objective=1))).begin()
    selection = view(g, "Ben 2").selection
    assert selection is not None and selection.adjust is not None and selection.fall is not None
    assert selection.adjust.sends == Command(
        "adjust", {"unit": g.unit("Ben 2"), "lp": 4, "fleeing": False}
    )
    assert selection.fall.sends == Command("fall", {"unit": g.unit("Ben 2"), "distance": 1})
    free = view(g).free_roll
    assert free is not None and free.sends == Command("roll", {"dice": 1}) and free.enabled
    finish_actions(g)
    score = view(g).prompt.score
    assert score is not None and score.enabled
    assert score.sends == Command("score_round", {"holders": [None, None]})


def test_a_passive_npcs_fall_shows_why_it_cannot_fall() -> None:
    g = npc_game()
    selection = view(g, "Bürger 1").selection
    assert selection is not None and selection.fall is not None
    assert (selection.fall.code, selection.fall.reason) == ("npc_passive", REFUSALS["npc_passive"])


def test_the_heading_names_the_scenario_the_round_of_how_many_and_the_phase() -> None:
    g = Game(setup(data=scenario(rounds=3))).begin()
    heading = view(g).heading
    assert [line.text for line in heading] == ["Test", "Round 1 of 3", "Action phase"]
    endless = Game(setup(data=scenario("last_standing", rounds=0)))
    assert [line.text for line in view(endless).heading] == ["Test", "Round 1", "Round start"]


def test_a_command_the_screens_offer_as_legal_is_accepted() -> None:
    g = npc_game()
    finish_actions(g)
    offered = [o.command for o in ENGINE.legal_commands(g.state) if o.legal]
    assert offered
    for command in offered:
        try:
            ENGINE.decide(g.state, command, random.Random(1))
        except RuleViolation as error:  # pragma: no cover - the message says it all
            raise AssertionError(f"{command} was offered and refused: {error!r}") from None


def test_an_attack_is_resolved_with_the_modifier_measured_after_the_reactions() -> None:
    """Nahkampf l. 112-114 ("3. Reaktionen durchführen 4. Angriffsdistanz würfeln/messen"),
    Fernkampf l. 126-127 ("4. Reichweite messen und Modifikator bestimmen"): an attack's resolve
    button asks for the modifier, the declared one by default."""
    g = Game(setup()).begin()
    g.do("declare", unit=g.unit("Anna 1"), action="strike", target=g.unit("Ben 1"), modifier=1)
    pending = view(g).pending
    assert pending is not None
    assert [(i.name, i.value) for i in pending.resolve.inputs] == [("args.modifier:int", 1)]
    assert pending.resolve.sends == Command("resolve", {"modifier": 1})
    assert pending.resolve.enabled and pending.resolve.odds[0].params["dice"] == 4
    g.do("resolve", modifier=1)
    g.do("declare", unit=g.unit("Ben 2"), action="walk")
    walk = view(g).pending
    assert walk is not None and walk.resolve.inputs == () and walk.redirects == ()


def test_a_melee_attack_may_be_redirected_from_the_pending_panel() -> None:
    """Nahkampf l. 115: "5. optional: Angreifer bewegen / ausrichten / Angriff umlenken": the
    panel offers every other model the attack may be turned on."""
    g = Game(setup()).begin()
    g.do("declare", unit=g.unit("Anna 1"), action="charge", target=g.unit("Ben 1"))
    pending = view(g).pending
    assert pending is not None
    (redirect,) = pending.redirects
    assert redirect.label.params == {"name": "Ben 2"} and redirect.enabled and redirect.odds
    assert redirect.sends == Command("resolve", {"target": g.unit("Ben 2")})
    shot = Game(setup([[model(profile("Schütze", weapons=[CROSSBOW]))], [model(profile("Ben"))]]))
    shot.begin()
    shot.do("declare", unit=shot.unit("Schütze"), action="shoot", target=shot.unit("Ben"))
    shooting = view(shot).pending
    assert shooting is not None and shooting.redirects == () and shooting.resolve.inputs
