"""Outside-army endpoints: a list builder's file imported as a roster, or checked without
saving (multipart upload or JSON). A file that cannot be read answers 400 with
``{"code", "message", "problems"}`` as a roster document does, and nothing is saved."""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Mapping
from dataclasses import asdict
from typing import Any

from django.core.files.uploadedfile import UploadedFile
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from apps.accounts.models import User
from apps.common.api import ApiError, api_errors
from apps.common.parsers import JSONParser
from apps.rosters import army_services
from apps.rosters.api import report_payload, roster_payload
from apps.rosters.army_forms import MAX_ARMY_FILE_BYTES
from apps.rosters.selectors import roster_for_owner
from apps.rosters.serializers import (
    ARMY_FILE_EXAMPLE,
    ArmyFileSerializer,
    ArmyReportSerializer,
    RosterSerializer,
)
from apps.systems.bunkers.battlescribe import (
    REFUSALS,
    BattleScribeRefused,
    ImportedArmy,
    army_units,
)
from apps.systems.core.errors import RuleViolation
from apps.systems.core.registry import registry
from apps.systems.core.rosters import EMPTY_CATALOG, RosterInput

# Every way a file can be refused (apps.systems.bunkers.battlescribe), and the request's own.
_SHORT_NUMBER = re.compile(r"[0-9]{1,6}", re.ASCII)
FILE_ERRORS = ("invalid", "not_supported", "settings_invalid", "points_limit", *REFUSALS)


def _file(request: Request) -> tuple[bytes, str]:
    """The uploaded file (multipart ``file``) or the JSON body's ``content`` (the .ros text)
    or ``content_base64`` (a .rosz or any file as base64), with its name."""
    if not isinstance(request.data, Mapping):
        raise ApiError("invalid", "Send a JSON object or a multipart form.")
    upload = request.FILES.get("file") if hasattr(request, "FILES") else None
    if isinstance(upload, UploadedFile):
        if upload.size is None or upload.size > MAX_ARMY_FILE_BYTES:
            raise ApiError("file_too_large", "The file is larger than 2 MB.")
        return upload.read(), upload.name or ""
    data = request.data
    name = data.get("file_name", "")
    if not isinstance(name, str) or len(name) > 200:
        raise ApiError("invalid", "file_name: give at most 200 characters.")
    content, encoded = data.get("content"), data.get("content_base64")
    if isinstance(content, str) and encoded is None:
        return content.encode("utf-8"), name
    if isinstance(encoded, str) and content is None:
        if len(encoded) > MAX_ARMY_FILE_BYTES * 4 // 3 + 4:
            raise ApiError("file_too_large", "The file is larger than 2 MB.")
        try:
            return base64.b64decode(encoded, validate=True), name
        except (binascii.Error, ValueError):
            raise ApiError("invalid", "content_base64: this is not base64.") from None
    raise ApiError(
        "invalid", "Send a file (multipart 'file'), or JSON with 'content' or 'content_base64'."
    )


def _text(request: Request, key: str, default: str = "") -> str:
    value = request.data.get(key, default)
    if not isinstance(value, str) or len(value) > 100:
        raise ApiError("invalid", f"{key}: give a text of at most 100 characters.")
    return value


def _settings(request: Request) -> dict[str, Any]:
    """The army's settings: JSON ``settings`` or the form fields ``points_limit`` and
    ``power_level`` of a multipart upload."""
    settings = request.data.get("settings")
    if isinstance(settings, dict):
        return settings
    if settings is not None:
        raise ApiError("invalid", "settings: must be an object.")
    result: dict[str, Any] = {}
    limit = request.data.get("points_limit")
    if limit not in (None, ""):
        # A form sends digits as text; anything else goes to the rules as it is (and is refused).
        digits = isinstance(limit, str) and _SHORT_NUMBER.fullmatch(limit)
        result["points_limit"] = int(limit) if digits else limit
    power = request.data.get("power_level")
    if power not in (None, ""):
        result["power_level"] = power in (True, "true", "on", "1")
    return result


def _refused(error: BattleScribeRefused) -> ApiError:
    message = army_services.refusal_message(error)
    problem = {"code": error.code, "path": "file", "message": message}
    return ApiError(error.code, message, problems=[problem])


def army_payload(army: ImportedArmy) -> dict[str, Any]:
    """What the file said, beside what the rules report."""
    return {
        "name": army.name,
        "game_system": army.game_system,
        "catalogues": list(dict.fromkeys(force.catalogue for force in army.forces)),
        "declared": asdict(army.declared) if army.declared else None,
        "computed": asdict(army.computed),
        "totals_differ": army.totals_differ,
        "units": [asdict(unit) for unit in army_units(army)],
    }


class ArmyImportView(APIView):
    """Import a BattleScribe roster (.ros, .rosz) or New Recruit's compatible export as a new
    roster of yours."""

    permission_classes = [IsAuthenticated]
    # Parsing a file costs milliseconds per 100 KB: every client is throttled, logged in or not.
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "army_files"
    parser_classes = [JSONParser, MultiPartParser]

    @extend_schema(
        request={"application/json": ArmyFileSerializer, "multipart/form-data": ArmyFileSerializer},
        responses={201: RosterSerializer},
        examples=[ARMY_FILE_EXAMPLE],
        description="The file's units become the roster's units (remembered answers about "
        "walkers and bases filled in). A file that cannot be read answers 400 with its "
        "problem and saves nothing.",
    )
    @api_errors({400: (*FILE_ERRORS, "roster_quota", "too_many_units")})
    def post(self, request: Request, system_slug: str) -> Response:
        system = army_services.outside_army_system(system_slug)
        data, file_name = _file(request)
        user = request.user
        assert isinstance(user, User)
        try:
            roster = army_services.army_import(
                owner=user,
                system=system,
                data=data,
                file_name=file_name,
                name=_text(request, "name"),
                settings=_settings(request),
            )
        except BattleScribeRefused as error:
            raise _refused(error) from None
        payload = roster_payload(roster_for_owner(user, roster.pk))
        return Response(payload, status=status.HTTP_201_CREATED)


class ArmyValidateView(APIView):
    """Check a list builder's file against the house rules without saving it (no login)."""

    permission_classes = [AllowAny]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "army_files"
    parser_classes = [JSONParser, MultiPartParser]

    @extend_schema(
        request={"application/json": ArmyFileSerializer, "multipart/form-data": ArmyFileSerializer},
        responses={200: ArmyReportSerializer},
        examples=[ARMY_FILE_EXAMPLE],
        description="`valid`, every issue (stable codes, each naming its unit by index), the "
        "totals, and what the file said (`army`: its declared and computed totals and units).",
    )
    @api_errors({400: FILE_ERRORS})
    def post(self, request: Request, system_slug: str) -> Response:
        army_services.outside_army_system(system_slug)
        rules = registry().get(system_slug).rosters
        if rules is None:
            raise ApiError("not_supported", f"Rosters for {system_slug} are not modelled yet.")
        data, file_name = _file(request)
        try:
            army = army_services.parse_army(data, file_name)
            settings = rules.normalise_settings(_settings(request))
        except BattleScribeRefused as error:
            raise _refused(error) from None
        except RuleViolation as error:
            raise ApiError(error.code, gettext(error.message)) from None
        user = request.user if request.user.is_authenticated else None
        units = army_services.remembered_units(user, army_units(army))
        roster = RosterInput(faction="", settings=settings, entries=(), units=tuple(units))
        report = rules.report(roster, EMPTY_CATALOG)
        return Response({**report_payload(report), "army": army_payload(army)})
