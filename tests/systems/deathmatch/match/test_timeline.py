"""The match log's wording where the same event reads differently by what happened: a Mech's
respawn, a Durchschlag marker used in melee."""

from __future__ import annotations

from collections.abc import Sequence

from apps.systems.core.match import Event
from tests.systems.deathmatch.match.helpers import (
    ENGINE,
    Game,
    default_team,
    profile,
    setup,
    target,
)


def text(g: Game, events: Sequence[Event], type_: str) -> str:
    (event,) = [e for e in events if e.type == type_]
    line = ENGINE.timeline(g.state, event)
    assert line is not None
    return line.text


def knock_out_unit_three(g: Game) -> list[Event]:
    g.activate(0)
    return g.do("auto_hit", unit=3, strength=20, cause="effect")


def test_a_respawn_line_names_respawn_shock_only_where_it_applies() -> None:
    g = Game(setup("flag-rush"))
    g.to_round_one()
    assert "respawn shock" in text(g, knock_out_unit_three(g), "respawned")

    # A Mech ignores respawn shock (SPEC; the unit's respawn_shock): the log does not claim it.
    mech = profile("Ben Mech", abilities=("Mech",))
    g = Game(setup("flag-rush", [default_team(0), [mech, *default_team(1)[1:]]]))
    g.to_round_one()
    line = text(g, knock_out_unit_three(g), "respawned")
    assert line == "Ben Mech respawns (markers removed; a Mech: no respawn shock)."


def test_a_durchschlag_marker_fires_with_a_shot_and_strikes_in_melee() -> None:
    for weapon, verb in ((0, "fires"), (1, "strikes")):
        g = Game(setup("flag-rush", gadgets=True))
        g.do("choose_gadget", player=0, option=5)
        g.do("choose_gadget", player=1, option=1)
        g.to_round_one()
        g.activate(0)
        g.do("touch_gadget", unit=0, gadget="G1")
        g.stack(0, [1])
        kind = "ranged_attack" if weapon == 0 else "melee_attack"
        events = g.do(kind, weapon=weapon, targets=[target(3)])
        line = text(g, events, "penetration_used")
        assert line.startswith(f"Anna Anführer {verb} with its Durchschlag marker"), line
