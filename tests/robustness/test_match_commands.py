"""Malformed commands against the API, for every system with a match tracker.

Arguments are generated from each system's own command list (``GET /api/v1/systems/<slug>/
commands/``): every argument gets values of its type and of every other JSON type (null, text
for numbers, lists for objects, huge and negative numbers, unknown ids). Whatever comes in, the
answer is a 200 that appended events whose replay equals the snapshot, or a 4xx
``{"code", "message"}`` with the log and the state exactly as they were.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from apps.catalog.models import GameSystem
from apps.matches import services
from apps.matches.models import Match, MatchEvent
from apps.matches.selectors import engine_for
from apps.systems.core.errors import RuleViolation
from tests.accounts.factories import UserFactory
from tests.matches.factories import roster_for, small_team
from tests.matches.grundregeln import grund_roster
from tests.matches.test_universalis import roster as universalis_roster

pytestmark = pytest.mark.django_db

SYSTEMS = ["deathmatch", "grundregeln", "universalis"]
FUZZ = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# --- Generating JSON ---------------------------------------------------------------------------

HUGE = st.sampled_from([2**31, 2**63, 10**30, -(2**63), -(10**30)])
SCALAR = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 20),
    HUGE,
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.sampled_from(["", "0", "1", "-1", "true", "null", "none", "cover", "hard", "move", "a"]),
)
JSON = st.recursive(
    SCALAR,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
TARGET = st.dictionaries(
    st.sampled_from(["unit", "cover", "rear", "warning", "hits", "interferers", "x", "target"]),
    JSON,
    max_size=5,
)
WELL_TYPED = {
    "int": st.one_of(st.integers(-3, 15), HUGE),
    "bool": st.booleans(),
    "str": st.one_of(st.text(max_size=20), st.text(min_size=201, max_size=260)),
    "list": st.lists(st.one_of(st.integers(-3, 15), TARGET, JSON), max_size=5),
    "object": st.dictionaries(st.text(max_size=6), JSON, max_size=5),
}


@st.composite
def command_bodies(draw: st.DrawFn, specs: list[dict[str, Any]]) -> dict[str, Any]:
    """A command body: a known type (mostly) with args of the right or of any JSON type."""
    known = [spec["type"] for spec in specs]
    kind = draw(st.one_of(st.sampled_from(known), st.text(max_size=12)))
    spec = next((s for s in specs if s["type"] == kind), {"args": []})
    args: dict[str, Any] = {}
    for arg in spec["args"]:
        if arg["required"] or draw(st.booleans()):
            strategy = WELL_TYPED.get(arg["type"], JSON)
            args[arg["name"]] = draw(st.one_of(strategy, JSON) if draw(st.booleans()) else strategy)
    args.update(
        draw(st.dictionaries(st.sampled_from(["bogus", "unit", "player"]), JSON, max_size=1))
    )
    body: dict[str, Any] = {"type": kind, "args": args}
    if draw(st.integers(0, 9)) == 0:
        body["args"] = draw(JSON)
    return body


# --- Matches in several phases -----------------------------------------------------------------


def _open(system: str, anna: Any, ben: Any) -> Match:
    game = GameSystem.objects.get(slug=system)
    if system == "deathmatch":
        seats = [roster_for(anna, small_team("phalanx")), roster_for(ben, small_team("shelzahav"))]
        mode, settings_ = "last-man-standing", {"game_size": 3, "gadgets": False}
    elif system == "grundregeln":
        seats = [grund_roster(anna, "eisenfaust"), grund_roster(ben, "moorvolk")]
        mode, settings_ = "die-wachhunde", {}
    else:
        seats = [universalis_roster(anna, "eisenwacht"), universalis_roster(ben, "nebelzirkel")]
        mode, settings_ = "secret", {"max_rounds": 6}
    match = services.match_create(
        creator=anna,
        system=game,
        mode=mode,
        seats=[services.Seat("Anna", seats[0]), services.Seat("Ben", seats[1])],
        settings=settings_,
        rng=random.Random(5),
    )
    # Ben's team comes from his share link: he takes its seat before he sends commands for it.
    return services.match_take_seat(user=ben, match_id=match.pk, index=1)


def _do(match: Match, user: Any, command: str, **args: Any) -> bool:
    try:
        services.match_apply_command(
            user=user,
            match_id=match.pk,
            command_type=command,
            args=args,
            expected_seq=None,
            idempotency_key=None,
            rng=random.Random(11),
        )
    except RuleViolation:
        return False
    return True


def _to_round_one(system: str, match: Match, anna: Any, ben: Any) -> None:
    """Play the setup with plain legal commands (the first player who may start starts)."""
    if system == "deathmatch":
        assert _do(match, anna, "deployment_flip")
        match.refresh_from_db()
        assert _do(match, anna, "choose_first_deployer", player=match.state["deployment_chooser"])
        assert _do(match, anna, "start_game")
        assert _do(match, anna, "flip_initiative")
        # Open flips are accepted (ties flip again) until the winner names who starts.
        for _step in range(12):
            if _do(match, anna, "choose_starter", player=0):
                break
            if not _do(match, anna, "accept"):
                _do(match, anna, "flip_initiative")
    elif system == "grundregeln":
        assert _do(match, anna, "roll_round_start")
        assert _do(match, anna, "choose_starter", player=0) or _do(
            match, anna, "choose_starter", player=1
        )
    else:
        assert _do(match, anna, "choose_mission", player=0, mission="vernichtung")
        assert _do(match, ben, "choose_mission", player=1, mission="kopfjagd")
        assert _do(match, anna, "roll_deployment")
        assert _do(match, anna, "start_game")
    match.refresh_from_db()
    assert match.status == "live"


def _finish(system: str, match: Match, anna: Any, ben: Any) -> None:
    if system == "deathmatch":
        # Last Man Standing ends when a team has no model left: knock out Ben's three.
        state = engine_for(match).load_state(match.state)
        for unit in [u for u in state.units if u.player == 1]:
            for _attempt in range(12):
                match.refresh_from_db()
                if match.status == "finished":
                    break
                # Each hit flips for the wound; the open flip is accepted before the next.
                if not _do(match, anna, "auto_hit", unit=unit.id, strength=20):
                    _do(match, anna, "accept")
    elif system == "grundregeln":
        # Only the seat's own user concedes for it: Ben gives up his own seat.
        assert _do(match, ben, "concede", player=1)
    else:
        _universalis_to_round_end(match, anna, ben)
        assert _do(match, ben, "surrender", player=1)
    match.refresh_from_db()
    assert match.status == "finished"


def _universalis_to_round_end(match: Match, anna: Any, ben: Any) -> None:
    """Both players pick and end their models' phases until the round is over."""
    rng = random.Random(3)
    for _step in range(400):
        match.refresh_from_db()
        if match.state.get("phase") == "round_end":
            return
        unit = rng.randrange(7)
        command, args = rng.choice(
            [
                ("pick", {"player": rng.randrange(2), "unit": unit}),
                ("activate", {"unit": unit}),
                ("end_phase", {"unit": unit}),
                ("end_phase", {}),
                ("skip_panic_test", {"unit": unit}),
            ]
        )
        _do(match, ben if args.get("player") == 1 else anna, command, **args)
    raise AssertionError(f"no round end: {match.state.get('phase')}")


