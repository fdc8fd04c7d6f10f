"""The match clock in the API: ``GET/POST /api/v1/matches/{id}/clock/``.

The same code path as the tracker's clock buttons (``apps.matches.clock.match_clock_act``): the
server's time, the match row locked. Times are whole milliseconds read at ``server_time``; a
client counts the running one down from there with its own monotonic clock.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny, BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.accounts.models import User
from apps.common.api import api_errors
from apps.common.serializers import StrictSerializer
from apps.matches.clock import ACTIONS, MAX_MINUTES, MODES, clock_now, match_clock_act
from apps.matches.clock import match_clock as stored_clock
from apps.matches.clock import reading as clock_reading
from apps.matches.models import Match
from apps.matches.selectors import match_for_viewer

SPECTATE = OpenApiParameter(
    "spectate", str, description="A spectator token instead of being a participant."
)
CLOCK_ERRORS = (
    "invalid",
    "unknown_action",
    "no_clock",
    "invalid_mode",
    "invalid_minutes",
    "unknown_player",
    "not_round_timer",
    "game_over",
)


class ClockPlayerSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    name = serializers.CharField(allow_blank=True)
    used_ms = serializers.IntegerField(help_text="Time spent on this player's turns.")
    remaining_ms = serializers.IntegerField(
        help_text="Chess clock: this player's time left; round timer: the round's. "
        "Below zero once time is up (nothing ends by itself)."
    )
    expired = serializers.BooleanField()


class ClockStateSerializer(serializers.Serializer):
    mode = serializers.ChoiceField(choices=MODES)
    limit_seconds = serializers.IntegerField(
        help_text="Per player (chess clock) or per round (round timer)."
    )
    running = serializers.BooleanField()
    turn = serializers.IntegerField(help_text="Whose time runs (or ran last, when paused).")
    round = serializers.IntegerField(help_text="Round timer: the round being timed.")
    round_remaining_ms = serializers.IntegerField()
    players = ClockPlayerSerializer(many=True)


class ClockSerializer(serializers.Serializer):
    clock = ClockStateSerializer(allow_null=True, help_text="null: the match has no clock.")
    server_time = serializers.DateTimeField(help_text="The instant the times were read at.")


class ClockActionSerializer(StrictSerializer):
    action = serializers.ChoiceField(
        choices=ACTIONS,
        help_text="start (mode, minutes, player: whose time runs first, default 0); switch "
        "(player: whose time runs now); pause; resume; next_round (round timer; round: the "
        "round to start, so a repeated request starts it once); reset (removes the clock).",
    )
    mode = serializers.ChoiceField(choices=MODES, required=False)
    minutes = serializers.IntegerField(required=False, min_value=1, max_value=MAX_MINUTES)
    player = serializers.IntegerField(required=False, min_value=0)
    round = serializers.IntegerField(required=False, min_value=1)


def clock_payload(match: Match) -> dict[str, Any]:
    clock = stored_clock(match)
    now = clock_now(match)
    if clock is None:
        return {"clock": None, "server_time": timezone.now().isoformat()}
    read = clock_reading(clock, now)
    names = list(match.players.order_by("index").values_list("name", flat=True))
    return {
        "clock": {
            "mode": read.mode,
            "limit_seconds": read.limit_ms // 1000,
            "running": read.running,
            "turn": read.turn,
            "round": read.round,
            "round_remaining_ms": read.round_remaining_ms,
            "players": [
                {
                    "index": index,
                    "name": names[index] if index < len(names) else "",
                    "used_ms": read.used_ms[index],
                    "remaining_ms": read.remaining_ms[index],
                    "expired": read.expired[index],
                }
                for index in range(len(read.used_ms))
            ],
        },
        "server_time": timezone.now().isoformat(),
    }


class MatchClockView(APIView):
    """The match's optional chess clock or round timer: read it (players and spectators) and
    press its buttons (players). Not part of the event log: undo does not rewind it, and the
    match's seq and ETag do not change."""

    def get_permissions(self) -> list[BasePermission]:
        return [IsAuthenticated()] if self.request.method == "POST" else [AllowAny()]

    @extend_schema(parameters=[SPECTATE], responses={200: ClockSerializer})
    def get(self, request: Request, match_id: int) -> Response:
        match = match_for_viewer(request.user, match_id, request.query_params.get("spectate", ""))
        return Response(clock_payload(match))

    @extend_schema(
        request=ClockActionSerializer,
        responses={200: ClockSerializer},
        examples=[
            OpenApiExample(
                "Start a chess clock",
                value={"action": "start", "mode": "chess", "minutes": 30},
                request_only=True,
            ),
            OpenApiExample(
                "Pass the turn to player 1",
                value={"action": "switch", "player": 1},
                request_only=True,
            ),
        ],
    )
    @api_errors({400: CLOCK_ERRORS})
    def post(self, request: Request, match_id: int) -> Response:
        serializer = ClockActionSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        user = request.user
        assert isinstance(user, User)
        match = match_clock_act(
            user=user,
            match_id=match_id,
            action=data["action"],
            mode=data.get("mode", ""),
            minutes=data.get("minutes"),
            player=data.get("player"),
            round_=data.get("round"),
        )
        return Response(clock_payload(match))
