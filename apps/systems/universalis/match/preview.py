"""The exact odds of a roll before it is made, for the tracker's buttons and attack forms.

Every chance here is computed from the values ``decide`` rolls against (``values``) with the
odds ``decide`` records (``odds``): a previewed chance is the one the roll then has. What the
app cannot know beforehand (a dodge's outcome, who of a melee is hit) is left out. Pure.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from apps.systems.core.distributions import Comparison, chance_text, fraction_text, percent_text
from apps.systems.core.errors import RuleViolation
from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import TimelineLine as Text
from apps.systems.universalis.match.combat import check_target, check_weapon
from apps.systems.universalis.match.odds import (
    Rerolls,
    WoundOdds,
    attribute_odds,
    comparative_odds,
    decided_odds,
    wound_odds,
)
from apps.systems.universalis.match.ranged import armour_cover, check_shot
from apps.systems.universalis.match.state import MatchState, Unit
from apps.systems.universalis.match.values import (
    NO_REROLLS,
    melee_tie_values,
    melee_values,
    shot_base,
    shot_value,
    wound_values,
)


@dataclass(frozen=True)
class ShotOdds:
    value: int  # the FK the shot is rolled against
    hit: Fraction
    wound: WoundOdds  # once hit


@dataclass(frozen=True)
class MeleeOdds:
    values: tuple[int, int]  # NK of attacker and defender
    nk: Comparison  # the NK roll from the attacker's side
    win: Fraction  # the attack wins, ties decided by AGI
    wound: WoundOdds  # once won, hitting with the weapon


def shot_odds(
    state: MatchState,
    shooter: Unit,
    weapon_index: int,
    target: Unit,
    *,
    mode: str = "normal",
    distance: int = 0,
    cover: str = "none",
    touching: bool = False,
    number: int = 0,
    count: int = 1,
    indirect: bool = False,
    friend_sees: bool = False,
    rerolls: Rerolls = NO_REROLLS,
) -> ShotOdds | str:
    """The odds of one target's shot (its ``number`` among the shot's targets, ``count`` shots
    on it, ``cover`` between, ``touching`` it, the owners' ``rerolls``), or the refusal code
    that forbids it: the code the command is refused with."""
    try:
        weapon, penalty = check_shot(
            shooter, weapon_index, target, mode=mode, indirect=indirect, distance=distance
        )
    except RuleViolation as refused:
        return refused.code
    base = shot_base(state, shooter, mode, indirect=indirect, friend_sees=friend_sees)
    value = shot_value(
        base,
        weapon,
        target,
        cover=cover,
        indirect=indirect,
        penalty=penalty,
        number=number,
        count=count,
    )
    hit = wound_values(
        shooter,
        target,
        weapon,
        extra=count - 1,
        cover=armour_cover(cover, touching=touching, indirect=indirect),
        chosen=rerolls,
    )
    return ShotOdds(
        value=value,
        hit=attribute_odds(value),
        wound=wound_odds(hit.wound, hit.armour, hit.rerolls),
    )


def melee_odds(
    state: MatchState,
    attacker: Unit,
    defender: Unit,
    weapon_index: int,
    *,
    friends: int = 0,
    enemy_friends: int = 0,
    charge: bool = False,
    reckless: bool = False,
    attacker_zero: bool = False,
    defender_zero: bool = False,
    rerolls: Rerolls = NO_REROLLS,
) -> MeleeOdds | str:
    """The odds of a melee attack with weapon ``weapon_index`` (-1 unarmed), or the refusal
    code that forbids it: the code the command is refused with."""
    try:
        # The checks of the melee command, in its order.
        weapon = check_weapon(attacker, weapon_index, melee=True)
        check_target(defender, attacker)
    except RuleViolation as refused:
        return refused.code
    values = melee_values(
        state,
        attacker,
        defender,
        friends=friends,
        enemy_friends=enemy_friends,
        charge=charge,
        reckless=reckless,
        attacker_zero=attacker_zero,
        defender_zero=defender_zero,
    )
    nk = comparative_odds(*values)
    hit = wound_values(attacker, defender, weapon, chosen=rerolls)
    return MeleeOdds(
        values=values,
        nk=nk,
        win=nk.win + nk.tie * decided_odds(*melee_tie_values(state, attacker, defender)),
        wound=wound_odds(hit.wound, hit.armour, hit.rerolls),
    )


# --- As lines for the page -----------------------------------------------------------------------


def chance_line(target: int) -> Text:
    """An attribute roll's chance of success."""
    p = attribute_odds(target)
    return Text(_("Success %(p)s"), {"p": chance_text(p)})


def wound_line(odds: WoundOdds) -> Text:
    return Text(
        _("Wound against armour: damage %(damage)s, 1 shock %(shock)s"),
        {"damage": percent_text(odds.damage), "shock": percent_text(odds.shock)},
    )


def shot_lines(odds: ShotOdds) -> tuple[Text, ...]:
    return (
        Text(
            _("Hit %(p)s (%(exact)s, FK %(value)s)"),
            {"p": percent_text(odds.hit), "exact": fraction_text(odds.hit), "value": odds.value},
        ),
        wound_line(odds.wound),
        Text(
            _("Damage in all: %(p)s"),
            {"p": percent_text(odds.hit * odds.wound.damage)},
        ),
    )


def melee_lines(odds: MeleeOdds) -> tuple[Text, ...]:
    return (
        Text(
            _("NK %(a)s against %(d)s: wins %(win)s, tie %(tie)s (AGI decides)"),
            {
                "a": odds.values[0],
                "d": odds.values[1],
                "win": percent_text(odds.nk.win),
                "tie": percent_text(odds.nk.tie),
            },
        ),
        Text(_("The attack wins in all: %(p)s"), {"p": percent_text(odds.win)}),
        wound_line(odds.wound),
    )
