"""Writes to matches: create one from saved teams, apply a command, undo.

``match_apply_command`` is the one path every device and the API take: it lets the system
decide on the match as read, stores that decision only if the seq has not moved meanwhile (the
write takes the match row lock), and otherwise works under the row lock: it answers a repeated
idempotency key with the first answer, refuses a command decided on an old seq
(``StaleCommand``) or decides again. The events and the new snapshot are written in one
transaction, and followers are told after the commit.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any

from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.accounts.models import User
from apps.catalog.models import GameSystem, Mission
from apps.leagues.models import Pairing, Result
from apps.leagues.services import league_result_propose_from_match
from apps.matches import seqcache, snapshots, tracker_head
from apps.matches.errors import MatchError as MatchError
from apps.matches.errors import NotYourMatch as NotYourMatch
from apps.matches.errors import NotYourSeat as NotYourSeat
from apps.matches.models import UNDO_EVENT, Match, MatchEvent, MatchPlayer, MatchStatus
from apps.matches.selectors import (
    effective_events,
    engine_for,
    event_rows,
    match_for_participant,
    match_for_seat_taker,
    match_in_league_record,
    match_state,
    seats_changed,
    seats_held,
)
from apps.matches.teams import Seat as Seat
from apps.matches.teams import checked_team, match_settings
from apps.systems.core.errors import RuleViolation
from apps.systems.core.match import Command, Event, MatchEngine, replay
from apps.systems.core.registry import registry

MAX_PLAYERS = 4
MAX_ACTIVE_MATCHES_PER_USER = 200


class StaleCommand(Exception):
    """The command was decided on an older seq than the match has now."""

    def __init__(self, match: Match) -> None:
        super().__init__("stale")
        self.match = match


@dataclass(frozen=True)
class CommandOutcome:
    match: Match
    events: list[MatchEvent]
    replayed: bool = False
    # The state after the command, as stored (its readers need not decode the snapshot again);
    # None for a replayed idempotency key.
    state: Any = None


def _server_rng() -> Random:
    # Server randomness is the operating system's; tests pass a seeded Random instead.
    return secrets.SystemRandom()


@transaction.atomic
def match_create(
    *,
    creator: User,
    system: GameSystem,
    mode: str,
    seats: Sequence[Seat],
    settings: Mapping[str, Any],
    rng: Random | None = None,
    league_pairing: Pairing | None = None,
) -> Match:
    """A new match of saved teams (the creator's own or shared ones), checked against the
    match's settings, opened by the system's engine. The creator holds the seats of their own
    teams; a shared team's seat is held by no one until its owner takes it (``match_take_seat``),
    so the match is neither in that owner's list nor counted against their quota."""
    engine = registry().get(system.slug).matches
    if engine is None:
        raise MatchError(
            "no_tracker", _("%(system)s has no match tracker yet.") % {"system": system.name}
        )
    if not 2 <= len(seats) <= MAX_PLAYERS:
        raise MatchError("players", _("A match needs 2 to 4 players."))
    live = Match.objects.filter(created_by=creator).exclude(status=MatchStatus.FINISHED).count()
    if live >= MAX_ACTIVE_MATCHES_PER_USER:
        raise MatchError("match_quota", _("Finish some of your running matches first."))
    settings = match_settings(engine, system, settings)
    sizing = registry().get(system.slug).sizing
    team_settings = {
        **{key: value for key, value in settings.items() if key == sizing.setting},
        **engine.roster_settings(mode),
    }
    teams = [checked_team(engine, seat, team_settings, system) for seat in seats]
    # Systems whose missions are data (Grundregeln's scenarios) read them from the catalogue;
    # the engine copies the one it plays into its events, so later edits never change a match.
    missions = [
        {"slug": m.slug, "name": m.name, "data": m.data}
        for m in Mission.objects.filter(system=system).order_by("pk")
    ]
    setup = {**settings, "mode": mode, "missions": missions, "players": teams}
    events = engine.start(setup, rng or _server_rng())
    state = replay(engine, events)
    match = Match.objects.create(
        system=system,
        created_by=creator,
        title=" vs ".join(team["name"] for team in teams)[:120],
        mode=engine.mode_of(state) or mode,
        state=engine.dump_state(state),
        state_version=engine.schema_version,
        spectator_token=secrets.token_urlsafe(24),
        league_pairing=league_pairing,
    )
    MatchPlayer.objects.bulk_create(
        MatchPlayer(
            match=match,
            index=index,
            name=team["name"][:40],
            # A team from someone else's share link: its seat waits for its owner to take it.
            user=seat.held_by(creator),
            team_owner=seat.team_owner,
            roster=seat.roster,
            roster_document=seat.saved_document(),
        )
        for index, (seat, team) in enumerate(zip(seats, teams, strict=True))
    )
    _append(match, engine, rounds=[0] * len(events), events=events, actor=creator, key=None)
    match.save()
    return match


def _append(
    match: Match,
    engine: MatchEngine,
    *,
    rounds: Sequence[int],
    events: list[Event],
    actor: User | None,
    key: str | None,
) -> list[MatchEvent]:
    """Write the log rows of one command, numbered after the match's seq, and move the seq:
    the group is the seq of the command's first event, and only that row carries the
    idempotency key."""
    group = match.seq + 1
    rows = [
        MatchEvent(
            match=match,
            seq=group + offset,
            group=group,
            round=round_,
            type=event.type,
            data=dict(event.data),
            version=engine.schema_version,
            actor=actor,
            idempotency_key=key if offset == 0 else None,
        )
        for offset, (event, round_) in enumerate(zip(events, rounds, strict=True))
    ]
    MatchEvent.objects.bulk_create(rows)
    match.seq += len(rows)
    return rows


def _snapshot_fields(match: Match, engine: MatchEngine, state: Any, seq: int) -> dict[str, Any]:
    """The columns a command writes to its match: the snapshot of ``state``, the status and
    result it gives, and the seq after the command's events (the match itself is unchanged)."""
    fields: dict[str, Any] = {
        "state": engine.dump_state(state),
        "state_version": engine.schema_version,
        "seq": seq,
        "updated_at": timezone.now(),
    }
    if engine.finished(state):
        finished = match.status == MatchStatus.FINISHED
        fields.update(
            status=MatchStatus.FINISHED,
            result=engine.result(state),
            finished_at=match.finished_at if finished else timezone.now(),
        )
    else:
        fields.update(
            status=MatchStatus.LIVE if engine.round_of(state) else MatchStatus.SETUP,
            result=None,
            finished_at=None,
        )
    return fields


def _store_state(match: Match, engine: MatchEngine, state: Any) -> None:
    fields = _snapshot_fields(match, engine, state, match.seq)
    _adopt(match, fields)
    # No full_clean: the values come from the engine, and full_clean would query the database
    # once per constraint on every tap; the constraints themselves stay in the database.
    match.save(update_fields=list(fields))


def _adopt(match: Match, fields: Mapping[str, Any]) -> None:
    """Give ``match`` the columns written for it, and have polls learn its new seq on commit
    (they answer from the cached seq, apps.matches.seqcache)."""
    for name, value in fields.items():
        setattr(match, name, value)
    seqcache.remember_on_commit(match.pk, seqcache.nonce_of(match.spectator_token), match.seq)


def _replayed(match: Match, key: str) -> CommandOutcome | None:
    first = MatchEvent.objects.filter(match=match, idempotency_key=key).first()
    if first is None:
        return None
    rows = list(MatchEvent.objects.filter(match=match, group=first.group).order_by("seq"))
    return CommandOutcome(match=match, events=rows, replayed=True)


@dataclass(frozen=True)
class _Decided:
    """A command decided on the snapshot at ``seq``: its events, the round each leaves the
    match in and the state after them, or the refusal the rules gave."""

    match: Match
    seq: int
    events: list[Event]
    rounds: list[int]
    state: Any
    refusal: RuleViolation | None = None


def _decide(engine: MatchEngine, match: Match, command: Command, rng: Random) -> _Decided:
    state = match_state(match)
    try:
        events = engine.decide(state, command, rng)
    except RuleViolation as refusal:
        return _Decided(match, match.seq, [], [], state, refusal)
    # Each event is logged in the round it leaves the match in: "Round 2 begins" is R2.
    rounds = []
    for event in events:
        state = engine.apply(state, event)
        rounds.append(engine.round_of(state))
    return _Decided(match, match.seq, events, rounds, state)


def _decided_unlocked(
    user: User,
    match_id: int,
    command: Command,
    expected_seq: int | None,
    rng: Random,
    key: str | None,
) -> _Decided | None:
    """The command decided on the match as it stands, before its row is locked: a decision may
    compute exact odds (Grundregeln, Universalis), which must not hold up every other device
    of the match (issue 16). ``None`` when there is nothing to decide yet (an undo, a stale
    seq, a key already answered); the locked section decides again only if another command
    came in between."""
    if command.type == "undo":
        return None
    match = match_for_participant(user, match_id, key=key)
    if expected_seq is not None and expected_seq != match.seq:
        return None
    if getattr(match, "replayed_group", None) is not None:
        return None
    return _decide(engine_for(match), match, command, rng)


def match_apply_command(
    *,
    user: User,
    match_id: int,
    command_type: str,
    args: Mapping[str, Any],
    expected_seq: int | None,
    idempotency_key: str | None,
    rng: Random | None = None,
) -> CommandOutcome:
    """Decide and store one command. Raises ``RuleViolation`` for an illegal command and
    ``StaleCommand`` when ``expected_seq`` is not the match's seq; neither stores anything.

    The rules decide on the unlocked snapshot first, and that decision is stored by a write
    made only if the seq has not moved since (a decision is a pure function of the state, the
    command and the dice). Only when it has moved, or there was nothing to decide early (an
    undo, a stale seq, a key already answered), is the match read again under its row lock."""
    dice = rng or _server_rng()
    command = Command(command_type, dict(args))
    early = _decided_unlocked(user, match_id, command, expected_seq, dice, idempotency_key)
    if early is not None:
        stored = _store_early(early, user, command, idempotency_key)
        if stored is not None:
            return stored
    return _apply_locked(user, match_id, command, expected_seq, idempotency_key, dice, early)


def _store_early(
    early: _Decided, user: User, command: Command, key: str | None
) -> CommandOutcome | None:
    """Store a decision made on the unlocked read, if the seq it was decided on is still the
    match's: the conditional UPDATE takes the row lock, and under PostgreSQL's read committed
    it waits for a concurrent command and then sees its seq, so exactly one of two decisions on
    the same seq is stored. ``None`` (nothing stored) when the seq moved. A refusal or a secret
    choice from the wrong seat is raised without a write: nothing would be stored anyway."""
    match = early.match
    engine = engine_for(match)
    _check_private(engine, match, user, command.type, command.args)
    if early.refusal is not None:
        raise early.refusal
    was_finished = match.status == MatchStatus.FINISHED
    with transaction.atomic():
        fields = _snapshot_fields(match, engine, early.state, early.seq + len(early.events))
        if not Match.objects.filter(pk=match.pk, seq=early.seq).update(**fields):
            return None
        rows = _append(match, engine, rounds=early.rounds, events=early.events, actor=user, key=key)
        _adopt(match, fields)
        _stored(match, before=early.seq, was_finished=was_finished)
    return CommandOutcome(match=match, events=rows, state=early.state)


def _apply_locked(
    user: User,
    match_id: int,
    command: Command,
    expected_seq: int | None,
    idempotency_key: str | None,
    dice: Random,
    early: _Decided | None,
) -> CommandOutcome:
    """The command applied under the match's row lock: an undo, a stale seq, a repeated key,
    or a decision whose seq moved before it could be stored (decided again here)."""
    with transaction.atomic():
        match = match_for_participant(user, match_id, lock=True)
        # The early read found no command with this key; one can only have come since if
        # the seq moved (every command moves it).
        if idempotency_key and (early is None or early.seq != match.seq):
            earlier = _replayed(match, idempotency_key)
            if earlier is not None:
                return earlier
        if expected_seq is not None and expected_seq != match.seq:
            raise StaleCommand(match)
        engine = engine_for(match)
        _check_private(engine, match, user, command.type, command.args)
        if command.type == "undo":
            rows, state = _undo(match, engine, user, idempotency_key)
        else:
            was_finished = match.status == MatchStatus.FINISHED
            decided = _decide(engine, match, command, dice)
            if decided.refusal is not None:
                raise decided.refusal
            state = decided.state
            rows = _append(
                match,
                engine,
                rounds=decided.rounds,
                events=decided.events,
                actor=user,
                key=idempotency_key,
            )
            _store_state(match, engine, state)
            _stored(match, before=match.seq - len(rows), was_finished=was_finished)
    return CommandOutcome(match=match, events=rows, state=state)


def _stored(match: Match, *, before: int, was_finished: bool) -> None:
    """After a command's events and snapshot are written, holding the row lock: keep a
    snapshot for undo when one is due, and report a match that just finished to its leagues
    once the transaction commits."""
    snapshots.snapshot_if_due(match, before=before)
    if match.status == MatchStatus.FINISHED and not was_finished:
        finished_id = match.pk
        transaction.on_commit(lambda: match_report_to_leagues(match_id=finished_id))


def _check_private(
    engine: MatchEngine, match: Match, user: User, command_type: str, args: Mapping[str, Any]
) -> None:
    """A secret choice (a command with a ``seat_arg``) is only taken from the user holding that
    seat, so no one else learns or makes it; a command only a player may give for themselves
    (``own_seat_arg``: conceding) likewise. A seat nobody has taken yet has no such user."""
    spec = next((s for s in engine.commands() if s.type == command_type), None)
    if spec is None or not (spec.seat_arg or spec.own_seat_arg):
        return
    arg = spec.seat_arg or spec.own_seat_arg
    seat = args.get(arg)
    if isinstance(seat, int) and seat in seats_held(user, match):
        return
    if spec.seat_arg:
        raise NotYourSeat(
            "private_command",
            _("Only that player may make this secret choice, on their own login."),
        )
    raise NotYourSeat(
        "not_your_seat",
        _(
            "Only the player holding that seat may do this, on their own login. A seat "
            "opened from a share link is held once its owner takes it."
        ),
    )


def match_report_to_leagues(*, match_id: int) -> Result | None:
    """A finished two-player match between two users, each holding their own seat, proposes its
    result to their open league game, if they have one. The match's creator reports it (they
    ran it), so the other player confirms it in the league; a match whose creator plays
    neither seat proposes nothing (the players report it by hand)."""
    match = Match.objects.select_related("system").get(pk=match_id)
    seats = list(match.players.order_by("index"))
    result = match.result or {}
    if len(seats) != 2 or any(seat.user_id is None for seat in seats):
        return None
    if match.created_by_id not in (seats[0].user_id, seats[1].user_id):
        return None
    users = (seats[0].user_id, seats[1].user_id)
    assert users[0] is not None and users[1] is not None
    winners = result.get("winners", [])
    winner = users[winners[0]] if not result.get("draw") and len(winners) == 1 else None
    vp = result.get("vp", [0, 0])
    return league_result_propose_from_match(
        system_slug=match.system.slug,
        user_ids=(users[0], users[1]),
        winner_user_id=winner,
        vp_by_user={users[0]: vp[0], users[1]: vp[1]},
        match_url=reverse("matches:tracker", args=[match.pk]),
        reporter_user_id=match.created_by_id,
        pairing_id=match.league_pairing_id,
    )


@transaction.atomic
def match_take_seat(*, user: User, match_id: int, index: int) -> Match:
    """The owner of a team playing in the match takes its seat: from then on they hold it (they
    send commands, concede for it, see its secrets) and the match is in their list. Taking the
    last open seat of a finished match proposes its result to the players' league game.

    404 for a match the user neither plays in nor has a team in; ``NotYourSeat`` for a seat
    that plays someone else's team. Taking a seat one already holds changes nothing."""
    match = match_for_seat_taker(user, match_id, lock=True)
    seat = match.players.filter(index=index).first()
    if seat is None:
        raise MatchError("unknown_seat", _("This match has no such seat."))
    if seat.team_owner_id != user.pk:
        raise NotYourSeat(
            "not_your_team", _("This seat plays someone else's team: only its owner takes it.")
        )
    if seat.user_id == user.pk:
        return match
    seat.user = user
    seat.full_clean()
    seat.save(update_fields=["user"])
    seats_changed(match)
    tracker_head.renew_on_commit(match.pk)
    if match.status == MatchStatus.FINISHED:
        finished_id = match.pk
        transaction.on_commit(lambda: match_report_to_leagues(match_id=finished_id))
    return match


def _undo(
    match: Match, engine: MatchEngine, user: User, key: str | None
) -> tuple[list[MatchEvent], Any]:
    """Append an event that undoes the last command not undone yet; rebuild the state from the
    log without it, plus the events the engine keeps of it (``undo_events``, logged after the
    marker in its group). The opening of the match cannot be undone, nor can an undo. The
    rebuild starts from the latest stored snapshot before that command (``snapshots``), so it
    costs the same at any length of the log. Returns the rows appended and the new state."""
    target = snapshots.undo_target(match)
    if target is None:
        raise MatchError("nothing_to_undo", _("There is nothing to undo."))
    current = match_state(match)
    state = snapshots.state_without(match, engine, target)
    kept = engine.undo_events(current, state)
    for event in kept:
        state = engine.apply(state, event)
    # Snapshots taken since the undone command hold it: no later undo may start from them.
    snapshots.forget_from(match, target)
    before = match.seq
    appended = _append(
        match,
        engine,
        rounds=[engine.round_of(current)] * (1 + len(kept)),
        events=[Event(UNDO_EVENT, {"group": target}), *kept],
        actor=user,
        key=key,
    )
    _store_state(match, engine, state)
    snapshots.snapshot_if_due(match, before=before)
    return appended, state


@transaction.atomic
def match_archive(*, user: User, match_id: int, archived: bool) -> Match:
    """Archive (hide from the players' lists) or unarchive a match. Archiving is one flag for
    the match, not per player: any participant (a seat holder or the creator) may set or clear
    it. The log, the result and any league record stay as they are; archiving is no move, so
    the match keeps its "last move" time."""
    match = match_for_participant(user, match_id, lock=True)
    if archived != (match.archived_at is not None):
        match.archived_at = timezone.now() if archived else None
        match.save(update_fields=["archived_at"])
        tracker_head.renew_on_commit(match.pk)
    return match


@transaction.atomic
def match_delete(*, user: User, match_id: int) -> None:
    """Delete a match with its log, for good. Only its creator may; a match whose result a
    league game records (its link is the game's evidence) is kept: archive it instead.
    404 for a non-participant, ``NotYourMatch`` for another participant, ``MatchError``
    ``league_record`` for a league match."""
    match = match_for_participant(user, match_id, lock=True)
    if match.created_by_id != user.pk:
        raise NotYourMatch("not_creator", _("Only the player who opened this match may delete it."))
    if match_in_league_record(match):
        raise MatchError("league_record", league_record_message())
    match.delete()  # the cache forgets it on commit (MatchesConfig: post_delete)


def league_record_message() -> str:
    """Why a league match cannot be deleted, in the reader's language."""
    return _(
        "This match reported its result to a league game, which keeps it as a record: it "
        "cannot be deleted. Archive it to hide it from your list."
    )


def match_rebuilt_state(match: Match) -> Any:
    """The state replayed from the log (must equal the snapshot; used by checks and tests)."""
    engine = engine_for(match)
    return replay(engine, effective_events(engine, list(event_rows(match))))
