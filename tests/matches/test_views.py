"""Tracker pages: every phase renders, taps apply commands, refusals and stale taps explain."""

from __future__ import annotations

import pytest
from django.test import Client

from apps.matches.models import Match, MatchEvent
from tests.accounts.factories import UserFactory
from tests.matches.factories import roster_for, small_match, small_team

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(deathmatch, user) -> Match:
    return small_match(user, deathmatch, gadgets=True)


@pytest.fixture
def browser(user) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


def tap(client: Client, match: Match, command: str, **fields: str) -> object:
    match.refresh_from_db()
    data = {"command": command, "expected_seq": str(match.seq), **fields}
    return client.post(f"/matches/{match.pk}/command/", data, HTTP_HX_REQUEST="true")


def test_setup_to_round_one_by_taps(browser, match) -> None:
    page = browser.get(f"/matches/{match.pk}/")
    assert page.status_code == 200
    assert b"Gadgets" in page.content
    assert (
        tap(
            browser, match, "choose_gadget", **{"args.player:int": "0", "args.option:int": "1"}
        ).status_code
        == 200
    )
    assert tap(browser, match, "flip_gadget", **{"args.player:int": "1"}).status_code == 200
    assert tap(browser, match, "deployment_flip").status_code == 200
    match.refresh_from_db()
    chooser = match.state["deployment_chooser"]
    assert (
        tap(
            browser, match, "choose_first_deployer", **{"args.player:int": str(chooser)}
        ).status_code
        == 200
    )
    response = tap(browser, match, "start_game")
    assert response.status_code == 200
    assert b"Flip for initiative" in response.content


def test_a_refused_tap_is_explained_and_changes_nothing(browser, match) -> None:
    before = MatchEvent.objects.filter(match=match).count()
    response = tap(browser, match, "pass")
    assert response.status_code == 422
    assert b"not possible at this point" in response.content
    assert MatchEvent.objects.filter(match=match).count() == before


def test_a_refusal_reads_in_the_readers_language(browser, match) -> None:
    # The engine's own refusal text is English; every code has a translatable message.
    url = f"/matches/{match.pk}/command/"
    fields = {"command": "accept", "expected_seq": str(match.seq), "idempotency_key": "k"}
    german = browser.post(url, fields, HTTP_ACCEPT_LANGUAGE="de", HTTP_HX_REQUEST="true")
    assert german.status_code == 422
    assert "Es wartet kein Flip." in german.content.decode()
    assert "There is no flip waiting." not in german.content.decode()


def test_a_stale_tap_shows_the_fresh_board(browser, match) -> None:
    data = {"command": "deployment_flip", "expected_seq": "0"}
    response = browser.post(f"/matches/{match.pk}/command/", data, HTTP_HX_REQUEST="true")
    assert response.status_code == 409
    assert b"Another device moved first" in response.content


