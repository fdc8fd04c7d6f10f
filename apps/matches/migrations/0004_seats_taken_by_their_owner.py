"""Seats are held by their team's owner only once the owner takes them.

Until now a seat was given to its roster's owner when the match was opened, also when the
creator opened it with someone else's team from a share link, so that owner "played" (and
could be conceded for, and reported to a league) without ever acting. ``team_owner`` now
records whose team a seat plays; ``user`` is who holds it.

Existing seats: a seat whose user is not the match's creator was opened from a share link (a
creator can only seat someone else's team that way). It stays held if that user sent a command
in the match (they took part on their own login); otherwise it is released and waits for its
owner to take it, and the match leaves that user's list until they do.

The field comes in 0003 and the constraint that only a team's owner holds its seat in 0005:
PostgreSQL does not alter a table with row updates pending in the same transaction, so the
rows are changed in a migration of their own (both ways).
"""

from django.db import migrations
from django.db.models import Exists, F, OuterRef, Subquery


def seats_to_team_owners(apps, schema_editor):
    MatchPlayer = apps.get_model("matches", "MatchPlayer")
    MatchEvent = apps.get_model("matches", "MatchEvent")
    Roster = apps.get_model("rosters", "Roster")
    owners = Roster.objects.filter(pk=OuterRef("roster_id")).values("owner_id")[:1]
    MatchPlayer.objects.filter(roster__isnull=False).update(team_owner=Subquery(owners))
    MatchPlayer.objects.filter(roster__isnull=True).update(team_owner=F("user"))
    # Never the case today (roster owners do not change), but the new constraint needs it.
    MatchPlayer.objects.exclude(user__isnull=True).exclude(user=F("team_owner")).update(user=None)
    acted = MatchEvent.objects.filter(match=OuterRef("match_id"), actor=OuterRef("user_id"))
    released = (
        MatchPlayer.objects.exclude(user__isnull=True)
        .exclude(user=F("match__created_by"))
        .exclude(Exists(acted))
        .values_list("pk", flat=True)
    )
    MatchPlayer.objects.filter(pk__in=list(released)).update(user=None)


def seats_back_to_roster_owners(apps, schema_editor):
    MatchPlayer = apps.get_model("matches", "MatchPlayer")
    MatchPlayer.objects.filter(user__isnull=True, team_owner__isnull=False).update(
        user=F("team_owner")
    )


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0003_matchplayer_team_owner"),
        ("rosters", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(seats_to_team_owners, seats_back_to_roster_owners),
    ]
