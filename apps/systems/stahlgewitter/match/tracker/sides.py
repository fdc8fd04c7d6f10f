"""Both sides on the tracker: their units (hidden behind markers or revealed) with their models
(TP boxes, stunned, prone, weapons with FKW/NKW and faults) and the buttons that activate, set
ready, call a Blitzaktion, test morale, attack, go prone and correct TP; and the markers."""

from __future__ import annotations

from fractions import Fraction

from apps.systems.core.buttons import Button, NumberInput, Offers
from apps.systems.core.distributions import chance_text
from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import TimelineLine as Text
from apps.systems.stahlgewitter.match import panic
from apps.systems.stahlgewitter.match.care import pickable
from apps.systems.stahlgewitter.match.labels import EFFECT_LABELS
from apps.systems.stahlgewitter.match.markers import REASONS as REVEALS
from apps.systems.stahlgewitter.match.rounds import TRIGGERS, double
from apps.systems.stahlgewitter.match.secrets import hidden_from
from apps.systems.stahlgewitter.match.state import MatchState, Model, Phase, Stage, Unit, Weapon
from apps.systems.stahlgewitter.match.tracker.attack import attack_choices
from apps.systems.stahlgewitter.match.tracker.models import (
    PLAYER_COLOURS,
    MarkerView,
    ModelView,
    SideView,
    UnitView,
    WeaponView,
)
from apps.systems.stahlgewitter.odds import extinguish_weight

BLITZ_LABELS = {
    "attacked": _("Blitzaktion: friend attacked"),
    "view": _("Blitzaktion: enemy in view"),
    "scanner": _("Blitzaktion: motion scanner"),
}
REVEAL_BUTTONS = {
    "seen": _("Seen"),
    "template": _("Template hit"),
    "choice": _("Set up"),
}


def weapon_tags(weapon: Weapon) -> tuple[str, ...]:
    # A burst weapon says so with its "N attacks/burst" already: no "burst" tag besides.
    tags = []
    if weapon.template_cm:
        tags.append(_("template"))
    if weapon.armour_breaker and weapon.bulkheads_only:
        tags.append(_("Panzerknacker only against bulkheads and hatches"))
    elif weapon.armour_breaker:
        tags.append(_("Panzerknacker (armour breaker)"))
    if weapon.ignores_armour:
        tags.append(_("ignores armour"))
    if weapon.pw_always_1:
        tags.append(_("PW always 1"))
    if not weapon.move_and_fight:
        tags.append(_("not after moving"))
    if weapon.row_bonus:
        tags.append(_("result roll +1"))
    if weapon.stun_from_e:
        tags.append(_("E and above stun"))
    if weapon.morale_test:
        tags.append(_("morale test"))
    if weapon.burns:
        tags.append(_("burns 1W4 rounds"))
    return tuple(tags)


def weapon_view(index: int, weapon: Weapon) -> WeaponView:
    return WeaponView(
        index=index,
        name=weapon.name,
        fkw=weapon.fkw,
        nkw=weapon.nkw,
        range_cm=weapon.range_cm,
        burst=weapon.burst,
        fault=weapon.fault,
        fault_until=weapon.fault_until,
        tags=weapon_tags(weapon),
    )


def _model_buttons(state: MatchState, model: Model, offers: Offers) -> tuple[Button, ...]:
    if state.active != model.unit or model.dead:
        return ()
    args = {"model": model.id}
    if state.phase is Phase.MOVEMENT:
        if model.prone:
            return (offers.command("prone", _("Stand up"), args={**args, "down": False}),)
        return (offers.command("prone", _("Go prone"), args={**args, "down": True}),)
    if state.phase is Phase.MELEE and model.burning:
        helpers = NumberInput("args.helpers:int", _("Helpers"), 0, 0, 3)
        num, den = extinguish_weight(0)
        odds = (Text(_("Alone: %(chance)s"), {"chance": chance(num, den)}),)
        return (
            offers.command(
                "extinguish",
                _("Put out the flames"),
                args=args,
                inputs=(helpers,),
                odds_lines=odds,
            ),
        )
    if state.phase is Phase.RALLY:
        return tuple(
            offers.command(
                "repair",
                _("Repair %(weapon)s"),
                params={"weapon": w.name},
                args={**args, "weapon": index},
            )
            for index, w in enumerate(model.weapons)
            if w.fault and not w.fault_until
        )
    return ()


