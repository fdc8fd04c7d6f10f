"""Match endpoints of api.md: create, read (ETag = seq), commands, the log, command lists.

A command goes through ``services.match_apply_command`` like a tap on the tracker page.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.accounts.models import User
from apps.catalog.selectors import game_system_get
from apps.common.api import ApiError
from apps.matches import services
from apps.matches.models import Match
from apps.matches.presenters import event_payload, match_payload
from apps.matches.selectors import (
    engine_for,
    event_rows,
    match_for_viewer,
    match_list_for_user,
    match_state,
    undone_groups,
    undone_groups_of,
    viewer_seat,
)
from apps.rosters.models import Roster
from apps.rosters.selectors import roster_by_share_token
from apps.systems.core.legality import Refusal
from apps.systems.core.match import MatchEngine
from apps.systems.core.registry import registry

OBJECT = OpenApiTypes.OBJECT
SPECTATE = OpenApiParameter(
    "spectate", str, description="A spectator token instead of being a participant."
)
SEAT = OpenApiParameter(
    "seat",
    int,
    description="The seat (player index) whose secrets to show; must be yours. Default: the "
    "one seat you hold.",
)


def _user(request: Request) -> User:
    user = request.user
    assert isinstance(user, User)
    return user


class SeatSerializer(serializers.Serializer[dict[str, Any]]):
    name = serializers.CharField(max_length=40, required=False, allow_blank=True)
    roster = serializers.IntegerField(required=False, min_value=1)
    share_token = serializers.CharField(max_length=64, required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("roster" in attrs) == ("share_token" in attrs):
            raise serializers.ValidationError("Give either a roster id or a share token.")
        return attrs


class MatchCreateSerializer(serializers.Serializer[dict[str, Any]]):
    system = serializers.SlugField()
    mission = serializers.SlugField(help_text="A game mode slug, or 'random'.")
    players = SeatSerializer(many=True)
    settings = serializers.DictField(required=False, default=dict)

    def validate_players(self, players: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if not 2 <= len(players) <= 4:
            raise serializers.ValidationError("A match has 2 to 4 players.")
        return players


def seat_roster(user: User, *, roster_id: int | None, share_token: str | None) -> Roster:
    """A team for a seat: one of the user's rosters, or a roster shared by its link."""
    if share_token:
        return roster_by_share_token(share_token)
    roster = (
        Roster.objects.filter(owner=user, pk=roster_id or 0)
        .select_related("system", "owner")
        .first()
    )
    if roster is None:
        raise ApiError("unknown_roster", f"You have no roster {roster_id}.", status_code=400)
    return roster


class MatchListView(APIView):
    """Your matches (GET) and a new match of saved teams (POST)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="matches_list", responses=OBJECT)
    def get(self, request: Request) -> Response:
        matches = match_list_for_user(_user(request))[:200]
        return Response(
            [
                {
                    "id": m.pk,
                    "system": m.system.slug,
                    "title": m.title,
                    "mode": m.mode,
                    "status": m.status,
                    "seq": m.seq,
                    "updated_at": m.updated_at.isoformat(),
                }
                for m in matches
            ]
        )

    @extend_schema(request=MatchCreateSerializer, responses={201: OBJECT})
    def post(self, request: Request) -> Response:
        serializer = MatchCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        system = game_system_get(data["system"])
        seats = [
            services.Seat(
                name=seat.get("name", ""),
                roster=seat_roster(
                    _user(request),
                    roster_id=seat.get("roster"),
                    share_token=seat.get("share_token"),
                ),
            )
            for seat in data["players"]
        ]
        match = services.match_create(
            creator=_user(request),
            system=system,
            mode=data["mission"],
            seats=seats,
            settings=data["settings"],
        )
        viewer = viewer_seat(_user(request), match)
        return Response(match_payload(match, viewer=viewer), status=status.HTTP_201_CREATED)


def _etag(seq: int) -> str:
    return f'"{seq}"'


class MatchDetailView(APIView):
    """A match and its state; the ETag is the seq, so polling an unchanged match is a 304."""

    permission_classes = [AllowAny]

    @extend_schema(parameters=[SPECTATE, SEAT], responses=OBJECT)
    def get(self, request: Request, match_id: int) -> Response:
        match = match_for_viewer(request.user, match_id, request.query_params.get("spectate", ""))
        etag = _etag(match.seq)
        if request.headers.get("If-None-Match") == etag:
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": etag})
        viewer = viewer_seat(request.user, match, request.query_params.get("seat", ""))
        return Response(match_payload(match, viewer=viewer), headers={"ETag": etag})


class CommandSerializer(serializers.Serializer[dict[str, Any]]):
    type = serializers.CharField(max_length=40)
    args = serializers.DictField(required=False, default=dict)
    expected_seq = serializers.IntegerField(required=False, allow_null=True, min_value=0)
    idempotency_key = serializers.CharField(
        max_length=80, required=False, allow_null=True, allow_blank=True
    )


class MatchCommandView(APIView):
    """Send a command. 409 ``stale`` with the fresh state when ``expected_seq`` is old; the
    same ``idempotency_key`` again returns the first answer."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=CommandSerializer, responses={200: OBJECT, 409: OBJECT})
    def post(self, request: Request, match_id: int) -> Response:
        serializer = CommandSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            outcome = services.match_apply_command(
                user=_user(request),
                match_id=match_id,
                command_type=data["type"],
                args=data["args"],
                expected_seq=data.get("expected_seq"),
                idempotency_key=data.get("idempotency_key") or None,
            )
        except services.StaleCommand as stale:
            payload = match_payload(stale.match, viewer=viewer_seat(request.user, stale.match))
            return Response(
                {
                    "code": "stale",
                    "message": gettext("Another device moved first: this is the match now."),
                    "seq": stale.match.seq,
                    "state": payload["state"],
                },
                status=status.HTTP_409_CONFLICT,
            )
        match = outcome.match
        engine = engine_for(match)
        state = match_state(match)
        undone = undone_groups_of(match) if outcome.replayed else set()
        viewer = _command_viewer(request, match, data)
        return Response(
            {
                "seq": match.seq,
                "replayed": outcome.replayed,
                "events": [
                    event_payload(engine, state, row, undone, viewer) for row in outcome.events
                ],
                "state": engine.public_state(state, viewer=viewer),
            },
            headers={"ETag": _etag(match.seq)},
        )


