"""The game modes (SPEC §1.8, rulebook SPIELMODI): how each one scores, ends and is laid out.

A mode is data: which objectives it places where, which respawn rule holds, and which scoring
features it switches on. The engine reads the features; the setup page draws ``layout`` as a
map. Coordinates are inches from the top-left corner; player 0 deploys along the bottom edge
(facing up), player 1 along the top edge. "Right side" is as the deploying player sees it.

**Decisions** (also in the rules reference):
- Conquest's text places "2 switches on the horizontal centre line 4" from the sides" twice; the
  second pair goes on the vertical centre line, 4" in front of each deployment zone.
- Domination for two players (mode 7; its page is missing): three switches on the horizontal
  centre line (6" from each side and the centre), the multiplayer rules otherwise.
- Multiplayer maps are images in the rulebook and missing from the text: the app uses a
  schematic 36" map (zones 10" deep and 18" wide along the edges, points I opposite the zones,
  point II in the centre) and says so.
- Onslaught's "Energieschild (3)": three shield markers, each +3 Resistance against one hit, as
  the Energieschild gadget's marker works (the rulebook's "(X)" counts markers, as in
  Limitiert (X)).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from apps.systems.core.errors import RuleViolation
from apps.systems.core.i18n import gettext_noop


class Respawn(StrEnum):
    ONCE = "once"  # the usual rule: once, if the fighter has a respawner
    NONE = "none"
    UNLIMITED = "unlimited"


class ObjectiveKind(StrEnum):
    FOCAL_POINT = "focal_point"
    SWITCH = "switch"
    FLAG = "flag"
    KING_ZONE = "king_zone"
    CORE = "core"


@dataclass(frozen=True)
class Zone:
    player: int
    x: float
    y: float
    width: float
    height: float

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x + self.width / 2, self.y + self.height / 2)


@dataclass(frozen=True)
class Spot:
    """An objective on the map. ``side`` is the team it belongs to (a flag, a core, a
    Breakthrough switch), ``radius`` the scoring distance of a king zone."""

    id: str
    kind: ObjectiveKind
    x: float
    y: float
    label: str = ""
    side: int | None = None
    radius: float = 0


@dataclass(frozen=True)
class Layout:
    size: int
    zones: tuple[Zone, ...]
    spots: tuple[Spot, ...]
    schematic: bool = False


@dataclass(frozen=True)
class Mode:
    """One game mode. ``summary`` and ``victory`` are gettext_noop-marked English."""

    slug: str
    number: int | None
    name: str
    min_players: int
    max_players: int
    summary: str
    victory: tuple[str, ...]
    rounds: int | None = 6
    respawn: Respawn = Respawn.ONCE
    diagonal: bool = False
    ko_vp: int = 0  # to the credited team, per enemy team fighter knocked out
    ko_vp_to_opponent: int = 0  # Deathmatch: to the victim's opponent, every knock-out
    vip_vp: int = 0  # each time an enemy VIP is knocked out
    king: bool = False
    king_vp: int = 0
    focal_vp: int = 0  # per focal point controlled at round end
    switch_vp: int = 0  # per switch controlled at round end
    domination: tuple[int, int] | None = None  # (switches needed, VP) at round end
    vp_target: tuple[int, int, int] | None = None  # Deathmatch 9/15/21 by game size
    end_at_vp: int | None = None  # Conquest: the game ends in the end phase at 13 VP
    flag_score_vp: int = 0  # a flag brought where the mode says
    flag_home_vp: int = 0  # CTF: own flag still in place at round end
    flag_return_vp: int = 0  # CTF: own flag recaptured
    breakthrough: bool = False
    breakthrough_vp: int = 0  # per enemy switch activated, at the end of the last round
    cores: bool = False
    core_destroyed_vp: int = 0
    core_third_vp: int = 0
    lms_arp: bool = False  # +0.5 ARP per Mech, rounded up (the roster rules apply it)
    ends_when_team_empty: bool = False  # Last Man Standing: ends the moment a team is gone
    unclear_king_right: bool = False  # multiplayer King of the Hill

    @property
    def vip(self) -> bool:
        return self.vip_vp > 0

    @property
    def players_label(self) -> str:
        if self.min_players == self.max_players:
            return str(self.min_players)
        return f"{self.min_players}-{self.max_players}"

    def layout(self, players: int, game_size: int) -> Layout:
        return _layout(self, players, game_size)


CORE_LP: Final = {3: 12, 5: 21, 7: 30}
CORE_REPAIR: Final = {3: 3, 5: 4, 7: 5}
CORE_RESISTANCE: Final = 5
CORE_SHIELDS: Final = 3
VP_TARGETS: Final = {3: 0, 5: 1, 7: 2}


# Victory lines several modes share.
SIX_ROUNDS: Final = gettext_noop("6 rounds; most VP win, a tie is a draw.")
ONE_VP_PER_KNOCK_OUT: Final = gettext_noop("1 VP per enemy knocked out.")

MODES: Final = (
    Mode(
        slug="last-man-standing",
        number=0,
        name="Last Man Standing",
        min_players=2,
        max_players=2,
        summary=gettext_noop("No respawns, no objectives; +0.5 ARP per Mech (rounded up)."),
        victory=(
            gettext_noop("The game ends the moment a team has no model left: that team loses."),
            gettext_noop("No round limit."),
        ),
        rounds=None,
        respawn=Respawn.NONE,
        lms_arp=True,
        ends_when_team_empty=True,
    ),
    Mode(
        slug="deathmatch",
        number=1,
        name="Deathmatch",
        min_players=2,
        max_players=2,
        summary=gettext_noop(
            'Unlimited respawns; 2 focal points on the centre line, 4" from the left and '
            "right edges."
        ),
        victory=(
            gettext_noop("Every knock-out gives the opponent 2 VP."),
            gettext_noop("1 VP per focal point controlled at the end of each round."),
            gettext_noop(
                "Reaching 9 / 15 / 21 VP (small / standard / large) finishes the round, then "
                "the most VP win; a tie goes to whoever reached the target first, else a draw."
            ),
        ),
        rounds=None,
        respawn=Respawn.UNLIMITED,
        ko_vp_to_opponent=2,
        focal_vp=1,
        vp_target=(9, 15, 21),
    ),
    Mode(
        slug="conquest",
        number=2,
        name="Conquest",
        min_players=2,
        max_players=2,
        summary=gettext_noop("4 switches; each player names a VIP at the end of deployment."),
        victory=(
            gettext_noop("1 VP per switch controlled at the end of each round."),
            gettext_noop("2 VP each time you knock out the enemy VIP."),
            gettext_noop(
                "The game ends in the end phase of the round in which a team has 13 VP or more; "
                "most VP win, a tie is a draw."
            ),
        ),
        rounds=None,
        switch_vp=1,
        vip_vp=2,
        end_at_vp=13,
    ),
    Mode(
        slug="flag-rush",
        number=3,
        name="Flag Rush",
        min_players=2,
        max_players=2,
        summary=gettext_noop("One flag in the centre of the arena."),
        victory=(
            gettext_noop(
                "3 VP for bringing the flag into the enemy deployment zone; it returns to "
                "the centre."
            ),
            ONE_VP_PER_KNOCK_OUT,
            SIX_ROUNDS,
        ),
        ko_vp=1,
        flag_score_vp=3,
    ),
    Mode(
        slug="onslaught",
        number=4,
        name="Onslaught",
        min_players=2,
        max_players=2,
        summary=gettext_noop(
            "Diagonal zones; an energy core per half (Resistance 5, Energieschild (3), LP "
            "12/21/30); two switches add +1 Resistance to their controller's core; every model "
            'may Repair (1 AP): a core within 3" regains 3/4/5 LP.'
        ),
        victory=(
            gettext_noop("9 VP for destroying the enemy core."),
            gettext_noop(
                "At the end, 3 VP per full third of its LP the enemy core has lost (if it stands)."
            ),
            ONE_VP_PER_KNOCK_OUT,
            gettext_noop(
                "Ends after round 7 or at the end of the round in which the first core fell; "
                "a tie goes to whoever destroyed a core first, else a draw."
            ),
        ),
        rounds=7,
        diagonal=True,
        ko_vp=1,
        cores=True,
        core_destroyed_vp=9,
        core_third_vp=3,
    ),
    Mode(
        slug="king-of-the-hill",
        number=5,
        name="King of the Hill",
        min_players=2,
        max_players=2,
        summary=gettext_noop("Diagonal zones; 2 focal points; the starting player names a king."),
        victory=(
            gettext_noop('3 VP if your king is within 4" of the centre at the end of a round.'),
            gettext_noop(
                "Whoever knocks out the king makes the knocking model the new king (if unclear, "
                "the player who did not have the king names one of their models)."
            ),
            gettext_noop("1 VP per focal point controlled at the end of each round."),
            SIX_ROUNDS,
        ),
        diagonal=True,
        king=True,
        king_vp=3,
        focal_vp=1,
    ),
    Mode(
        slug="breakthrough",
        number=6,
        name="Breakthrough",
        min_players=2,
        max_players=2,
        summary=gettext_noop(
            "3 switches on each deployment line; each player hands out 3 flag markers after "
            "deployment."
        ),
        victory=(
            gettext_noop(
                "Only flag carriers can activate enemy switches, which stay activated (the flag "
                "is spent): 3 VP per activated switch at the end of the last round."
            ),
            gettext_noop("A knocked-out carrier's flag returns to its owner's zone."),
            ONE_VP_PER_KNOCK_OUT,
            SIX_ROUNDS,
        ),
        ko_vp=1,
        breakthrough=True,
        breakthrough_vp=3,
    ),
    Mode(
        slug="domination",
        number=7,
        name="Domination",
        min_players=2,
        max_players=2,
        summary=gettext_noop(
            "From the 3-4 player rules: the rulebook's two-player page is missing. Three "
            "switches on the centre line; each player names a VIP."
        ),
        victory=(
            gettext_noop("3 VP at the end of each round for every team controlling 2 switches."),
            gettext_noop("2 VP each time you knock out an enemy VIP."),
            SIX_ROUNDS,
        ),
        domination=(2, 3),
        vip_vp=2,
    ),
    Mode(
        slug="double-domination",
        number=8,
        name="Double Domination",
        min_players=2,
        max_players=2,
        summary=gettext_noop(
            "Diagonal zones; a switch in each free quarter; each player names a VIP."
        ),
        victory=(
            gettext_noop("5 VP at the end of each round for the team controlling both switches."),
            gettext_noop("3 VP each time you knock out the enemy VIP."),
            SIX_ROUNDS,
        ),
        diagonal=True,
        domination=(2, 5),
        vip_vp=3,
    ),
    Mode(
        slug="capture-the-flag",
        number=9,
        name="Capture the Flag!",
        min_players=2,
        max_players=2,
        summary=gettext_noop(
            "Diagonal zones; each team's flag on the vertical centre line, 8\" from the centre "
            "in its own half; each player names a VIP."
        ),
        victory=(
            gettext_noop("1 VP at the end of each round if your own flag is still in place."),
            gettext_noop("4 VP for bringing the enemy flag into your deployment zone."),
            gettext_noop("1 VP for recapturing your own flag (it returns to its place)."),
            gettext_noop("2 VP each time you knock out the enemy VIP."),
            SIX_ROUNDS,
        ),
        diagonal=True,
        flag_home_vp=1,
        flag_score_vp=4,
        flag_return_vp=1,
        vip_vp=2,
    ),
    Mode(
        slug="mp-deathmatch",
        number=None,
        name="Deathmatch (3-4)",
        min_players=3,
        max_players=4,
        summary=gettext_noop("Unlimited respawns; a focal point on every point I."),
        victory=(
            gettext_noop("2 VP for every knock-out credited to you."),
            gettext_noop("1 VP per focal point controlled at the end of each round."),
            gettext_noop(
                "Reaching 9 / 15 / 21 VP finishes the round, then the most VP win; a tie goes "
                "to whoever reached the target first, else a draw."
            ),
        ),
        rounds=None,
        respawn=Respawn.UNLIMITED,
        ko_vp=2,
        focal_vp=1,
        vp_target=(9, 15, 21),
    ),
    Mode(
        slug="mp-conquest",
        number=None,
        name="Conquest (3-4)",
        min_players=3,
        max_players=4,
        summary=gettext_noop("A switch on every point I."),
        victory=(
            gettext_noop("2 VP per switch controlled at the end of each round."),
            ONE_VP_PER_KNOCK_OUT,
            SIX_ROUNDS,
        ),
        switch_vp=2,
        ko_vp=1,
    ),
    Mode(
        slug="mp-domination",
        number=None,
        name="Domination (3-4)",
        min_players=3,
        max_players=4,
        summary=gettext_noop("Switches on every point I and II; each player names a VIP."),
        victory=(
            gettext_noop("3 VP at the end of each round for every team controlling 2 switches."),
            gettext_noop("2 VP each time you knock out an enemy VIP."),
            SIX_ROUNDS,
        ),
        domination=(2, 3),
        vip_vp=2,
    ),
    Mode(
        slug="mp-flag-rush",
        number=None,
        name="Flag Rush (3-4)",
        min_players=3,
        max_players=4,
        summary=gettext_noop(
            "A switch on every point I; each team has its own flag in its deployment zone."
        ),
        victory=(
            gettext_noop(
                "4 VP when a model brings your own flag to the switch farthest from your zone "
                "(4 players: one of the two farthest); the flag returns to your zone."
            ),
            ONE_VP_PER_KNOCK_OUT,
            SIX_ROUNDS,
        ),
        ko_vp=1,
        flag_score_vp=4,
    ),
    Mode(
        slug="mp-king-of-the-hill",
        number=None,
        name="King of the Hill (3-4)",
        min_players=3,
        max_players=4,
        summary=gettext_noop("A marker on point II; the starting player names a king."),
        victory=(
            gettext_noop('3 VP if your king is within 4" of the marker at the end of a round.'),
            gettext_noop(
                "Whoever knocks out the king makes the knocking model the new king (if unclear, "
                "the player to the right of the king's controller names one of their models)."
            ),
            ONE_VP_PER_KNOCK_OUT,
            SIX_ROUNDS,
        ),
        king=True,
        king_vp=3,
        ko_vp=1,
        unclear_king_right=True,
    ),
)

_BY_SLUG: Final = {mode.slug: mode for mode in MODES}


def mode_by_slug(slug: str) -> Mode:
    try:
        return _BY_SLUG[slug]
    except KeyError:
        raise RuleViolation("unknown_mode", f"There is no game mode called {slug!r}.") from None


def mode_by_card(card: int) -> Mode:
    """The two-player mode a flipped card selects (0-9)."""
    return next(mode for mode in MODES if mode.number == card)


def modes_for(players: int) -> tuple[Mode, ...]:
    return tuple(mode for mode in MODES if mode.min_players <= players <= mode.max_players)


def board_size(players: int, game_size: int) -> int:
    """24" for 3 or 5 fighters, 36" for 7 fighters or 3-4 players."""
    return 36 if players > 2 or game_size == 7 else 24


_FP, _SW = ObjectiveKind.FOCAL_POINT, ObjectiveKind.SWITCH
SpotsMaker = Callable[[float, float, float], tuple[Spot, ...]]


def _breakthrough_spots(size: float, c: float, depth: float) -> tuple[Spot, ...]:
    return tuple(
        Spot(f"{'A' if side == 0 else 'B'}{i + 1}", _SW, x, y, side=side)
        for side, y in ((0, size - depth), (1, depth))
        for i, x in enumerate((4, c, size - 4))
    )


# The objectives of each two-player mode on a board of ``size`` (centre ``c``, deployment zones
# ``depth`` deep).
_TWO_PLAYER_SPOTS: dict[str, SpotsMaker] = {
    "deathmatch": lambda size, c, depth: (Spot("A", _FP, 4, c), Spot("B", _FP, size - 4, c)),
    "conquest": lambda size, c, depth: (
        Spot("A", _SW, 4, c),
        Spot("B", _SW, size - 4, c),
        Spot("C", _SW, c, depth + 4),
        Spot("D", _SW, c, size - depth - 4),
    ),
    "flag-rush": lambda size, c, depth: (Spot("F", ObjectiveKind.FLAG, c, c),),
    "onslaught": lambda size, c, depth: (
        Spot("K1", ObjectiveKind.CORE, size - 4, c + 8, side=0),
        Spot("K2", ObjectiveKind.CORE, 4, c - 8, side=1),
        Spot("A", _SW, 8, c),
        Spot("B", _SW, size - 8, c),
    ),
    "king-of-the-hill": lambda size, c, depth: (
        Spot("A", _FP, 4, c),
        Spot("B", _FP, size - 4, c),
        Spot("H", ObjectiveKind.KING_ZONE, c, c, radius=4),
    ),
    "breakthrough": _breakthrough_spots,
    "domination": lambda size, c, depth: (
        Spot("A", _SW, 6, c),
        Spot("B", _SW, c, c),
        Spot("C", _SW, size - 6, c),
    ),
    "double-domination": lambda size, c, depth: (
        Spot("A", _SW, 6, c + 6),
        Spot("B", _SW, size - 6, c - 6),
    ),
    "capture-the-flag": lambda size, c, depth: (
        Spot("F1", ObjectiveKind.FLAG, c, c + 8, side=0),
        Spot("F2", ObjectiveKind.FLAG, c, c - 8, side=1),
    ),
}


def _layout(mode: Mode, players: int, game_size: int) -> Layout:
    if not mode.min_players <= players <= mode.max_players:
        raise RuleViolation(
            "mode_players",
            f"{mode.name} is played by {mode.players_label} players, not {players}.",
        )
    size = board_size(players, game_size)
    if players > 2:
        return _multiplayer_layout(mode, players, size)
    depth = 10 if size == 36 else 4
    half = 18 if size == 36 else 12
    if mode.diagonal:
        zones = (
            Zone(0, size - half, size - depth, half, depth),
            Zone(1, 0, 0, half, depth),
        )
    else:
        zones = (Zone(0, 0, size - depth, size, depth), Zone(1, 0, 0, size, depth))
    maker = _TWO_PLAYER_SPOTS.get(mode.slug)
    spots = maker(size, size / 2, depth) if maker is not None else ()
    return Layout(size=size, zones=zones, spots=spots)


def _multiplayer_zones(players: int, size: int) -> tuple[Zone, ...]:
    depth, width = 10, 18
    mid = (size - width) / 2
    edges = {
        "bottom": Zone(0, mid, size - depth, width, depth),
        "left": Zone(0, 0, mid, depth, width),
        "top": Zone(0, mid, 0, width, depth),
        "right": Zone(0, size - depth, mid, depth, width),
    }
    order = ("bottom", "left", "top", "right") if players == 4 else ("bottom", "left", "right")
    return tuple(
        Zone(i, edges[e].x, edges[e].y, edges[e].width, edges[e].height)
        for i, e in enumerate(order)
    )


def _multiplayer_layout(mode: Mode, players: int, size: int) -> Layout:
    zones = _multiplayer_zones(players, size)
    c = size / 2
    # Points I opposite the zones, point II in the centre (schematic; see the module docstring).
    points_i: tuple[tuple[float, float], ...]
    if players == 4:
        points_i = ((9.0, 9.0), (27.0, 9.0), (27.0, 27.0), (9.0, 27.0))
    else:
        points_i = ((c, 9.0), (27.0, 24.0), (9.0, 24.0))
    fp, sw = ObjectiveKind.FOCAL_POINT, ObjectiveKind.SWITCH
    spots: list[Spot] = []
    kind_on_i = {
        "mp-deathmatch": fp,
        "mp-conquest": sw,
        "mp-domination": sw,
        "mp-flag-rush": sw,
    }.get(mode.slug)
    if kind_on_i is not None:
        spots += [
            Spot(f"I{n + 1}", kind_on_i, x, y, label="I") for n, (x, y) in enumerate(points_i)
        ]
    if mode.slug == "mp-domination":
        spots.append(Spot("II", sw, c, c, label="II"))
    if mode.slug == "mp-king-of-the-hill":
        spots.append(Spot("II", ObjectiveKind.KING_ZONE, c, c, label="II", radius=4))
    if mode.slug == "mp-flag-rush":
        spots += [
            Spot(f"F{zone.player + 1}", ObjectiveKind.FLAG, *zone.centre, side=zone.player)
            for zone in zones
        ]
    return Layout(size=size, zones=zones, spots=tuple(spots), schematic=True)


def flag_rush_targets(layout: Layout, player: int) -> tuple[str, ...]:
    """The switch(es) farthest from a player's zone: where its own flag scores (3-4 players)."""
    zone = next(zone for zone in layout.zones if zone.player == player)
    zx, zy = zone.centre
    switches = [spot for spot in layout.spots if spot.kind is ObjectiveKind.SWITCH]
    distances = {spot.id: math.dist((zx, zy), (spot.x, spot.y)) for spot in switches}
    ranked = sorted(distances, key=lambda spot_id: -distances[spot_id])
    wanted = 2 if len(layout.zones) == 4 else 1
    return tuple(ranked[:wanted])
