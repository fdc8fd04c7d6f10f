"""Every Universalis command with its arguments, as ``GET /api/v1/systems/universalis/commands/``
lists them. ``unit``, ``target`` and the like are unit ids (``state.units[i].id``), ``player`` a
player index. Situations the app cannot see (distances, cover, who touches whom) are arguments.
"""

from __future__ import annotations

from typing import Final

from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import ArgSpec, CommandSpec
from apps.systems.core.results import END_ON_TIME

_UNIT = ArgSpec("unit", "int", help=_("The model (its id in state.units)."))
_PLAYER = ArgSpec("player", "int", help=_("The player (index in state.players)."))
_OPERATOR_AP = ArgSpec(
    "operator_ap",
    "int",
    required=False,
    help=_("A telematon: how many of the AP its operator pays (default: what it lacks)."),
)
_WEAPON = ArgSpec(
    "weapon", "int", required=False, help=_("Index in the card's weapons (default 0).")
)
_MELEE_WEAPON = ArgSpec(
    "weapon", "int", required=False, help=_("Index in the card's weapons; -1 unarmed (default 0).")
)
_REROLLS = tuple(
    ArgSpec(
        name,
        "str",
        required=False,
        help=help_,
    )
    for name, help_ in (
        (
            "erschuetterung",
            _(
                "Erschütterung: when the attacker forces an armour reroll: no (default), behind "
                "or behind_or_tie."
            ),
        ),
        (
            "adaptiv",
            _(
                "Adaptiv: when the defender rolls its armour again: no (default), behind or "
                "behind_or_tie."
            ),
        ),
        (
            "robust",
            _(
                "Robust: when the defender forces a wound reroll: no (default), behind or "
                "behind_or_tie."
            ),
        ),
    )
)
_MELEE_ARGS = (
    ArgSpec(
        "friends", "int", required=False, help=_("Other friends touching the enemy (+2 each).")
    ),
    ArgSpec(
        "enemy_friends", "int", required=False, help=_("The enemy's friends touching this model.")
    ),
    ArgSpec("on_win", "str", required=False, help=_("hit (default), push or power.")),
    ArgSpec("power", "int", required=False, help=_("With on_win power: the touch power's index.")),
    *_REROLLS,
)
_CM = ArgSpec(
    "cm", "int", required=False, help=_("Centimetres moved, at most its speed (the default).")
)
_TEST = ArgSpec(
    "movement_test",
    "bool",
    required=False,
    help=_("Difficult terrain: take the movement test (AGI) so the move is not halved."),
)
_USED_ON = ArgSpec(
    "target",
    "int",
    required=False,
    help=_("The model it is used on, if any (an attack on a direct threat names it)."),
)
_PANIC = (
    ArgSpec("enemies", "int", required=False, help=_("Enemy models in perception (−1 each).")),
    ArgSpec("friends", "int", required=False, help=_("Friends in perception (+1 each).")),
    ArgSpec("friends_in_contact", "int", required=False, help=_("Friends in base contact (+3).")),
    ArgSpec(
        "other_eliminated", "int", required=False, help=_("Other eliminated friends seen (−2).")
    ),
)