# --- The property -------------------------------------------------------------------------------


def _snapshot(match: Match) -> tuple[int, int, Any]:
    match.refresh_from_db()
    return match.seq, MatchEvent.objects.filter(match=match).count(), match.state


def _check(client: APIClient, match: Match, body: Any) -> None:
    before = _snapshot(match)
    response = client.post(f"/api/v1/matches/{match.pk}/commands/", body, format="json")
    assert response.status_code < 500, (body, response.content[:500])
    if response.status_code == 200:
        match.refresh_from_db()
        assert match.seq > before[0]
        # Through JSON: a dump may hold tuples where the stored snapshot has lists.
        rebuilt = engine_for(match).dump_state(services.match_rebuilt_state(match))
        assert json.loads(json.dumps(rebuilt)) == match.state
        return
    assert 400 <= response.status_code < 500, (body, response.status_code)
    error = response.json()
    assert isinstance(error.get("code"), str) and error["code"], (body, error)
    assert isinstance(error.get("message"), str) and error["message"], (body, error)
    assert _snapshot(match) == before, body


@pytest.fixture
def players(catalogue: None) -> tuple[Any, Any]:
    return UserFactory(), UserFactory()


def _client(user: Any) -> APIClient:
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    client.force_authenticate(user)
    return client


def _specs(client: APIClient, system: str) -> list[dict[str, Any]]:
    response = client.get(f"/api/v1/systems/{system}/commands/")
    assert response.status_code == 200
    return [spec for spec in response.json() if spec["type"] != "undo"]


