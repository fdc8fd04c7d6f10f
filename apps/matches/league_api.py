"""``POST /api/v1/matches/league/{pairing_id}/``: a league game's player starts its match (or
gets the one already started), as "Start this match" on the game's page does."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.accounts.models import User
from apps.common.api import api_errors
from apps.common.serializers import StrictSerializer
from apps.matches.league_games import league_match_start
from apps.matches.models import Match
from apps.matches.presenters import match_payload
from apps.matches.selectors import viewer_seat
from apps.matches.serializers import MatchSerializer

LEAGUE_MATCH_ERRORS = {
    400: (
        "invalid",
        "lists_hidden",
        "season_not_running",
        "no_tracker",
        "game_has_result",
        "no_season_roster",
        "match_quota",
        "settings_invalid",
        "game_size_mismatch",
        "roster_illegal",
    ),
    # Not a game the user plays in (organisers included): it is not revealed.
    404: ("not_found",),
}


class LeagueMatchSerializer(StrictSerializer):
    mission = serializers.SlugField(help_text="A game mode slug, or 'random'.")
    settings = serializers.DictField(
        required=False, default=dict, help_text="The match settings, as for a new match."
    )


class LeagueMatchView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=LeagueMatchSerializer,
        responses={
            201: MatchSerializer,
            200: OpenApiResponse(MatchSerializer, description="The match already started."),
        },
        description="Start the match of a league game you play in: both players' season "
        "rosters as registered, each seat held by its player; the finished match proposes its "
        "result to this game. A game already started answers 200 with its match.",
    )
    @api_errors(LEAGUE_MATCH_ERRORS)
    def post(self, request: Request, pairing_id: int) -> Response:
        serializer = LeagueMatchSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = request.user
        assert isinstance(user, User)
        existed = Match.objects.filter(league_pairing_id=pairing_id).exists()
        match = league_match_start(
            user=user,
            pairing_id=pairing_id,
            mode=serializer.validated_data["mission"],
            settings=serializer.validated_data["settings"],
        )
        return Response(
            match_payload(match, viewer=viewer_seat(user, match)),
            status=status.HTTP_200_OK if existed else status.HTTP_201_CREATED,
        )