def _attack_link(state: MatchState, model: Model, offers: Offers) -> Button | None:
    if state.active != model.unit or model.dead or state.phase not in (Phase.RANGED, Phase.MELEE):
        return None
    label = _("Shoot") if state.phase is Phase.RANGED else _("Fight")
    return offers.wizard(
        "attack", label, choices=attack_choices(state, model), args={"model": model.id}
    )


def _adjust(state: MatchState, model: Model, offers: Offers) -> tuple[Button, ...]:
    if state.stage is not Stage.BATTLE or model.dead:
        return ()
    args = {"model": model.id}
    return (
        offers.command("adjust", _("−1 TP"), args={**args, "change": "tp_lost"}, style="danger"),
        offers.command("adjust", _("+1 TP"), args={**args, "change": "tp_restored"}),
    )


def _patients(state: MatchState, model: Model) -> tuple[tuple[int, str], ...]:
    return tuple(
        (m.id, m.name)
        for m in state.models
        if m.player == model.player and m.alive and (m.stunned or m.tp < m.tp_start)
    )


def _heal(state: MatchState, model: Model, offers: Offers) -> Button | None:
    if state.active != model.unit or state.phase is not Phase.RALLY or "medic" not in model.effects:
        return None
    patients = _patients(state, model)
    patient = patients[0][0] if patients else model.id
    return offers.command("heal", _("Heal"), args={"medic": model.id}, form={"patient": patient})


MOST_LOOT = 12


def _loot(state: MatchState, model: Model, offers: Offers) -> tuple[Button, ...]:
    if state.active != model.unit or state.phase is not Phase.MOVEMENT or model.dead:
        return ()
    pairs = [
        (fallen, index) for fallen in state.models if fallen.dead for index in pickable(fallen)
    ][:MOST_LOOT]
    return tuple(
        offers.command(
            "pick_up",
            _("%(weapon)s from %(fallen)s"),
            params={"weapon": fallen.weapons[index].name, "fallen": fallen.name},
            args={"model": model.id, "fallen": fallen.id, "weapon": index},
        )
        for fallen, index in pairs
    )


def model_view(state: MatchState, model: Model, offers: Offers, *, shown: bool = True) -> ModelView:
    """``shown`` False: the model's unit is hidden from the viewer, so no button is made for it
    (the legal commands would tell which unit stands behind a marker)."""
    return ModelView(
        id=model.id,
        name=model.name,
        leader=model.leader,
        commander=state.players[model.player].commander == model.id,
        tp=model.tp,
        tp_start=model.tp_start,
        lost=model.tp_start - model.tp,
        stunned=model.stunned,
        prone=model.prone,
        dead=model.dead,
        moved=model.moved,
        acted=model.acted,
        pw=model.pw,
        ges=model.ges,
        wik=model.wik,
        b=model.b,
        effects=tuple(EFFECT_LABELS.get(e, e) for e in model.effects),
        weapons=tuple(weapon_view(i, w) for i, w in enumerate(model.weapons)),
        attack=_attack_link(state, model, offers) if shown else None,
        buttons=_model_buttons(state, model, offers) if shown else (),
        adjust=_adjust(state, model, offers) if shown else (),
        burning=model.burning,
        heal=_heal(state, model, offers) if shown else None,
        patients=_patients(state, model) if "medic" in model.effects else (),
        loot=_loot(state, model, offers) if shown else (),
    )


def _unit_buttons(state: MatchState, unit: Unit, offers: Offers) -> tuple[Button, ...]:
    if state.stage is not Stage.BATTLE or unit.out:
        return ()
    args = {"unit": unit.id}
    if state.active is None and unit.player == state.turn_player:
        return (
            offers.command("activate", _("Activate"), args=args, style="primary"),
            offers.command("ready", _("Readiness"), args=args),
        )
    active = state.units[state.active] if state.active is not None else None
    if active is not None and active.player != unit.player and unit.ready:
        return tuple(
            offers.command("blitz", BLITZ_LABELS[t], args={**args, "trigger": t}, style="primary")
            for t in TRIGGERS
        )
    return ()


