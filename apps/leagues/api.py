"""League endpoints: leagues, seasons, joining, pairings, results and standings (rounds and
their pairing: ``round_api``).

Reads are open to whoever may see the league (``league_access``: public and link-only leagues
to anyone with the key, members-only leagues to their members); writes need a login and go
through ``apps.leagues.services`` like the pages. Serializers only check shape.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.http import Http404
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.accounts.models import User
from apps.catalog.selectors import game_system_get
from apps.common.api import ApiError, api_errors
from apps.common.serializers import StrictSerializer
from apps.leagues import serializers as shapes
from apps.leagues import services
from apps.leagues.models import League, Pairing, Registration, Result, Round, Season
from apps.leagues.models_day import check_reveal_time
from apps.leagues.round_timer import RoundTimer, round_timer
from apps.leagues.selectors import (
    LeagueAccess,
    counts_from,
    league_access,
    league_by_join_code,
    league_list_for_user,
    pairing_get,
    result_counts,
    season_get,
    season_rounds,
    season_standings,
)
from apps.leagues.services import LeagueError
from apps.leagues.standings import Row, TieBreaker

T = TypeVar("T")


def timer_payload(timer: RoundTimer | None) -> dict[str, Any] | None:
    """The timer as the API shows it (null: no timer)."""
    if timer is None:
        return None
    return {
        "minutes": timer.minutes,
        "ends_at": timer.ends_at.isoformat() if timer.ends_at else None,
        "paused_remaining": timer.paused_remaining,
        "remaining": timer.seconds_left,
        "server_now": timer.read_at.isoformat(),
    }


def run_service(action: Callable[[], T]) -> T:
    """Call a service; its refusal becomes the API's error with the service's status."""
    try:
        return action()
    except LeagueError as error:
        raise ApiError(error.code, error.message, status_code=error.status) from None


def valid_input(serializer_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def access_for(request: Request, key: str) -> LeagueAccess:
    return league_access(request.user, key)


# --- Payloads ---------------------------------------------------------------------------------


def league_payload(league: League, access: LeagueAccess | None = None) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "key": league.key,
        "system": league.system.slug,
        "name": league.name,
        "description": league.description,
        "visibility": league.visibility,
        "sample": league.sample,
        "organisers": [u.shown_name for u in league.organisers.all()],
        "seasons": [season_payload(s) for s in league.seasons.all()],
    }
    if access is not None and access.is_organiser:
        payload["join_code"] = league.join_code
    return payload


def season_payload(season: Season) -> dict[str, Any]:
    return {
        "id": season.pk,
        "name": season.name,
        "starts_on": season.starts_on.isoformat(),
        "ends_on": season.ends_on.isoformat(),
        "status": season.status,
        "pairing_method": season.pairing_method,
        "scoring": {
            "win": season.win_points,
            "draw": season.draw_points,
            "loss": season.loss_points,
            "vp_bonus_points": season.vp_bonus_points,
            "vp_bonus_margin": season.vp_bonus_margin,
            "bye_vp": season.bye_vp,
        },
        "tie_breakers": list(season.tie_breakers),
        "confirm_hours": season.confirm_hours,
        "lists_reveal_at": season.lists_reveal_at.isoformat() if season.lists_reveal_at else None,
        "check_in_required": season.check_in_required,
        "costs_as_of": season.catalog_pinned_at.isoformat() if season.catalog_pinned_at else None,
    }


def _player(registration: Registration | None) -> dict[str, Any] | None:
    if registration is None:
        return None
    return {
        "id": registration.pk,
        "name": registration.player.shown_name,
        "dropped": registration.dropped_at is not None,
    }


def result_payload(result: Result | None, season: Season) -> dict[str, Any] | None:
    if result is None:
        return None
    deadline = counts_from(result, season.confirm_hours)
    return {
        "outcome": result.outcome,
        "vp_a": result.vp_a,
        "vp_b": result.vp_b,
        "status": result.status,
        "source": result.source,
        "reported_side": result.reported_side or None,
        "reported_at": result.reported_at.isoformat(),
        "counts": result_counts(result, season.confirm_hours, timezone.now()),
        "counts_from": deadline.isoformat() if deadline else None,
        "dispute_reason": result.dispute_reason or None,
        "decision_reason": result.decision_reason or None,
        "match_url": result.match_url or None,
    }


def pairing_payload(pairing: Pairing, season: Season) -> dict[str, Any]:
    return {
        "id": pairing.pk,
        "round": pairing.round.number,
        "table": pairing.table,
        "player_a": _player(pairing.player_a),
        "player_b": _player(pairing.player_b),
        "bye": pairing.player_b_id is None,
        "result": result_payload(getattr(pairing, "result", None), season),
    }


def round_payload(round_: Round, season: Season) -> dict[str, Any]:
    return {
        "number": round_.number,
        "status": round_.status,
        "rematches": round_.rematches,
        "published_at": round_.published_at.isoformat() if round_.published_at else None,
        "pairings": [pairing_payload(p, season) for p in round_.pairings.all()],
        "timer": timer_payload(round_timer(round_)),
    }


def row_payload(row: Row) -> dict[str, Any]:
    return {
        "rank": row.rank,
        "player": {"id": row.entrant.id, "name": row.entrant.name, "dropped": row.entrant.dropped},
        "played": row.played,
        "wins": row.wins,
        "draws": row.draws,
        "losses": row.losses,
        "byes": row.byes,
        "points": row.points,
        "vp_for": row.vp_for,
        "vp_against": row.vp_against,
        "vp_diff": row.vp_diff,
        "sos": row.sos,
        "h2h": row.h2h,
        "ahead_by": row.ahead_by,
        "history": [
            {
                "round": item.round,
                "opponent": item.opponent,
                "result": item.result,
                "vp_for": item.vp_for,
                "vp_against": item.vp_against,
                "points": item.points,
            }
            for item in row.history
        ],
    }


# --- Shapes -----------------------------------------------------------------------------------


class LeagueInput(StrictSerializer):
    system = serializers.SlugField()
    name = serializers.CharField(max_length=100)
    description = serializers.CharField(max_length=2000, required=False, allow_blank=True)
    visibility = serializers.ChoiceField(
        choices=League.Visibility.values, default=League.Visibility.MEMBERS
    )


class LeagueUpdateInput(StrictSerializer):
    name = serializers.CharField(max_length=100, required=False)
    description = serializers.CharField(max_length=2000, required=False, allow_blank=True)
    visibility = serializers.ChoiceField(choices=League.Visibility.values, required=False)


class SeasonInput(StrictSerializer):
    name = serializers.CharField(max_length=80)
    starts_on = serializers.DateField()
    ends_on = serializers.DateField()
    pairing_method = serializers.ChoiceField(
        choices=Season.Method.values, default=Season.Method.SWISS
    )
    win_points = serializers.IntegerField(min_value=0, max_value=100, default=3)
    draw_points = serializers.IntegerField(min_value=0, max_value=100, default=1)
    loss_points = serializers.IntegerField(min_value=0, max_value=100, default=0)
    vp_bonus_points = serializers.IntegerField(min_value=0, max_value=100, default=0)
    vp_bonus_margin = serializers.IntegerField(min_value=0, max_value=9999, default=0)
    bye_vp = serializers.IntegerField(min_value=0, max_value=9999, default=0)
    tie_breakers = serializers.ListField(
        child=serializers.ChoiceField(choices=[str(t) for t in TieBreaker]),
        min_length=1,
        max_length=len(TieBreaker),
        required=False,
    )
    confirm_hours = serializers.IntegerField(min_value=1, max_value=720, default=48)
    lists_reveal_at = serializers.DateTimeField(
        required=False, allow_null=True, default=None, validators=[check_reveal_time]
    )
    check_in_required = serializers.BooleanField(default=False)


class JoinInput(StrictSerializer):
    code = serializers.CharField(max_length=20)
    roster = serializers.IntegerField(required=False, allow_null=True, default=None)


class ResultInput(StrictSerializer):
    outcome = serializers.ChoiceField(choices=Result.Outcome.values)
    vp_a = serializers.IntegerField(min_value=0, max_value=9999)
    vp_b = serializers.IntegerField(min_value=0, max_value=9999)


class ReasonInput(StrictSerializer):
    reason = serializers.CharField(max_length=500)


class OverrideInput(ResultInput):
    reason = serializers.CharField(max_length=500)


# --- Views ------------------------------------------------------------------------------------


class ReadOpenWriteLoggedIn(APIView):
    """Reads answer whoever may see the league; writes need a login."""

    def get_permissions(self) -> list[Any]:
        if self.request.method == "GET":
            return [AllowAny()]
        return [IsAuthenticated()]


class LeagueListView(ReadOpenWriteLoggedIn):
    """Public leagues and yours (GET); a new league with you as organiser (POST)."""

    @extend_schema(operation_id="leagues_list", responses={200: shapes.LeagueSerializer(many=True)})
    def get(self, request: Request) -> Response:
        leagues = league_list_for_user(request.user).prefetch_related("organisers", "seasons")
        return Response([league_payload(league) for league in leagues])

    @extend_schema(
        request=LeagueInput,
        responses={201: shapes.LeagueSerializer},
        examples=[shapes.LEAGUE_EXAMPLE],
    )
    @api_errors(shapes.LEAGUE_CREATE)
    def post(self, request: Request) -> Response:
        data = valid_input(LeagueInput, request.data)
        system = game_system_get(data.pop("system"))
        user = request.user
        assert isinstance(user, User)  # IsAuthenticated
        league = services.league_create(creator=user, system=system, **data)
        access = league_access(request.user, league.key)
        return Response(league_payload(league, access), status=status.HTTP_201_CREATED)


class LeagueDetailView(ReadOpenWriteLoggedIn):
    """One league; its organisers may change its name, description and visibility."""

    @extend_schema(responses={200: shapes.LeagueSerializer})
    def get(self, request: Request, key: str) -> Response:
        access = access_for(request, key)
        return Response(league_payload(access.league, access))

    @extend_schema(
        request=LeagueUpdateInput,
        responses={200: shapes.LeagueSerializer},
        examples=[shapes.LEAGUE_UPDATE_EXAMPLE],
    )
    @api_errors(shapes.LEAGUE_UPDATE)
    def patch(self, request: Request, key: str) -> Response:
        access = access_for(request, key)
        data = valid_input(LeagueUpdateInput, request.data)
        league = access.league
        run_service(
            lambda: services.league_update(
                user=request.user,
                key=key,
                name=data.get("name", league.name),
                description=data.get("description", league.description),
                visibility=data.get("visibility", league.visibility),
            )
        )
        access = access_for(request, key)
        return Response(league_payload(access.league, access))


class SeasonListView(ReadOpenWriteLoggedIn):
    """The league's seasons; organisers create one (scoring, tie-breakers, hours to confirm)."""

    @extend_schema(
        operation_id="leagues_seasons_list", responses={200: shapes.SeasonSerializer(many=True)}
    )
    def get(self, request: Request, key: str) -> Response:
        access = access_for(request, key)
        return Response([season_payload(s) for s in access.league.seasons.all()])

    @extend_schema(
        request=SeasonInput,
        responses={201: shapes.SeasonSerializer},
        examples=[shapes.SEASON_EXAMPLE],
    )
    @api_errors(shapes.SEASON_CREATE)
    def post(self, request: Request, key: str) -> Response:
        data = valid_input(SeasonInput, request.data)
        season = run_service(lambda: services.season_create(user=request.user, key=key, **data))
        return Response(season_payload(season), status=status.HTTP_201_CREATED)


