"""Pairing a big round as a Celery task, with its progress for the organiser's page.

A round of up to ``LEAGUES_PAIRING_TASK_ABOVE`` active players (default 128) is paired inside
the request, as before: a sparse Swiss pairing of that size takes a fraction of a second. A
larger Swiss round is paired by the task ``leagues.pair_round``; its state lives in the cache
under the season's key while it runs, so every web process sees the same job (the cache is
Redis whenever the broker is), and the organiser's page polls it.

Double submits: the job is claimed with ``cache.add``, which only one of two clicks wins; the
other gets the same job back and no second task is sent. Behind that, ``round_pair`` locks the
season and refuses a second draft, so even a lost claim cannot pair a round twice.

Without a broker (no CELERY_BROKER_URL: tasks run in-process) every round is paired inside the
request up to ``LEAGUES_PAIRING_INLINE_MAX`` players (default: the season's cap of 256, about
half a second), and a larger one is refused with a message rather than holding the request.
"""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass, replace
from typing import Final

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

from apps.accounts.models import User
from apps.leagues import rounds
from apps.leagues.common import LeagueError, check_season_open
from apps.leagues.models import Registration, Round, Season
from apps.leagues.selectors import AnyUser, league_access, season_get
from skirmish.celery import app as celery_app

logger = logging.getLogger(__name__)

QUEUED: Final = "queued"
RUNNING: Final = "running"
DONE: Final = "done"
FAILED: Final = "failed"
# A job whose worker died stops blocking the season once Celery would have killed the task.
JOB_SECONDS: Final = int(getattr(settings, "CELERY_TASK_TIME_LIMIT", 90)) + 30


def task_above() -> int:
    """Rounds of more active players than this are paired by the task."""
    return int(getattr(settings, "LEAGUES_PAIRING_TASK_ABOVE", 128))


def inline_max() -> int:
    """Without a broker, the largest round paired inside the request."""
    return int(getattr(settings, "LEAGUES_PAIRING_INLINE_MAX", 256))


@dataclass(frozen=True)
class PairingJob:
    """A round being paired by the task (``queued``/``running``), or how the last one ended
    (``done`` with the round's number, ``failed`` with the message for the organiser)."""

    season_id: int
    state: str
    done: int = 0
    total: int = 0
    message: str = ""
    number: int | None = None

    @property
    def active(self) -> bool:
        return self.state in (QUEUED, RUNNING)


def _key(season_id: int) -> str:
    return f"leagues:pairing:{season_id}"


def _last_key(season_id: int) -> str:
    return f"leagues:pairing:{season_id}:last"


def _job(data: object) -> PairingJob | None:
    return PairingJob(**data) if isinstance(data, dict) else None


def pairing_job(season_id: int) -> PairingJob | None:
    """The season's running job, else how its last one ended (for a few minutes)."""
    found = cache.get_many([_key(season_id), _last_key(season_id)])
    return _job(found.get(_key(season_id))) or _job(found.get(_last_key(season_id)))


def pairing_job_clear(season_id: int) -> None:
    """Forget how the last job ended, once the organiser has seen it."""
    cache.delete(_last_key(season_id))


def _in_process() -> bool:
    return bool(celery_app.conf.task_always_eager)


def round_pair_request(
    *, user: AnyUser, key: str, season_id: int, allow_rematches: bool = False, language: str
) -> Round | PairingJob:
    """Pair the next round now (a small round, or no broker), or start the task for a big
    Swiss round and return its job. A second request while a job runs gets that job back.

    What can be checked at once is checked before the task is sent, so that an incomplete
    previous round is reported at once rather than by a failed job."""
    access = league_access(user, key)
    access.require_organiser()
    season = season_get(access, season_id)
    check_season_open(season)
    running = _job(cache.get(_key(season_id)))
    if running is not None:
        return running
    rounds.check_previous_round_complete(season)
    players = Registration.objects.filter(season=season, dropped_at__isnull=True).count()
    small = players <= task_above() or season.pairing_method == Season.Method.ROUND_ROBIN
    if small or (_in_process() and players <= inline_max()):
        return rounds.round_pair(
            user=user, key=key, season_id=season_id, allow_rematches=allow_rematches
        )
    if _in_process():
        raise LeagueError("pairing_too_large", _too_large_message(players), status=503)
    return _start(season_id, access.user_id, allow_rematches, language)


def _too_large_message(players: int) -> str:
    return _(
        "Pairing is unavailable right now: without the task queue only rounds of up to "
        "%(limit)d players can be paired, and this one has %(count)d."
    ) % {"limit": inline_max(), "count": players}


def _start(season_id: int, user_id: int | None, allow_rematches: bool, language: str) -> PairingJob:
    from apps.leagues.tasks import pair_round

    job = PairingJob(season_id=season_id, state=QUEUED)
    if not cache.add(_key(season_id), asdict(job), JOB_SECONDS):
        # The other click won the claim: its job, not a second task.
        return _job(cache.get(_key(season_id))) or job
    pairing_job_clear(season_id)
    try:
        # Sent at once, not on commit: nothing was written, and the task reads only
        # committed rows. Bounded by CELERY_TASK_PUBLISH_RETRY_POLICY.
        pair_round.apply_async(args=(season_id, user_id, allow_rematches, language))
    except Exception:  # kombu's connection errors differ per transport
        logger.exception("pairing season %s could not be started", season_id)
        cache.delete(_key(season_id))
        raise LeagueError(
            "pairing_unavailable",
            _(
                "Pairing is unavailable right now: the task queue cannot be reached. "
                "Please try again in a few minutes."
            ),
            status=503,
        ) from None
    return job


def _finish(job: PairingJob) -> None:
    # The outcome is stored before the claim goes, so a poll in between never sees nothing.
    cache.set(_last_key(job.season_id), asdict(job), JOB_SECONDS)
    cache.delete(_key(job.season_id))


def pairing_job_run(*, season_id: int, user_id: int | None, allow_rematches: bool) -> str:
    """The task's work: pair the round, reporting progress to the job. Idempotent: a message
    delivered after its job finished (or expired) does nothing."""
    job = _job(cache.get(_key(season_id)))
    if job is None or not job.active:
        return "gone"
    job = replace(job, state=RUNNING)
    cache.set(_key(season_id), asdict(job), JOB_SECONDS)

    def progress(done: int, total: int) -> None:
        cache.set(_key(season_id), asdict(replace(job, done=done, total=total)), JOB_SECONDS)

    user = User.objects.filter(pk=user_id).first() if user_id is not None else None
    season = Season.objects.select_related("league").filter(pk=season_id).first()
    if user is None or season is None:
        _finish(replace(job, state=FAILED, message=_("The season or its organiser is gone.")))
        return FAILED
    try:
        round_ = rounds.round_pair(
            user=user,
            key=season.league.key,
            season_id=season_id,
            allow_rematches=allow_rematches,
            progress=progress,
        )
    except (LeagueError, PermissionDenied) as error:
        message = error.message if isinstance(error, LeagueError) else str(error)
        _finish(replace(job, state=FAILED, message=message))
        return FAILED
    except Exception:
        _finish(replace(job, state=FAILED, message=_("Pairing failed. Please try again.")))
        raise
    _finish(replace(job, state=DONE, number=round_.number))
    return DONE
