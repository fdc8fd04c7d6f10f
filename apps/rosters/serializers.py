"""The shapes of the roster API for its OpenAPI schema: the roster document (api.md) and the
answers built from it.

The document is read by ``apps.rosters.documents``, which reports every problem with its path;
these serializers describe the same shape (types, limits, required fields) for clients and
for schemathesis, and check nothing themselves.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample
from rest_framework import serializers

from apps.rosters.documents import (
    FORMAT,
    MAX_ENTRIES,
    MAX_ITEMS_PER_ENTRY,
    MAX_NAME_LENGTH,
)
from apps.rosters.models import (
    BASE_PATTERN,
    MAX_ENTRY_COUNT,
    MAX_UNIT_MODELS,
    MAX_UNIT_POINTS,
    MAX_UNIT_POWER,
    MAX_UNIT_WOUNDS,
    Roster,
)
from apps.rosters.unit_documents import MAX_KEYWORDS, MAX_UNITS
from apps.systems.core.rosters import MAX_KEYWORD_LENGTH


class EntrySerializer(serializers.Serializer):
    profile = serializers.CharField(help_text="A profile slug of the document's system.")
    items = serializers.ListField(
        child=serializers.CharField(),
        max_length=MAX_ITEMS_PER_ENTRY,
        required=False,
        help_text="Item slugs (equipment cards, weapons, armour, powers).",
    )
    count = serializers.IntegerField(
        min_value=1, max_value=MAX_ENTRY_COUNT, required=False, help_text="Default 1."
    )
    name = serializers.CharField(
        max_length=60, required=False, allow_blank=True, allow_null=True, help_text="A nickname."
    )
    attach_to = serializers.IntegerField(
        min_value=0,
        required=False,
        allow_null=True,
        help_text="The index of another entry this one is assigned to (a Universalis "
        "telematon's operator).",
    )


class UnitSerializer(serializers.Serializer):
    """A unit of an army from outside the catalogue (Bunkers and Badasses)."""

    name = serializers.CharField(max_length=100)
    models = serializers.IntegerField(min_value=1, max_value=MAX_UNIT_MODELS, required=False)
    points = serializers.IntegerField(min_value=0, max_value=MAX_UNIT_POINTS, required=False)
    power = serializers.IntegerField(min_value=0, max_value=MAX_UNIT_POWER, required=False)
    keywords = serializers.ListField(
        child=serializers.CharField(max_length=MAX_KEYWORD_LENGTH),
        max_length=MAX_KEYWORDS,
        required=False,
    )
    wounds = serializers.IntegerField(min_value=1, max_value=MAX_UNIT_WOUNDS, required=False)
    base = serializers.RegexField(
        BASE_PATTERN + "|^$",
        required=False,
        allow_blank=True,
        help_text='"round:<mm>", "oval:<width>x<depth>" or empty (not asked yet).',
    )
    walker = serializers.BooleanField(required=False, help_text="Confirmed as a walker.")
    reserve = serializers.BooleanField(required=False, help_text="Starts in reserve.")
    deep_strike = serializers.BooleanField(
        required=False, help_text="Arrives by a deep-strike-like rule."
    )


class RosterDocumentSerializer(serializers.Serializer):
    """A roster document: what export answers and import, PUT and validate take."""

    format = serializers.ChoiceField(choices=[FORMAT])
    system = serializers.CharField(help_text="A rule system slug, e.g. deathmatch.")
    name = serializers.CharField(max_length=MAX_NAME_LENGTH)
    faction = serializers.CharField(
        allow_null=True, allow_blank=True, required=False, help_text="A faction slug of the system."
    )
    settings = serializers.DictField(
        required=False,
        help_text='Per system: deathmatch {"game_size": 3|5|7, "last_man_standing": bool}; '
        'points systems {"points_limit": N}.',
    )
    entries = EntrySerializer(many=True, max_length=MAX_ENTRIES, required=False)
    units = UnitSerializer(
        many=True,
        max_length=MAX_UNITS,
        required=False,
        help_text="Systems whose armies come from outside the catalogue (bunkers) only.",
    )


class IssueSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="A stable issue code of the system (api.md).")
    message = serializers.CharField()
    entry = serializers.IntegerField(allow_null=True, help_text="The entry's index, if any.")


class ReportSerializer(serializers.Serializer):
    valid = serializers.BooleanField()
    issues = IssueSerializer(many=True)
    totals = serializers.DictField(
        help_text="Per system; deathmatch: arp_pool, arp_spent, command_points, mercenaries."
    )


class RosterSerializer(RosterDocumentSerializer, ReportSerializer):
    """A saved roster: its document, its report, its share token (``null`` when not shared,
    and for a reader through the share link)."""

    id = serializers.IntegerField()
    faction = serializers.CharField(allow_null=True)
    settings = serializers.DictField()
    entries = EntrySerializer(many=True)
    share_token = serializers.CharField(allow_null=True)
    updated_at = serializers.DateTimeField()


class RosterSummarySerializer(serializers.ModelSerializer):
    system = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    faction = serializers.SlugRelatedField(slug_field="slug", read_only=True, allow_null=True)

    class Meta:
        model = Roster
        fields = [
            "id",
            "name",
            "system",
            "faction",
            "settings",
            "legal",
            "issue_count",
            "updated_at",
        ]


class RosterUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=MAX_NAME_LENGTH, required=False)
    settings = serializers.DictField(required=False)


DOCUMENT_EXAMPLE = OpenApiExample(
    "A Deathmatch team",
    value={
        "format": FORMAT,
        "system": "deathmatch",
        "name": "Team Phalanx",
        "faction": "phalanx",
        "settings": {"game_size": 3},
        "entries": [
            {"profile": "phalanx-hauptmann-brandt", "items": []},
            {"profile": "phalanx-schildtraeger", "items": [], "name": "Kael"},
            {"profile": "phalanx-brandmeister", "items": [], "count": 1},
        ],
    },
    request_only=True,
)


class ArmyFileSerializer(serializers.Serializer):
    """A list builder's file: uploaded as ``file`` (multipart), or in JSON as ``content`` (the
    .ros XML text) or ``content_base64`` (a .rosz or any file)."""

    file = serializers.FileField(required=False)
    file_name = serializers.CharField(max_length=200, required=False)
    content = serializers.CharField(required=False)
    content_base64 = serializers.CharField(required=False)
    name = serializers.CharField(max_length=100, required=False, allow_blank=True)
    settings = serializers.DictField(
        required=False, help_text='{"points_limit": N, "power_level": bool} (JSON).'
    )
    points_limit = serializers.IntegerField(min_value=1, required=False, help_text="Multipart.")
    power_level = serializers.BooleanField(required=False, help_text="Multipart.")


class ArmyReportSerializer(ReportSerializer):
    army = serializers.DictField(
        help_text="What the file said: name, game_system, catalogues, declared and computed "
        "totals (points, power, cp), totals_differ, units."
    )


ARMY_FILE_EXAMPLE = OpenApiExample(
    "A BattleScribe roster as text",
    value={
        "file_name": "salamanders.ros",
        "content": '<?xml version="1.0" encoding="utf-8"?><roster xmlns="http://www.battlescribe'
        '.net/schema/rosterSchema" name="Salamanders">…</roster>',
        "name": "Salamanders",
        "settings": {"points_limit": 1000, "power_level": False},
    },
    request_only=True,
)
UPDATE_EXAMPLE = OpenApiExample("Rename", value={"name": "Team Phalanx II"}, request_only=True)
