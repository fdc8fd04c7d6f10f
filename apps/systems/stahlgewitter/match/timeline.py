"""One readable line per event for the match log (English templates, translated by Django).
A hidden unit is named by its marker only, and the secret marker assignment never says which
unit stands behind which marker. Every roll's line shows the dice and the chance they had."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any, Final

from apps.systems.core.distributions import chance_text
from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import Event, TimelineLine
from apps.systems.stahlgewitter.match.labels import (
    BAND_LABELS,
    CAUSE_LABELS,
    COVER_LABELS,
    EDGE_LABELS,
    METHOD_LABELS,
    OUT_LABELS,
    PHASE_LABELS,
    REASONS,
    REVEAL_LABELS,
    TRIGGER_LABELS,
)
from apps.systems.stahlgewitter.match.state import MatchState, Phase
from apps.systems.stahlgewitter.tables import Letter, outcome

Data = Mapping[str, Any]
ROLL_PURPOSES: Final = {
    "terrain": _("the terrain"),
    "deployment": _("the first marker"),
    "start": _("the start player"),
}
VP_REASONS: Final = {
    "taken_out": _("taken out"),
    "deserted": _("deserted"),
    "surrendered": _("surrendered (half)"),
    "massacred": _("massacred"),
    "table_edge": _("fled off the table"),
    "cannot_flee": _("surrendered, no way to flee"),
    "mission": _("mission points"),
}
BANNER_RESULTS: Final = {
    "panic": _("failed: the unit panics"),
    "surrender": _("failed with 0: the unit surrenders"),
    "extra_attack": _("passed: an immediate extra attack (the players play it out)"),
    "extra_turn": _("passed with 9: an immediate extra turn (the players play it out)"),
}
SOURCES: Final = {
    "shot": _("single shot"),
    "burst": _("burst"),
    "melee": _("melee"),
    "defensive": _("defensive fire"),
    "mutiny": _("mutiny"),
}
RALLY_RESULTS: Final = {
    "rallied": _("rallied"),
    "panic": _("still panicking"),
    "deserted": _("deserts"),
}


def _label(table: Mapping[str, str], key: object) -> str:
    return table.get(str(key), str(key))


def _line(template: str, translate: tuple[str, ...] = (), **params: str | int) -> TimelineLine:
    return TimelineLine(template, params, translate)


def _player(state: MatchState, index: object) -> str:
    if isinstance(index, int) and 0 <= index < len(state.players):
        return state.players[index].name
    return "?"


def _unit(state: MatchState, data: Data, key: str = "unit") -> str:
    """The unit's name, or "marker N" while it is hidden (the event names the marker)."""
    if data.get("marker") is not None and key == "unit":
        return f"#{data['marker']}"
    index = data.get(key)
    if isinstance(index, int) and 0 <= index < len(state.units):
        return state.units[index].name
    return "?"


def _model(state: MatchState, index: object) -> str:
    if isinstance(index, int) and 0 <= index < len(state.models):
        model = state.models[index]
        unit = state.units[model.unit].name
        # A unit's head model carries the unit's name: "Kommando", not "Kommando (Kommando)".
        return model.name if model.name == unit else f"{model.name} ({unit})"
    return "?"


def _weapon(state: MatchState, data: Data, key: str = "model") -> str:
    """The weapon's name as the event wrote it (a weapon picked up later moves: looking it up by
    its index in today's state would name another one)."""
    if data.get("weapon_name"):
        return str(data["weapon_name"])
    index, weapon = data.get(key), data.get("weapon")
    if isinstance(index, int) and 0 <= index < len(state.models) and isinstance(weapon, int):
        weapons = state.models[index].weapons
        if 0 <= weapon < len(weapons):
            return weapons[weapon].name
    return "?"


def _dice(dice: object) -> str:
    if isinstance(dice, list):
        return "+".join(str(d) for d in dice)
    return "?"


def _chance(text: object) -> str:
    try:
        return chance_text(Fraction(str(text)))
    except (ValueError, ZeroDivisionError):
        return "?"


