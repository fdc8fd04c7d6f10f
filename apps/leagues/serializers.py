"""The shapes of the league API's answers for its OpenAPI schema (the views build the payloads;
these describe them), the error codes of its operations, and examples of its request bodies."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample
from rest_framework import serializers

from apps.leagues import pairing_jobs
from apps.leagues.models import League, Result, Round, Season


class ScoringSerializer(serializers.Serializer):
    win = serializers.IntegerField()
    draw = serializers.IntegerField()
    loss = serializers.IntegerField()
    vp_bonus_points = serializers.IntegerField()
    vp_bonus_margin = serializers.IntegerField()
    bye_vp = serializers.IntegerField()


class SeasonSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    starts_on = serializers.DateField()
    ends_on = serializers.DateField()
    status = serializers.ChoiceField(choices=Season.Status.choices)
    pairing_method = serializers.ChoiceField(choices=Season.Method.values)
    scoring = ScoringSerializer()
    tie_breakers = serializers.ListField(child=serializers.CharField())
    confirm_hours = serializers.IntegerField()
    lists_reveal_at = serializers.DateTimeField(
        allow_null=True,
        help_text="Before it, rosters are seen only by their player and organisers.",
    )
    check_in_required = serializers.BooleanField(
        help_text="Swiss rounds pair only the players checked in for them."
    )
    costs_as_of = serializers.DateTimeField(
        allow_null=True,
        help_text="The catalogue's costs the season plays are those of this moment (fixed at "
        "the first registration; null: nobody has joined yet, the current catalogue).",
    )


class LeagueSerializer(serializers.Serializer):
    key = serializers.CharField(help_text="The league's address.")
    system = serializers.CharField()
    name = serializers.CharField()
    description = serializers.CharField(allow_blank=True)
    visibility = serializers.ChoiceField(choices=League.Visibility.values)
    sample = serializers.BooleanField()
    organisers = serializers.ListField(child=serializers.CharField())
    seasons = SeasonSerializer(many=True)
    join_code = serializers.CharField(required=False, help_text="Only for its organisers.")


class PlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The registration's id.")
    name = serializers.CharField()
    dropped = serializers.BooleanField()


class JoinedSerializer(PlayerSerializer):
    roster_name = serializers.CharField(allow_blank=True)


class ResultSerializer(serializers.Serializer):
    outcome = serializers.ChoiceField(choices=Result.Outcome.values)
    vp_a = serializers.IntegerField()
    vp_b = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Result.Status.choices)
    source = serializers.ChoiceField(choices=Result.Source.choices)
    reported_side = serializers.CharField(allow_null=True)
    reported_at = serializers.DateTimeField()
    counts = serializers.BooleanField(help_text="Whether the standings count it now.")
    counts_from = serializers.DateTimeField(
        allow_null=True, help_text="When an unanswered report starts to count on its own."
    )
    dispute_reason = serializers.CharField(allow_null=True)
    decision_reason = serializers.CharField(allow_null=True)
    match_url = serializers.CharField(allow_null=True)


class PairingSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    player_a = PlayerSerializer(allow_null=True)
    player_b = PlayerSerializer(allow_null=True, help_text="null for a bye.")
    bye = serializers.BooleanField()
    result = ResultSerializer(allow_null=True)


class RoundTimerSerializer(serializers.Serializer):
    minutes = serializers.IntegerField()
    ends_at = serializers.DateTimeField(allow_null=True, help_text="Set while it runs.")
    paused_remaining = serializers.IntegerField(
        allow_null=True, help_text="Seconds left, while paused."
    )
    remaining = serializers.IntegerField(help_text="Seconds left now.")
    server_now = serializers.DateTimeField()


class RoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Round.Status.choices)
    rematches = serializers.IntegerField()
    published_at = serializers.DateTimeField(allow_null=True)
    pairings = PairingSerializer(many=True)
    timer = RoundTimerSerializer(allow_null=True, help_text="The round timer; null: none.")


class PairingJobSerializer(serializers.Serializer):
    """A round being paired by the task, or how the last one ended (for a few minutes)."""

    state = serializers.ChoiceField(
        choices=[pairing_jobs.QUEUED, pairing_jobs.RUNNING, pairing_jobs.DONE, pairing_jobs.FAILED]
    )
    done = serializers.IntegerField(help_text="Parts of the pairing done so far.")
    total = serializers.IntegerField(help_text="Parts in all; 0 until the task has started.")
    message = serializers.CharField(allow_blank=True, help_text="failed: why, for people.")
    number = serializers.IntegerField(
        allow_null=True, help_text="done: the number of the round paired as a draft."
    )


class SeasonDetailSerializer(SeasonSerializer):
    players = PlayerSerializer(many=True)
    rounds = RoundSerializer(many=True)


class HistoryItemSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    opponent = serializers.IntegerField(allow_null=True)
    result = serializers.CharField(help_text='"W", "D", "L" or "bye".')
    vp_for = serializers.IntegerField()
    vp_against = serializers.IntegerField()
    points = serializers.IntegerField()


class StandingsRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = PlayerSerializer()
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()
    byes = serializers.IntegerField()
    points = serializers.IntegerField()
    vp_for = serializers.IntegerField()
    vp_against = serializers.IntegerField()
    vp_diff = serializers.IntegerField()
    sos = serializers.IntegerField()
    h2h = serializers.IntegerField(allow_null=True)
    ahead_by = serializers.CharField(
        allow_null=True, help_text="The tie-breaker that put this player ahead of the next."
    )
    history = HistoryItemSerializer(many=True)


class StandingsSerializer(serializers.Serializer):
    tie_breakers = serializers.ListField(child=serializers.CharField())
    rows = StandingsRowSerializer(many=True)


# --- Error codes by operation (besides those every operation of its kind answers) -------------

ORGANISER = {403: ("permission_denied",)}
# An unknown rule system in the body is a 404, as at /systems/{slug}/.
LEAGUE_CREATE = {400: ("invalid",), 404: ("not_found",)}
LEAGUE_UPDATE = {400: ("invalid",), **ORGANISER}
SEASON_CREATE = {
    400: (
        "invalid",
        "invalid_dates",
        "invalid_scoring",
        "invalid_tie_breakers",
        "duplicate_season",
    ),
    **ORGANISER,
}
SEASON_JOIN = {
    400: (
        "invalid",
        "wrong_code",
        "roster_required",
        "unknown_roster",
        "wrong_system",
        "roster_not_legal",
    ),
    409: ("already_joined", "registration_closed", "season_full", "season_finished"),
}
ROUND_PAIR = {
    400: ("invalid",),
    **ORGANISER,
    409: (
        "draft_round",
        "round_incomplete",
        "everyone_met",
        "not_enough_players",
        "rematch_unavoidable",
        "season_finished",
    ),
    # A big round without a task queue, or with one that cannot be reached.
    503: ("pairing_too_large", "pairing_unavailable"),
}
PAIRING_JOB = ORGANISER
ROUND_DRAFT = {**ORGANISER, 409: ("round_published",)}
ROUND_SWAP = {400: ("invalid", "same_player", "not_in_round", "same_game"), **ROUND_DRAFT}
RESULT_REPORT = {
    400: ("invalid", "invalid_outcome", "invalid_vp", "bye"),
    403: ("not_your_pairing",),
    409: ("round_not_published", "result_final", "conflicting_report", "confirmation_closed"),
}
RESULT_ANSWER = {
    403: ("not_your_pairing", "own_report", "no_reporter"),
    409: ("no_report", "result_final", "confirmation_closed"),
}
RESULT_DISPUTE = {**RESULT_ANSWER, 400: ("invalid", "reason_required")}
RESULT_OVERRIDE = {
    400: ("invalid", "invalid_outcome", "invalid_vp", "bye", "reason_required"),
    **ORGANISER,
    409: ("round_not_published",),
}

# --- Examples ---------------------------------------------------------------------------------

LEAGUE_EXAMPLE = OpenApiExample(
    "A public Deathmatch league",
    value={
        "system": "deathmatch",
        "name": "Tuesday Deathmatch",
        "description": "Every Tuesday at the club.",
        "visibility": "public",
    },
    request_only=True,
)
LEAGUE_UPDATE_EXAMPLE = OpenApiExample(
    "Rename the league and open it to everyone",
    value={"name": "Tuesday Deathmatch League", "visibility": "public"},
    request_only=True,
)
SEASON_EXAMPLE = OpenApiExample(
    "A Swiss season",
    value={
        "name": "Spring",
        "starts_on": "2026-03-01",
        "ends_on": "2026-05-31",
        "pairing_method": "swiss",
        "win_points": 3,
        "draw_points": 1,
        "loss_points": 0,
        "tie_breakers": ["vp_diff", "vp_for", "sos"],
        "confirm_hours": 48,
    },
    request_only=True,
)
JOIN_EXAMPLE = OpenApiExample(
    "Join with a roster", value={"code": "K7Q2MX", "roster": 12}, request_only=True
)
RESULT_EXAMPLE = OpenApiExample(
    "The first player won", value={"outcome": "a", "vp_a": 12, "vp_b": 7}, request_only=True
)
OVERRIDE_EXAMPLE = OpenApiExample(
    "A draw after a dispute",
    value={"outcome": "draw", "vp_a": 9, "vp_b": 9, "reason": "Both agreed at the table."},
    request_only=True,
)
