"""The rulebook's tables: hit and damage values by size, and every action with its type.

Sizes index the tables with the attacker as the row and the defender as the column (SPEC §2).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from apps.systems.core.i18n import gettext_noop
from apps.systems.grundregeln.catalog import SIZES, Size

# Tabelle 0.1 (Treffertabelle): the d6 result each attack die needs.
_HIT_ROWS: Final = (
    (4, 3, 2, 2, 2),
    (5, 4, 3, 2, 2),
    (6, 5, 4, 3, 2),
    (6, 6, 5, 4, 3),
    (6, 6, 6, 5, 4),
)
# Tabelle 0.2 (Schadenstabelle): the d6 result each damage die needs.
_DAMAGE_ROWS: Final = (
    (4, 5, 6, 6, 6),
    (3, 4, 5, 6, 6),
    (2, 3, 4, 5, 6),
    (2, 2, 3, 4, 5),
    (2, 2, 2, 3, 4),
)


def hit_value(attacker: Size, defender: Size) -> int:
    return _HIT_ROWS[SIZES.index(attacker)][SIZES.index(defender)]


def damage_value(attacker: Size, defender: Size) -> int:
    return _DAMAGE_ROWS[SIZES.index(attacker)][SIZES.index(defender)]


class ActionType(StrEnum):
    SIMPLE = "simple"  # einfach: may also be a reaction
    COMPLEX = "complex"  # komplex


class Effect(StrEnum):
    """What resolving an action does besides marking the model."""

    NONE = "none"
    MOVE = "move"  # a movement; ``dice`` d6 are rolled for its distance
    ATTACK = "attack"  # a strike (melee weapon) or a shot (ranged weapon)
    PUSH = "push"  # the target is pushed d6 inches away
    SWITCH_WEAPON = "switch_weapon"
    RELOAD = "reload"
    RESTORE_MORALE = "restore_morale"
    BLOCK = "block"
    DISENGAGE = "disengage"


@dataclass(frozen=True)
class Action:
    """One row of the action or movement table.

    ``distance`` is the rulebook's reach in B (0.5 for ½B, 2 for 2×B); ``dice`` the d6 the app
    rolls for it (2d6+B: 2); ``weapon`` "melee" or "ranged" for actions that attack;
    ``target`` whether the action names another model.
    """

    key: str
    name: str  # the rulebook's German name
    label: str  # gettext_noop-marked: the German name with an English gloss (German UI: the name)
    type: ActionType
    effect: Effect = Effect.NONE
    distance: float | None = None
    dice: int = 0
    weapon: str = ""
    target: bool = False
    note: str = ""  # gettext_noop-marked restriction as the table prints it

    @property
    def reaction(self) -> bool:
        return self.type is ActionType.SIMPLE

    @property
    def movement(self) -> bool:
        return self.distance is not None


S, C = ActionType.SIMPLE, ActionType.COMPLEX

ACTIONS: Final = (
    # Movement (Bewegung).
    Action("orient", "Ausrichten", gettext_noop("Ausrichten (turn)"), S, Effect.MOVE, distance=0),
    Action("walk", "Laufen", gettext_noop("Laufen (walk)"), S, Effect.MOVE, distance=1),
    Action(
        "disengage",
        "Lösen",
        gettext_noop("Lösen (disengage)"),
        S,
        Effect.DISENGAGE,
        distance=1,
        note=gettext_noop("only out of melee"),
    ),
    Action("march", "Marsch", gettext_noop("Marsch (march)"), C, Effect.MOVE, distance=2),
    Action(
        "sprint",
        "Rennen / Sprinten",
        gettext_noop("Rennen / Sprinten (run)"),
        C,
        Effect.MOVE,
        distance=1,
        dice=2,
        note=gettext_noop("free movement within the front arc"),
    ),
    Action(
        "charge",
        "Angriff",
        gettext_noop("Angriff (charge)"),
        C,
        Effect.ATTACK,
        distance=2,
        weapon="melee",
        target=True,
        note=gettext_noop("towards a target, then strike"),
    ),
    Action(
        "walk_and_shoot",
        "Laufen und Schießen",
        gettext_noop("Laufen und Schießen (walk and shoot)"),
        C,
        Effect.ATTACK,
        distance=1,
        weapon="ranged",
        target=True,
        note=gettext_noop("towards a target"),
    ),
    Action(
        "flee",
        "Flucht",
        gettext_noop("Flucht (flee)"),
        S,
        Effect.MOVE,
        distance=1,
        dice=1,
        note=gettext_noop("straight away from the cause, without formation"),
    ),
    Action(
        "pursue",
        "Verfolgung",
        gettext_noop("Verfolgung (pursue)"),
        C,
        Effect.MOVE,
        distance=1,
        dice=1,
        target=True,
        note=gettext_noop("towards a fleeing model"),
    ),
    Action("climb", "Klettern", gettext_noop("Klettern (climb)"), C, Effect.MOVE, distance=0.5),
    Action(
        "squeeze",
        "Durchquetschen",
        gettext_noop("Durchquetschen (squeeze through)"),
        S,
        Effect.MOVE,
        distance=0.5,
        note=gettext_noop("through NPCs and enemies"),
    ),
    # Other actions.
    Action(
        "switch_weapon",
        "Waffe wechseln",
        gettext_noop("Waffe wechseln (change weapon)"),
        S,
        Effect.SWITCH_WEAPON,
    ),
    Action(
        "push",
        "Schubsen",
        gettext_noop("Schubsen (push)"),
        S,
        Effect.PUSH,
        target=True,
        note=gettext_noop("d6 inches away from the active model"),
    ),
    Action(
        "strike",
        "Zuschlagen",
        gettext_noop("Zuschlagen (strike)"),
        S,
        Effect.ATTACK,
        weapon="melee",
        target=True,
    ),
    Action(
        "shoot",
        "Schießen",
        gettext_noop("Schießen (shoot)"),
        S,
        Effect.ATTACK,
        weapon="ranged",
        target=True,
    ),
    Action(
        "reload_slow",
        "Langsames Nachladen",
        gettext_noop("Langsames Nachladen (slow reload)"),
        C,
        Effect.RELOAD,
    ),
    Action(
        "reload_fast",
        "Schnelles Nachladen",
        gettext_noop("Schnelles Nachladen (fast reload)"),
        S,
        Effect.RELOAD,
    ),
    Action(
        "restore_morale",
        "Moral wiederherstellen",
        gettext_noop("Moral wiederherstellen (restore morale)"),
        C,
        Effect.RESTORE_MORALE,
    ),
    Action(
        "use_item",
        "Gegenstand nutzen / aufheben / fallen lassen",
        gettext_noop("Gegenstand nutzen / aufheben / fallen lassen (use, pick up or drop an item)"),
        S,
    ),
    Action(
        "hand_over",
        "Gegenstand weitergeben",
        gettext_noop("Gegenstand weitergeben (hand over an item)"),
        S,
        target=True,
        note=gettext_noop("within 1 inch"),
    ),
    Action("block", "Blocken", gettext_noop("Blocken (block: +1 armour)"), S, Effect.BLOCK),
)
ACTION_BY_KEY: Final[Mapping[str, Action]] = {action.key: action for action in ACTIONS}
# Fleeing models that passed their morale test may only rally or move.
FLEEING_ACTIONS: Final = frozenset(
    {"restore_morale", "orient", "walk", "march", "sprint", "flee", "climb", "squeeze"}
)
# Moves that a model in melee may make: leaving a melee needs Lösen (or a flight).
MELEE_MOVES: Final = frozenset({"orient", "disengage", "flee"})
NPC_MOVES: Final = ("walk", "march", "sprint", "climb", "squeeze", "orient")


def action(key: str) -> Action | None:
    return ACTION_BY_KEY.get(key)
