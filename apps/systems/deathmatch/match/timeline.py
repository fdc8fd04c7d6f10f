"""The match log as readable lines ("Anzi attacks Kael with Sigma Edge: flip 7 + 2 vs Reflex 8
→ hit"). Templates are English and gettext_noop-marked; the Django layer translates them.
Bookkeeping events (AP spent, a deck moved) have no line of their own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from apps.systems.core.distributions import percent_text
from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import Event, TimelineLine
from apps.systems.deathmatch.match.modes import mode_by_slug
from apps.systems.deathmatch.match.state import MatchState

GADGET_NAMES = (
    _("0 Teleportfeld (teleport field)"),
    _("1 Heilstation (healing station)"),
    _("2 Sprungfeld (jump field)"),
    _("3 Automatisiertes Verteidigungssystem (defence system)"),
    _("4 Energieschild (energy shield)"),
    _("5 Durchschlag (penetration)"),
    _("6 Schimmerfeld (shimmer field)"),
    _("7 Stim-Terminal"),
    _("8 Erlöser"),
    _("9 A-18 Drohne (drone)"),
)
OUTCOMES = {
    "hit": _("hit"),
    "graze": _("graze"),
    "miss": _("miss"),
    "fail": _("fails (0)"),
}
MELEE_OUTCOMES = {**OUTCOMES, "graze": _("flesh wound"), "miss": _("evaded")}
MARKERS = {
    "fire": _("Feuer (fire)"),
    "shock": _("Schock (shock)"),
    "acid": _("Säure (acid)"),
    "poison": _("Gift (poison)"),
}
VP_REASONS = {
    "knock_out": _("knock-out"),
    "vip": _("VIP"),
    "focal_point": _("focal point"),
    "switch": _("switch"),
    "domination": _("domination"),
    "king": _("king in the centre"),
    "flag": _("flag scored"),
    "flag_home": _("own flag in place"),
    "flag_returned": _("flag recaptured"),
    "breakthrough": _("enemy switch activated"),
    "core_destroyed": _("core destroyed"),
    "core_damage": _("core damage"),
    "adjusted": _("correction"),
}
CAUSES = {
    "fire": _("fire"),
    "fall": _("fall"),
    "dangerous_terrain": _("dangerous terrain"),
    "effect": _("effect"),
    "poison": _("poison"),
    "attack": _("attack"),
    "adjusted": _("correction"),
}
END_REASONS = {
    "wiped_out": _("a team was wiped out"),
    "rounds": _("the last round is over"),
    "vp_target": _("the VP target was reached"),
    "vp_limit": _("a team reached the VP limit"),
    "core_destroyed": _("an energy core fell"),
    "conceded": _("conceded"),
    "time": _("the time is up"),
}

Line = Callable[[MatchState, Mapping[str, Any]], TimelineLine | None]
_LINES: dict[str, Line] = {}


def line(event_type: str) -> Callable[[Line], Line]:
    def register(fn: Line) -> Line:
        _LINES[event_type] = fn
        return fn

    return register


def timeline_line(state: MatchState, event: Event) -> TimelineLine | None:
    fn = _LINES.get(event.type)
    return fn(state, event.data) if fn is not None else None


def _unit(state: MatchState, unit_id: int | None) -> str:
    if unit_id is None or not 0 <= unit_id < len(state.units):
        return "?"
    return state.units[unit_id].name


def _player(state: MatchState, index: int | None) -> str:
    if index is None or not 0 <= index < len(state.players):
        return "?"
    return state.players[index].name


def _cards(flip: Mapping[str, Any]) -> str:
    return " ".join(str(card["value"]) for card in flip["cards"])


@line("match_started")
def _started(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    mode = mode_by_slug(data["mode"]).name
    if data["mode_cards"]:
        return TimelineLine(
            _("Game mode flipped at random (cards %(cards)s): %(mode)s, %(size)s fighters each."),
            {
                "cards": " ".join(map(str, data["mode_cards"])),
                "mode": mode,
                "size": data["game_size"],
            },
        )
    return TimelineLine(
        _("Match set up: %(mode)s, %(size)s fighters each."),
        {"mode": mode, "size": data["game_size"]},
    )


@line("gadget_chosen")
def _gadget(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    params = {"player": _player(state, data["player"]), "gadget": GADGET_NAMES[data["option"]]}
    if data.get("flip"):
        return TimelineLine(
            _("%(player)s flips for a gadget: %(gadget)s."), params, translate=("gadget",)
        )
    return TimelineLine(_("%(player)s chooses the gadget %(gadget)s."), params, ("gadget",))


@line("deployment_flipped")
def _deployment(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    cards = ", ".join(
        f"{_player(state, p)} {_cards(f)}"
        for p, f in zip(data["players"], data["flips"], strict=True)
    )
    if data["winner"] is None:
        return TimelineLine(_("Deployment flip: %(cards)s. A tie: flip again."), {"cards": cards})
    return TimelineLine(
        _("Deployment flip: %(cards)s. %(winner)s decides who deploys first."),
        {"cards": cards, "winner": _player(state, data["winner"])},
    )


@line("first_deployer_chosen")
def _first_deployer(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(
        _("%(player)s picks a zone, places gadgets and deploys first."),
        {"player": _player(state, data["player"])},
    )


@line("vip_named")
def _vip(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(
        _("%(player)s names %(unit)s VIP."),
        {"player": _player(state, data["player"]), "unit": _unit(state, data["unit"])},
    )


@line("king_named")
def _king(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(_("%(unit)s is the king."), {"unit": _unit(state, data["unit"])})


@line("flags_assigned")
def _flags(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(
        _("%(player)s hands flag markers to: %(units)s."),
        {
            "player": _player(state, data["player"]),
            "units": ", ".join(_unit(state, u) for u in data["units"]) or "-",
        },
    )


@line("round_started")
def _round(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    pools = ", ".join(f"{_player(state, i)} {cp}" for i, cp in enumerate(data["cp"]))
    return TimelineLine(
        _("Round %(round)s begins. Command points: %(pools)s."),
        {"round": data["round"], "pools": pools},
    )


@line("initiative_flipped")
def _initiative(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    cards = ", ".join(f"{_player(state, i)} {_cards(f)}" for i, f in enumerate(data["flips"]))
    return TimelineLine(_("Initiative flip: %(cards)s."), {"cards": cards})


@line("flip_rerolled")
def _rerolled(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(
        _("%(player)s rerolls %(count)s card(s): the flip shows %(cards)s."),
        {
            "player": _player(state, data["player"]),
            "count": data["count"],
            "cards": _cards(data["flip"]),
        },
    )


@line("initiative_won")
def _initiative_won(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    template = (
        _("%(player)s wins the initiative on a tie (%(results)s).")
        if data["tie"]
        else _("%(player)s wins the initiative (%(results)s).")
    )
    return TimelineLine(
        template,
        {
            "player": _player(state, data["winner"]),
            "results": ", ".join(str(r) for r in data["results"]),
        },
    )


@line("starter_chosen")
def _starter(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(
        _("%(player)s begins the round."), {"player": _player(state, data["player"])}
    )


@line("unit_activated")
def _activated(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(
        _("%(unit)s is activated (%(ap)s AP)."),
        {"unit": _unit(state, data["unit"]), "ap": data["ap"]},
    )


@line("passed")
def _passed(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(_("%(player)s passes."), {"player": _player(state, data["player"])})


@line("coordinated_activation")
def _coordinated(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(
        _("%(player)s spends 2 CP on a coordinated activation."),
        {"player": _player(state, data["player"])},
    )


@line("order_given")
def _order(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(
        _("Befehl (1 CP): %(unit)s may still activate with 1 AP."),
        {"unit": _unit(state, data["unit"])},
    )


_SIMPLE = {
    "dodged": _("%(unit)s dodges (Ausweichen): +2 Reflex until its next activation."),
    "aimed": _("%(unit)s aims (Zielen)."),
    "power_strike_readied": _("%(unit)s prepares a Wuchtschlag (power strike)."),
    "readiness_used": _("%(unit)s reacts from readiness."),
    "removed": _("%(unit)s is out of the game."),
    "shimmer_used": _("%(unit)s's Schimmer marker gives +3 Reflex against this shot."),
    "erloeser_fired": _("%(unit)s fires the Erlöser's shot."),
}


def _simple(template: str) -> Line:
    def render(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
        return TimelineLine(template, {"unit": _unit(state, data["unit"])})

    return render


for _event, _template in _SIMPLE.items():
    _LINES[_event] = _simple(_template)


@line("respawned")
def _respawned(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    unit = data["unit"]
    params = {"unit": _unit(state, unit)}
    # A Mech ignores respawn shock (its profile does not change during a match).
    if 0 <= unit < len(state.units) and state.units[unit].profile.mech:
        return TimelineLine(
            _("%(unit)s respawns (markers removed; a Mech: no respawn shock)."), params
        )
    return TimelineLine(
        _("%(unit)s respawns (markers removed; respawn shock from now on)."), params
    )


@line("penetration_used")
def _penetration_used(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    # The marker counts for the next melee or ranged attack (GADGETS, 5 Durchschlag).
    template = (
        _("%(unit)s strikes with its Durchschlag marker: +2 S.")
        if data.get("melee")
        else _("%(unit)s fires with its Durchschlag marker: +2 S.")
    )
    return TimelineLine(template, {"unit": _unit(state, data["unit"])})


@line("charge_moved")
def _charge_moved(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    attack = data["attack"]
    return TimelineLine(
        _("%(unit)s charges %(target)s (Sturmangriff): first what the move did to it."),
        {
            "unit": _unit(state, attack["attacker"]),
            "target": _unit(state, attack["targets"][0]["unit"]),
        },
    )


@line("charge_dropped")
def _charge_dropped(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(
        _("%(unit)s was knocked out on the way: its Sturmangriff ends."),
        {"unit": _unit(state, data["unit"])},
    )


@line("readiness_taken")
def _readiness(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    if data.get("action", True):
        return TimelineLine(
            _("%(unit)s goes into readiness (1 AP)."), {"unit": _unit(state, data["unit"])}
        )
    return TimelineLine(
        _("%(unit)s goes into readiness at the end of its activation (1 CP)."),
        {"unit": _unit(state, data["unit"])},
    )


@line("moved")
def _moved(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(
        _('%(unit)s moves (up to %(inches)s").'),
        {"unit": _unit(state, data["unit"]), "inches": data["inches"]},
    )


@line("special_action_used")
def _special(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(
        _("%(unit)s uses %(action)s (%(ap)s AP)."),
        {"unit": _unit(state, data["unit"]), "action": data["name"], "ap": data["ap"]},
    )


@line("hit_resolved")
def _hit(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    targets = data["targets"]
    if data["attacker"] is None:
        return TimelineLine(
            _("Automatic hit on %(target)s (%(cause)s)."),
            {
                "target": _unit(state, targets[0]["unit"]),
                "cause": CAUSES.get(data["cause"], data["cause"]),
            },
            translate=("cause",),
        )
    melee = data["kind"] in ("melee", "charge")
    names = MELEE_OUTCOMES if melee else OUTCOMES
    # Several targets share one line; outcomes as symbols read the same in every language.
    symbols = {"hit": "✓", "graze": "≈", "miss": "✗", "fail": "✗ 0"}
    parts = []
    for target in targets:
        if target.get("automatic"):
            parts.append(f"{_unit(state, target['unit'])} ✓")
            continue
        parts.append(
            f"{_unit(state, target['unit'])} {target['card']} + {target['attack_value']} / "
            f"{target['reflex']} {symbols[target['outcome']]}"
        )
    first = targets[0]
    if len(targets) == 1 and not first.get("automatic"):
        template = _(
            "%(attacker)s attacks %(target)s with %(weapon)s: flip %(cards)s → %(card)s + "
            "%(value)s vs Reflex %(reflex)s → %(outcome)s (chance of a hit %(chance)s)."
        )
        params: dict[str, str | int] = {
            "attacker": _unit(state, data["attacker"]),
            "target": _unit(state, first["unit"]),
            "weapon": data["weapon"],
            "cards": " ".join(map(str, data["cards"])),
            "card": first["card"],
            "value": first["attack_value"],
            "reflex": first["reflex"],
            "outcome": names[first["outcome"]],
            "chance": percent_text(first["chance"]) if first.get("chance") else "–",
        }
        if first.get("crits_auto_hit") or first.get("crits_boost"):
            template = _(
                "%(attacker)s attacks %(target)s with %(weapon)s: flip %(cards)s → %(card)s + "
                "%(value)s vs Reflex %(reflex)s → %(outcome)s (chance of a hit %(chance)s; "
                "critical: %(auto)s automatic hit, %(boost)s wound boost)."
            )
            params |= {"auto": first["crits_auto_hit"], "boost": first["crits_boost"]}
        return TimelineLine(template, params, translate=("outcome",))
    return TimelineLine(
        _("%(attacker)s attacks with %(weapon)s: flip %(cards)s; %(results)s."),
        {
            "attacker": _unit(state, data["attacker"]),
            "weapon": data["weapon"],
            "cards": " ".join(map(str, data["cards"])),
            "results": "; ".join(parts),
        },
    )


@line("interference_flipped")
def _interference(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    chosen = data["chosen"]
    return TimelineLine(
        _("Models in the way: cards %(cards)s (closest +2): %(chosen)s is hit."),
        {
            "cards": " ".join(map(str, data["cards"])),
            "chosen": _unit(state, chosen) if chosen >= 0 else "—",
        },
    )


@line("wound_flipped")
def _wound_flip(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(
        _("Wound flip against %(unit)s: %(cards)s (chance of a knock-out %(ko)s)."),
        {
            "unit": _unit(state, data["victim"]),
            "cards": _cards(data["flip"]),
            "ko": percent_text(data["odds"]["knock_out"]),
        },
    )


@line("wounded")
def _wounded(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    params: dict[str, str | int] = {
        "card": data["card"],
        "strength": data["strength"],
        "resistance": data["resistance"],
        "damage": data["damage"],
        "unit": _unit(state, data["unit"]),
        "lp": data["lp"],
    }
    if "lp_before" not in data:  # logged before the LP before the wound were recorded
        return TimelineLine(
            _(
                "Wound %(card)s + %(strength)s − %(resistance)s = %(damage)s: "
                "%(unit)s has %(lp)s LP left."
            ),
            params,
        )
    return TimelineLine(
        _(
            "Wound %(card)s + %(strength)s − %(resistance)s = %(damage)s: "
            "%(unit)s %(before)s → %(lp)s LP."
        ),
        {**params, "before": data["lp_before"]},
    )


@line("marker_added")
def _marker(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(
        _("%(unit)s gets a %(marker)s marker."),
        {"unit": _unit(state, data["unit"]), "marker": MARKERS[data["marker"]]},
        translate=("marker",),
    )


@line("poison_resolved")
def _poison(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(
        _("Gift: %(unit)s loses %(lp)s LP and one poison marker."),
        {"unit": _unit(state, data["unit"]), "lp": data["lp"]},
    )


@line("knocked_out")
def _knocked_out(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    credit = ", ".join(_player(state, p) for p in data["credit"])
    if not credit:
        return TimelineLine(
            _("%(unit)s is knocked out (%(cause)s); nobody is credited."),
            {"unit": _unit(state, data["unit"]), "cause": CAUSES.get(data["cause"], data["cause"])},
            translate=("cause",),
        )
    return TimelineLine(
        _("%(unit)s is knocked out (%(cause)s), credited to %(credit)s."),
        {
            "unit": _unit(state, data["unit"]),
            "cause": CAUSES.get(data["cause"], data["cause"]),
            "credit": credit,
        },
        translate=("cause",),
    )


@line("vp_scored")
def _vp(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(
        _("%(player)s: %(points)s VP (%(reason)s%(detail)s)."),
        {
            "player": _player(state, data["player"]),
            "points": f"{data['points']:+d}",
            "reason": VP_REASONS.get(data["reason"], data["reason"]),
            "detail": f": {data['detail']}" if data.get("detail") else "",
        },
        translate=("reason",),
    )


@line("target_reached")
def _target(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(
        _("%(player)s reached %(target)s VP: the game ends after this round."),
        {"player": _player(state, data["player"]), "target": data["target"]},
    )


@line("activation_ended")
def _ended(state: MatchState, data: Mapping[str, Any]) -> TimelineLine | None:
    if data.get("reason") == "knocked_out":
        return None
    return TimelineLine(_("%(unit)s ends its activation."), {"unit": _unit(state, data["unit"])})


@line("round_ended")
def _round_ended(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(_("Round %(round)s: end phase."), {"round": data["round"]})


@line("switch_changed")
def _switch(state: MatchState, data: Mapping[str, Any]) -> TimelineLine | None:
    owner = data.get("owner")
    if data.get("unit") is None:
        if owner is None:
            return None
        return TimelineLine(
            _("%(player)s controls %(objective)s."),
            {"player": _player(state, owner), "objective": data["objective"]},
        )
    if owner is None:
        return TimelineLine(
            _("%(unit)s neutralises switch %(objective)s."),
            {"unit": _unit(state, data["unit"]), "objective": data["objective"]},
        )
    return TimelineLine(
        _("%(unit)s activates switch %(objective)s."),
        {"unit": _unit(state, data["unit"]), "objective": data["objective"]},
    )


@line("flag_taken")
def _flag_taken(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    if data.get("from_unit") is not None:
        return TimelineLine(
            _("%(from)s hands %(flag)s to %(unit)s."),
            {
                "from": _unit(state, data["from_unit"]),
                "flag": data["objective"],
                "unit": _unit(state, data["unit"]),
            },
        )
    return TimelineLine(
        _("%(unit)s picks up %(flag)s."),
        {"unit": _unit(state, data["unit"]), "flag": data["objective"]},
    )


@line("flag_placed")
def _flag_placed(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    templates = {
        "knock_out": _("%(flag)s falls with its carrier."),
        "returned": _("%(flag)s is back in its place."),
        "scored": _("%(flag)s is scored and returns to its place."),
        "switch": _("%(flag)s is spent on the switch."),
    }
    return TimelineLine(templates[data["reason"]], {"flag": data["objective"]})


@line("gadget_used")
def _gadget_used(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    effects = {
        "heal": _("%(unit)s is healed at the Heilstation: 1d5 = %(roll)s LP."),
        "shield": _("%(unit)s gets an Energieschild marker (+3 Resistance against the next hit)."),
        "penetration": _("%(unit)s gets a Durchschlag marker (+2 S on the next attack)."),
        "shimmer": _("%(unit)s gets a Schimmer marker (+3 Reflex against the next ranged attack)."),
        "stim": _("%(unit)s gains +1 AP at the Stim-Terminal."),
        "erloeser": _("%(unit)s takes the Erlöser's shot."),
    }
    return TimelineLine(
        effects[data["effect"]], {"unit": _unit(state, data["unit"]), "roll": data.get("roll") or 0}
    )


@line("gadgets_lapsed")
def _lapsed(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(
        _("The Erlöser was not used in its round and lapses (%(gadgets)s)."),
        {"gadgets": ", ".join(data["gadgets"])},
    )


@line("ammo_restored")
def _ammo_restored(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(
        _("%(unit)s respawns with its full ammunition."), {"unit": _unit(state, data["unit"])}
    )


@line("decks_kept")
def _decks_kept(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(
        _("Seen cards stay seen: the cards the undone command drew stay drawn (%(players)s)."),
        {"players": ", ".join(_player(state, kept["player"]) for kept in data["decks"])},
    )


@line("core_repaired")
def _repaired(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(
        _("%(unit)s repairs %(core)s: +%(lp)s LP."),
        {"unit": _unit(state, data["unit"]), "core": _unit(state, data["core"]), "lp": data["lp"]},
    )


@line("strike_flipped")
def _strike(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    template = (
        _("%(striker)s strikes as the model disengages: %(cards)s → hit.")
        if data["hits"]
        else _("%(striker)s strikes as the model disengages: %(cards)s → miss.")
    )
    return TimelineLine(
        template, {"striker": _unit(state, data["striker"]), "cards": _cards(data["flip"])}
    )


@line("disengage_resolved")
def _disengaged(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    if data["stopped"]:
        return TimelineLine(
            _("%(unit)s is stopped where it would leave the control zone."),
            {"unit": _unit(state, data["unit"])},
        )
    return TimelineLine(_("%(unit)s disengages and moves."), {"unit": _unit(state, data["unit"])})


@line("free_flipped")
def _free(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    flip = data["flip"]
    values = [card["value"] for card in flip["cards"]]
    modifier = flip["modifier"]
    kept = max(values) if modifier > 0 else min(values) if modifier < 0 else values[0]
    return TimelineLine(
        _("%(player)s flips %(cards)s → %(result)s%(label)s."),
        {
            "player": _player(state, data["player"]),
            "cards": _cards(flip),
            "result": kept,
            "label": f" ({data['label']})" if data.get("label") else "",
        },
    )


# How a standing modifier reads in the log (profile words as the cards print them).
MODIFIER_WORDS = {
    "reflex": "Reflex",
    "resistance": "Widerstand",
    "lp": "LP",
    "move": "Bewegung",
    "ranged": "FK",
    "melee": "NK",
}


def _corrected(key: str, value: Any) -> str:
    if key == "modifiers":
        return ", ".join(f"{MODIFIER_WORDS[name]} {amount:+d}" for name, amount in value.items())
    if key == "markers":
        return ", ".join(f"{name} {count}" for name, count in value.items())
    return f"{key} {value}"


@line("unit_adjusted")
def _adjusted(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    changes = ", ".join(
        _corrected(key, value) for key, value in data.items() if key not in ("unit", "note")
    )
    return TimelineLine(
        _("Correction: %(unit)s %(changes)s%(note)s."),
        {
            "unit": _unit(state, data["unit"]),
            "changes": changes,
            "note": f" ({data['note']})" if data.get("note") else "",
        },
    )


@line("cp_adjusted")
def _cp_adjusted(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(
        _("Correction: %(player)s has %(cp)s command points."),
        {"player": _player(state, data["player"]), "cp": data["cp"]},
    )


@line("player_eliminated")
def _eliminated(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(
        _("%(player)s has no fighter left and loses."), {"player": _player(state, data["player"])}
    )


@line("conceded")
def _conceded(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    return TimelineLine(_("%(player)s concedes."), {"player": _player(state, data["player"])})


@line("game_ended")
def _game_ended(state: MatchState, data: Mapping[str, Any]) -> TimelineLine:
    vp = ", ".join(f"{_player(state, i)} {v}" for i, v in enumerate(data["vp"]))
    reason = END_REASONS.get(data["reason"], data["reason"])
    if data["draw"]:
        return TimelineLine(
            _("Game over (%(reason)s): a draw. VP: %(vp)s."),
            {"reason": reason, "vp": vp},
            translate=("reason",),
        )
    return TimelineLine(
        _("Game over (%(reason)s): %(winner)s wins. VP: %(vp)s."),
        {"reason": reason, "winner": _player(state, data["winners"][0]), "vp": vp},
        translate=("reason",),
    )
