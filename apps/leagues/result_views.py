"""League game pages: a game with its result, and reporting, confirming, disputing and
overriding that result. Refused changes come back as a message (see ``views``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from apps.common.http import HtmxHttpRequest
from apps.leagues import services
from apps.leagues.forms import (
    DisputeForm,
    OverrideForm,
    ResultForm,
)
from apps.leagues.models import (
    Pairing,
    Result,
    Round,
    Season,
)
from apps.leagues.selectors import (
    LeagueAccess,
    counts_from,
    pairing_get,
    result_counts,
)
from apps.leagues.services import LeagueError
from apps.leagues.view_helpers import access_to, request_user
from apps.systems.core.registry import registry

PAIRING = "leagues/pairing.html"


def _player_side(pairing: Pairing, user_id: int | None) -> str:
    """The side the user plays in this game, "a" or "b"; "" for anyone else and in a bye."""
    if user_id is None or pairing.player_b is None:
        return ""
    if pairing.player_a.player_id == user_id:
        return "a"
    return "b" if pairing.player_b.player_id == user_id else ""


def _result_permissions(
    access: LeagueAccess, pairing: Pairing, result: Result | None, side: str, open_report: bool
) -> dict[str, Any]:
    """What the viewer may do with the result: report (again, while their own report waits),
    answer the other player's report, or override as an organiser; nothing in a bye, a draft
    round or a finished season."""
    playable = (
        pairing.round.status == Round.Status.PUBLISHED
        and pairing.player_b is not None
        and pairing.round.season.status != Season.Status.FINISHED
    )
    own_report = result is not None and result.reported_side == side
    return {
        "can_report": playable
        and side
        and (
            result is None or (open_report and own_report and result.source == Result.Source.MANUAL)
        ),
        "can_answer": playable and side and open_report and not own_report,
        "can_confirm": result is not None and result.reported_side in ("a", "b"),
        "can_override": playable and access.is_organiser,
    }


def _match_link(pairing: Pairing, side: str, result: Result | None, system_slug: str) -> str:
    """For the game's two players: "open" when its match was started, "start" while it can be
    (a published round of a running season, no result yet, a system with a tracker); else ""."""
    if not side:
        return ""
    if getattr(pairing, "match", None) is not None:
        return "open"
    season = pairing.round.season
    startable = (
        result is None
        and pairing.round.status == Round.Status.PUBLISHED
        and season.status == Season.Status.RUNNING
        and registry().get(system_slug).matches is not None
    )
    return "start" if startable else ""


def _pairing_context(
    request: HtmxHttpRequest, access: LeagueAccess, pairing_id: int, **extra: Any
) -> dict[str, Any]:
    pairing = pairing_get(access, pairing_id)
    season = pairing.round.season
    if pairing.round.status != Round.Status.PUBLISHED and not access.is_organiser:
        raise Http404
    result: Result | None = getattr(pairing, "result", None)
    side = _player_side(pairing, access.user_id)
    now = timezone.now()
    deadline = counts_from(result, season.confirm_hours) if result else None
    # A report is open while it waits for an answer and has not yet counted on its own.
    open_report = (
        result is not None
        and result.status == Result.Status.REPORTED
        and (deadline is None or deadline > now)
    )
    initial = (
        {"outcome": result.outcome, "vp_a": result.vp_a, "vp_b": result.vp_b} if result else None
    )
    context: dict[str, Any] = {
        "access": access,
        "league": access.league,
        "season": season,
        "pairing": pairing,
        "result": result,
        "side": side,
        "counts": result is not None and result_counts(result, season.confirm_hours, now),
        "deadline": deadline,
        "match_link": _match_link(pairing, side, result, access.league.system.slug),
        **_result_permissions(access, pairing, result, side, open_report),
        "result_form": ResultForm(pairing=pairing, initial=initial),
        "dispute_form": DisputeForm(),
        "override_form": OverrideForm(pairing=pairing, initial=initial),
        "error": "",
    }
    context.update(extra)
    return context


def _render_pairing(
    request: HtmxHttpRequest, context: dict[str, Any], *, status: int = 200
) -> HttpResponse:
    template = f"{PAIRING}#result" if request.htmx else PAIRING
    return render(request, template, context, status=status)


@require_GET
def pairing_detail(request: HtmxHttpRequest, key: str, pairing_id: int) -> HttpResponse:
    access = access_to(request, key)
    return _render_pairing(request, _pairing_context(request, access, pairing_id))


def _result_change(
    request: HtmxHttpRequest,
    key: str,
    pairing_id: int,
    action: Callable[[], object],
    *,
    success: str,
    form_name: str = "",
    form: Any = None,
) -> HttpResponse:
    access = access_to(request, key)
    try:
        action()
    except LeagueError as error:
        extra = {"error": error.message}
        if form is not None:
            extra[form_name] = form
        context = _pairing_context(request, access, pairing_id, **extra)
        if request.htmx:
            return _render_pairing(request, context, status=422)
        messages.error(request, error.message)
    else:
        if request.htmx:
            context = _pairing_context(request, access, pairing_id, notice=success)
            return _render_pairing(request, context)
        messages.success(request, success)
    return redirect("leagues:pairing", key, pairing_id)


def _invalid(
    request: HtmxHttpRequest, key: str, pairing_id: int, form_name: str, form: Any
) -> HttpResponse:
    access = access_to(request, key)
    context = _pairing_context(
        request, access, pairing_id, **{form_name: form, "error": _("Please check the form.")}
    )
    return _render_pairing(request, context, status=422)


@login_required
@require_POST
def result_report(request: HtmxHttpRequest, key: str, pairing_id: int) -> HttpResponse:
    pairing = pairing_get(access_to(request, key), pairing_id)
    form = ResultForm(request.POST, pairing=pairing)
    if not form.is_valid():
        return _invalid(request, key, pairing_id, "result_form", form)
    return _result_change(
        request,
        key,
        pairing_id,
        lambda: services.result_report(
            user=request_user(request), key=key, pairing_id=pairing_id, **form.cleaned_data
        ),
        success=_("Result reported. Your opponent confirms it."),
        form_name="result_form",
        form=form,
    )


@login_required
@require_POST
def result_confirm(request: HtmxHttpRequest, key: str, pairing_id: int) -> HttpResponse:
    return _result_change(
        request,
        key,
        pairing_id,
        lambda: services.result_confirm(user=request_user(request), key=key, pairing_id=pairing_id),
        success=_("Result confirmed. It counts now."),
    )


@login_required
@require_POST
def result_dispute(request: HtmxHttpRequest, key: str, pairing_id: int) -> HttpResponse:
    form = DisputeForm(request.POST)
    if not form.is_valid():
        return _invalid(request, key, pairing_id, "dispute_form", form)
    return _result_change(
        request,
        key,
        pairing_id,
        lambda: services.result_dispute(
            user=request_user(request),
            key=key,
            pairing_id=pairing_id,
            reason=form.cleaned_data["reason"],
        ),
        success=_("Result disputed. The organisers will decide."),
        form_name="dispute_form",
        form=form,
    )


@login_required
@require_POST
def result_override(request: HtmxHttpRequest, key: str, pairing_id: int) -> HttpResponse:
    access = access_to(request, key)
    access.require_organiser()
    pairing = pairing_get(access, pairing_id)
    form = OverrideForm(request.POST, pairing=pairing)
    if not form.is_valid():
        return _invalid(request, key, pairing_id, "override_form", form)
    return _result_change(
        request,
        key,
        pairing_id,
        lambda: services.result_override(
            user=request_user(request), key=key, pairing_id=pairing_id, **form.cleaned_data
        ),
        success=_("Result set. The reason is in the log."),
        form_name="override_form",
        form=form,
    )