class SeasonDetailView(ReadOpenWriteLoggedIn):
    """One season with its players and published rounds (organisers also see a draft)."""

    @extend_schema(responses={200: shapes.SeasonDetailSerializer})
    def get(self, request: Request, key: str, season_id: int) -> Response:
        access = access_for(request, key)
        season = season_get(access, season_id)
        players = Registration.objects.filter(season=season).select_related("player")
        rounds = season_rounds(season, include_drafts=access.is_organiser)
        return Response(
            {
                **season_payload(season),
                "players": [_player(r) for r in players],
                "rounds": [round_payload(r, season) for r in rounds],
            }
        )


class SeasonJoinView(APIView):
    """Join the season with the league's join code and, where the system has rosters, one of
    your legal rosters (frozen for the season)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=JoinInput,
        responses={201: shapes.JoinedSerializer},
        examples=[shapes.JOIN_EXAMPLE],
    )
    @api_errors(shapes.SEASON_JOIN)
    def post(self, request: Request, key: str, season_id: int) -> Response:
        data = valid_input(JoinInput, request.data)
        # The code, not the key, opens the league: a members-only league is joined with it.
        try:
            league = league_by_join_code(data["code"])
        except Http404:
            league = None
        if league is None or league.key != key:
            raise ApiError("wrong_code", "This is not the join code of this league.")
        registration = run_service(
            lambda: services.season_join(
                user=request.user, season_id=season_id, code=data["code"], roster_id=data["roster"]
            )
        )
        return Response(
            {**(_player(registration) or {}), "roster_name": registration.roster_name},
            status=status.HTTP_201_CREATED,
        )


class StandingsView(APIView):
    """The standings, best first, with every tie-breaker value and each player's games."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: shapes.StandingsSerializer})
    def get(self, request: Request, key: str, season_id: int) -> Response:
        access = access_for(request, key)
        season = season_get(access, season_id)
        return Response(
            {
                "tie_breakers": list(season.tie_breakers),
                "rows": [row_payload(row) for row in season_standings(season)],
            }
        )


