"""API endpoints for accounts: token authentication."""

from __future__ import annotations

from typing import Any

from django.utils.translation import ngettext
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from apps.accounts.throttling import lockout_minutes
from apps.common.api import ApiError
from apps.common.parsers import JSONParser


class LoginLockedOut(ApiError):
    """429 for a user name that failed to log in too often from this address."""

    def __init__(self, request: Request) -> None:
        minutes = lockout_minutes(request)
        message = ngettext(
            "Too many failed logins for this user name from your address. "
            "Try again in %(minutes)d minute.",
            "Too many failed logins for this user name from your address. "
            "Try again in %(minutes)d minutes.",
            minutes,
        ) % {"minutes": minutes}
        super().__init__("locked_out", message, status_code=429)
        self.wait = minutes * 60  # DRF sends it as Retry-After


class TokenObtainView(APIView):
    """Exchange a user name and password for the user's API token."""

    authentication_classes: list[type] = []
    permission_classes = [AllowAny]
    parser_classes = [JSONParser]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "auth"

    @extend_schema(
        request=AuthTokenSerializer,
        responses={200: inline_serializer("Token", {"token": serializers.CharField()})},
        auth=[],
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        serializer = AuthTokenSerializer(data=request.data, context={"request": request})
        if not serializer.is_valid():
            # django-axes refused the attempt (it marks the request it was given, DRF's).
            if getattr(request, "axes_locked_out", False):
                raise LoginLockedOut(request)
            raise serializers.ValidationError(serializer.errors)
        token, _created = Token.objects.get_or_create(user=serializer.validated_data["user"])
        return Response({"token": token.key})
