"""The Content-Security-Policy (django-csp) and pages that keep to it.

The policy allows scripts from this site's own files only, so a page must not depend on an
inline ``<script>`` block, an inline event handler (``onclick=`` …) or a ``javascript:`` URL:
the browser would refuse to run them. Every page a player or an organiser sees is rendered here
and checked.
"""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse

from apps.rosters import services as roster_services
from tests.matches.factories import small_match
from tests.rosters.factories import legal_standard_team

pytestmark = pytest.mark.django_db

# <script> types that hold data, never run.
DATA_SCRIPT_TYPES = {"application/json", "application/ld+json", "importmap"}


class InlineCode(HTMLParser):
    """Collects what a script-src 'self' policy blocks: inline scripts, event handler
    attributes and javascript: URLs."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._in_inline_script = False
        self._script_text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"<{tag} {name}={value!r}>")
            if name in ("href", "src", "action", "formaction") and (
                value or ""
            ).strip().lower().startswith("javascript:"):
                self.found.append(f"<{tag} {name}={value!r}>")
        if tag == "script" and not values.get("src"):
            kind = (values.get("type") or "").strip().lower()
            if kind not in DATA_SCRIPT_TYPES:
                self._in_inline_script = True
                self._script_text = ""

    def handle_data(self, data: str) -> None:
        if self._in_inline_script:
            self._script_text += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._in_inline_script:
            self._in_inline_script = False
            self.found.append(f"<script>{self._script_text.strip()[:80]}</script>")


def inline_code(html: str) -> list[str]:
    parser = InlineCode()
    parser.feed(html)
    return parser.found


def directives(header: str) -> dict[str, list[str]]:
    parsed: dict[str, list[str]] = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            parsed[words[0]] = words[1:]
    return parsed


def test_the_parser_finds_what_the_policy_blocks() -> None:
    page = (
        '<input onclick="this.select()"><script>alert(1)</script><a href="javascript:x()">'
        '<script src="/static/x.js"></script><script type="application/json">{}</script>'
    )
    assert len(inline_code(page)) == 3


def test_every_page_carries_a_strict_script_policy(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    policy = directives(response["Content-Security-Policy"])
    assert policy["script-src"] == ["'self'"]
    assert policy["default-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["base-uri"] == ["'none'"]
    assert "'unsafe-inline'" not in policy["script-src"]
    assert "'unsafe-eval'" not in policy["script-src"]
    # The API answers carry it too (a JSON answer opened in a browser tab).
    assert "Content-Security-Policy" in client.get("/api/v1/systems/")


def test_htmx_is_told_not_to_evaluate_code(client: Client) -> None:
    html = client.get("/").content.decode()
    assert '"allowEval": false' in html


def test_htmx_may_add_its_indicator_styles(client: Client) -> None:
    """htmx adds a <style> element for its request indicators when it loads, unless told not to
    (includeIndicatorStyles): the policy must allow it, or htmx must be told."""
    response = client.get("/")
    policy = directives(response["Content-Security-Policy"])
    told_not_to = '"includeIndicatorStyles": false' in response.content.decode()
    assert told_not_to or "'unsafe-inline'" in policy["style-src"]
    # Styles open no way out: nothing may be loaded from, or sent to, another site.
    for directive in ("img-src", "font-src", "connect-src", "style-src"):
        assert all(source in ("'self'", "'unsafe-inline'", "data:") for source in policy[directive])


@pytest.fixture
def owner(user, deathmatch):  # noqa: ANN001, ANN201
    return user


def _pages(owner, deathmatch) -> list[str]:  # noqa: ANN001
    roster = roster_services.roster_import(owner=owner, document=legal_standard_team())
    roster_services.roster_share(owner=owner, roster_id=roster.pk, enabled=True)
    roster.refresh_from_db()
    match = small_match(owner, deathmatch)
    return [
        "/",
        reverse("accounts:profile"),
        reverse("rosters:list"),
        reverse("rosters:new", args=["deathmatch"]),
        reverse("rosters:import"),
        reverse("rosters:builder", args=[roster.pk]),
        reverse("rosters:shared", args=[roster.share_token]),
        reverse("cards:roster_print", args=[roster.pk]),
        reverse("cards:blank", args=["deathmatch"]),
        reverse("matches:list"),
        reverse("matches:new", args=["deathmatch"]),
        reverse("matches:tracker", args=[match.pk]),
        reverse("matches:log", args=[match.pk]),
        reverse("matches:spectate", args=[match.spectator_token]),
        reverse("leagues:list"),
        reverse("leagues:new"),
        reverse("catalog:system_reference", args=["deathmatch"]),
        reverse("scenarios:list", args=["grundregeln"]),
        reverse("api-docs"),
    ]


def test_no_page_needs_inline_script_or_event_handlers(client: Client, owner, deathmatch) -> None:
    client.force_login(owner)
    found: dict[str, list[str]] = {}
    for url in _pages(owner, deathmatch):
        response = client.get(url, follow=True)
        assert response.status_code == 200, url
        assert "Content-Security-Policy" in response, url
        problems = inline_code(response.content.decode())
        if problems:
            found[url] = problems
    assert found == {}


def test_pages_for_visitors_need_no_inline_script(client: Client, deathmatch) -> None:
    found = {}
    for url in ["/", reverse("accounts:login"), reverse("accounts:signup"), "/no-such-page/"]:
        problems = inline_code(client.get(url).content.decode())
        if problems:
            found[url] = problems
    assert found == {}


def test_the_api_docs_load_their_start_script_as_a_file(client: Client) -> None:
    page = client.get(reverse("api-docs")).content.decode()
    assert inline_code(page) == []
    script = client.get(reverse("api-docs") + "?script=")
    assert script.status_code == 200
    assert script["Content-Type"].startswith("application/javascript")


def test_the_admin_needs_no_inline_script(admin_client: Client) -> None:
    found = {}
    for url in ["/admin/", "/admin/accounts/user/", "/admin/accounts/user/add/"]:
        response = admin_client.get(url)
        assert response.status_code == 200, url
        problems = inline_code(response.content.decode())
        if problems:
            found[url] = problems
    assert found == {}
