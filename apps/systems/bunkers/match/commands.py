"""Every Bunkers and Badasses command with its arguments, as the API lists them. ``unit``,
``door`` and ``piece`` are ids (their index in the state), ``player`` 0 or 1, ``marker`` the
marker's number (1-6)."""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import ArgSpec, CommandSpec
from apps.systems.core.results import END_ON_TIME

_PLAYER = ArgSpec("player", "int", help=_("The player (0 or 1)."))
_UNIT = ArgSpec("unit", "int", help=_("The unit (its id in state.units)."))
_DOOR = ArgSpec("door", "int", help=_("The door or barrier (its id in state.doors)."))
_PIECE = ArgSpec("piece", "int", help=_("The sentry gun or barricade (its id in state.pieces)."))
_WOUNDS = ArgSpec("wounds", "int", required=False, help=_("Wounds lost (default 1)."))
_VIA = ArgSpec("via", "str", required=False, help=_("ladder (default) or elevator"))
_NUMBER = ArgSpec(
    "number",
    "int",
    required=False,
    help=_("The ladder's or elevator's number on the board, 1-9 (default 1)."),
)
_HOME = ArgSpec(
    "home",
    "bool",
    required=False,
    help=_("Sichert das Artefakt: the artifact is in its carrier's own zone (else asked)."),
)

COMMAND_SPECS: Final = (
    CommandSpec(
        "roll_off",
        _(
            "Setup roll-off (zones, first objective marker, first turn): both roll a d6, "
            "ties roll again."
        ),
    ),
    CommandSpec(
        "choose_zones",
        _("The roll-off's winner chooses attacker (red) or defender (green) zones."),
        (_PLAYER, ArgSpec("side", "str", help=_("attacker or defender"))),
    ),
    CommandSpec(
        "deploy",
        _(
            "Deploy the next unit: on the board (one level) or on the upper or lower level "
            "(two levels, 50:50), or into reserve."
        ),
        (_UNIT, ArgSpec("place", "str", help=_("board (one level), upper, lower or reserve"))),
    ),
    CommandSpec(
        "add_door",
        _("Add a door or laser barrier to the board (at setup or during the game)."),
        (
            ArgSpec("name", "str", required=False, help=_("Its name on the board.")),
            ArgSpec("kind", "str", required=False, help=_("door (default) or barrier")),
            ArgSpec("narrow", "bool", required=False, help=_("Only bases up to 50 mm pass.")),
        ),
    ),
    CommandSpec(
        "next_phase",
        _(
            "The next phase of the player turn; after the morale phase the turn ends and the "
            "open doors close unless kept open."
        ),
        (
            ArgSpec(
                "keep",
                "list",
                required=False,
                help=_('End of turn: the open doors with a model or sentry gun within 2".'),
            ),
        ),
    ),
    CommandSpec(
        "score_objectives",
        _("Start of a command phase (from round 2): who holds each objective marker."),
        (ArgSpec("holders", "list", help=_("One entry per marker: a player index or null.")),),
    ),
    CommandSpec(
        "score_end",
        _("Sichert das Artefakt, end of the game: is the artifact in its carrier's own zone?"),
        (_HOME,),
    ),
    CommandSpec(
        "buy_option",
        _("Buy a Gefechtsoption (battle option) with command points."),
        (
            _PLAYER,
            ArgSpec("option", "str", help=_("The option's key, e.g. tuer-verschweissen.")),
            ArgSpec("door", "int", required=False, help=_("The door it targets, if any.")),
            ArgSpec("unit", "int", required=False, help=_("Eile ist geboten: the unit.")),
            _VIA,
            _NUMBER,
        ),
    ),
    CommandSpec("open_door", _("A unit in contact opens a door (movement phase)."), (_DOOR,)),
    CommandSpec("close_door", _("A unit in contact closes a door (movement phase)."), (_DOOR,)),
    CommandSpec(
        "damage_door",
        _("A door lost wounds (shooting or fight phase): sealed, at 0 destroyed."),
        (_DOOR, _WOUNDS),
    ),
    CommandSpec("damage_piece", _("A sentry gun lost wounds."), (_PIECE, _WOUNDS)),
    CommandSpec("remove_piece", _("Remove a sentry gun or barricade."), (_PIECE,)),
    CommandSpec(
        "adjust",
        _("Report a unit's losses or correct them."),
        (
            _UNIT,
            ArgSpec(
                "change",
                "str",
                help=_("wound_lost, model_lost, destroyed, wound_restored or model_restored"),
            ),
        ),
    ),
    CommandSpec(
        "arrive",
        _("A reserve unit arrives at the end of its player's movement phase."),
        (
            _UNIT,
            ArgSpec(
                "place",
                "str",
                required=False,
                help=_("board on one level; upper or lower (default) on two"),
            ),
            ArgSpec(
                "deep_strike",
                "bool",
                required=False,
                help=_("By its deep-strike-like rule (else from the own table edge)."),
            ),
        ),
    ),
    CommandSpec(
        "change_level",
        _(
            "A unit changes level by a numbered ladder or elevator (each carries two units per "
            "turn, a ladder 15 models with bases up to 40 mm; only on a board of two levels)."
        ),
        (_UNIT, _VIA, _NUMBER),
    ),
    CommandSpec(
        "hazard_roll",
        _(
            "Hazardous terrain: each model rolls a d6, on a 1 an armour save; each failed "
            "save loses a wound (movement or charge phase)."
        ),
        (
            _UNIT,
            ArgSpec("models", "int", required=False, help=_("Models crossing (default: all).")),
            ArgSpec("save", "int", required=False, help=_("Their armour save, 2-6; 7: none.")),
        ),
    ),
    CommandSpec(
        "reveal_marker",
        _("Sichert das Artefakt: the player whose turn it is reveals a numbered marker."),
        (ArgSpec("marker", "int", help=_("The marker's number.")),),
    ),
    CommandSpec("pick_up", _("A unit picks up the artifact."), (_UNIT,)),
    CommandSpec(
        "hand_over",
        _("The carrier hands the artifact to another unit at the end of its move."),
        (ArgSpec("to", "int", help=_("The unit receiving it.")),),
    ),
    CommandSpec("drop", _("The carrier model was killed: the artifact is dropped.")),
    CommandSpec(
        "adjust_cp",
        _("Add or take a player's command points by hand."),
        (_PLAYER, ArgSpec("points", "int")),
    ),
    CommandSpec(
        "adjust_vp",
        _("Add or take a player's victory points by hand."),
        (_PLAYER, ArgSpec("points", "int"), ArgSpec("note", "str", required=False)),
    ),
    CommandSpec(
        "concede", _("A player gives up: the other wins."), (_PLAYER,), own_seat_arg="player"
    ),
    replace(END_ON_TIME, args=(_HOME,)),
    CommandSpec("undo", _("Undo the last command that is not undone yet.")),
)
