"""The tracker page offers only what the rules allow (the view model, no database)."""

from __future__ import annotations

from apps.systems.core.buttons import Button
from apps.systems.grundregeln.match.view import tracker_view
from tests.systems.grundregeln.match.helpers import Game, model, npc, profile, scenario, setup


def npc_game() -> Game:
    data = scenario(npcs=[npc("Hund", "active", size="S"), npc("Bürger", "passive", count=3)])
    return Game(setup(data=data)).begin()


def finish_actions(g: Game) -> None:
    for unit in ("Anna 1", "Ben 1", "Anna 2", "Ben 2"):
        g.act(unit, "walk")


def buttons(g: Game, unit: str | None = None) -> list[Button]:
    selected = g.unit(unit) if unit is not None else None
    view = tracker_view(g.state, selected=selected, params={})
    found = list(view.prompt.buttons)
    if view.selection is not None:
        found += [b for group in view.selection.groups for b in group.buttons]
    return found


def commands(found: list[Button]) -> list[tuple[str, str]]:
    """(command, action or unit) of each enabled button."""
    return [(b.command, args(b).get("action", args(b).get("unit", ""))) for b in found if b.enabled]


def args(button: Button) -> dict[str, str]:
    return {f.name.removeprefix("args.").split(":")[0]: f.value for f in button.fields}


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


def test_a_moved_passive_npc_is_not_offered_again() -> None:
    g = npc_game()
    finish_actions(g)
    g.do("skip_npc", unit=g.unit("Hund"))
    g.do("move_npc", unit=g.unit("Bürger 1"), action="walk")
    assert tracker_view(g.state, selected=None, params={}).pending is not None
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
    view = tracker_view(g.state, selected=g.unit("Anna 1"), params={"wizard": "push"})
    assert view.wizard is not None
    target = next(t for t in view.wizard.targets if t.model.name == "Ben 1")
    texts = [line.params for line in target.button.odds]
    assert texts == [{"mean": "4.08", "p": "17 % (1/6)"}]
    g.do("declare", unit=g.unit("Anna 1"), action="walk")
    push = next(
        b for b in buttons(g, "Ben 1") if b.command == "react" and args(b)["action"] == "push"
    )
    assert [line.params for line in push.odds] == texts


def test_the_target_choice_asks_a_model_without_a_melee_weapon_for_its_attack_dice() -> None:
    unarmed = profile("Faust", weapons=[])
    g = Game(setup([[model(unarmed)], [model(profile("Ben"))]])).begin()
    params = {"wizard": "strike", "dice": "2", "mod": "1"}
    wizard = tracker_view(g.state, selected=g.unit("Faust"), params=params).wizard
    assert wizard is not None and wizard.dice == 2
    target = wizard.targets[0].button
    assert args(target)["dice"] == "2" and args(target)["modifier"] == "1"
    assert target.odds[0].params["dice"] == 3
    armed = tracker_view(g.state, selected=g.unit("Faust"), params={"wizard": "strike"})
    assert armed.wizard is not None and armed.wizard.dice == 1
    # Nothing to shoot with: the page does not offer a shot.
    assert "shoot" not in {args(b).get("action") for b in buttons(g, "Faust")}
    assert "wizard:shoot" not in {b.command for b in buttons(g, "Faust")}


def test_a_reaction_strike_without_a_melee_weapon_has_a_dice_input() -> None:
    unarmed = profile("Faust", weapons=[])
    g = Game(setup([[model(profile("Anna"))], [model(unarmed)]])).begin()
    g.do("declare", unit=g.unit("Anna"), action="walk")
    strike = next(b for b in buttons(g, "Faust") if args(b).get("action") == "strike")
    assert strike.enabled and [i.name for i in strike.inputs] == ["args.dice:int"]
    armed = Game(setup()).begin()
    armed.do("declare", unit=armed.unit("Anna 1"), action="walk")
    strike = next(b for b in buttons(armed, "Ben 1") if args(b).get("action") == "strike")
    assert strike.inputs == () and strike.odds
