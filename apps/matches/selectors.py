"""Reads of matches: the permission-checked fetches every view goes through, the log, the state.

Who may do what: the match's creator and every user holding a seat in it are its
*participants* and may send commands (a command speaking for one seat, a secret choice or
conceding, only from that seat's user); anyone holding the spectator link may watch. The owner
of a team in a seat nobody holds yet may open the match to take that seat. Everyone else gets a
404, so a match's existence is not revealed.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, Protocol

from django.db import connection
from django.db.models import Prefetch, Q, QuerySet, prefetch_related_objects
from django.db.models.expressions import RawSQL
from django.http import Http404
from django.urls import reverse

from apps.accounts.models import User
from apps.common.http import form_number
from apps.leagues.models import Result
from apps.matches.models import UNDO_EVENT, Match, MatchEvent, MatchPlayer, MatchStatus
from apps.systems.core.engine import StateTooOld
from apps.systems.core.match import Event, MatchEngine, replay
from apps.systems.core.registry import registry

logger = logging.getLogger(__name__)

# The seats read with a match, in this order (``_seats_sql``).
SEAT_COLUMNS = ("id", "index", "name", "user_id", "team_owner_id", "roster_id")


def _participant_filter(user: User) -> Q:
    return Q(created_by=user) | Q(players__user=user)


def is_participant(user: User | Any, match: Match) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    if match.created_by_id == user.pk:
        return True
    known = _known_seats(user, match)
    return bool(known) if known is not None else match.players.filter(user=user).exists()


@cache
def _seats_sql() -> str:
    """The outer match's seats as one JSON array of ``SEAT_COLUMNS`` rows: every view and
    command of a participant needs them (the seats the user holds, the seats' names and owners
    on the page), and reading them with the match row saves a query each time (issue 16).
    Raw SQL because building the equivalent subquery with the ORM costs more CPU than the
    query it saves; unordered (SQLite's aggregate takes no ORDER BY), sorted when read."""
    quote = connection.ops.quote_name
    seat, match = quote(MatchPlayer._meta.db_table), quote(Match._meta.db_table)
    columns = ", ".join(f"{seat}.{quote(column)}" for column in SEAT_COLUMNS)
    if connection.vendor == "postgresql":
        rows = f"json_agg(json_build_array({columns}))::text"
    else:
        rows = f"json_group_array(json_array({columns}))"
    return f"SELECT {rows} FROM {seat} WHERE {seat}.{quote('match_id')} = {match}.{quote('id')}"


@cache
def _replayed_group_sql() -> str:
    """The command group stored with an idempotency key in the outer match, if any."""
    quote = connection.ops.quote_name
    event, match = quote(MatchEvent._meta.db_table), quote(Match._meta.db_table)
    return (
        f"SELECT {event}.{quote('group')} FROM {event}"
        f" WHERE {event}.{quote('match_id')} = {match}.{quote('id')}"
        f" AND {event}.{quote('idempotency_key')} = %s LIMIT 1"
    )


@cache
def _seat_fields() -> list[str]:
    """The seat columns and the match's id in the model's field order: ``from_db`` takes the
    values in that order, whatever the order of the names given."""
    read = {*SEAT_COLUMNS, "match_id"}
    return [f.attname for f in MatchPlayer._meta.concrete_fields if f.attname in read]


def _keep_seats(match: Match, seats: str | None) -> None:
    """Keep the seats read with ``match`` as its prefetched players (``match.players.all()``
    and ``match_players`` answer from them), without the teams' documents, as
    ``match_players`` reads them."""
    rows = sorted(json.loads(seats or "[]") or [], key=lambda row: row[1])
    names = _seat_fields()
    players = []
    for row in rows:
        values = {**dict(zip(SEAT_COLUMNS, row, strict=True)), "match_id": match.pk}
        player = MatchPlayer.from_db(connection.alias, names, [values[name] for name in names])
        player.match = match
        players.append(player)
    kept = match.players.all()
    kept._result_cache = players
    kept._prefetch_done = True
    match._prefetched_objects_cache = {"players": kept}


def _known_seats(user: User, match: Match) -> list[int] | None:
    """The seats ``user`` holds as read with the match (its prefetched players); ``None`` when
    they were not read."""
    players = getattr(match, "_prefetched_objects_cache", {}).get("players")
    if players is None:
        return None
    return sorted(player.index for player in players if player.user_id == user.pk)


def seats_changed(match: Match) -> None:
    """Forget the seats read with ``match``: someone took one since."""
    getattr(match, "_prefetched_objects_cache", {}).pop("players", None)


def _match_or_404(
    match_id: int,
    *,
    lock: bool,
    allowed: Callable[[Match], bool],
    state: bool = True,
    key: str | None = None,
) -> Match:
    """The match if ``allowed`` lets the user see it, else 404 (no match and no access look
    the same); with ``lock`` its row is locked until the transaction ends. Without ``state``
    its snapshot is read only if it is asked for.

    Read without the lock, it carries its seats (``_keep_seats``) and, with ``key``,
    ``replayed_group``: the group a command with that idempotency key was stored in (``None``
    if none was). A locked read carries neither: it may wait for the lock inside its
    statement, and PostgreSQL answers a subquery of that statement as it stood before the
    wait, without what the transaction it waited for wrote (a seat taken, a command stored)."""
    queryset = Match.objects.select_related("system")
    if lock:
        # Lock the match row alone (select_related tables stay unlocked: PostgreSQL would
        # otherwise lock the game system row for every command of every match).
        queryset = queryset.select_for_update(of=("self",))
    else:
        queryset = queryset.annotate(seats=RawSQL(_seats_sql(), []))
        if key:
            queryset = queryset.annotate(replayed_group=RawSQL(_replayed_group_sql(), [key]))
    if not state:
        queryset = queryset.defer("state")
    match = queryset.filter(pk=match_id).first()
    if match is not None and not lock:
        _keep_seats(match, match.seats)
    if match is None or not allowed(match):
        raise Http404
    return match


def match_for_participant(
    user: User | Any,
    match_id: int,
    *,
    lock: bool = False,
    state: bool = True,
    key: str | None = None,
) -> Match:
    """A match the user plays in; with ``lock`` its row is locked until the transaction ends
    (commands from several devices apply one after the other). ``state`` and ``key``: as
    ``_match_or_404`` reads them."""
    if not getattr(user, "is_authenticated", False):
        raise Http404
    return _match_or_404(
        match_id,
        lock=lock,
        allowed=lambda match: is_participant(user, match),
        state=state,
        key=key,
    )


def match_for_seat_taker(user: User | Any, match_id: int, *, lock: bool = False) -> Match:
    """A match the user plays in or has a team in whose seat nobody holds yet (theirs to
    take); 404 for anyone else."""
    if not getattr(user, "is_authenticated", False):
        raise Http404
    return _match_or_404(
        match_id,
        lock=lock,
        allowed=lambda match: is_participant(user, match) or bool(open_seats(user, match)),
    )


def open_seats(user: User | Any, match: Match) -> list[MatchPlayer]:
    """The seats of ``match`` playing the user's teams that nobody holds yet."""
    if not getattr(user, "is_authenticated", False):
        return []
    return list(match.players.filter(team_owner=user, user__isnull=True).order_by("index"))


def open_seats_for_user(user: User, *, limit: int = 20) -> list[MatchPlayer]:
    """The newest seats in other people's matches that play the user's teams and wait for them
    to take them (a bounded list: anyone holding a share link can open such a match)."""
    return list(
        MatchPlayer.objects.filter(team_owner=user, user__isnull=True)
        .exclude(match__created_by=user)
        .select_related("match__system", "match__created_by")
        .order_by("-match__created_at", "-match_id", "index")[:limit]
    )


def match_for_viewer(user: User | Any, match_id: int, token: str = "") -> Match:
    """A match the user plays in, or any match whose spectator token is given."""
    match = Match.objects.select_related("system").filter(pk=match_id).first()
    if match is None:
        raise Http404
    if token and token == match.spectator_token:
        return match
    if not is_participant(user, match):
        raise Http404
    return match


def match_by_spectator_token(token: str) -> Match:
    match = (
        Match.objects.select_related("system").filter(spectator_token=token).first()
        if token
        else None
    )
    if match is None:
        raise Http404
    return match


def match_list_for_user(user: User, *, archived: bool = False) -> QuerySet[Match]:
    """The user's matches: those not archived, or (``archived``) only the archived ones."""
    return (
        Match.objects.filter(_participant_filter(user), archived_at__isnull=not archived)
        .distinct()
        .select_related("system")
        .prefetch_related("players")
    )


def matches_in_progress_for_user(user: User, *, limit: int = 5) -> list[Match]:
    """The user's unfinished matches not archived, the one played last first: the ones to
    resume."""
    seated = MatchPlayer.objects.filter(user=user).values("match_id")
    return list(
        Match.objects.filter(Q(created_by=user) | Q(pk__in=seated), archived_at__isnull=True)
        .exclude(status=MatchStatus.FINISHED)
        .select_related("system")
        .order_by("-updated_at", "-pk")[:limit]
    )


def match_in_league_record(match: Match) -> bool:
    """Does a league game record this match's result? A tracked result links the match's
    tracker page (``match_report_to_leagues``); a report by hand may link it too."""
    path = reverse("matches:tracker", args=[match.pk])
    return Result.objects.filter(match_url__endswith=path).exists()


def match_seq_for_viewer(user: User | Any, match_id: int, token: str = "") -> int:
    """The seq alone, with the viewer's permission checked in as few queries as possible:
    every open tracker asks for it every second or two."""
    row = (
        Match.objects.filter(pk=match_id)
        .values_list("seq", "spectator_token", "created_by_id")
        .first()
    )
    if row is None:
        raise Http404
    seq, spectator_token, creator = row
    if token and token == spectator_token:
        return int(seq)
    if not getattr(user, "is_authenticated", False):
        raise Http404
    if creator != user.pk and not Match.objects.filter(pk=match_id, players__user=user).exists():
        raise Http404
    return int(seq)


def seats_held(user: User | Any, match: Match) -> list[int]:
    """The seats (player indices) ``user`` holds: theirs to make secret choices and concede
    for and to see the secrets of."""
    if not getattr(user, "is_authenticated", False):
        return []
    known = _known_seats(user, match)
    if known is not None:
        return known
    # Unordered in SQL: the default ordering would join the match table only to sort.
    return sorted(match.players.filter(user=user).order_by().values_list("index", flat=True))


def match_players(match: Match) -> list[MatchPlayer]:
    """The match's seats in order, read once and kept on the match: ``match.players.all`` (and
    ``count``) in the tracker's templates, its clock, its open seats and the seats a user holds
    all answer from them. Without the teams' documents, which the tracker never shows (the
    largest part of each row); the owners of the seats nobody holds yet come in a second query
    only where there are such seats (``_seats.html`` names them)."""
    seats = MatchPlayer.objects.order_by("index").defer("roster_document")
    prefetch_related_objects([match], Prefetch("players", queryset=seats))
    players = list(match.players.all())
    prefetch_related_objects(
        [p for p in players if p.user_id is None and p.team_owner_id is not None], "team_owner"
    )
    return players


def viewer_seat(user: User | Any, match: Match, requested: str = "") -> int | None:
    """The seat whose hidden information a reader of the API may see: the ``requested`` seat
    (``?seat=``) if they hold it, else the one seat they hold; ``None`` (nothing hidden shown)
    for spectators and for a user holding several seats without naming one."""
    held = seats_held(user, match)
    seat = form_number(requested)
    if seat is not None and seat in held:
        return seat
    return held[0] if len(held) == 1 else None


def engine_for(match: Match) -> MatchEngine:
    engine = registry().get(match.system.slug).matches
    if engine is None:
        raise Http404
    return engine


def match_state(match: Match) -> Any:
    """The match's state from its snapshot. A snapshot written by an older release is brought
    to the engine's current shape by its upgrades, or, where none reaches it, rebuilt from the
    log (the truth); the next command stores it in the current shape."""
    engine = engine_for(match)
    if match.state_version == engine.schema_version:
        return engine.load_state(match.state)
    try:
        return engine.load_state(engine.upgrade_state(match.state, match.state_version))
    except StateTooOld:
        pass
    except Exception:  # an old snapshot the upgrades do not make readable: the log still is
        logger.warning(
            "match %s: snapshot v%s unreadable, replaying", match.pk, match.state_version
        )
    return replay(engine, effective_events(engine, list(event_rows(match))))


def stored_event(engine: MatchEngine, row: LogRow) -> Event:
    """The event of a log row in the engine's current shape (upgraded from the row's version)."""
    event = Event(row.type, row.data)
    return (
        event if row.version == engine.schema_version else engine.upgrade_event(event, row.version)
    )


def event_rows(match: Match, *, after: int = 0) -> QuerySet[MatchEvent]:
    return MatchEvent.objects.filter(match=match, seq__gt=after).order_by("seq")


def undone_groups(rows: Sequence[LogRow]) -> set[int]:
    return {row.data["group"] for row in rows if row.type == UNDO_EVENT}


def undo_markers(match: Match) -> QuerySet[MatchEvent]:
    """The undo markers of a match, read through the (match, type) index. Unordered: the
    model's default ordering would join the match table and sort by it."""
    return MatchEvent.objects.filter(match=match, type=UNDO_EVENT).order_by()


def undone_groups_of(match: Match) -> set[int]:
    """The commands undone in a match, without reading the whole log."""
    return {data["group"] for data in undo_markers(match).values_list("data", flat=True)}


# What the tracker's log lines read of a row (``recent.py``): the rest (actor, key, time) would
# be decoded for every recent row of every render.
LOG_LINE_FIELDS = ("seq", "group", "round", "type", "data", "version")


class LogRow(Protocol):
    """What the log's readers use of a row: a ``MatchEvent``, or the plain rows of
    ``recent_event_rows``."""

    seq: int
    group: int
    round: int
    type: str
    data: Any
    version: int


def recent_event_rows(match: Match, count: int) -> list[LogRow]:
    """The latest ``count`` rows, oldest first, with the fields of ``LOG_LINE_FIELDS``.

    A match's seqs run 1, 2, 3 … up to ``match.seq``, so the latest rows are a range of the
    (match, seq) index. Asked as "this match, newest first, the first ``count``", PostgreSQL
    planned by its statistics: for a match whose log grew since they were taken it read and
    sorted every row of the match (1,540 for 32 in the bench, a third of a tap's time). Never
    past ``match.seq``: a command committed since belongs to a later render."""
    latest = (
        MatchEvent.objects.filter(match=match, seq__gt=match.seq - count, seq__lte=match.seq)
        .order_by("-seq")
        .values_list(*LOG_LINE_FIELDS, named=True)
    )
    # Plain rows, not model instances: they are read on every tap and every refresh.
    return list(reversed(latest[:count]))


def can_undo(match: Match, undone: set[int]) -> bool:
    """Is there a command after the opening of the match that is not undone yet? An undo is
    never undone, nor are the events it keeps (logged in the undo marker's group), exactly as
    ``services._undo`` picks its target."""
    undo_groups = MatchEvent.objects.filter(match=match, type=UNDO_EVENT).values("group")
    return (
        MatchEvent.objects.filter(match=match, group__gt=1)
        .exclude(group__in=undo_groups)
        .exclude(group__in=undone)
        .exists()
    )


def recent_undo(match: Match, rows: Sequence[LogRow]) -> tuple[set[int], bool]:
    """For the tracker, from its latest ``rows``: the groups undone among them, as
    ``undone_groups_of`` has them for these rows, and whether an undo is possible
    (``can_undo``), in the usual case without reading the undo markers of the whole log.

    Why the rows suffice: an undo marker comes after every event of the command it undoes, so
    the marker of any command among the rows is among them too; and a command's group is the
    seq of its first event, where an undo's marker is, so a group starting inside the rows
    shows whether it is an undo. A command standing among them settles ``can_undo``; where
    none does, the exact queries answer (the same two at any length of the log)."""
    undone = undone_groups(rows)
    first = rows[0].seq if rows else 0
    not_undoable = undone | {row.group for row in rows if row.type == UNDO_EVENT}
    if any(row.group > 1 and row.group >= first and row.group not in not_undoable for row in rows):
        return undone, True
    return undone, can_undo(match, undone_groups_of(match))


def effective_events(engine: MatchEngine, rows: list[MatchEvent]) -> list[Event]:
    """The events that make the state, in the current shape: every event but undo markers and
    undone commands."""
    undone = undone_groups(rows)
    return [
        stored_event(engine, row)
        for row in rows
        if row.type != UNDO_EVENT and row.group not in undone
    ]
