"""Round structure (SPEC §1.4): command pool, initiative, activations, AP, passing, coordinated
activation and Befehl."""

from __future__ import annotations

from dataclasses import replace

from apps.systems.deathmatch.catalog import FighterProfile, Rank
from apps.systems.deathmatch.match.state import Phase
from tests.systems.deathmatch.match.helpers import (
    Game,
    Member,
    default_team,
    of_type,
    one,
    profile,
    setup,
    target,
)


def commanded(player: int, commands: tuple[int, ...]) -> list[Member]:
    """A default team whose fighters have these command values."""
    team = default_team(player, len(commands))
    return [
        replace(p, command=c) if isinstance(p, FighterProfile) else p
        for p, c in zip(team, commands, strict=True)
    ]


# --- Activations and action points --------------------------------------------------------------


def test_activation_gives_two_ap(game: Game) -> None:
    events = game.activate(0)
    assert one(events, "unit_activated") == {"unit": 0, "ap": 2}
    assert game.unit(0).ap == 2
    assert game.state.active == 0


def test_spending_ap_you_do_not_have_is_refused(game: Game) -> None:
    game.activate(0)
    game.do("move")
    game.refused("charge", "not_enough_ap", weapon=1, targets=[target(3)])
    game.do("move")
    assert game.unit(0).ap == 0
    game.refused("move", "not_enough_ap")
    game.refused("dodge", "not_enough_ap")
    game.refused("ranged_attack", "not_enough_ap", targets=[target(3)])


def test_activating_an_activated_fighter_is_refused(game: Game) -> None:
    game.activate(0)
    game.end()
    game.activate(3)
    game.end()
    game.refused("activate", "already_activated", unit=0)


def test_acting_out_of_turn_is_refused(game: Game) -> None:
    assert game.state.turn == 0
    game.refused("activate", "not_your_turn", unit=3)
    game.activate(0)
    game.refused("activate", "already_active", unit=1)
    game.refused("move", "not_active", unit=1)
    game.refused("move", "not_active", unit=3)


def test_actions_need_an_activated_model(game: Game) -> None:
    game.refused("move", "no_active_unit")
    game.refused("end_activation", "no_active_unit")


def test_players_alternate_and_the_other_side_finishes_alone() -> None:
    g = Game(setup("last-man-standing", [default_team(0), default_team(1, 1)]))
    g.to_round_one()
    g.activate(0)
    g.end()
    assert g.state.turn == 1
    g.activate(3)
    g.end()
    # Ben has nothing left: Anna activates her remaining fighters one after another.
    assert g.state.turn == 0
    g.activate(1)
    g.end()
    assert g.state.turn == 0
    g.activate(2)
    events = g.end()
    assert one(events, "round_ended") == {"round": 1}
    assert g.state.phase is Phase.END
    assert g.state.awaiting == "score"


def test_the_round_ends_when_every_model_has_activated(game: Game) -> None:
    game.finish_round()
    assert game.state.phase is Phase.END
    assert all(u.activated for u in game.state.units)
    game.refused("activate", "not_now", unit=0)
    game.score()
    assert game.state.round == 2
    assert game.state.phase is Phase.START
    assert not any(u.activated for u in game.state.units)


# --- Passing ------------------------------------------------------------------------------------


def test_pass_hands_the_turn_to_the_opponent(game: Game) -> None:
    events = game.do("pass")
    assert one(events, "passed") == {"player": 0}
    assert game.state.turn == 1


def test_opponent_may_not_pass_back(game: Game) -> None:
    game.do("pass")
    game.refused("pass", "pass_back")
    game.activate(3)
    game.end()
    game.activate(0)
    game.end()
    # Once the passed-to player has activated, its own pass is free again.
    game.do("pass")
    assert game.state.turn == 0


def test_second_pass_in_a_round_is_refused(game: Game) -> None:
    game.do("pass")
    game.activate(3)
    game.end()
    game.refused("pass", "already_passed")


def test_pass_is_again_available_next_round(game: Game) -> None:
    game.do("pass")
    game.next_round()
    game.do("pass")
    assert game.state.players[0].passed


