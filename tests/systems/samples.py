"""Sample matches of every registered engine over the shipped (sample) catalogues, for the tests
that play every engine alike: the random-play test and the golden logs.

A new rule system adds its builder to ``SAMPLE_MATCHES``; the random-play test fails for an
engine without one."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from apps.systems.core.registry import registry
from apps.systems.core.rosters import (
    CatalogData,
    CatalogEntry,
    EntryInput,
    RosterInput,
    UnitInput,
)

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def shipped(slug: str) -> tuple[CatalogData, list[dict[str, Any]]]:
    """The shipped catalogue of ``slug`` as the Django layer hands it to a system, and its
    missions (``fixtures/<slug>/*.json``)."""
    factions: dict[str, str] = {}
    profiles: dict[str, CatalogEntry] = {}
    items: dict[str, CatalogEntry] = {}
    missions: list[dict[str, Any]] = []
    for path in sorted((FIXTURES / slug).glob("*.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        factions |= {f["slug"]: f["name"] for f in document.get("factions", ())}
        for p in document.get("profiles", ()):
            profiles[p["slug"]] = CatalogEntry(
                p["slug"], p["name"], p["stats"], sample=True, factions=tuple(p["factions"])
            )
        for i in document.get("items", ()):
            items[i["slug"]] = CatalogEntry(
                i["slug"], i["name"], i["stats"], sample=True, kind=i["kind"], cost=i["cost"]
            )
        missions += [
            {"slug": m["slug"], "name": m["name"], "data": m.get("data", {})}
            for m in document.get("missions", ())
        ]
    return CatalogData(factions, profiles, items), missions


def team(
    slug: str,
    faction: str,
    entries: Sequence[tuple[str, Sequence[str]] | tuple[str, Sequence[str], int]],
    settings: Mapping[str, object] | None = None,
) -> dict[str, Any]:
    """A team as the engine's ``team_setup`` makes it from a roster of ``entries`` (profile,
    items[, the entry it is attached to])."""
    catalog, _missions = shipped(slug)
    roster = RosterInput(
        faction=faction,
        settings=settings or {},
        entries=tuple(
            EntryInput(profile=e[0], items=tuple(e[1]), attach_to=e[2] if len(e) > 2 else None)
            for e in entries
        ),
    )
    engine = registry().get(slug).matches
    assert engine is not None
    return engine.team_setup(roster, catalog)


DEATHMATCH_TEAMS = (
    (
        "phalanx",
        (
            ("phalanx-hauptmann-brandt", ("splittergranaten",)),
            ("phalanx-schildtraeger", ()),
            ("phalanx-grenadier", ()),
        ),
    ),
    (
        "shelzahav",
        (
            ("shelzahav-emirin-sahar-vel", ("kampfstimulanzien",)),
            ("shelzahav-duenenlaeufer", ()),
            ("shelzahav-feuerpriester", ()),
        ),
    ),
    (
        "organon",
        (
            ("organon-direktorin-ilva-syn", ("medkit",)),
            ("organon-argus-geschuetzturm", ()),
            ("organon-atalante-klon", ()),
        ),
    ),
    (
        "anaimaktos",
        (
            ("anaimaktos-vorax-kaltklinge", ("zweite-pistole",)),
            ("anaimaktos-giftmischer", ()),
            ("anaimaktos-saeurewerfer", ()),
        ),
    ),
)


def deathmatch(seed: int) -> dict[str, Any]:
    """Two teams in one of the two-player modes, or three or four in a multiplayer one; with
    gadgets every other seed."""
    modes = [m["slug"] for m in shipped("deathmatch")[1]]
    mode = modes[seed * 4 % len(modes)]
    from apps.systems.deathmatch.match.modes import mode_by_slug

    players = mode_by_slug(mode).min_players
    return {
        "mode": mode,
        "game_size": 3,
        "gadgets": seed % 2 == 0,
        "players": [
            {"name": f"P{index}", **team("deathmatch", faction, entries, {"game_size": 3})}
            for index, (faction, entries) in enumerate(DEATHMATCH_TEAMS[:players])
        ],
    }


def grundregeln(seed: int) -> dict[str, Any]:
    catalog, missions = shipped("grundregeln")
    sides = []
    for faction in ("eisenfaust", "moorvolk"):
        slugs = [s for s, p in catalog.profiles.items() if faction in p.factions][:4]
        sides.append(team("grundregeln", faction, [(slug, ()) for slug in slugs]))
    return {
        "mode": missions[seed % len(missions)]["slug"],
        "missions": missions,
        "players": [
            {"name": name, **side} for name, side in zip(("Anna", "Ben"), sides, strict=True)
        ],
    }


def universalis(seed: int) -> dict[str, Any]:
    eisen = team(
        "universalis",
        "eisenwacht",
        [
            ("eisenwacht-hauptfrau-vela-korr", ()),
            ("eisenwacht-wachsoldat", ()),
            ("eisenwacht-drohnenfuehrer", ()),
            ("eisenwacht-spaeherdrohne", (), 2),
            ("eisenwacht-belagerungskoloss", ()),
        ],
    )
    nebel = team(
        "universalis",
        "nebelzirkel",
        [
            (
                "nebelzirkel-zirkelmeisterin-ysra",
                ("nebelmagie-geisterhand", "nebelmagie-nebelschleier"),
            ),
            ("nebelzirkel-schattenlaeufer", ()),
            ("nebelzirkel-kultist", ()),
            ("nebelzirkel-flammenpriester", ("feuermagie-feuerball",)),
            ("nebelzirkel-steinkoloss", ()),
        ],
    )
    missions = [m["slug"] for m in shipped("universalis")[1]]
    return {
        "mode": "secret" if seed % 2 == 0 else missions[seed % len(missions)],
        "max_rounds": 4,
        "players": [{"name": "Anna", **eisen}, {"name": "Ben", **nebel}],
    }


BUNKERS_ARMIES = (
    (
        UnitInput("Sample Captain", 1, 100, 5, ("character",), 5, "round:40"),
        UnitInput("Sample Intercessors", 5, 100, 5, ("infantry",), 2, "round:32"),
        UnitInput(
            "Sample Assault Squad", 5, 90, 5, ("infantry",), 2, "round:32", False, True, True
        ),
        UnitInput("Sample Dreadnought", 1, 150, 8, ("vehicle", "walker"), 8, "round:60", True),
    ),
    (
        UnitInput("Sample Warboss", 1, 90, 5, ("character",), 6, "round:40"),
        UnitInput("Sample Boyz", 10, 90, 5, ("infantry",), 1, "round:32"),
        UnitInput("Sample Stormboyz", 5, 70, 4, ("infantry",), 1, "round:32", False, True, True),
    ),
)


def bunkers(seed: int) -> dict[str, Any]:
    """Two invented 40K armies (the product ships no 40K data) in one of the three missions,
    on a board of one level (even seeds) or two (odd seeds), over a short game so that random
    play reaches its end."""
    catalog = CatalogData({}, {}, {})
    engine = registry().get("bunkers").matches
    assert engine is not None
    scales = ("points", "power")
    teams = [
        engine.team_setup(
            RosterInput(
                faction="",
                settings={"scale": scales[(seed + index) % 2]},
                entries=(),
                units=units,
            ),
            catalog,
        )
        for index, units in enumerate(BUNKERS_ARMIES)
    ]
    missions = [value for value, _label in engine.mode_choices()]
    return {
        "mode": missions[seed % len(missions)],
        "rounds": 2,
        "levels": 1 + seed % 2,  # one level and two levels, 50:50 deployment, in turn
        "players": [{"name": name, **t} for name, t in zip(("Anna", "Ben"), teams, strict=True)],
    }


STAHLGEWITTER_ARMIES = (
    (
        "sek",
        (
            EntryInput(
                "sek-offizier", ("sturmgewehre", "kampfsport", "motion-scanner"), "Kommando"
            ),
            EntryInput("sek-soldat", ("maschinenpistolen", "fahne"), "", 1, 0),
            EntryInput("sek-soldat", ("gewehre", "bajonette"), "", 2, 0),
            EntryInput("sek-unteroffizier", ("maschinengewehre", "messer"), "Feuertrupp"),
            EntryInput("sek-soldat-v", ("dehydratorgewehre", "sanitaeter"), "", 1, 3),
        ),
    ),
    (
        "legion-666",
        (
            EntryInput("legion-666-offizier", ("plasmapistolen", "schwerter"), "Offizier"),
            EntryInput("legion-666-unteroffizier", ("bolzenpistolen", "kettensaegen"), "Kultisten"),
            EntryInput("legion-666-kultist", ("messer", "keulen"), "", 3, 1),
            EntryInput("legion-666-soldat", ("gewehre", "schallgewehre", "morphin"), "Trupp"),
            EntryInput("legion-666-soldat", ("flammenwerfer", "kontaktstunner", "khirf"), "", 1, 3),
        ),
    ),
)


def stahlgewitter(seed: int) -> dict[str, Any]:
    """SEK against Legion 666 (units of a head entry and the entries attached to it), a free
    game or a scenario, with the optional start roll rule every other seed, over two rounds so
    that random play reaches its end."""
    catalog, _missions = shipped("stahlgewitter")
    engine = registry().get("stahlgewitter").matches
    assert engine is not None
    teams = [
        engine.team_setup(RosterInput(faction, {}, entries), catalog)
        for faction, entries in STAHLGEWITTER_ARMIES
    ]
    return {
        "mode": ("free", "scenario")[seed % 2],
        "rounds": 2,
        "start_wik": seed % 3 == 0,
        "players": [{"name": name, **t} for name, t in zip(("Anna", "Ben"), teams, strict=True)],
    }


SAMPLE_MATCHES: dict[str, Callable[[int], dict[str, Any]]] = {
    "bunkers": bunkers,
    "deathmatch": deathmatch,
    "grundregeln": grundregeln,
    "stahlgewitter": stahlgewitter,
    "universalis": universalis,
}
