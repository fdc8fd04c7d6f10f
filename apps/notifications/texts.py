"""The words of a notification, written when it is read, in the reader's language.

A notification stores names and numbers only; the sentences are here, so the list page shows
each reader their own language and an old row reads as well as a new one. A name missing from
an older row reads as empty rather than breaking the page.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from django.utils import formats, timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from apps.notifications.models import Notification

Kind = Notification.Kind


class _Params(dict[str, object]):
    """The stored names; a missing one reads as an empty string."""

    def __missing__(self, key: str) -> str:
        return ""


def _when(value: object) -> str:
    """A stored ISO time as the reader's language writes a date and time, in local time."""
    parsed = parse_datetime(str(value)) if value else None
    if parsed is None:
        return ""
    if timezone.is_aware(parsed):
        parsed = timezone.localtime(parsed)
    return formats.date_format(parsed, "DATETIME_FORMAT")


def notification_text(kind: str, params: Mapping[str, object]) -> str:
    """The sentence the list page and the email show for a notification."""
    p = _Params(params)
    if kind == Kind.ROUND_PUBLISHED:
        if not p["opponent"]:
            return _("Round %(round)s of %(season)s (%(league)s) is published: you have a bye.") % p
        return (
            _(
                "Round %(round)s of %(season)s (%(league)s) is published: you play "
                "%(opponent)s at table %(table)s."
            )
            % p
        )
    if kind == Kind.RESULT_TO_CONFIRM:
        if p["tracked"]:
            return (
                _(
                    "Your tracked match %(a)s – %(b)s ended %(vp_a)s:%(vp_b)s (round %(round)s, "
                    "%(league)s). Confirm or dispute the result."
                )
                % p
            )
        return (
            _(
                "%(reporter)s reported %(a)s – %(b)s %(vp_a)s:%(vp_b)s (round %(round)s, "
                "%(league)s). Confirm or dispute the result."
            )
            % p
        )
    if kind == Kind.RESULT_DISPUTED:
        if not p["disputer"]:
            return (
                _(
                    "The result of %(a)s – %(b)s (round %(round)s, %(league)s) is disputed: "
                    "the tracked match says otherwise. The organisers decide."
                )
                % p
            )
        return (
            _(
                "%(disputer)s disputed the result of %(a)s – %(b)s (round %(round)s, "
                "%(league)s); the organisers decide. Reason: “%(reason)s”"
            )
            % p
        )
    if kind == Kind.RESULT_DECIDED:
        return (
            _(
                "An organiser set the result of %(a)s – %(b)s (round %(round)s, %(league)s) "
                "to %(vp_a)s:%(vp_b)s. Reason: “%(reason)s”"
            )
            % p
        )
    if kind == Kind.DEADLINE_SOON:
        if not p["counts_at"]:
            return (
                _(
                    "The result of your tracked match %(a)s – %(b)s (round %(round)s, "
                    "%(league)s) still waits for your answer: confirm or dispute it."
                )
                % p
            )
        return _(
            "Answer the result of %(a)s – %(b)s (round %(round)s, %(league)s) by %(when)s, "
            "or it counts as reported."
        ) % {**p, "when": _when(p["counts_at"])}
    return ""


def notification_subject(kind: str, params: Mapping[str, object]) -> str:
    """The email's subject line (without the site's prefix)."""
    p = _Params(params)
    subjects = {
        Kind.ROUND_PUBLISHED: _("Round %(round)s of %(season)s is published"),
        Kind.RESULT_TO_CONFIRM: _("A result waits for your confirmation"),
        Kind.RESULT_DISPUTED: _("A result was disputed"),
        Kind.RESULT_DECIDED: _("An organiser decided a result"),
        Kind.DEADLINE_SOON: _("A result still waits for your answer"),
    }
    return subjects.get(Kind(kind), "") % p if kind in Kind.values else ""


def iso(moment: datetime) -> str:
    """A time as stored in ``params``: ISO 8601 with its offset."""
    return moment.isoformat()
