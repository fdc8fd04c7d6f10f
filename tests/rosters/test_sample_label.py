"""Sample cards (invented for trying the app, not printed in the rulebook) say so in the builder."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from apps.catalog.models import Profile
from apps.catalog.services import profile_save
from apps.rosters import services
from apps.rosters.models import Roster, RosterEntry
from tests.rosters.factories import legal_standard_team

pytestmark = pytest.mark.django_db
SAMPLE_BADGE = '<span class="badge sample"'


@pytest.fixture
def roster(deathmatch, user) -> Roster:
    # Every shipped fighter is a sample so far; one becomes a printed card for the comparison.
    printed = Profile.objects.get(system=deathmatch, slug="phalanx-linienschuetze")
    profile_save(
        system=deathmatch,
        slug=printed.slug,
        name=printed.name,
        factions=list(printed.factions.all()),
        stats=printed.stats,
        sample=False,
    )
    document = legal_standard_team(faction="anaimaktos")
    document["entries"] = [
        {"profile": "anaimaktos-schnitter", "items": []},  # a sample fighter
        {"profile": "phalanx-linienschuetze", "items": []},  # a printed one
    ]
    return services.roster_import(owner=user, document=document)


def fighter_card(html: str, entry: RosterEntry) -> str:
    found = re.search(rf'<article [^>]*id="fighter-{entry.pk}".*?</article>', html, re.S)
    assert found, "the fighter's card is not in the builder"
    return found.group(0)


def test_a_sample_fighter_shows_its_sample_badge_in_the_builder(client, user, roster) -> None:
    sample, printed = RosterEntry.objects.filter(roster=roster).order_by("position")
    assert sample.profile.sample and not printed.profile.sample
    client.force_login(user)
    html = client.get(
        reverse("rosters:builder", args=[roster.pk]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    sample_card = fighter_card(html, sample)
    assert SAMPLE_BADGE in sample_card
    assert re.search(r'<span class="badge sample" title="[^"]+">sample</span>', sample_card)
    assert SAMPLE_BADGE not in fighter_card(html, printed)


def test_the_sample_badge_is_translated(client, user, roster) -> None:
    sample = RosterEntry.objects.get(roster=roster, position=1)
    client.force_login(user)
    html = client.get(
        reverse("rosters:builder", args=[roster.pk]), HTTP_ACCEPT_LANGUAGE="de"
    ).content.decode()
    assert re.search(
        r'<span class="badge sample" title="[^"]+">Beispiel</span>', fighter_card(html, sample)
    )
