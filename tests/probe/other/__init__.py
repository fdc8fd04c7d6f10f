"""A second rule system without rosters or matches (ratings are kept per system)."""

from __future__ import annotations

from tests.probe.plain import rosterless

SYSTEM = rosterless("other", "Other (test system)", __name__)