def _rolled(state: MatchState, data: Data) -> TimelineLine:
    pairs = "; ".join(f"{a}:{b}" for a, b in data["dice"])
    bonus = data.get("bonus") or [0, 0]
    if any(bonus):
        pairs += f" (+{bonus[0]}/+{bonus[1]} WIK)"
    return _line(
        _("Roll for %(purpose)s (%(dice)s): %(winner)s (%(chance)s)."),
        ("purpose",),
        purpose=_label(ROLL_PURPOSES, data["purpose"]),
        dice=pairs,
        winner=_player(state, data["winner"]),
        chance=_chance(data.get("p_winner")),
    )


def _attacked(state: MatchState, data: Data) -> TimelineLine:
    letter = Letter(data["letter"])
    meaning = outcome(letter, melee=data["melee"], cavalry=False).text
    weights = data.get("weights") or {}
    denominator = data.get("denominator") or 0
    chance = _chance(f"{weights.get(letter.value, 0)}/{denominator}") if denominator else "?"
    shots = f" {data['shot']}/{data['shots']}" if data["shots"] > 1 else ""
    return _line(
        _(
            "%(attacker)s → %(target)s, %(weapon)s (%(source)s%(shots)s, %(cover)s): "
            "%(value)s − PW %(pw)s → column %(column)s; dice %(dice)s → row %(row)s: "
            "%(letter)s (%(chance)s) — %(meaning)s."
        ),
        ("source", "cover", "meaning"),
        attacker=_model(state, data["attacker"]),
        target=_model(state, data["target"]),
        weapon=_weapon(state, data, "attacker"),
        source=_label(SOURCES, data["source"]),
        shots=shots,
        cover=_label(COVER_LABELS, data["counted"]),
        value=data["value"],
        pw=data["pw"],
        column=data["column"],
        dice=_dice(data["dice"]),
        row=data["row"],
        letter=letter.value,
        chance=chance,
        meaning=meaning,
    )


def _morale(state: MatchState, data: Data) -> TimelineLine:
    if data.get("marker") is not None:
        # A hidden unit: the WIK and the chance would tell which unit stands behind the marker.
        return _line(
            _("Marker %(number)s passes a morale test.")
            if data["passed"]
            else _("Marker %(number)s fails a morale test and panics."),
            number=data["marker"],
        )
    template = (
        _("%(unit)s passes its morale test on WIK %(wik)s%(modifier)s: dice %(dice)s (%(chance)s).")
        if data["passed"]
        else _(
            "%(unit)s fails its morale test on WIK %(wik)s%(modifier)s: dice %(dice)s "
            "(%(chance)s to pass) and panics: a 5 cm flight towards cover."
        )
    )
    modifier = data["modifier"]
    return _line(
        template,
        unit=_unit(state, data),
        wik=data["wik"],
        modifier=f" {modifier:+d}" if modifier else "",
        dice=" → ".join(str(d) for d in data["dice"]),
        chance=_chance(data["p_pass"]),
    )


def _rally(state: MatchState, data: Data) -> TimelineLine:
    if data.get("marker") is not None:
        return _line(
            _("Marker %(number)s rally test: %(result)s."),
            ("result",),
            number=data["marker"],
            result=RALLY_RESULTS[data["result"]],
        )
    weights = data["weights"]
    return _line(
        _("%(unit)s rally test on %(value)s: die %(dice)s — %(result)s (%(chance)s)."),
        ("result",),
        unit=_unit(state, data),
        value=data["value"],
        dice=_dice(data["dice"]),
        result=RALLY_RESULTS[data["result"]],
        chance=_chance(f"{weights[data['result']]}/{data['denominator']}"),
    )


def _banner(state: MatchState, data: Data) -> TimelineLine:
    result = _label(BANNER_RESULTS, data["result"])
    if data.get("marker") is not None:
        return _line(
            _("Marker %(number)s: the banner falls, WIK test %(result)s."),
            ("result",),
            number=data["marker"],
            result=result,
        )
    weights = data.get("weights") or {}
    return _line(
        _(
            "%(unit)s: the banner falls, WIK test on %(wik)s, die %(dice)s — %(result)s "
            "(%(chance)s)."
        ),
        ("result",),
        unit=_unit(state, data),
        wik=data["wik"],
        dice=_dice(data["dice"]),
        result=result,
        chance=_chance(f"{weights.get(data['result'], 0)}/{data.get('denominator') or 0}"),
    )


