"""Attacks load from JSON in the current form, and the form stored before ``queued_hits``
(schema version 1) is brought forward by the upgrade functions (state is rebuilt from stored
events, so old matches must stay replayable)."""

from __future__ import annotations

import pytest
from cattrs.errors import ClassValidationError

from apps.systems.core.match import Event
from apps.systems.deathmatch.match.engine import DeathmatchEngine
from apps.systems.deathmatch.match.serial import dump, load
from apps.systems.deathmatch.match.state import Attack, AttackKind, Target


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
