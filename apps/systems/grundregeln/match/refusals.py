"""The messages of the Grundregeln refusals by code, for pages in the reader's language: the
engine's own messages name models and numbers but are English."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from apps.systems.core.i18n import gettext_noop as _

REFUSALS: Final[Mapping[str, str]] = {
    "not_your_turn": _("It is not this side's turn."),
    # A reaction before the model's activation was its action (it carries the same marker).
    "already_activated": _(
        "This model has taken its action this round (a reaction before its activation is its "
        "action)."
    ),
    # Both a declared action and a rallied model (it acts next) come first.
    "action_pending": _("Another action comes first: the declared one, or the rallied model's."),
    "in_melee": _("In melee: strike, or Lösen (disengage) first."),
    "not_in_melee": _("Only a model in melee can disengage."),
    "not_fleeing": _("Only a fleeing model can do that."),
    "target_required": _("Choose a target."),
    "invalid_target": _("That model cannot be the target."),
    "npc_passive": _("Passive NPCs cannot be attacked."),
    "not_an_enemy": _("Not an enemy."),
    "wrong_weapon": _("No such weapon ready: Waffe wechseln (change weapon) first."),
    "not_loaded": _("The weapon must be reloaded first."),
    "target_in_melee": _("Shooting into a melee is not allowed."),
    "target_not_fleeing": _("Verfolgung (pursue) needs a fleeing enemy."),
    "not_a_friend": _("Items go to a model of the same side."),
    "same_weapon": _("That weapon is ready already."),
    "nothing_to_reload": _("Nothing to reload."),
    "wrong_reload": _("That weapon is not reloaded that way."),
    "npc_only": _("Only NPCs take scenario actions."),
    "no_action_pending": _("There is no declared action."),
    "reactions_closed": _("The resolution has begun: no more reactions."),
    "own_action": _("A model does not react to its own action."),
    "not_reacting_side": _("Only the other side reacts."),
    "unit_out": _("This model is out of the game."),
    "fleeing_no_reaction": _("Fleeing models cannot react."),
    "already_reacted": _("This model has reacted this round: a model reacts once per round."),
    "not_simple": _("Only simple (einfach) actions can be reactions."),
    "redirect_melee_only": _("Only a melee attack can be redirected (Angriff umlenken)."),
    "modifier_attack_only": _("Only an attack takes an attack dice modifier."),
    "attack_dice_required": _("No melee weapon on the card: name the attack dice."),
    "no_ranged_weapon": _("This model has no ranged weapon."),
    "morale_test_first": _("A fleeing model tests its morale first."),
    "fleeing_restricted": _("A fleeing model may only restore its morale or move."),
    "already_tested": _("It passed its test: choose its action."),
    "not_now": _("That is not possible at this point of the round."),
    "game_over": _("The game is over."),
    "not_passive_npc": _("Players move passive NPCs only."),
    "npc_action_invalid": _("NPCs move, fight or act per the scenario."),
    "npc_already_moved": _("This NPC has been moved in this NPC phase."),
    "nothing_to_undo": _("There is nothing to undo."),
    "stale": _("Another device moved first: this is the match now."),
    "bad_model": _("A model card of a team cannot be read."),
    "empty_team": _("A team has no models."),
    "invalid_args": _("The command's details are incomplete or not valid."),
    "no_scenario": _("There is no scenario to draw from."),
    "not_started": _("The match has not started."),
    "players": _("A Grundregeln match has 2 players."),
    "scenario_invalid": _("The scenario cannot be played."),
    "unknown_action": _("There is no such action."),
    "unknown_command": _("Grundregeln has no such command."),
    "unknown_mission": _("There is no such scenario."),
    "unknown_player": _("There is no such player in this match."),
    "unknown_unit": _("There is no such model in this match."),
    # A choice screen (a target) with no command in it: only offered when it has one.
    "nothing_to_choose": _("There is nothing to choose from."),
}
