"""API representations of the rule systems and their catalogues (shape only; translation of
the systems' texts happens here, at the edge)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from rest_framework import serializers

from apps.catalog.models import Faction, Item, Mission, Profile
from apps.systems.core.registry import GameSystemInfo, registry


class GameSizeSerializer(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.SerializerMethodField()
    value = serializers.IntegerField()

    def get_label(self, size: Any) -> str:
        return gettext(size.label)


class SizingSerializer(serializers.Serializer):
    """How a system sizes a team: ``kind`` "models" (one of the presets, required) or "points"
    (an optional points limit; the presets are suggestions), in the roster setting
    ``setting``."""

    kind = serializers.CharField()
    setting = serializers.CharField()
    label = serializers.SerializerMethodField()
    default = serializers.IntegerField(allow_null=True)
    required = serializers.BooleanField()

    def get_label(self, sizing: Any) -> str:
        return gettext(sizing.label)


class SystemSerializer(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()
    tagline = serializers.SerializerMethodField()
    description = serializers.SerializerMethodField()
    unit = serializers.CharField()
    dice = serializers.CharField()
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    game_sizes = GameSizeSerializer(many=True)
    sizing = SizingSerializer()

    def get_tagline(self, system: GameSystemInfo) -> str:
        return gettext(system.tagline)

    def get_description(self, system: GameSystemInfo) -> str:
        return gettext(system.description)


class FactionSerializer(serializers.ModelSerializer):
    class Meta:
        model = Faction
        fields = ["slug", "name", "sample"]


class ProfileSerializer(serializers.ModelSerializer):
    factions = serializers.SlugRelatedField(slug_field="slug", many=True, read_only=True)

    class Meta:
        model = Profile
        fields = ["slug", "name", "factions", "stats", "version", "sample"]

    def to_representation(self, instance: Profile) -> dict[str, Any]:
        data = super().to_representation(instance)
        schema = registry().get(instance.system.slug).catalog
        if schema is not None:
            data.update(schema.profile_summary(instance.stats))
        return data


class ItemSerializer(serializers.ModelSerializer):
    class Meta:
        model = Item
        fields = ["slug", "name", "kind", "cost", "stats", "version", "sample"]

    def to_representation(self, instance: Item) -> dict[str, Any]:
        data = super().to_representation(instance)
        schema = registry().get(instance.system.slug).catalog
        if schema is not None:
            data.update(schema.item_summary(kind=instance.kind, stats=instance.stats))
        return data


class MissionSerializer(serializers.ModelSerializer):
    class Meta:
        model = Mission
        fields = ["slug", "number", "name", "data"]
