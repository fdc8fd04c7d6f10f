"""The words of the Grundregeln tracker: phases, action types and reaches, the titles of the
dice panel's rolls and the odds they had (gettext_noop-marked, translated by the page)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from apps.systems.core.i18n import gettext_noop as _
from apps.systems.grundregeln.match.state import Phase
from apps.systems.grundregeln.tables import ActionType

TYPE_LABELS: Final = {ActionType.SIMPLE: _("simple"), ActionType.COMPLEX: _("complex")}
PHASE_LABELS: Final[Mapping[Phase, str]] = {
    Phase.ROUND_START: _("Round start"),
    Phase.STARTER: _("Round start"),
    Phase.ACTIONS: _("Action phase"),
    Phase.NPC_ACTIONS: _("NPC phase"),
    Phase.NPC_MOVES: _("NPC phase"),
    Phase.SCORING: _("Round end"),
    Phase.OVER: _("Game over"),
}
ROLL_TITLES: Final[Mapping[str, str]] = {
    "hit": _("%(unit)s: hit roll against %(other)s"),
    "fall": _("%(other)s falls: attack dice"),
    "damage": _("Damage dice against %(other)s"),
    "defence": _("%(unit)s: defence dice"),
    "morale": _("%(unit)s: morale test"),
    "flight": _("%(unit)s: flight (W6+B)"),
    "move": _("%(unit)s: movement roll"),
    "push": _("%(unit)s pushes %(other)s: W6"),
    "round_start": _("%(player)s: round start roll"),
    "free": _("Free roll %(label)s"),
}
ODDS_LABELS: Final[Mapping[str, str]] = {
    "damage": _("P(at least 1 LP lost) before the roll: %(p)s"),
    "kill": _("P(eliminated): %(p)s"),
    "expected": _("Expected LP lost: %(p)s"),
    "pass": _("P(passing) before the roll: %(p)s"),
    "at_least": _("P(this result or better): %(p)s"),
    "win": _("P(winning the roll, ties rolled again): %(p)s"),
}
# The type and reach of each move as its button shows it (whole msgids, so each translates).
MOVE_COSTS: Final[Mapping[str, str]] = {
    "orient": _("simple · 0"),
    "walk": _("simple · B"),
    "disengage": _("simple · B"),
    "march": _("complex · 2×B"),
    "sprint": _("complex · 2W6+B"),
    "charge": _("complex · 2×B"),
    "walk_and_shoot": _("complex · B"),
    "flee": _("simple · W6+B"),
    "pursue": _("complex · W6+B"),
    "climb": _("complex · ½B"),
    "squeeze": _("simple · ½B"),
}
MOVE_NOTES: Final[Mapping[str, str]] = {
    "walk": _("B"),
    "disengage": _("B"),
    "march": _("2×B"),
    "sprint": _("2W6+B"),
    "charge": _("2×B"),
    "walk_and_shoot": _("B"),
    "flee": _("W6+B"),
    "pursue": _("W6+B"),
    "climb": _("½B"),
    "squeeze": _("½B"),
    "orient": _("0"),
}
