"""The match log as readable lines. Templates are English and gettext_noop-marked; the Django
layer translates them. No line names a secret: a mission or a pick is "chosen in secret" until
its reveal. Bookkeeping events (AP spent, rolls shown) have no line of their own."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import Event, TimelineLine
from apps.systems.universalis.match.missions import mission
from apps.systems.universalis.match.odds import SIDES
from apps.systems.universalis.match.state import MatchState

ZONES = {
    "torso": _("torso"),
    "left": _("left side"),
    "right": _("right side"),
    "movement": _("movement"),
}
REASONS = {
    "mission": _("mission accomplished"),
    "surrender": _("surrender"),
    "group_gone": _("a group has no model left"),
    "round_limit": _("the last round is over"),
    "conceded": _("conceded"),
    "time": _("the time is up"),
}
ACTIONS = {
    "turn": _("turns"),
    "move": _("moves"),
    "disengage": _("disengages"),
    "prone": _("goes prone"),
    "stand_up": _("stands up"),
    "use_object": _("uses an object"),
    "shot_normal": _("shoots (normal shot)"),
    "shot_aimed": _("shoots (aimed shot)"),
    "shot_snap": _("shoots (snap shot)"),
    "shot_reaction": _("fires in reaction"),
    "fire_readiness": _("takes fire readiness"),
    "reload": _("reloads"),
    "melee": _("attacks"),
    "reckless": _("attacks recklessly"),
    "charge": _("charges"),
    "counter_attack": _("counter-attacks"),
    "opportunity_attack": _("attacks as the enemy disengages"),
    "defence": _("takes defence"),
    "reveal": _("tries to reveal"),
    "recon_support": _("supports the reveal"),
    "dodge": _("dodges"),
    "use_trait": _("uses a trait"),
    "use_equipment": _("uses equipment"),
    "use_power": _("uses a power"),
    "end_power": _("ends a power"),
    "block_power": _("blocks a power"),
    "block_power_reaction": _("tries to block the power"),
}


def _name(state: MatchState, unit: Any) -> str:
    if isinstance(unit, int) and 0 <= unit < len(state.units):
        return state.units[unit].name
    return "—"


def _player(state: MatchState, index: Any) -> str:
    if isinstance(index, int) and 0 <= index < len(state.players):
        return state.players[index].name
    return "—"


def _roll_text(roll: Mapping[str, Any]) -> str:
    dice = roll.get("dice", [])
    if roll.get("totals"):
        a, b = roll["totals"]
        return f"{a}:{b}"
    if roll.get("target") is not None:
        return f"{dice[0] if dice else '–'} ≤ {roll['target']}" if dice else f"– ≤ {roll['target']}"
    return "/".join(str(d) for d in dice)


Line = Callable[[MatchState, Mapping[str, Any]], TimelineLine | None]
LINES: dict[str, Line] = {}


def line(event_type: str) -> Callable[[Line], Line]:
    def register(fn: Line) -> Line:
        LINES[event_type] = fn
        return fn

    return register


def timeline_line(state: MatchState, event: Event) -> TimelineLine | None:
    make = LINES.get(event.type)
    return make(state, event.data) if make else None


def _simple(event_type: str, template: str, key: str = "unit") -> None:
    LINES[event_type] = lambda state, data: TimelineLine(
        template, {"unit": _name(state, data.get(key))}
    )


@line("match_started")
def _started(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(
        _("The match begins: %(players)s."), {"players": " – ".join(p.name for p in state.players)}
    )


@line("mission_chosen")
def _mission_chosen(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(
        _("%(player)s chose a mission in secret."), {"player": _player(state, data.get("player"))}
    )


@line("missions_revealed")
def _revealed(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    shown = "; ".join(
        f"{p.name}: {mission(slug).name}"
        for p, slug in zip(state.players, data.get("missions", []), strict=False)
        if slug
    )
    return TimelineLine(_("The missions are revealed: %(missions)s."), {"missions": shown})


@line("deployment_rolled")
def _deployment(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    rolls = ", ".join(_roll_text(r) for r in data.get("rolls", []))
    return TimelineLine(
        _("Deployment roll-off %(rolls)s: %(player)s marks a zone and deploys first."),
        {"rolls": rolls, "player": _player(state, data.get("winner"))},
    )


@line("round_started")
def _round(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(_("Round %(round)s begins: AP refilled."), {"round": data.get("round", 0)})


@line("picked")
def _picked(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(
        _("%(player)s picked a model in secret."), {"player": _player(state, data.get("player"))}
    )


@line("initiative_rolled")
def _initiative(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    rolls = ", ".join(_roll_text(r) for r in data.get("rolls", []))
    return TimelineLine(
        _("Initiative %(rolls)s: %(first)s acts first, then %(second)s."),
        {
            "rolls": rolls,
            "first": _name(state, data.get("first")),
            "second": _name(state, data.get("second")),
        },
    )


_simple("phase_started", _("%(unit)s begins its initiative phase."))
_simple("phase_ended", _("%(unit)s ends its initiative phase."))
_simple("went_prone", _("%(unit)s goes prone."))
_simple("stood_up", _("%(unit)s stands up."))
_simple("critical", _("%(unit)s falls into the critical state."))
_simple("set_on_fire", _("%(unit)s is set on fire."))
_simple("fire_out", _("The fire on %(unit)s goes out."))
_simple("defence_taken", _("%(unit)s takes defence."))
_simple("panic_test_skipped", _("%(unit)s does not perceive the fallen friend: no panic test."))
_simple("fell_over", _("%(unit)s falls over and is eliminated; it is terrain now."))
_simple("auto_hit", _("%(unit)s suffers an automatic hit."))


@line("ap_spent")
def _ap(state: MatchState, data: Mapping[str, Any]) -> TimelineLine | None:
    action = data.get("action", "")
    if action not in ACTIONS or action in ("move", "turn", "prone", "stand_up", "defence"):
        return None
    return TimelineLine(
        _("%(unit)s %(action)s (%(ap)s AP)."),
        {
            "unit": _name(state, data.get("unit")),
            "action": ACTIONS[action],
            "ap": data.get("ap", 0),
        },
        translate=("action",),
    )


@line("moved")
def _moved(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(
        _("%(unit)s moves %(cm)s cm."),
        {"unit": _name(state, data.get("unit")), "cm": data.get("cm", 0)},
    )


def _passed(template_pass: str, template_fail: str) -> Line:
    def make(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
        roll = data.get("roll") or {}
        return TimelineLine(
            template_pass if data.get("passed") else template_fail,
            {"unit": _name(state, data.get("unit")), "roll": _roll_text(roll)},
        )

    return make


LINES["threat_tested"] = _passed(
    _("%(unit)s ignores the direct threat (EH %(roll)s)."),
    _("%(unit)s must attack the direct threat (EH %(roll)s)."),
)
LINES["disengage_tested"] = _passed(
    _("%(unit)s breaks away (EH %(roll)s)."),
    _("%(unit)s fails to disengage (EH %(roll)s); no AP spent."),
)
LINES["defence_tested"] = _passed(
    _("%(unit)s keeps its defence (EH %(roll)s)."), _("%(unit)s loses its defence (EH %(roll)s).")
)
LINES["readiness_tested"] = _passed(
    _("%(unit)s keeps its fire readiness (EH %(roll)s)."),
    _("%(unit)s loses its fire readiness (EH %(roll)s)."),
)
LINES["panic_tested"] = _passed(
    _("%(unit)s keeps its nerve (EH %(roll)s)."), _("%(unit)s panics (EH %(roll)s).")
)
LINES["feedback"] = _passed(
    _("%(unit)s withstands the feedback (EH %(roll)s)."),
    _("%(unit)s suffers feedback (EH %(roll)s)."),
)
LINES["reveal_rolled"] = _passed(
    _("%(unit)s reveals its target (WN %(roll)s)."), _("%(unit)s finds nothing (WN %(roll)s).")
)
LINES["power_rolled"] = _passed(
    _("%(unit)s: the power works (%(roll)s)."), _("%(unit)s: the power fails (%(roll)s).")
)
LINES["movement_tested"] = _passed(
    _("%(unit)s crosses the terrain (AGI)."), _("%(unit)s falls in the terrain and lies prone.")
)


@line("shot")
def _shot(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    roll = data.get("roll") or {}
    return TimelineLine(
        _("%(unit)s shoots at %(target)s: FK %(roll)s → %(outcome)s."),
        {
            "unit": _name(state, data.get("unit")),
            "target": _name(state, data.get("target")),
            "roll": _roll_text(roll),
            "outcome": _("hit") if data.get("hit") else _("miss"),
        },
        translate=("outcome",),
    )


@line("dodged")
def _dodged(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(
        _("%(unit)s dodges (AGI %(roll)s): %(outcome)s."),
        {
            "unit": _name(state, data.get("unit")),
            "roll": _roll_text(data.get("roll") or {}),
            "outcome": _("shooter −1") if data.get("won") else _("no effect"),
        },
        translate=("outcome",),
    )


@line("melee_fought")
def _melee(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    rolls = ", ".join(_roll_text(r) for r in data.get("rolls", []))
    outcomes = {
        "hit": _("it lands a hit"),
        "push": _("it pushes back"),
        "power": _("it uses a touch power"),
    }
    outcome = (
        outcomes.get(data.get("on_win", ""), "")
        if data.get("won")
        else _("the defender wins and may push back")
    )
    return TimelineLine(
        _("%(unit)s fights %(target)s (NK %(rolls)s): %(outcome)s."),
        {
            "unit": _name(state, data.get("unit")),
            "target": _name(state, data.get("target")),
            "rolls": rolls,
            "outcome": outcome,
        },
        translate=("outcome",),
    )


@line("wound_rolled")
def _wound(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    wound, armour = data.get("wound", 0), data.get("armour", 0)
    outcome = _("damage") if wound > armour else _("1 shock") if wound == armour else _("no effect")
    zone = data.get("zone")
    return TimelineLine(
        _("Wound against armour on %(unit)s%(zone)s: %(wound)s against %(armour)s → %(outcome)s."),
        {
            "unit": _name(state, data.get("unit")),
            "zone": f" ({ZONES.get(zone, zone)})" if zone else "",
            "wound": wound,
            "armour": armour,
            "outcome": outcome,
        },
        translate=("outcome",),
    )


@line("hp_lost")
def _hp(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(
        _("%(unit)s loses %(amount)s HP."),
        {"unit": _name(state, data.get("unit")), "amount": data.get("amount", 0)},
    )


@line("zone_damaged")
def _zone(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    template = (
        _("%(unit)s: the %(zone)s is destroyed.")
        if data.get("destroyed")
        else _("%(unit)s: the %(zone)s loses %(amount)s HP.")
    )
    return TimelineLine(
        template,
        {
            "unit": _name(state, data.get("unit")),
            "zone": ZONES.get(data.get("zone", ""), ""),
            "amount": data.get("amount", 0),
        },
        translate=("zone",),
    )


@line("shocked")
def _shocked(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(
        _("%(unit)s suffers %(count)s shock."),
        {"unit": _name(state, data.get("unit")), "count": data.get("count", 1)},
    )


@line("eliminated")
def _eliminated(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(_("%(unit)s is eliminated."), {"unit": _name(state, data.get("unit"))})


@line("panicked")
def _panicked(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(
        _("%(unit)s lost its operator and panics."), {"unit": _name(state, data.get("unit"))}
    )


@line("poisoned")
def _poisoned(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(
        _("%(unit)s is poisoned (%(markers)s markers)."),
        {"unit": _name(state, data.get("unit")), "markers": data.get("markers", 0)},
    )


@line("poison_acted")
def _poison(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(_("The poison acts on %(unit)s."), {"unit": _name(state, data.get("unit"))})


@line("burning_tested")
def _burning(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    total = data.get("total", 0)
    outcome = (
        _("the fire goes out")
        if total >= SIDES
        else _("the fire goes out, 1 shock")
        if total >= 9
        else _("it burns")
    )
    return TimelineLine(
        _("%(unit)s burns: %(total)s → %(outcome)s."),
        {"unit": _name(state, data.get("unit")), "total": total, "outcome": outcome},
        translate=("outcome",),
    )


@line("ran_burning")
def _ran(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    directions = ", ".join(str(d) for d in data.get("directions", [])) or "—"
    return TimelineLine(
        _("%(unit)s runs burning %(moves)s times, towards %(directions)s o'clock."),
        {
            "unit": _name(state, data.get("unit")),
            "moves": data.get("moves", 0),
            "directions": directions,
        },
    )


@line("area_pending")
def _area(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    if not data.get("scatter_cm"):
        return TimelineLine(
            _("%(unit)s's area weapon lands on target."), {"unit": _name(state, data.get("unit"))}
        )
    return TimelineLine(
        _("%(unit)s's area weapon scatters %(cm)s cm towards %(direction)s o'clock."),
        {
            "unit": _name(state, data.get("unit")),
            "cm": data.get("scatter_cm", 0),
            "direction": data.get("direction", 0),
        },
    )


@line("melee_victim")
def _victim(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(
        _("The shot into the melee hits %(unit)s."), {"unit": _name(state, data.get("unit"))}
    )


@line("revealed")
def _revealed_line(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(
        _("%(unit)s gives away its position."), {"unit": _name(state, data.get("unit"))}
    )


@line("camouflage_set")
def _camouflage(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    template = (
        _("%(unit)s is camouflaged.")
        if data.get("hidden")
        else _("%(unit)s is no longer camouflaged.")
    )
    return TimelineLine(template, {"unit": _name(state, data.get("unit"))})


@line("power_used")
def _power(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(
        _("%(unit)s uses %(power)s."),
        {"unit": _name(state, data.get("unit")), "power": data.get("power", "")},
    )


@line("power_blocked")
def _blocked(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(
        _("%(by)s blocks %(power)s."),
        {"by": _name(state, data.get("by")), "power": data.get("power", "")},
    )


@line("power_ended")
def _power_ended(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(
        _("%(power)s of %(unit)s ends."),
        {"unit": _name(state, data.get("unit")), "power": data.get("power", "")},
    )


@line("immobilised")
def _immobilised(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    template = (
        _("%(unit)s stands still but can still turn.")
        if data.get("immobile") == "turn"
        else _("%(unit)s stands still and cannot turn.")
    )
    return TimelineLine(template, {"unit": _name(state, data.get("unit"))})


@line("fled")
def _fled(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    template = (
        _("%(unit)s flees and leaves the table.")
        if data.get("left_table")
        else _("%(unit)s flees.")
    )
    return TimelineLine(template, {"unit": _name(state, data.get("unit"))})


@line("charge_declared")
def _charge(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(
        _("%(unit)s charges into base contact with %(target)s: the attack follows."),
        {"unit": _name(state, data.get("unit")), "target": _name(state, data.get("target"))},
    )


_simple("charge_lapsed", _("The charge of %(unit)s comes to nothing."))


@line("contact_set")
def _contact(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    template = (
        _("%(unit)s and %(other)s are in base contact: in melee.")
        if data.get("touching")
        else _("%(unit)s and %(other)s are no longer in base contact.")
    )
    return TimelineLine(
        template,
        {"unit": _name(state, data.get("unit")), "other": _name(state, data.get("other"))},
    )


@line("panic_moved")
def _panic_moved(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    template = (
        _("%(unit)s panics at the round's start and runs off the table.")
        if data.get("left_table")
        else _("%(unit)s panics at the round's start and runs towards the table edge.")
    )
    return TimelineLine(template, {"unit": _name(state, data.get("unit"))})


@line("corrected")
def _corrected(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    values = ", ".join(f"{key} {value}" for key, value in data.get("values", {}).items())
    return TimelineLine(
        _("Correction for %(unit)s: %(values)s."),
        {"unit": _name(state, data.get("unit")), "values": values},
    )


@line("operator_took_shock")
def _took_shock(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(
        _("%(operator)s pays a shock token of %(unit)s with 1 AP."),
        {"operator": _name(state, data.get("operator")), "unit": _name(state, data.get("unit"))},
    )


@line("round_over")
def _round_over(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(_("Round %(round)s is over."), {"round": data.get("round", 0)})


@line("surrendered")
def _surrendered(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(_("%(player)s surrenders."), {"player": _player(state, data.get("player"))})


@line("conceded")
def _conceded(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(_("%(player)s concedes."), {"player": _player(state, data.get("player"))})


@line("game_over")
def _over(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    result = state.result
    reason = REASONS.get(result.reason, "") if result else ""
    if result is None or result.draw or not result.winners:
        return TimelineLine(
            _("The game ends in a draw (%(reason)s)."), {"reason": reason}, translate=("reason",)
        )
    return TimelineLine(
        _("%(player)s wins (%(reason)s)."),
        {"player": _player(state, result.winners[0]), "reason": reason},
        translate=("reason",),
    )