COMMAND_SPECS: Final = (
    CommandSpec(
        "choose_mission",
        _("Setup: a player picks a mission in secret (only that player may send it)."),
        (_PLAYER, ArgSpec("mission", "str", help=_("A mission slug."))),
        seat_arg="player",
    ),
    CommandSpec("roll_deployment", _("Setup: the group leaders' comparative EH roll.")),
    CommandSpec("start_game", _("Setup done: round 1 begins.")),
    CommandSpec(
        "operator_takes_shock",
        _("Round start: the operator pays a telematon's shock token with 1 AP."),
        (_UNIT,),
    ),
    CommandSpec(
        "pick",
        _("A player picks the next model in secret (only that player may send it)."),
        (_PLAYER, _UNIT),
        seat_arg="player",
    ),
    CommandSpec(
        "activate",
        _("A model takes its phase without a roll (the other side has none left)."),
        (_UNIT,),
    ),
    CommandSpec(
        "burning_test",
        _("A burning model tests its fire at the start of its phase."),
        (
            _UNIT,
            ArgSpec("helpers", "int", required=False, help=_("Friends in base contact.")),
            *_REROLLS,
        ),
    ),
    CommandSpec(
        "threat_test",
        _(
            "EH test to ignore a direct threat (once per phase); failed, the next action attacks "
            "it."
        ),
        (_UNIT, ArgSpec("threat", "int", help=_("The direct threat (an enemy model)."))),
    ),
    CommandSpec("turn", _("Drehen (0 AP)."), (_UNIT,)),
    CommandSpec("move", _("Normale Bewegung (1 AP, 2 prone)."), (_UNIT, _CM, _TEST, _OPERATOR_AP)),
    CommandSpec(
        "disengage",
        _("Aus Nahkampf lösen (2 AP, 3 prone) from a melee, after a passed EH test."),
        (_UNIT, _CM, _TEST, _OPERATOR_AP),
    ),
    CommandSpec("prone", _("Hinlegen (1 AP)."), (_UNIT, _OPERATOR_AP)),
    CommandSpec("stand_up", _("Aufstehen (1 AP)."), (_UNIT, _OPERATOR_AP)),
    CommandSpec(
        "use_object",
        _("Objekt benutzen (1 AP), with an optional attribute roll."),
        (
            _UNIT,
            ArgSpec("attribute", "str", required=False, help=_("agi, nk, fk, ko, wn or eh.")),
            ArgSpec("modifier", "int", required=False, help=_("The object's difficulty.")),
            _OPERATOR_AP,
        ),
    ),
    CommandSpec(
        "shoot",
        _("Normaler (WK+1), Gezielter (WK+2) or Schnellschuss (WK)."),
        (
            _UNIT,
            _WEAPON,
            ArgSpec("mode", "str", required=False, help=_("normal (default), aimed or snap.")),
            ArgSpec(
                "targets",
                "list",
                help=_(
                    "One object per target: unit, distance (cm), cover between shooter and "
                    "target (none|soft|hard|massive), touching (the target touches that cover: "
                    "its armour bonus), shots (sustained fire), dodge (the target dodges, 1 AP), "
                    "melee_with (unit ids of its melee opponents; default: those in the state). "
                    "An area weapon may name a point: no unit."
                ),
            ),
            ArgSpec("indirect", "bool", required=False, help=_("Indirect fire (−5).")),
            ArgSpec(
                "friend_sees", "bool", required=False, help=_("Indirect: a friend sees it (−3).")
            ),
            *_REROLLS,
            _OPERATOR_AP,
        ),
    ),
    CommandSpec(
        "area_hits",
        _("After an area weapon's shot: the models the area covers."),
        (
            ArgSpec(
                "hits",
                "list",
                help=_(
                    "One object per model: unit, partial (half damage), cover (the cover it "
                    "touches)."
                ),
            ),
            *_REROLLS,
        ),
    ),
    CommandSpec(
        "fire_readiness", _("Feuerbereitschaft (2 AP), WK I-III."), (_UNIT, _WEAPON, _OPERATOR_AP)
    ),
    CommandSpec("reload", _("Nachladen (WK)."), (_UNIT, _WEAPON, _OPERATOR_AP)),
    CommandSpec(
        "reaction_fire",
        _("Reaktionsfeuer (WK, −1) at the enemy that just moved (a move, charge or disengage)."),
        (
            _UNIT,
            ArgSpec(
                "target",
                "object",
                help=_(
                    "distance (cm), cover, touching, dodge; shots (sustained fire: all 1 + DF "
                    "shots go to the mover, the default)."
                ),
            ),
            ArgSpec(
                "indirect",
                "bool",
                required=False,
                help=_("Indirect fire: refused, reaction fire never is (14.3)."),
            ),
            *_REROLLS,
        ),
    ),
    CommandSpec(
        "melee",
        _(
            "Angriff (WK) or Verwegener Angriff (WK+2) on a model in base contact; with charge the "
            "Angriffsbewegung, whose attack follows as charge_attack."
        ),
        (
            _UNIT,
            ArgSpec("target", "int", help=_("The model attacked.")),
            _MELEE_WEAPON,
            ArgSpec("reckless", "bool", required=False, help=_("Verwegener Angriff (+3 NK).")),
            ArgSpec(
                "charge",
                "bool",
                required=False,
                help=_("Angriffsbewegung (+2 NK): the move now, the attack with charge_attack."),
            ),
            ArgSpec(
                "reached", "bool", required=False, help=_("A charge that missed contact: false.")
            ),
            _CM,
            *_MELEE_ARGS,
            _OPERATOR_AP,
        ),
    ),
    CommandSpec(
        "charge_attack",
        _("The charge that reached base contact attacks, after the reactions to its move."),
        (_UNIT, *_MELEE_ARGS),
    ),
    CommandSpec(
        "counter_attack",
        _("Gegenangriff (WK) by the defender of the last melee."),
        (_UNIT, _MELEE_WEAPON, *_MELEE_ARGS),
    ),
    CommandSpec(
        "opportunity_attack",
        _("Gelegenheitsangriff (WK) on the model disengaging (it fights with NK 0)."),
        (_UNIT, _MELEE_WEAPON, *_MELEE_ARGS),
    ),
    CommandSpec("defence", _("Verteidigung (2 AP)."), (_UNIT, _OPERATOR_AP)),
    CommandSpec(
        "reveal",
        _("Aufklären (2 AP + extra) a camouflaged enemy."),
        (
            _UNIT,
            ArgSpec("target", "int", help=_("The camouflaged model.")),
            ArgSpec("extra_ap", "int", required=False, help=_("Extra AP, +1 each.")),
            ArgSpec(
                "supporters", "list", required=False, help=_("Friends giving support (2 AP each).")
            ),
            _OPERATOR_AP,
        ),
    ),
    CommandSpec(
        "camouflage",
        _("The table sets a model's camouflage on or off."),
        (_UNIT, ArgSpec("hidden", "bool", help=_("Camouflaged now."))),
    ),
    CommandSpec(
        "use_trait",
        _("Eigenschaft anwenden (its AP)."),
        (
            _UNIT,
            ArgSpec("trait", "int", help=_("Index in the card's traits.")),
            _USED_ON,
            _OPERATOR_AP,
        ),
    ),
    CommandSpec(
        "use_equipment",
        _("Ausrüstung verwenden (its AP)."),
        (
            _UNIT,
            ArgSpec("equipment", "int", help=_("Index in the card's equipment.")),
            _USED_ON,
            _OPERATOR_AP,
        ),
    ),
    CommandSpec(
        "use_power",
        _("Kraft einsetzen (its AP); enemies with a discipline may try to block (3 AP)."),
        (
            _UNIT,
            ArgSpec("power", "int", help=_("Index in the model's powers.")),
            ArgSpec("target", "int", required=False, help=_("The target model, if any.")),
            ArgSpec("blockers", "list", required=False, help=_("Enemy models trying to block.")),
            _OPERATOR_AP,
        ),
    ),
    CommandSpec(
        "end_power",
        _("Kraft beenden (1 AP)."),
        (_UNIT, ArgSpec("power", "int", help=_("Index of the power in play.")), _OPERATOR_AP),
    ),
    CommandSpec(
        "block_power",
        _("Kraft blockieren (2 AP): a lasting enemy power in play."),
        (
            _UNIT,
            ArgSpec("owner", "int", help=_("The model whose power is in play.")),
            ArgSpec("power", "int", help=_("Its index in the owner's powers.")),
            _OPERATOR_AP,
        ),
    ),
    CommandSpec(
        "panic_test", _("The panic test of a friend that saw a model fall."), (_UNIT, *_PANIC)
    ),
    CommandSpec("skip_panic_test", _("That friend does not perceive the fallen model."), (_UNIT,)),
    CommandSpec(
        "panic_move",
        _("Round start: a panicking model runs towards the nearest table edge (no AP)."),
        (_UNIT, ArgSpec("left_table", "bool", required=False, help=_("It left the table."))),
    ),
    CommandSpec(
        "contact",
        _("The table says two enemy models are, or are no longer, in base contact (melee)."),
        (
            _UNIT,
            ArgSpec("other", "int", help=_("The enemy model.")),
            ArgSpec("touching", "bool", help=_("In base contact now.")),
        ),
    ),
    CommandSpec(
        "flee",
        _("A panicking model spends its AP running to the table edge."),
        (_UNIT, ArgSpec("left_table", "bool", required=False, help=_("It left the table."))),
    ),
    CommandSpec(
        "auto_hit",
        _("An automatic hit (a power's effect, a trap): wound against armour."),
        (
            _UNIT,
            ArgSpec("strength", "int", help=_("Strength.")),
            ArgSpec("damage", "int", help=_("Damage.")),
            ArgSpec("effects", "list", required=False, help=_("Damage effect codes.")),
            ArgSpec(
                "cover",
                "str",
                required=False,
                help=_("The cover it touches: none, soft, hard or massive."),
            ),
            ArgSpec("name", "str", required=False, help=_("What hits, for the log.")),
            *_REROLLS,
        ),
    ),
    CommandSpec(
        "fall",
        _("A model falls: height up to its size, up to double, or higher."),
        (_UNIT, ArgSpec("height", "str", help=_("size, double or higher.")), *_REROLLS),
    ),
    CommandSpec(
        "correct",
        _("Hand correction of hit points, AP or shock tokens."),
        (
            _UNIT,
            ArgSpec("hp", "int", required=False, help=_("Hit points.")),
            ArgSpec("ap", "int", required=False, help=_("Action points.")),
            ArgSpec("shock_tokens", "int", required=False, help=_("Shock tokens.")),
        ),
    ),
    CommandSpec(
        "end_phase",
        _("End the initiative phase (a panicking model may retest)."),
        (
            ArgSpec("unit", "int", required=False, help=_("The active model (checked if given).")),
            ArgSpec(
                "panic_retests",
                "list",
                required=False,
                help=_(
                    "Panicking models of the phase that retest (the active model and its "
                    "telematons): unit and the panic modifiers, as panic_test."
                ),
            ),
        ),
    ),
    CommandSpec(
        "surrender",
        _("At a round's end: the player gives up and loses."),
        (_PLAYER,),
        own_seat_arg="player",
    ),
    CommandSpec(
        "concede",
        _("At any moment: the player gives up and loses; the other wins."),
        (_PLAYER,),
        own_seat_arg="player",
    ),
    END_ON_TIME,
    CommandSpec(
        "end_round",
        _("Check the missions and begin the next round (AP halved and carried over)."),
        (
            ArgSpec(
                "held",
                "list",
                required=False,
                help=_("Players who met their declared mission's condition this round."),
            ),
        ),
    ),
)
