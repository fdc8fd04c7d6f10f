"""The view models of the Universalis tracker screen: plain frozen data the templates render.

A form the players fill in (a shot, a panic test) is a ``Button`` made by ``Offers`` with the
form's default values (``inputs`` for its numbers, ``form`` for its selects and check boxes): the
template shows the form with those values and enables its submit button from the engine's
verdict on them. A select's or check box's option is a ``Choice``, with the engine's verdict on
the form sent with that option. The forms of the running phase's models are in ``actions``."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from apps.systems.core.buttons import Button
from apps.systems.core.match import TimelineLine as Text
from apps.systems.universalis.builder import CardView

PLAYER_COLOURS = ("red", "blue")


@dataclass(frozen=True)
class Option:
    """A plain option of a select (the engine has no verdict on it alone)."""

    value: int | str
    label: str


@dataclass(frozen=True)
class Choice:
    """An option of a form's select or check box: ``code``/``reason`` are the engine's refusal of
    the form sent with it (empty: accepted, or not asked because the form itself is refused)."""

    value: int | str
    label: str
    code: str = ""
    reason: str = ""

    @property
    def enabled(self) -> bool:
        return not self.code


@dataclass(frozen=True)
class RerollField:
    """A select of a form asking when the owner of an optional reroll uses it (10.3: "darf"):
    ``name`` is its argument, ``label`` (gettext_noop-marked) the effect; the options are the
    screen's ``reroll_choices``, "no" first."""

    name: str
    label: str


@dataclass(frozen=True)
class UnitView:
    id: int
    name: str
    player: int
    card: CardView
    hp: int
    hp_max: int
    hp_critical: int
    hp_percent: int
    ap: int
    status: tuple[Text, ...]
    zones: tuple[Text, ...]
    in_play: bool
    active: bool
    activated: bool
    selected: bool
    telematon_of: str
    powers: tuple[str, ...]


@dataclass(frozen=True)
class PlayerView:
    index: int
    name: str
    colour: str
    mission: str  # shown to everyone once revealed, to its owner on request
    mission_summary: str
    mission_chosen: bool
    pick: str
    units: tuple[UnitView, ...]
    accomplished: bool
    held_rounds: int


@dataclass(frozen=True)
class RollView:
    label: Text
    dice: tuple[int, ...]
    outcome: str
    odds: str
    target: int | None
    totals: tuple[int, ...]
    tie_odds: str


@dataclass(frozen=True)
class StrikeForm:
    """A counter-attack or an opportunity attack: the weapon and the friends touching the
    enemy (``button.inputs``)."""

    button: Button
    weapons: tuple[Choice, ...]
    weapon: int
    preview: tuple[Text, ...] = ()
    rerolls: tuple[RerollField, ...] = ()


@dataclass(frozen=True)
class FireForm:
    """Reaction fire at the enemy that just moved: distance (``distance`` by default), cover
    and whether it touches the cover."""

    button: Button
    distance: int
    preview: tuple[Text, ...] = ()
    rerolls: tuple[RerollField, ...] = ()


@dataclass(frozen=True)
class Reactions:
    """Reactions and table tools for the selected model when it is not acting."""

    unit: UnitView
    auto_hit: Button
    fall: Button
    correct: Button
    reaction_fire: FireForm | None = None
    strike: StrikeForm | None = None
    camouflage: Button | None = None  # sets the model's camouflage to the other state
    # Base contact with each enemy, as the table says it now is (a melee begins or ends).
    contact: tuple[Button, ...] = ()
    # The optional rerolls of the model's armour against an automatic hit or a fall.
    armour_rerolls: tuple[RerollField, ...] = ()

    def command_buttons(self) -> Iterator[Button]:
        if self.reaction_fire is not None:
            yield self.reaction_fire.button
        if self.strike is not None:
            yield self.strike.button
        if self.camouflage is not None:
            yield self.camouflage
        yield from self.contact
        yield from (self.auto_hit, self.fall, self.correct)


@dataclass(frozen=True)
class PanicTest:
    """A panic test due (a friend fell; ``skip``: it does not perceive it) or a retest at the
    phase's end (``button`` ends the phase with this retest), with its odds for the modifiers
    of its form."""

    unit: UnitView
    button: Button
    preview: tuple[Text, ...]
    skip: Button | None = None


@dataclass(frozen=True)
class BurningTest:
    unit: UnitView
    button: Button  # the number of helpers in ``button.inputs``
    rerolls: tuple[RerollField, ...] = ()


@dataclass(frozen=True)
class AreaForm:
    """An area weapon waits for the models its area covers: a row per model."""

    button: Button
    rows: tuple[Choice, ...]
    rerolls: tuple[RerollField, ...] = ()


@dataclass(frozen=True)
class RoundEnd:
    """The round's end: the missions checked (``declared``: players who may confirm their
    declared mission's condition) and surrender."""

    button: Button
    declared: tuple[Choice, ...]
    surrender: tuple[Button, ...]


@dataclass(frozen=True)
class SecretStep:
    """A player's secret choice still to make (a mission, a pick); ``options`` are shown only
    to that player (the page's ``viewer``)."""

    player: int
    name: str
    kind: str  # mission | pick
    done: bool
    options: tuple[Button, ...] = ()