def test_a_page_command_without_its_seq_is_refused_unapplied(browser, match) -> None:
    # Without expected_seq a tap from an old screen could not be told from a fresh one.
    seq = match.seq
    data = {"command": "deployment_flip", "idempotency_key": "no-seq"}
    response = browser.post(f"/matches/{match.pk}/command/", data, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert b"This page is out of date" in response.content
    match.refresh_from_db()
    assert match.seq == seq


def test_the_poll_answers_304_until_the_match_moves(browser, match) -> None:
    url = f"/matches/{match.pk}/poll/"
    first = browser.get(url)
    assert first.json() == {"seq": match.seq}
    assert browser.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    tap(browser, match, "skip_gadgets")
    assert browser.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200


def test_strangers_get_404_and_spectators_read_only(match) -> None:
    stranger = Client()
    stranger.force_login(UserFactory())
    assert stranger.get(f"/matches/{match.pk}/").status_code == 404
    assert (
        stranger.post(f"/matches/{match.pk}/command/", {"command": "skip_gadgets"}).status_code
        == 404
    )
    watcher = Client(HTTP_ACCEPT_LANGUAGE="en")
    page = watcher.get(f"/matches/watch/{match.spectator_token}/")
    assert page.status_code == 200
    assert b"read-only" in page.content
    assert b'name="command"' not in page.content


def test_new_match_form_opens_a_match(browser, user, deathmatch) -> None:
    first = roster_for(user, small_team("phalanx"))
    second = roster_for(user, small_team("shelzahav"))
    response = browser.post(
        "/matches/new/deathmatch/",
        {
            "mode": "random",
            "game_size": "3",
            "gadgets": "on",
            "name_0": "Anna",
            "roster_0": str(first.pk),
            "name_1": "Ben",
            "roster_1": str(second.pk),
        },
    )
    assert response.status_code == 302, response.content
    match = Match.objects.get()
    assert match.players.count() == 2
    page = browser.get(response["Location"])
    assert b"Game mode flipped at random" in page.content


def test_new_match_form_groups_the_modes_by_player_count(browser, deathmatch) -> None:
    """Each mode is listed once under how many players it is for, its name not repeating it."""
    page = browser.get("/matches/new/deathmatch/").content.decode()
    assert '<optgroup label="2 players">' in page
    assert '<optgroup label="3-4 players">' in page
    assert "(3-4 players) (3-4 players)" not in page
    assert page.index('value="last-man-standing"') < page.index('<optgroup label="3-4 players">')
    assert page.index('<optgroup label="3-4 players">') < page.index('value="mp-deathmatch"')


def test_new_match_refuses_a_team_of_the_wrong_size(browser, user, deathmatch) -> None:
    first = roster_for(user, small_team("phalanx"))
    second = roster_for(user, small_team("shelzahav"))
    response = browser.post(
        "/matches/new/deathmatch/",
        {
            "mode": "deathmatch",
            "game_size": "5",
            "roster_0": str(first.pk),
            "roster_1": str(second.pk),
        },
    )
    assert response.status_code == 422
    assert b"built for 3 fighters" in response.content
    assert not Match.objects.exists()


def to_first_turn(browser: Client, match: Match, starter: int | None = None) -> int:
    """Setup and round 1's initiative by taps (the winner lets ``starter`` begin, else
    begins); the player whose turn it is."""
    tap(browser, match, "skip_gadgets")
    tap(browser, match, "deployment_flip")
    match.refresh_from_db()
    tap(browser, match, "choose_first_deployer", **{"args.player:int": "0"})
    tap(browser, match, "start_game")
    tap(browser, match, "flip_initiative")
    match.refresh_from_db()
    while match.state["pending"] is not None:
        tap(browser, match, "accept")
        match.refresh_from_db()
    begins = match.state["awaiting_player"] if starter is None else starter
    tap(browser, match, "choose_starter", **{"args.player:int": str(begins)})
    match.refresh_from_db()
    turn: int = match.state["turn"]
    return turn


def first_activation(browser: Client, match: Match, *, ranged: bool = False) -> tuple[int, int]:
    """Round 1's first model activated (one with a ranged weapon if asked): (it, an enemy)."""
    turn = to_first_turn(browser, match)
    units = match.state["units"]
    unit = next(
        u["id"]
        for u in units
        if u["player"] == turn and (not ranged or any(w["kind"] == "ranged" for w in u["weapons"]))
    )
    enemy = next(u["id"] for u in units if u["player"] != turn)
    tap(browser, match, "activate", **{"args.unit:int": str(unit)})
    return unit, enemy


def events_of(match: Match, type_: str) -> list[dict]:
    return [
        e.data for e in MatchEvent.objects.filter(match=match, type=type_).order_by("seq", "pk")
    ]


def test_the_disengage_wizard_reports_a_fall_or_dangerous_terrain(browser, match) -> None:
    unit, enemy = first_activation(browser, match)
    page = browser.get(f"/matches/{match.pk}/?wizard=disengage")
    assert b"args.dangerous_terrain:bool" in page.content
    assert b"args.fall_height:int" in page.content
    response = tap(
        browser,
        match,
        "disengage",
        **{
            "args.strikes.0._on:bool": "true",
            "args.strikes.0.striker:int": str(enemy),
            "args.fall_height:int": "0",
            "args.dangerous_terrain:bool": "true",
            "args.confirm_flips:bool": "false",
        },
    )
    assert response.status_code == 200
    events = list(MatchEvent.objects.filter(match=match).order_by("seq", "pk"))
    (resolved,) = [e.data for e in events if e.type == "disengage_resolved"]
    causes = [e.data["attack"]["cause"] for e in events if e.type == "attack_declared"]
    assert causes == ([] if resolved["stopped"] else ["dangerous_terrain"])


def test_the_attack_wizard_offers_friendly_models_in_the_way(browser, match) -> None:
    # FERNKAMPF, Störende Modelle: any other model whose silhouette gives the target cover may
    # take the shot, a friend of the shooter as well as an enemy.
    unit, enemy = first_activation(browser, match, ranged=True)
    match.refresh_from_db()
    player = match.state["units"][unit]["player"]
    friend = next(
        u["id"] for u in match.state["units"] if u["player"] == player and u["id"] != unit
    )
    weapons = match.state["units"][unit]["weapons"]
    weapon = next(i for i, w in enumerate(weapons) if w["kind"] == "ranged")
    page = browser.get(f"/matches/{match.pk}/?wizard=ranged")
    assert f'name="in_the_way_{friend}"'.encode() in page.content
    assert f'name="in_the_way_{unit}"'.encode() not in page.content  # not the shooter
    page = browser.get(f"/matches/{match.pk}/?wizard=ranged&in_the_way_{friend}=1")
    assert f'name="args.targets.0.interferers:ints" value="{friend}"'.encode() in page.content
    response = tap(
        browser,
        match,
        "ranged_attack",
        **{
            "args.weapon:int": str(weapon),
            "args.targets.0.unit:int": str(enemy),
            "args.targets.0.cover": "cover",
            "args.targets.0.interferers:ints": str(friend),
            "args.confirm_flips:bool": "false",
        },
    )
    assert response.status_code == 200
    (declared,) = events_of(match, "attack_declared")[:1]
    assert declared["attack"]["targets"][0]["interferers"] == [friend]


def test_a_model_in_the_way_is_not_offered_as_the_target(browser, match) -> None:
    # Störende Modelle stand between shooter and target: the target is never one of them (the
    # engine refuses that with bad_interferer), so a model ticked as in the way is no target.
    unit, enemy = first_activation(browser, match, ranged=True)
    match.refresh_from_db()
    player = match.state["units"][unit]["player"]
    enemies = [u["id"] for u in match.state["units"] if u["player"] != player]
    target_button = 'name="args.targets.0.unit:int" value="{}"'
    page = browser.get(f"/matches/{match.pk}/?wizard=ranged").content.decode()
    assert all(target_button.format(e) in page for e in enemies)
    page = browser.get(f"/matches/{match.pk}/?wizard=ranged&in_the_way_{enemy}=1").content.decode()
    assert target_button.format(enemy) not in page
    assert f'name="args.targets.0.interferers:ints" value="{enemy}"' in page
    other = next(e for e in enemies if e != enemy)
    assert target_button.format(other) in page
    weapons = match.state["units"][unit]["weapons"]
    weapon = next(i for i, w in enumerate(weapons) if w["kind"] == "ranged")
    response = tap(
        browser,
        match,
        "ranged_attack",
        **{
            "args.weapon:int": str(weapon),
            "args.targets.0.unit:int": str(other),
            "args.targets.0.cover": "cover",
            "args.targets.0.interferers:ints": str(enemy),
            "args.confirm_flips:bool": "false",
        },
    )
    assert response.status_code == 200
    (declared,) = events_of(match, "attack_declared")[:1]
    assert declared["attack"]["targets"][0]["interferers"] == [enemy]


def test_the_tracker_offers_an_automatic_hit_that_credits_who_caused_it(browser, match) -> None:
    # A fall after Rückstoß: the model hit, the strength (the height), and who caused it
    # gets the knock-out (the command auto_hit; "Correct by hand" credits nobody).
    page = browser.get(f"/matches/{match.pk}/?unit=0")
    assert b'value="auto_hit"' not in page.content  # not while setting up
    unit, enemy = first_activation(browser, match)
    match.refresh_from_db()
    player = match.state["units"][unit]["player"]
    page = browser.get(f"/matches/{match.pk}/?unit={enemy}")
    assert b'value="auto_hit"' in page.content
    assert b'name="args.credit:int-or-null"' in page.content
    response = tap(
        browser,
        match,
        "auto_hit",
        **{
            "args.unit:int": str(enemy),
            "args.strength:int": "20",
            "args.cause": "fall",
            "args.credit:int-or-null": str(player),
            "selected": str(enemy),
        },
    )
    assert response.status_code == 200
    match.refresh_from_db()
    while match.state["attack"] is not None:
        assert b'value="auto_hit"' not in browser.get(f"/matches/{match.pk}/").content
        tap(browser, match, "accept")
        match.refresh_from_db()
    (declared,) = events_of(match, "attack_declared")
    assert declared["attack"]["cause"] == "fall" and declared["attack"]["credit"] == [player]
    (knocked,) = events_of(match, "knocked_out")
    assert knocked["unit"] == enemy and knocked["credit"] == [player]


def test_the_charge_wizard_reports_a_fall_or_dangerous_terrain(browser, match) -> None:
    unit, enemy = first_activation(browser, match)
    match.refresh_from_db()
    weapons = match.state["units"][unit]["weapons"]
    weapon = next(i for i, w in enumerate(weapons) if w["kind"] == "melee")
    page = browser.get(f"/matches/{match.pk}/?wizard=charge&weapon={weapon}")
    assert b"args.dangerous_terrain:bool" in page.content
    assert b"args.fall_height:int" in page.content
    response = tap(
        browser,
        match,
        "charge",
        **{
            "args.weapon:int": str(weapon),
            "args.targets.0.unit:int": str(enemy),
            "args.fall_height:int": "0",
            "args.dangerous_terrain:bool": "true",
            "args.confirm_flips:bool": "false",
        },
    )
    assert response.status_code == 200
    match.refresh_from_db()
    while match.state["attack"] is not None:
        tap(browser, match, "accept")
        match.refresh_from_db()
    causes = [e["attack"]["cause"] for e in events_of(match, "attack_declared")]
    assert causes[0] == "dangerous_terrain"
    assert causes[1:] in ([], [""])  # the attack follows unless the terrain knocked it out


def test_a_spray_attacks_nines_are_chosen_target_by_target(browser, match) -> None:
    # KRITISCHE TREFFER: the attacker picks each 9's effect "je nachdem was er gerade benötigt";
    # against several models that differs from model to model.
    to_first_turn(browser, match, starter=0)
    units = match.state["units"]
    flamer = next(u["id"] for u in units if u["player"] == 0 and u["name"] == "Brandmeister")
    foes = [u["id"] for u in units if u["player"] == 1][:2]
    tap(browser, match, "activate", **{"args.unit:int": str(flamer)})
    match.refresh_from_db()
    state = match.state
    deck = state["players"][0]["deck"]
    above = deck["above_turn"]
    above.remove(9)
    deck["above_turn"] = [9, *above]  # the hit flip shows a 9
    state["players"][0]["cp"] = 1  # so the flip waits for Anna's decision
    match.state = state
    match.save(update_fields=["state"])
    fields = {"args.targets.0.unit:int": str(foes[0]), "args.targets.1.unit:int": str(foes[1])}
    assert tap(browser, match, "ranged_attack", **fields).status_code == 200
    page = browser.get(f"/matches/{match.pk}/").content
    for index in (0, 1):
        assert f'name="args.critical_auto_hits_per_target.{index}:int"'.encode() in page
    assert b'name="args.critical_auto_hits:int"' not in page
    choice = {
        "args.critical_auto_hits_per_target.0:int": "1",
        "args.critical_auto_hits_per_target.1:int": "0",
    }
    assert tap(browser, match, "accept", **choice).status_code == 200
    (resolved,) = events_of(match, "hit_resolved")
    assert [t["crits_auto_hit"] for t in resolved["targets"]] == [1, 0]


def test_the_flip_offers_each_use_of_a_nine_with_what_it_does(browser, match) -> None:
    # KRITISCHE TREFFER: each 9 an automatic hit or ⬠ on the wound flip, as the attacker needs;
    # against a model the flip hits anyway an "automatic hit" only declines the boost. Every
    # option the page offers is one the engine applies.
    to_first_turn(browser, match, starter=0)
    units = match.state["units"]
    flamer = next(u["id"] for u in units if u["player"] == 0 and u["name"] == "Brandmeister")
    foe = next(u["id"] for u in units if u["player"] == 1)
    tap(browser, match, "activate", **{"args.unit:int": str(flamer)})
    match.refresh_from_db()
    state = match.state
    deck = state["players"][0]["deck"]
    above = deck["above_turn"]
    above.remove(9)
    plain = [c for c in above if c not in (0, 9)]
    deck["above_turn"] = [9, *plain, *(c for c in above if c in (0, 9))]  # one 9, no 0
    state["players"][0]["cp"] = 1  # so the flip waits for Anna's decision
    match.state = state
    match.save(update_fields=["state"])
    assert tap(browser, match, "ranged_attack", **{"args.targets.0.unit:int": str(foe)})
    match.refresh_from_db()
    (target,) = match.state["attack"]["targets"]
    assert 9 + target["attack_value"] > target["reflex"]  # the flip hits
    page = browser.get(f"/matches/{match.pk}/").content.decode()
    assert page.count('name="args.critical_auto_hits:int"') == 2
    assert "0 as automatic hit: hit, 1 ⬠ on the wound flip" in page
    assert "1 as automatic hit: hit, 0 ⬠ on the wound flip" in page
    assert 'value="0" checked' in page
    tap(browser, match, "accept", **{"args.critical_auto_hits:int": "1"})
    (resolved,) = events_of(match, "hit_resolved")
    assert [(t["crits_auto_hit"], t["crits_boost"]) for t in resolved["targets"]] == [(1, 0)]


def test_a_tap_replaces_the_address_only_when_it_changes(browser, match) -> None:
    # htmx stores a copy of the whole page in its history cache on every replace.
    url = f"/matches/{match.pk}/command/"
    tracker = f"http://testserver/matches/{match.pk}/"
    data = {"command": "skip_gadgets", "expected_seq": str(match.seq), "idempotency_key": "a"}
    same = browser.post(url, data, HTTP_HX_REQUEST="true", HTTP_HX_CURRENT_URL=tracker)
    assert same.status_code == 200
    assert "HX-Replace-Url" not in same
    match.refresh_from_db()
    data = {"command": "undo", "expected_seq": str(match.seq), "idempotency_key": "b"}
    wizard = f"{tracker}?wizard=ranged&unit=0"
    moved = browser.post(url, data, HTTP_HX_REQUEST="true", HTTP_HX_CURRENT_URL=wizard)
    assert moved["HX-Replace-Url"] == f"/matches/{match.pk}/"
