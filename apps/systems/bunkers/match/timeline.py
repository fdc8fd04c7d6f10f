"""One readable line per event for the match log (English templates, translated by Django).
The hidden artifact's marker is never named before it is revealed."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from apps.systems.bunkers.match.state import MatchState
from apps.systems.bunkers.match.tables import (
    CONNECTION_LABELS,
    DOOR_STATE_LABELS,
    MISSION_NAMES,
    OPTION_BY_KEY,
    PHASE_LABELS,
    PLACE_LABELS,
    SIDE_LABELS,
)
from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import Event, TimelineLine

Data = Mapping[str, Any]
REASONS: Final[Mapping[str, str]] = {
    "last_round": _("after the last battle round"),
    "conceded": _("conceded"),
    "time": _("the time is up"),
}
VP_REASONS: Final[Mapping[str, str]] = {
    "objectives": _("objective markers held"),
    "carrier": _("carrying the artifact"),
    "revealed": _("a marker revealed"),
    "found": _("the artifact found"),
    "captured": _("the artifact taken from the opponent"),
    "artifact_home": _("the artifact in the own deployment zone"),
    "max_damage": _("Maximaler Schaden (maximum damage)"),
    "adjusted": _("corrected by hand"),
}
ROLL_PURPOSES: Final[Mapping[str, str]] = {
    "zones": _("the deployment zones"),
    "marker": _("the first objective marker"),
    "first": _("the first turn"),
}
CHANGES: Final[Mapping[str, str]] = {
    "wound_lost": _("lost a wound"),
    "model_lost": _("lost a model"),
    "destroyed": _("was destroyed"),
    "wound_restored": _("got a wound back (correction)"),
    "model_restored": _("got a model back (correction)"),
}


def _line(template: str, translate: tuple[str, ...] = (), **params: str | int) -> TimelineLine:
    return TimelineLine(template, params, translate)


def _player(state: MatchState, index: object) -> str:
    if isinstance(index, int) and 0 <= index < len(state.players):
        return state.players[index].name
    return "?"


def _unit(state: MatchState, index: object) -> str:
    if isinstance(index, int) and 0 <= index < len(state.units):
        return state.units[index].name
    return "?"


def _door(state: MatchState, index: object) -> str:
    if isinstance(index, int) and 0 <= index < len(state.doors):
        return state.doors[index].name
    return "?"


def _rolled(state: MatchState, data: Data) -> TimelineLine:
    rolls = "; ".join(f"{a}:{b}" for a, b in data["rolls"])
    return _line(
        _("Roll-off for %(purpose)s (%(rolls)s): %(winner)s wins."),
        ("purpose",),
        purpose=ROLL_PURPOSES.get(data["purpose"], data["purpose"]),
        rolls=rolls,
        winner=_player(state, data["winner"]),
    )


def _option(state: MatchState, data: Data) -> TimelineLine:
    option = OPTION_BY_KEY[data["option"]]
    return _line(
        _("%(player)s buys %(option)s (%(gloss)s) for %(cost)s CP."),
        ("gloss",),
        player=_player(state, data["player"]),
        option=option.name,
        gloss=option.gloss,
        cost=data["cost"],
    )


def _vp(state: MatchState, data: Data) -> TimelineLine:
    return _line(
        _("%(player)s: %(points)s VP (%(reason)s)."),
        ("reason",),
        player=_player(state, data["player"]),
        points=data["points"],
        reason=VP_REASONS.get(data["reason"], data["reason"]),
    )


def _held(state: MatchState, data: Data) -> TimelineLine:
    parts = [
        f"{index + 1}: {_player(state, holder) if holder is not None else '-'}"
        for index, holder in enumerate(data["holders"])
    ]
    return _line(_("Objective markers held: %(holders)s."), holders=", ".join(parts))


def _ended(state: MatchState, data: Data) -> TimelineLine:
    reason = REASONS.get(data["reason"], data["reason"])
    if data["draw"] or not data["winners"]:
        return _line(_("The game ends in a draw (%(reason)s)."), ("reason",), reason=reason)
    return _line(
        _("%(winner)s wins (%(reason)s)."),
        ("reason",),
        winner=_player(state, data["winners"][0]),
        reason=reason,
    )


LINES: Final[dict[str, Callable[[MatchState, Data], TimelineLine | None]]] = {
    "match_started": lambda s, d: _line(
        _("Mission: %(mission)s, %(rounds)s battle rounds."),
        mission=MISSION_NAMES.get(d["mission"], d["mission"]),
        rounds=d["rounds"],
    ),
    "rolled_off": _rolled,
    "zones_chosen": lambda s, d: _line(
        _("%(player)s chooses %(side)s."),
        ("side",),
        player=_player(s, d["player"]),
        side=SIDE_LABELS[d["side"]],
    ),
    "artifact_hidden": lambda s, d: _line(
        _("The artifact is hidden under one of the numbered markers.")
    ),
    "deployed": lambda s, d: _line(
        _("%(unit)s is deployed: %(place)s."),
        ("place",),
        unit=_unit(s, d["unit"]),
        place=PLACE_LABELS[d["place"]],
    ),
    "battle_started": lambda s, d: _line(
        _("The battle begins; %(player)s takes the first turn."), player=_player(s, d["first"])
    ),
    "turn_started": lambda s, d: _line(
        _("Battle round %(round)s: %(player)s's turn."),
        round=d["round"],
        player=_player(s, d["player"]),
    ),
    "phase_started": lambda s, d: _line("%(phase)s", ("phase",), phase=PHASE_LABELS[d["phase"]]),
    "turn_ended": lambda s, d: None,
    "cp_changed": lambda s, d: _line(
        _("%(player)s: %(points)s CP."),
        player=_player(s, d["player"]),
        points=f"{d['points']:+d}",
    ),
    "vp_scored": _vp,
    "objectives_held": _held,
    "door_added": lambda s, d: _line(
        _("%(door)s added to the board (narrow: bases up to 50 mm only).")
        if d["narrow"]
        else _("%(door)s added to the board."),
        door=d["name"],
    ),
    "door_changed": lambda s, d: _line(
        _("%(door)s: %(state)s."),
        ("state",),
        door=_door(s, d["door"]),
        state=DOOR_STATE_LABELS[d["state"]],
    ),
    "door_trapped": lambda s, d: _line(
        _("%(door)s is secured with a booby trap."), door=_door(s, d["door"])
    ),
    "door_damaged": lambda s, d: _line(
        _("%(door)s loses %(wounds)s wounds (%(left)s left): %(state)s."),
        ("state",),
        door=_door(s, d["door"]),
        wounds=d["wounds"],
        left=d["left"],
        state=DOOR_STATE_LABELS[d["state"]],
    ),
    "trap_triggered": lambda s, d: _line(
        _(
            "The booby trap on %(door)s goes off: %(mw)s mortal wounds (D3, die %(die)s); the "
            "door is destroyed."
        ),
        door=_door(s, d["door"]),
        mw=d["mortal_wounds"],
        die=d["die"],
    ),  # fmt: skip
    "doors_closed": lambda s, d: _line(
        _("End of turn: closed %(closed)s; kept open %(kept)s."),
        closed=", ".join(_door(s, x) for x in d["doors"]) or "-",
        kept=", ".join(_door(s, x) for x in d["kept"]) or "-",
    ),
    "option_bought": _option,
    "piece_added": lambda s, d: _line(
        _("%(player)s sets up a %(kind)s."),
        ("kind",),
        player=_player(s, d["player"]),
        kind=_("sentry gun") if d["kind"] == "sentry" else _("barricade"),
    ),
    "piece_damaged": lambda s, d: _line(
        _("A sentry gun loses %(wounds)s wounds (%(left)s left)."),
        wounds=d["wounds"],
        left=d["left"],
    ),
    "piece_removed": lambda s, d: _line(_("A sentry gun or barricade is removed.")),
    "unit_changed": lambda s, d: _line(
        _("%(unit)s %(change)s: %(models)s models, %(wounds)s wounds left."),
        ("change",),
        unit=_unit(s, d["unit"]),
        change=CHANGES[d["change"]],
        models=d["models"],
        wounds=d["wounds"],
    ),
    "hazard_rolled": lambda s, d: _line(
        _(
            "%(unit)s crosses hazardous terrain: %(models)s d6 (%(dice)s), saves %(save)s+ "
            "(%(saves)s): %(lost)s wounds lost."
        ),
        unit=_unit(s, d["unit"]),
        models=d["models"],
        dice=" ".join(str(x) for x in d["dice"]),
        save=d["save"],
        saves=" ".join(str(x) for x in d["saves"]) or "-",
        lost=d["lost"],
    ),
    "unit_arrived": lambda s, d: _line(
        _("%(unit)s arrives from reserve (%(how)s): %(place)s."),
        ("how", "place"),
        unit=_unit(s, d["unit"]),
        how=(_("Aus dem Nichts") if d["paid"] else _("deep strike"))
        if d["deep_strike"]
        else _("own table edge"),
        place=PLACE_LABELS[d["place"]],
    ),
    "level_changed": lambda s, d: _line(
        _("%(unit)s changes level by %(via)s %(number)s: %(place)s."),
        ("via", "place"),
        unit=_unit(s, d["unit"]),
        via=CONNECTION_LABELS[d["via"]],
        number=d["number"],
        place=PLACE_LABELS[d["place"]],
    ),
    "marker_revealed": lambda s, d: _line(
        _("%(player)s reveals marker %(marker)s: the artifact!")
        if d["artifact"]
        else _("%(player)s reveals marker %(marker)s: empty."),
        player=_player(s, d["player"]),
        marker=d["marker"],
    ),
    "artifact_picked_up": lambda s, d: _line(
        _("%(unit)s picks up the artifact."), unit=_unit(s, d["unit"])
    ),
    "artifact_handed_over": lambda s, d: _line(
        _("%(unit)s hands the artifact to %(to)s."),
        unit=_unit(s, d["unit"]),
        to=_unit(s, d["to"]),
    ),
    "artifact_dropped": lambda s, d: _line(
        _("%(unit)s drops the artifact."), unit=_unit(s, d["unit"])
    ),
    "final_stage": lambda s, d: _line(
        _("The time is up: where is the artifact?")
        if d.get("reason") == "time"
        else _("The last turn is over: where is the artifact?")
    ),
    "conceded": lambda s, d: _line(_("%(player)s concedes."), player=_player(s, d["player"])),
    "game_ended": _ended,
}


def timeline_line(state: MatchState, event: Event) -> TimelineLine | None:
    line = LINES.get(event.type)
    return line(state, event.data) if line is not None else None
