"""Every page that takes a POST refuses one without the CSRF token (403, before the view
runs), and the tracker's command form, filled with generated fields, answers with the tracker
(200, or 422 for a refusal that changed nothing), never a 500."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apps.common.text_input import bad_text
from apps.matches.models import MatchEvent
from tests.accounts.factories import UserFactory
from tests.robustness.test_match_commands import _open, _to_round_one

pytestmark = pytest.mark.django_db

PAGE_APPS = ("accounts", "rosters", "matches", "leagues", "cards", "scenarios", "catalog")
DUMMY = {"key": "abc123", "slug": "x", "system_slug": "deathmatch", "token": "t0k3n"}


def _page_urls() -> list[str]:
    """Every page URL of the apps, with placeholder values for its parameters."""
    urls: list[str] = []

    def walk(patterns: list[Any], namespace: str) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, pattern.namespace or namespace)
            elif isinstance(pattern, URLPattern) and namespace in PAGE_APPS and pattern.name:
                names = pattern.pattern.regex.groupindex
                kwargs = {name: DUMMY.get(name, 1) for name in names}
                urls.append(reverse(f"{namespace}:{pattern.name}", kwargs=kwargs))

    walk(get_resolver().url_patterns, "")
    return sorted(set(urls))


def test_the_sweep_finds_the_pages() -> None:
    urls = _page_urls()
    assert "/rosters/import/" in urls
    assert any(url.endswith("/command/") for url in urls)
    assert any(url.endswith("/report/") for url in urls)


@pytest.mark.parametrize("htmx", [False, True])
def test_every_page_post_without_csrf_token_is_403(htmx) -> None:
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(UserFactory())
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    allowed = []
    for url in _page_urls():
        response = strict.post(url, {"name": "x", "command": "undo"}, **headers)
        if response.status_code != 403:
            allowed.append((url, response.status_code))
    # Logging in and out, and the language switch, are the only forms that may skip the token
    # check if Django exempts them; nothing here does.
    assert allowed == []


FIELD_NAMES = st.one_of(
    st.sampled_from(
        [
            "args.unit:int",
            "args.player:int",
            "args.weapon:int",
            "args.units:ints",
            "args.targets.0.unit:int",
            "args.targets.0.cover",
            "args.targets.1._on",
            "args.focal_points.A:int-or-null",
            "args.confirm_flips:bool",
            "args.action",
            "args.mission",
            "args.x:float",
            "args..y",
            "args.a.b.c.d.e",
            "args.targets.²:int",
            "expected_seq",
            "selected",
        ]
    ),
    st.text(max_size=20).map(lambda text: f"args.{text}"),
)
FIELD_VALUES = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["0", "1", "-1", "²", "9" * 5000, "true", "", "1.5", "strike", "none"]),
)


@pytest.mark.parametrize("system", ["deathmatch", "grundregeln", "universalis"])
@pytest.mark.usefixtures("catalogue")
def test_generated_tracker_forms_answer_with_the_tracker(system) -> None:
    anna, ben = UserFactory(), UserFactory()
    match = _open(system, anna, ben)
    _to_round_one(system, match, anna, ben)
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    browser.force_login(anna)
    url = reverse("matches:command", args=[match.pk])
    commands = ["activate", "declare", "pick", "pass", "ranged_attack", "move", "end_phase"]
    rng = random.Random(1)

    @settings(
        max_examples=40,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(
        command=st.one_of(st.sampled_from(commands), st.text(max_size=10)),
        fields=st.dictionaries(FIELD_NAMES, FIELD_VALUES, max_size=6),
        htmx=st.booleans(),
    )
    def check(command: str, fields: dict[str, str], htmx: bool) -> None:
        before = MatchEvent.objects.filter(match=match).count()
        headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        data = {
            "command": command,
            "expected_seq": str(match.seq),
            "idempotency_key": str(rng.random()),
            **fields,
        }
        response = browser.post(url, data, **headers)
        if any(bad_text(text) for pair in data.items() for text in pair):
            # A NUL or lone surrogate is refused at the door (apps.common.text_input).
            assert response.status_code == 400, (data, response.status_code)
            assert MatchEvent.objects.filter(match=match).count() == before
            return
        assert response.status_code in (200, 302, 400, 409, 422), (data, response.status_code)
        if response.status_code in (400, 409, 422):
            assert MatchEvent.objects.filter(match=match).count() == before

    check()


QUERY_NAMES = st.sampled_from(
    ["unit", "seat", "wizard", "weapon", "target", "cover", "mod", "rear", "spectate", "x"]
)
QUERY_VALUES = st.one_of(
    FIELD_VALUES,
    st.sampled_from(["ranged", "melee", "charge", "disengage", "strike", "shoot", "hard"]),
)


@pytest.mark.parametrize("system", ["deathmatch", "grundregeln", "universalis"])
@pytest.mark.usefixtures("catalogue")
def test_generated_tracker_queries_render_the_tracker(system) -> None:
    anna, ben = UserFactory(), UserFactory()
    match = _open(system, anna, ben)
    _to_round_one(system, match, anna, ben)
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    browser.force_login(anna)
    url = reverse("matches:tracker", args=[match.pk])

    @settings(
        max_examples=40,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(query=st.dictionaries(QUERY_NAMES, QUERY_VALUES, max_size=5), htmx=st.booleans())
    def check(query: dict[str, str], htmx: bool) -> None:
        headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        response = browser.get(url, query, **headers)
        assert response.status_code == 200, (query, response.status_code)

    check()
