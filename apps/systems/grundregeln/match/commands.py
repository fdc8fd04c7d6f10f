"""Every Grundregeln command with its arguments, as ``GET /api/v1/systems/grundregeln/commands/``
lists them. ``unit`` and ``target`` are model ids (``state.models[i].id``), ``player`` a player
index (0 or 1)."""

from __future__ import annotations

from typing import Final

from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import ArgSpec, CommandSpec
from apps.systems.core.results import END_ON_TIME

_UNIT = ArgSpec("unit", "int", help=_("The model (its id in state.models)."))
_PLAYER = ArgSpec("player", "int", help=_("The player (0 or 1)."))
_ACTION = ArgSpec(
    "action",
    "str",
    help=_(
        "orient, walk, disengage, march, sprint, charge, walk_and_shoot, flee, pursue, climb, "
        "squeeze, switch_weapon, push, strike, shoot, reload_slow, reload_fast, "
        "restore_morale, use_item, hand_over, block; NPCs also npc_action."
    ),
)
_TARGET = ArgSpec(
    "target",
    "int",
    required=False,
    help=_("The model it is aimed at (attacks, push, pursue, hand over)."),
)
_REACTION_TARGET = ArgSpec(
    "target",
    "int",
    required=False,
    help=_("The model it is aimed at (any model the action may name); default: the acting model."),
)
_WEAPON = ArgSpec(
    "weapon",
    "int",
    required=False,
    help=_(
        "switch_weapon: the weapon to ready; reloads: the weapon (default: the one that needs it)."
    ),
)
_MODIFIER = ArgSpec(
    "modifier",
    "int",
    required=False,
    help=_("Attack dice added or taken for what the table agreed (range, cover): -3..3."),
)
_DICE = ArgSpec(
    "dice",
    "int",
    required=False,
    help=_(
        "Zuschlagen or Angriff by a model with no melee weapon on its card: the attack dice "
        "the table names (1-12)."
    ),
)
_NOTE = ArgSpec("note", "str", required=False, help=_("What was used or done, for the log."))

COMMAND_SPECS: Final = (
    CommandSpec(
        "roll_round_start",
        _("Rundenbeginn: each player rolls 1d6 + their highest morale; ties roll again."),
    ),
    CommandSpec("choose_starter", _("The roll's winner decides who begins."), (_PLAYER,)),
    CommandSpec(
        "test_morale",
        _("Activate a fleeing model: it tests its morale; on a fail it flees again."),
        (_UNIT,),
    ),
    CommandSpec(
        "declare",
        _("Activate a model and declare its one action (NPC phase: an active NPC's action)."),
        (_UNIT, _ACTION, _TARGET, _WEAPON, _MODIFIER, _DICE, _NOTE),
    ),
    CommandSpec(
        "react",
        _(
            "Declare a reaction (any simple action; a scenario NPC also npc_action) to the "
            "declared action: once per round, also by a model that has acted; a model that "
            "has not acted yet spends its action of the round on it."
        ),
        (_UNIT, _ACTION, _REACTION_TARGET, _WEAPON, _MODIFIER, _DICE, _NOTE),
    ),
    CommandSpec(
        "reorder_reaction",
        _("The reacting player moves a declared reaction one place earlier."),
        (ArgSpec("index", "int", help=_("Its place in the list, from 1.")),),
    ),
    CommandSpec(
        "resolve",
        _("Resolve the next reaction, then the action (rolls every die)."),
        (
            ArgSpec(
                "possible",
                "bool",
                required=False,
                help=_("false: the table found it impossible (out of range or sight); it lapses."),
            ),
            ArgSpec(
                "modifier",
                "int",
                required=False,
                help=_(
                    "An attack: the attack dice modifier as measured now, after the reactions "
                    "(-3..3; default: as declared)."
                ),
            ),
            ArgSpec(
                "target",
                "int",
                required=False,
                help=_(
                    "A melee attack: the model it is redirected to (Angriff umlenken); "
                    "default: as declared."
                ),
            ),
        ),
    ),
    CommandSpec("skip_npc", _("NPC phase: an active NPC does nothing this round."), (_UNIT,)),
    CommandSpec(
        "move_npc",
        _(
            "NPC phase: the player whose turn it is moves a passive NPC or lets it take its "
            "scenario action; the other player's models may react."
        ),
        (
            _UNIT,
            ArgSpec(
                "action",
                "str",
                required=False,
                help=_(
                    "walk (default), march, sprint, climb, squeeze, orient, or npc_action "
                    "(the scenario's NPC action)."
                ),
            ),
            ArgSpec("player", "int", required=False, help=_("Checked if given.")),
            _NOTE,
        ),
    ),
    CommandSpec(
        "end_npc_moves",
        _("NPC phase: the player whose turn it is moves no more passive NPCs."),
        (ArgSpec("player", "int", required=False, help=_("Checked if given.")),),
    ),
    CommandSpec(
        "score_round",
        _("End of the round: who holds each objective."),
        (ArgSpec("holders", "list", help=_("One entry per objective: a player index or null.")),),
    ),
    CommandSpec(
        "fall",
        _("A model falls: one attack die per inch, hit and damage on its own size, full armour."),
        (_UNIT, ArgSpec("distance", "int", help=_("Inches fallen, 1-12."))),
    ),
    CommandSpec(
        "roll",
        _("Roll exploding d6 for anything the tracker does not model."),
        (
            ArgSpec("dice", "int", help=_("How many d6 (1-12).")),
            ArgSpec(
                "need", "int", required=False, help=_("Count the dice showing this or more (2-6).")
            ),
            ArgSpec("label", "str", required=False, help=_("What the roll is for.")),
            ArgSpec("player", "int", required=False),
        ),
    ),
    CommandSpec(
        "adjust",
        _("Correct a model by hand: lp (0 removes it), fleeing."),
        (
            _UNIT,
            ArgSpec("lp", "int", required=False),
            ArgSpec("fleeing", "bool", required=False),
            _NOTE,
        ),
    ),
    CommandSpec(
        "adjust_vp",
        _("Add or take a player's victory points by hand."),
        (_PLAYER, ArgSpec("points", "int"), _NOTE),
    ),
    CommandSpec(
        "concede", _("A player gives up: the other wins."), (_PLAYER,), own_seat_arg="player"
    ),
    END_ON_TIME,
    CommandSpec("undo", _("Undo the last command that is not undone yet.")),
)
