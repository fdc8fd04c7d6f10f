"""The exact odds a button shows before its dice are rolled, from the functions the engine's
rolls use (``match.rolls``): an attack's damage, a push's distance, a morale test."""

from __future__ import annotations

from typing import Final

from apps.systems.core.distributions import chance_text, percent_text
from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import TimelineLine as Text
from apps.systems.grundregeln import odds
from apps.systems.grundregeln.match.rolls import (
    attack_distribution,
    attack_values,
    morale_chance,
)
from apps.systems.grundregeln.match.rules import attack_dice
from apps.systems.grundregeln.match.state import Model
from apps.systems.grundregeln.tables import Action

# The push roll as its buttons show it: one exploding d6, the same whoever is pushed.
PUSH_FAR: Final = 7


def attack_lines(
    attacker: Model, target: Model, action: Action, modifier: int, named: int | None = None
) -> tuple[Text, ...]:
    """The dice an attack rolls against ``target`` and what they do: P(at least 1 LP lost),
    P(eliminated), the LP lost on average."""
    dice = attack_dice(attacker, action, named, modifier)
    hit, damage = attack_values(attacker, target)
    dist = attack_distribution(attacker, target, dice)
    return (
        Text(
            _("%(dice)s dice, hit %(hit)s+, damage %(dmg)s+ vs %(defence)s defence dice"),
            {"dice": dice, "hit": hit, "dmg": damage, "defence": target.defence},
        ),
        Text(
            _("damage %(damage)s · eliminated %(kill)s · expected %(mean)s LP"),
            {
                "damage": percent_text(odds.at_least(dist, 1)),
                "kill": percent_text(odds.at_least(dist, max(target.lp, 1))),
                "mean": f"{float(odds.mean(dist)):.2f}",
            },
        ),
    )


def push_lines() -> tuple[Text, ...]:
    dist = odds.push()
    return (
        Text(
            _('W6" (a 6 explodes): %(mean)s" on average, 7" or more %(p)s'),
            {
                "mean": f"{float(odds.mean(dist)):.2f}",
                "p": chance_text(odds.at_least(dist, PUSH_FAR)),
            },
        ),
    )


def morale_lines(model: Model) -> tuple[Text, ...]:
    return (Text(_("P(passing): %(p)s"), {"p": percent_text(morale_chance(model))}),)
