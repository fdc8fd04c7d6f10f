"""Stahlgewitter's d10 tests besides the attack: morale, rally, a cruel leader's example, putting
out flames, the decided fire table and the start roll (stahlgewitter.de.txt, "Moral",
"Sammelphase", "Grausame Anführer", "Flammenschäden", "Spielablauf"; SPEC §4).

Every roll returns the dice as rolled (a 10 stays 10 in ``dice``; where it counts 0 the result
says so), so the engine can log them and a replay shows what the table showed. The reading of
one face is a small pure function, shared with ``odds.py`` so that the odds and the rolls cannot
drift apart.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from apps.systems.core.dice import roll_die
from apps.systems.core.errors import RuleViolation
from apps.systems.stahlgewitter.tables import load


def morale_value(face: int) -> int:
    """ "eine gewürfelte 10 bei einer Moralprobe stets eine Null": the face counted in a morale
    test."""
    morale = load().morale
    return morale.ten_counts if face == morale.die else face


def morale_passes(face: int, wik: int, modifier: int = 0) -> bool:
    """1d10 + WIK + modifier: "Ist das Ergebnis 10 oder höher, so ist die Probe gelungen"."""
    return morale_value(face) + wik + modifier >= load().morale.pass_at


@dataclass(frozen=True)
class MoraleRoll:
    """``dice``: one face, or two when a failed test was rolled again; ``passed`` reads the last."""

    dice: tuple[int, ...]
    passed: bool
    rerolled: bool


def morale_test(
    rng: random.Random, wik: int, modifier: int = 0, *, reroll: bool = False
) -> MoraleRoll:
    """A morale test on ``wik``; ``modifier`` e.g. +1 for a detached specialist
    (``DETACHED_SPECIALIST``), +2 after a massacre (``MASSACRE``). With ``reroll`` (the army
    commander accompanies the unit, or it carries a banner) a failed test is rolled once more."""
    die = load().morale.die
    dice: tuple[int, ...] = (roll_die(rng, die),)
    passed = morale_passes(dice[-1], wik, modifier)
    rerolled = False
    if not passed and reroll and load().morale.rerolls > 0:
        dice += (roll_die(rng, die),)
        passed = morale_passes(dice[-1], wik, modifier)
        rerolled = True
    return MoraleRoll(dice=dice, passed=passed, rerolled=rerolled)


def banner_result(face: int, wik: int) -> str:
    """The WIK test when the banner falls: "Mißlungen = Panik, mißlungen mit 0 = ergibt sich,
    gelungen = sofortiger Zusatzangriff, gelungen mit 9 = sofortiger Zusatzzug" -- "panic",
    "surrender", "extra_attack" or "extra_turn" (the 0 is a rolled 10)."""
    morale = load().morale
    if not morale_passes(face, wik):
        return "surrender" if face == morale.banner_surrender_face else "panic"
    return "extra_turn" if face == morale.banner_extra_turn_face else "extra_attack"


@dataclass(frozen=True)
class BannerRoll:
    dice: tuple[int, ...]
    result: str  # "panic", "surrender", "extra_attack", "extra_turn"


def banner_falls(rng: random.Random, wik: int) -> BannerRoll:
    """The unit's WIK test when its banner falls (no reroll: the banner is gone)."""
    face = roll_die(rng, load().morale.die)
    return BannerRoll(dice=(face,), result=banner_result(face, wik))


def detached_specialist_bonus() -> int:
    """ "Falls abgespaltene Spezialisten eine Moralprobe durchführen müssen, erhalten sie +1"."""
    return load().morale.detached_specialist


def massacre_bonus() -> int:
    """Survivors of a massacred unit's army: "+2 auf ihre Moral" for the rest of the game."""
    return load().morale.massacre


def rally_result(face: int, value: int) -> str:
    """ "rallied", "panic" or "deserted" for a Sammelprobe face on morale value ``value``: "Wird
    dabei maximal der entsprechende Moralwert gewürfelt, so gilt die Einheit als gesammelt";
    "Scheitert die Sammelprobe mit einer 10, so desertieren" (here a 10 is a 10, else no unit
    could ever desert)."""
    if face <= value:
        return "rallied"
    return "deserted" if face == load().morale.rally_deserts_on else "panic"


