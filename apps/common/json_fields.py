"""JSON for the large, hot JSON columns (a match's snapshot, its log rows): orjson reads and
writes them several times faster than the standard library, and a tap decodes and encodes
tens of kilobytes of them (issue 16: about a twentieth of a tap's CPU went to ``json``).

Both classes plug into ``models.JSONField(encoder=..., decoder=...)``: Django calls
``json.dumps(value, cls=encoder)`` and ``json.loads(text, cls=decoder)``, which build an
instance and call its ``encode`` / ``decode``. What orjson refuses (an integer beyond 64 bits,
a type only a ``default`` hook knows) goes to the standard library as before, so a value
stored before stays readable and writable with the same result.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

# Dict keys that are not strings are written as the standard library writes them (1 -> "1").
_OPTIONS = orjson.OPT_NON_STR_KEYS


class FastJSONEncoder(json.JSONEncoder):
    def encode(self, o: Any) -> str:
        try:
            return orjson.dumps(o, option=_OPTIONS).decode()
        except TypeError:  # orjson.JSONEncodeError is a TypeError
            return super().encode(o)


class FastJSONDecoder(json.JSONDecoder):
    def decode(self, s: str, _w: Any = None) -> Any:  # noqa: ARG002 - json.JSONDecoder's signature
        try:
            return orjson.loads(s)
        except orjson.JSONDecodeError:
            # NaN, Infinity or an integer beyond 64 bits: valid for the standard library.
            return super().decode(s)
