"""A toolkit for scripted Deathmatch matches (no database).

``Game`` starts a match with a seeded ``random.Random``, decides and applies commands, and after
every command checks what the Django layer relies on: every event is JSON, has a timeline line
(or deliberately none) and a public form, and folding the JSON round trip of the whole log over
the initial state rebuilds exactly the live state. After each test the conftest replays every
game's whole log from scratch and reloads its JSON snapshot (``dump_state`` equality).
``stack`` replaces a player's deck so that the next draws are known; the log records it beside
the events, so replays see the same deck.

Teams are small hand-made profiles with round numbers: Reflex 6, Resistance 3, 6 LP, a Gewehr
(FK 3, S 3) and a Klinge (NK 3, S 3). So a hit flip card c scores a hit for c >= 4, a graze at 3
and a miss below; a wound flip card c deals c damage. Fighters give no command points unless a
test asks, so no flip waits for a reroll decision by accident.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from apps.systems.core.deck import CARDS_UNDER_TURN, NUMBER_CARDS, Deck
from apps.systems.core.errors import RuleViolation
from apps.systems.core.match import Command, Event, replay
from apps.systems.deathmatch.catalog import (
    Ability,
    EquipmentCard,
    FighterProfile,
    ItemKind,
    Movement,
    Rank,
    SpecialAction,
    Weapon,
    WeaponKind,
)
from apps.systems.deathmatch.match.engine import DeathmatchEngine
from apps.systems.deathmatch.match.modes import mode_by_slug
from apps.systems.deathmatch.match.serial import dump
from apps.systems.deathmatch.match.state import MatchState, Phase, Unit, UnitKind

ENGINE = DeathmatchEngine()

NAMES = ("Anna", "Ben", "Cleo", "Dora")
# What a stacked deck holds after the cards a test asked for: middling cards first, so a test
# that flips more than it stacked gets unremarkable results rather than 0s and 9s.
FILLER_ORDER = (5, 4, 6, 3, 7, 2, 8, 1, 9, 0)


def weapon(
    name: str,
    kind: str = "ranged",
    *,
    value: int = 3,
    strength: int = 3,
    bonus: int = 0,
    rules: Sequence[str] = (),
    paired: bool = False,
    range_inches: int = 12,
) -> Weapon:
    return Weapon(
        name=name,
        kind=WeaponKind(kind),
        paired=paired,
        range_inches=range_inches,
        combat_value=value,
        bonus_cards=bonus,
        strength=strength,
        special_rules=tuple(rules),
    )


RIFLE = weapon("Gewehr", range_inches=12)
BLADE = weapon("Klinge", "melee", range_inches=1)


def profile(
    name: str = "Kämpfer",
    *,
    rank: Rank = Rank.TROOPER,
    command: int = 0,
    reflex: int = 6,
    resistance: int = 3,
    lp: int = 6,
    respawner: bool = True,
    abilities: Sequence[str] = (),
    weapons: Sequence[Weapon] = (RIFLE, BLADE),
    red: Sequence[str] = (),
    movement: Movement = Movement.NORMAL,
    faction: str = "organon",
) -> FighterProfile:
    return FighterProfile(
        slug=name.casefold().replace(" ", "-"),
        name=name,
        factions=(faction,),
        rank=rank,
        arp=2,
        command=command,
        reflex=reflex,
        resistance=resistance,
        lp=lp,
        respawner=respawner,
        movement=movement,
        abilities=tuple(Ability(a) for a in abilities),
        weapons=tuple(weapons),
        red_values=tuple(red),
    )


def item(
    slug: str,
    *,
    kind: ItemKind = ItemKind.GEAR,
    weapon: Weapon | None = None,
    action: SpecialAction | None = None,
    usage: str = "",
) -> EquipmentCard:
    return EquipmentCard(
        slug=slug,
        name=slug.replace("-", " ").title(),
        cost=1,
        limit_per_model=1,
        kind=kind,
        usage_limit=usage,
        special_action=action,
        weapon=weapon,
    )


@dataclass(frozen=True)
class F:
    """A fighter for a setup: its profile and equipment cards."""

    profile: FighterProfile
    items: tuple[EquipmentCard, ...] = ()


Member = F | FighterProfile


def default_team(player: int, size: int = 3, **overrides: Any) -> list[Member]:
    """Leader, troopers and specialists named after the player: "Anna Anführer", ..."""
    name = NAMES[player]
    ranks = [Rank.LEADER] + [Rank.TROOPER, Rank.SPECIALIST] * ((size - 1) // 2)
    titles = {Rank.LEADER: "Anführer", Rank.TROOPER: "Trooper", Rank.SPECIALIST: "Spezialist"}
    seen: Counter[Rank] = Counter()
    team: list[Member] = []
    for rank in ranks:
        seen[rank] += 1
        suffix = f" {seen[rank]}" if size > 3 and rank is not Rank.LEADER else ""
        team.append(profile(f"{name} {titles[rank]}{suffix}", rank=rank, **overrides))
    return team


def setup(
    mode: str = "last-man-standing",
    teams: Sequence[Sequence[Member]] | None = None,
    *,
    players: int | None = None,
    game_size: int = 3,
    gadgets: bool = False,
    harmony: Sequence[bool] = (),
) -> dict[str, Any]:
    """A ``start`` setup: ``teams`` default to ``default_team`` for each player."""
    if teams is None:
        count = players or mode_by_slug(mode).min_players
        teams = [default_team(p, game_size) for p in range(count)]
    return {
        "mode": mode,
        "game_size": game_size,
        "gadgets": gadgets,
        "players": [
            {
                "name": NAMES[p],
                "faction": "organon",
                "harmony": bool(harmony[p]) if p < len(harmony) else False,
                "fighters": [_fighter(m) for m in team],
            }
            for p, team in enumerate(teams)
        ],
    }


def _fighter(member: Member) -> dict[str, Any]:
    f = member if isinstance(member, F) else F(member)
    return {"name": "", "profile": dump(f.profile), "items": [dump(i) for i in f.items]}


def stacked_deck(cards: Sequence[int], *, before_turn: int = 35) -> Deck:
    """A valid deck whose next draws are ``cards`` and which reaches its Wendepunkt after
    ``before_turn`` draws (the rest lie under the Wendepunkt or count as drawn)."""
    if not len(cards) <= before_turn <= 35:
        raise ValueError("stack at most before_turn <= 35 cards")
    left = Counter(NUMBER_CARDS)
    left.subtract(cards)
    if any(n < 0 for n in left.values()):
        raise ValueError(f"a deck holds each number four times: {sorted(cards)}")
    filler: list[int] = []
    for _ in range(4):
        for value in FILLER_ORDER:
            if left[value] > 0:
                filler.append(value)
                left[value] -= 1
    above = tuple(cards) + tuple(filler[: before_turn - len(cards)])
    rest = filler[before_turn - len(cards) :]
    below = tuple(rest[:CARDS_UNDER_TURN])
    drawn = tuple(rest[CARDS_UNDER_TURN:])
    return Deck(above_turn=above, below_turn=below, drawn=drawn)


@dataclass(frozen=True)
class Patch:
    """A deck replaced by a test (the table's physical deck, not a command)."""

    player: int
    deck: Deck


# Every game a test starts, for the replay check after the test (conftest).
PLAYED: list[Game] = []


def cmd(type_: str, **args: Any) -> Command:
    return Command(type_, args)


def roundtrip(event: Event) -> Event:
    return Event(event.type, json.loads(json.dumps(event.data)))


class Game:
    """One scripted match. ``do`` plays a command and returns its events."""

    def __init__(self, setup_: Mapping[str, Any], seed: int = 0) -> None:
        PLAYED.append(self)
        self.rng = random.Random(seed)
        self.log: list[Event | Patch] = []
        self.state: MatchState = ENGINE.initial_state()
        self.replica: MatchState = ENGINE.initial_state()
        # Where each command's events begin in the log, for ``undo``.
        self._marks: list[int] = []
        self._key = json.dumps([setup_, seed], sort_keys=True)
        if not self._restore(("start", self._key)):
            self._record(ENGINE.start(setup_, self.rng))
            self._remember(("start", self._key))

    # Many tests begin alike: the toolkit keeps each distinct opening (its log, states and
    # random source) and hands a copy to the next game that opens the same way. The first game
    # played it with every check; the teardown replay still replays each game's whole log.
    _openings: dict[tuple[str, str], tuple[list[Event | Patch], MatchState, MatchState, Any]] = {}

    def _remember(self, key: tuple[str, str]) -> None:
        self._openings[key] = (list(self.log), self.state, self.replica, self.rng.getstate())

    def _restore(self, key: tuple[str, str]) -> bool:
        opening = self._openings.get(key)
        if opening is None:
            return False
        log, self.state, self.replica, rng_state = opening
        self.log = list(log)
        self.rng.setstate(rng_state)
        return True

    # --- Playing ---------------------------------------------------------------------------

    def do(self, type_: str, /, **args: Any) -> list[Event]:
        return self.play(Command(type_, args))

    def play(self, *commands: Command) -> list[Event]:
        events: list[Event] = []
        for command in commands:
            new = ENGINE.decide(self.state, command, self.rng)
            self._marks.append(len(self.log))
            self._record(new)
            events += new
        return events

    def undo(self) -> list[Event]:
        """What the Django layer's undo does: the state rebuilt from the log without the last
        command (and the decks stacked after it), then the events the engine keeps from what
        that command did (``undo_events``: the cards it revealed stay drawn)."""
        mark = self._marks.pop()
        rebuilt = self._replayed(self.log[:mark])
        kept = ENGINE.undo_events(self.state, rebuilt)
        del self.log[mark:]
        self.state = self.replica = rebuilt
        self._record(kept)
        return kept

    def refused(self, type_: str, code: str, /, **args: Any) -> RuleViolation:
        """The command is illegal with ``code``, and the state passed in is unchanged."""
        before = ENGINE.dump_state(self.state)
        with pytest.raises(RuleViolation) as caught:
            ENGINE.decide(self.state, Command(type_, args), random.Random(99))
        assert caught.value.code == code, caught.value
        assert ENGINE.dump_state(self.state) == before
        return caught.value

    def stack(self, player: int, cards: Sequence[int], *, before_turn: int = 35) -> None:
        """Replace ``player``'s deck: the next draws are exactly ``cards``."""
        patch = Patch(player, stacked_deck(cards, before_turn=before_turn))
        self.log.append(patch)
        self.state = self.state.with_player(player, deck=patch.deck)
        self.replica = self.replica.with_player(player, deck=patch.deck)

    def _record(self, events: Iterable[Event]) -> None:
        events = list(events)
        for event in events:
            self.state = ENGINE.apply(self.state, event)
            self.replica = ENGINE.apply(self.replica, roundtrip(event))
            self.log.append(event)
        if self.replica != self.state:  # the cheap check; the snapshots decide
            assert ENGINE.dump_state(self.replica) == ENGINE.dump_state(self.state), (
                "replay differs from the state"
            )
        for event in events:
            line = ENGINE.timeline(self.state, event)
            if line is not None:
                assert line.text  # every placeholder filled
            json.dumps(ENGINE.public_event(event))

    def assert_replays(self) -> None:
        """A full replay of the log from scratch (events through JSON) equals the state, and
        the state's JSON snapshot loads back to the same state. The ``conftest`` runs this for
        every game a test played."""
        snapshot = ENGINE.dump_state(self.state)
        reloaded = ENGINE.load_state(json.loads(json.dumps(snapshot)))
        assert ENGINE.dump_state(reloaded) == snapshot, "the snapshot does not reload"
        state = self._replayed(self.log)
        assert ENGINE.dump_state(state) == ENGINE.dump_state(self.state)
        if not any(isinstance(entry, Patch) for entry in self.log):
            plain = replay(ENGINE, [roundtrip(e) for e in self.log if isinstance(e, Event)])
            assert ENGINE.dump_state(plain) == ENGINE.dump_state(self.state)

    @staticmethod
    def _replayed(log: Sequence[Event | Patch]) -> MatchState:
        """The state the log (events through JSON, and the decks a test stacked) folds to."""
        state = ENGINE.initial_state()
        for entry in log:
            if isinstance(entry, Patch):
                state = state.with_player(entry.player, deck=entry.deck)
            else:
                state = ENGINE.apply(state, roundtrip(entry))
        return state

    # --- Looking ---------------------------------------------------------------------------

    def unit(self, unit_id: int) -> Unit:
        return self.state.units[unit_id]

    def cp(self, player: int) -> int:
        return self.state.players[player].cp

    def vp(self, player: int) -> int:
        return self.state.players[player].total_vp

    @property
    def events(self) -> list[Event]:
        return [e for e in self.log if isinstance(e, Event)]

    # --- Setup and rounds ------------------------------------------------------------------

    def to_round_one(
        self,
        *,
        first_deployer: int = 0,
        winner: int = 0,
        starter: int = 0,
        vips: Mapping[int, int] | None = None,
        flags: Mapping[int, Sequence[int]] | None = None,
        king: int | None = None,
    ) -> None:
        """Setup (without gadgets unless chosen before), then round 1's start phase."""
        fresh = len(self.log) == 1
        key = (
            "round one",
            json.dumps(
                [self._key, first_deployer, winner, starter, vips, flags, king], sort_keys=True
            ),
        )
        if fresh and self._restore(key):
            return
        self._play_round_one(first_deployer, winner, starter, vips, flags, king)
        if fresh:
            self._remember(key)

    def _play_round_one(
        self,
        first_deployer: int,
        winner: int,
        starter: int,
        vips: Mapping[int, int] | None,
        flags: Mapping[int, Sequence[int]] | None,
        king: int | None,
    ) -> None:
        state = self.state
        if state.awaiting == "gadgets":
            self.do("skip_gadgets")
        n = len(self.state.players)
        for p in range(n):
            self.stack(p, [9 if p == 0 else 1])
        self.do("deployment_flip")
        self.do("choose_first_deployer", player=first_deployer)
        while self.state.awaiting == "vip":
            p = self.state.awaiting_player
            assert p is not None
            unit = (vips or {}).get(p, self.state.team(p)[0].id)
            self.do("name_vip", unit=unit)
        while self.state.awaiting == "flags":
            p = self.state.awaiting_player
            assert p is not None
            self.do("assign_flags", units=list((flags or {}).get(p, [])))
        self.do("start_game")
        self.start_round(winner=winner, starter=starter, king=king)

    def start_round(self, *, winner: int = 0, starter: int = 0, king: int | None = None) -> None:
        """Initiative with stacked cards (the winner flips 9, the others 1; nobody rerolls),
        the winner names the starter, King of the Hill's first king if asked."""
        assert self.state.awaiting == "initiative", self.state.awaiting
        for p in range(len(self.state.players)):
            self.stack(p, [9 if p == winner else 1])
        self.do("flip_initiative")
        while self.state.pending is not None:
            self.do("accept")
        self.do("choose_starter", player=starter)
        if self.state.awaiting == "king":
            self.do("name_king", unit=king if king is not None else self.state.team(starter)[0].id)

    def activate(self, unit: int) -> list[Event]:
        return self.do("activate", unit=unit)

    def end(self, **args: Any) -> list[Event]:
        return self.do("end_activation", **args)

    def finish_round(self) -> None:
        """Every remaining model activates and ends at once, until the end phase."""
        for _ in range(200):
            state = self.state
            if state.awaiting == "score" or state.phase is Phase.OVER:
                return
            if state.active is not None:
                self.end()
                continue
            assert state.turn is not None and not state.awaiting, (state.turn, state.awaiting)
            wanted = UnitKind.DRONE if state.phase is Phase.DRONES else UnitKind.FIGHTER
            unit = next(
                u
                for u in state.units
                if u.player == state.turn and u.in_play and not u.activated and u.kind is wanted
            )
            self.activate(unit.id)
        raise AssertionError("the round does not end")

    def score(self, **args: Any) -> list[Event]:
        return self.do("score_round", **args)

    def next_round(self, *, winner: int = 0, starter: int = 0, **score: Any) -> None:
        """Finish this round, score it (``score`` as score_round's args), begin the next."""
        self.finish_round()
        self.score(**score)
        if self.state.phase is not Phase.OVER:
            self.start_round(winner=winner, starter=starter)


def of_type(events: Iterable[Event], type_: str) -> list[Mapping[str, Any]]:
    return [e.data for e in events if e.type == type_]


def one(events: Iterable[Event], type_: str) -> Mapping[str, Any]:
    found = of_type(events, type_)
    assert len(found) == 1, (type_, [e.type for e in events])
    return found[0]


def types(events: Iterable[Event]) -> list[str]:
    return [e.type for e in events]


def target(unit: int, **situation: Any) -> dict[str, Any]:
    return {"unit": unit, **situation}
