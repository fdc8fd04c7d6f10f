"""Every Deathmatch command with its arguments, as ``GET /api/v1/systems/deathmatch/commands/``
lists them. ``unit`` and ``target`` are unit ids (``state.units[i].id``), ``player`` a player
index, ``objective`` and ``gadget`` the ids in ``state.objectives`` / ``state.gadgets``."""

from __future__ import annotations

from typing import Final

from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import ArgSpec, CommandSpec
from apps.systems.core.results import END_ON_TIME

_UNIT = ArgSpec("unit", "int", help=_("The unit (its id in state.units)."))
_ACTIVE = ArgSpec("unit", "int", required=False, help=_("The activated unit (checked if given)."))
_PLAYER = ArgSpec("player", "int", help=_("The player (index in state.players)."))
_CONFIRM = ArgSpec(
    "confirm_flips",
    "bool",
    required=False,
    help=_("Wait after each flip so the player may reroll with CP (default true)."),
)
_TARGETS = ArgSpec(
    "targets",
    "list",
    help=_(
        "One object per target: unit, cover (none|cover|hard), target_elevated, "
        "attacker_elevated, rear, target_in_melee and attacker_in_melee (ranged: only a "
        "Handwaffe fires from an enemy control zone), obstacle and several_enemies "
        "(melee), warning (the defender pays 1 CP), interferers (ranged: unit ids or -1 for "
        "an obstacle, closest to the target first)."
    ),
)
_WEAPON = ArgSpec(
    "weapon", "int", required=False, help=_("Index in the unit's weapons (default 0).")
)
# The hazards of a move (Fallen, gefährliches Gelände); each moving command has its own help for
# the fall height, which says when the fall happens.
_JUMPED_DOWN = ArgSpec(
    "jumped_down", "bool", required=False, help=_("The fall was a deliberate jump.")
)
_DANGEROUS_TERRAIN = ArgSpec(
    "dangerous_terrain", "bool", required=False, help=_("It touched dangerous terrain.")
)

