"""One readable line per event for the match log (English templates, translated by Django)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import Event, TimelineLine
from apps.systems.grundregeln.match.rules import NPC_ACTION
from apps.systems.grundregeln.match.state import MatchState
from apps.systems.grundregeln.tables import ACTION_BY_KEY

Data = Mapping[str, Any]
NPC_ACTION_LABEL: Final = _("NPC-Aktion (scenario action)")
FALL_LABEL: Final = _("Fallen (fall)")
REASONS: Final[Mapping[str, str]] = {
    "wiped_out": _("a side has no model left"),
    "last_round": _("after the last round"),
    "conceded": _("conceded"),
    "time": _("the time is up"),
}


def action_label(key: str) -> str:
    action = ACTION_BY_KEY.get(key)
    if action is not None:
        return action.label
    return FALL_LABEL if key == "fall" else NPC_ACTION_LABEL


def _name(state: MatchState, unit: int | None) -> str:
    if unit is None or not 0 <= unit < len(state.models):
        return "?"
    return state.models[unit].name


def _player(state: MatchState, index: int | None) -> str:
    if index is None or not 0 <= index < len(state.players):
        return "?"
    return state.players[index].name


def _line(template: str, translate: tuple[str, ...] = (), **params: str | int) -> TimelineLine:
    return TimelineLine(template, params, translate)


def _distance(value: object) -> str:
    return f"{value}"


def _started(state: MatchState, data: Data) -> TimelineLine:
    scenario = state.scenario
    name = scenario.name if scenario else data["mode"]
    if data.get("random"):
        return _line(_("Scenario drawn at random: %(scenario)s."), scenario=name)
    return _line(_("Scenario: %(scenario)s."), scenario=name)


def _round_start(state: MatchState, data: Data) -> TimelineLine:
    last = data["rolls"][-1]
    totals = [sum(r["dice"]) + sum(r["extra"]) + data["morale"][i] for i, r in enumerate(last)]
    params = {
        "a": _player(state, 0),
        "b": _player(state, 1),
        "ta": totals[0],
        "tb": totals[1],
        "winner": _player(state, data["winner"]),
    }
    if len(data["rolls"]) > 1:
        return _line(
            _(
                "Round start roll after %(ties)s tie(s): %(a)s %(ta)s, %(b)s %(tb)s. "
                "%(winner)s decides who begins."
            ),
            ties=len(data["rolls"]) - 1,
            **params,
        )
    return _line(
        _("Round start roll: %(a)s %(ta)s, %(b)s %(tb)s. %(winner)s decides who begins."), **params
    )


def _morale(state: MatchState, data: Data) -> TimelineLine:
    return _line(
        _("%(unit)s tests morale: %(successes)s dice of 4+, %(lost)s needed: %(outcome)s."),
        ("outcome",),
        unit=_name(state, data["unit"]),
        successes=data["successes"],
        lost=data["lost"],
        outcome=_("it passes") if data["passed"] else _("it fails"),
    )


def _fled(state: MatchState, data: Data) -> TimelineLine:
    return _line(
        _('%(unit)s flees %(distance)s".'),
        unit=_name(state, data["unit"]),
        distance=data["distance"],
    )


def _declared(state: MatchState, data: Data, reaction: bool) -> TimelineLine:
    params = {
        "unit": _name(state, data["unit"]),
        "action": action_label(data["action"]),
        "target": _name(state, data.get("target")),
        "note": data.get("note", ""),
    }
    if data.get("mover") is not None:
        return _line(
            _("%(player)s lets %(unit)s act: %(action)s.")
            if data["action"] == NPC_ACTION
            else _("%(player)s moves %(unit)s: %(action)s."),
            ("action",),
            player=_player(state, data["mover"]),
            unit=params["unit"],
            action=params["action"],
        )
    if data.get("target") is not None and data["action"] == "hand_over":
        template = (
            _("Reaction: %(unit)s, %(action)s to %(target)s.")
            if reaction
            else _("%(unit)s declares %(action)s to %(target)s.")
        )
    elif reaction:
        template = (
            _("Reaction: %(unit)s, %(action)s against %(target)s.")
            if data.get("target") is not None
            else _("Reaction: %(unit)s, %(action)s.")
        )
    elif data.get("target") is not None:
        template = _("%(unit)s declares %(action)s against %(target)s.")
    elif params["note"]:
        template = _("%(unit)s declares %(action)s: %(note)s.")
    else:
        template = _("%(unit)s declares %(action)s.")
    return _line(template, ("action",), **params)


def _resolved(state: MatchState, data: Data) -> TimelineLine | None:
    """A lapse, or what the table measured when an attack was resolved; else nothing (the
    dice tell the rest)."""
    params = {"unit": _name(state, data["unit"]), "action": action_label(data["action"])}
    if not data["possible"]:
        template = _("%(unit)s: %(action)s is not possible and lapses.")
    elif "target" in data:
        template = _("%(unit)s redirects %(action)s to %(target)s.")
        params["target"] = _name(state, data["target"])
    elif "modifier" in data:
        template = _("%(unit)s: %(action)s with %(modifier)s attack dice as measured now.")
        params["modifier"] = f"{data['modifier']:+d}"
    else:
        return None
    return _line(template, ("action",), **params)


def _moved(state: MatchState, data: Data) -> TimelineLine:
    return _line(
        _('%(unit)s: %(action)s, %(distance)s".'),
        ("action",),
        unit=_name(state, data["unit"]),
        action=action_label(data["action"]),
        distance=_distance(data["distance"]),
    )


def _range_rolled(state: MatchState, data: Data) -> TimelineLine:
    return _line(
        _('%(unit)s: %(action)s, range %(distance)s", rolled before the reactions.'),
        ("action",),
        unit=_name(state, data["unit"]),
        action=action_label(data["action"]),
        distance=_distance(data["distance"]),
    )


def _attacked(state: MatchState, data: Data) -> TimelineLine:
    params = {
        "attacker": _name(state, data.get("attacker")),
        "target": _name(state, data["target"]),
        "dice": data["attack_dice"],
        "hit": data["hit_value"],
        "hits": data["hits"],
        "damage": data["damage_value"],
        "successes": data["successes"],
        "cancelled": len(data["cancelled"]),
        "lost": data["lost"],
    }
    if data.get("attacker") is None:
        return _line(
            _(
                "%(target)s falls: %(hits)s of %(dice)s dice hit (%(hit)s+), %(successes)s "
                "damage (%(damage)s+), %(cancelled)s cancelled: %(lost)s LP lost."
            ),
            **params,
        )
    return _line(
        _(
            "%(attacker)s attacks %(target)s: %(hits)s of %(dice)s dice hit (%(hit)s+), "
            "%(successes)s damage (%(damage)s+), %(cancelled)s cancelled: %(lost)s LP lost."
        ),
        **params,
    )


def _pushed(state: MatchState, data: Data) -> TimelineLine:
    return _line(
        _('%(unit)s pushes %(target)s %(distance)s" away.'),
        unit=_name(state, data["unit"]),
        target=_name(state, data["target"]),
        distance=data["distance"],
    )


def _weapon(state: MatchState, data: Data, template: str) -> TimelineLine:
    model = state.models[data["unit"]]
    weapon = model.weapons[data["weapon"]].name if data.get("weapon") is not None else "?"
    return _line(template, unit=model.name, weapon=weapon)


def _item_used(state: MatchState, data: Data) -> TimelineLine:
    params = {
        "unit": _name(state, data["unit"]),
        "action": action_label(data["action"]),
        "note": data.get("note", ""),
    }
    if params["note"]:
        return _line(_("%(unit)s: %(action)s: %(note)s."), ("action",), **params)
    return _line(_("%(unit)s: %(action)s."), ("action",), **params)


def _casualties(state: MatchState, data: Data) -> TimelineLine:
    return _line(
        _("Removed from the table: %(names)s."),
        names=", ".join(_name(state, unit) for unit in data["units"]),
    )


def _npc_phase(state: MatchState, data: Data) -> TimelineLine:
    if data["step"] == "actions":
        return _line(_("NPC phase: the scenario NPCs act."))
    return _line(
        _("NPC phase: passive NPCs are moved, %(player)s first."),
        player=_player(state, data["turn"]),
    )


def _npc_moved(state: MatchState, data: Data) -> TimelineLine | None:
    if "distance" not in data:
        return None  # the move's declaration and its "moved" line tell it
    # Only events stored before commit 1eeb848 carry the distance (the NPC moved at once then):
    # kept so that matches stored then still show their moves.
    return _line(
        _('%(player)s moves %(unit)s: %(action)s, %(distance)s".'),
        ("action",),
        player=_player(state, data["player"]),
        unit=_name(state, data["unit"]),
        action=action_label(data["action"]),
        distance=_distance(data["distance"]),
    )


def _scored(state: MatchState, data: Data) -> TimelineLine:
    assert state.scenario is not None
    held = [
        f"{name}: {_player(state, holder) if holder is not None else '-'}"
        for name, holder in zip(state.scenario.objective_names, data["holders"], strict=False)
    ]
    return _line(_("Objectives held at the round end: %(held)s."), held=", ".join(held))


def _ended(state: MatchState, data: Data) -> TimelineLine:
    reason = REASONS.get(data["reason"], data["reason"])
    if data["draw"] or not data["winners"]:
        return _line(_("Game over: a draw (%(reason)s)."), ("reason",), reason=reason)
    return _line(
        _("Game over: %(winner)s wins (%(reason)s)."),
        ("reason",),
        winner=_player(state, data["winners"][0]),
        reason=reason,
    )


def _free(state: MatchState, data: Data) -> TimelineLine:
    dice = " ".join(str(v) for v in [*data["roll"]["dice"], *data["roll"]["extra"]])
    if data.get("need"):
        return _line(
            _("Free roll %(label)s: %(dice)s, %(total)s dice of %(need)s+."),
            label=data.get("label", ""),
            dice=dice,
            total=data["total"],
            need=data["need"],
        )
    return _line(
        _("Free roll %(label)s: %(dice)s, total %(total)s."),
        label=data.get("label", ""),
        dice=dice,
        total=data["total"],
    )


def _adjusted(state: MatchState, data: Data) -> TimelineLine:
    changes = []
    if "lp" in data:
        changes.append(f"{data['lp']} LP")
    if "fleeing" in data:
        changes.append("Flucht" if data["fleeing"] else "-Flucht")
    return _line(
        _("Corrected by hand: %(unit)s %(changes)s %(note)s"),
        unit=_name(state, data["unit"]),
        changes=", ".join(changes),
        note=data.get("note", ""),
    )


LINES: Final[Mapping[str, Callable[[MatchState, Data], TimelineLine | None]]] = {
    "match_started": _started,
    "round_start_rolled": _round_start,
    "starter_chosen": lambda s, d: _line(
        _("%(player)s begins, as the scenario says.")
        if d.get("by") == "scenario"
        else _("%(player)s begins."),
        player=_player(s, d["player"]),
    ),
    "morale_tested": _morale,
    "fled": _fled,
    "action_declared": lambda s, d: _declared(s, d, False),
    "reaction_declared": lambda s, d: _declared(s, d, True),
    "reaction_moved": lambda s, d: _line(_("The reacting player reorders the reactions.")),
    "reaction_resolved": _resolved,
    "action_resolved": _resolved,
    "range_rolled": _range_rolled,
    "moved": _moved,
    "attacked": _attacked,
    "pushed": _pushed,
    "weapon_switched": lambda s, d: _weapon(s, d, _("%(unit)s readies %(weapon)s.")),
    "reloaded": lambda s, d: _weapon(s, d, _("%(unit)s reloads %(weapon)s.")),
    "morale_restored": lambda s, d: _line(
        _("%(unit)s restores its morale and stops fleeing."), unit=_name(s, d["unit"])
    ),
    "blocked": lambda s, d: _line(
        _("%(unit)s blocks: +1 armour until the round end."), unit=_name(s, d["unit"])
    ),
    "item_used": _item_used,
    "casualties_removed": _casualties,
    "activation_ended": lambda s, d: None,
    "round_ended": lambda s, d: _line(_("Round end: status tokens removed.")),
    "npc_phase_started": _npc_phase,
    "npc_skipped": lambda s, d: _line(_("%(unit)s does nothing."), unit=_name(s, d["unit"])),
    "npc_moved": _npc_moved,
    "npc_moves_done": lambda s, d: _line(
        _("%(player)s moves no more NPCs."), player=_player(s, d["player"])
    ),
    "scoring_started": lambda s, d: None,
    "round_scored": _scored,
    "round_started": lambda s, d: _line(_("Round %(round)s begins."), round=d["round"]),
    "game_ended": _ended,
    "free_rolled": _free,
    "adjusted": _adjusted,
    "vp_adjusted": lambda s, d: _line(
        _("%(player)s: %(points)s VP by hand %(note)s"),
        player=_player(s, d["player"]),
        points=d["points"],
        note=d.get("note", ""),
    ),
    "conceded": lambda s, d: _line(_("%(player)s concedes."), player=_player(s, d["player"])),
}


def timeline_line(state: MatchState, event: Event) -> TimelineLine | None:
    line = LINES.get(event.type)
    return line(state, event.data) if line is not None else None
