"""API endpoints of the catalogue."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.catalog.selectors import system_get
from apps.catalog.serializers import SystemSerializer
from apps.systems.core.registry import registry


class SystemListView(APIView):
    """The five rule systems Skirmish serves."""

    permission_classes = [AllowAny]

    @extend_schema(responses=SystemSerializer(many=True))
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return Response(SystemSerializer(registry().all(), many=True).data)


class SystemDetailView(APIView):
    """One rule system by slug."""

    permission_classes = [AllowAny]

    @extend_schema(responses=SystemSerializer)
    def get(self, request: Request, slug: str, *args: Any, **kwargs: Any) -> Response:
        return Response(SystemSerializer(system_get(slug)).data)
