"""Writes of notifications: telling players and organisers what happened in their leagues.

The league services call these inside their own transaction, so a notification exists exactly
when the change it tells of was committed; the emails are sent by a Celery task after the
commit, so a slow mail server never holds a request (apps.notifications.emails).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime, timedelta
from functools import partial

from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, QuerySet
from django.urls import reverse
from django.utils import timezone

from apps.accounts.models import User
from apps.leagues.models import MAX_CONFIRM_HOURS, League, Pairing, Result, Round, Season
from apps.notifications.models import Notification
from apps.notifications.texts import iso

logger = logging.getLogger(__name__)

Kind = Notification.Kind

# A waiting report is recalled to the player who must answer it this long before it counts.
REMIND_BEFORE = timedelta(hours=12)


def _with_names(pairings: QuerySet[Pairing]) -> QuerySet[Pairing]:
    """The pairings with what their texts name: league, season, round and both players."""
    return pairings.select_related("round__season__league", "player_a__player", "player_b__player")


def _pairing(pairing_id: int) -> Pairing:
    return _with_names(Pairing.objects.filter(pk=pairing_id)).get()


def _game_params(pairing: Pairing) -> dict[str, object]:
    """Names and numbers every league notification shows: league, season, round, players."""
    season = pairing.round.season
    return {
        "league": season.league.name,
        "season": season.name,
        "round": pairing.round.number,
        "table": pairing.table,
        "a": pairing.player_a.player.shown_name,
        "b": pairing.player_b.player.shown_name if pairing.player_b else "",
    }


def _pairing_url(pairing: Pairing) -> str:
    return reverse("leagues:pairing", args=[pairing.round.season.league.key, pairing.pk])


def _players(pairing: Pairing) -> list[User]:
    players = [pairing.player_a.player]
    if pairing.player_b is not None:
        players.append(pairing.player_b.player)
    return players


def _create(
    user_ids: Iterable[int],
    *,
    kind: str,
    league: League,
    pairing: Pairing,
    params: dict[str, object],
) -> list[Notification]:
    """One notification per user (each once), and their emails queued for after the commit."""
    rows = [
        Notification(
            user_id=user_id,
            kind=kind,
            league=league,
            pairing=pairing,
            params=params,
            url=_pairing_url(pairing),
        )
        for user_id in dict.fromkeys(user_ids)
    ]
    created = Notification.objects.bulk_create(rows)
    _email_on_commit([n.pk for n in created])
    return created


def _email_on_commit(notification_ids: list[int]) -> None:
    if notification_ids:
        # Robust: a failure to queue the mails must not turn the committed change into a 500.
        transaction.on_commit(partial(_enqueue_emails, notification_ids), robust=True)


def _enqueue_emails(notification_ids: list[int]) -> None:
    """Queue one email task per notification whose user wants emails and has an address.
    A broker that is down costs the emails, never the change that was just committed."""
    from apps.notifications.tasks import send_notification_email

    wanted = Notification.objects.filter(
        pk__in=notification_ids, user__email_notifications=True
    ).exclude(user__email="")
    for notification_id in wanted.values_list("pk", flat=True):
        try:
            send_notification_email.delay(notification_id)
        except Exception:  # kombu's connection errors differ per transport
            logger.exception("notification email %s could not be queued", notification_id)


def notify_round_published(round_: Round) -> list[Notification]:
    """Every player of the round learns their opponent and table, or their bye."""
    rows: list[Notification] = []
    for pairing in _with_names(Pairing.objects.filter(round=round_)):
        params = _game_params(pairing)
        sides = [(pairing.player_a, pairing.player_b)]
        if pairing.player_b is not None:
            sides.append((pairing.player_b, pairing.player_a))
        for player, opponent in sides:
            rows.append(
                Notification(
                    user_id=player.player_id,
                    kind=Kind.ROUND_PUBLISHED,
                    league=pairing.round.season.league,
                    pairing=pairing,
                    params={**params, "opponent": opponent.player.shown_name if opponent else ""},
                    url=_pairing_url(pairing),
                )
            )
    created = Notification.objects.bulk_create(rows)
    _email_on_commit([n.pk for n in created])
    return created


def _answerer(pairing: Pairing, result: Result) -> User | None:
    """The player who confirms or disputes the result: the side that did not report it."""
    if result.reported_side == "a" and pairing.player_b is not None:
        return pairing.player_b.player
    if result.reported_side == "b":
        return pairing.player_a.player
    return None


def notify_result_reported(result: Result) -> list[Notification]:
    """The opponent of whoever reported (a player, or the tracked match's opener) is asked to
    confirm or dispute it."""
    pairing = _pairing(result.pairing_id)
    answerer = _answerer(pairing, result)
    if answerer is None:
        return []
    reporter = pairing.player_a if result.reported_side == "a" else pairing.player_b
    params = {
        **_game_params(pairing),
        "vp_a": result.vp_a,
        "vp_b": result.vp_b,
        "reporter": reporter.player.shown_name if reporter else "",
        "tracked": result.source == Result.Source.TRACKED,
    }
    return _create(
        [answerer.pk],
        kind=Kind.RESULT_TO_CONFIRM,
        league=pairing.round.season.league,
        pairing=pairing,
        params=params,
    )


def notify_result_disputed(result: Result, *, actor_id: int | None) -> list[Notification]:
    """The organisers must decide; the players learn that they will. Whoever disputed (none,
    when a tracked match contradicted a report) is not told what they just did."""
    pairing = _pairing(result.pairing_id)
    league = pairing.round.season.league
    disputer = result.disputed_by if result.disputed_by_id else None
    params = {
        **_game_params(pairing),
        "disputer": disputer.shown_name if disputer else "",
        "reason": result.dispute_reason if disputer else "",
    }
    organisers = list(league.organisers.values_list("pk", flat=True))
    recipients = [*organisers, *(p.pk for p in _players(pairing))]
    return _create(
        [pk for pk in recipients if pk != actor_id],
        kind=Kind.RESULT_DISPUTED,
        league=league,
        pairing=pairing,
        params=params,
    )


def notify_result_decided(result: Result, *, actor_id: int | None) -> list[Notification]:
    """Both players learn the result an organiser set, and why."""
    pairing = _pairing(result.pairing_id)
    params = {
        **_game_params(pairing),
        "vp_a": result.vp_a,
        "vp_b": result.vp_b,
        "reason": result.decision_reason,
    }
    return _create(
        [p.pk for p in _players(pairing) if p.pk != actor_id],
        kind=Kind.RESULT_DECIDED,
        league=pairing.round.season.league,
        pairing=pairing,
        params=params,
    )


def _reminder_due(result: Result, now: datetime) -> datetime | None:
    """When the answer is due, if a reminder is due now; else None.

    A player's report counts on its own ``confirm_hours`` after it was made: remind in the last
    ``REMIND_BEFORE`` before that (not after: then it counts already). A tracked match's result
    never counts on its own, so nothing runs out; its answerer is reminded from the same moment
    a player's report would be, and then at any later run (once, as every reminder)."""
    due = result.reported_at + timedelta(hours=result.pairing.round.season.confirm_hours)
    if result.source == Result.Source.MANUAL:
        return due if now < due <= now + REMIND_BEFORE else None
    if result.source == Result.Source.TRACKED:
        return due if due - REMIND_BEFORE <= now else None
    return None


def deadline_reminders_send(*, now: datetime | None = None) -> int:
    """Remind each player whose answer to a report is due soon, once per game (the periodic
    task runs this; a second run, or two at once, sends nothing more: the database refuses a
    second reminder). Returns how many reminders were created."""
    now = now or timezone.now()
    reminded = Notification.objects.filter(kind=Kind.DEADLINE_SOON, pairing=OuterRef("pairing"))
    waiting = (
        Result.objects.filter(
            status=Result.Status.REPORTED,
            reported_side__in=["a", "b"],
            pairing__round__status=Round.Status.PUBLISHED,
            pairing__round__season__status=Season.Status.RUNNING,
        )
        .exclude(Exists(reminded))
        # A player's report older than the longest time to confirm counts already: not read.
        .exclude(
            source=Result.Source.MANUAL,
            reported_at__lt=now - timedelta(hours=MAX_CONFIRM_HOURS),
        )
        .select_related(
            "pairing__round__season__league",
            "pairing__player_a__player",
            "pairing__player_b__player",
        )
        .order_by("reported_at", "pk")
    )
    created: list[int] = []
    for result in waiting:
        due = _reminder_due(result, now)
        answerer = _answerer(result.pairing, result)
        if due is None or answerer is None:
            continue
        tracked = result.source == Result.Source.TRACKED
        notification = Notification(
            user=answerer,
            kind=Kind.DEADLINE_SOON,
            league=result.pairing.round.season.league,
            pairing=result.pairing,
            params={**_game_params(result.pairing), "counts_at": "" if tracked else iso(due)},
            url=_pairing_url(result.pairing),
        )
        try:
            with transaction.atomic():
                notification.save()
        except IntegrityError:
            continue  # another run reminded this player of this game just now
        created.append(notification.pk)
    _email_on_commit(created)
    return len(created)


def notification_mark_read(*, notification: Notification) -> Notification:
    """Opening a notification reads it; reading it again keeps the first time."""
    if notification.read_at is None:
        notification.read_at = timezone.now()
        Notification.objects.filter(pk=notification.pk, read_at__isnull=True).update(
            read_at=notification.read_at
        )
    return notification


def notifications_mark_all_read(*, user: User) -> int:
    """Every unread notification of the user is read now; returns how many were unread."""
    return Notification.objects.filter(user=user, read_at__isnull=True).update(
        read_at=timezone.now()
    )
