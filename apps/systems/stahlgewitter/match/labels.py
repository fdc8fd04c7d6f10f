"""The words the tracker and the log share (gettext_noop-marked; German rulebook terms stay
German with an English gloss)."""

from __future__ import annotations

from typing import Final

from apps.systems.core.i18n import gettext_noop as _
from apps.systems.stahlgewitter.match.state import Phase, Stage

PHASE_LABELS: Final = {
    Phase.MOVEMENT: _("Bewegungsphase (movement)"),
    Phase.RANGED: _("Fernkampfphase (ranged)"),
    Phase.MELEE: _("Nahkampfphase (melee)"),
    Phase.RALLY: _("Sammelphase (rally)"),
}
STAGE_LABELS: Final = {
    Stage.TERRAIN: _("Terrain: choose the method"),
    Stage.PLACING: _("Terrain: placed alternately"),
    Stage.ZONE: _("Deployment zone"),
    Stage.DEPLOY_ROLL: _("Who places the first marker"),
    Stage.MARKERS: _("Hidden deployment: markers"),
    Stage.START: _("Start roll"),
    Stage.BATTLE: _("Battle"),
    Stage.OVER: _("The game is over"),
}
METHOD_LABELS: Final = {
    "quarters": _("By quarters (up to 5 pieces in two diagonal quarters each)"),
    "alternate": _("Alternately, until a player passes"),
}
EDGE_LABELS: Final = {"north": _("North edge"), "south": _("South edge")}
COVER_LABELS: Final = {
    "open": _("open"),
    "soft": _("soft cover"),
    "hard": _("hard cover"),
    "fortified": _("fortified"),
}
DISTANCE_LABELS: Final = {
    "near": _("within 5 cm"),
    "half": _("within half range"),
    "full": _("within full range"),
}
MODE_LABELS: Final = {"single": _("single shot"), "burst": _("burst")}
BAND_LABELS: Final = {"short": _("moved ≤ 3 cm"), "far": _("moved more than 3 cm")}
TRIGGER_LABELS: Final = {
    "attacked": _("a friend within 10 cm was attacked"),
    "view": _("an enemy moves through its view"),
    "scanner": _("motion scanner: an enemy moves within 25 cm"),
}
REVEAL_LABELS: Final = {
    "seen": _("in an enemy's line of sight"),
    "template": _("attacked with a template weapon"),
    "choice": _("set up by its player"),
    "fired": _("it fires"),
    "fought": _("it fights"),
}
REASONS: Final = {
    "last_round": _("the agreed rounds are played"),
    "eliminated": _("every unit of a side is out"),
    "conceded": _("conceded"),
    "time": _("time is up"),
}
OUT_LABELS: Final = {
    "wiped": _("ausgelöscht (wiped out)"),
    "deserted": _("deserted"),
    "surrendered": _("surrendered"),
    "massacred": _("massacred"),
    "table_edge": _("fled off the table"),
    "cannot_flee": _("surrendered: no way to flee"),
}
EFFECT_LABELS: Final = {
    "banner": _("Fahne (banner)"),
    "motion_scanner": _("Motion-Scanner"),
    "radio": _("Funkgerät (radio)"),
    "medic": _("Sanitäter (medic)"),
    "morphine": _("Morphin"),
    "khirf": _("Khirf"),
    "specialist": _("Spezialist"),
}
CAUSE_LABELS: Final = {
    "hit": _("hit"),
    "wiped": _("ausgelöscht"),
    "stunned_twice": _("stunned twice"),
    "no_retreat": _("cannot retreat"),
    "correction": _("correction"),
    "executed": _("executed by a cruel leader"),
    "burning": _("burning"),
}