def _damaged(state: MatchState, data: Data) -> TimelineLine:
    template = (
        _("%(model)s loses %(tp)s TP (%(cause)s) and is out of the game.")
        if data["left"] == 0
        else _("%(model)s loses %(tp)s TP (%(cause)s): %(left)s left.")
    )
    return _line(
        template,
        ("cause",),
        model=_model(state, data["model"]),
        tp=data["tp"],
        left=data["left"],
        cause=_label(CAUSE_LABELS, data["cause"]),
    )


def _round_started(state: MatchState, data: Data) -> TimelineLine:
    fires = ", ".join(
        f"{roll['fire'] + 1}: {roll['dice'][0]} ({_chance(roll.get('p'))})"
        for roll in data["fires"]
    )
    if fires:
        return _line(
            _("Round %(round)s: %(a)s and %(b)s units; fire markers re-rolled (%(fires)s)."),
            round=data["round"],
            a=data["counts"][0],
            b=data["counts"][1],
            fires=fires,
        )
    return _line(
        _("Round %(round)s: %(a)s and %(b)s units."),
        round=data["round"],
        a=data["counts"][0],
        b=data["counts"][1],
    )


def _vp(state: MatchState, data: Data) -> TimelineLine:
    return _line(
        _("%(player)s scores %(points)s VP (%(reason)s%(detail)s)."),
        ("reason",),
        player=_player(state, data["player"]),
        points=data["points"],
        reason=_label(VP_REASONS, data["reason"]),
        detail=f": {data['detail']}" if data.get("detail") else "",
    )


def _ended(state: MatchState, data: Data) -> TimelineLine:
    reason = _label(REASONS, data["reason"])
    if data["draw"] or not data["winners"]:
        return _line(_("The game ends in a draw (%(reason)s)."), ("reason",), reason=reason)
    return _line(
        _("%(player)s wins (%(reason)s)."),
        ("reason",),
        player=_player(state, data["winners"][0]),
        reason=reason,
    )


def _revealed(state: MatchState, data: Data) -> TimelineLine:
    if data["unit"] is None:
        return _line(
            _("%(player)s's marker %(number)s is revealed (%(reason)s): a decoy, removed."),
            ("reason",),
            player=_player(state, data["player"]),
            number=data["marker"],
            reason=_label(REVEAL_LABELS, data["reason"]),
        )
    return _line(
        _("%(player)s's marker %(number)s is revealed (%(reason)s): %(unit)s."),
        ("reason",),
        player=_player(state, data["player"]),
        number=data["marker"],
        reason=_label(REVEAL_LABELS, data["reason"]),
        unit=state.units[data["unit"]].name,
    )


def _example(state: MatchState, data: Data) -> TimelineLine:
    weights = data["weights"]
    result = "rallied" if data["rallied"] else "mutiny"
    chance = _chance(f"{weights[result]}/{data['denominator']}")
    if data["rallied"]:
        return _line(
            _("Die %(dice)s: %(unit)s is rallied by the example (%(chance)s)."),
            dice=_dice(data["dice"]),
            unit=_unit(state, data),
            chance=chance,
        )
    return _line(
        _("Die %(dice)s: %(unit)s mutinies and shoots at the leader (%(chance)s)."),
        dice=_dice(data["dice"]),
        unit=_unit(state, data),
        chance=chance,
    )


