"""League endpoints of the rounds: listing them, pairing the next one (in the request, or by
the task for a big Swiss round: ``202`` and the job), following the job, swapping players in
a draft, publishing or discarding it. The shared helpers and payloads are ``api``'s."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.common.api import ApiError, api_errors
from apps.common.serializers import StrictSerializer
from apps.leagues import pairing_jobs, services
from apps.leagues import round_timer as timers
from apps.leagues import serializers as shapes
from apps.leagues.api import (
    ReadOpenWriteLoggedIn,
    access_for,
    round_payload,
    run_service,
    timer_payload,
    valid_input,
)
from apps.leagues.models import Round
from apps.leagues.models_day import MAX_TIMER_MINUTES
from apps.leagues.pairing_jobs import PairingJob, round_pair_request
from apps.leagues.selectors import round_get, season_get, season_rounds


class PairInput(StrictSerializer):
    allow_rematches = serializers.BooleanField(default=False)


class SwapInput(StrictSerializer):
    player_x = serializers.IntegerField()
    player_y = serializers.IntegerField()


def job_payload(job: PairingJob) -> dict[str, Any]:
    return {
        "state": job.state,
        "done": job.done,
        "total": job.total,
        "message": job.message,
        "number": job.number,
    }


def _job_url(request: Request, key: str, season_id: int) -> str:
    return request.build_absolute_uri(reverse("api:season-pairing-job", args=[key, season_id]))


JOB_LOCATION = OpenApiParameter(
    "Location",
    str,
    OpenApiParameter.HEADER,
    required=True,
    description="The job's address (GET …/pairing-job/).",
    response=[202],
)


class RoundListView(ReadOpenWriteLoggedIn):
    """The rounds (GET); organisers pair the next one as a draft (POST).

    A round of more players than ``LEAGUES_PAIRING_TASK_ABOVE`` (Swiss) is paired by a task:
    the POST answers ``202`` with the job and its address in ``Location``; poll it until it is
    ``done`` (then GET the round by its ``number``) or ``failed``. A POST while the job runs
    answers the same job. Without a task queue a round over ``LEAGUES_PAIRING_INLINE_MAX``
    players answers ``503 pairing_too_large``."""

    @extend_schema(
        operation_id="leagues_seasons_rounds_list",
        responses={200: shapes.RoundSerializer(many=True)},
    )
    def get(self, request: Request, key: str, season_id: int) -> Response:
        access = access_for(request, key)
        season = season_get(access, season_id)
        rounds = season_rounds(season, include_drafts=access.is_organiser)
        return Response([round_payload(r, season) for r in rounds])

    @extend_schema(
        request=PairInput,
        parameters=[JOB_LOCATION],
        responses={
            201: OpenApiResponse(shapes.RoundSerializer, description="Paired in the request."),
            202: OpenApiResponse(
                shapes.PairingJobSerializer, description="A big round: the task pairs it."
            ),
        },
    )
    @api_errors(shapes.ROUND_PAIR)
    def post(self, request: Request, key: str, season_id: int) -> Response:
        data = valid_input(PairInput, request.data)
        paired = run_service(
            lambda: round_pair_request(
                user=request.user,
                key=key,
                season_id=season_id,
                language=get_language() or settings.LANGUAGE_CODE,
                **data,
            )
        )
        if isinstance(paired, PairingJob):
            return Response(
                job_payload(paired),
                status=status.HTTP_202_ACCEPTED,
                headers={"Location": _job_url(request, key, season_id)},
            )
        return self._round(request, key, season_id, paired.number, status.HTTP_201_CREATED)

    @staticmethod
    def _round(
        request: Request, key: str, season_id: int, number: int, code: int = 200
    ) -> Response:
        access = access_for(request, key)
        season = season_get(access, season_id)
        round_ = round_get(season, number)
        if round_.status == Round.Status.DRAFT and not access.is_organiser:
            raise ApiError("not_found", "No such round.", status.HTTP_404_NOT_FOUND)
        rounds = [r for r in season_rounds(season, include_drafts=True) if r.number == number]
        return Response(round_payload(rounds[0], season), status=code)


class PairingJobView(APIView):
    """Where the task pairing the season's next round stands (organisers): ``queued`` or
    ``running`` with its progress, else how the last job ended for a few minutes after: ``done``
    with the round's ``number`` or ``failed`` with the ``message``. 404 when there is none."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: shapes.PairingJobSerializer})
    @api_errors(shapes.PAIRING_JOB)
    def get(self, request: Request, key: str, season_id: int) -> Response:
        access = access_for(request, key)
        access.require_organiser()
        season = season_get(access, season_id)
        job = pairing_jobs.pairing_job(season.pk)
        if job is None:
            message = _("No round of this season is being paired by the task.")
            raise ApiError("not_found", message, status.HTTP_404_NOT_FOUND)
        return Response(job_payload(job))