def test_pass_needs_an_opponent_with_something_to_activate() -> None:
    g = Game(setup("last-man-standing", [default_team(0), default_team(1, 1)]))
    g.to_round_one()
    g.activate(0)
    g.end()
    g.activate(3)
    g.end()
    g.refused("pass", "nobody_to_pass_to")


def test_pass_is_refused_while_a_model_is_activated(game: Game) -> None:
    game.activate(0)
    game.refused("pass", "not_now")


# --- Command pool -------------------------------------------------------------------------------


def test_command_pool_is_the_command_of_fighters_in_play_plus_harmony() -> None:
    g = Game(
        setup(
            "last-man-standing",
            [commanded(0, (3, 1, 0)), commanded(1, (2, 0, 0))],
            harmony=(True, False),
        )
    )
    g.to_round_one()
    assert (g.cp(0), g.cp(1)) == (3 + 1 + 0 + 1, 2)
    # Anna's leader is knocked out for good (Last Man Standing): next round it adds nothing.
    g.do("adjust", unit=0, lp=0)
    g.next_round()
    assert (g.cp(0), g.cp(1)) == (1 + 0 + 1, 2)


def test_unused_command_points_expire_at_round_end() -> None:
    g = Game(setup("last-man-standing", [commanded(0, (2, 0, 0)), commanded(1, (1, 0, 0))]))
    g.to_round_one()
    assert g.cp(0) == 2
    g.next_round()
    assert g.cp(0) == 2


# --- Initiative ---------------------------------------------------------------------------------


def _initiative(g: Game, cards: tuple[list[int], ...]) -> None:
    for player, stack in enumerate(cards):
        g.stack(player, stack)
    g.do("flip_initiative")


def test_initiative_highest_card_wins_and_chooses_who_starts() -> None:
    g = Game(setup())
    g.to_round_one()
    g.finish_round()
    g.score()
    _initiative(g, ([2], [7]))
    assert one(g.events[-2:], "initiative_won")["winner"] == 1
    assert g.state.awaiting == "starter" and g.state.awaiting_player == 1
    g.refused("activate", "not_now", unit=3)
    g.do("choose_starter", player=0)
    assert g.state.turn == 0


def test_deployment_flip_ties_flip_again_and_the_winner_names_the_first_deployer() -> None:
    # AUFSTELLUNG: the highest card decides who picks a zone (and deploys) first; the rulebook
    # says nothing of a tie, and the app has the tied players flip again.
    g = Game(setup())
    g.stack(0, [4, 2])
    g.stack(1, [4, 7])
    events = g.do("deployment_flip")
    flips = of_type(events, "deployment_flipped")
    assert [f["winner"] for f in flips] == [None, 1]
    assert (g.state.awaiting, g.state.awaiting_player) == ("first_deployer", 1)
    g.do("choose_first_deployer", player=0)
    assert g.state.first_deployer == 0


def test_initiative_tie_in_round_one_goes_to_the_first_deployer() -> None:
    g = Game(setup())
    g.stack(0, [9])
    g.stack(1, [1])
    g.do("deployment_flip")
    g.do("choose_first_deployer", player=1)
    g.do("start_game")
    _initiative(g, ([5], [5]))
    assert one(g.events[-2:], "initiative_won") == {
        "winner": 1,
        "results": [5, 5],
        "tie": True,
        "ranking": [1, 0],
    }


def test_initiative_tie_goes_to_who_activated_all_models_first_last_round(game: Game) -> None:
    # Anna deployed first, but in round 1 she passes and Ben finishes first.
    game.do("pass")
    for anna, ben in ((0, 3), (1, 4)):
        game.activate(ben)
        game.end()
        game.activate(anna)
        game.end()
    game.activate(5)
    game.end()
    assert game.state.players[1].finish_order == 1
    game.activate(2)
    game.end()
    assert game.state.players[0].finish_order == 2
    game.score()
    _initiative(game, ([4], [4]))
    assert of_type(game.events, "initiative_won")[-1] == {
        "winner": 1,
        "results": [4, 4],
        "tie": True,
        "ranking": [1, 0],
    }