@dataclass(frozen=True)
class RallyRoll:
    dice: tuple[int, ...]
    rallied: bool
    deserted: bool


def rally_test(rng: random.Random, value: int) -> RallyRoll:
    """A Sammelprobe on the morale value of the highest-ranking leader (or of an ordinary member
    without a leader); only group-strength modifiers would apply, and none are printed."""
    face = roll_die(rng, load().morale.rally_die)
    result = rally_result(face, value)
    return RallyRoll(dice=(face,), rallied=result == "rallied", deserted=result == "deserted")


@dataclass(frozen=True)
class ExecutionRoll:
    """After a cruel leader's example: ``rallied`` on 1-9, else the unit mutinies."""

    dice: tuple[int, ...]
    rallied: bool

    @property
    def mutiny(self) -> bool:
        return not self.rallied


def execution(rng: random.Random) -> ExecutionRoll:
    """ "Bei einem Ergebnis von 1 bis 9 ist die Einheit gesammelt ... Zeigt der Würfel eine 10, so
    meutern die Angehörigen"."""
    morale = load().morale
    face = roll_die(rng, morale.execution_die)
    return ExecutionRoll(dice=(face,), rallied=face < morale.mutiny_from)


def extinguish_bonus(helpers: int) -> int:
    """+1 per comrade in contact who helps and has not fought, at most +3."""
    if helpers < 0:
        raise RuleViolation("helpers_invalid", f"{helpers} is not a number of helpers.")
    rule = load().extinguish
    return min(helpers, rule.max_helpers) * rule.per_helper


@dataclass(frozen=True)
class ExtinguishRoll:
    dice: tuple[int, ...]
    bonus: int
    extinguished: bool


def extinguish(rng: random.Random, helpers: int) -> ExtinguishRoll:
    """ "Hierzu muß mit 1W10 ein Ergebnis von mindestens 6 erzielt werden", +1 per helper (max
    +3)."""
    rule = load().extinguish
    bonus = extinguish_bonus(helpers)
    face = roll_die(rng, rule.die)
    return ExtinguishRoll(dice=(face,), bonus=bonus, extinguished=face + bonus >= rule.target)


@dataclass(frozen=True)
class BurnRoll:
    dice: tuple[int, ...]
    rounds: int


def burn_rounds(rng: random.Random) -> BurnRoll:
    """Flammenwerfer: "Ziel brennt 1W4 Runden"."""
    face = roll_die(rng, load().burn_die)
    return BurnRoll(dice=(face,), rounds=face)


def fire_result(face: int) -> str:
    """The decided fire table (the rulebook announces effect tables but prints none): "out",
    "burns" or "spreads" (to a model in contact)."""
    for band in load().fire:
        if band.low <= face <= band.high:
            return band.result
    raise RuleViolation("fire_face_invalid", f"No fire result for {face}.")


@dataclass(frozen=True)
class FireRoll:
    dice: tuple[int, ...]
    result: str  # "out", "burns", "spreads"


def fire_marker(rng: random.Random) -> FireRoll:
    """Re-roll one burning marker at the start of a round (decided table, see data)."""
    face = roll_die(rng, load().fire_die)
    return FireRoll(dice=(face,), result=fire_result(face))


@dataclass(frozen=True)
class StartRoll:
    """Every pair rolled (first player's die, second player's die), ties included; ``first`` is
    0 or 1, the player who starts."""

    dice: tuple[tuple[int, int], ...]
    bonus: tuple[int, int]
    first: int


def start_roll(rng: random.Random, bonus: tuple[int, int] = (0, 0)) -> StartRoll:
    """ "wirft jeder Spieler 1W10; bei Gleichstand werden die Würfe wiederholt"; the optional rule
    adds the WIK of each side's best leader as ``bonus``. Also serves the other roll-offs
    (deployment, terrain)."""
    die = load().morale.start_die
    pairs: list[tuple[int, int]] = []
    while True:
        pair = (roll_die(rng, die), roll_die(rng, die))
        pairs.append(pair)
        a, b = pair[0] + bonus[0], pair[1] + bonus[1]
        if a != b:
            return StartRoll(dice=tuple(pairs), bonus=bonus, first=0 if a > b else 1)
