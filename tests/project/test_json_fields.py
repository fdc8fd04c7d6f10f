"""The orjson encoder and decoder of the hot JSON columns (apps/common/json_fields.py) write
and read what the standard library does, and fall back to it where orjson refuses a value."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

import pytest

from apps.common.json_fields import FastJSONDecoder, FastJSONEncoder
from apps.matches.models import Match, MatchEvent, MatchSnapshot


@dataclass
class Point:
    x: int
    y: int


VALUES: list[Any] = [
    {},
    {"deck": {"above_turn": [7, 6, 4], "drawn": []}, "odds": {"1": "17/19"}, "flag": None},
    {"name": "Schildträger ⬡⬡", "text": 'quote " and \\ backslash', "nested": [[1.5, -2], True]},
    [1, 2.25, "x", None, False, 2**63 - 1, -(2**63)],
]


@pytest.mark.parametrize("value", VALUES)
def test_encoded_text_reads_back_the_same_with_either_library(value: Any) -> None:
    text = json.dumps(value, cls=FastJSONEncoder)
    assert json.loads(text) == value
    assert json.loads(text, cls=FastJSONDecoder) == value
    assert json.loads(json.dumps(value), cls=FastJSONDecoder) == value


def test_keys_that_are_not_strings_are_written_as_the_standard_library_writes_them() -> None:
    value = {7: "a", 2.5: "b", True: "c", None: "d"}
    assert json.loads(json.dumps(value, cls=FastJSONEncoder)) == json.loads(json.dumps(value))


def test_nan_written_by_the_standard_library_is_still_read() -> None:
    assert math.isnan(json.loads('{"x": NaN}', cls=FastJSONDecoder)["x"])


@pytest.mark.parametrize("big", [2**64 + 1, 2**70 + 1, -(2**63) - 1])
def test_an_integer_that_would_not_read_back_the_same_is_refused(big: int) -> None:
    """orjson reads an integer beyond 64 bits as a float: such a value is never stored."""
    with pytest.raises(TypeError):
        json.dumps({"n": big}, cls=FastJSONEncoder)


@pytest.mark.parametrize(
    "value",
    [object(), date(2026, 1, 1), datetime(2026, 1, 1, tzinfo=UTC), Point(1, 2), {1, 2}],
    ids=["object", "date", "datetime", "dataclass", "set"],
)
def test_what_the_standard_library_refused_stays_refused(value: Any) -> None:
    with pytest.raises(TypeError):
        json.dumps(value, cls=FastJSONEncoder)
    with pytest.raises(TypeError):
        json.dumps({"x": value}, cls=FastJSONEncoder)


def test_invalid_text_is_refused_as_before() -> None:
    with pytest.raises(json.JSONDecodeError):
        json.loads("{not json", cls=FastJSONDecoder)


@pytest.mark.parametrize(
    ("model", "field"), [(Match, "state"), (MatchEvent, "data"), (MatchSnapshot, "state")]
)
def test_the_snapshot_and_log_columns_use_them(model: Any, field: str) -> None:
    column = model._meta.get_field(field)
    assert column.encoder is FastJSONEncoder and column.decoder is FastJSONDecoder
