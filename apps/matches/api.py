"""Match endpoints of api.md: create, read (ETag = seq), commands, the log, command lists.

A command goes through ``services.match_apply_command`` like a tap on the tracker page.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.http import Http404
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.accounts.models import User
from apps.catalog.selectors import game_system_get
from apps.common.api import ApiError, api_errors, query_integer
from apps.common.serializers import StrictSerializer
from apps.matches import services
from apps.matches.models import Match
from apps.matches.presenters import event_payload, match_payload
from apps.matches.selectors import (
    engine_for,
    event_rows,
    match_for_viewer,
    match_list_for_user,
    match_state,
    open_seats_for_user,
    undone_groups,
    undone_groups_of,
    viewer_seat,
)
from apps.matches.serializers import (
    COMMAND_EXAMPLE,
    MATCH_EXAMPLE,
    CommandResultSerializer,
    CommandSpecSerializer,
    EventsSerializer,
    LegalSerializer,
    MatchSerializer,
    MatchSummarySerializer,
    OpenSeatSerializer,
    StaleSerializer,
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
    {"type": "integer", "minimum": 0},
    description="The seat (player index, from 0) whose secrets to show; must be yours. "
    "Default: the one seat you hold. Anything but a whole number from 0 is a 400 `invalid`.",
)
ARCHIVED = OpenApiParameter(
    "archived",
    {"type": "integer", "enum": [0, 1]},
    description="1: only your archived matches; 0 (the default): the others.",
)
ETAG = OpenApiParameter(
    "ETag", str, OpenApiParameter.HEADER, response=[200], description='The seq: "<seq>".'
)
IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    str,
    OpenApiParameter.HEADER,
    description='The ETag of an earlier answer ("<seq>"): 304 while the match is unchanged.',
)
# A command the engine refuses (the state is unchanged): its refusal code, e.g. these.
COMMAND_ERRORS = {
    400: ("invalid", "invalid_args", "unknown_command", "game_over", "nothing_to_undo"),
    403: ("private_command", "not_your_seat"),
}
MATCH_CREATE_ERRORS = {
    400: (
        "invalid",
        "unknown_roster",
        "no_tracker",
        "players",
        "match_quota",
        "settings_invalid",
        "wrong_system",
        "game_size_mismatch",
        "roster_illegal",
    ),
    # An unknown rule system, or a share token no roster has (any more).
    404: ("not_found",),
}


def _user(request: Request) -> User:
    user = request.user
    assert isinstance(user, User)
    return user


def _seat(request: Request) -> str:
    """``?seat=`` checked: a whole number from 0 or nothing (a 400 ``invalid`` otherwise)."""
    seat = query_integer(request, "seat", minimum=0)
    return "" if seat is None else str(seat)


class SeatSerializer(StrictSerializer):
    name = serializers.CharField(max_length=40, required=False, allow_blank=True)
    roster = serializers.IntegerField(required=False, min_value=1)
    share_token = serializers.CharField(max_length=64, required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("roster" in attrs) == ("share_token" in attrs):
            raise serializers.ValidationError("Give either a roster id or a share token.")
        return attrs


class MatchCreateSerializer(StrictSerializer):
    system = serializers.SlugField()
    mission = serializers.SlugField(help_text="A game mode slug, or 'random'.")
    players = SeatSerializer(many=True, min_length=2, max_length=4)
    settings = serializers.DictField(
        required=False,
        default=dict,
        help_text='Per system: deathmatch {"game_size": 3|5|7, "gadgets": bool}; universalis '
        '{"max_rounds": 0|4|6|8}; grundregeln none.',
    )

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

    @extend_schema(
        operation_id="matches_list",
        parameters=[ARCHIVED],
        responses={200: MatchSummarySerializer(many=True)},
    )
    @api_errors({400: ("invalid",)})
    def get(self, request: Request) -> Response:
        archived = query_integer(request, "archived", minimum=0)
        if archived not in (None, 0, 1):
            raise ApiError("invalid", gettext("archived: must be 0 or 1."))
        matches = match_list_for_user(_user(request), archived=bool(archived))[:200]
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
                    "archived_at": m.archived_at.isoformat() if m.archived_at else None,
                }
                for m in matches
            ]
        )

    @extend_schema(
        request=MatchCreateSerializer,
        responses={201: MatchSerializer},
        examples=[MATCH_EXAMPLE],
        description="Open a match of 2 to 4 saved teams: each player's `roster` (one of "
        "yours) or `share_token` (a team shared by its link), legal and built for the "
        "match's size.",
    )
    @api_errors(MATCH_CREATE_ERRORS)
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

    @extend_schema(
        parameters=[SPECTATE, SEAT, IF_NONE_MATCH, ETAG],
        responses={
            200: MatchSerializer,
            304: OpenApiResponse(None, description="Unchanged since the ETag sent."),
        },
    )
    @api_errors({400: ("invalid",)})
    def get(self, request: Request, match_id: int) -> Response:
        match = match_for_viewer(request.user, match_id, request.query_params.get("spectate", ""))
        etag = _etag(match.seq)
        if request.headers.get("If-None-Match") == etag:
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": etag})
        viewer = viewer_seat(request.user, match, _seat(request))
        return Response(match_payload(match, viewer=viewer), headers={"ETag": etag})

    def get_permissions(self) -> Sequence[Any]:
        # Reading is open to spectators (their token); deleting needs a login.
        if self.request.method == "DELETE":
            return [IsAuthenticated()]
        return super().get_permissions()

    @extend_schema(
        responses={204: OpenApiResponse(None, description="Deleted, with its whole log.")},
        description="Delete a match for good. Only its creator may (403 `not_creator` for "
        "another player); a match whose result a league game records is kept (409 "
        "`league_record`: archive it instead).",
    )
    @api_errors({403: ("not_creator",), 409: ("league_record",)})
    def delete(self, request: Request, match_id: int) -> Response:
        try:
            services.match_delete(user=_user(request), match_id=match_id)
        except services.NotYourMatch as error:
            raise ApiError(error.code, error.message, status_code=403) from None
        except services.MatchError as error:
            raise ApiError(error.code, error.message, status_code=409) from None
        return Response(status=status.HTTP_204_NO_CONTENT)


class MatchArchiveView(APIView):
    """Archive a match: hidden from its players' lists (``GET /matches/?archived=1`` lists
    it), with its log and any league result kept. Any player of the match or its creator."""

    permission_classes = [IsAuthenticated]
    archived = True

    @extend_schema(request=None, responses={200: MatchSerializer})
    def post(self, request: Request, match_id: int) -> Response:
        match = services.match_archive(
            user=_user(request), match_id=match_id, archived=self.archived
        )
        return Response(match_payload(match, viewer=viewer_seat(request.user, match)))


class MatchUnarchiveView(MatchArchiveView):
    """Unarchive a match: back in its players' lists. Any player of the match or its
    creator."""

    archived = False


class CommandSerializer(StrictSerializer):
    type = serializers.CharField(
        max_length=40, help_text="A command of the system (GET /systems/{slug}/commands/)."
    )
    args = serializers.DictField(
        required=False, default=dict, help_text="The command's arguments, as listed there."
    )
    expected_seq = serializers.IntegerField(required=False, allow_null=True, min_value=0)
    idempotency_key = serializers.CharField(
        max_length=80, required=False, allow_null=True, allow_blank=True
    )


class MatchCommandView(APIView):
    """Send a command. 409 ``stale`` with the fresh state when ``expected_seq`` is old; the
    same ``idempotency_key`` again returns the first answer."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=CommandSerializer,
        parameters=[ETAG],
        responses={
            200: CommandResultSerializer,
            409: OpenApiResponse(
                StaleSerializer,
                description="`stale`: `expected_seq` is not the match's seq; the answer "
                "carries the match now.",
            ),
        },
        examples=[COMMAND_EXAMPLE],
    )
    @api_errors(COMMAND_ERRORS)
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
        except services.NotYourSeat as error:
            raise ApiError(error.code, error.message, status_code=403) from None
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
        # The service hands back the state it stored: decoding the snapshot again would cost
        # as much as the rest of the answer.
        state = match_state(match) if outcome.state is None else outcome.state
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
            OpenApiParameter(
                "after", OpenApiTypes.INT, description="Events after this seq (default 0)."
            ),
        ],
        responses={200: EventsSerializer},
    )
    @api_errors({400: ("invalid",)})
    def get(self, request: Request, match_id: int) -> Response:
        match = match_for_viewer(request.user, match_id, request.query_params.get("spectate", ""))
        after = max(0, query_integer(request, "after") or 0)
        # Only the tail is read (seq > N, in SQL): a poll stays as cheap at 10,000 events as
        # at 10. The undo markers among it flag every undone event in it, since a command's
        # marker always comes after the command's events.
        rows = list(event_rows(match, after=after))
        engine = engine_for(match)
        state = match_state(match)
        undone = undone_groups(rows)
        viewer = viewer_seat(request.user, match, _seat(request))
        return Response(
            {
                "seq": match.seq,
                "events": [event_payload(engine, state, row, undone, viewer) for row in rows],
            }
        )


