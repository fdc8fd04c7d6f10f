"""Stored matches survive a release: events and snapshots carry the schema version they were
written in, and a match stored by the previous version's shape opens, replays and goes on."""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from rest_framework.test import APIClient

from apps.catalog.models import GameSystem
from apps.matches.models import Match, MatchEvent, MatchPlayer, MatchStatus
from apps.matches.selectors import engine_for, match_state
from apps.matches.services import match_apply_command, match_rebuilt_state
from apps.systems.deathmatch.match.engine import DeathmatchEngine
from tests.matches.factories import small_match
from tests.systems.deathmatch.match.helpers import Game, default_team, setup
from tests.systems.deathmatch.match.version_1 import v1_event_data, v1_snapshot

pytestmark = pytest.mark.django_db
ENGINE = DeathmatchEngine()


def _stored_in_version_1(user: Any, system: GameSystem) -> tuple[Match, Game]:
    """A match whose log and snapshot are written as version 1 wrote them: a model that fell
    and touched dangerous terrain waits for the wound flip of the first automatic hit, the
    second queued in the attack."""
    teams = [default_team(0), default_team(1, command=1)]  # Ben's flip waits for his decision
    game = Game(setup("last-man-standing", teams))
    game.to_round_one()
    game.activate(0)
    game.stack(1, [3, 2])
    game.do("move", fall_height=4, dangerous_terrain=True)
    assert game.state.attack is not None and game.state.attack.queued_hits
    snapshot = v1_snapshot(ENGINE.dump_state(game.state))
    match = Match.objects.create(
        system=system,
        created_by=user,
        title="Anna vs Ben",
        mode="last-man-standing",
        status=MatchStatus.LIVE,
        seq=len(game.events),
        state=snapshot,
        state_version=1,
        spectator_token=secrets.token_urlsafe(24),
    )
    for index in (0, 1):
        MatchPlayer.objects.create(match=match, index=index, name=("Anna", "Ben")[index], user=user)
    MatchEvent.objects.bulk_create(
        MatchEvent(
            match=match,
            seq=seq,
            group=seq,
            round=0,
            type=event.type,
            data=v1_event_data(event),
            version=1,
        )
        for seq, event in enumerate(game.events, start=1)
    )
    return match, game


def test_a_match_stored_in_version_1_opens_and_goes_on(deathmatch, user) -> None:
    match, game = _stored_in_version_1(user, deathmatch)
    assert engine_for(match).schema_version == 4
    state = match_state(match)
    assert ENGINE.dump_state(state) == ENGINE.dump_state(game.state)
    assert ENGINE.dump_state(match_rebuilt_state(match)) == ENGINE.dump_state(game.state)
    while state.attack is not None:
        outcome = match_apply_command(
            user=user,
            match_id=match.pk,
            command_type="accept",
            args={},
            expected_seq=match.seq,
            idempotency_key=None,
        )
        match = outcome.match
        state = match_state(match)
        assert all(row.version == ENGINE.schema_version for row in outcome.events)
    match.refresh_from_db()
    assert match.state_version == ENGINE.schema_version
    assert ENGINE.dump_state(match_rebuilt_state(match)) == match.state
    assert state.unit(0).lp == 6 - 4 - 1  # the fall, then the dangerous terrain


def test_the_tracker_and_the_api_open_a_version_1_match(client, deathmatch, user) -> None:
    match, _game = _stored_in_version_1(user, deathmatch)
    client.force_login(user)
    assert client.get(f"/matches/{match.pk}/").status_code == 200
    assert client.get(f"/matches/{match.pk}/log.json").status_code == 200
    api = APIClient()
    api.force_authenticate(user)
    assert api.get(f"/api/v1/matches/{match.pk}/").status_code == 200
    assert api.get(f"/api/v1/matches/{match.pk}/events/?after=0").status_code == 200


def test_a_snapshot_with_a_field_a_later_release_removed_is_rebuilt_from_the_log(
    deathmatch, user
) -> None:
    match = small_match(user, deathmatch)
    truth = dict(match.state)
    Match.objects.filter(pk=match.pk).update(
        state={**truth, "a_field_since_removed": [1, 2]}, state_version=1
    )
    MatchEvent.objects.filter(match=match).update(version=1)
    match.refresh_from_db()
    assert ENGINE.dump_state(match_state(match)) == truth


def test_new_events_and_snapshots_carry_the_current_version(deathmatch, user) -> None:
    match = small_match(user, deathmatch)
    assert match.state_version == ENGINE.schema_version
    assert set(MatchEvent.objects.filter(match=match).values_list("version", flat=True)) == {
        ENGINE.schema_version
    }
