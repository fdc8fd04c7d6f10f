"""Roster endpoints of api.md: CRUD (owner only), share-token reads, validate, import, export.

Serializers only check shape; every write goes through ``apps.rosters.services`` like the pages.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle
from rest_framework.views import APIView

from apps.accounts.models import User
from apps.catalog.selectors import game_system_get
from apps.common.api import ApiError, api_errors
from apps.rosters import services
from apps.rosters.documents import DocumentInvalid, document_roster_input, roster_document
from apps.rosters.models import Roster
from apps.rosters.selectors import (
    catalog_data,
    roster_by_share_token,
    roster_for_owner,
    roster_list_for_user,
    roster_report,
)
from apps.rosters.serializers import (
    DOCUMENT_EXAMPLE,
    UPDATE_EXAMPLE,
    ReportSerializer,
    RosterDocumentSerializer,
    RosterSerializer,
    RosterSummarySerializer,
    RosterUpdateSerializer,
)
from apps.systems.core.registry import registry
from apps.systems.core.rosters import RosterIssue, RosterReport


def _issue(issue: RosterIssue) -> dict[str, Any]:
    params = {k: gettext(v) if isinstance(v, str) else v for k, v in issue.params.items()}
    return {"code": issue.code, "message": gettext(issue.template) % params, "entry": issue.entry}


def report_payload(report: RosterReport) -> dict[str, Any]:
    return {
        "valid": report.valid,
        "issues": [_issue(issue) for issue in report.issues],
        "totals": dict(report.totals),
    }


def roster_payload(roster: Roster) -> dict[str, Any]:
    return {
        "id": roster.pk,
        **roster_document(roster),
        **report_payload(roster_report(roster)),
        "share_token": roster.share_token,
        "updated_at": roster.updated_at.isoformat(),
    }


def _user(request: Request) -> User:
    user = request.user
    assert isinstance(user, User)
    return user


def _invalid_document(error: DocumentInvalid) -> ApiError:
    return ApiError(
        error.code, error.message, problems=[problem.as_dict() for problem in error.problems]
    )


def _import(request: Request) -> Response:
    try:
        roster = services.roster_import(owner=_user(request), document=request.data)
    except DocumentInvalid as error:
        raise _invalid_document(error) from None
    roster = roster_for_owner(_user(request), roster.pk)
    return Response(roster_payload(roster), status=status.HTTP_201_CREATED)


# A document that cannot be read: 400 with ``problems``, one code per problem or this one.
DOCUMENT_ERRORS = {
    400: (
        "invalid_document",
        "wrong_format",
        "required",
        "invalid_type",
        "too_long",
        "unknown_system",
        "not_supported",
        "unknown_faction",
        "npc_faction",
        "unknown_profile",
        "unknown_item",
        "count_invalid",
        "too_many_entries",
        "attach_invalid",
        "game_size",
        "settings_invalid",
        "points_limit",
    )
}
IMPORT_ERRORS = {400: (*DOCUMENT_ERRORS[400], "roster_quota")}
IMPORT_SCHEMA = extend_schema(
    request=RosterDocumentSerializer,
    responses={201: RosterSerializer},
    examples=[DOCUMENT_EXAMPLE],
    description="Save a roster document as a new roster of yours (drafts may be illegal: the "
    "answer reports its issues). A document that cannot be read answers 400 with every "
    "problem and saves nothing.",
)


class RosterListView(APIView):
    """Your rosters (GET) and a new roster from a roster document (POST)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: RosterSummarySerializer(many=True)})
    def get(self, request: Request) -> Response:
        rosters = roster_list_for_user(_user(request))
        return Response(RosterSummarySerializer(rosters, many=True).data)

    @IMPORT_SCHEMA
    @api_errors(IMPORT_ERRORS)
    def post(self, request: Request) -> Response:
        return _import(request)


class RosterImportView(APIView):
    """Import a roster document (the same as POST /rosters/)."""

    permission_classes = [IsAuthenticated]

    @IMPORT_SCHEMA
    @api_errors(IMPORT_ERRORS)
    def post(self, request: Request) -> Response:
        return _import(request)


