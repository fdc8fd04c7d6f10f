"""The special rules printed on cards, read as rules the tracker applies.

Cards name their rules in German ("Limitiert (3)", "Flächenschaden 2\"", "Zäh"); matching is
case-insensitive and ignores spacing, so an organiser's "limitiert(3)" reads the same. Rules the
tracker does not model (Rückstoß, Ziehen, Link, ...) stay text on the card.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from apps.systems.deathmatch.catalog import Ability, EquipmentCard, Weapon

_LIMITED = re.compile(r"^limitiert\s*\(\s*(\d+)\s*\)$")
_AREA = re.compile(r"^fl(ä|ae)chenschaden\s*\(?\s*(\d+)")


def _norm(text: str) -> str:
    return " ".join(text.casefold().split())


@dataclass(frozen=True)
class WeaponRules:
    """What a weapon's special rules mean for an attack."""

    ammo: int | None = None  # Limitiert (X)
    area_inches: int | None = None  # Flächenschaden 2"/3": one hit flip against every model
    spray: bool = False  # Sprühangriff: likewise, every model under the template in sight
    explosive: bool = False  # Explosiv: cover judged from the template's centre (players judge)
    unwieldy: bool = False  # Schwerfällig: 2 AP, not in readiness
    sidearm: bool = False  # Handwaffe: may shoot in melee, at a target in the same melee
    fire: bool = False
    shock: bool = False
    acid: bool = False
    poison: bool = False

    @property
    def several_targets(self) -> bool:
        return self.area_inches is not None or self.spray


def weapon_rules(weapon: Weapon) -> WeaponRules:
    ammo: int | None = None
    area: int | None = None
    flags: set[str] = set()
    for rule in weapon.special_rules:
        text = _norm(rule)
        if match := _LIMITED.match(text):
            ammo = int(match.group(1))
        elif match := _AREA.match(text):
            area = int(match.group(2))
        elif text.startswith(("sprühangriff", "spruehangriff")):
            flags.add("spray")
        elif text.startswith("explosiv"):
            flags.add("explosive")
        elif text.startswith(("schwerfällig", "schwerfaellig")):
            flags.add("unwieldy")
        elif text.startswith("handwaffe"):
            flags.add("sidearm")
        elif text in ("feuer", "schock", "säure", "saeure", "gift"):
            flags.add({"saeure": "säure"}.get(text, text))
    return WeaponRules(
        ammo=ammo,
        area_inches=area,
        spray="spray" in flags,
        explosive="explosive" in flags,
        unwieldy="unwieldy" in flags,
        sidearm="sidearm" in flags,
        fire="feuer" in flags,
        shock="schock" in flags,
        acid="säure" in flags,
        poison="gift" in flags,
    )


class NamedAbility(StrEnum):
    """Abilities the rulebook defines and the tracker applies by name."""

    MECH = "mech"  # ignores respawn shock
    STATIONARY = "stationär"  # Stationär: hit automatically in melee, Reflex 3 against shots
    TOUGH = "zäh"  # Zäh: wound flips against the model are hindered (rulebook's example)
    PRE_EMPTIVE = "präventivschlag"  # Präventivschlag: one free initiative reroll per round
    STEADY_HAND = "ruhige hand"  # Ruhige Hand: ignores the target's in-melee Reflex bonus


def abilities_named(abilities: tuple[Ability, ...]) -> frozenset[NamedAbility]:
    """The rulebook abilities among a card's abilities (by name, before any ": rule text")."""
    names = {_norm(entry.name) for entry in abilities}
    return frozenset(ability for ability in NamedAbility if ability.value in names)


class UsageScope(StrEnum):
    TURN = "turn"
    ACTIVATION = "activation"
    ROUND = "round"
    GAME = "game"


_SCOPES = (
    (("pro aktivierung", "per activation"), UsageScope.ACTIVATION),
    (("pro runde", "per round"), UsageScope.ROUND),
    (("pro spiel", "per game"), UsageScope.GAME),
    (("pro zug", "per turn"), UsageScope.TURN),
)