@pytest.mark.parametrize("phase", ["setup", "round_one", "finished"])
@pytest.mark.parametrize("system", SYSTEMS)
def test_generated_commands_are_applied_or_refused_cleanly(players, system, phase) -> None:
    anna, ben = players
    match = _open(system, anna, ben)
    if phase != "setup":
        _to_round_one(system, match, anna, ben)
    if phase == "finished":
        _finish(system, match, anna, ben)
    client = _client(anna)
    specs = _specs(client, system)

    @FUZZ
    @given(body=command_bodies(specs))
    def check(body: dict[str, Any]) -> None:
        _check(client, match, body)

    check()


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_command_of_a_finished_match_is_refused(players, system) -> None:
    anna, ben = players
    match = _open(system, anna, ben)
    _to_round_one(system, match, anna, ben)
    _finish(system, match, anna, ben)
    client = _client(anna)
    for spec in _specs(client, system):
        args = {arg["name"]: 0 if arg["type"] == "int" else "x" for arg in spec["args"]}
        before = _snapshot(match)
        response = client.post(
            f"/api/v1/matches/{match.pk}/commands/",
            {"type": spec["type"], "args": args},
            format="json",
        )
        assert response.status_code in (400, 403), (spec["type"], response.content)
        assert response.json()["code"] in ("game_over", "private_command"), spec["type"]
        assert _snapshot(match) == before


BAD_BODIES = [
    {},
    {"args": {}},
    {"type": None},
    {"type": ""},
    {"type": 5},
    {"type": ["pass"]},
    {"type": {"name": "pass"}},
    {"type": "x" * 41},
    {"type": "no_such_command"},
    {"type": "undo", "args": []},
    {"type": "undo", "args": None},
    {"type": "undo", "args": "x"},
    {"type": "undo", "expected_seq": -1},
    {"type": "undo", "expected_seq": "1"},
    {"type": "undo", "expected_seq": [1]},
    {"type": "undo", "idempotency_key": {"a": 1}},
    {"type": "undo", "idempotency_key": "k" * 81},
    [],
    ["undo"],
    "undo",
    None,
    5,
]


@pytest.mark.parametrize("body", BAD_BODIES, ids=repr)
@pytest.mark.parametrize("system", SYSTEMS)
def test_malformed_command_bodies_are_refused(players, system, body) -> None:
    anna, ben = players
    match = _open(system, anna, ben)
    client = _client(anna)
    before = _snapshot(match)
    response = client.post(f"/api/v1/matches/{match.pk}/commands/", body, format="json")
    assert response.status_code == 400, response.content
    assert set(response.json()) >= {"code", "message"}
    assert _snapshot(match) == before


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_stale_expected_seq_is_a_409_and_stores_nothing(players, system) -> None:
    anna, ben = players
    match = _open(system, anna, ben)
    _to_round_one(system, match, anna, ben)
    client = _client(anna)
    before = _snapshot(match)
    for seq in (0, before[0] - 1, before[0] + 1, 2**62):
        response = client.post(
            f"/api/v1/matches/{match.pk}/commands/",
            {"type": "undo", "expected_seq": seq},
            format="json",
        )
        assert response.status_code == 409
        assert response.json()["code"] == "stale"
        assert response.json()["seq"] == before[0]
    assert _snapshot(match) == before


