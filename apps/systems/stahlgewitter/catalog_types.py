"""The Stahlgewitter catalogue's types: grades, ranks, skills, weapon types, item kinds and the
frozen dataclasses of a profile, an armour, a weapon, a variant, an equipment item and a game
type (SPEC §4, stahlgewitter.de.txt "Armeelisten" to the end). ``catalog_schema`` builds them
from the stored JSON; ``catalog`` derives a model's values and reads a whole catalogue.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

BASE_MOVE_CM: Final = 12  # "alle menschlichen Modelle eine Bewegungsweite (B) von 12 cm"
MIN_MOVE_CM: Final = 1
MAX_VALUE: Final = 99
MAX_POINTS: Final = 9999


class Grade(StrEnum):
    REGULAR = "regular"
    VETERAN = "V"
    ELITE = "E"


# The PW a grade brings without armour (the design's "grade value"): regular 1, V 2, E 3.
GRADE_VALUE: Final[Mapping[Grade, int]] = {Grade.REGULAR: 1, Grade.VETERAN: 2, Grade.ELITE: 3}


class Rank(StrEnum):
    LEADER = "leader"
    SOLDIER = "soldier"


class Skill(StrEnum):
    FANATIKER = "fanatiker"
    GRAUSAM = "grausam"
    PSITER = "psiter"


SKILL_NAMES: Final[Mapping[Skill, str]] = {
    Skill.FANATIKER: "Fanatiker",
    Skill.GRAUSAM: "grausam",
    Skill.PSITER: "Psiter",
}


class WeaponType(StrEnum):
    MELEE = "melee"
    THROW = "throw"
    PISTOL = "pistol"
    RIFLE = "rifle"
    LAUNCHER = "launcher"


# The printed "Art" of a weapon type.
WEAPON_TYPE_NAMES: Final[Mapping[WeaponType, str]] = {
    WeaponType.MELEE: "-",
    WeaponType.THROW: "Wurf",
    WeaponType.PISTOL: "Pistole",
    WeaponType.RIFLE: "Gewehr",
    WeaponType.LAUNCHER: "Werfer",
}


class ItemKind(StrEnum):
    ARMOUR = "armour"
    WEAPON = "weapon"
    VARIANT = "variant"
    EQUIPMENT = "equipment"
    GAME_TYPE = "game_type"


class Effect(StrEnum):
    """What a piece of equipment does in the rules."""

    BANNER = "banner"
    MOTION_SCANNER = "motion_scanner"
    RADIO = "radio"
    MEDIC = "medic"
    MORPHINE = "morphine"
    KHIRF = "khirf"
    SPECIALIST = "specialist"


# --- The dataclasses -------------------------------------------------------------------------


@dataclass(frozen=True)
class Profile:
    """One printed army-list line. ``armour`` is the slug of its standard armour; ``b`` and
    ``pw`` are the printed values (with that armour worn)."""

    slug: str
    name: str
    factions: tuple[str, ...]
    list: str
    type: str
    grade: Grade
    rank: Rank
    rank_order: int
    b: int
    pw: int
    tp: int
    stk: int
    ges: int
    wik: int
    skills: tuple[Skill, ...]
    armour: str
    points: int
    provisional: bool = False
    version: int = 1
    sample: bool = False

    @property
    def leader(self) -> bool:
        return self.rank is Rank.LEADER

    @property
    def fanatic(self) -> bool:
        return Skill.FANATIKER in self.skills

    @property
    def cruel(self) -> bool:
        return Skill.GRAUSAM in self.skills

    @property
    def psiter(self) -> bool:
        return Skill.PSITER in self.skills

    @property
    def grade_label(self) -> str:
        """ "", "V" or "E", as printed after the type."""
        return "" if self.grade is Grade.REGULAR else self.grade.value

    @property
    def skill_names(self) -> tuple[str, ...]:
        return tuple(SKILL_NAMES[s] for s in self.skills)


@dataclass(frozen=True)
class Armour:
    """A line of the Rüstungstabelle: PW and the movement reduction ("B -")."""

    slug: str
    name: str
    pw: int
    b_reduction: int
    cost: int = 0
    provisional: bool = False
    version: int = 1
    sample: bool = False


@dataclass(frozen=True)
class Weapon:
    """A line of the Allgemeine Waffentabelle. ``fkw``/``nkw`` None: "-" (no ranged or no melee
    attack); ``burst`` N for "N Angriffe/Runde" (0: single shots only); ``range_stk_x`` for
    thrown weapons (range = STK × it cm); ``unlimited`` for "unbegrenzt"."""

    slug: str
    name: str
    type: WeaponType
    fkw: int | None
    nkw: int | None
    cost: int = 0
    category: str = ""
    range_cm: int | None = None
    range_stk_x: int | None = None
    unlimited: bool = False
    fkw_decided: bool = False
    move_and_fight: bool = True
    armour_breaker: bool = False
    breaker_note: str = ""
    burst: int = 0
    template_cm: int = 0
    burns_d4: bool = False
    ignores_armour: bool = False
    pw_always_1: bool = False
    row_bonus: int = 0
    stun_from_e: bool = False
    morale_test: bool = False
    secondary_fkw: int | None = None
    one_rifle_shot: bool = False
    no_burst_range_penalty: bool = False
    special: str = ""
    special_en: str = ""
    provisional: bool = False
    version: int = 1
    sample: bool = False

    @property
    def ranged(self) -> bool:
        return self.fkw is not None

    @property
    def melee(self) -> bool:
        return self.nkw is not None

    @property
    def launcher(self) -> bool:
        return self.type is WeaponType.LAUNCHER

    def range_for(self, stk: int) -> int | None:
        """The range in cm for a bearer with ``stk``; None: unlimited or no ranged attack."""
        if self.range_stk_x is not None:
            return stk * self.range_stk_x
        return self.range_cm

    def burst_range_for(self, stk: int) -> int | None:
        """A burst's range: half the range ("Hälfte der normalen Reichweite"), the full range
        without the burst range penalty (footnote 4)."""
        full = self.range_for(stk)
        if full is None or self.no_burst_range_penalty:
            return full
        return full // 2

    def range_label(self) -> str:
        """The printed "Art / Reichweite" ("Gewehr 80 cm", "Wurf STK x 10 cm", "-")."""
        if self.type is WeaponType.MELEE:
            return "-"
        if self.range_stk_x is not None:
            return f"Wurf STK x {self.range_stk_x} cm"
        distance = "unbegrenzt" if self.unlimited else f"{self.range_cm} cm"
        return f"{WEAPON_TYPE_NAMES[self.type]} {distance}"


@dataclass(frozen=True)
class Variant:
    """Energie-/Vibro-Varianten: a melee weapon upgrade (+NKW, maybe an armour breaker)."""

    slug: str
    name: str
    nkw_bonus: int
    cost: int = 0
    armour_breaker: bool = False
    breaker_note: str = ""
    breaker_note_en: str = ""
    provisional: bool = False
    version: int = 1
    sample: bool = False


@dataclass(frozen=True)
class Equipment:
    slug: str
    name: str
    effect: Effect
    cost: int = 0
    text: str = ""
    text_en: str = ""
    provisional: bool = False
    version: int = 1
    sample: bool = False


@dataclass(frozen=True)
class GameType:
    """Scharmützel, Gefecht, Schlacht: a range of army points; never bought."""

    slug: str
    name: str
    min_points: int
    max_points: int
    hours: str = ""
    provisional: bool = False
    version: int = 1
    sample: bool = False


Item = Armour | Weapon | Variant | Equipment | GameType
