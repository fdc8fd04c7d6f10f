"""Outside-army pages (``GameSystemInfo.outside_army``): importing a list builder's file,
typing a unit in, answering what the house rules ask about a unit (walker, base, reserve)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from apps.common.http import HtmxHttpRequest
from apps.rosters import army_services
from apps.rosters.army_forms import ArmyFileForm, UnitAnswerForm, UnitForm
from apps.rosters.models import Roster
from apps.rosters.selectors import roster_for_owner
from apps.rosters.views import builder_change, render_builder, request_user
from apps.systems.bunkers.battlescribe import BattleScribeRefused
from apps.systems.core.errors import RuleViolation


def _form_error(form: UnitForm | UnitAnswerForm) -> str:
    return " ".join(
        f"{form[field].label}: {' '.join(errors)}" if field in form.fields else " ".join(errors)
        for field, errors in form.errors.items()
    )


@login_required
@require_http_methods(["GET", "POST"])
def army_import(request: HtmxHttpRequest, system_slug: str) -> HttpResponse:
    """Upload a BattleScribe/New Recruit list; nothing is saved unless all of it can be read."""
    system = army_services.outside_army_system(system_slug)
    form = ArmyFileForm(request.POST or None, request.FILES or None)
    problem = ""
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            roster = army_services.army_import(
                owner=request_user(request),
                system=system,
                data=upload.read(),
                file_name=upload.name or "",
                name=form.cleaned_data["name"],
                settings=form.settings(),
            )
        except BattleScribeRefused as error:
            problem = army_services.refusal_message(error)
        except RuleViolation as error:
            problem = _(error.message)
        else:
            messages.success(request, _("Army imported. Answer what the house rules ask below."))
            return redirect("rosters:builder", roster.pk)
    invalid = bool(problem) or (request.method == "POST" and not form.is_valid())
    return render(
        request,
        "rosters/army_import.html",
        {"form": form, "problem": problem, "system": system},
        status=400 if invalid else 200,
    )


@login_required
@require_POST
def unit_add(request: HtmxHttpRequest, roster_id: int) -> HttpResponse:
    form = UnitForm(request.POST)
    if not form.is_valid():
        return render_builder(
            request, roster_for_owner(request_user(request), roster_id), error=_form_error(form)
        )
    return builder_change(
        request,
        roster_id,
        lambda: army_services.army_unit_add(
            owner=request_user(request), roster_id=roster_id, unit=form.unit()
        ),
    )


@login_required
@require_POST
def unit_answer(request: HtmxHttpRequest, roster_id: int, unit_id: int) -> HttpResponse:
    form = UnitAnswerForm(request.POST)
    if not form.is_valid():
        return render_builder(
            request, roster_for_owner(request_user(request), roster_id), error=_form_error(form)
        )
    data = form.cleaned_data
    return builder_change(
        request,
        roster_id,
        lambda: army_services.army_unit_answer(
            owner=request_user(request),
            roster_id=roster_id,
            unit_id=unit_id,
            walker=data["walker"],
            base=data["base"],
            reserve=data["reserve"],
            deep_strike=data["deep_strike"],
        ),
    )


@login_required
@require_POST
def unit_remove(request: HtmxHttpRequest, roster_id: int, unit_id: int) -> HttpResponse:
    def remove() -> Roster:
        return army_services.army_unit_remove(
            owner=request_user(request), roster_id=roster_id, unit_id=unit_id
        )

    return builder_change(request, roster_id, remove)