def _pairing_response(request: Request, key: str, pairing_id: int, code: int = 200) -> Response:
    access = access_for(request, key)
    pairing = pairing_get(access, pairing_id)
    if pairing.round.status == Round.Status.DRAFT and not access.is_organiser:
        raise ApiError("not_found", "No such pairing.", status.HTTP_404_NOT_FOUND)
    return Response(pairing_payload(pairing, pairing.round.season), status=code)


class PairingDetailView(APIView):
    """One pairing with its result."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("key", str, OpenApiParameter.PATH)],
        responses={200: shapes.PairingSerializer},
    )
    def get(self, request: Request, key: str, pairing_id: int) -> Response:
        return _pairing_response(request, key, pairing_id)


class ResultReportView(APIView):
    """A player of the pairing reports winner ("a", "b" or "draw") and VP. The same result
    from the opponent confirms it; a different one answers 409 conflicting_report."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=ResultInput,
        responses={200: shapes.PairingSerializer},
        examples=[shapes.RESULT_EXAMPLE],
    )
    @api_errors(shapes.RESULT_REPORT)
    def post(self, request: Request, key: str, pairing_id: int) -> Response:
        data = valid_input(ResultInput, request.data)
        run_service(
            lambda: services.result_report(
                user=request.user, key=key, pairing_id=pairing_id, **data
            )
        )
        return _pairing_response(request, key, pairing_id)


