"""API endpoints for accounts: token authentication."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from apps.common.parsers import JSONParser


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
        serializer.is_valid(raise_exception=True)
        token, _created = Token.objects.get_or_create(user=serializer.validated_data["user"])
        return Response({"token": token.key})
