"""Roster pages: my rosters, the builder (HTMX), sharing, import and export."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import slugify
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from apps.accounts.models import User
from apps.catalog.models import GameSystem
from apps.common.http import HtmxHttpRequest, form_number
from apps.common.parsers import json_loads_bounded
from apps.rosters import services
from apps.rosters.documents import DocumentInvalid, problem_location, roster_document
from apps.rosters.forms import (
    CountForm,
    ImportForm,
    RenameForm,
    RosterCreateForm,
    RosterSettingsForm,
)
from apps.rosters.models import Roster
from apps.rosters.selectors import (
    catalog_data,
    roster_by_share_token,
    roster_for_owner,
    roster_input,
    roster_list_for_user,
)
from apps.systems.core.errors import RuleViolation
from apps.systems.core.registry import registry
from apps.systems.core.rosters import ArmyBuilderView, localized_catalog

BUILDER = "rosters/builder.html"


def request_user(request: HtmxHttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)
    return user


def _builder_systems() -> list[GameSystem]:
    slugs = [info.slug for info in registry().all() if info.rosters is not None]
    return list(GameSystem.objects.filter(slug__in=slugs))


def _digest(*parts: object) -> str:
    """A cache key for a rendered fragment: the rules' view of it is its whole content."""
    return hashlib.sha256(repr(parts).encode()).hexdigest()


def builder_context(roster: Roster, *, readonly: bool) -> dict[str, Any]:
    """What the builder and the read-only view show, computed by the system's rules."""
    rules = registry().get(roster.system.slug).rosters
    if rules is None:
        raise Http404
    catalog = localized_catalog(catalog_data(roster.system, roster), get_language())
    view = rules.builder(roster_input(roster), catalog)
    entries = list(roster.entries.all())
    system_info = registry().get(roster.system.slug)
    # An outside army's units beside the rules' rows for them.
    units = (
        list(zip(roster.units.all(), view.units, strict=True))
        if isinstance(view, ArmyBuilderView)
        else []
    )
    fighters = []
    for entry, fighter in zip(entries, view.entries, strict=True):
        items = list(zip(entry.items.all(), fighter.items, strict=True))
        key = _digest(
            fighter,
            entry.pk,
            entry.name,
            entry.profile_version,
            entry.profile.version,
            [row.pk for row, _ in items],
            readonly,
        )
        fighters.append((entry, fighter, items, key))
    return {
        "roster": roster,
        "view": view,
        "fighters": fighters,
        "units": units,
        # The panel's cached fragment survives changes that do not touch what it shows.
        "panel_key": _digest(view.panel, roster.pk),
        "readonly": readonly,
        "system_info": system_info,
        # How many identical models an entry may stand for (1: the builder offers no count).
        "max_count": services.max_count(roster.system),
        "settings_form": RosterSettingsForm(
            system=roster.system, initial={"name": roster.name, **roster.settings}
        ),
    }


def render_builder(request: HtmxHttpRequest, roster: Roster, *, error: str = "") -> HttpResponse:
    context = builder_context(roster, readonly=False)
    context["error"] = error
    template = f"{BUILDER}#builder" if request.htmx else BUILDER
    # 422: the builder's own answer to a refused change; htmx swaps it in (see base.html).
    return render(request, template, context, status=422 if error else 200)


def builder_change(
    request: HtmxHttpRequest, roster_id: int, action: Callable[[], Roster]
) -> HttpResponse:
    """Run a builder change; answer with the refreshed builder (HTMX) or a redirect."""
    try:
        roster = action()
    except RuleViolation as error:
        roster = roster_for_owner(request_user(request), roster_id)
        # Messages of the rules are catalogue msgids; others pass through unchanged.
        message = _(error.message)
        if request.htmx:
            return render_builder(request, roster, error=message)
        messages.error(request, message)
        return redirect("rosters:builder", roster_id)
    if request.htmx:
        return render_builder(request, roster)
    return redirect("rosters:builder", roster.pk)


@login_required
@require_GET
def roster_list(request: HtmxHttpRequest) -> HttpResponse:
    rosters = roster_list_for_user(request_user(request))
    systems = _builder_systems()
    army_systems = [s for s in systems if registry().get(s.slug).outside_army]
    return render(
        request,
        "rosters/list.html",
        {"rosters": rosters, "systems": systems, "army_systems": army_systems},
    )


