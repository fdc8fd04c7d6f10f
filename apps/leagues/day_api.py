"""League endpoints of the tournament day: check-in for the next round, the season's day
settings (list reveal, required check-in) and printing the pairings and standings (the round
timer is ``round_api``'s). The same services as the pages do the work."""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.cards.limits import ExportsUnavailable
from apps.common.api import ApiError, api_errors
from apps.common.serializers import StrictSerializer
from apps.leagues import checkins, printing
from apps.leagues.api import access_for, run_service, season_payload, valid_input
from apps.leagues.day_settings import season_day_update
from apps.leagues.models_day import check_reveal_time
from apps.leagues.selectors import registration_of, season_get
from apps.leagues.serializers import SeasonSerializer


class CheckInInput(StrictSerializer):
    registration = serializers.IntegerField(help_text="The player's registration id.")
    answer = serializers.ChoiceField(choices=["present", "absent", "unknown"])


class CheckInRowSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    answer = serializers.ChoiceField(choices=["present", "absent", "unknown"])


class CheckInListSerializer(serializers.Serializer):
    round = serializers.IntegerField(allow_null=True, help_text="Null: check-in is closed.")
    required = serializers.BooleanField()
    players = CheckInRowSerializer(many=True)


class DayInput(StrictSerializer):
    lists_reveal_at = serializers.DateTimeField(
        required=False, allow_null=True, validators=[check_reveal_time]
    )
    check_in_required = serializers.BooleanField(required=False)


class PrintCreatedSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="Follow it at /api/v1/card-exports/{id}/.")
    status = serializers.CharField()


CHECK_IN_ERRORS = {
    400: ("invalid", "invalid_answer"),
    403: ("not_your_check_in", "login_required"),
    404: ("unknown_player",),
    409: ("no_check_in", "player_dropped", "season_finished"),
}


def _row(row: checkins.CheckInRow) -> dict[str, Any]:
    return {
        "id": row.registration.pk,
        "name": row.registration.player.shown_name,
        "answer": row.answer,
    }


class CheckInView(APIView):
    """Check-in for the season's next round (Swiss, not yet paired): organisers see every
    player's answer, a player their own (GET); a player answers for themself, an organiser for
    anyone (POST; ``unknown`` takes an answer back)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: CheckInListSerializer})
    def get(self, request: Request, key: str, season_id: int) -> Response:
        access = access_for(request, key)
        season = season_get(access, season_id)
        number = checkins.check_in_round(season)
        rows: list[checkins.CheckInRow] = []
        if number is not None:
            rows = checkins.check_in_rows(season, number)
            if not access.is_organiser:
                mine = registration_of(request.user, season)
                rows = [r for r in rows if mine is not None and r.registration.pk == mine.pk]
        return Response(
            {
                "round": number,
                "required": season.check_in_required,
                "players": [_row(r) for r in rows],
            }
        )

    @extend_schema(request=CheckInInput, responses={200: CheckInListSerializer})
    @api_errors(CHECK_IN_ERRORS)
    def post(self, request: Request, key: str, season_id: int) -> Response:
        data = valid_input(CheckInInput, request.data)
        run_service(
            lambda: checkins.check_in_set(
                user=request.user,
                key=key,
                season_id=season_id,
                registration_id=data["registration"],
                answer=data["answer"],
            )
        )
        return self.get(request, key, season_id)


class DaySettingsView(APIView):
    """Organisers change when the season's lists are revealed (null: always visible) and
    whether Swiss rounds pair only checked-in players."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=DayInput, responses={200: SeasonSerializer})
    @api_errors({400: ("invalid",), 403: ("permission_denied",)})
    def patch(self, request: Request, key: str, season_id: int) -> Response:
        data = valid_input(DayInput, request.data)
        season_get(access_for(request, key), season_id)
        # Only the settings the request names: the others are kept under the season's lock.
        changes = {k: data[k] for k in ("lists_reveal_at", "check_in_required") if k in data}
        season = run_service(
            lambda: season_day_update(user=request.user, key=key, season_id=season_id, **changes)
        )
        return Response(season_payload(season))


class SeasonPrintView(APIView):
    """Ask for the PDF of the current round's pairings (``pairings``) or of the standings
    (``standings``), made by the cards' export task: ``202`` with the export to follow at
    ``/api/v1/card-exports/{id}/``. For whoever may see the season."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={202: PrintCreatedSerializer})
    @api_errors({404: ("unknown_document",), 409: ("no_round",), 503: ("exports_unavailable",)})
    def post(self, request: Request, key: str, season_id: int, kind: str) -> Response:
        try:
            export = run_service(
                lambda: printing.season_print_request(
                    user=request.user,
                    key=key,
                    season_id=season_id,
                    kind=kind,
                    language=get_language(),
                )
            )
        except ExportsUnavailable as error:
            raise ApiError(
                "exports_unavailable", str(error), status.HTTP_503_SERVICE_UNAVAILABLE
            ) from None
        return Response({"id": export.pk, "status": export.status}, status=status.HTTP_202_ACCEPTED)
