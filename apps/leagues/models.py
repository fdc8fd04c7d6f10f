"""Leagues, seasons, registrations, rounds, pairings, results and the organisers' log.

What must never be inconsistent is held by the database, not only by the services: one
registration per player and season, one draft round per season, each player once per round
(as either side), one result per pairing, a result never confirmed by the side that reported it
(a tracked result waiting for an answer always names that side), a decided result always with
a reason. Standings and ratings are computed from these rows.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from apps.catalog.models import GameSystem
from apps.leagues import models_day
from apps.leagues.standings import DEFAULT_TIE_BREAKERS
from apps.rosters.models import Roster

# The tournament day's model (models_day), imported from here like the app's others.
CheckIn = models_day.CheckIn
MAX_VP = 9999
MAX_CONFIRM_HOURS = 24 * 30


def default_tie_breakers() -> list[str]:
    return [str(t) for t in DEFAULT_TIE_BREAKERS]


class League(models.Model):
    class Visibility(models.TextChoices):
        PUBLIC = "public", _("Public: listed, anyone can see it")
        LINK = "link", _("Link only: anyone with the link can see it")
        MEMBERS = "members", _("Members only: organisers and players")

    # The league's address: unguessable, so a link-only league stays unlisted.
    key = models.CharField(max_length=16, unique=True, editable=False)
    system = models.ForeignKey(GameSystem, on_delete=models.PROTECT, related_name="leagues")
    name = models.CharField(_("name"), max_length=100)
    description = models.TextField(_("description"), max_length=2000, blank=True)
    visibility = models.CharField(
        _("visibility"), max_length=10, choices=Visibility, default=Visibility.MEMBERS
    )
    join_code = models.CharField(_("join code"), max_length=12, unique=True)
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="organised_leagues", verbose_name=_("organisers")
    )
    sample = models.BooleanField(
        _("sample"), default=False, help_text=_("Invented for trying the app, not a real league.")
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("league")
        verbose_name_plural = _("leagues")
        ordering = ["name", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(visibility__in=["public", "link", "members"]),
                name="league_visibility_known",
            ),
            models.CheckConstraint(condition=~Q(name=""), name="league_has_name"),
        ]

    def __str__(self) -> str:
        return self.name


class Season(models_day.SeasonDayFields):
    class Status(models.TextChoices):
        OPEN = "open", _("Open for registration")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    class Method(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        ROUND_ROBIN = "round_robin", _("Round-robin")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=80)
    starts_on = models.DateField(_("starts on"))
    ends_on = models.DateField(_("ends on"))
    status = models.CharField(max_length=10, choices=Status, default=Status.OPEN)
    pairing_method = models.CharField(
        _("pairing"), max_length=12, choices=Method, default=Method.SWISS
    )
    win_points = models.PositiveSmallIntegerField(_("points for a win"), default=3)
    draw_points = models.PositiveSmallIntegerField(_("points for a draw"), default=1)
    loss_points = models.PositiveSmallIntegerField(_("points for a loss"), default=0)
    vp_bonus_points = models.PositiveSmallIntegerField(
        _("bonus points"),
        default=0,
        help_text=_("Extra points for a win by the margin below or more; 0 for no bonus."),
    )
    vp_bonus_margin = models.PositiveSmallIntegerField(_("bonus margin (VP)"), default=0)
    bye_vp = models.PositiveSmallIntegerField(
        _("VP for a bye"), default=0, help_text=_("A bye scores as a win with these VP.")
    )
    tie_breakers = models.JSONField(_("tie-breakers"), default=default_tie_breakers)
    confirm_hours = models.PositiveSmallIntegerField(
        _("hours to confirm"),
        default=48,
        help_text=_("An unanswered report counts once this many hours have passed."),
    )
    # Round-robin: the registrations in schedule order, fixed when round 1 is paired.
    round_robin_order = models.JSONField(default=list, blank=True)
    # The catalogue the season plays (apps.leagues.season_catalog): the version of every
    # profile and item, ``{"profiles": {slug: version}, "items": {slug: version}}``, fixed at
    # the first registration (or re-pinned by an organiser), so that an organiser's cost edit
    # never changes a registered roster's points. None: not pinned yet, the current catalogue.
    catalog_pin = models.JSONField(null=True, blank=True, editable=False)
    catalog_pinned_at = models.DateTimeField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["league", "-starts_on", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["league", "name"], name="season_unique_name"),
            models.CheckConstraint(condition=~Q(name=""), name="season_has_name"),
            models.CheckConstraint(
                condition=Q(ends_on__gte=F("starts_on")), name="season_ends_after_start"
            ),
            models.CheckConstraint(
                condition=Q(win_points__gte=F("draw_points"))
                & Q(draw_points__gte=F("loss_points")),
                name="season_win_draw_loss_order",
            ),
            models.CheckConstraint(
                condition=Q(vp_bonus_points=0) | Q(vp_bonus_margin__gte=1),
                name="season_bonus_has_margin",
            ),
            models.CheckConstraint(
                condition=Q(confirm_hours__gte=1) & Q(confirm_hours__lte=MAX_CONFIRM_HOURS),
                name="season_confirm_hours_range",
            ),
            models.CheckConstraint(
                condition=Q(status__in=["open", "running", "finished"]),
                name="season_status_known",
            ),
            models.CheckConstraint(
                condition=Q(pairing_method__in=["swiss", "round_robin"]),
                name="season_method_known",
            ),
            models.CheckConstraint(
                condition=Q(lists_reveal_at__isnull=True)
                | Q(
                    lists_reveal_at__gte=models_day.REVEAL_EARLIEST,
                    lists_reveal_at__lt=models_day.REVEAL_LATEST,
                ),
                name="season_reveal_in_range",
            ),
            models.CheckConstraint(
                condition=Q(catalog_pin__isnull=True, catalog_pinned_at__isnull=True)
                | Q(
                    catalog_pin__has_keys=["profiles", "items"],
                    catalog_pinned_at__isnull=False,
                ),
                name="season_catalog_pin_complete",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Registration(models.Model):
    """A player in a season, with the roster they registered (frozen as a document)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="registrations")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="league_registrations"
    )
    roster = models.ForeignKey(
        Roster, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    roster_name = models.CharField(max_length=100, blank=True)
    # The roster document as registered: the version that counts for the whole season.
    roster_snapshot = models.JSONField(null=True, blank=True)
    registered_at = models.DateTimeField(auto_now_add=True)
    dropped_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["season", "registered_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["season", "player"], name="registration_once"),
        ]


class RosterChange(models.Model):
    """A player's request to play another roster (version); an organiser decides."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for an organiser")
        APPROVED = "approved", _("Approved")
        REJECTED = "rejected", _("Rejected")

    registration = models.ForeignKey(
        Registration, on_delete=models.CASCADE, related_name="roster_changes"
    )
    roster = models.ForeignKey(
        Roster, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    roster_name = models.CharField(max_length=100)
    snapshot = models.JSONField()
    status = models.CharField(max_length=10, choices=Status, default=Status.PENDING)
    requested_at = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    note = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["-requested_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["registration"],
                condition=Q(status="pending"),
                name="roster_change_one_pending",
            ),
            models.CheckConstraint(
                condition=(Q(status="pending") & Q(decided_at__isnull=True))
                | (Q(status__in=["approved", "rejected"]) & Q(decided_at__isnull=False)),
                name="roster_change_decided_has_time",
            ),
        ]


class Round(models_day.RoundTimerFields):
    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        PUBLISHED = "published", _("Published")

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status, default=Status.DRAFT)
    # Rematches the organiser accepted because no pairing could avoid them.
    rematches = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    published_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["season", "number"]
        constraints = [
            models.UniqueConstraint(fields=["season", "number"], name="round_unique_number"),
            models.UniqueConstraint(
                fields=["season"], condition=Q(status="draft"), name="round_one_draft"
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
            models.CheckConstraint(
                condition=(Q(status="draft") & Q(published_at__isnull=True))
                | (Q(status="published") & Q(published_at__isnull=False)),
                name="round_published_has_time",
            ),
            *models_day.ROUND_TIMER_CONSTRAINTS,
        ]


class Pairing(models.Model):
    """A game of a round between ``player_a`` and ``player_b``; no ``player_b`` is a bye."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="pairings")
    table = models.PositiveSmallIntegerField()
    player_a = models.ForeignKey(Registration, on_delete=models.PROTECT, related_name="+")
    player_b = models.ForeignKey(
        Registration, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["round", "table"]
        constraints = [
            models.UniqueConstraint(fields=["round", "table"], name="pairing_unique_table"),
            models.UniqueConstraint(fields=["round", "player_a"], name="pairing_a_once"),
            models.UniqueConstraint(fields=["round", "player_b"], name="pairing_b_once"),
            models.CheckConstraint(
                condition=~Q(player_a=F("player_b")), name="pairing_not_against_self"
            ),
            models.CheckConstraint(condition=Q(table__gte=1), name="pairing_table_positive"),
        ]

    @property
    def is_bye(self) -> bool:
        return self.player_b_id is None


class Result(models.Model):
    """The result of a pairing: reported, then confirmed, disputed or decided."""

    class Outcome(models.TextChoices):
        A = "a", _("first player won")
        B = "b", _("second player won")
        DRAW = "draw", _("draw")

    class Status(models.TextChoices):
        REPORTED = "reported", _("Waiting for confirmation")
        CONFIRMED = "confirmed", _("Confirmed")
        DISPUTED = "disputed", _("Disputed")
        DECIDED = "decided", _("Decided by an organiser")

    class Source(models.TextChoices):
        MANUAL = "manual", _("reported by a player")
        TRACKED = "tracked", _("from a tracked match")
        ORGANISER = "organiser", _("entered by an organiser")

    pairing = models.OneToOneField(Pairing, on_delete=models.CASCADE, related_name="result")
    outcome = models.CharField(max_length=4, choices=Outcome)
    vp_a = models.PositiveIntegerField()
    vp_b = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=Status, default=Status.REPORTED)
    source = models.CharField(max_length=10, choices=Source, default=Source.MANUAL)
    match_url = models.CharField(max_length=500, blank=True)
    # The side ("a"/"b") whose player reported: for a tracked match, the side of the player who
    # opened it. Empty for an organiser's result, and for tracked results answered before
    # tracked results named their reporter.
    reported_side = models.CharField(max_length=1, blank=True)
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    reported_at = models.DateTimeField()
    confirmed_side = models.CharField(max_length=1, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    disputed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    disputed_at = models.DateTimeField(null=True, blank=True)
    dispute_reason = models.CharField(max_length=500, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_reason = models.CharField(max_length=500, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(outcome__in=["a", "b", "draw"]), name="result_outcome_known"
            ),
            models.CheckConstraint(
                condition=Q(status__in=["reported", "confirmed", "disputed", "decided"]),
                name="result_status_known",
            ),
            models.CheckConstraint(
                condition=Q(vp_a__lte=MAX_VP) & Q(vp_b__lte=MAX_VP), name="result_vp_range"
            ),
            models.CheckConstraint(
                condition=(Q(source="manual") & Q(reported_side__in=["a", "b"]))
                | (
                    Q(source="tracked")
                    & (
                        Q(reported_side__in=["a", "b"])
                        | (Q(reported_side="") & ~Q(status="reported"))
                    )
                )
                | (Q(source="organiser") & Q(reported_side="")),
                name="result_reporter_is_a_side",
            ),
            models.CheckConstraint(
                condition=Q(confirmed_side="") | ~Q(confirmed_side=F("reported_side")),
                name="result_not_confirmed_by_reporter",
            ),
            models.CheckConstraint(
                condition=~Q(status="confirmed")
                | (Q(confirmed_side__in=["a", "b"]) & Q(confirmed_at__isnull=False)),
                name="result_confirmed_has_confirmation",
            ),
            models.CheckConstraint(
                condition=~Q(status="disputed")
                | (Q(disputed_at__isnull=False) & ~Q(dispute_reason="")),
                name="result_disputed_has_reason",
            ),
            models.CheckConstraint(
                condition=~Q(status="decided")
                | (Q(decided_at__isnull=False) & ~Q(decision_reason="")),
                name="result_decided_has_reason",
            ),
        ]


class LogEntry(models.Model):
    """What organisers and players changed that others must be able to trace."""

    class Action(models.TextChoices):
        ROUND_PAIRED = "round_paired", _("round paired")
        ROUND_PUBLISHED = "round_published", _("round published")
        ROUND_DISCARDED = "round_discarded", _("draft round discarded")
        PAIRING_SWAPPED = "pairing_swapped", _("players swapped")
        RESULT_DISPUTED = "result_disputed", _("result disputed")
        RESULT_OVERRIDDEN = "result_overridden", _("result set by an organiser")
        ROSTER_REQUESTED = "roster_requested", _("roster change requested")
        ROSTER_APPROVED = "roster_approved", _("roster change approved")
        ROSTER_REJECTED = "roster_rejected", _("roster change rejected")
        PLAYER_DROPPED = "player_dropped", _("player dropped")
        ORGANISER_ADDED = "organiser_added", _("organiser added")
        SEASON_FINISHED = "season_finished", _("season finished")
        TIMER_STARTED = "timer_started", _("round timer started")
        TIMER_PAUSED = "timer_paused", _("round timer paused")
        TIMER_RESUMED = "timer_resumed", _("round timer resumed")
        TIMER_ADJUSTED = "timer_adjusted", _("round timer changed")
        TIMER_STOPPED = "timer_stopped", _("round timer stopped")
        CHECK_IN_SET = "check_in_set", _("check-in set by an organiser")
        DAY_SETTINGS = "day_settings", _("tournament day settings changed")
        COSTS_PINNED = "costs_pinned", _("season's costs set to the current catalogue")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="log")
    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, null=True, blank=True, related_name="log"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    action = models.CharField(max_length=24, choices=Action)
    # Names and numbers as they were (e.g. the result before and after), and any reason given.
    details = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