@login_required
@require_http_methods(["GET", "POST"])
def roster_new(request: HtmxHttpRequest, system_slug: str) -> HttpResponse:
    system = next((s for s in _builder_systems() if s.slug == system_slug), None)
    if system is None:
        raise Http404
    form = RosterCreateForm(request.POST or None, system=system)
    if request.method == "POST" and form.is_valid():
        try:
            roster = services.roster_create(
                owner=request_user(request),
                system=system,
                name=form.cleaned_data["name"],
                faction=form.cleaned_data.get("faction"),
                settings=form.settings(),
            )
        except RuleViolation as error:
            form.add_error(None, error.message)
        else:
            return redirect("rosters:builder", roster.pk)
    return render(request, "rosters/new.html", {"form": form, "system": system})


@login_required
@require_GET
def roster_builder(request: HtmxHttpRequest, roster_id: int) -> HttpResponse:
    return render_builder(request, roster_for_owner(request_user(request), roster_id))


@login_required
@require_POST
def roster_settings(request: HtmxHttpRequest, roster_id: int) -> HttpResponse:
    roster = roster_for_owner(request_user(request), roster_id)
    form = RosterSettingsForm(request.POST, system=roster.system)
    if not form.is_valid():
        error = " ".join(
            f"{form[field].label}: {' '.join(messages)}" for field, messages in form.errors.items()
        )
        return render_builder(request, roster, error=error)
    return builder_change(
        request,
        roster_id,
        lambda: services.roster_update(
            owner=request_user(request),
            roster_id=roster_id,
            name=form.cleaned_data["name"],
            settings=form.settings(),
        ),
    )


@login_required
@require_POST
def entry_add(request: HtmxHttpRequest, roster_id: int) -> HttpResponse:
    """Add a model; an optional ``attach_to`` (an entry's id) adds it into that one's unit, an
    optional ``count`` adds that many identical models as one entry."""
    target = request.POST.get("attach_to", "")
    target_id = form_number(target)
    if target and target_id is None:
        roster = roster_for_owner(request_user(request), roster_id)
        return render_builder(request, roster, error=_("Choose a model of this roster."))
    count_form = CountForm({"count": request.POST.get("count") or "1"})
    if not count_form.is_valid():
        roster = roster_for_owner(request_user(request), roster_id)
        return render_builder(request, roster, error=count_error(roster))
    return builder_change(
        request,
        roster_id,
        lambda: services.roster_entry_add(
            owner=request_user(request),
            roster_id=roster_id,
            profile_slug=request.POST.get("profile", ""),
            attach_to_id=target_id,
            count=count_form.cleaned_data["count"],
        ),
    )


def count_error(roster: Roster) -> str:
    return _("The number of models must be from 1 to %(most)d.") % {
        "most": services.max_count(roster.system)
    }


@login_required
@require_POST
def entry_count(request: HtmxHttpRequest, roster_id: int, entry_id: int) -> HttpResponse:
    """Set an entry's number of identical models (``count``) or step it (``change``, −/+)."""
    form = CountForm(request.POST)
    if not form.is_valid():
        roster = roster_for_owner(request_user(request), roster_id)
        return render_builder(request, roster, error=count_error(roster))
    change = form.cleaned_data["change"]
    return builder_change(
        request,
        roster_id,
        lambda: services.roster_entry_set_count(
            owner=request_user(request),
            roster_id=roster_id,
            entry_id=entry_id,
            count=None if change not in (None, "") else form.cleaned_data["count"],
            change=change or 0,
        ),
    )


@login_required
@require_POST
def entry_remove(request: HtmxHttpRequest, roster_id: int, entry_id: int) -> HttpResponse:
    return builder_change(
        request,
        roster_id,
        lambda: services.roster_entry_remove(
            owner=request_user(request),
            roster_id=roster_id,
            entry_id=entry_id,
        ),
    )


@login_required
@require_POST
def entry_rename(request: HtmxHttpRequest, roster_id: int, entry_id: int) -> HttpResponse:
    form = RenameForm(request.POST)
    if not form.is_valid():
        roster = roster_for_owner(request_user(request), roster_id)
        return render_builder(request, roster, error=_("A nickname has at most 60 characters."))
    return builder_change(
        request,
        roster_id,
        lambda: services.roster_entry_rename(
            owner=request_user(request),
            roster_id=roster_id,
            entry_id=entry_id,
            name=form.cleaned_data["name"],
        ),
    )


@login_required
@require_POST
def entry_attach(request: HtmxHttpRequest, roster_id: int, entry_id: int) -> HttpResponse:
    """Assign an entry to another one (a telematon to its operator); empty releases it."""
    target = request.POST.get("attach_to", "")
    target_id = form_number(target)
    if target and target_id is None:
        roster = roster_for_owner(request_user(request), roster_id)
        return render_builder(request, roster, error=_("Choose a model of this roster."))
    return builder_change(
        request,
        roster_id,
        lambda: services.roster_entry_attach(
            owner=request_user(request),
            roster_id=roster_id,
            entry_id=entry_id,
            attach_to_id=target_id,
        ),
    )