class MatchLegalView(APIView):
    """What the table may send now: every command the tracker's screens offer (each model
    selected, each wizard opened) with the engine's verdict, the same answer the buttons show.
    A refused command carries the refusal's code and message."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[SPECTATE, SEAT, ETAG],
        responses={200: LegalSerializer},
    )
    @api_errors({400: ("invalid",)})
    def get(self, request: Request, match_id: int) -> Response:
        match = match_for_viewer(request.user, match_id, request.query_params.get("spectate", ""))
        engine = engine_for(match)
        viewer = viewer_seat(request.user, match, _seat(request))
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

    @extend_schema(responses={200: CommandSpecSerializer(many=True)})
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


class OpenSeatListView(APIView):
    """Seats waiting for you: other people's matches opened with your teams from their share
    links, whose seats you have not taken yet (the newest 20)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="matches_open_seats", responses={200: OpenSeatSerializer(many=True)}
    )
    def get(self, request: Request) -> Response:
        return Response(
            [
                {
                    "match": seat.match_id,
                    "index": seat.index,
                    "name": seat.name,
                    "system": seat.match.system.slug,
                    "title": seat.match.title,
                    "status": seat.match.status,
                    "created_by": seat.match.created_by.shown_name,
                }
                for seat in open_seats_for_user(_user(request))
            ]
        )


class TakeSeatView(APIView):
    """Take the seat that plays your team: from then on you hold it (your commands, your
    concession, your secrets) and the match is one of yours. 403 ``not_your_team`` for a seat
    of someone else's team; 404 for a match you have no team in."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: MatchSerializer})
    @api_errors({400: ("unknown_seat",), 403: ("not_your_team", "not_your_seat")})
    def post(self, request: Request, match_id: int, index: int) -> Response:
        try:
            match = services.match_take_seat(user=_user(request), match_id=match_id, index=index)
        except services.NotYourSeat as error:
            raise ApiError(error.code, error.message, status_code=403) from None
        return Response(match_payload(match, viewer=viewer_seat(request.user, match, str(index))))