LineFn = Callable[[MatchState, Data], TimelineLine | None]
LINES: Final[Mapping[str, LineFn]] = {
    "match_started": lambda s, d: _line(
        _("The match begins: %(a)s against %(b)s."),
        a=_player(s, 0),
        b=_player(s, 1),
    ),
    "terrain_chosen": lambda s, d: _line(
        _("Terrain: %(method)s."), ("method",), method=METHOD_LABELS[d["method"]]
    ),
    "rolled_off": _rolled,
    "terrain_passed": lambda s, d: _line(
        _("%(player)s passes: no more terrain."), player=_player(s, d["player"])
    ),
    "zone_chooser": lambda s, d: _line(
        _("%(player)s chooses the deployment zone."), player=_player(s, d["player"])
    ),
    "zone_chosen": lambda s, d: _line(
        _("%(player)s deploys at the %(edge)s."),
        ("edge",),
        player=_player(s, d["player"]),
        edge=EDGE_LABELS[d["edge"]],
    ),
    "unit_hidden": lambda s, d: _line(
        _("%(player)s assigns a marker in secret."), player=_player(s, d["player"])
    ),
    "marker_placed": lambda s, d: _line(
        _("%(player)s places marker %(number)s."),
        player=_player(s, d["player"]),
        number=d["marker"],
    ),
    "battle_started": lambda s, d: _line(
        _("%(player)s is the start player."), player=_player(s, d["first"])
    ),
    "round_started": _round_started,
    "pick": lambda s, d: None,
    "round_ended": lambda s, d: _line(_("Round %(round)s ends."), round=d["round"]),
    "activated": lambda s, d: _line(
        _("%(player)s activates %(unit)s."), player=_player(s, d["player"]), unit=_unit(s, d)
    ),
    "readied": lambda s, d: _line(
        _("%(player)s puts %(unit)s on readiness (Aktionsbereitschaft)."),
        player=_player(s, d["player"]),
        unit=_unit(s, d),
    ),
    "blitz_called": lambda s, d: _line(
        _("Blitzaktion! %(unit)s of %(player)s reacts: %(trigger)s."),
        ("trigger",),
        unit=_unit(s, d),
        player=_player(s, d["player"]),
        trigger=TRIGGER_LABELS[d["trigger"]],
    ),
    "blitz_started": lambda s, d: _line(
        _("%(unit)s takes its Blitzaktion (a full turn)."), unit=_unit(s, d)
    ),
    "phase_started": lambda s, d: _line(
        _("%(unit)s: %(phase)s."),
        ("phase",),
        unit=_unit(s, d),
        phase=PHASE_LABELS[Phase(d["phase"])],
    ),
    "turn_ended": lambda s, d: _line(_("%(unit)s ends its turn."), unit=_unit(s, d)),
    "turn_resumed": lambda s, d: _line(
        _("%(unit)s continues its turn: %(phase)s."),
        ("phase",),
        unit=_unit(s, d),
        phase=PHASE_LABELS[Phase(d["phase"])],
    ),
    "fire_added": lambda s, d: _line(_("Fire marker %(number)s placed."), number=d["fire"] + 1),
    "fire_removed": lambda s, d: _line(_("Fire marker %(number)s is out."), number=d["fire"] + 1),
    "vp_scored": _vp,
    "game_ended": _ended,
    "conceded": lambda s, d: _line(_("%(player)s concedes."), player=_player(s, d["player"])),
    "marker_revealed": _revealed,
    "damaged": _damaged,
    "unit_out": lambda s, d: _line(
        _("%(unit)s is out: %(reason)s."),
        ("reason",),
        unit=_unit(s, d),
        reason=_label(OUT_LABELS, d["reason"]),
    ),
    "unit_removed": lambda s, d: _line(
        _("%(unit)s leaves the game: %(reason)s."),
        ("reason",),
        unit=_unit(s, d),
        reason=_label(OUT_LABELS, d["reason"]),
    ),
    "stunned": lambda s, d: _line(
        _("%(model)s is stunned (betäubt)."), model=_model(s, d["model"])
    ),
    "retreats": lambda s, d: _line(
        _("%(model)s retreats %(cm)s cm away from the enemy (the players move it)."),
        model=_model(s, d["model"]),
        cm=d["cm"],
    ),
    "retreat_ignored": lambda s, d: _line(
        _("%(model)s ignores the retreat (%(reason)s)."),
        ("reason",),
        model=_model(s, d["model"]),
        reason=_("Khirf") if d["reason"] == "khirf" else _("hard cover"),
    ),
    "prone_changed": lambda s, d: _line(
        _("%(model)s goes prone.") if d["prone"] else _("%(model)s stands up."),
        model=_model(s, d["model"]),
    ),
    "weapon_fault": lambda s, d: _line(
        _("%(model)s: weapon fault, %(weapon)s out of action%(until)s."),
        model=_model(s, d["model"]),
        weapon=_weapon(s, d),
        until=f" (≤ {d['until']})" if d["until"] else "",
    ),
    "weapon_repaired": lambda s, d: _line(
        _("%(model)s repairs %(weapon)s."),
        model=_model(s, d["model"]),
        weapon=_weapon(s, d),
    ),
    "leader_shot": lambda s, d: None,
    "banner_tested": _banner,
    "mutiny_survived": lambda s, d: _line(
        _("%(leader)s survives the mutiny: only a new example calms %(unit)s."),
        leader=_model(s, d["leader"]),
        unit=_unit(s, d),
    ),
    "pick_passed": lambda s, d: _line(
        _("%(player)s passes the second activation."), player=_player(s, d["player"])
    ),
    "decoys_skipped": lambda s, d: _line(
        _("%(player)s places no more decoys."), player=_player(s, d["player"])
    ),
    "attacked": _attacked,
    "morale_tested": _morale,
    "rally_tested": _rally,
    "moved": lambda s, d: (
        _line(_("%(unit)s: %(band)s."), ("band",), unit=_unit(s, d), band=BAND_LABELS[d["band"]])
        if d.get("marker") is None
        else _line(_("Marker %(number)s moves (9 cm)."), number=d["marker"])
    ),
    "charged": lambda s, d: _line(
        _("%(unit)s charges %(target)s through its view: defensive fire first.")
        if d["through_view"]
        else _("%(unit)s charges %(target)s."),
        unit=_unit(s, d),
        target=_unit(s, d, "target"),
    ),
    "healed": lambda s, d: _line(
        _("%(model)s gets %(tp)s TP back."), model=_model(s, d["model"]), tp=d["tp"]
    ),
    "surrender_offered": lambda s, d: _line(
        _("%(unit)s offers its surrender: the enemy accepts it or massacres the unit."),
        unit=_unit(s, d),
    ),
    "surrender_answered": lambda s, d: _line(
        _("The surrender of %(unit)s is accepted: half VP.")
        if d["accepted"]
        else _("%(unit)s is massacred."),
        unit=_unit(s, d),
    ),
    "massacre_rage": lambda s, d: _line(
        _("%(player)s's remaining units heard the death cries: +%(bonus)s morale for the game."),
        player=_player(s, d["player"]),
        bonus=d["bonus"],
    ),
    "executed": lambda s, d: _line(
        _("%(leader)s sets an example and executes %(victim)s."),
        leader=_model(s, d["leader"]),
        victim=_model(s, d["victim"]),
    ),
    "example_rolled": _example,
    "ignited": lambda s, d: _line(
        _("%(model)s burns: die %(dice)s, %(rounds)s rounds."),
        model=_model(s, d["model"]),
        dice=_dice(d["dice"]),
        rounds=d["rounds"],
    ),
    "burned": lambda s, d: _line(
        _("%(model)s burns (%(left)s rounds left)."), model=_model(s, d["model"]), left=d["left"]
    ),
    "extinguish_rolled": lambda s, d: _line(
        _("%(model)s puts out the flames: die %(dice)s +%(bonus)s (%(chance)s).")
        if d["extinguished"]
        else _("%(model)s fails to put out the flames: die %(dice)s +%(bonus)s (%(chance)s)."),
        model=_model(s, d["model"]),
        dice=_dice(d["dice"]),
        bonus=d["bonus"],
        chance=_chance(d["p_out"]),
    ),
    "medic_healed": lambda s, d: _line(
        _("%(medic)s wakes %(model)s up.")
        if d["woke"]
        else _("%(medic)s heals %(model)s: 1 TP back."),
        medic=_model(s, d["medic"]),
        model=_model(s, d["model"]),
    ),
    "picked_up": lambda s, d: _line(
        _("%(model)s picks up %(weapon)s from %(fallen)s."),
        model=_model(s, d["model"]),
        weapon=_weapon(s, d, "fallen"),
        fallen=_model(s, d["fallen"]),
    ),
}


def timeline_line(state: MatchState, event: Event) -> TimelineLine | None:
    line = LINES.get(event.type)
    return line(state, event.data) if line is not None else None
