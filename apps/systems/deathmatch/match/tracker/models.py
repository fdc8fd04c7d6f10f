"""The view models of the Deathmatch tracker screen: plain frozen data the templates render."""

from __future__ import annotations

from dataclasses import dataclass

from apps.systems.core.buttons import Button, Field
from apps.systems.core.match import TimelineLine as Text
from apps.systems.deathmatch.match import combat

PLAYER_COLOURS = ("red", "blue", "green", "amber")


@dataclass(frozen=True)
class MarkerView:
    key: str
    label: str
    count: int


@dataclass(frozen=True)
class WeaponLine:
    index: int
    name: str
    symbol: str
    range_inches: int
    combat: str
    bonus: int
    strength: int
    rules: tuple[str, ...]
    ammo: int | None


@dataclass(frozen=True)
class UnitView:
    id: int
    name: str
    profile_name: str
    player: int
    colour: str
    kind: str
    lp: int
    max_lp: int
    ap: int
    reflex: int
    resistance: int
    move: int
    markers: tuple[MarkerView, ...]
    badges: tuple[Text, ...]
    weapons: tuple[WeaponLine, ...]
    abilities: tuple[str, ...]
    items: tuple[str, ...]
    out: bool
    activated: bool
    active: bool
    selected: bool
    can_activate: bool
    readiness: bool
    sample: bool
    marker_counts: tuple[tuple[str, str, int], ...] = ()
    # The standing modifiers for the correction form: (argument, profile word, value).
    modifier_values: tuple[tuple[str, str, int], ...] = ()

    @property
    def lp_percent(self) -> int:
        return round(100 * self.lp / self.max_lp) if self.max_lp else 0


@dataclass(frozen=True)
class PlayerView:
    index: int
    name: str
    faction: str
    colour: str
    vp: int
    cp: int
    deck_remaining: int
    turn: bool
    passed: bool
    eliminated: bool
    finished: bool
    harmony: bool
    gadget: str  # the chosen or flipped gadget option, while setting up
    units: tuple[UnitView, ...]
    vp_rounds: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class CardView:
    position: int
    value: int
    kept: bool
    rerolled: bool
    replaced: int | None
    rerollable: bool  # the engine takes a reroll of this card alone now


@dataclass(frozen=True)
class CriticalOption:
    """One way to spend a flip's 9s against one target, labelled with what it does."""

    auto_hits: int
    label: Text
    checked: bool


@dataclass(frozen=True)
class CriticalChoice:
    """How an area or spray attack's 9s count against one target: automatic hits (the rest
    boost the wound flip), offered from 0 to ``nines``."""

    index: int  # the target's place in the attack
    name: str
    nines: int  # 0: the flip fails against it (or shows no 9)
    default_auto_hits: int
    options: tuple[CriticalOption, ...] = ()


@dataclass(frozen=True)
class FlipView:
    """A flip waiting for its player: reroll cards (1 CP each) or accept. ``accept`` and
    ``reroll`` are the commands as the engine judges them (``reroll`` with the first card
    that may be rerolled)."""

    title: Text
    player: int
    player_name: str
    cards: tuple[CardView, ...]
    result: int
    modifier: int
    outcome_lines: tuple[Text, ...]
    rerolls_left: int
    cp: int
    nines: int
    default_auto_hits: int
    remaining_before_turn: int
    accept: Button
    reroll: Button
    odds: tuple[Text, ...] = ()
    criticals: tuple[CriticalChoice, ...] = ()  # several targets: the 9s target by target
    critical_options: tuple[CriticalOption, ...] = ()  # one target: how to spend its 9s

    @property
    def can_reroll(self) -> bool:
        return self.reroll.enabled


@dataclass(frozen=True)
class TargetPreview:
    """A target the wizard offers with its exact odds; ``button`` is the attack on it alone
    as the engine judges it (disabled with the reason where it refuses)."""

    unit: UnitView
    reflex: int
    attack_value: int
    hit: str
    graze: str
    miss: str
    critical: str
    notes: tuple[str, ...]
    button: Button

    @property
    def enabled(self) -> bool:
        return self.button.enabled

    @property
    def reason(self) -> str:
        return self.button.reason


@dataclass(frozen=True)
class WizardInput:
    """What the attack wizard was asked for (from the page's query string)."""

    kind: str  # ranged, melee, charge, react_ranged, react_melee, disengage
    weapon: int = 0
    reactor: int | None = None
    situation: combat.Situation = combat.Situation()
    in_the_way: frozenset[int] = frozenset()  # models ticked as in the line of fire


@dataclass(frozen=True)
class WeaponChoice:
    """A weapon the wizard offers; ``button`` opens the wizard with it (disabled with the
    engine's reason when it cannot make this attack now)."""

    line: WeaponLine
    button: Button

    @property
    def usable(self) -> bool:
        return self.button.enabled

    @property
    def reason(self) -> str:
        return self.button.reason


@dataclass(frozen=True)
class Wizard:
    kind: str
    attacker: UnitView
    weapons: tuple[WeaponChoice, ...]
    weapon: int
    several: bool
    targets: tuple[TargetPreview, ...]
    situation: combat.Situation
    ranged: bool
    cost: str
    modifier: int
    command: str
    fixed: tuple[Field, ...] = ()
    # Models that may stand in the line of fire (Störende Modelle): every other model in play,
    # friend or foe, but not the shooter or the target; ``in_the_way`` the ticked ones (they
    # are no target then).
    bystanders: tuple[UnitView, ...] = ()
    in_the_way: tuple[int, ...] = ()


@dataclass(frozen=True)
class ObjectiveView:
    id: str
    kind: str
    label: Text
    owner: int | None
    state: str
    carrier: str


@dataclass(frozen=True)
class MapShape:
    """One thing on the arena map with its SVG geometry worked out (inches)."""

    kind: str  # zone, focal_point, switch, flag, king_zone, core
    side: int | None
    x: float
    y: float
    width: float = 0
    height: float = 0
    radius: float = 0
    path: str = ""
    label: str = ""
    label_x: float = 0
    label_y: float = 0


@dataclass(frozen=True)
class Prompt:
    """What the table does now: a heading, a line of help and the buttons for it; ``forms``
    are the commands its forms send, with their default values, as the engine judges them."""

    key: str
    title: Text
    help: Text | None = None
    buttons: tuple[Button, ...] = ()
    player: int | None = None
    forms: tuple[Button, ...] = ()
    # On a turn: one chip per model that may still activate; one tap activates it.
    activations: tuple[Button, ...] = ()


@dataclass(frozen=True)
class ScoreInput:
    focal_points: tuple[str, ...]
    king: str | None
