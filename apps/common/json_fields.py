"""JSON for the large, hot JSON columns (a match's snapshot, its log rows): orjson reads and
writes them several times faster than the standard library, and a tap decodes and encodes
tens of kilobytes of them (issue 16: about a twentieth of a tap's CPU went to ``json``).

Both classes plug into ``models.JSONField(encoder=..., decoder=...)``: Django calls
``json.dumps(value, cls=encoder)`` and ``json.loads(text, cls=decoder)``, which build an
instance and call its ``encode`` / ``decode``.

Where the two libraries differ:
- orjson reads an integer beyond 64 bits as a float, silently. So the encoder refuses such an
  integer (a ``TypeError``, as for any value it cannot write) rather than store what would not
  read back the same. The rule systems never write one: exact odds are stored as "p/q" text.
- Values the standard library refuses stay refused: dataclasses, dates and times go to it and
  fail there (orjson would write them itself).
- NaN and infinities are written as ``null`` (the standard library wrote ``NaN``, which
  PostgreSQL refuses); text holding them, written before, is still read, by the standard
  library.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

# Dict keys that are not strings are written as the standard library writes them (1 -> "1").
# Dataclasses and datetimes go to ``default``, which refuses them, as json.dumps does.
_OPTIONS = (
    orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME
)


def _refuse(value: Any) -> Any:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


class FastJSONEncoder(json.JSONEncoder):
    def encode(self, o: Any) -> str:
        # orjson.JSONEncodeError is a TypeError: an integer beyond 64 bits, or a type refused.
        return orjson.dumps(o, default=_refuse, option=_OPTIONS).decode()


class FastJSONDecoder(json.JSONDecoder):
    def decode(self, s: str, _w: Any = None) -> Any:  # noqa: ARG002 - json.JSONDecoder's signature
        try:
            return orjson.loads(s)
        except orjson.JSONDecodeError:
            # NaN or Infinity, as the standard library wrote them: valid for it.
            return super().decode(s)
