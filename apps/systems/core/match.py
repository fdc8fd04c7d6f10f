"""What a rule system's match engine looks like to the rest of the app (DESIGN: commands → events
→ state; the log is the truth).

A player's tap is a ``Command``. The engine *decides* it against the current state and returns
``Event``s with every random outcome written in; *applying* the events in order gives the new
state, so replaying a stored log always rebuilds the same state without drawing a card or rolling
a die. The Django layer stores the events, a snapshot of the state, and handles ``undo`` by
replaying the log without the undone commands (nothing is ever deleted), plus the events the
engine keeps of the undone command (``undo_events``), logged after the undo marker.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from apps.systems.core.errors import RuleViolation
from apps.systems.core.rosters import CatalogData, RosterInput
from apps.systems.core.schema import FieldSpec
from apps.systems.core.summary import Summary


@dataclass(frozen=True)
class Command:
    """A request from a player: ``type`` names it, ``args`` are JSON values."""

    type: str
    args: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Event:
    """Something that happened; ``data`` is JSON and holds every random outcome."""

    type: str
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ArgSpec:
    """One argument of a command as the API documents it; ``help`` is gettext_noop-marked."""

    name: str
    type: str
    required: bool = True
    help: str = ""


@dataclass(frozen=True)
class CommandSpec:
    """A command type. ``seat_arg`` names the argument holding the player a *private* command
    belongs to (a secret choice): only the user holding that seat may send it.
    ``own_seat_arg`` names the argument holding the player a command speaks for that is no
    secret but only that player may give (conceding): only the user holding that seat may
    send it either."""

    type: str
    help: str
    args: tuple[ArgSpec, ...] = ()
    seat_arg: str = ""
    own_seat_arg: str = ""


@dataclass(frozen=True)
class TimelineLine:
    """One readable line of the match log: a gettext_noop-marked English ``template`` with
    %(name)s placeholders and its ``params``; the params named in ``translate`` are themselves
    gettext_noop-marked words (an outcome, a reason). The Django layer translates and fills it."""

    template: str
    params: Mapping[str, str | int] = field(default_factory=dict)
    translate: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        return self.template % dict(self.params)


class TrackerView(Protocol):
    """What a system's tracker view model gives the generic tracker page
    (``matches/tracker.html``, which includes the system's ``matches/<slug>/_board.html``)."""

    @property
    def heading(self) -> tuple[TimelineLine, ...]:
        """The line under the match title: mode or scenario, round, phase."""

    @property
    def over(self) -> bool: ...

    def command_buttons(self) -> Iterable[Any]:
        """Every command ``Button`` on this screen (``core.buttons``), enabled or not."""

    def screens(self) -> Iterable[Mapping[str, str]]:
        """The queries of the screens this one leads to (a model selected, a wizard opened):
        what a table can reach from here, for the random-play test and ``legal_commands``."""


class MatchEngine(Protocol):
    """The match engine a system provides (see ``GameSystemInfo.matches``); every engine is a
    ``core.engine.RuleEngine``, which implements the plumbing of most of it.

    ``State`` is the engine's own frozen dataclass; the Django layer only stores it through
    ``dump_state``/``load_state`` and shows it through ``public_state``.
    """

    @property
    def schema_version(self) -> int:
        """The shape of the events and snapshots this release writes (``upgrade_event``)."""

    def commands(self) -> tuple[CommandSpec, ...]:
        """Every command type with its arguments (``GET /systems/{slug}/commands/``)."""

    def setup_fields(self) -> tuple[FieldSpec, ...]:
        """The settings a new match asks for besides teams and mode (e.g. game size, gadgets);
        their values arrive in ``start``'s setup."""

    def mode_choices(self) -> tuple[tuple[str, str], ...]:
        """Modes offered besides the catalogue's missions (value, gettext_noop-marked label)."""

    def tracker(
        self,
        state: Any,
        *,
        selected: int | None,
        params: Mapping[str, str],
        viewer: int | None = None,
    ) -> TrackerView:
        """The tracker page's view model (the board template is ``matches/<slug>/_board.html``);
        ``params`` is the page's query string (an open wizard and its toggles). ``viewer`` is
        the seat (player index) whose hidden information may be shown; ``None`` shows none."""

    def refusal(self, code: str) -> str | None:
        """A gettext_noop-marked message for a refusal code, for pages in the reader's
        language (the RuleViolation's own message is English and names models)."""

    def refusal_detail(self, code: str) -> str | None:
        """The same for a refusal raised with ``params``: a message that names them."""

    def check(self, state: Any, command: Command) -> Any:
        """The refusal ``command`` would meet now (a ``core.engine.Refusal``), or ``None``."""

    def legal_commands(self, state: Any, *, viewer: int | None = None) -> tuple[Any, ...]:
        """Every command the tracker screens offer now, each with the engine's verdict
        (``core.engine.Option``): what the table may send and why not the rest."""

    def roster_settings(self, mode: str) -> dict[str, Any]:
        """Roster settings a game mode implies (Deathmatch: Last Man Standing's ARP bonus), so
        teams are checked as the mode builds them."""

    def team_setup(self, roster: RosterInput, catalog: CatalogData) -> dict[str, Any]:
        """A saved roster as the team ``start`` expects (cards at the roster's versions)."""

    def start(self, setup: Mapping[str, Any], rng: random.Random) -> list[Event]:
        """The events that open a match (shuffled decks, teams, mode); raises RuleViolation."""

    def initial_state(self) -> Any:
        """The state before the first event."""

    def decide(self, state: Any, command: Command, rng: random.Random) -> list[Event]:
        """The events a command causes; raises RuleViolation and changes nothing if illegal."""

    def apply(self, state: Any, event: Event) -> Any:
        """The state after one event. Pure and deterministic: no randomness, no rules checks."""

    def undo_events(self, current: Any, rebuilt: Any) -> list[Event]:
        """The events an undo logs after its marker: what the undone command did that must
        stay done (``current`` with the command, ``rebuilt`` replayed without it)."""

    def round_of(self, state: Any) -> int:
        """The round being played; 0 while the match is set up."""

    def mode_of(self, state: Any) -> str:
        """The mode or mission the match plays (a random one once drawn)."""

    def upgrade_event(self, event: Event, version: int) -> Event:
        """An event stored in ``version``, in the shape of ``schema_version``."""

    def upgrade_state(self, data: Mapping[str, Any], version: int) -> dict[str, Any]:
        """A snapshot stored in ``version``, in the current shape; raises
        ``core.engine.StateTooOld`` when only a replay of the log can rebuild it."""

    def dump_state(self, state: Any) -> dict[str, Any]:
        """The whole state as JSON (the snapshot; may hold hidden information)."""

    def load_state(self, data: Mapping[str, Any]) -> Any: ...

    def public_state(self, state: Any, *, viewer: int | None = None) -> dict[str, Any]:
        """The state as the seat ``viewer`` may see it (``None``: a spectator, or anyone):
        hidden information (a deck's order, another player's secret mission) left out."""

    def public_event(self, event: Event, *, viewer: int | None = None) -> dict[str, Any]:
        """An event's data as ``viewer`` may see it (the same hidden information left out)."""

    def finished(self, state: Any) -> bool: ...

    def result(self, state: Any) -> Mapping[str, Any] | None:
        """``{"winners": [player indices], "draw": bool, "vp": [...], ...}`` once finished."""

    def summary(self, events: Sequence[Event], state: Any) -> Summary | None:
        """The post-game summary of the match so far (``core.summary``), from the effective
        events and the state they fold to; None when the system has none."""

    def timeline(self, state: Any, event: Event) -> TimelineLine | None:
        """A readable line for an event (``None`` for bookkeeping events nobody needs to read);
        ``state`` is any state after the event (names never change)."""


def replay(engine: MatchEngine, events: Iterable[Event]) -> Any:
    """Fold the events over the engine's initial state."""
    state = engine.initial_state()
    for event in events:
        state = engine.apply(state, event)
    return state


class Args:
    """Strict reading of a command's JSON arguments: a wrong type is a RuleViolation (a 400),
    never a crash deeper in the rules. ``bool`` is refused where an int belongs."""

    def __init__(self, args: Mapping[str, Any]) -> None:
        if not isinstance(args, Mapping):
            raise RuleViolation("invalid_args", "The command's args must be an object.")
        self._args = args

    def _missing(self, name: str) -> RuleViolation:
        return RuleViolation("invalid_args", f"The argument {name!r} is missing.")

    def raw(self, name: str) -> Any:
        """A value the caller parses itself (e.g. a card for the system's converter)."""
        if name not in self._args:
            raise self._missing(name)
        return self._args[name]

    def has(self, name: str) -> bool:
        return self._args.get(name) is not None

    def integer(
        self, name: str, default: int | None = None, *, lo: int = -99, hi: int = 999
    ) -> int:
        value = self._args.get(name, default)
        if value is None:
            raise self._missing(name)
        if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
            raise RuleViolation(
                "invalid_args", f"{name!r} must be a whole number from {lo} to {hi}."
            )
        return value

    def optional_int(self, name: str, *, lo: int = -99, hi: int = 999) -> int | None:
        return self.integer(name, lo=lo, hi=hi) if self.has(name) else None

    def boolean(self, name: str, default: bool = False) -> bool:
        value = self._args.get(name, default)
        if not isinstance(value, bool):
            raise RuleViolation("invalid_args", f"{name!r} must be true or false.")
        return value

    def text(self, name: str, default: str | None = None, *, choices: Sequence[str] = ()) -> str:
        value = self._args.get(name, default)
        if value is None:
            raise self._missing(name)
        if not isinstance(value, str) or len(value) > 200:
            raise RuleViolation("invalid_args", f"{name!r} must be a short text.")
        if choices and value not in choices:
            raise RuleViolation("invalid_args", f"{name!r} must be one of: {', '.join(choices)}.")
        return value

    def ints(self, name: str, *, lo: int = 0, hi: int = 999, most: int = 50) -> tuple[int, ...]:
        values = self._args.get(name, [])
        if not isinstance(values, list) or len(values) > most:
            raise RuleViolation("invalid_args", f"{name!r} must be a list of numbers.")
        return tuple(Args({name: value}).integer(name, lo=lo, hi=hi) for value in values)

    def objects(self, name: str, *, most: int = 12) -> tuple[Args, ...]:
        values = self._args.get(name, [])
        if not isinstance(values, list) or len(values) > most:
            raise RuleViolation("invalid_args", f"{name!r} must be a list of objects.")
        return tuple(Args(value) for value in values)

    def mapping(self, name: str, *, most: int = 12) -> dict[str, Any]:
        value = self._args.get(name, {})
        if not isinstance(value, Mapping) or len(value) > most:
            raise RuleViolation("invalid_args", f"{name!r} must be an object.")
        return {str(key): item for key, item in value.items()}

    def strs(self, name: str, *, choices: Sequence[str] = (), most: int = 12) -> tuple[str, ...]:
        values = self._args.get(name, [])
        if not isinstance(values, list) or len(values) > most:
            raise RuleViolation("invalid_args", f"{name!r} must be a list of texts.")
        return tuple(Args({name: value}).text(name, choices=choices) for value in values)


ContextT = TypeVar("ContextT")


class CommandHandlers(dict[str, Callable[[ContextT, Args], None]]):
    """An engine's command handlers by command type. The handler modules register theirs with
    ``@handlers.command("type")`` when they are imported; the engine's ``decide`` looks them up."""

    def command(
        self, name: str
    ) -> Callable[[Callable[[ContextT, Args], None]], Callable[[ContextT, Args], None]]:
        def register(handler: Callable[[ContextT, Args], None]) -> Callable[[ContextT, Args], None]:
            self[name] = handler
            return handler

        return register
