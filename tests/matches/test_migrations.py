"""Migration 0004: existing seats of teams opened from someone's share link (issue 15).

A seat whose user is not the match's creator can only have come from a share link. It stays
held if that user ever sent a command in the match; otherwise it is released for its owner to
take. Every seat learns whose team it plays."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from apps.matches.models import MatchEvent, MatchPlayer
from tests.accounts.factories import UserFactory
from tests.matches.factories import small_match

pytestmark = pytest.mark.django_db

migration = importlib.import_module("apps.matches.migrations.0004_seats_taken_by_their_owner")


def as_before(match) -> None:  # noqa: ANN001
    """The seats as the old code stored them: every seat held by its roster's owner."""
    for seat in match.players.select_related("roster"):
        MatchPlayer.objects.filter(pk=seat.pk).update(user=seat.roster.owner, team_owner=None)


def test_seats_opened_from_a_share_link_are_released_unless_their_user_played(deathmatch) -> None:
    alice, bob, carol = UserFactory(), UserFactory(), UserFactory()
    untouched = small_match(alice, deathmatch, opponent=bob)
    played = small_match(alice, deathmatch, opponent=carol)
    own = small_match(alice, deathmatch)
    orphan = small_match(alice, deathmatch, opponent=bob)
    for match in (untouched, played, own, orphan):
        as_before(match)
    MatchEvent.objects.filter(pk=played.events.first().pk).update(actor=carol)
    MatchPlayer.objects.filter(match=orphan, index=1).update(roster=None)

    migration.seats_to_team_owners(apps, None)

    def seats(match):  # noqa: ANN001, ANN202
        return [(s.user, s.team_owner) for s in match.players.order_by("index")]

    assert seats(untouched) == [(alice, alice), (None, bob)]
    assert seats(played) == [(alice, alice), (carol, carol)]
    assert seats(own) == [(alice, alice), (alice, alice)]
    assert seats(orphan) == [(alice, alice), (None, bob)]
    for seat in MatchPlayer.objects.all():
        seat.validate_constraints()
