"""API endpoints of the catalogue: systems, factions, profiles, items, missions."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.catalog.models import Faction, Item, Mission, Profile
from apps.catalog.selectors import game_system_get, system_get
from apps.catalog.serializers import (
    FactionSerializer,
    ItemSerializer,
    MissionSerializer,
    ProfileSerializer,
    SystemSerializer,
)
from apps.common.api import ApiError
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


class CatalogListView(generics.ListAPIView):  # type: ignore[type-arg]
    permission_classes = [AllowAny]
    pagination_class = None


class FactionListView(CatalogListView):
    """The factions of a rule system."""

    serializer_class = FactionSerializer

    def get_queryset(self) -> QuerySet[Faction]:
        return Faction.objects.filter(system=game_system_get(self.kwargs["slug"]))


class ProfileListView(CatalogListView):
    """Profiles of a rule system; `?faction=` keeps those that belong to that faction."""

    serializer_class = ProfileSerializer

    @extend_schema(parameters=[OpenApiParameter("faction", str, description="faction slug")])
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    def get_queryset(self) -> QuerySet[Profile]:
        system = game_system_get(self.kwargs["slug"])
        queryset = Profile.objects.filter(system=system).select_related("system")
        faction = self.request.query_params.get("faction")
        if faction is not None:
            if not Faction.objects.filter(system=system, slug=faction).exists():
                raise ApiError("unknown_faction", f"Unknown faction {faction!r}.", 404)
            queryset = queryset.filter(factions__slug=faction)
        return queryset.prefetch_related("factions").order_by("name")


class ItemListView(CatalogListView):
    """Equipment cards, weapons and armour of a rule system."""

    serializer_class = ItemSerializer

    def get_queryset(self) -> QuerySet[Item]:
        system = game_system_get(self.kwargs["slug"])
        return Item.objects.filter(system=system).select_related("system").order_by("name")


class MissionListView(CatalogListView):
    """Game modes / missions of a rule system."""

    serializer_class = MissionSerializer

    def get_queryset(self) -> QuerySet[Mission]:
        return Mission.objects.filter(system=game_system_get(self.kwargs["slug"]))
