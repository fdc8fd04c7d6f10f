"""Deathmatch flips waiting for their player's decision on the tracker: an attack's hit or
wound flip, a disengage strike, an initiative reroll, a free flip. The cards, what they mean,
the odds they had, and the decision (reroll cards for 1 ◆ each, or accept) as the engine
judges it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from apps.systems.core.buttons import Offers
from apps.systems.core.deck import Flip
from apps.systems.core.distributions import percent_text
from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import TimelineLine as Text
from apps.systems.deathmatch.match import combat
from apps.systems.deathmatch.match.state import (
    MAX_REROLLS_PER_FLIP,
    Attack,
    FlipPurpose,
    MatchState,
    Outcome,
    Target,
)
from apps.systems.deathmatch.match.timeline import OUTCOMES
from apps.systems.deathmatch.match.tracker.models import (
    CardView,
    CriticalChoice,
    CriticalOption,
    FlipView,
)


def _cards(flip: Flip, rerollable: tuple[bool, ...]) -> tuple[CardView, ...]:
    kept_index = next(i for i, c in enumerate(flip.cards) if c.value == flip.result)
    return tuple(
        CardView(
            position=i,
            value=c.value,
            kept=i == kept_index,
            rerolled=c.rerolled,
            replaced=c.replaced,
            rerollable=rerollable[i],
        )
        for i, c in enumerate(flip.cards)
    )


def make_flip(
    state: MatchState,
    offers: Offers,
    title: Text,
    player: int,
    flip: Flip,
    rerolls_used: int,
    lines: tuple[Text, ...],
    *,
    decision: Mapping[str, Any] | None = None,
    odds: tuple[Text, ...] = (),
    criticals: tuple[CriticalChoice, ...] = (),
) -> FlipView:
    """The flip with the engine's verdict on accepting it and on rerolling each card alone;
    ``decision`` holds the arguments the decision form sends with either (the 9s' use)."""
    owner = state.player(player)
    seat = {"player": player}
    sent = {**seat, **(decision or {})}
    rerollable = tuple(
        offers.refusal("reroll", {**sent, "positions": [i]}) is None for i in range(len(flip.cards))
    )
    first = next((i for i, ok in enumerate(rerollable) if ok), 0)
    nines = max((choice.nines for choice in criticals), default=0)
    return FlipView(
        title=title,
        player=player,
        player_name=owner.name,
        cards=_cards(flip, rerollable),
        result=flip.result,
        modifier=flip.modifier,
        outcome_lines=lines,
        rerolls_left=min(MAX_REROLLS_PER_FLIP - rerolls_used, owner.cp),
        cp=owner.cp,
        nines=nines,
        default_auto_hits=max((choice.default_auto_hits for choice in criticals), default=0),
        remaining_before_turn=owner.deck.remaining_before_turn,
        accept=offers.command("accept", _("Accept"), args=seat, form=decision),
        reroll=offers.command(
            "reroll",
            _("Reroll the ticked cards"),
            args=seat,
            form={**(decision or {}), "positions": [first]},
        ),
        odds=odds,
        criticals=criticals if len(criticals) > 1 and nines else (),
        critical_options=criticals[0].options if len(criticals) == 1 and nines else (),
    )


def _critical_options(outcome: Outcome, nines: int) -> tuple[CriticalOption, ...]:
    """Every split of ``nines`` between automatic hits and wound boosts, each labelled with
    its effect (``combat.critical_split``, the rule the engine applies)."""
    default, _boost = combat.critical_split(outcome, nines, None)
    options = []
    for wanted in range(nines + 1):
        auto, boost = combat.critical_split(outcome, nines, wanted)
        final = combat.with_criticals(outcome, auto)
        params: dict[str, str | int] = {"auto": auto, "outcome": OUTCOMES[final.value]}
        if final in (Outcome.HIT, Outcome.GRAZE):
            label = _("%(auto)s as automatic hit: %(outcome)s, %(boosts)s ⬠ on the wound flip")
            params["boosts"] = boost
        else:
            label = _("%(auto)s as automatic hit: %(outcome)s")
        options.append(CriticalOption(auto, Text(label, params, ("outcome",)), auto == default))
    return tuple(options)


def _hit_line(state: MatchState, flip: Flip, target: Target, outcome: Outcome) -> Text:
    return Text(
        _("%(target)s: %(card)s + %(value)s vs Reflex %(reflex)s → %(outcome)s"),
        {
            "target": state.unit(target.unit).name,
            "card": flip.result,
            "value": target.attack_value,
            "reflex": target.reflex,
            "outcome": OUTCOMES[outcome.value],
        },
        ("outcome",),
    )


def _hit_odds(state: MatchState, target: Target) -> tuple[Text, ...]:
    if not target.hit_odds:
        return ()
    return (
        Text(
            _("%(target)s: the chance of a hit was %(percent)s."),
            {"target": state.unit(target.unit).name, "percent": percent_text(target.hit_odds)},
        ),
    )


def _decision(criticals: list[CriticalChoice]) -> dict[str, Any]:
    """What the decision form sends by default about the 9s: per target, or for the one."""
    if len(criticals) > 1 and any(choice.nines for choice in criticals):
        return {"critical_auto_hits_per_target": [c.default_auto_hits for c in criticals]}
    if len(criticals) == 1 and criticals[0].nines:
        return {"critical_auto_hits": criticals[0].default_auto_hits}
    return {}


def _hit_flip(state: MatchState, attack: Attack, flip: Flip, offers: Offers) -> FlipView:
    lines: list[Text] = []
    odds: list[Text] = []
    criticals: list[CriticalChoice] = []
    for index, target in enumerate(attack.targets):
        outcome = combat.hit_outcome(flip, target.attack_value, target.reflex)
        nines = 0 if outcome is Outcome.FAIL else flip.nines
        auto, _boost = combat.critical_split(outcome, nines, None)
        name = state.unit(target.unit).name
        criticals.append(
            CriticalChoice(index, name, nines, auto, _critical_options(outcome, nines))
        )
        lines.append(_hit_line(state, flip, target, combat.with_criticals(outcome, auto)))
        odds += _hit_odds(state, target)
    attacker = state.unit(attack.attacker).name if attack.attacker is not None else ""
    title = Text(
        _("%(attacker)s: hit flip with %(weapon)s"),
        {"attacker": attacker, "weapon": attack.weapon.name if attack.weapon else ""},
    )
    return make_flip(
        state,
        offers,
        title,
        attack.player,
        flip,
        attack.hit_rerolls,
        tuple(lines),
        decision=_decision(criticals),
        odds=tuple(odds),
        criticals=tuple(criticals),
    )


def _wound_flip(state: MatchState, attack: Attack, offers: Offers) -> FlipView | None:
    target = attack.targets[attack.current]
    wound = target.wound_flip
    if wound is None:
        return None
    victim = state.unit(target.redirected_to if target.redirected_to is not None else target.unit)
    damage = combat.damage(wound.result, target.strength, target.resistance)
    line = Text(
        _(
            "%(card)s + S %(strength)s − Resistance %(resistance)s = %(damage)s damage: "
            "%(unit)s %(lp)s → %(after)s LP"
        ),
        {
            "card": wound.result,
            "strength": target.strength,
            "resistance": target.resistance,
            "damage": damage,
            "unit": victim.name,
            "lp": victim.lp,
            "after": max(0, victim.lp - damage),
        },
    )
    if attack.attacker is None:
        title = Text(_("Automatic hit on %(unit)s: wound flip"), {"unit": victim.name})
    else:
        title = Text(
            _("%(attacker)s: wound flip against %(unit)s"),
            {"attacker": state.unit(attack.attacker).name, "unit": victim.name},
        )
    chance: tuple[Text, ...] = ()
    if target.knock_out_odds:
        chance = (
            Text(
                _("The chance of a knock-out was %(percent)s."),
                {"percent": percent_text(target.knock_out_odds)},
            ),
        )
    return make_flip(
        state, offers, title, attack.player, wound, target.wound_rerolls, (line,), odds=chance
    )


def _attack_flip(state: MatchState, attack: Attack, offers: Offers) -> FlipView | None:
    if attack.stage is FlipPurpose.HIT and attack.hit_flip is not None:
        return _hit_flip(state, attack, attack.hit_flip, offers)
    if attack.stage is FlipPurpose.WOUND and 0 <= attack.current < len(attack.targets):
        return _wound_flip(state, attack, offers)
    return None


def _disengage_flip(state: MatchState, offers: Offers) -> FlipView | None:
    d = state.disengage
    assert d is not None
    flip = d.flips[d.current]
    if flip is None:
        return None
    strike = d.strikes[d.current]
    striker = state.unit(strike.unit)
    hits = flip.result != 0 and (
        flip.nines > 0 or flip.result + strike.attack_value >= strike.reflex
    )
    line = Text(
        _("%(card)s + %(value)s vs Reflex %(reflex)s → %(outcome)s"),
        {
            "card": flip.result,
            "value": strike.attack_value,
            "reflex": strike.reflex,
            "outcome": _("hit: the move stops") if hits else _("miss: the move goes on"),
        },
        ("outcome",),
    )
    title = Text(
        _("%(striker)s strikes at %(unit)s as it disengages"),
        {"striker": striker.name, "unit": state.unit(d.unit).name},
    )
    return make_flip(state, offers, title, striker.player, flip, d.rerolls[d.current], (line,))


def _initiative_flip(state: MatchState, offers: Offers) -> FlipView:
    pending = state.pending
    assert pending is not None
    player = pending.deciders[0]
    slot = pending.players.index(player)
    flip = pending.flips[slot]
    assert flip is not None
    others = tuple(
        Text(
            _("%(player)s: %(card)s"),
            {"player": state.player(p).name, "card": f.result if f else "-"},
        )
        for p, f in zip(pending.players, pending.flips, strict=True)
    )
    title = Text(
        _("Initiative: %(player)s may reroll (1 ◆, loser decides first)"),
        {"player": state.player(player).name},
    )
    return make_flip(state, offers, title, player, flip, pending.rerolls[slot], others)


def flip_view(state: MatchState, offers: Offers) -> FlipView | None:
    if state.attack is not None:
        return _attack_flip(state, state.attack, offers)
    if state.disengage is not None:
        return _disengage_flip(state, offers)
    if state.pending is not None and state.pending.deciders:
        return _initiative_flip(state, offers)
    return None


def free_flip_view(state: MatchState, offers: Offers) -> FlipView | None:
    if state.open_free_flip is None or state.free_flip is None:
        return None
    player = state.player(state.open_free_flip)
    odds: tuple[Text, ...] = ()
    if state.free_flip_chance:
        odds = (
            Text(
                _("The chance of %(result)s or more was %(percent)s."),
                {"result": state.free_flip.result, "percent": percent_text(state.free_flip_chance)},
            ),
        )
    title = Text(
        _("Free flip from %(player)s's deck: %(result)s"),
        {"player": player.name, "result": state.free_flip.result},
    )
    return make_flip(
        state, offers, title, player.index, state.free_flip, state.free_flip_rerolls, (), odds=odds
    )
