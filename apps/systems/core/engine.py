"""The one skeleton every match engine is built on (DESIGN: commands → events → state).

A system's engine subclasses ``RuleEngine`` and brings its rules; the plumbing exists once:

- **Commands**: each command type has one handler, registered in the engine's
  ``CommandHandlers`` with ``@handlers.command("type")`` and described by a ``CommandSpec``.
  ``decide`` looks the handler up, runs it on a ``Decision`` and returns the events.
- **Events**: ``Event(type, data)``; the engine's ``EventAppliers`` hold one pure function per
  event type (or a fallback for a system whose events all apply alike). ``Decision.emit``
  applies every event as it is emitted, so a handler always sees what it caused so far.
- **Legality**: ``check`` decides a command on the side (a *probe*) and reports the refusal, so
  a tracker screen asks the very rules the command will meet (``Legality``); a view never
  re-derives a rule.
- **Versions**: every stored event and snapshot carries the ``schema_version`` it was written
  in; ``upgrade_event``/``upgrade_state`` bring an old payload forward one version at a time,
  so a match stored years ago replays the same way.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from apps.systems.core.buttons import Offers
from apps.systems.core.errors import RuleViolation
from apps.systems.core.legality import Legality, Option, Refusal
from apps.systems.core.match import Args, Command, CommandHandlers, CommandSpec, Event
from apps.systems.core.schema import FieldSpec
from apps.systems.core.summary import Summary

StateT = TypeVar("StateT")
ContextT = TypeVar("ContextT", bound="Decision[Any]")

Applier = Callable[[StateT, Mapping[str, Any]], StateT]
EventUpgrade = Callable[[Event], Event]
StateUpgrade = Callable[[dict[str, Any]], dict[str, Any]]

# Enough screens for every model selected and every wizard opened in a big multiplayer match.
MOST_SCREENS = 120
# The seed of the throwaway dice a probe decides with: any fixed value would do, the events
# of a probe are never kept.
PROBE_SEED = 0


class EventAppliers(dict[str, Callable[[StateT, Mapping[str, Any]], StateT]]):
    """An engine's ``apply`` functions by event type, registered with ``@appliers.event(...)``.
    ``fallback`` applies every event type without one of its own (Universalis: every event is
    a patch of the fields it changed)."""

    def __init__(self, fallback: Applier[StateT] | None = None) -> None:
        super().__init__()
        self.fallback = fallback

    def event(self, name: str) -> Callable[[Applier[StateT]], Applier[StateT]]:
        def register(applier: Applier[StateT]) -> Applier[StateT]:
            if name in self:
                raise ValueError(f"event {name!r} has two appliers")
            self[name] = applier
            return applier

        return register

    def apply(self, state: StateT, event: Event) -> StateT:
        applier = self.get(event.type, self.fallback)
        if applier is None:
            raise ValueError(f"no applier for the event {event.type!r}")
        return applier(state, event.data)


class Decision(Generic[StateT]):
    """A command being decided: the working state and the events emitted so far.

    ``probe`` is true when the decision only asks whether the command is legal (its events are
    thrown away): work that only describes an outcome, such as exact odds written into an
    event, may be skipped then. Legality must never depend on it."""

    def __init__(
        self,
        apply: Callable[[StateT, Event], StateT],
        state: StateT,
        rng: random.Random,
        *,
        probe: bool = False,
    ) -> None:
        self._apply = apply
        self.state = state
        self.rng = rng
        self.probe = probe
        self.events: list[Event] = []

    def emit(self, event_type: str, **data: Any) -> None:
        self.record(Event(event_type, data))

    def record(self, event: Event) -> None:
        """Apply ``event`` to the working state and keep it."""
        self.state = self._apply(self.state, event)
        self.events.append(event)


@dataclass(frozen=True)
class Screen:
    """What a tracker screen is asked to show: the model ``selected`` (its id), the page's
    query (``params``: an open wizard and its toggles), the seat whose secrets may be shown
    (``viewer``) and the ``Offers`` that make its buttons with the engine's verdicts."""

    selected: int | None
    params: Mapping[str, str]
    viewer: int | None
    offers: Offers


def selected_of(params: Mapping[str, str]) -> int | None:
    """The model a screen's query selects (``unit=<id>``): a short run of ASCII digits only."""
    value = str(params.get("unit", ""))
    return int(value) if value.isascii() and value.isdigit() and len(value) <= 6 else None


