"""Grundregeln matches through the generic match pages and API: the scenario comes from the
catalogue, the tracker renders every phase, commands and undo keep replay equal to the snapshot."""

from __future__ import annotations

import random

import pytest
from rest_framework.test import APIClient

from apps.catalog.models import GameSystem, Mission
from apps.matches import services
from apps.matches.models import Match
from apps.matches.selectors import engine_for
from apps.matches.services import match_rebuilt_state
from tests.matches.grundregeln import grund_match, grund_roster

pytestmark = pytest.mark.django_db


@pytest.fixture
def grundregeln(deathmatch) -> GameSystem:  # noqa: ARG001 - loads every shipped catalogue
    return GameSystem.objects.get(slug="grundregeln")


def play(match: Match, user, command: str, **args) -> Match:  # noqa: ANN001
    outcome = services.match_apply_command(
        user=user,
        match_id=match.pk,
        command_type=command,
        args=args,
        expected_seq=None,
        idempotency_key=None,
        rng=random.Random(7),
    )
    return outcome.match


def test_a_match_plays_the_chosen_scenario_with_its_npcs(grundregeln, user) -> None:
    match = grund_match(user, grundregeln)
    state = engine_for(match).load_state(match.state)
    assert match.mode == "die-wachhunde" and state.scenario.name == "Die Wachhunde"
    assert [m.name for m in state.npcs()] == [
        "Wachhund 1",
        "Wachhund 2",
        "Zivilist 1",
        "Zivilist 2",
    ]


def test_a_scenario_edited_later_does_not_change_a_running_match(grundregeln, user) -> None:
    match = grund_match(user, grundregeln)
    mission = Mission.objects.get(system=grundregeln, slug="die-wachhunde")
    mission.data = {**mission.data, "rounds": 9}
    mission.save()
    assert engine_for(match).load_state(match.state).scenario.rounds == 4
    assert match_rebuilt_state(match).scenario.rounds == 4


def test_a_scenario_that_names_the_start_player_opens_without_a_roll(grundregeln, user) -> None:
    mission = Mission.objects.get(system=grundregeln, slug="die-wachhunde")
    mission.data = {**mission.data, "starter": "second"}
    mission.save()
    match = grund_match(user, grundregeln)
    state = engine_for(match).load_state(match.state)
    assert state.phase.value == "actions" and state.starter == 1 and state.turn == 1
    assert match_rebuilt_state(match).starter == 1


def test_a_random_scenario_is_drawn_from_the_catalogue(grundregeln, user) -> None:
    match = grund_match(user, grundregeln, mode="random", seed=5)
    assert match.mode in {"letzte-stellung", "die-wachhunde", "der-brunnen"}


