"""What a rule system's scenario rules look like to the scenario editor.

Systems whose missions are data rather than code (Grundregeln) let organisers write scenarios:
the editor shows the system's plain ``fields`` and a few NPC rows (a catalogue profile, how it
behaves, how many), and the system turns the entered values into the ``data`` of a catalogue
mission, checking everything at once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from apps.systems.core.rosters import CatalogData, CatalogEntry
from apps.systems.core.schema import FieldSpec


@dataclass(frozen=True)
class NpcChoice:
    """One NPC row of the editor: a catalogue profile, its behaviour and how many."""

    profile: str
    behaviour: str
    count: int = 1


class ScenarioRules(Protocol):
    """The scenario rules a system provides (see ``GameSystemInfo.scenarios``)."""

    fields: tuple[FieldSpec, ...]
    npc_behaviours: tuple[tuple[str, str], ...]  # (key, gettext_noop-marked label)
    max_npc_rows: int

    def npc_profiles(self, catalog: CatalogData) -> tuple[CatalogEntry, ...]:
        """The catalogue profiles a scenario may field as NPCs."""

    def build(
        self,
        *,
        values: Mapping[str, object],
        npcs: Sequence[NpcChoice],
        catalog: CatalogData,
    ) -> dict[str, object]:
        """The mission ``data`` of a scenario; raises ``SchemaError`` listing every problem.
        The NPCs' profiles are copied in, so a scenario keeps the cards it was written with."""

    def values(self, data: Mapping[str, object]) -> tuple[dict[str, object], tuple[NpcChoice, ...]]:
        """The editor's values of stored mission ``data`` (the inverse of ``build``)."""

    def check(self, data: Mapping[str, object]) -> None:
        """Raise ``SchemaError`` when stored mission ``data`` is not a valid scenario."""