class RoundDetailView(ReadOpenWriteLoggedIn):
    """One round with its pairings; organisers discard a draft (DELETE)."""

    @extend_schema(responses={200: shapes.RoundSerializer})
    def get(self, request: Request, key: str, season_id: int, number: int) -> Response:
        return RoundListView._round(request, key, season_id, number)

    @extend_schema(responses={204: None})
    @api_errors(shapes.ROUND_DRAFT)
    def delete(self, request: Request, key: str, season_id: int, number: int) -> Response:
        run_service(
            lambda: services.round_discard(
                user=request.user, key=key, season_id=season_id, number=number
            )
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class RoundSwapView(APIView):
    """Exchange two players' places in a draft round (registration ids; a bye is a place)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=SwapInput, responses={200: shapes.RoundSerializer})
    @api_errors(shapes.ROUND_SWAP)
    def post(self, request: Request, key: str, season_id: int, number: int) -> Response:
        data = valid_input(SwapInput, request.data)
        run_service(
            lambda: services.round_swap(
                user=request.user, key=key, season_id=season_id, number=number, **data
            )
        )
        return RoundListView._round(request, key, season_id, number)


class RoundPublishView(APIView):
    """Publish a draft round: its pairings become final and the players report results."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: shapes.RoundSerializer})
    @api_errors(shapes.ROUND_DRAFT)
    def post(self, request: Request, key: str, season_id: int, number: int) -> Response:
        run_service(
            lambda: services.round_publish(
                user=request.user, key=key, season_id=season_id, number=number
            )
        )
        return RoundListView._round(request, key, season_id, number)


class TimerInput(StrictSerializer):
    action = serializers.ChoiceField(choices=timers.TIMER_ACTIONS)
    minutes = serializers.IntegerField(
        required=False,
        min_value=-MAX_TIMER_MINUTES,
        max_value=MAX_TIMER_MINUTES,
        help_text="start: the length (default 150); adjust: minutes to add (negative: take off).",
    )


class RoundTimerStateSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    timer = shapes.RoundTimerSerializer(allow_null=True, help_text="Null: no timer.")


ROUND_TIMER_ERRORS = {
    400: ("invalid", "invalid_minutes"),
    403: ("permission_denied",),
    404: ("unknown_round",),
    409: ("round_not_published", "timer_running", "timer_paused", "timer_not_paused", "no_timer"),
}


class RoundTimerView(ReadOpenWriteLoggedIn):
    """A published round's timer (GET: null when none); organisers start (``minutes``,
    default 150), pause, resume, ``adjust`` by ``minutes`` or stop it (POST)."""

    @extend_schema(responses={200: RoundTimerStateSerializer})
    def get(self, request: Request, key: str, season_id: int, number: int) -> Response:
        access = access_for(request, key)
        round_ = round_get(season_get(access, season_id), number)
        if round_.status == Round.Status.DRAFT and not access.is_organiser:
            raise ApiError("not_found", "No such round.", status.HTTP_404_NOT_FOUND)
        return Response(
            {"round": round_.number, "timer": timer_payload(timers.round_timer(round_))}
        )

    @extend_schema(request=TimerInput, responses={200: RoundTimerStateSerializer})
    @api_errors(ROUND_TIMER_ERRORS)
    def post(self, request: Request, key: str, season_id: int, number: int) -> Response:
        data = valid_input(TimerInput, request.data)
        round_ = run_service(
            lambda: timers.round_timer_act(
                action=data["action"],
                minutes=data.get("minutes"),
                user=request.user,
                key=key,
                season_id=season_id,
                number=number,
            )
        )
        return Response(
            {"round": round_.number, "timer": timer_payload(timers.round_timer(round_))}
        )
