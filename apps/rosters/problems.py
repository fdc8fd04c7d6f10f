"""A problem of an imported document: a stable code, where it is ("entries[2].items[0]",
"units[1].base") and what is wrong, so an import reports all of them at once."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    code: str
    path: str
    message: str

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "path": self.path, "message": self.message}
