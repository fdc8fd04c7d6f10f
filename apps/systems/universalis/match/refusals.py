"""The messages of the Universalis refusals by code, for pages in the reader's language: the
engine's own messages name models and numbers but are English."""

from __future__ import annotations

from collections.abc import Mapping

from apps.systems.core.i18n import gettext_noop as _

REFUSALS: Mapping[str, str] = {
    "not_enough_ap": _("Not enough action points (AP) for that."),
    "not_now": _("That is not possible at this point of the round."),
    "game_over": _("The game is over."),
    "not_active": _("It is not this model's initiative phase."),
    "burning": _("A burning model takes no actions."),
    "panicking": _("A panicking model can only flee."),
    "panic_tests_first": _("First make the panic tests that are due."),
    "area_first": _("First tell which models the area weapon covers."),
    "burning_first": _("First the burning model tests its fire."),
    "flight_moves_first": _("A flying model's first action each round is a move."),
    "target_camouflaged": _("That model is camouflaged: reveal it first."),
    "out_of_range": _("The target is out of the weapon's range."),
    "df_shots": _("Assign every shot of the sustained fire."),
    "aimed_no_df": _("An aimed shot is a single shot."),
    "weapon_reload": _("The weapon must be reloaded first."),
    "weapon_used_up": _("The weapon has no single-use marker left."),
    "weapon_side_destroyed": _("The weapon's side is destroyed."),
    "cannot_react": _("That model cannot react now."),
    "cannot_move": _("That model cannot move."),
    "pick_first": _("Both players still have models: pick in secret."),
    "not_eligible": _("That model cannot take its initiative phase now."),
    "mission_chosen": _("This player has chosen a mission already."),
    "missions_first": _("First every player chooses a mission."),
    "surrender_at_round_end": _("A player surrenders at the end of a round."),
    "private_command": _("Only that player may make this secret choice, on their own login."),
    "push_too_big": _("That model is too big to be pushed back."),
    "touch_needs_melee": _("A touch power on an enemy needs a won melee attack first."),
    "used_up": _("No single-use marker is left."),
    "threat_tested": _("The direct-threat test is made once per phase."),
    "orphan_panic": _("A telematon without its operator keeps its panic: it cannot retest."),
    "reveal_friend": _("Only a camouflaged enemy model can be revealed."),
    "target_twice": _("Name each target once and give it all its shots."),
    "too_far": _("That is farther than the model moves with one move (its speed)."),
    "threat_failed": _("The direct-threat test failed this phase: the model cannot disengage."),
    "retest_twice": _("A panicking model retests its panic once at the end of its phase."),
    "not_panicking": _("That model is not panicking."),
    "not_indirect": _("That weapon cannot fire indirectly now (reaction fire never does)."),
    "area_one_target": _("An area weapon fires once, at one point or model."),
    "no_target": _("Name a target."),
    "target_out": _("That model is no longer in play."),
    "target_self": _("A model does not attack itself."),
    "wrong_weapon": _("That weapon does not fit the attack (ranged or melee)."),
    "no_weapon": _("A telematon cannot fight unarmed."),
    "unknown_weapon": _("That model has no such weapon."),
    "readiness_wk": _("Fire readiness needs a weapon of WK I to III."),
    "no_readiness": _("That model is not in fire readiness."),
    "no_reload": _("That weapon has no reload marker."),
    "no_move": _("Reaction fire answers an enemy's move."),
    "no_melee": _("A counter-attack answers a melee attack on this model."),
    "no_disengage": _("An opportunity attack answers an enemy disengaging."),
    "cannot_dodge": _("That model cannot dodge now (it cannot react or lies prone)."),
    "cannot_turn": _("That model cannot turn any more."),
    "prone_already": _("That model is lying down already."),
    "not_prone": _("That model is standing already."),
    "no_danger_zone": _("Telematons have no danger zone: they make no direct-threat test."),
    "deployment_first": _("First make the deployment roll-off and deploy."),
    "picked_already": _("This player has picked a model already."),
    "no_shock_paid": _("That telematon has no shock token this round."),
    "not_camouflaged": _("That model is not camouflaged."),
    "no_camouflage": _("That model has no camouflage."),
    "bad_supporter": _("Only another friend can support the reveal."),
    "unknown_item": _("That model has no such trait or equipment."),
    "no_action": _("That trait or equipment needs no action: it always applies."),
    "unknown_power": _("That model has no such power."),
    "not_touch": _("That power is not a touch power."),
    "power_in_play": _("That power is in play: end it before using it again."),
    "power_not_in_play": _("That power is not in play."),
    "cannot_block": _("That model cannot block that power (it needs a discipline)."),
    "block_own_power": _("A model blocks only an enemy's power: end an own power instead."),
    "no_panic_test": _("That model owes no panic test."),
    "no_burning_test": _("That model has no fire to test now."),
    "nothing_to_correct": _("Give the hit points, AP or shock tokens to set."),
    "unknown_unit": _("There is no such model in this match."),
    "unknown_player": _("There is no such player in this match."),
    "unknown_mission": _("There is no such Universalis mission."),
    "unknown_command": _("Universalis has no such command."),
    "invalid_args": _("The command's details are incomplete or not valid."),
    "players": _("A Universalis match has 2 players."),
    "empty_team": _("Each group needs at least 2 models."),
    "bad_model": _("A unit card of a group cannot be read."),
    "nothing_to_choose": _("There is nothing to choose from."),
    "in_melee": _("In melee a model may only attack, attack recklessly, disengage or use a power."),
    "melee_reaction": _(
        "A model in melee reacts only with a counter-attack or an opportunity attack."
    ),
    "not_engaged": _("Only a model in melee disengages."),
    "not_in_contact": _("Only a model the enemy was in base contact with attacks it as it goes."),
    "attack_threat": _(
        "The direct-threat test failed: the next action is an attack on the direct threat."
    ),
    "not_threat": _("The direct threat is an enemy model in play that is not camouflaged."),
    "charge_pending": _("First the charge ends in its attack (after any reactions to its move)."),
    "no_charge": _("No charge waits for its attack."),
    "panic_moves_first": _("First the panicking models run, as the round begins."),
    "no_panic_move": _("That model has no panic move to make now."),
    "contact_friend": _("Only base contact with an enemy model is a melee."),
    "contact_unchanged": _("The two models are already so."),
}


# Refusals raised with params (``RuleViolation.params``), named for the page that sent them.
REFUSAL_DETAILS: Mapping[str, str] = {
    "df_shots": _(
        "Shots needed for %(weapon)s: %(shots)s; the Shots fields add up to %(given)s. "
        "Assign every shot of the sustained fire."
    ),
}