COMMAND_SPECS: Final = (
    CommandSpec(
        "choose_gadget",
        _("Setup: a player chooses a gadget option (0-9)."),
        (
            _PLAYER,
            ArgSpec("option", "int", help=_("0-9 as listed in the rulebook.")),
        ),
    ),
    CommandSpec("flip_gadget", _("Setup: a player flips a card for a random gadget."), (_PLAYER,)),
    CommandSpec("skip_gadgets", _("Setup: play without gadgets.")),
    CommandSpec("deployment_flip", _("Setup: every player flips; ties flip again.")),
    CommandSpec(
        "choose_first_deployer",
        _("Setup: the flip's winner names who picks a zone and deploys first."),
        (_PLAYER,),
    ),
    CommandSpec("name_vip", _("Setup: the player whose turn it is names a VIP."), (_UNIT,)),
    CommandSpec(
        "assign_flags",
        _("Setup (Breakthrough): hand out up to 3 flag markers."),
        (ArgSpec("units", "list", help=_("Unit ids, one marker each.")),),
    ),
    CommandSpec("start_game", _("Setup done: round 1 begins.")),
    CommandSpec("flip_initiative", _("Start phase: every player flips for initiative.")),
    CommandSpec("choose_starter", _("The initiative winner chooses who starts."), (_PLAYER,)),
    CommandSpec("name_king", _("King of the Hill: name a king."), (_UNIT,)),
    CommandSpec("activate", _("Activate a unit of the player whose turn it is (2 AP)."), (_UNIT,)),
    CommandSpec("pass", _("Pass instead of activating (once per round).")),
    CommandSpec("coordinated_activation", _("2 CP: activate two models this turn.")),
    CommandSpec(
        "order", _("Befehl, 1 CP: a model respawned before its activation gets 1 AP."), (_UNIT,)
    ),
    CommandSpec("dodge", _("Ausweichen, 1 AP: +2 Reflex until its next activation."), (_ACTIVE,)),
    CommandSpec("readiness", _("Bereitschaft, 1 AP, once per activation."), (_ACTIVE,)),
    CommandSpec(
        "aim", _("Zielen, 1 AP: next ranged hit flip boosted, target -1 Reflex."), (_ACTIVE,)
    ),
    CommandSpec(
        "power_strike", _("Wuchtschlag, 1 AP: next melee attack +1 S, boosted wound."), (_ACTIVE,)
    ),
    CommandSpec(
        "move",
        _("Bewegung, 1 AP."),
        (
            _ACTIVE,
            ArgSpec("fall_height", "int", required=False, help=_("Inches fallen, if it fell.")),
            _JUMPED_DOWN,
            _DANGEROUS_TERRAIN,
        ),
    ),
    CommandSpec(
        "disengage",
        _("Lösen, 1 AP: a move out of control zones; enemies strike first."),
        (
            _ACTIVE,
            ArgSpec(
                "strikes",
                "list",
                help=_(
                    "One object per striker: striker (unit id), weapon, friends_engaged, "
                    "not_in_contact, obstacle, several_enemies, rear, target_elevated, "
                    "attacker_elevated, warning."
                ),
            ),
            ArgSpec(
                "fall_height",
                "int",
                required=False,
                help=_("Inches fallen when the move goes on, if it fell."),
            ),
            _JUMPED_DOWN,
            _DANGEROUS_TERRAIN,
            _CONFIRM,
        ),
    ),
    CommandSpec(
        "ranged_attack",
        _("Fernkampfattacke, 1 AP (Schwerfällig: 2)."),
        (
            _ACTIVE,
            _WEAPON,
            _TARGETS,
            _CONFIRM,
        ),
    ),
    CommandSpec(
        "melee_attack", _("Nahkampfattacke, 1 AP."), (_ACTIVE, _WEAPON, _TARGETS, _CONFIRM)
    ),
    CommandSpec(
        "charge",
        _('Sturmangriff, 2 AP: move +1", free melee attack, boosted wound.'),
        (
            _ACTIVE,
            _WEAPON,
            _TARGETS,
            ArgSpec(
                "fall_height",
                "int",
                required=False,
                help=_("Inches fallen on the way, if it fell (hurts before the attack)."),
            ),
            _JUMPED_DOWN,
            _DANGEROUS_TERRAIN,
            _CONFIRM,
        ),
    ),
    CommandSpec(
        "react",
        _("A model in readiness reacts to the activated enemy."),
        (
            _UNIT,
            ArgSpec("action", "str", help=_("ranged_attack, melee_attack or dodge.")),
            _WEAPON,
            ArgSpec(
                "targets", "list", required=False, help=_("As for attacks; the activated model.")
            ),
            _CONFIRM,
        ),
    ),
    CommandSpec(
        "special_action",
        _("A special action of an equipment card."),
        (
            _ACTIVE,
            ArgSpec("item", "str", help=_("The equipment card's slug.")),
        ),
    ),
    CommandSpec(
        "activate_switch",
        _("1 AP in base contact: take a neutral switch."),
        (
            _ACTIVE,
            ArgSpec("objective", "str"),
        ),
    ),
    CommandSpec(
        "neutralise_switch",
        _("1 AP in base contact: neutralise an enemy switch."),
        (
            _ACTIVE,
            ArgSpec("objective", "str"),
        ),
    ),
    CommandSpec(
        "repair_core",
        _('Onslaught, 1 AP: a core within 3" regains 3/4/5 LP.'),
        (
            _ACTIVE,
            ArgSpec("core", "int", help=_("The core's unit id.")),
        ),
    ),
    CommandSpec(
        "pick_up_flag",
        _("0 AP: a model touching a flag picks it up."),
        (
            _UNIT,
            ArgSpec("objective", "str"),
        ),
    ),
    CommandSpec(
        "hand_over_flag",
        _("0 AP: hand the flag to a friend in base contact."),
        (
            _UNIT,
            ArgSpec("to", "int"),
            ArgSpec("objective", "str", required=False),
        ),
    ),
    CommandSpec("score_flag", _("The carrier reached where the mode scores its flag."), (_UNIT,)),
    CommandSpec(
        "touch_gadget",
        _("The first model per turn at a station gets its effect."),
        (
            _UNIT,
            ArgSpec("gadget", "str"),
        ),
    ),
    CommandSpec(
        "end_activation",
        _("End the activation; then fire, poison and shock resolve."),
        (
            _ACTIVE,
            ArgSpec("readiness", "bool", required=False, help=_("Pay 1 CP for readiness.")),
        ),
    ),
    CommandSpec(
        "reroll",
        _("Reroll cards of the waiting flip (1 CP each, at most 3)."),
        (
            ArgSpec("positions", "list", help=_("Card positions, 0-based.")),
            ArgSpec("player", "int", required=False, help=_("Checked if given.")),
        ),
    ),
    CommandSpec(
        "accept",
        _("Accept the waiting flip."),
        (
            ArgSpec(
                "critical_auto_hits",
                "int",
                required=False,
                help=_(
                    "Hit flips: how many 9s score an automatic hit (the rest boost the wound "
                    "flip), against every target; default: the best choice. Against a target "
                    "the flip hits anyway an automatic hit only declines the boost."
                ),
            ),
            ArgSpec(
                "critical_auto_hits_per_target",
                "list",
                required=False,
                help=_(
                    "Hit flips against several targets: the 9s used as automatic hits, one "
                    "number per target in the attack's order (overrides critical_auto_hits)."
                ),
            ),
            ArgSpec("player", "int", required=False, help=_("Checked if given.")),
        ),
    ),
    CommandSpec(
        "score_round",
        _("End phase: score the round and check the end of the game."),
        (
            ArgSpec(
                "focal_points",
                "object",
                required=False,
                help=_("Focal point id to the controlling player (or null)."),
            ),
            ArgSpec(
                "king_in_zone",
                "bool",
                required=False,
                help=_('The king is within 4" of the centre.'),
            ),
        ),
    ),
    CommandSpec(
        "flip",
        _("A free flip for anything the tracker does not model."),
        (
            _PLAYER,
            ArgSpec("boost", "int", required=False, help=_("-2..2: hindered or boosted.")),
            ArgSpec("label", "str", required=False, help=_("What the flip is for.")),
        ),
    ),
    CommandSpec(
        "auto_hit",
        _("An automatic hit of strength S on a model."),
        (
            _UNIT,
            ArgSpec("strength", "int"),
            ArgSpec("cause", "str", required=False, help=_("fall, dangerous_terrain or effect.")),
            ArgSpec("credit", "int", required=False, help=_("The player who caused it.")),
        ),
    ),
    CommandSpec(
        "adjust",
        _(
            "Correct a model by hand: lp, ap, fire, shock, acid, poison, and standing "
            "modifiers of its profile values (the value each has from now on): mod_reflex, "
            "mod_resistance, mod_lp, mod_move (inches), mod_ranged (FK), mod_melee (NK)."
        ),
        (
            _UNIT,
            *(
                ArgSpec(f"mod_{name}", "int", required=False)
                for name in ("reflex", "resistance", "lp", "move", "ranged", "melee")
            ),
            ArgSpec("note", "str", required=False),
        ),
    ),
    CommandSpec(
        "adjust_vp",
        _("Correct a player's victory points by hand."),
        (
            _PLAYER,
            ArgSpec("points", "int"),
            ArgSpec("note", "str", required=False),
        ),
    ),
    CommandSpec(
        "adjust_cp",
        _("Set a player's command points by hand."),
        (
            _PLAYER,
            ArgSpec("cp", "int"),
            ArgSpec("note", "str", required=False),
        ),
    ),
    CommandSpec(
        "concede",
        _(
            "A player gives up and loses: the game ends (two players: the other wins; more: "
            "the most VP among the others)."
        ),
        (_PLAYER,),
        own_seat_arg="player",
    ),
    END_ON_TIME,
    CommandSpec("undo", _("Undo the last command that is not undone yet.")),
)