@pytest.mark.parametrize("system", SYSTEMS)
def test_strangers_and_anonymous_callers_cannot_command(players, system) -> None:
    anna, ben = players
    match = _open(system, anna, ben)
    before = _snapshot(match)
    url = f"/api/v1/matches/{match.pk}/commands/"
    stranger = _client(UserFactory()).post(url, {"type": "undo"}, format="json")
    assert stranger.status_code == 404
    assert stranger.json()["code"] == "not_found"
    anonymous = APIClient().post(url, {"type": "undo"}, format="json")
    assert anonymous.status_code in (401, 403)
    assert set(anonymous.json()) >= {"code", "message"}
    missing = _client(anna).post(
        "/api/v1/matches/999999/commands/", {"type": "undo"}, format="json"
    )
    assert missing.status_code == 404
    assert _snapshot(match) == before


def _foreign_unit_commands(system: str, state: Any) -> list[tuple[str, dict[str, Any]]]:
    """Commands naming a model of the team not on turn (or one that does not exist), sent by
    the player on turn's side."""
    if system == "deathmatch":
        foreign = [u.id for u in state.units if u.player != state.turn]
        return [("activate", {"unit": unit}) for unit in [*foreign, len(state.units), 10**6, -1]]
    if system == "grundregeln":
        foreign = [m.id for m in state.models if m.side is not None and m.side != state.turn]
        own = next(m.id for m in state.models if m.side == state.turn)
        return [
            ("declare", {"unit": unit, "action": "strike", "target": own})
            for unit in [*foreign, len(state.models), 10**6, -1]
        ]
    # Universalis: both pick in secret; Anna (seat 0) names one of Ben's models.
    foreign = [u.id for u in state.units if u.player != 0]
    return [
        ("pick", {"player": 0, "unit": unit}) for unit in [*foreign, len(state.units), 10**6, -1]
    ]


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_other_teams_models_and_unknown_ids_are_refused(players, system) -> None:
    anna, ben = players
    match = _open(system, anna, ben)
    _to_round_one(system, match, anna, ben)
    state = engine_for(match).load_state(match.state)
    client = _client(anna)
    for command, args in _foreign_unit_commands(system, state):
        before = _snapshot(match)
        response = client.post(
            f"/api/v1/matches/{match.pk}/commands/", {"type": command, "args": args}, format="json"
        )
        assert response.status_code == 400, (args, response.content)
        assert set(response.json()) >= {"code", "message"}
        assert _snapshot(match) == before


ATTACKS = ["ranged_attack", "melee_attack", "charge", "disengage", "react", "move", "aim"]


def test_deathmatch_attacks_with_generated_targets(players) -> None:
    """The attack commands read the richest args (a list of target objects): fuzz them with a
    model activated, where they are legal."""
    anna, ben = players
    match = _open("deathmatch", anna, ben)
    _to_round_one("deathmatch", match, anna, ben)
    state = engine_for(match).load_state(match.state)
    mine = next(u.id for u in state.units if u.player == state.turn)
    assert _do(match, anna, "activate", unit=mine)
    client = _client(anna)
    unit_ids = st.integers(-1, len(state.units))
    target = st.fixed_dictionaries(
        {"unit": st.one_of(unit_ids, JSON)},
        optional={
            "cover": st.one_of(st.sampled_from(["none", "cover", "hard"]), JSON),
            "rear": st.one_of(st.booleans(), JSON),
            "warning": st.one_of(st.booleans(), JSON),
            "target_elevated": st.one_of(st.booleans(), JSON),
            "interferers": st.one_of(st.lists(unit_ids, max_size=7), JSON),
        },
    )
    body = st.fixed_dictionaries(
        {
            "type": st.sampled_from(ATTACKS),
            "args": st.fixed_dictionaries(
                {"targets": st.one_of(st.lists(target, max_size=3), JSON)},
                optional={
                    "unit": st.one_of(unit_ids, JSON),
                    "weapon": st.one_of(st.integers(-1, 3), JSON),
                    "strikes": st.one_of(st.lists(target, max_size=2), JSON),
                    "action": st.sampled_from(["ranged", "melee", "dodge", "x"]),
                    "confirm_flips": st.one_of(st.booleans(), JSON),
                },
            ),
        }
    )

    @FUZZ
    @given(body=body)
    def check(body: dict[str, Any]) -> None:
        _check(client, match, body)

    check()
