"""A result proposed by a tracked match names its reporter: the side of the player who opened
the match. The other side confirms it (or an organiser decides); it never counts on its own.

Existing tracked results (found through their match link):

- in a season still running, a result waiting for an answer gets the side of the player who
  opened its match; one confirmed by that same side (which the new rules forbid: the reporter
  confirmed it, or a player confirmed a match they ran on their own) waits again for the other
  side; where the match or its creator's side cannot be found, the result goes to the
  organisers as a dispute;
- in a finished season, a result that counted after its hours to confirm passed is kept as
  counted (decided, with that reason), so the published standings stay as they were; one that
  had not counted yet is treated as in a running season;
- disputed and decided results stay as they are.

The old constraint goes in 0002 and the new one comes in 0004: PostgreSQL does not alter a
table with row updates pending in the same transaction, so the rows are changed in a migration
of their own (both ways).
"""

import re
from datetime import timedelta

from django.db import migrations
from django.utils import timezone

MATCH_LINK = re.compile(r"/matches/(\d+)/?$")
NO_REPORTER = "Tracked match without a player of this game who opened it: an organiser decides."
COUNTED = "Counted after %d hours without an answer (before tracked results needed one)."


def _reporter(result, Match):
    """The side ("a"/"b") and user of the player who opened the result's match, or ("", None)."""
    found = MATCH_LINK.search(result.match_url or "")
    match = Match.objects.filter(pk=int(found.group(1))).first() if found else None
    if match is None:
        return "", None
    pairing = result.pairing
    if match.created_by_id == pairing.player_a.player_id:
        return "a", match.created_by_id
    if pairing.player_b_id and match.created_by_id == pairing.player_b.player_id:
        return "b", match.created_by_id
    return "", None


def _to_organisers(result, now):
    result.status = "disputed"
    result.disputed_at = now
    result.dispute_reason = NO_REPORTER
    result.confirmed_side, result.confirmed_by_id, result.confirmed_at = "", None, None


def _waiting(result, side, reporter, now):
    if not side:
        _to_organisers(result, now)
        return
    result.status = "reported"
    result.reported_side, result.reported_by_id = side, reporter
    if result.confirmed_side == side:
        result.confirmed_side, result.confirmed_by_id, result.confirmed_at = "", None, None


def _migrate(result, Match, now):
    season = result.pairing.round.season
    deadline = result.reported_at + timedelta(hours=season.confirm_hours)
    if result.status == "reported" and season.status == "finished" and deadline <= now:
        result.status = "decided"
        result.decided_at = deadline
        result.decision_reason = COUNTED % season.confirm_hours
        return
    side, reporter = _reporter(result, Match)
    if result.status == "reported" or (
        result.status == "confirmed" and (not side or result.confirmed_side == side)
    ):
        _waiting(result, side, reporter, now)
    elif result.status == "confirmed":
        result.reported_side, result.reported_by_id = side, reporter


def tracked_results_name_their_reporter(apps, schema_editor):
    Result = apps.get_model("leagues", "Result")
    Match = apps.get_model("matches", "Match")
    now = timezone.now()
    tracked = Result.objects.filter(
        source="tracked", status__in=["reported", "confirmed"]
    ).select_related("pairing__round__season", "pairing__player_a", "pairing__player_b")
    for result in tracked:
        _migrate(result, Match, now)
        result.save()


def tracked_results_without_reporter(apps, schema_editor):
    """Back to the old shape: tracked results name no side."""
    Result = apps.get_model("leagues", "Result")
    Result.objects.filter(source="tracked").update(reported_side="")


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0002_result_reporter_constraint_removed"),
        ("matches", "0005_seat_held_by_team_owner"),
    ]

    operations = [
        migrations.RunPython(tracked_results_name_their_reporter, tracked_results_without_reporter),
    ]