def test_the_tracker_renders_each_step_and_undo_keeps_the_log_true(
    grundregeln, user, client
) -> None:
    client.force_login(user)
    match = grund_match(user, grundregeln)
    url = f"/matches/{match.pk}/"
    assert "Roll for the round start" in client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    match = play(match, user, "roll_round_start")
    match = play(match, user, "choose_starter", player=0)
    state = engine_for(match).load_state(match.state)
    unit = next(m for m in state.side(0) if m.standing)
    target = next(m for m in state.side(1) if m.standing)
    page = client.get(f"{url}?unit={unit.id}", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "one action" in page and "Fight" in page
    wizard = client.get(f"{url}?unit={unit.id}&wizard=strike", HTTP_ACCEPT_LANGUAGE="en")
    assert "choose the target" in wizard.content.decode()
    match = play(match, user, "declare", unit=unit.id, action="strike", target=target.id)
    pending = client.get(f"{url}?unit={target.id}", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Reaktion von" in pending and "Blocken" in pending
    # The strike is measured after the reactions: its modifier, or another target (l. 114-115).
    assert 'name="args.modifier:int"' in pending and "Angriff umlenken" in pending
    # A reaction with a target opens the target choice below the declared action.
    choice = client.get(f"{url}?unit={target.id}&wizard=push", HTTP_ACCEPT_LANGUAGE="en")
    choice_page = choice.content.decode()
    assert "choose the target of its reaction" in choice_page and "pending-panel" in choice_page
    match = play(match, user, "react", unit=target.id, action="block")
    match = play(match, user, "resolve")
    match = play(match, user, "resolve")
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Dice" in page and "hit roll" in page
    assert engine_for(match).dump_state(match_rebuilt_state(match)) == match.state
    match = play(match, user, "undo")
    assert engine_for(match).dump_state(match_rebuilt_state(match)) == match.state


def test_a_command_form_posts_through_the_generic_view(grundregeln, user, client) -> None:
    client.force_login(user)
    match = grund_match(user, grundregeln)
    response = client.post(
        f"/matches/{match.pk}/command/",
        {"command": "roll_round_start", "expected_seq": str(match.seq), "idempotency_key": "k1"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    match.refresh_from_db()
    refused = client.post(
        f"/matches/{match.pk}/command/",
        {
            "command": "declare",
            "expected_seq": str(match.seq),
            "args.unit:int": "0",
            "args.action": "walk",
        },
        HTTP_HX_REQUEST="true",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert refused.status_code == 422
    assert "not possible at this point" in refused.content.decode()


def test_the_new_match_form_offers_two_seats_and_the_scenarios(grundregeln, user, client) -> None:
    client.force_login(user)
    grund_roster(user)
    page = client.get("/matches/new/grundregeln/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "id_roster_1" in page and "id_roster_2" not in page
    assert "Die Wachhunde" in page and "100 points" in page


def test_the_api_creates_a_match_and_lists_the_commands(grundregeln, user) -> None:
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(user)
    first, second = grund_roster(user, "eisenfaust"), grund_roster(user, "moorvolk")
    response = api.post(
        "/api/v1/matches/",
        {
            "system": "grundregeln",
            "mission": "der-brunnen",
            "players": [{"roster": first.pk}, {"roster": second.pk}],
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert response.json()["state"]["scenario"]["objectives"] == 1
    match_id = response.json()["id"]
    command = api.post(
        f"/api/v1/matches/{match_id}/commands/",
        {"type": "roll_round_start", "args": {}, "expected_seq": 1, "idempotency_key": "a"},
        format="json",
    )
    assert (
        command.status_code == 200 and command.json()["events"][0]["type"] == "round_start_rolled"
    )
    bad = api.post(
        f"/api/v1/matches/{match_id}/commands/",
        {"type": "declare", "args": {"unit": "x"}, "idempotency_key": "b"},
        format="json",
    )
    assert bad.status_code == 400 and bad.json()["code"] == "invalid_args"
    commands = api.get("/api/v1/systems/grundregeln/commands/").json()
    names = {c["type"] for c in (commands if isinstance(commands, list) else commands["commands"])}
    assert {"declare", "react", "resolve", "move_npc", "score_round"} <= names


def test_an_illegal_team_cannot_open_a_match(grundregeln, user) -> None:
    legal = grund_roster(user)
    illegal = grund_roster(user, "moorvolk", settings={"points_limit": 10})
    with pytest.raises(services.MatchError) as caught:
        services.match_create(
            creator=user,
            system=grundregeln,
            mode="die-wachhunde",
            seats=[services.Seat("A", legal), services.Seat("B", illegal)],
            settings={},
        )
    assert caught.value.code == "roster_illegal"


def test_the_tracker_offers_reactions_to_a_passive_npc_move(grundregeln, user, client) -> None:
    client.force_login(user)
    match = grund_match(user, grundregeln)
    match = play(match, user, "roll_round_start")
    match = play(match, user, "choose_starter", player=0)
    engine = engine_for(match)
    state = engine.load_state(match.state)
    while state.phase.value == "actions":
        unit = next(m for m in state.side(state.turn) if m.standing and not m.activated)
        match = play(match, user, "declare", unit=unit.id, action="walk")
        match = play(match, user, "resolve")
        state = engine.load_state(match.state)
    for hound in [m for m in state.models if m.active_npc]:
        match = play(match, user, "skip_npc", unit=hound.id)
    url = f"/matches/{match.pk}/"
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "moves a passive NPC" in page
    civilian = next(m for m in engine.load_state(match.state).models if m.passive_npc)
    match = play(match, user, "move_npc", unit=civilian.id, action="walk")
    # Anna moved it: Ben's models react, with any simple action aimed at any model (l. 65).
    reactor = engine.load_state(match.state).side(1)[0]
    page = client.get(f"{url}?unit={reactor.id}", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"Reaction of {reactor.name}" in page and "Blocken" in page
    push = client.get(f"{url}?unit={reactor.id}&wizard=push", HTTP_ACCEPT_LANGUAGE="en")
    push_page = push.content.decode()
    assert f"{reactor.name}: choose the target of its reaction" in push_page
    assert civilian.name in push_page and "on average" in push_page
    mover = engine.load_state(match.state).side(0)[0]
    page = client.get(f"{url}?unit={mover.id}", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"Reaction of {mover.name}" not in page
    match = play(match, user, "react", unit=reactor.id, action="block")
    match = play(match, user, "resolve")
    match = play(match, user, "resolve")
    state = engine.load_state(match.state)
    assert state.pending is None and state.turn == 1 and state.models[civilian.id].activated
    assert engine.dump_state(match_rebuilt_state(match)) == match.state


def test_the_generic_shell_heads_the_grundregeln_board(grundregeln, user, client) -> None:
    client.force_login(user)
    match = grund_match(user, grundregeln)
    page = client.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    start = page.index('<header class="tracker-head">')
    end = page.index("</header>", start)
    head = page[start:end]
    assert "Die Wachhunde · Round 1 of 4 · " in head
    assert '<span class="phase">Round start</span>' in head
    # The board between the shell's header and its log: scores, sides, the system's panels.
    assert end < page.index('class="scoreboard"') < page.index("Free roll")
    assert page.index("Scenario and rules") < page.index("Spectator link")
    assert 'class="badge sample"' in page  # the scenario's sample badge sits in its panel


def test_a_disabled_form_on_the_page_shows_the_engines_reason(grundregeln, user, client) -> None:
    client.force_login(user)
    match = grund_match(user, grundregeln)
    state = engine_for(match).load_state(match.state)
    civilian = next(m for m in state.models if m.passive_npc)
    page = client.get(f"/matches/{match.pk}/?unit={civilian.id}", HTTP_ACCEPT_LANGUAGE="en")
    html = page.content.decode()
    fall = html[html.index('value="fall"') : html.index("</form>", html.index('value="fall"'))]
    assert 'disabled aria-describedby="reason-fall"' in fall
    assert engine_for(match).refusal("npc_passive") == "Passive NPCs cannot be attacked."
    assert '<small class="reason" id="reason-fall">Passive NPCs cannot be attacked.</small>' in fall
