"""The view models of the Stahlgewitter tracker (pure data for the templates). Everything a
seat may not see is still in the view model (the table's legal commands need every button);
``secret`` marks what the templates show only to its owner (``view.viewer``)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from apps.systems.core.buttons import Button
from apps.systems.core.match import TimelineLine as Text

PLAYER_COLOURS = ("red", "blue")


@dataclass(frozen=True)
class PhaseStep:
    key: str
    label: str
    done: bool
    current: bool


@dataclass(frozen=True)
class WeaponView:
    index: int
    name: str
    fkw: int | None
    nkw: int | None
    range_cm: int | None
    burst: int
    fault: bool
    fault_until: int
    tags: tuple[str, ...]  # gettext_noop-marked specials: burst, armour breaker, ...


@dataclass(frozen=True)
class ModelView:
    id: int
    name: str
    leader: bool
    commander: bool
    tp: int
    tp_start: int
    lost: int
    stunned: bool
    prone: bool
    dead: bool
    moved: str
    acted: str
    pw: int
    ges: int
    wik: int
    b: int
    effects: tuple[str, ...]
    weapons: tuple[WeaponView, ...]
    attack: Button | None = None  # the attack wizard link
    buttons: tuple[Button, ...] = ()  # prone / stand / repair / extinguish
    adjust: tuple[Button, ...] = ()
    burning: int = 0
    heal: Button | None = None  # a medic's form; its patient chosen from ``patients``
    patients: tuple[tuple[int, str], ...] = ()
    loot: tuple[Button, ...] = ()  # weapons to pick up from the fallen

    @property
    def boxes(self) -> tuple[bool, ...]:
        """One box per TP: True where the TP is lost."""
        return tuple(index >= self.tp for index in range(self.tp_start))


@dataclass(frozen=True)
class UnitView:
    id: int
    player: int
    name: str
    colour: str
    marker: int | None  # its marker's number (secret while hidden)
    hidden: bool  # still behind its marker
    out: str
    active: bool
    activated: bool
    ready: bool
    blitzed: bool
    panic: bool
    khirf: bool
    living: int
    total: int
    models: tuple[ModelView, ...]
    buttons: tuple[Button, ...] = ()  # activate, ready, blitz
    morale: Button | None = None

    def all_buttons(self) -> Iterator[Button]:
        yield from self.buttons
        if self.morale is not None:
            yield self.morale
        for model in self.models:
            if model.attack is not None:
                yield model.attack
            yield from model.buttons
            if model.heal is not None:
                yield model.heal
            yield from model.loot
            yield from model.adjust


@dataclass(frozen=True)
class MarkerView:
    player: int
    number: int
    placed: bool
    revealed: bool
    removed: bool
    unit: str  # the unit's name: public once revealed, else for its owner only
    decoy: bool  # for its owner only while unrevealed
    reveal: tuple[Button, ...] = ()


@dataclass(frozen=True)
class SideView:
    index: int
    name: str
    colour: str
    vp: int
    edge: str
    points: int
    picking: bool
    double: bool
    units: tuple[UnitView, ...]
    markers: tuple[MarkerView, ...]

    @property
    def shown_units(self) -> tuple[UnitView, ...]:
        return tuple(u for u in self.units if not u.hidden)

    @property
    def hidden_units(self) -> tuple[UnitView, ...]:
        return tuple(u for u in self.units if u.hidden)

    @property
    def hidden_turn(self) -> bool:
        """A hidden unit of this side is the one to act now (activate, readiness, Blitzaktion,
        attack): its owner has to open their secret view for its buttons."""
        return any(
            unit.active or any(b.enabled for b in unit.buttons)
            for unit in self.units
            if unit.hidden
        )


@dataclass(frozen=True)
class SecretStep:
    """A player's secret marker assignment: one button per unit still without a marker, its
    form's marker choice defaulting to the first free one."""

    player: int
    name: str
    done: bool
    buttons: tuple[Button, ...]
    free: tuple[int, ...]  # the marker numbers still free


@dataclass(frozen=True)
class Prompt:
    key: str
    title: Text
    help: tuple[Text, ...] = ()
    buttons: tuple[Button, ...] = ()
    odds: tuple[Text, ...] = ()
    examples: tuple[Button, ...] = ()  # cruel leaders' executions; the victim from ``victims``
    victims: tuple[tuple[int, str], ...] = ()


@dataclass(frozen=True)
class OddsRow:
    """One kind of cover: the column it gives and each letter's chance in % (out of 100)."""

    cover: str  # gettext_noop-marked
    column: int
    value: int
    pw: int
    hit: int
    cells: tuple[int, ...]  # in the order of ``LETTERS``


LETTERS = ("A", "B", "C", "D", "-", "E", "F", "G", "H", "I", "J")


@dataclass(frozen=True)
class TargetGroup:
    unit: str
    buttons: tuple[Button, ...]
    odds: tuple[tuple[OddsRow, ...], ...] = ()  # one table per button

    @property
    def forms(self) -> tuple[tuple[Button, tuple[OddsRow, ...]], ...]:
        return tuple(zip(self.buttons, self.odds, strict=True))


@dataclass(frozen=True)
class AttackWizard:
    """The attack wizard of one model: its weapons (links) and, for the weapon chosen, one form
    per enemy model with the cover, prone, distance, mode and retreat fields."""

    model: ModelView
    melee: bool
    weapon: int
    weapons: tuple[Button, ...]
    targets: tuple[TargetGroup, ...]
    burst: int
    moved: str
    letters: tuple[str, ...] = LETTERS
    # What each letter does in this phase's result table: (letter, English text, printed German).
    legend: tuple[tuple[str, str, str], ...] = ()

    def buttons(self) -> Iterator[Button]:
        yield from self.weapons
        for group in self.targets:
            yield from group.buttons