def test_loser_decides_initiative_reroll_first() -> None:
    g = Game(setup("last-man-standing", [commanded(0, (1, 0, 0)), commanded(1, (1, 0, 0))]))
    g.to_round_one()
    g.finish_round()
    g.score()
    _initiative(g, ([8], [3, 9]))
    assert g.state.pending is not None
    assert g.state.pending.deciders == (1, 0)
    g.refused("accept", "not_your_decision", player=0)
    g.refused("reroll", "not_your_decision", positions=[0], player=0)
    g.refused("activate", "flip_pending", unit=0)
    events = g.do("reroll", positions=[0], player=1)
    assert one(events, "cp_spent") == {"player": 1, "cp": 1, "reason": "reroll"}
    assert g.cp(1) == 0
    # Ben now leads 9 to 8; Anna decides after him.
    assert g.state.pending is not None and g.state.pending.deciders == (0,)
    g.stack(0, [2])
    g.do("accept", player=0)
    assert one(g.events[-2:], "initiative_won")["winner"] == 1


def test_an_initiative_zero_is_never_rerolled() -> None:
    # WIEDERHOLUNGSFLIPS: "Karten, die beim ersten Flip eine 0 zeigen, dürfen niemals ersetzt
    # werden" -- also the initiative flip, which a player may otherwise reroll for 1 CP.
    g = Game(setup("last-man-standing", [commanded(0, (1, 0, 0)), commanded(1, (1, 0, 0))]))
    g.to_round_one()
    g.finish_round()
    g.score()
    _initiative(g, ([0], [5]))
    assert g.state.pending is not None and g.state.pending.deciders == (1,)
    g.do("accept", player=1)
    assert one(g.events[-2:], "initiative_won")["winner"] == 1
    assert g.cp(0) == 1


def test_initiative_reroll_binds_even_if_worse() -> None:
    g = Game(setup("last-man-standing", [commanded(0, (1, 0, 0)), commanded(1, (1, 0, 0))]))
    g.to_round_one()
    g.finish_round()
    g.score()
    _initiative(g, ([6], [5, 1]))
    g.do("reroll", positions=[0])
    g.do("accept")
    assert of_type(g.events, "initiative_won")[-1]["results"] == [6, 1]


def test_nobody_without_command_points_decides_on_an_initiative_reroll(game: Game) -> None:
    game.finish_round()
    game.score()
    _initiative(game, ([3], [4]))
    assert game.state.pending is None
    assert game.state.awaiting == "starter"


def test_praeventivschlag_reroll_is_free_once_per_round() -> None:
    anna = default_team(0)
    anna[0] = profile("Anna Anführer", rank=Rank.LEADER, abilities=("Präventivschlag",))
    g = Game(setup("last-man-standing", [anna, default_team(1)]))
    g.to_round_one()
    g.finish_round()
    g.score()
    assert g.cp(0) == 0
    _initiative(g, ([2, 8], [5]))
    # No command points, yet Anna may reroll: her leader's Präventivschlag makes it free.
    assert g.state.pending is not None and g.state.pending.deciders == (0,)
    events = g.do("reroll", positions=[0])
    assert of_type(events, "cp_spent") == []
    assert one(events, "free_reroll_used") == {"player": 0}
    assert one(events, "initiative_won")["winner"] == 0
    g.do("choose_starter", player=0)
    # The next round it is free again.
    g.finish_round()
    g.score()
    assert not g.state.players[0].free_reroll_used
    _initiative(g, ([1], [5]))
    assert g.state.pending is not None and g.state.pending.deciders == (0,)


def test_praeventivschlag_keeps_command_points_for_the_reroll() -> None:
    anna = commanded(0, (2, 0, 0))
    anna[0] = profile("Anna Anführer", rank=Rank.LEADER, command=2, abilities=("Präventivschlag",))
    g = Game(setup("last-man-standing", [anna, default_team(1)]))
    g.to_round_one()
    g.finish_round()
    g.score()
    _initiative(g, ([2, 8], [5]))
    g.do("reroll", positions=[0])
    assert g.cp(0) == 2


