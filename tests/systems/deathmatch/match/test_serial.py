"""Attacks load from JSON in the current form, and the form stored before ``queued_hits``
(schema version 1) is brought forward by the upgrade functions (state is rebuilt from stored
events, so old matches must stay replayable)."""

from __future__ import annotations

import json

import pytest
from cattrs.errors import ClassValidationError

from apps.systems.core.match import Event, replay
from apps.systems.deathmatch.match.engine import DeathmatchEngine
from apps.systems.deathmatch.match.serial import dump, load
from apps.systems.deathmatch.match.state import Attack, AttackKind, Target
from tests.systems.deathmatch.match.helpers import Game, setup
from tests.systems.deathmatch.match.version_2 import v2_event_data, v2_snapshot


def auto_attack(**fields: object) -> Attack:
    target = Target(unit=3, reflex=0, attack_value=0, auto_hit=True, strength=4)
    return Attack(
        kind=AttackKind.AUTO,
        player=1,
        attacker=None,
        weapon=None,
        weapon_index=None,
        targets=(target,),
        cause="fall",
        credit=(1,),
        **fields,  # type: ignore[arg-type]
    )


def test_queued_hits_round_trip() -> None:
    attack = auto_attack(queued_hits=(("dangerous_terrain", 2),), then="charge")
    assert load(dump(attack), Attack) == attack


@pytest.mark.parametrize(
    ("old_then", "queued", "then"),
    [
        ("auto:dangerous_terrain:2:charge", (("dangerous_terrain", 2),), "charge"),
        ("auto:dangerous_terrain:2", (("dangerous_terrain", 2),), ""),
        ("end_activation", (), "end_activation"),
        ("", (), ""),
    ],
)
def test_a_version_1_attack_with_the_queued_hit_in_then_is_upgraded(
    old_then: str, queued: tuple[tuple[str, int], ...], then: str
) -> None:
    engine = DeathmatchEngine()
    data = dump(auto_attack())
    del data["queued_hits"]
    data["then"] = old_then
    event = engine.upgrade_event(Event("attack_declared", {"attack": data}), 1)
    attack = load(event.data["attack"], Attack)
    assert (attack.queued_hits, attack.then) == (queued, then)
    snapshot = engine.upgrade_state({"attack": data, "charge": None}, 1)
    assert load(snapshot["attack"], Attack) == attack


def test_an_old_attack_is_not_read_without_its_upgrade() -> None:
    data = dump(auto_attack())
    del data["queued_hits"]
    data["then"] = "auto:fall:3"
    with pytest.raises(ClassValidationError):
        load(data, Attack)


def test_an_attack_with_unknown_fields_or_continuation_is_refused() -> None:
    data = dump(auto_attack())
    with pytest.raises(ClassValidationError):
        load({**data, "bogus": 1}, Attack)
    with pytest.raises(ClassValidationError):
        load({**data, "then": "somewhere"}, Attack)


def test_a_version_2_log_and_snapshot_replay_to_the_state_they_recorded() -> None:
    # Schema version 3 (SPEC §6 rulings) added standing modifiers, the round a station was
    # used in and ``gadget_used.round``. A version-2 match keeps its outcome: a station used
    # then counts as used in no known round.
    game = Game(setup("flag-rush", gadgets=True))
    game.do("choose_gadget", player=0, option=1)
    game.do("choose_gadget", player=1, option=7)
    game.to_round_one()
    game.do("adjust", unit=0, lp=2)
    game.activate(0)
    game.do("touch_gadget", unit=0, gadget="G1")
    engine = DeathmatchEngine()
    stored = [Event(e.type, json.loads(json.dumps(v2_event_data(e)))) for e in game.events]
    events = [engine.upgrade_event(event, 2) for event in stored]
    recorded = v2_snapshot(json.loads(json.dumps(engine.dump_state(game.state))))
    upgraded = engine.upgrade_state(recorded, 2)
    replayed = replay(engine, events)
    assert engine.dump_state(replayed) == upgraded
    assert engine.dump_state(engine.load_state(upgraded)) == upgraded
    assert replayed.gadgets[0].used_round == 0 and replayed.units[0].lp == game.unit(0).lp
