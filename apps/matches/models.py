"""A live match: an append-only event log (the truth) and a snapshot of the state it folds to.

Every command a device sends becomes one or more ``MatchEvent`` rows, written in one
transaction with the new snapshot while the match row is locked. Nothing is ever deleted:
``undo`` appends an event that marks an earlier command as undone, and the state is rebuilt
from the log without it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from apps.catalog.models import GameSystem
from apps.common.json_fields import FastJSONDecoder, FastJSONEncoder
from apps.rosters.models import Roster

UNDO_EVENT = "undone"


class MatchStatus(models.TextChoices):
    SETUP = "setup", _("Setting up")
    LIVE = "live", _("Live")
    FINISHED = "finished", _("Finished")


class Match(models.Model):
    system = models.ForeignKey(GameSystem, on_delete=models.PROTECT, related_name="matches")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="matches_created"
    )
    title = models.CharField(_("title"), max_length=120)
    mode = models.CharField(_("game mode"), max_length=60)
    status = models.CharField(
        _("status"), max_length=10, choices=MatchStatus.choices, default=MatchStatus.SETUP
    )
    seq = models.PositiveIntegerField(_("last event"), default=0)
    state = models.JSONField(
        _("state"), default=dict, encoder=FastJSONEncoder, decoder=FastJSONDecoder
    )
    # The engine's schema version the snapshot was written in (rows from before versions
    # existed are version 1); an older snapshot is upgraded or rebuilt from the log.
    state_version = models.PositiveSmallIntegerField(_("state version"), default=1)
    result = models.JSONField(_("result"), null=True, blank=True)
    spectator_token = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Hidden from the players' lists (the match and its log stay, a league keeps its result).
    archived_at = models.DateTimeField(_("archived"), null=True, blank=True)
    # The optional round timer / chess clock, kept beside the log rather than in it: time is
    # not a rule event, and undoing a command must not rewind the clock. Empty when unused.
    clock = models.JSONField(_("clock"), default=dict, blank=True)
    # The league game this match was started from ("Start this match" on the pairing): its
    # result is proposed to that game, and the tracker shows the round's timer. One match per
    # game, so two players starting it at once share one.
    league_pairing = models.OneToOneField(
        "leagues.Pairing",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="match",
        verbose_name=_("league game"),
    )

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["-updated_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=MatchStatus.values), name="match_status_valid"
            ),
            models.CheckConstraint(
                condition=~Q(status=MatchStatus.FINISHED) | Q(result__isnull=False),
                name="match_finished_has_result",
            ),
            models.CheckConstraint(condition=Q(state_version__gte=1), name="match_state_version"),
        ]

    def __str__(self) -> str:
        return self.title


class MatchPlayer(models.Model):
    """A seat at the table: a name, the team it plays (as it was when the match began), the
    user whose team it is (``team_owner``) and the user holding the seat (``user``), who may
    then send commands, concede for it and make its secret choices.

    The creator's own teams are theirs from the start. A team opened from someone else's share
    link belongs to no one until its owner takes the seat (``match_take_seat``): opening a
    match with a shared team never speaks for its owner."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="players")
    index = models.PositiveSmallIntegerField()
    name = models.CharField(_("name"), max_length=40)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="match_seats",
    )
    team_owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="match_teams",
    )
    roster = models.ForeignKey(
        Roster, on_delete=models.SET_NULL, null=True, blank=True, related_name="match_seats"
    )
    roster_document = models.JSONField(default=dict)

    class Meta:
        ordering = ["match", "index"]
        constraints = [
            models.UniqueConstraint(fields=["match", "index"], name="match_player_unique_index"),
            # Only the team's owner ever holds its seat.
            models.CheckConstraint(
                condition=Q(user__isnull=True) | Q(user=models.F("team_owner")),
                name="match_player_held_by_team_owner",
            ),
        ]


class MatchEvent(models.Model):
    """One event. ``group`` is the seq of the first event of the command that caused it, so a
    command (and its undo) is always the whole group."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    group = models.PositiveIntegerField()
    round = models.PositiveSmallIntegerField(default=0)
    type = models.CharField(max_length=60)
    data = models.JSONField(default=dict, encoder=FastJSONEncoder, decoder=FastJSONDecoder)
    # The engine's schema version ``data`` was written in; read through its upgrades.
    version = models.PositiveSmallIntegerField(default=1)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    idempotency_key = models.CharField(max_length=80, null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seq"], name="match_event_unique_seq"),
            models.UniqueConstraint(
                fields=["match", "idempotency_key"],
                condition=Q(idempotency_key__isnull=False),
                name="match_event_unique_idempotency_key",
            ),
            models.CheckConstraint(
                condition=Q(group__lte=models.F("seq")), name="match_event_group_not_after_seq"
            ),
            models.CheckConstraint(condition=Q(version__gte=1), name="match_event_version"),
        ]
        indexes = [
            models.Index(fields=["match", "group"], name="match_event_group"),
            # The undo markers of a match (undone_groups_of, on every tracker render) without
            # scanning its whole log.
            models.Index(fields=["match", "type"], name="match_event_type"),
        ]


class MatchSnapshot(models.Model):
    """The state as it stood after the command ending at ``seq``, kept every so many events
    (``apps.matches.snapshots``) so that an undo replays only the events after the nearest one
    instead of the whole log. A cache of the log, never its truth: a snapshot a later undo made
    wrong is deleted, and one no upgrade reaches is passed over."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="snapshots")
    seq = models.PositiveIntegerField()
    # The engine's schema version ``state`` was written in; read through its state upgrades.
    version = models.PositiveSmallIntegerField()
    state = models.JSONField(encoder=FastJSONEncoder, decoder=FastJSONDecoder)

    class Meta:
        constraints = [
            # Also the index "the latest snapshot before seq n" reads through.
            models.UniqueConstraint(fields=["match", "seq"], name="match_snapshot_unique_seq"),
            models.CheckConstraint(condition=Q(version__gte=1), name="match_snapshot_version"),
        ]
