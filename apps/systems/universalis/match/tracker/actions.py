"""The view models of the running phase's models (the model and its telematons): what each
can do, a form per action with the values its button was judged with (see ``models``)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from apps.systems.core.buttons import Button
from apps.systems.core.match import TimelineLine as Text
from apps.systems.universalis.match.tracker.models import Choice, Option, RerollField, UnitView


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
    rerolls: tuple[RerollField, ...] = ()


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
    rerolls: tuple[RerollField, ...] = ()


@dataclass(frozen=True)
class ChargeForm:
    """The attack of a charge that reached base contact, once the reactions to its move are
    made: the friends touching (``button.inputs``), what it does if it wins, the rerolls."""

    button: Button
    target: str
    touch_powers: tuple[Option, ...]
    preview: tuple[Text, ...] = ()
    rerolls: tuple[RerollField, ...] = ()


@dataclass(frozen=True)
class ThreatForm:
    """The direct-threat EH test, naming the threat: failed, the next action attacks it."""

    button: Button
    threats: tuple[Choice, ...]
    threat: int


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
    charge: ChargeForm | None = None
    threat: ThreatForm | None = None
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
        forms = (
            self.charge,
            self.threat,
            self.move,
            self.shoot,
            self.melee,
            self.reveal,
            self.power,
        )
        yield from (form.button for form in forms if form is not None)
        for other in (self.use_object, self.readiness):
            if other is not None:
                yield other.button
        if self.flee is not None:
            yield self.flee
        yield from self.buttons
        yield from self.block_powers
