"""API representations of the rule systems (shape only; translation happens here, at the edge)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from rest_framework import serializers

from apps.systems.core.registry import GameSystemInfo


class GameSizeSerializer(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.SerializerMethodField()
    value = serializers.IntegerField()

    def get_label(self, size: Any) -> str:
        return gettext(size.label)


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

    def get_tagline(self, system: GameSystemInfo) -> str:
        return gettext(system.tagline)

    def get_description(self, system: GameSystemInfo) -> str:
        return gettext(system.description)