def usage_scope(card: EquipmentCard) -> UsageScope | None:
    """How often a card's special action may be used, read from its printed usage limit
    ("Einmal pro Aktivierung verwendbar."); the engine adds the rulebook's own limit that a
    0-AP special action is used at most once per turn."""
    text = _norm(card.usage_limit)
    for phrases, scope in _SCOPES:
        if any(phrase in text for phrase in phrases):
            return scope
    return None


def carries_shimmer_blocker(items: tuple[EquipmentCard, ...]) -> bool:
    """The Schimmerfeld gadget cannot be combined with the equipment card Tarnfeld."""
    return any("tarnfeld" in _norm(item.name) for item in items)


# --- Equipment that changes a profile value (SPEC §6) -------------------------------------------

_VALUE_WORDS = (
    (r"reflexwert|reflex", "reflex"),
    (r"widerstandswert|widerstand|resistance", "resistance"),
    (r"lebenspunkte|lebenspunkt|life points?|lp", "lp"),
    (r"bewegungsreichweite|bewegungswert|bewegung|movement|move", "move"),
    (r"fernkampfwert|fk", "ranged"),
    (r"nahkampfwert|nk", "melee"),
)
_WORD = "|".join(f"(?P<w{index}>{words})" for index, (words, _) in enumerate(_VALUE_WORDS))
_AMOUNT = r"(?P<sign>[+\-−–])\s*(?P<amount>\d+)"
# "+1 Widerstand", "+1 Zoll Bewegung", '+1" Bewegung', "-1 auf seinen Reflexwert", and the
# other way round: "Widerstand +1".
_CHANGES = (
    re.compile(
        rf"{_AMOUNT}\s*(?:(?:\"|″|zoll)\s*)?(?:auf\s+(?:seinen|seine|ihren|ihre|den|die|das)\s+)?"
        rf"(?:{_WORD})\b"
    ),
    re.compile(rf"\b(?:{_WORD})\s*(?:um\s+|von\s+)?{_AMOUNT}"),
)
_AGAINST = (
    (re.compile(r"gegen\s+fernkampf|against\s+(?:ranged|shots)"), "ranged"),
    (re.compile(r"gegen\s+nahkampf|im\s+nahkampf|against\s+melee|in\s+melee"), "melee"),
)
# A sentence about other models, a moment or a condition the tracker cannot know is not a
# standing change of the carrier's values: the table enters such effects as a correction.
_NOT_STANDING = re.compile(
    r"\b(ziel\w*|gegner\w*|feind\w*|befreundet\w*|verbündet\w*|andere\w*|wenn|falls|"
    r"solange|sobald|bis|nächste\w*|einmal|pro|runde|aktivierung|zug|target|enemy|enemies|"
    r"friend\w*|other|when|while|until|next|once|per)\b"
)


@dataclass(frozen=True)
class ProfileChange:
    """A standing change an equipment card makes to a profile value (``value`` a name of
    ``state.Modifiers``); ``against`` "ranged" or "melee" when it counts only against such
    attacks (Reflex, Widerstand)."""

    value: str
    amount: int
    against: str = ""


def _sentence_changes(sentence: str) -> tuple[ProfileChange, ...]:
    if _NOT_STANDING.search(sentence):
        return ()
    against = next((kind for pattern, kind in _AGAINST if pattern.search(sentence)), "")
    changes = []
    for pattern in _CHANGES:
        for match in pattern.finditer(sentence):
            index = next(i for i in range(len(_VALUE_WORDS)) if match.group(f"w{i}"))
            value = _VALUE_WORDS[index][1]
            amount = int(match.group("amount")) * (1 if match.group("sign") == "+" else -1)
            condition = against if value in ("reflex", "resistance") else ""
            changes.append(ProfileChange(value, amount, condition))
        if changes:
            break
    return tuple(changes)


@lru_cache(maxsize=4096)
def profile_changes(card: EquipmentCard) -> tuple[ProfileChange, ...]:
    """The profile values a card's text changes for good ("Das Modell erhält +1 Widerstand.",
    "Gegen Fernkampfattacken erhält das Modell +1 Reflex."), read sentence by sentence. Its
    special action's text is what the action does, not a standing change."""
    return tuple(
        change
        for sentence in re.split(r"[.;!\n]", _norm(card.text))
        for change in _sentence_changes(sentence)
    )
