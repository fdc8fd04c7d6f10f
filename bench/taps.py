"""The floor of a tap (issue 16): a bare view that does what every command must, a POST by a
logged-in user that inserts a row and reads it back in a transaction, measured in the
same run as the API command and the HTMX tap, which are printed as multiples of it."""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Callable

from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, JsonResponse
from django.test import Client, override_settings
from django.urls import include, path
from django.views.decorators.http import require_POST

from apps.matches.models import Match, MatchEvent
from bench.report import Report, Timing, measure

_FLOOR_SEQ = itertools.count(1_000_000)


@login_required
@require_POST
def floor_view(request: HttpRequest, match_id: int) -> JsonResponse:
    with transaction.atomic():
        seq = next(_FLOOR_SEQ)
        MatchEvent.objects.create(match_id=match_id, seq=seq, group=seq, type="floor")
        last = MatchEvent.objects.filter(match_id=match_id, seq=seq).values("seq").first()
    return JsonResponse({"seq": last["seq"] if last else None})


urlpatterns = [
    path("bench/tap-floor/<int:match_id>/", floor_view),
    path("", include("skirmish.urls")),
]


def floor(client: Client, match_id: int, *, repeat: int = 300) -> Timing:
    """The floor, on a match of its own (its log gets rows of type "floor")."""
    with override_settings(ROOT_URLCONF="bench.taps"):
        url = f"/bench/tap-floor/{match_id}/"
        return measure(
            "floor: POST + login + insert + select",
            lambda: client.post(url, {"key": uuid.uuid4().hex}),
            repeat=repeat,
            warmup=20,
        )


def add_ratio(report: Report, timing: Timing, floor: Timing, goal: float) -> None:
    ratio = timing.median_ms / floor.median_ms
    verdict = "meets" if ratio <= goal else "misses"
    report.add(
        Timing(
            timing.name,
            timing.samples_ns,
            note=f"{ratio:.1f}× the floor; goal ≤ {goal:g}×: {verdict}",
        )
    )


def tap(client: Client, match: Match) -> Callable[[], None]:
    """An HTMX tap on the tracker: a free flip, answered with the tracker partial."""
    url = f"/matches/{match.pk}/command/"
    # The page knows the seq it was drawn on: the next tap sends the one the answer names.
    seq = [Match.objects.filter(pk=match.pk).values_list("seq", flat=True).get()]

    def action() -> None:
        response = client.post(
            url,
            {
                "command": "flip",
                "args.player:int": "0",
                "expected_seq": str(seq[0]),
                "idempotency_key": uuid.uuid4().hex,
            },
            HTTP_HX_REQUEST="true",
        )
        assert response.status_code == 200, response.status_code
        seq[0] = int(response["X-Skirmish-Command-Seq"])

    return action
