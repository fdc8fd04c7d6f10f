"""The shapes of the match API's answers for its OpenAPI schema (the views build the payloads
in ``apps.matches.presenters``; these describe them). A match's ``state`` and an event's
``data`` are each system's own: objects the schema leaves open."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample
from rest_framework import serializers

from apps.matches.models import MatchStatus


class MatchSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    system = serializers.CharField()
    title = serializers.CharField()
    mode = serializers.CharField()
    status = serializers.ChoiceField(choices=MatchStatus.choices)
    seq = serializers.IntegerField()
    updated_at = serializers.DateTimeField()
    archived_at = serializers.DateTimeField(
        allow_null=True, help_text="When it was archived (hidden from the lists), if it is."
    )


class MatchPlayerSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    name = serializers.CharField(allow_blank=True)
    user = serializers.IntegerField(allow_null=True, help_text="The user holding the seat.")
    roster = serializers.IntegerField(allow_null=True)


class MatchSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    system = serializers.CharField()
    title = serializers.CharField()
    mode = serializers.CharField()
    status = serializers.ChoiceField(choices=MatchStatus.choices)
    seq = serializers.IntegerField(help_text="The number of the last event; also the ETag.")
    players = MatchPlayerSerializer(many=True)
    result = serializers.JSONField(allow_null=True, help_text="Set once the match is finished.")
    archived_at = serializers.DateTimeField(
        allow_null=True, help_text="When it was archived (hidden from the lists), if it is."
    )
    state = serializers.DictField(help_text="The system's state, hidden information removed.")
    viewer = serializers.IntegerField(
        allow_null=True, help_text="The seat whose secrets the answer shows, if any."
    )


class EventSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    group = serializers.IntegerField(help_text="The seq of the command's first event.")
    round = serializers.IntegerField()
    type = serializers.CharField()
    data = serializers.DictField()
    text = serializers.CharField(allow_blank=True, help_text="The readable log line.")
    undone = serializers.BooleanField()
    actor = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()


class EventsSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    events = EventSerializer(many=True)


class CommandResultSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    replayed = serializers.BooleanField(
        help_text="True when the idempotency key was seen before: the first answer's events."
    )
    events = EventSerializer(many=True)
    state = serializers.DictField()


class StaleSerializer(serializers.Serializer):
    code = serializers.ChoiceField(choices=["stale"])
    message = serializers.CharField()
    seq = serializers.IntegerField()
    state = serializers.DictField(help_text="The match now: decide again on this.")


class LegalCommandSerializer(serializers.Serializer):
    type = serializers.CharField()
    args = serializers.DictField()
    legal = serializers.BooleanField()
    code = serializers.CharField(allow_blank=True, help_text="The refusal's code when not legal.")
    message = serializers.CharField(allow_blank=True)


class LegalSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    commands = LegalCommandSerializer(many=True)


class CommandArgSerializer(serializers.Serializer):
    name = serializers.CharField()
    type = serializers.CharField(help_text="int, str, bool, list, dict, ...")
    required = serializers.BooleanField()
    help = serializers.CharField(allow_blank=True)


class CommandSpecSerializer(serializers.Serializer):
    type = serializers.CharField()
    help = serializers.CharField(allow_blank=True)
    private = serializers.BooleanField(
        help_text="A secret choice only the user holding the seat in its arguments may send."
    )
    args = CommandArgSerializer(many=True)


MATCH_EXAMPLE = OpenApiExample(
    "Two of your Deathmatch teams",
    value={
        "system": "deathmatch",
        "mission": "last-man-standing",
        "players": [{"name": "Anna", "roster": 1}, {"name": "Ben", "roster": 2}],
        "settings": {"game_size": 3, "gadgets": False},
    },
    request_only=True,
)
COMMAND_EXAMPLE = OpenApiExample(
    "A free flip",
    value={
        "type": "flip",
        "args": {"player": 0, "boost": 1, "label": "door"},
        "expected_seq": 12,
        "idempotency_key": "3f1c9a52-tablet-1",
    },
    request_only=True,
)


class OpenSeatSerializer(serializers.Serializer):
    match = serializers.IntegerField()
    index = serializers.IntegerField()
    name = serializers.CharField(allow_blank=True)
    system = serializers.CharField()
    title = serializers.CharField()
    status = serializers.ChoiceField(choices=MatchStatus.choices)
    created_by = serializers.CharField(help_text="Who opened the match with your team.")
