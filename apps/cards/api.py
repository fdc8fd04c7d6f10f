"""Card endpoints of api.md: ask for a roster's cards, then follow the export.

Who may: whoever may see the roster, that is its owner (token or session) or anyone passing
the roster's share token as ``?share=``. The same service as the print dialog does the work.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import get_language
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle
from rest_framework.views import APIView

from apps.accounts.models import User
from apps.cards import services
from apps.cards.forms import ROSTER_CONTENTS
from apps.cards.links import share_url, with_share
from apps.cards.models import CardExport
from apps.cards.selectors import card_export_for_viewer, roster_for_viewer
from apps.common.api import ApiError

SHARE = OpenApiParameter("share", str, description="the roster's share token")


class CardOptionsSerializer(serializers.Serializer):
    layout = serializers.ChoiceField(
        choices=CardExport.Layout.choices, default=CardExport.Layout.SHEET
    )
    paper = serializers.ChoiceField(choices=CardExport.Paper.choices, default=CardExport.Paper.A4)
    contents = serializers.ChoiceField(choices=ROSTER_CONTENTS, default=CardExport.Contents.ALL)


def _share(request: Request) -> str:
    return str(request.query_params.get("share", ""))


class RosterCardsView(APIView):
    """Ask for a PDF of a roster's cards. Answers at once with the export to follow; the
    same roster version with the same options gets the export that already exists."""

    permission_classes = [AllowAny]
    throttle_classes = [AnonRateThrottle]

    @extend_schema(
        parameters=[SHARE],
        request=CardOptionsSerializer,
        responses={
            202: inline_serializer(
                "CardExportCreated",
                {"id": serializers.IntegerField(), "status": serializers.CharField()},
            )
        },
    )
    def post(self, request: Request, roster_id: int) -> Response:
        roster = roster_for_viewer(request.user, roster_id, _share(request))
        options = CardOptionsSerializer(data=request.data)
        options.is_valid(raise_exception=True)
        try:
            export = services.card_export_request(
                roster=roster,
                requested_by=request.user if isinstance(request.user, User) else None,
                options=services.ExportOptions(**options.validated_data),
                language=get_language(),
                share_url=share_url(roster, request.build_absolute_uri),
            )
        except services.ExportsUnavailable as error:
            raise ApiError(
                "exports_unavailable", str(error), status_code=status.HTTP_503_SERVICE_UNAVAILABLE
            ) from None
        return Response({"id": export.pk, "status": export.status}, status=status.HTTP_202_ACCEPTED)


def export_payload(request: Request, export: CardExport, share: str) -> dict[str, Any]:
    url = None
    if export.status == CardExport.Status.DONE:
        url = request.build_absolute_uri(
            with_share(reverse("cards:download", args=[export.pk]), share)
        )
    return {
        "status": export.status,
        "progress": export.progress,
        "url": url,
        "message": export.message or None,
    }


class CardExportDetailView(APIView):
    """Where an export stands: ``url`` is the PDF once ``status`` is ``done``; ``message``
    says why when it is ``failed``."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[SHARE],
        responses=inline_serializer(
            "CardExport",
            {
                "status": serializers.ChoiceField(choices=CardExport.Status.choices),
                "progress": serializers.IntegerField(),
                "url": serializers.URLField(allow_null=True),
                "message": serializers.CharField(allow_null=True),
            },
        ),
    )
    def get(self, request: Request, export_id: int) -> Response:
        share = _share(request)
        export = services.card_export_check_stale(
            card_export_for_viewer(request.user, export_id, share)
        )
        return Response(export_payload(request, export, share))
