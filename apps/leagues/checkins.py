"""Check-in for a tournament day: each player says for the next round "I'm here" or "I can't
come"; organisers see everyone's answer and may give it for anyone.

Pairing a Swiss round leaves out the players who said they cannot come and, when the season
requires check-in, those who said nothing. They stay registered and are paired again the round
after. A round-robin season plays a schedule fixed at round 1, so check-in does not change
it; its pages do not offer check-in and the service refuses it.

An answer is kept per round number, given before that round exists; once the round is
paired (as a draft) its check-in is closed, and it opens again if the draft is discarded.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from django.db import transaction
from django.db.models import Count, Max, Q
from django.utils.translation import gettext as _

from apps.leagues.common import LeagueError, check_season_open, require_user
from apps.leagues.common import log_action as _log
from apps.leagues.models import CheckIn, LogEntry, Registration, Round, Season
from apps.leagues.selectors import AnyUser, league_access, season_get

Answer = Literal["present", "absent", "unknown"]


@dataclass(frozen=True)
class CheckInRow:
    registration: Registration
    answer: Answer


def closed_message() -> str:
    return _(
        "Check-in is closed: the next round is already paired, or the season plays "
        "round-robin (its schedule does not change)."
    )


def check_in_round(season: Season) -> int | None:
    """The round number check-in is open for (the next round, not yet paired), or None: the
    season is finished, plays round-robin, or its next round is paired as a draft."""
    if season.status == Season.Status.FINISHED:
        return None
    if season.pairing_method != Season.Method.SWISS:
        return None
    # One read for both: a draft waiting, and the last round's number.
    rounds = Round.objects.filter(season=season).aggregate(
        last=Max("number"), drafts=Count("pk", filter=Q(status=Round.Status.DRAFT))
    )
    if rounds["drafts"]:
        return None
    return (rounds["last"] or 0) + 1


def _answer(check_in: CheckIn | None) -> Answer:
    if check_in is None:
        return "unknown"
    return "present" if check_in.present else "absent"


def check_in_rows(season: Season, number: int) -> list[CheckInRow]:
    """Every active player of the season with their answer for round ``number``, by name."""
    registrations = list(
        Registration.objects.filter(season=season, dropped_at__isnull=True).select_related("player")
    )
    answers = {
        c.registration_id: c
        for c in CheckIn.objects.filter(registration__season=season, round_number=number)
    }
    rows = [CheckInRow(r, _answer(answers.get(r.pk))) for r in registrations]
    return sorted(rows, key=lambda row: row.registration.player.shown_name.casefold())


def check_in_counts(season: Season, number: int) -> dict[Answer, int]:
    """How many active players answered present, absent or nothing for round ``number``: one
    aggregate, so the season page can say it without listing every player."""
    answered = Q(check_ins__round_number=number)
    totals = Registration.objects.filter(season=season, dropped_at__isnull=True).aggregate(
        players=Count("pk", distinct=True),
        present=Count("check_ins", filter=answered & Q(check_ins__present=True)),
        absent=Count("check_ins", filter=answered & Q(check_ins__present=False)),
    )
    unknown = totals["players"] - totals["present"] - totals["absent"]
    return {"present": totals["present"], "absent": totals["absent"], "unknown": unknown}


def check_in_of(registration: Registration, number: int) -> Answer:
    return _answer(CheckIn.objects.filter(registration=registration, round_number=number).first())


def players_to_pair(season: Season, number: int, active: list[Registration]) -> list[Registration]:
    """``active`` less the players round ``number`` leaves out: the absent and, when the
    season requires check-in, those who did not check in. Call while holding the season lock
    (``round_pair`` does), so that an answer given meanwhile waits for the pairing."""
    if season.pairing_method != Season.Method.SWISS:
        return active
    answers = dict(
        CheckIn.objects.filter(registration__season=season, round_number=number).values_list(
            "registration_id", "present"
        )
    )
    if season.check_in_required:
        return [r for r in active if answers.get(r.pk) is True]
    return [r for r in active if answers.get(r.pk) is not False]


@transaction.atomic
def check_in_set(
    *,
    user: AnyUser,
    key: str,
    season_id: int,
    registration_id: int,
    answer: Answer,
) -> Answer:
    """Record ``answer`` for the next round: by the player themself, or by an organiser for
    anyone (logged). ``unknown`` takes an answer back."""
    actor = require_user(user)
    access = league_access(user, key)
    season = season_get(access, season_id, lock=True)
    check_season_open(season)
    registration = Registration.objects.filter(season=season, pk=registration_id).first()
    if registration is None:
        raise LeagueError("unknown_player", _("No such player in this season."), 404)
    own = registration.player_id == actor.pk
    if not own and not access.is_organiser:
        raise LeagueError(
            "not_your_check_in", _("Only organisers check in other players."), status=403
        )
    if registration.dropped_at is not None:
        raise LeagueError("player_dropped", _("This player has left the season."), 409)
    number = check_in_round(season)
    if number is None:
        raise LeagueError("no_check_in", closed_message(), 409)
    if answer not in ("present", "absent", "unknown"):
        raise LeagueError("invalid_answer", _("Answer present, absent or unknown."))
    if answer == "unknown":
        CheckIn.objects.filter(registration=registration, round_number=number).delete()
    else:
        CheckIn.objects.update_or_create(
            registration=registration,
            round_number=number,
            defaults={"present": answer == "present", "by": actor},
        )
    if not own:
        _log(
            access.league,
            LogEntry.Action.CHECK_IN_SET,
            actor=actor,
            season=season,
            round=number,
            name=registration.player.shown_name,
            answer=answer,
        )
    return answer
