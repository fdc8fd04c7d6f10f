"""The scenario editor: organisers write the scenarios of systems whose missions are data.

Scenarios are shared catalogue missions that every player picks from when opening a match, so
writing them takes the catalogue's mission permissions (the Organisers group has them).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from apps.catalog.models import GameSystem, Mission
from apps.rosters.selectors import catalog_data
from apps.scenarios import services
from apps.scenarios.forms import ScenarioForm
from apps.systems.core.registry import registry
from apps.systems.core.schema import SchemaError


def _system(slug: str) -> GameSystem:
    info = next((s for s in registry().all() if s.slug == slug and s.scenarios), None)
    system = GameSystem.objects.filter(slug=slug).first()
    if info is None or system is None:
        raise Http404
    return system


def _mission(system: GameSystem, slug: str) -> Mission:
    mission = Mission.objects.filter(system=system, slug=slug).first()
    if mission is None:
        raise Http404
    return mission


@login_required
@require_GET
def scenario_list(request: HttpRequest, system_slug: str) -> HttpResponse:
    system = _system(system_slug)
    scenarios = Mission.objects.filter(system=system).order_by("name")
    return render(
        request,
        "scenarios/list.html",
        {
            "system": system,
            "scenarios": scenarios,
            "can_edit": request.user.has_perm("catalog.change_mission"),
            "can_add": request.user.has_perm("catalog.add_mission"),
        },
    )


def _edit(request: HttpRequest, system: GameSystem, mission: Mission | None) -> HttpResponse:
    rules = services.scenario_rules(system)
    npc_profiles = rules.npc_profiles(catalog_data(system))
    initial = (
        ScenarioForm.initial_for(rules, mission.name, dict(mission.data))
        if mission is not None
        else None
    )
    form = ScenarioForm(
        request.POST or None, rules=rules, npc_profiles=npc_profiles, initial=initial
    )
    problems: list[str] = []
    if request.method == "POST" and form.is_valid():
        try:
            saved = services.scenario_save(
                system=system,
                name=form.cleaned_data["name"],
                values=form.values(),
                npcs=form.npcs(),
                mission=mission,
            )
        except SchemaError as error:
            problems = [f"{e.field}: {e.message}" for e in error.errors]
        else:
            messages.success(request, _("Scenario “%(name)s” saved.") % {"name": saved.name})
            return redirect("scenarios:list", system.slug)
    status = 422 if request.method == "POST" and (form.errors or problems) else 200
    return render(
        request,
        "scenarios/form.html",
        {"system": system, "form": form, "mission": mission, "problems": problems},
        status=status,
    )


@login_required
@permission_required("catalog.add_mission", raise_exception=True)
@require_http_methods(["GET", "POST"])
def scenario_new(request: HttpRequest, system_slug: str) -> HttpResponse:
    return _edit(request, _system(system_slug), None)


@login_required
@permission_required("catalog.change_mission", raise_exception=True)
@require_http_methods(["GET", "POST"])
def scenario_edit(request: HttpRequest, system_slug: str, slug: str) -> HttpResponse:
    system = _system(system_slug)
    return _edit(request, system, _mission(system, slug))


@login_required
@permission_required("catalog.delete_mission", raise_exception=True)
@require_http_methods(["GET", "POST"])
def scenario_delete(request: HttpRequest, system_slug: str, slug: str) -> HttpResponse:
    system = _system(system_slug)
    mission = _mission(system, slug)
    if request.method == "POST":
        services.scenario_delete(mission=mission)
        messages.success(request, _("“%(name)s” was deleted.") % {"name": mission.name})
        return redirect("scenarios:list", system.slug)
    return render(request, "scenarios/delete.html", {"system": system, "mission": mission})