def _command_viewer(request: Request, match: Match, data: dict[str, Any]) -> int | None:
    """Whose secrets a command's answer may show: the seat a secret choice was made for (the
    service checked it is the sender's), else the sender's own seat."""
    engine = engine_for(match)
    spec = next((s for s in engine.commands() if s.type == data["type"]), None)
    if spec is not None and spec.seat_arg:
        seat = data.get("args", {}).get(spec.seat_arg)
        if isinstance(seat, int):
            return seat
    return viewer_seat(request.user, match)


class MatchEventsView(APIView):
    """The log after seq N (undo markers included; undone events are flagged)."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            SPECTATE,
            SEAT,
            OpenApiParameter("after", int, description="Events after this seq."),
        ],
        responses=OBJECT,
    )
    def get(self, request: Request, match_id: int) -> Response:
        match = match_for_viewer(request.user, match_id, request.query_params.get("spectate", ""))
        try:
            after = max(0, int(request.query_params.get("after", "0")))
        except ValueError:
            raise ApiError("invalid", "'after' must be a number.") from None
        rows = list(event_rows(match))
        engine = engine_for(match)
        state = match_state(match)
        undone = undone_groups(rows)
        viewer = viewer_seat(request.user, match, request.query_params.get("seat", ""))
        return Response(
            {
                "seq": match.seq,
                "events": [
                    event_payload(engine, state, row, undone, viewer)
                    for row in rows
                    if row.seq > after
                ],
            }
        )


class MatchLegalView(APIView):
    """What the table may send now: every command the tracker's screens offer (each model
    selected, each wizard opened) with the engine's verdict, the same answer the buttons show.
    A refused command carries the refusal's code and message."""

    permission_classes = [AllowAny]

    @extend_schema(parameters=[SPECTATE, SEAT], responses=OBJECT)
    def get(self, request: Request, match_id: int) -> Response:
        match = match_for_viewer(request.user, match_id, request.query_params.get("spectate", ""))
        engine = engine_for(match)
        viewer = viewer_seat(request.user, match, request.query_params.get("seat", ""))
        options = engine.legal_commands(match_state(match), viewer=viewer)
        return Response(
            {
                "seq": match.seq,
                "commands": [
                    {
                        "type": option.command.type,
                        "args": dict(option.command.args),
                        "legal": option.refusal is None,
                        "code": option.refusal.code if option.refusal else "",
                        "message": _refusal_text(engine, option.refusal),
                    }
                    for option in options
                ],
            },
            headers={"ETag": _etag(match.seq)},
        )


def _refusal_text(engine: MatchEngine, refusal: Refusal | None) -> str:
    if refusal is None:
        return ""
    message = engine.refusal(refusal.code)
    return gettext(message) if message else refusal.message


class SystemCommandsView(APIView):
    """Every command type of a system's match engine with its arguments."""

    permission_classes = [AllowAny]

    @extend_schema(responses=OBJECT)
    def get(self, request: Request, slug: str) -> Response:
        system = game_system_get(slug)
        engine = registry().get(system.slug).matches
        if engine is None:
            raise Http404
        return Response(
            [
                {
                    "type": spec.type,
                    "help": gettext(spec.help),
                    "private": bool(spec.seat_arg),
                    "args": [
                        {
                            "name": arg.name,
                            "type": arg.type,
                            "required": arg.required,
                            "help": gettext(arg.help) if arg.help else "",
                        }
                        for arg in spec.args
                    ],
                }
                for spec in engine.commands()
            ]
        )
