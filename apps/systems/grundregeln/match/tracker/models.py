"""The view models of the Grundregeln tracker screen: plain frozen data the templates render.
Every command ``Button`` in them was made by ``Offers``: enabled, or disabled with the
engine's refusal."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from apps.systems.core.buttons import Button
from apps.systems.core.match import TimelineLine as Text
from apps.systems.grundregeln.match.rules import MAX_ATTACK_DICE

PLAYER_COLOURS: Final = ("red", "blue")
NPC_COLOUR: Final = "amber"


@dataclass(frozen=True)
class WeaponLine:
    index: int
    name: str
    melee: bool
    attack_dice: int
    range_inches: int
    reload: str
    ready: bool
    loaded: bool


@dataclass(frozen=True)
class ModelView:
    id: int
    name: str
    profile: str
    side: int | None
    colour: str
    size: str
    move: int
    morale: int
    morale_dice: int
    lp: int
    max_lp: int
    defence: int
    weapons: tuple[WeaponLine, ...]
    chips: tuple[Text, ...]
    abilities: tuple[str, ...]
    items: tuple[str, ...]
    npc: str
    out: bool
    activated: bool
    fleeing: bool
    selected: bool
    can_act: bool  # the engine lets it act now (an action, or its morale test)
    sample: bool
    reroll_ones: tuple[str, ...]

    @property
    def lp_percent(self) -> int:
        return round(100 * self.lp / self.max_lp) if self.max_lp else 0


@dataclass(frozen=True)
class SideView:
    index: int | None  # None: the scenario's NPCs
    name: str
    colour: str
    vp: int
    left: int
    total: int
    turn: bool
    starter: bool
    models: tuple[ModelView, ...]


@dataclass(frozen=True)
class DieView:
    value: int
    success: bool | None  # None: a roll that adds up
    extra: bool
    rerolled: bool
    cancelled: bool


@dataclass(frozen=True)
class RollView:
    title: Text
    dice: tuple[DieView, ...]
    result: Text
    odds: tuple[Text, ...]


@dataclass(frozen=True)
class Prompt:
    """What the table does now: a heading, a line of help and the buttons for it; ``score`` is
    the scoring form with nobody holding an objective, as the engine judges it."""

    key: str
    title: Text
    help: Text | None = None
    buttons: tuple[Button, ...] = ()
    score: Button | None = None


@dataclass(frozen=True)
class ButtonGroup:
    title: str
    buttons: tuple[Button, ...]


@dataclass(frozen=True)
class Selection:
    """The selected model with what it may do now (``groups``) and its corrections by hand:
    ``adjust`` (its LP and flight as they stand) and ``fall`` (one inch)."""

    model: ModelView
    title: Text
    groups: tuple[ButtonGroup, ...] = ()
    adjust: Button | None = None
    fall: Button | None = None

    def buttons(self) -> Iterator[Button]:
        for group in self.groups:
            yield from group.buttons
        for correction in (self.adjust, self.fall):
            if correction is not None:
                yield correction


@dataclass(frozen=True)
class TargetChoice:
    model: ModelView
    button: Button  # the declaration aimed at it, with the odds while the engine accepts it


@dataclass(frozen=True)
class Wizard:
    """The target choice of an action with a target: one button per model it may be aimed at
    (as the engine judges each), the attack dice modifier and, for a model without a melee
    weapon on its card, the attack dice the table names."""

    action: str
    label: str
    attacker: ModelView
    modifier: int
    modifiers: tuple[tuple[int, str, bool], ...]  # value, query, chosen
    attack: bool
    targets: tuple[TargetChoice, ...]
    dice: int | None = None
    max_dice: int = MAX_ATTACK_DICE
    reaction: bool = False  # the target of a reaction to the declared action


@dataclass(frozen=True)
class DeclaredView:
    unit: str
    colour: str
    action: str
    target: str
    resolved: bool
    possible: bool
    move_up: Button | None = None


@dataclass(frozen=True)
class PendingView:
    actor: DeclaredView
    reactions: tuple[DeclaredView, ...]
    closed: bool
    next_label: Text
    resolve: Button
    lapse: Button
    reactors: tuple[ModelView, ...]  # the models the engine lets react now
    reacting_names: str
    redirects: tuple[Button, ...] = ()  # a melee attack resolved against another model

    def buttons(self) -> Iterator[Button]:
        yield from (self.resolve, self.lapse, *self.redirects)
        for reaction in self.reactions:
            if reaction.move_up is not None:
                yield reaction.move_up


@dataclass(frozen=True)
class ScenarioView:
    name: str
    summary: str
    victory: str
    rounds: int
    starter: str  # gettext_noop-marked: who begins each round
    objectives: tuple[str, ...]
    vp_kill: int
    vp_npc: int
    vp_objective: int
    sample: bool
    npcs: tuple[tuple[str, str, int], ...]  # name, behaviour, count
    summary_en: str = ""  # the English version of ``summary`` (the German original)