# --- Coordinated activation ---------------------------------------------------------------------


def test_coordinated_activation_costs_two_cp_and_activates_two_models() -> None:
    g = Game(setup("last-man-standing", [commanded(0, (2, 0, 0)), default_team(1)]))
    g.to_round_one()
    events = g.do("coordinated_activation")
    assert one(events, "cp_spent") == {"player": 0, "cp": 2, "reason": "coordinated_activation"}
    g.activate(0)
    g.refused("activate", "already_active", unit=1)
    events = g.end()
    assert "second_activation" in [e.type for e in events]
    assert g.state.turn == 0
    g.activate(1)
    g.end()
    assert g.state.turn == 1


def test_coordinated_activation_needs_two_cp_and_two_models() -> None:
    g = Game(setup("last-man-standing", [commanded(0, (1, 0, 0)), commanded(1, (2, 0, 0))]))
    g.to_round_one()
    g.refused("coordinated_activation", "not_enough_cp")
    g.activate(0)
    g.refused("coordinated_activation", "not_now")
    g.end()
    g.activate(3)
    g.end()
    g.activate(1)
    g.end()
    g.activate(4)
    g.end()
    g.activate(2)
    g.end()
    # Ben has one model left: nothing to coordinate.
    g.refused("coordinated_activation", "coordinated_needs_two")


# --- Befehl -------------------------------------------------------------------------------------


def test_befehl_lets_a_respawned_model_activate_with_one_ap() -> None:
    g = Game(setup("flag-rush", [default_team(0), commanded(1, (1, 0, 0))]))
    g.to_round_one()
    g.activate(0)
    g.stack(0, [9, 9])
    # Ben's trooper (not yet activated) is knocked out and respawns.
    g.do("ranged_attack", targets=[target(4)], confirm_flips=False)
    assert g.unit(4).respawns == 1
    assert g.unit(4).activated and g.unit(4).order_allowed
    g.end()
    g.refused("activate", "already_activated", unit=4)
    events = g.do("order", unit=4)
    assert one(events, "cp_spent") == {"player": 1, "cp": 1, "reason": "order"}
    events = g.activate(4)
    assert one(events, "unit_activated") == {"unit": 4, "ap": 1}


def test_befehl_is_only_for_a_model_respawned_before_its_activation() -> None:
    g = Game(setup("flag-rush", [commanded(0, (1, 0, 0)), commanded(1, (1, 0, 0))]))
    g.to_round_one()
    g.refused("order", "order_not_allowed", unit=0)
    g.activate(0)
    g.end()
    g.activate(3)
    g.end()
    g.activate(1)
    g.stack(0, [9, 9])
    # Ben's leader has activated already: its respawn gives no Befehl.
    g.do("ranged_attack", targets=[target(3)], confirm_flips=False)
    assert g.unit(3).respawns == 1
    g.refused("order", "order_not_allowed", unit=3)


def test_respawn_without_befehl_loses_the_activation() -> None:
    g = Game(setup("flag-rush"))
    g.to_round_one()
    g.activate(0)
    g.stack(0, [9, 9])
    g.do("ranged_attack", targets=[target(4)], confirm_flips=False)
    g.end()
    g.finish_round()
    assert g.unit(4).ap == 0
    assert not any(e.get("unit") == 4 for e in of_type(g.events, "unit_activated"))


def test_on_an_initiative_tie_the_player_losing_the_tie_decides_first() -> None:
    g = Game(setup("last-man-standing", [commanded(0, (1, 0, 0)), commanded(1, (1, 0, 0))]))
    g.stack(0, [9])
    g.stack(1, [1])
    g.do("deployment_flip")
    g.do("choose_first_deployer", player=0)
    g.do("start_game")
    _initiative(g, ([5], [5]))
    # Anna deployed first and wins the tie: Ben is the loser and decides first.
    assert g.state.pending is not None and g.state.pending.deciders == (1, 0)
