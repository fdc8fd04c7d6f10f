"""Card endpoints of api.md: ask for a roster's cards, follow the export, download the PDF.

Who may: whoever may see the roster, that is its owner (token or session) or anyone passing
the roster's share token as ``?share=``. The same service as the print dialog does the work.

The export's ``url`` is this API's download (``/api/v1/card-exports/{id}/download/``), which
takes the same credentials as the export itself (a token, a session, the share token), so the
client that asked for the cards can fetch them; the print pages keep their own session link.
"""

from __future__ import annotations

from typing import Any

from django.http import FileResponse
from django.urls import reverse
from django.utils.translation import get_language
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiTypes, extend_schema
from rest_framework import serializers, status
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.permissions import AllowAny
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle
from rest_framework.views import APIView

from apps.accounts.models import User
from apps.cards import services
from apps.cards.forms import ROSTER_CONTENTS
from apps.cards.limits import ExportTooLarge
from apps.cards.links import share_url, with_share
from apps.cards.models import CardExport
from apps.cards.rendering import MAX_CARDS_PER_EXPORT
from apps.cards.selectors import card_export_for_viewer, roster_for_viewer
from apps.cards.views import export_file_response
from apps.common.api import ApiError, api_errors

SHARE = OpenApiParameter(
    "share",
    str,
    description="The roster's share token, for a roster shared with you (also logged out).",
)


class CardExportCreatedSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=CardExport.Status.choices)


class CardExportSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=CardExport.Status.choices)
    progress = serializers.IntegerField(min_value=0, max_value=100, help_text="Percent.")
    url = serializers.URLField(
        allow_null=True,
        help_text="Once done: the PDF, for the same credentials (token, session or share token).",
    )
    message = serializers.CharField(allow_null=True, help_text="Why, once failed.")


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
        responses={202: CardExportCreatedSerializer},
        examples=[
            OpenApiExample(
                "Nine cards to an A4 page",
                value={"layout": "sheet", "paper": "a4", "contents": "all"},
                request_only=True,
            )
        ],
    )
    @api_errors({400: ("invalid",), 422: ("too_many_cards",), 503: ("exports_unavailable",)})
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
        except ExportTooLarge as error:
            raise ApiError(
                error.code,
                str(error),
                status_code=status.HTTP_422_UNPROCESSABLE_ENTITY,
                limit=MAX_CARDS_PER_EXPORT,
            ) from None
        return Response({"id": export.pk, "status": export.status}, status=status.HTTP_202_ACCEPTED)


def export_payload(request: Request, export: CardExport, share: str) -> dict[str, Any]:
    url = None
    if export.status == CardExport.Status.DONE:
        url = request.build_absolute_uri(
            with_share(reverse("api:card-export-download", args=[export.pk]), share)
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

    @extend_schema(parameters=[SHARE], responses={200: CardExportSerializer})
    def get(self, request: Request, export_id: int) -> Response:
        share = _share(request)
        export = services.card_export_check_stale(
            card_export_for_viewer(request.user, export_id, share)
        )
        return Response(export_payload(request, export, share))


class JSONErrorsOnly(BaseContentNegotiation):
    """Errors are JSON whatever the client accepts (a PDF reader sends ``Accept:
    application/pdf``); the file itself is a ``FileResponse`` no renderer touches."""

    def select_renderer(
        self, request: Request, renderers: list[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        return renderers[0], renderers[0].media_type


class CardExportDownloadView(APIView):
    """The export's PDF, for whoever may read the export: its roster's owner (token or
    session), anyone passing the roster's share token as ``?share=``, or whoever asked for
    blank cards. 404 until the export is done, and once its file was cleaned up."""

    permission_classes = [AllowAny]
    content_negotiation_class = JSONErrorsOnly

    @extend_schema(
        parameters=[SHARE],
        responses={(200, "application/pdf"): OpenApiTypes.BINARY},
    )
    def get(self, request: Request, export_id: int) -> FileResponse:
        return export_file_response(
            card_export_for_viewer(request.user, export_id, _share(request))
        )
