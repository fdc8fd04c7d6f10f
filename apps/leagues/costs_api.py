"""The season's costs through the API: an organiser sets them to the current catalogue, as the
season page's button does (``apps.leagues.season_catalog``)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.common.api import api_errors
from apps.leagues.api import access_for, run_service, season_payload
from apps.leagues.season_catalog import season_costs_repin
from apps.leagues.selectors import season_get
from apps.leagues.serializers import SeasonSerializer


class RepinnedSerializer(SeasonSerializer):
    costs_changed = serializers.BooleanField(
        help_text="False: the season played the current costs already."
    )
    not_legal = serializers.ListField(
        child=serializers.CharField(),
        help_text="The players whose registered roster is not legal with the new costs.",
    )


class SeasonCostsView(APIView):
    """Organisers set the season's costs to the current catalogue: every registered roster is
    counted with them from now on. Refused (409 ``costs_locked``) once a game of the season
    has a result or a match on the tracker, for a finished season, and (409 ``no_costs``)
    for a system whose rosters are not counted with catalogue costs."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: RepinnedSerializer})
    @api_errors({403: ("permission_denied",), 409: ("costs_locked", "no_costs", "season_finished")})
    def post(self, request: Request, key: str, season_id: int) -> Response:
        season_get(access_for(request, key), season_id)
        outcome = run_service(
            lambda: season_costs_repin(user=request.user, key=key, season_id=season_id)
        )
        return Response(
            {
                **season_payload(outcome.season),
                "costs_changed": outcome.changed,
                "not_legal": list(outcome.illegal),
            }
        )