class RosterDetailView(APIView):
    """One roster. The owner may read and change it; anyone with its share token
    (`?share=`) may read it."""

    def get_permissions(self) -> list[Any]:
        if self.request.method == "GET":
            return [AllowAny()]
        return [IsAuthenticated()]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "share",
                str,
                description="The roster's share token: read a roster shared with you (its "
                "`share_token` is then null).",
            )
        ],
        responses={200: RosterSerializer},
    )
    def get(self, request: Request, roster_id: int) -> Response:
        token = request.query_params.get("share")
        if token:
            roster = roster_by_share_token(token)
            if roster.pk != roster_id:
                raise Http404
            payload = roster_payload(roster)
            payload["share_token"] = None  # a reader may not pass the link on as its owner
            return Response(payload)
        if not request.user.is_authenticated:
            raise Http404
        return Response(roster_payload(roster_for_owner(_user(request), roster_id)))

    @extend_schema(
        request=RosterDocumentSerializer,
        responses={200: RosterSerializer},
        examples=[DOCUMENT_EXAMPLE],
        description="Replace the roster's contents with a document of the same system.",
    )
    @api_errors({400: (*DOCUMENT_ERRORS[400], "wrong_system")})
    def put(self, request: Request, roster_id: int) -> Response:
        try:
            services.roster_replace(
                owner=_user(request), roster_id=roster_id, document=request.data
            )
        except DocumentInvalid as error:
            raise _invalid_document(error) from None
        return Response(roster_payload(roster_for_owner(_user(request), roster_id)))

    @extend_schema(
        request=RosterUpdateSerializer,
        responses={200: RosterSerializer},
        examples=[UPDATE_EXAMPLE],
        description="Rename the roster or change its settings (PUT a document to change the "
        "entries).",
    )
    @api_errors({400: ("invalid", "game_size", "settings_invalid", "points_limit")})
    def patch(self, request: Request, roster_id: int) -> Response:
        roster = roster_for_owner(_user(request), roster_id)
        data = request.data
        if not isinstance(data, dict) or not set(data) <= {"name", "settings"}:
            raise ApiError(
                "invalid",
                "PATCH takes only name and settings; PUT a document to change the entries.",
            )
        name = data.get("name", roster.name)
        settings = data.get("settings", {})
        if not isinstance(name, str) or not name.strip() or len(name) > 100:
            raise ApiError("invalid", "name: give 1 to 100 characters.")
        if not isinstance(settings, dict):
            raise ApiError("invalid", "settings: must be an object.")
        services.roster_update(
            owner=_user(request), roster_id=roster_id, name=name, settings=settings
        )
        return Response(roster_payload(roster_for_owner(_user(request), roster_id)))

    @extend_schema(responses={204: None})
    def delete(self, request: Request, roster_id: int) -> Response:
        services.roster_delete(owner=_user(request), roster_id=roster_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class RosterExportView(APIView):
    """The roster as a roster document."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: RosterDocumentSerializer})
    def get(self, request: Request, roster_id: int) -> Response:
        return Response(roster_document(roster_for_owner(_user(request), roster_id)))


class RosterValidateView(APIView):
    """Validate a roster document without saving it (no login needed)."""

    permission_classes = [AllowAny]
    throttle_classes = [AnonRateThrottle]

    @extend_schema(
        request=RosterDocumentSerializer,
        responses={200: ReportSerializer},
        examples=[DOCUMENT_EXAMPLE],
        description="Check a document against the system's rules: `valid`, every issue (the "
        "stable codes of api.md) and the totals. Unknown profiles and items are issues here; "
        "a document of the wrong shape answers 400 with its problems.",
    )
    @api_errors(DOCUMENT_ERRORS)
    def post(self, request: Request) -> Response:
        try:
            system, roster = document_roster_input(request.data)
        except DocumentInvalid as error:
            raise _invalid_document(error) from None
        rules = registry().get(system.slug).rosters
        if rules is None:
            raise ApiError("not_supported", f"Rosters for {system.slug} are not modelled yet.")
        game_system_get(system.slug)
        return Response(report_payload(rules.report(roster, catalog_data(system))))
