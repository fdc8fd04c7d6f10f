"""The view models of the Universalis tracker screen: plain frozen data the templates render.

A form the players fill in (a shot, a panic test) is a ``Button`` made by ``Offers`` with the
form's default values (``inputs`` for its numbers, ``form`` for its selects and check boxes): the
template shows the form with those values and enables its submit button from the engine's
verdict on them. A select's or check box's option is a ``Choice``, with the engine's verdict on
the form sent with that option."""

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
class MoveForm:
    """Normale Bewegung: the centimetres (``button.inputs``, at most the engine's most) and the
    optional movement test with its chance."""

    button: Button
    movement_test: Text

    @property
    def max_move(self) -> int:
        return self.button.inputs[0].maximum

    @property
    def speed(self) -> int:
        return self.button.inputs[0].value


@dataclass(frozen=True)
class ShotForm:
    """A shot: weapon and kind of shot, a target row per model it may fire at (more for
    sustained fire), each with distance, cover and shots; ``button`` sends the defaults."""

    button: Button
    weapons: tuple[Choice, ...]
    targets: tuple[Choice, ...]
    rows: tuple[int, ...]
    weapon: int
    mode: str
    target: int
    distance: int
    shots: int
    preview: tuple[Text, ...] = ()


@dataclass(frozen=True)
class MeleeForm:
    button: Button
    targets: tuple[Choice, ...]
    weapons: tuple[Choice, ...]
    touch_powers: tuple[Option, ...]
    target: int
    weapon: int
    charge: bool
    preview: tuple[Text, ...] = ()


@dataclass(frozen=True)
class RevealForm:
    """Aufklären: the camouflaged enemy, extra AP (``button.inputs``) and supporters."""

    button: Button
    targets: tuple[Choice, ...]
    supporters: tuple[Choice, ...]
    target: int
    preview: tuple[Text, ...] = ()


@dataclass(frozen=True)
class PowerForm:
    """Kraft einsetzen: the power, its target (the model itself by default) and the enemies
    that may try to block it."""

    button: Button
    powers: tuple[Choice, ...]
    targets: tuple[Option, ...]
    blockers: tuple[Choice, ...]
    power: int
    preview: tuple[Text, ...] = ()


@dataclass(frozen=True)
class ObjectForm:
    """Objekt benutzen: the attribute roll (none by default) and its modifier."""

    button: Button
    preview: tuple[Text, ...] = ()


@dataclass(frozen=True)
class ReadinessForm:
    button: Button
    weapons: tuple[Choice, ...]
    weapon: int


@dataclass(frozen=True)
class MemberActions:
    """What one model of the active phase (the model or one of its telematons) can do; a
    panicking one only flees."""

    unit: UnitView
    operator_ap: int | None
    flee: Button | None = None
    move: MoveForm | None = None
    shoot: ShotForm | None = None
    melee: MeleeForm | None = None
    reveal: RevealForm | None = None
    power: PowerForm | None = None
    use_object: ObjectForm | None = None
    readiness: ReadinessForm | None = None
    buttons: tuple[Button, ...] = ()
    # Kraft blockieren (20.5): one button per lasting enemy power in play, with its odds; only
    # for a model the engine lets block powers.
    block_powers: tuple[Button, ...] = ()

    def command_buttons(self) -> Iterator[Button]:
        forms = (self.move, self.shoot, self.melee, self.reveal, self.power)
        yield from (form.button for form in forms if form is not None)
        for other in (self.use_object, self.readiness):
            if other is not None:
                yield other.button
        if self.flee is not None:
            yield self.flee
        yield from self.buttons
        yield from self.block_powers


@dataclass(frozen=True)
class StrikeForm:
    """A counter-attack or an opportunity attack: the weapon and the friends touching the
    enemy (``button.inputs``)."""

    button: Button
    weapons: tuple[Choice, ...]
    weapon: int
    preview: tuple[Text, ...] = ()


@dataclass(frozen=True)
class FireForm:
    """Reaction fire at the enemy that just moved: distance (``distance`` by default) and
    cover."""

    button: Button
    distance: int
    preview: tuple[Text, ...] = ()


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

    def command_buttons(self) -> Iterator[Button]:
        if self.reaction_fire is not None:
            yield self.reaction_fire.button
        if self.strike is not None:
            yield self.strike.button
        if self.camouflage is not None:
            yield self.camouflage
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


@dataclass(frozen=True)
class AreaForm:
    """An area weapon waits for the models its area covers: a row per model."""

    button: Button
    rows: tuple[Choice, ...]


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
