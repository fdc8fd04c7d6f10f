"""Card export rows for tests, stored directly (no render, no task sent)."""

from __future__ import annotations

from typing import Any

from apps.cards.models import CardExport
from apps.rosters.models import Roster


def export_row(roster: Roster, fingerprint: str, **fields: Any) -> CardExport:
    """A pending English sheet export of ``roster`` (all cards, A4), as the owner asked for."""
    values: dict[str, Any] = {
        "system": roster.system,
        "roster": roster,
        "requested_by": roster.owner,
        "layout": "sheet",
        "paper": "a4",
        "contents": "all",
        "language": "en",
        "fingerprint": fingerprint,
        "share_url": "",
    }
    return CardExport.objects.create(**{**values, **fields})