class ResultConfirmView(APIView):
    """The opponent of the reporter confirms (for a tracked match: the opponent of the player
    who opened it). 403 ``own_report`` for the reporter."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: shapes.PairingSerializer})
    @api_errors(shapes.RESULT_ANSWER)
    def post(self, request: Request, key: str, pairing_id: int) -> Response:
        run_service(
            lambda: services.result_confirm(user=request.user, key=key, pairing_id=pairing_id)
        )
        return _pairing_response(request, key, pairing_id)


class ResultDisputeView(APIView):
    """The opponent of the reporter disputes, with a reason; the organisers decide."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=ReasonInput, responses={200: shapes.PairingSerializer})
    @api_errors(shapes.RESULT_DISPUTE)
    def post(self, request: Request, key: str, pairing_id: int) -> Response:
        data = valid_input(ReasonInput, request.data)
        run_service(
            lambda: services.result_dispute(
                user=request.user, key=key, pairing_id=pairing_id, reason=data["reason"]
            )
        )
        return _pairing_response(request, key, pairing_id)


class ResultOverrideView(APIView):
    """An organiser sets the result (deciding a dispute or correcting any result), with a
    reason that goes into the log."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=OverrideInput,
        responses={200: shapes.PairingSerializer},
        examples=[shapes.OVERRIDE_EXAMPLE],
    )
    @api_errors(shapes.RESULT_OVERRIDE)
    def post(self, request: Request, key: str, pairing_id: int) -> Response:
        data = valid_input(OverrideInput, request.data)
        run_service(
            lambda: services.result_override(
                user=request.user, key=key, pairing_id=pairing_id, **data
            )
        )
        return _pairing_response(request, key, pairing_id)