class StateTooOld(Exception):
    """A stored snapshot from a version no state upgrade reaches: rebuild it from the log."""


class RuleEngine(Generic[StateT, ContextT]):
    """The plumbing of a match engine; a system subclasses it and fills in the class attributes
    and the hooks below (``initial_state``, ``context``, ``finished`` and, where its rules need
    them, ``before``/``settle``)."""

    # The system's name in refusals ("There is no command 'x' in Deathmatch").
    system_name: ClassVar[str]
    # The shape of events and snapshots this release writes; raise it whenever a payload's
    # shape changes, with an upgrade function from the previous version.
    schema_version: ClassVar[int] = 1
    handlers: ClassVar[CommandHandlers[Any]]
    appliers: ClassVar[EventAppliers[Any]]
    specs: ClassVar[tuple[CommandSpec, ...]]
    # gettext_noop-marked messages by refusal code, for pages in the reader's language.
    refusals: ClassVar[Mapping[str, str]]
    # The same for a refusal raised with params: a message naming them (``%(shots)s``).
    refusal_details: ClassVar[Mapping[str, str]] = {}
    # ``event_upgrades[v]`` turns an event written in version v into version v + 1; the same
    # for ``state_upgrades`` and snapshots. A missing state upgrade means "rebuild from the
    # log", which is always possible because the log is the truth.
    event_upgrades: ClassVar[Mapping[int, EventUpgrade]] = {}
    state_upgrades: ClassVar[Mapping[int, StateUpgrade]] = {}
    # True when a seat's screens offer buttons nobody else's do (Stahlgewitter: the buttons of
    # a unit hidden behind its marker, only for its owner): whoever walks every command the
    # tracker offers (the random-play test) then walks each seat's screens, not a spectator's.
    seat_screens: ClassVar[bool] = False

    # --- What each system provides ----------------------------------------------------------

    def initial_state(self) -> StateT:
        raise NotImplementedError

    def context(self, state: StateT, rng: random.Random, *, probe: bool) -> ContextT:
        """A fresh decision on ``state`` (the system's own ``Decision`` subclass)."""
        raise NotImplementedError

    def finished(self, state: StateT) -> bool:
        raise NotImplementedError

    def before(self, ctx: ContextT, command: Command, args: Args) -> None:
        """Runs before the command's handler (Deathmatch: an open free flip closes)."""

    def settle(self, ctx: ContextT) -> None:
        """Runs after the handler: what follows by itself once nothing waits (the next turn)."""

    def undo_events(self, current: StateT, rebuilt: StateT) -> list[Event]:
        """What an undo keeps of the command it undoes: ``current`` is the state with that
        command, ``rebuilt`` the state replayed from the log without it. The events returned
        are logged after the undo marker, in its group, and applied to ``rebuilt``, so the log
        stays the truth. None by default; Deathmatch keeps the cards the command revealed drawn
        (seen cards stay seen)."""
        return []

    def round_of(self, state: StateT) -> int:
        """The round the match is in; 0 while setting up (the match is "live" from round 1)."""
        return 0

    def mode_of(self, state: StateT) -> str:
        """The mode or mission the match plays (a random one once it is drawn)."""
        return ""

    def summary(self, events: Sequence[Event], state: StateT) -> Summary | None:
        """The post-game summary (``core.summary``) of the match so far: ``events`` are the
        effective events (undone commands left out), ``state`` the state they fold to. None:
        the system has no summary page."""
        return None

    def setup_fields(self) -> tuple[FieldSpec, ...]:
        """The settings a new match asks for besides teams and mode; none by default."""
        return ()

    def roster_settings(self, mode: str) -> dict[str, Any]:
        """Roster settings a mode implies (checked as the mode builds teams); none by default."""
        return {}

    def mode_choices(self) -> tuple[tuple[str, str], ...]:
        """Modes the engine offers besides the catalogue's missions (value, gettext_noop-marked
        label), e.g. Universalis' secret choice of missions."""
        return ()

    # --- The plumbing -----------------------------------------------------------------------

    def commands(self) -> tuple[CommandSpec, ...]:
        return self.specs

    def refusal(self, code: str) -> str | None:
        return self.refusals.get(code)

    def refusal_detail(self, code: str) -> str | None:
        """The message of a refusal that names its numbers (``RuleViolation.params``)."""
        return self.refusal_details.get(code)

    def decide(
        self, state: StateT, command: Command, rng: random.Random, *, probe: bool = False
    ) -> list[Event]:
        """The events ``command`` causes; raises ``RuleViolation`` and changes nothing if it is
        illegal now."""
        if self.finished(state):
            raise RuleViolation("game_over", "The game is over.")
        handler = self.handlers.get(command.type)
        if handler is None:
            raise RuleViolation(
                "unknown_command", f"There is no command {command.type!r} in {self.system_name}."
            )
        ctx = self.context(state, rng, probe=probe)
        args = Args(command.args)
        self.before(ctx, command, args)
        handler(ctx, args)
        self.settle(ctx)
        return ctx.events

    def apply(self, state: StateT, event: Event) -> StateT:
        """The state after one event: pure, no rule checked, no die rolled."""
        applied: StateT = self.appliers.apply(state, event)
        return applied

    def check(self, state: StateT, command: Command) -> Refusal | None:
        """Whether ``command`` would be accepted now, decided by the rules themselves on a
        probe whose events are thrown away; ``None`` means it would."""
        try:
            self.decide(state, command, random.Random(PROBE_SEED), probe=True)
        except RuleViolation as error:
            return Refusal.of(error)
        return None

    def legality(self, state: StateT) -> Legality:
        return Legality(lambda command: self.check(state, command))

    def tracker(
        self,
        state: StateT,
        *,
        selected: int | None,
        params: Mapping[str, str],
        viewer: int | None = None,
        legality: Legality | None = None,
    ) -> Any:
        """The tracker page's view model: the system's ``present`` with buttons made by
        ``Offers`` on the engine's verdicts (``legality`` shared by several screens of one
        state decides each command once)."""
        offers = Offers(legality or self.legality(state), self.refusals)
        return self.present(state, Screen(selected, params, viewer, offers))

    def present(self, state: StateT, screen: Screen) -> Any:
        """The system's tracker view model (``core.match.TrackerView``) for ``screen``."""
        raise NotImplementedError

    def legal_commands(
        self, state: StateT, *, viewer: int | None = None, most_screens: int = MOST_SCREENS
    ) -> tuple[Option, ...]:
        """Every command the tracker's screens offer now (every model selected, every wizard
        opened), each with the engine's verdict: the table's ``legal_actions``."""
        legality = self.legality(state)
        for _params, _view in self.reachable_screens(
            state, viewer=viewer, legality=legality, most=most_screens
        ):
            pass
        return legality.options()

    def reachable_screens(
        self,
        state: StateT,
        *,
        viewer: int | None = None,
        legality: Legality | None = None,
        most: int = MOST_SCREENS,
    ) -> Iterable[tuple[Mapping[str, str], Any]]:
        """The screens reachable from the plain tracker page through ``screens()`` links,
        breadth first, each with its query; at most ``most`` of them."""
        legality = legality or self.legality(state)
        queue: list[Mapping[str, str]] = [{}]
        seen: set[tuple[tuple[str, str], ...]] = set()
        while queue and len(seen) < most:
            params = queue.pop(0)
            key = tuple(sorted(params.items()))
            if key in seen:
                continue
            seen.add(key)
            view = self.tracker(
                state,
                selected=selected_of(params),
                params=params,
                viewer=viewer,
                legality=legality,
            )
            yield params, view
            queue.extend(view.screens())

    def upgrade_event(self, event: Event, version: int) -> Event:
        """``event`` as written in ``version``, brought to the current ``schema_version``."""
        for step in range(version, self.schema_version):
            upgrade = self.event_upgrades.get(step)
            if upgrade is not None:
                event = upgrade(event)
        return event

    def upgrade_state(self, data: Mapping[str, Any], version: int) -> dict[str, Any]:
        """A snapshot written in ``version`` in the current shape; raises ``StateTooOld`` when a
        step has no upgrade (the caller rebuilds the state from the log instead)."""
        upgraded = dict(data)
        for step in range(version, self.schema_version):
            upgrade = self.state_upgrades.get(step)
            if upgrade is None:
                raise StateTooOld(f"no snapshot upgrade from version {step}")
            upgraded = upgrade(upgraded)
        return upgraded
