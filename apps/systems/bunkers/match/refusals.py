"""The messages of the Bunkers and Badasses refusals by code, for pages in the reader's
language."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from apps.systems.core.i18n import gettext_noop as _

REFUSALS: Final[Mapping[str, str]] = {
    "not_your_turn": _("It is not this player's turn."),
    "wrong_phase": _("Not in this phase."),
    "not_in_battle": _("Only during the battle rounds."),
    "cp_short": _("Not enough command points."),
    "once_per_game_spent": _("Used already: once per team and game."),
    "score_first": _("Record who holds the objective markers first."),
    "no_scoring": _("The markers are checked at the start of a command phase from round 2."),
    "no_roll_off": _("There is no roll-off now."),
    "not_now": _("That is not possible at this point of the game."),
    "not_roll_winner": _("The winner of the roll-off chooses."),
    "not_deploying": _("Units are deployed before the first battle round."),
    "already_deployed": _("This unit is deployed already."),
    "not_your_deployment": _("The other player deploys the next unit."),
    "reserve_full": _("At most 25% of the units (rounded up) may stay in reserve."),
    "one_level": _("The board has one level: units stand on the board, and no unit changes level."),
    "choose_level": _("The board has two levels: choose the upper or the lower one."),
    "levels_unbalanced": _(
        "On two levels each player deploys 50:50 over both levels (reserve not counted)."
    ),
    "too_many_doors": _("The board has as many doors and barriers as the tracker keeps."),
    "too_many_pieces": _("The board has as many sentry guns and barricades as the tracker keeps."),
    "not_open": _("Only an open door or barrier can be kept open."),
    "unknown_option": _("There is no such battle option."),
    "no_door": _("Choose a door: there is none this option can target."),
    "no_unit": _("Choose a unit: none of this player's units is on the table."),
    "not_a_door": _("Laser barriers have no wounds and cannot be welded, cut or trapped."),
    "door_not_sealed": _("Only a sealed door can be cut open."),
    "door_sealed": _("The door is sealed (versiegelt): it opens only by being destroyed."),
    "door_destroyed": _("The door is destroyed (zerstört)."),
    "door_not_closed": _("Only a closed door can be welded or trapped."),
    "door_trapped": _("The door is trapped already."),
    "door_already": _("The door is like that already."),
    "no_wounds": _("Only a sentry gun has wounds: remove a barricade instead."),
    "not_your_unit": _("That unit belongs to the other player."),
    "not_on_table": _("That unit is not on the table."),
    "unit_destroyed": _("The unit is destroyed."),
    "at_full_strength": _("The unit is at its starting strength."),
    "not_in_reserve": _("That unit is not in reserve."),
    "no_deep_strike": _("This unit has no deep-strike-like rule: it arrives from the table edge."),
    "needs_aus_dem_nichts": _(
        "One unit arrives by deep strike for free; each further one needs an unused Aus dem Nichts."
    ),
    "level_changes_spent": _("This ladder or elevator has carried two units this turn already."),
    "ladder_models_spent": _("A ladder carries at most 15 models per turn: take an elevator."),
    "ladder_base": _(
        "Ladders take bases up to 40 mm (characters up to 50 mm): this unit takes an elevator."
    ),
    "final_question": _("First answer where the artifact is: the game ends with that answer."),
    "no_artifact": _("Only Sichert das Artefakt has an artifact."),
    "marker_revealed": _("That marker is revealed already."),
    "artifact_hidden": _("The artifact has not been found yet."),
    "artifact_carried": _("A unit carries the artifact already."),
    "no_carrier": _("Nobody carries the artifact."),
    "same_unit": _("That unit carries it already."),
    "nothing_to_change": _("A correction of 0 changes nothing."),
    "cp_negative": _("Command points cannot go below 0."),
    "players": _("A Bunkers and Badasses match has 2 players."),
    "empty_team": _("A team has no units."),
    "bad_team": _("A team's units cannot be read."),
    "unknown_mission": _("There is no such mission."),
    "settings_invalid": _("The army's settings are not valid."),
    "base_invalid": _("A base is round (up to 90 mm) or oval (up to 120×92 mm)."),
    "game_over": _("The game is over."),
    "not_started": _("The match has not started."),
    "invalid_args": _("The command's details are incomplete or not valid."),
    "unknown_command": _("Bunkers and Badasses has no such command."),
    "unknown_player": _("There is no such player in this match."),
    "unknown_unit": _("There is no such unit in this match."),
    "unknown_door": _("There is no such door on the board."),
    "unknown_piece": _("There is no such sentry gun or barricade."),
    "nothing_to_undo": _("There is nothing to undo."),
    "stale": _("Another device moved first: this is the match now."),
    "nothing_to_choose": _("There is nothing to choose from."),
}

# Refusals raised with params (``RuleViolation.params``): the message naming them.
REFUSAL_DETAILS: Final[Mapping[str, str]] = {
    "levels_unbalanced": _(
        "Deploy 50:50 over both levels: this makes %(upper)s upper and %(lower)s lower with "
        "%(left)s units left to deploy, so the levels could no longer differ by one at most."
    ),
}