@login_required
@require_POST
def entry_update_version(request: HtmxHttpRequest, roster_id: int, entry_id: int) -> HttpResponse:
    return builder_change(
        request,
        roster_id,
        lambda: services.roster_entry_update_version(
            owner=request_user(request),
            roster_id=roster_id,
            entry_id=entry_id,
        ),
    )


@login_required
@require_POST
def item_add(request: HtmxHttpRequest, roster_id: int, entry_id: int) -> HttpResponse:
    if not request.POST.get("item"):
        roster = roster_for_owner(request_user(request), roster_id)
        return render_builder(request, roster, error=_("Choose a card first."))
    return builder_change(
        request,
        roster_id,
        lambda: services.roster_item_add(
            owner=request_user(request),
            roster_id=roster_id,
            entry_id=entry_id,
            item_slug=request.POST.get("item", ""),
        ),
    )


@login_required
@require_POST
def item_remove(
    request: HtmxHttpRequest, roster_id: int, entry_id: int, row_id: int
) -> HttpResponse:
    return builder_change(
        request,
        roster_id,
        lambda: services.roster_item_remove(
            owner=request_user(request),
            roster_id=roster_id,
            entry_id=entry_id,
            row_id=row_id,
        ),
    )


@login_required
@require_POST
def roster_duplicate(request: HtmxHttpRequest, roster_id: int) -> HttpResponse:
    source = roster_for_owner(request_user(request), roster_id)
    copy = services.roster_duplicate(
        owner=request_user(request),
        roster_id=roster_id,
        name=_("%(name)s (copy)") % {"name": source.name},
    )
    messages.success(request, _("Roster duplicated."))
    return redirect("rosters:builder", copy.pk)


@login_required
@require_http_methods(["GET", "POST"])
def roster_delete(request: HtmxHttpRequest, roster_id: int) -> HttpResponse:
    roster = roster_for_owner(request_user(request), roster_id)
    if request.method == "POST":
        services.roster_delete(owner=request_user(request), roster_id=roster_id)
        messages.success(request, _("“%(name)s” was deleted.") % {"name": roster.name})
        return redirect("rosters:list")
    return render(request, "rosters/delete.html", {"roster": roster})


@login_required
@require_POST
def roster_share(request: HtmxHttpRequest, roster_id: int) -> HttpResponse:
    enabled = request.POST.get("enabled") == "1"
    services.roster_share(owner=request_user(request), roster_id=roster_id, enabled=enabled)
    return builder_change(
        request, roster_id, lambda: roster_for_owner(request_user(request), roster_id)
    )


@login_required
@require_GET
def roster_export(request: HtmxHttpRequest, roster_id: int) -> HttpResponse:
    roster = roster_for_owner(request_user(request), roster_id)
    response = HttpResponse(
        json.dumps(roster_document(roster), ensure_ascii=False, indent=2),
        content_type="application/json; charset=utf-8",
    )
    filename = f"{slugify(roster.name) or 'roster'}.skirmish.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def roster_import(request: HtmxHttpRequest) -> HttpResponse:
    form = ImportForm(request.POST or None, request.FILES or None)
    problems: list[dict[str, str]] = []
    if request.method == "POST" and form.is_valid():
        try:
            document = json_loads_bounded(form.cleaned_data["content"])
        except json.JSONDecodeError as error:
            problems = [
                {
                    "where": _("line %(line)d") % {"line": error.lineno},
                    "message": _("This is not valid JSON: %(error)s") % {"error": error.msg},
                }
            ]
        except ValueError as error:  # nested too deeply, or a number of thousands of digits
            problems = [{"message": _("This is not valid JSON: %(error)s") % {"error": error}}]
        else:
            try:
                roster = services.roster_import(owner=request_user(request), document=document)
            except DocumentInvalid as error:
                problems = [
                    {**p.as_dict(), "where": problem_location(p.path) if p.path else ""}
                    for p in error.problems
                ]
            except RuleViolation as error:
                problems = [{"message": error.message}]
            else:
                messages.success(request, _("Roster imported."))
                return redirect("rosters:builder", roster.pk)
    return render(
        request,
        "rosters/import.html",
        {"form": form, "problems": problems},
        status=400 if problems else 200,
    )


@require_GET
def roster_shared(request: HtmxHttpRequest, token: str) -> HttpResponse:
    roster = roster_by_share_token(token)
    context = builder_context(roster, readonly=True)
    return render(request, "rosters/shared.html", context)
