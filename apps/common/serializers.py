"""Request serializers that take JSON types as the OpenAPI schema states them.

DRF's fields are lenient for HTML forms: a ``CharField`` takes ``5`` as ``"5"``, an
``IntegerField`` takes ``"5"`` and ``true``, a ``BooleanField`` takes ``"yes"`` and ``1``. The
API's bodies are JSON, and its schema says ``string``, ``integer``, ``boolean``; a client sending
another type has a bug it should hear about, so ``StrictSerializer`` refuses it (400 ``invalid``
naming the field) before the fields convert anything.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import serializers


def json_type_error(field: serializers.Field, value: Any) -> Any | None:
    """The field's own "invalid" message when ``value`` is not of the JSON type the field
    stands for (``None`` is left to the field: ``allow_null`` decides)."""
    if value is None:
        return None
    if isinstance(field, serializers.BooleanField):
        ok = isinstance(value, bool)
    elif isinstance(field, serializers.IntegerField):
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif isinstance(field, serializers.CharField):
        ok = isinstance(value, str)
    elif isinstance(field, serializers.ListField) and isinstance(value, list):
        return next((m for m in (json_type_error(field.child, item) for item in value) if m), None)
    else:
        return None
    return None if ok else field.error_messages["invalid"]


class StrictSerializer(serializers.Serializer):
    """A serializer for a JSON body: every field takes only its own JSON type."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            errors = {}
            for field in self._writable_fields:
                if field.field_name in data:
                    message = json_type_error(field, data[field.field_name])
                    if message:
                        errors[field.field_name] = [message]
            if errors:
                raise serializers.ValidationError(errors)
        return super().to_internal_value(data)