def _flight_buttons(state: MatchState, unit: Unit, offers: Offers) -> tuple[Button, ...]:
    """A panicking unit's ends on the table (its player says which), and a fallen banner."""
    if state.stage is not Stage.BATTLE or unit.out:
        return ()
    buttons = []
    if unit.panic:
        args = {"player": unit.player, "unit": unit.id}
        buttons += [
            offers.command(
                "remove_unit", _("Fled off the table"), args={**args, "reason": "table_edge"}
            ),
            offers.command(
                "remove_unit",
                _("Cannot flee: surrenders at once"),
                args={**args, "reason": "cannot_flee"},
            ),
        ]
    if any("banner" in (model := state.models[m]).effects and model.dead for m in unit.models):
        buttons.append(
            offers.command("banner_falls", _("The banner falls"), args={"unit": unit.id})
        )
    return tuple(buttons)


def _morale(state: MatchState, unit: Unit, offers: Offers) -> Button | None:
    if state.stage is not Stage.BATTLE or unit.out:
        return None
    # The chance of the test the form sends as it opens (modifier 0), and with +1 (a detached
    # specialist): the players see which modifier a chance is for.
    odds = tuple(
        Text(template, {"chance": chance_text(chance)})
        for template, modifier in (
            (_("Passes with modifier 0: %(chance)s"), 0),
            (_("Passes with modifier +1: %(chance)s"), 1),
        )
        if (chance := panic.pass_chance(state, unit, modifier)) is not None
    )
    modifier = NumberInput("args.modifier:int", _("Modifier"), 0, -panic.MAX_MODIFIER, 5)
    return offers.command(
        "morale_test", _("Morale test"), args={"unit": unit.id}, inputs=(modifier,), odds_lines=odds
    )


def unit_view(state: MatchState, unit: Unit, offers: Offers, viewer: int | None = None) -> UnitView:
    """A unit hidden behind its marker gets its buttons (activate, ready, Blitzaktion, morale,
    its models') only for its owner: for anyone else (a spectator: ``viewer`` None) the
    buttons and their verdicts would tell which unit a marker is."""
    shown = not hidden_from(state, unit.id, viewer)
    marker = state.marker_of(unit.id)
    models = state.unit_models(unit.id)
    r = state.round
    return UnitView(
        id=unit.id,
        player=unit.player,
        name=unit.name,
        colour=PLAYER_COLOURS[unit.player % 2],
        marker=marker.number if marker else None,
        hidden=not unit.revealed and not unit.out,
        out=unit.out,
        active=state.active == unit.id,
        activated=bool(r) and unit.activated_round == r,
        ready=unit.ready,
        blitzed=bool(r) and unit.blitzed_round == r,
        panic=unit.panic,
        khirf=panic.khirf(state, unit),
        living=sum(1 for m in models if m.alive),
        total=len(models),
        models=tuple(model_view(state, m, offers, shown=shown) for m in models),
        buttons=_unit_buttons(state, unit, offers) + _flight_buttons(state, unit, offers)
        if shown
        else (),
        morale=_morale(state, unit, offers) if shown else None,
    )


def marker_views(
    state: MatchState, player: int, offers: Offers, viewer: int | None = None
) -> tuple[MarkerView, ...]:
    views = []
    for marker in state.player_markers(player):
        reveal: tuple[Button, ...] = ()
        if state.stage is Stage.BATTLE and marker.placed and not marker.revealed:
            args = {"player": player, "marker": marker.number}
            reveal = tuple(
                offers.command("reveal_marker", REVEAL_BUTTONS[r], args={**args, "reason": r})
                for r in REVEALS
            )
        secret = viewer != player and not marker.revealed and not marker.removed
        name = state.units[marker.unit].name if marker.unit is not None and not secret else ""
        views.append(
            MarkerView(
                player=player,
                number=marker.number,
                placed=marker.placed,
                revealed=marker.revealed,
                removed=marker.removed,
                unit=name,
                decoy=marker.unit is None and not secret,
                reveal=reveal,
            )
        )
    return tuple(views)


def side_views(
    state: MatchState, offers: Offers, viewer: int | None = None
) -> tuple[SideView, ...]:
    return tuple(
        SideView(
            index=p.index,
            name=p.name,
            colour=PLAYER_COLOURS[p.index % 2],
            vp=p.total_vp,
            edge=p.edge,
            points=p.army_points,
            picking=state.stage is Stage.BATTLE
            and state.active is None
            and state.turn_player == p.index,
            double=state.stage is Stage.BATTLE and double(state, p.index),
            units=tuple(unit_view(state, u, offers, viewer) for u in state.side_units(p.index)),
            markers=marker_views(state, p.index, offers, viewer),
        )
        for p in state.players
    )


def chance(weight: int, total: int) -> str:
    return chance_text(Fraction(weight, total))
