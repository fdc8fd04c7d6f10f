"""The view models of the Bunkers and Badasses tracker screen (pure data for the templates)."""

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
class PlayerView:
    index: int
    name: str
    colour: str
    side: str  # gettext_noop-marked side label, "" before the zones are chosen
    cp: int
    vp: int
    active: bool
    scale: str
    army: int  # points or power level, as built
    levels: int  # the board's levels: the split below shows on two
    upper: int
    lower: int
    board: int  # on a board of one level
    reserve: int
    deep_strikes: int
    nowhere: int
    options: tuple[str, ...]  # option names bought so far
    adjust_cp: Button | None = None
    adjust_vp: Button | None = None


@dataclass(frozen=True)
class Prompt:
    key: str
    title: Text
    help: Text | None = None
    buttons: tuple[Button, ...] = ()


@dataclass(frozen=True)
class OptionLine:
    key: str
    name: str
    gloss: str
    cost: int
    timing: str
    once: bool
    target: str  # "door", "unit" or ""
    button: Button


@dataclass(frozen=True)
class OptionsView:
    player: int
    name: str
    colour: str
    lines: tuple[OptionLine, ...]
    doors: tuple[tuple[int, str], ...]  # the doors a door option may be sent with
    units: tuple[tuple[int, str], ...]  # the units Eile ist geboten may be sent with
    active: bool = False  # the player whose turn it is (their options open)

    def buttons(self) -> Iterator[Button]:
        for line in self.lines:
            yield line.button

    @property
    def allowed(self) -> tuple[OptionLine, ...]:
        """The options the player may buy now: shown first."""
        return tuple(line for line in self.lines if line.button.enabled)

    @property
    def refused(self) -> tuple[OptionLine, ...]:
        """The others, each with the engine's reason: folded away on the page."""
        return tuple(line for line in self.lines if not line.button.enabled)


@dataclass(frozen=True)
class DoorView:
    id: int
    name: str
    kind: str
    kind_label: str
    narrow: bool
    state: str
    state_label: str
    wounds: int
    max_wounds: int
    trapped: bool
    buttons: tuple[Button, ...]


@dataclass(frozen=True)
class PieceView:
    id: int
    kind: str
    label: str
    owner: str
    colour: str
    wounds: int
    buttons: tuple[Button, ...]


@dataclass(frozen=True)
class UnitView:
    id: int
    name: str
    colour: str
    models: int
    models_start: int
    wounds: int
    wounds_start: int
    wounds_per_model: int
    place: str
    place_label: str
    destroyed: bool
    below_half: bool
    deep_strike: bool
    carrier: bool
    base: str  # as a player reads it: "32 mm", "120×92 mm oval"
    wide_base: bool  # over 50 mm: no narrow doors
    percent: int
    buttons: tuple[Button, ...]  # deploy, arrive, change level, pick up
    adjust: tuple[Button, ...]  # losses and corrections


@dataclass(frozen=True)
class SideView:
    index: int
    name: str
    colour: str
    units: tuple[UnitView, ...]


@dataclass(frozen=True)
class MarkerView:
    number: int
    revealed: bool
    artifact: bool  # only once revealed
    holder: str
    reveal: Button | None


@dataclass(frozen=True)
class ArtifactView:
    found: bool
    carrier: str
    lying: bool
    hand_over: Button | None
    units: tuple[tuple[int, str], ...]  # who the carrier may hand it to
    drop: Button | None
