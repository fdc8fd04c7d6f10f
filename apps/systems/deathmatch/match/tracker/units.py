"""The teams on the Deathmatch tracker: every model with its values, markers and badges, and
the players with their scores."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from apps.systems.core.buttons import Offers
from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import TimelineLine as Text
from apps.systems.deathmatch.catalog import Weapon
from apps.systems.deathmatch.match import combat, values
from apps.systems.deathmatch.match.state import (
    MODIFIER_NAMES,
    Marker,
    MatchState,
    Phase,
    Unit,
    UnitKind,
)
from apps.systems.deathmatch.match.timeline import GADGET_NAMES, MARKERS, MODIFIER_WORDS
from apps.systems.deathmatch.match.tracker.models import (
    PLAYER_COLOURS,
    MarkerView,
    PlayerView,
    UnitView,
    WeaponLine,
)
from apps.systems.deathmatch.match.units import unit_weapons

MARKER_KEYS: Final = ("fire", "shock", "acid", "poison")

Badge = Callable[[Unit], tuple[Text, ...]]


def _when(holds: Callable[[Unit], bool], label: str) -> Badge:
    return lambda unit: (Text(label),) if holds(unit) else ()


_AGAINST_TEMPLATES: Final = {
    values.RANGED: _("%(card)s: %(change)s against ranged attacks"),
    values.MELEE: _("%(card)s: %(change)s against melee attacks"),
}


def _equipment_badges(unit: Unit) -> tuple[Text, ...]:
    """The equipment changes that count against one kind of attack only: the values shown
    leave them out, so a badge names them."""
    return tuple(
        Text(
            _AGAINST_TEMPLATES[change.against],
            {"card": card, "change": f"{change.amount:+d} {MODIFIER_WORDS[change.value]}"},
        )
        for card, change in values.conditional_changes(unit)
    )


# The correction form's labels: the rulebook's terms, glossed in English (German drops the gloss).
MODIFIER_LABELS: Final = {
    "reflex": _("Reflex"),
    "resistance": _("Widerstand (resistance)"),
    "lp": _("LP"),
    "move": _("Bewegung (movement, inches)"),
    "ranged": _("FK (ranged)"),
    "melee": _("NK (melee)"),
}


def _modifier_text(unit: Unit) -> str:
    return ", ".join(
        f"{MODIFIER_WORDS[name]} {unit.modifiers.get(name):+d}"
        for name in MODIFIER_NAMES
        if unit.modifiers.get(name)
    )


# A model's roles and standing conditions, in the order its badges show them.
_BADGES: Final[tuple[Badge, ...]] = (
    _when(lambda u: u.kind is UnitKind.DRONE, _("A-18 drone")),
    _when(lambda u: u.kind is UnitKind.DEFENCE, _("Defence system")),
    _when(lambda u: u.kind is UnitKind.CORE, _("Energy core (Energiekern)")),
    _when(lambda u: u.vip, _("VIP")),
    _when(lambda u: u.king, _("King")),
    lambda u: tuple(Text(_("Carries %(flag)s"), {"flag": flag}) for flag in u.flags),
    _when(lambda u: u.readiness, _("Bereitschaft (readiness)")),
    lambda u: (
        (Text(_("Ausweichen +%(bonus)s Reflex"), {"bonus": 2 * u.dodges}),) if u.dodges else ()
    ),
    _when(lambda u: u.aim, _("Zielen (aimed)")),
    _when(lambda u: u.power_strike, _("Wuchtschlag (power strike)")),
    _when(lambda u: u.respawn_shock, _("Respawn-Schock")),
    _when(
        lambda u: not u.respawn_shock and bool(u.respawns) and u.profile.mech,
        _("Respawned (Mech: no shock)"),
    ),
    _equipment_badges,
    lambda u: (
        (Text(_("Correction: %(changes)s"), {"changes": _modifier_text(u)}),)
        if u.modifiers.any
        else ()
    ),
    lambda u: (Text(_("Energieschild ×%(n)s"), {"n": u.shields}),) if u.shields else (),
    _when(lambda u: u.penetration, _("Durchschlag (+2 S)")),
    _when(lambda u: u.shimmer, _("Schimmer (+3 Reflex vs. shots)")),
    _when(lambda u: u.erloeser, _("Erlöser shot")),
    _when(lambda u: u.order_allowed, _("Respawned: Befehl possible")),
)


def weapon_line(unit: Unit, index: int, weapon: Weapon) -> WeaponLine:
    own = index < len(unit.weapons)
    value = combat.attack_value(unit, index).value if own else weapon.combat_value
    return WeaponLine(
        index=index,
        name=weapon.name,
        symbol=weapon.symbol,
        range_inches=weapon.range_inches,
        combat=f"{weapon.combat_label} {value}",
        bonus=weapon.bonus_cards,
        strength=weapon.strength,
        rules=weapon.special_rules,
        ammo=unit.ammo[index] if index < len(unit.ammo) else None,
    )


def badges(unit: Unit) -> tuple[Text, ...]:
    return tuple(text for badge in _BADGES for text in badge(unit))


def unit_view(state: MatchState, unit: Unit, selected: int | None, offers: Offers) -> UnitView:
    return UnitView(
        id=unit.id,
        name=unit.name,
        profile_name=unit.profile.name,
        player=unit.player,
        colour=PLAYER_COLOURS[unit.player % len(PLAYER_COLOURS)],
        kind=unit.kind.value,
        lp=unit.lp,
        max_lp=unit.max_lp,
        ap=unit.ap,
        reflex=combat.standing_reflex(unit),
        resistance=combat.standing_resistance(unit),
        move=values.move_inches(unit),
        markers=tuple(
            MarkerView(key, MARKERS[key], count)
            for key in MARKER_KEYS
            if (count := unit.markers.count(Marker(key)))
        ),
        badges=badges(unit),
        weapons=tuple(weapon_line(unit, i, w) for i, w in enumerate(unit_weapons(unit))),
        abilities=tuple(a.name for a in unit.profile.abilities),
        items=tuple(item.name for item in unit.items),
        out=unit.out,
        activated=unit.activated,
        active=state.active == unit.id,
        selected=selected == unit.id,
        can_activate=may_activate(state, unit, offers),
        readiness=unit.readiness,
        sample=unit.profile.sample,
        marker_counts=tuple(
            (key, MARKERS[key], unit.markers.count(Marker(key))) for key in MARKER_KEYS
        ),
        modifier_values=tuple(
            (f"mod_{name}", MODIFIER_LABELS[name], unit.modifiers.get(name))
            for name in MODIFIER_NAMES
        ),
    )


def may_activate(state: MatchState, unit: Unit, offers: Offers) -> bool:
    """Whether the engine would activate the model now (asked only of the models whose turn
    it is: the others' answer is plainly no)."""
    if state.turn != unit.player or not unit.in_play or unit.activated:
        return False
    return offers.refusal("activate", {"unit": unit.id}) is None


def player_views(state: MatchState, selected: int | None, offers: Offers) -> tuple[PlayerView, ...]:
    views = []
    in_rounds = state.phase in (Phase.ACTIVATION, Phase.DRONES)
    for player in state.players:
        rounds: dict[int, int] = {}
        for entry in player.vp:
            rounds[entry.round] = rounds.get(entry.round, 0) + entry.points
        views.append(
            PlayerView(
                index=player.index,
                name=player.name,
                faction=player.faction,
                colour=PLAYER_COLOURS[player.index % len(PLAYER_COLOURS)],
                vp=player.total_vp,
                cp=player.cp,
                deck_remaining=player.deck.remaining_before_turn,
                turn=state.turn == player.index and in_rounds,
                passed=player.passed,
                eliminated=player.eliminated,
                finished=player.finished_round == state.round and state.round > 0,
                harmony=player.harmony,
                gadget=GADGET_NAMES[player.gadget] if player.gadget is not None else "",
                units=tuple(
                    unit_view(state, u, selected, offers)
                    for u in state.units
                    if u.player == player.index
                ),
                vp_rounds=tuple(sorted(rounds.items())),
            )
        )
    return tuple(views)
