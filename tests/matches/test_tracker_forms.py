"""Every command form on every tracker screen, walked through a short game per system.

Issue 13: "Every command button on every tracker screen has a distinct idempotency key and a
unique id" (two buttons sharing a key meant a lost answer to "Anna first" replayed it when the
player then tapped "Ben first"), every form carries the seq its screen was drawn on, a disabled
button points at its reason, and every enabled button is accepted by the engine.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from urllib.parse import urlencode

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse

from apps.matches.models import Match
from apps.matches.selectors import engine_for, match_state
from tests.accounts.factories import UserFactory
from tests.matches.html_forms import Form, Page, Submit, read_page
from tests.matches.tables import one_tablet_match

pytestmark = pytest.mark.django_db

STEPS = 6
SCREENS = 4


class _Rollback(Exception):
    """Raised to undo a trial post: the button is judged, the match stays as it was."""


def _open(system: str) -> tuple[Match, Client]:
    anna = UserFactory()
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(anna)
    return one_tablet_match(system, anna), client


def _command_forms(page: Page) -> list[Form]:
    return [form for form in page.forms if "command" in form.attrs.get("class", "").split()]


def _check_screen(page: Page, match: Match, where: str) -> list[tuple[Form, Submit]]:
    """The screen's forms are sound; answers the enabled buttons with their forms."""
    duplicates = [name for name, count in Counter(page.ids).items() if count > 1]
    assert not duplicates, f"{where}: ids used twice: {duplicates}"
    forms = _command_forms(page)
    keys = [key for form in forms for key in form.hidden("idempotency_key")]
    assert len(keys) == len(forms), f"{where}: a command form without exactly one key"
    assert len(set(keys)) == len(keys), f"{where}: two forms share an idempotency key"
    enabled: list[tuple[Form, Submit]] = []
    for form in forms:
        assert form.attrs.get("id"), f"{where}: a command form without an id"
        assert form.hidden("expected_seq") == [str(match.seq)], f"{where}: {form.attrs}"
        for submit in form.submits:
            if submit.disabled:
                assert submit.described_by in page.ids, f"{where}: a disabled button, no reason"
            elif "correction-form" not in form.attrs.get("class", ""):
                # A correction form opens on the current values: sent unchanged it is refused
                # as changing nothing, by design. Every other button is judged as it stands.
                enabled.append((form, submit))
    return enabled


def _screens(match: Match) -> list[dict[str, str]]:
    """The first screens reachable from the plain page, for the table and for each seat's
    own secrets (``?seat=``: Anna holds both)."""
    engine, state = engine_for(match), match_state(match)
    screens: list[dict[str, str]] = []
    for viewer in (None, 0, 1):
        seat = {} if viewer is None else {"seat": str(viewer)}
        most = SCREENS if viewer is None else 1
        for params, _view in engine.reachable_screens(state, viewer=viewer, most=most):
            screens.append({**params, **seat})
    return screens


def _post(client: Client, match: Match, form: Form, submit: Submit) -> tuple[int, str]:
    """The answer's status and the refusal it shows, if any."""
    url = reverse("matches:command", args=[match.pk])
    response = client.post(url, form.data(submit), HTTP_HX_REQUEST="true")
    error = re.search(r'<p class="message error" role="alert">(.*?)</p>', response.content.decode())
    return response.status_code, error.group(1) if error else ""


def _distinct(enabled: list[tuple[Form, Submit]]) -> list[tuple[Form, Submit]]:
    """One of each command the buttons send: the same command offered on several screens
    differs only in its key and the selection kept for the next screen."""
    seen: dict[str, tuple[Form, Submit]] = {}
    for form, submit in enabled:
        data = form.data(submit)
        sent = {k: v for k, v in data.items() if k.startswith("args.") or k == "command"}
        seen.setdefault(repr(sorted(sent.items())), (form, submit))
    return list(seen.values())


def _trial(client: Client, match: Match, form: Form, submit: Submit) -> tuple[int, str]:
    """The answer the button would get, without keeping what it did."""
    answer = (0, "")
    try:
        with transaction.atomic():
            answer = _post(client, match, form, submit)
            raise _Rollback
    except _Rollback:
        pass
    return answer


@pytest.mark.parametrize("system", ["deathmatch", "grundregeln", "universalis"])
def test_every_tracker_form_is_sound_and_every_enabled_button_is_accepted(system) -> None:
    match, client = _open(system)
    rng = random.Random(system)
    tracker = reverse("matches:tracker", args=[match.pk])
    for step in range(STEPS):
        match.refresh_from_db()
        if match.status == "finished":
            break
        enabled: list[tuple[Form, Submit]] = []
        for params in _screens(match):
            query = urlencode(params)
            html = client.get(f"{tracker}?{query}", HTTP_HX_REQUEST="true").content.decode()
            enabled += _check_screen(read_page(html), match, f"step {step} ?{query}")
        refused = [
            (form.data(submit)["command"], answer)
            for form, submit in _distinct(enabled)
            if (answer := _trial(client, match, form, submit))[0] != 200
        ]
        assert not refused, f"{system} step {step}: enabled buttons refused: {refused}"
        assert enabled, f"{system} step {step}: no button to tap"
        form, submit = rng.choice(enabled)
        assert _post(client, match, form, submit) == (200, "")
