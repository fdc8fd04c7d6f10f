"""The Deathmatch tracker asks the engine, and only the engine, whether a button is enabled: its
buttons are disabled exactly where ``decide`` refuses the command they send, with the refusal's
code and the system's message for it."""

from __future__ import annotations

from apps.systems.core.buttons import Button
from apps.systems.deathmatch.match.refusals import REFUSALS
from tests.systems.deathmatch.match.helpers import ENGINE, Game, default_team, setup


def _prompt_button(g: Game, command: str) -> Button:
    view = ENGINE.tracker(g.state, selected=None, params={})
    return next(b for b in view.prompt.buttons if b.command == command)


def test_pass_is_disabled_while_the_second_model_of_a_coordinated_activation_is_due() -> None:
    # Rulebook (Koordinierte Aktivierung): "Für 2 Kommandopunkte darf ein Spieler in seinem Zug
    # zwei Modelle nacheinander aktivieren" -- the second model follows in the same turn, so the
    # turn cannot be passed in between (the screen used to offer Pass here; the engine refused).
    teams = [default_team(0, command=2), default_team(1)]
    g = Game(setup("last-man-standing", teams))
    g.to_round_one()
    g.do("coordinated_activation")
    g.activate(0)
    g.end()
    assert g.state.turn == 0 and g.state.second_due
    pass_button = _prompt_button(g, "pass")
    refused = g.refused("pass", pass_button.code)
    assert not pass_button.enabled
    assert pass_button.code == refused.code
    assert pass_button.reason == REFUSALS[refused.code]


def test_every_button_on_the_turn_screen_has_the_engines_verdict() -> None:
    g = Game(setup("last-man-standing", [default_team(0), default_team(1)]))
    g.to_round_one()
    g.activate(0)
    legality = ENGINE.legality(g.state)
    for _params, view in ENGINE.reachable_screens(g.state, legality=legality):
        for button in view.command_buttons():
            if button.is_wizard:
                continue
            assert button.sends is not None
            refusal = ENGINE.check(g.state, button.sends)
            assert button.code == (refusal.code if refusal else "")
            assert button.reason == (REFUSALS[refusal.code] if refusal else "")


def test_the_wizard_offers_a_target_the_engine_refuses_disabled_with_its_reason() -> None:
    g = Game(setup("last-man-standing", [default_team(0), default_team(1)]))
    g.to_round_one()
    g.activate(0)
    g.do("dodge")
    g.do("dodge")  # 0 AP left: no attack is possible any more
    view = ENGINE.tracker(g.state, selected=0, params={})
    ranged = next(b for b in view.actions if b.command == "wizard:ranged")
    assert not ranged.enabled and ranged.code == "not_enough_ap"
