"""The rulebook's numbers as data: phases, missions, the door and sentry gun profiles and the
Gefechtsoptionen (battle options) with their cost, timing window and limits
(bunkers-and-badasses.de.txt, "Gefechtsoptionen"; SPEC §5)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from apps.systems.core.i18n import gettext_noop as _


class Stage(StrEnum):
    ZONES = "zones"  # roll off: the winner chooses attacker or defender zones
    CHOOSE_ZONES = "choose_zones"
    MARKER = "marker"  # roll off: the winner places the first objective marker
    DEPLOY = "deploy"  # alternate deploying unit by unit
    FIRST = "first"  # roll off for the first turn
    BATTLE = "battle"
    FINAL = "final"  # Sichert das Artefakt: is the artifact in its carrier's zone?
    OVER = "over"


class Phase(StrEnum):
    COMMAND = "command"
    MOVEMENT = "movement"
    PSYCHIC = "psychic"
    SHOOTING = "shooting"
    CHARGE = "charge"
    FIGHT = "fight"
    MORALE = "morale"


PHASES: Final = tuple(Phase)
PHASE_LABELS: Final[Mapping[str, str]] = {
    Phase.COMMAND: _("Befehlsphase (command phase)"),
    Phase.MOVEMENT: _("Bewegungsphase (movement phase)"),
    Phase.PSYCHIC: _("Psiphase (psychic phase)"),
    Phase.SHOOTING: _("Fernkampfphase (shooting phase)"),
    Phase.CHARGE: _("Angriffsphase (charge phase)"),
    Phase.FIGHT: _("Nahkampfphase (fight phase)"),
    Phase.MORALE: _("Moralphase (morale phase)"),
}
STAGE_LABELS: Final[Mapping[str, str]] = {
    Stage.ZONES: _("Setup: roll off for the deployment zones"),
    Stage.CHOOSE_ZONES: _("Setup: the winner chooses attacker or defender"),
    Stage.MARKER: _("Setup: roll off for the first objective marker"),
    Stage.DEPLOY: _("Setup: deploy unit by unit"),
    Stage.FIRST: _("Setup: roll off for the first turn"),
    Stage.BATTLE: _("Battle"),
    Stage.FINAL: _("End of the game: the artifact"),
    Stage.OVER: _("The game is over"),
}
ROLL_STAGES: Final = (Stage.ZONES, Stage.MARKER, Stage.FIRST)


class Mission(StrEnum):
    EROBERN = "erobern-und-sichern"
    ARTEFAKT = "sichert-das-artefakt"
    REAKTOR = "kampf-um-den-reaktor"


MISSION_NAMES: Final[Mapping[str, str]] = {
    Mission.EROBERN: "Erobern und Sichern",
    Mission.ARTEFAKT: "Sichert das Artefakt",
    Mission.REAKTOR: "Kampf um den Reaktor",
}
MISSION_LABELS: Final[Mapping[str, str]] = {
    Mission.EROBERN: _("Erobern und Sichern (take and hold)"),
    Mission.ARTEFAKT: _("Sichert das Artefakt (secure the artifact)"),
    Mission.REAKTOR: _("Kampf um den Reaktor (battle for the reactor)"),
}
MARKERS: Final[Mapping[str, int]] = {Mission.EROBERN: 6, Mission.ARTEFAKT: 6, Mission.REAKTOR: 4}
# Erobern und Sichern and Kampf um den Reaktor: "Zu Beginn jeder Befehlsphase ab Schlachtrunde
# Nr. 2 wird geguckt, wer welches Missionsziel hält."
HOLD_MISSIONS: Final = frozenset({Mission.EROBERN, Mission.REAKTOR})
FIRST_SCORING_ROUND: Final = 2
VP_HELD: Final = 1
VP_TAKEN: Final = 2  # held now, held by the opponent at the previous command phase
VP_REVEALED: Final = 1
VP_FOUND: Final = 2
VP_CARRIER: Final = 1
VP_CAPTURED: Final = 3
VP_HOME: Final = 2
VP_DESTROYED: Final = 2  # Maximaler Schaden
VP_BELOW_HALF: Final = 1

DEFAULT_ROUNDS: Final = 5  # SPEC §5 decision: the 40K 9th edition standard
MAX_ROUNDS: Final = 10
SIDES: Final = ("attacker", "defender")  # red, green
SIDE_LABELS: Final[Mapping[str, str]] = {
    "attacker": _("Angreifer (attacker, red zones)"),
    "defender": _("Verteidiger (defender, green zones)"),
}
LEVELS: Final = ("upper", "lower")
# "Die Platte kann dabei in zwei Ebenen aufgeteilt werden": a board of one level has one place
# on the table, "board"; a board of two levels has the upper and the lower one.
BOARD: Final = "board"
TABLE_PLACES: Final = (*LEVELS, BOARD)
PLACES: Final = (*TABLE_PLACES, "reserve")
LEVEL_COUNTS: Final = (1, 2)
DEFAULT_LEVELS: Final = 1
PLACE_LABELS: Final[Mapping[str, str]] = {
    "upper": _("upper level"),
    "lower": _("lower level"),
    BOARD: _("on the board"),
    "reserve": _("reserve"),
}


def table_places(levels: int) -> tuple[str, ...]:
    """Where a unit may stand on a board of ``levels`` levels."""
    return LEVELS if levels == 2 else (BOARD,)


# Türen: "Widerstand: 8 / Lebenspunkte: 5 / Rüstungswurf: 3+".
DOOR_TOUGHNESS: Final = 8
DOOR_WOUNDS: Final = 5
DOOR_SAVE: Final = 3
MAX_DOORS: Final = 16
NARROW_BASE_MM: Final = 50


class DoorState(StrEnum):
    OPEN = "open"
    CLOSED = "closed"
    SEALED = "sealed"  # sealed and closed
    SEALED_OPEN = "sealed_open"  # sealed while it stood open: it stays open
    DESTROYED = "destroyed"


DOOR_STATE_LABELS: Final[Mapping[str, str]] = {
    DoorState.OPEN: _("geöffnet (open)"),
    DoorState.CLOSED: _("geschlossen (closed)"),
    DoorState.SEALED: _("versiegelt (sealed)"),
    DoorState.SEALED_OPEN: _("versiegelt, offen (sealed, open)"),
    DoorState.DESTROYED: _("zerstört (destroyed)"),
}
DOOR_KIND_LABELS: Final[Mapping[str, str]] = {
    "door": _("Tür (door)"),
    "barrier": _("Laserbarriere (laser barrier)"),
}

# Sentry Gun: "Ballistische Fertigkeit 5 / Widerstand 4 / Lebenspunkte 2 / Rüstungswurf 4+".
SENTRY_WOUNDS: Final = 2
SENTRY_PROFILE: Final = _('BS 5+ · T4 · W2 · Sv 4+ · light assault cannon 24" Assault 8 S4 AP-1 D1')
MAX_PIECES: Final = 12
# Leitern: "Eine Leiter hat eine Transportkapazität von 15 Modellen, die sich beliebig auf
# maximal zwei Einheiten pro Spielzug aufteilen lässt"; Aufzüge: "eine Transportkapazität von
# zwei Einheiten pro Spielzug". Per ladder or elevator, named by its number on the board
# ("durch Nummern oder farbliche Markierungen").
LEVEL_CHANGES_PER_TURN: Final = 2
LADDER_MODELS: Final = 15
LADDER_BASE_MM: Final = 40
LADDER_CHARACTER_BASE_MM: Final = 50
CONNECTIONS: Final = ("ladder", "elevator")
CONNECTION_LABELS: Final[Mapping[str, str]] = {
    "ladder": _("Leiter (ladder)"),
    "elevator": _("Aufzug (elevator)"),
}
MAX_CONNECTION_NUMBER: Final = 9


class Window(StrEnum):
    """When a battle option may be bought."""

    OWN_MOVEMENT = "own_movement"
    OWN_SHOOTING = "own_shooting"
    MOVEMENT = "movement"
    SHOOTING = "shooting"
    FIGHT = "fight"
    OWN_TURN = "own_turn"
    ANY = "any"


WINDOW_PHASES: Final[Mapping[Window, Phase | None]] = {
    Window.OWN_MOVEMENT: Phase.MOVEMENT,
    Window.OWN_SHOOTING: Phase.SHOOTING,
    Window.MOVEMENT: Phase.MOVEMENT,
    Window.SHOOTING: Phase.SHOOTING,
    Window.FIGHT: Phase.FIGHT,
    Window.OWN_TURN: None,
    Window.ANY: None,
}
OWN_WINDOWS: Final = frozenset({Window.OWN_MOVEMENT, Window.OWN_SHOOTING, Window.OWN_TURN})


class Effect(StrEnum):
    """What buying an option changes in the tracked state (LOG: only logged)."""

    LOG = "log"
    WELD = "weld"  # a closed door becomes sealed
    CUT = "cut"  # a sealed door is destroyed
    HACK = "hack"  # an intact, unsealed door in sight opens or closes
    TRAP = "trap"  # a closed door is trapped
    SENTRY = "sentry"
    BARRICADE = "barricade"
    NOWHERE = "nowhere"  # one more reserve unit may arrive by deep strike
    HURRY = "hurry"  # a unit changes level


@dataclass(frozen=True)
class BattleOption:
    key: str
    name: str  # the rulebook's German name
    gloss: str  # gettext_noop-marked English gloss
    cost: int
    window: Window
    timing: str  # gettext_noop-marked: the rulebook's timing
    effect: Effect = Effect.LOG
    once_per_game: bool = False


OPTIONS: Final = (
    BattleOption(
        "wartungsschaechte", "Wartungsschächte", _("maintenance shafts"), 2,
        Window.OWN_MOVEMENT, _("own movement phase, before the unit moves"),
    ),
    BattleOption(
        "sprengfalle", "Sprengfalle", _("booby trap on a closed door: D3 mortal wounds"), 1,
        Window.OWN_MOVEMENT, _("own movement phase"), Effect.TRAP,
    ),
    BattleOption(
        "rauchgranate", "Rauchgranate", _("smoke grenade: -1 to be hit by ranged attacks"), 1,
        Window.OWN_SHOOTING, _("own shooting phase"),
    ),
    BattleOption(
        "tuer-verschweissen", "Tür verschweißen", _("weld a closed door: sealed"), 1,
        Window.OWN_MOVEMENT, _("own movement phase, end of the unit's move"), Effect.WELD,
    ),
    BattleOption(
        "plasmaschneider", "Plasmaschneider", _("plasma cutter: a sealed door is destroyed"), 1,
        Window.OWN_SHOOTING, _("own shooting phase, instead of shooting"), Effect.CUT,
    ),
    BattleOption(
        "bewegungsscanner", "Bewegungsscanner", _("motion scanner: reroll overwatch misses"), 2,
        Window.FIGHT, _("fight phase, start of overwatch"),
    ),
    BattleOption(
        "heisse-gase", "Heiße Gase", _("hot gases: a hazardous strip until the next shooting"),
        1, Window.SHOOTING, _("shooting phase"),
    ),
    BattleOption(
        "hacker-angriff", "Hacker Angriff", _("hacker attack: open or close a door in sight"),
        3, Window.OWN_TURN, _("any time in own turn"), Effect.HACK,
    ),
    BattleOption(
        "aufklaerungsdrohne", "Aufklärungsdrohne", _("recon drone attached to a unit"), 2,
        Window.ANY, _("any time in the game"),
    ),
    BattleOption(
        "sentry-gun", "Sentry Gun", _("a sentry gun within 2\" of a unit"), 2,
        Window.OWN_MOVEMENT, _("own movement phase"), Effect.SENTRY,
    ),
    BattleOption(
        "barrikaden", "Barrikaden", _("barricade instead of moving"), 2,
        Window.MOVEMENT, _("movement phase"), Effect.BARRICADE,
    ),
    BattleOption(
        "hoellenfeuer", "Höllenfeuer", _("hellfire: a barrel explodes, S4 AP0 D1 within 4\""),
        2, Window.SHOOTING, _("shooting phase"),
    ),
    BattleOption(
        "massives-vorruecken", "Massives Vorrücken", _("massive advance: 2D6 advance"), 1,
        Window.OWN_MOVEMENT, _("start of a unit's move"),
    ),
    BattleOption(
        "aus-dem-nichts", "Aus dem Nichts", _("out of nowhere: one more deep-strike arrival"),
        2, Window.OWN_MOVEMENT, _("end of own movement phase"), Effect.NOWHERE,
    ),
    BattleOption(
        "verzweiflungstat", "Verzweiflungstat",
        _("desperate act: an S10+ model breaches a wall"), 4, Window.FIGHT,
        _("start of the fight phase, once per team and game"), once_per_game=True,
    ),
    BattleOption(
        "eile-ist-geboten", "Eile ist geboten", _("hurry: a unit changes level"), 2,
        Window.OWN_MOVEMENT, _("end of a unit's move"), Effect.HURRY,
    ),
)  # fmt: skip
OPTION_BY_KEY: Final[Mapping[str, BattleOption]] = {option.key: option for option in OPTIONS}
DOOR_EFFECTS: Final = frozenset({Effect.WELD, Effect.CUT, Effect.HACK, Effect.TRAP})
