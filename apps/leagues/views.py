"""League pages: leagues, seasons with standings, players, ratings, CSV (a round's pages are in
``round_views``, a game's in ``result_views``; what every view does first in ``view_helpers``).

Reads go through ``selectors.league_access`` (visibility and roles in one place); every change
calls a service, which checks the same again. Refused changes come back as a message: inline
with 422 for HTMX (see base.html), as a flash message and redirect otherwise.
"""

from __future__ import annotations

import csv
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from apps.catalog.selectors import game_system_get
from apps.common.http import HtmxHttpRequest, form_number
from apps.leagues import services
from apps.leagues.day_views import season_day_context
from apps.leagues.forms import (
    TIE_BREAKER_LABELS,
    DecisionForm,
    JoinForm,
    LeagueCreateForm,
    LeagueForm,
    OrganiserForm,
    RosterChoiceForm,
    SeasonForm,
    SwapForm,
)
from apps.leagues.history import season_player_ids
from apps.leagues.log_texts import log_lines
from apps.leagues.models import (
    League,
    Registration,
    RosterChange,
    Season,
)
from apps.leagues.page_cache import cached_fragment, season_version
from apps.leagues.reveal import may_see_list, visible_log
from apps.leagues.round_views import (
    pairing_job_context,
    round_players,
    season_rounds_context,
)
from apps.leagues.season_catalog import (
    costs_locked,
    frozen_report,
    plays_costs,
    prefetched_rosters,
    rosters_legal_for,
)
from apps.leagues.selectors import (
    LeagueAccess,
    league_by_join_code,
    league_list_for_user,
    open_disputes,
    registration_of,
    season_contacts,
    season_get,
    season_standings,
    sorted_rows,
    system_ratings,
    systems_with_leagues,
)
from apps.leagues.services import LeagueError
from apps.leagues.standings import Row
from apps.leagues.standings_rows import guides, standings_rows
from apps.leagues.view_helpers import access_to, act, request_user, season_url
from apps.rosters.models import Roster
from apps.rosters.selectors import roster_list_for_user
from apps.systems.core.registry import registry

SEASON = "leagues/season.html"
STANDINGS_COLUMNS = [
    "rank",
    "name",
    "played",
    "wins",
    "draws",
    "losses",
    "points",
    "vp_diff",
    "vp_for",
    "sos",
]


# --- Leagues ----------------------------------------------------------------------------------


@require_GET
def league_list(request: HtmxHttpRequest) -> HttpResponse:
    leagues = list(league_list_for_user(request.user))
    return render(
        request,
        "leagues/list.html",
        {"leagues": leagues, "join_form": JoinForm(), "rated_systems": systems_with_leagues()},
    )


@login_required
@require_http_methods(["GET", "POST"])
def league_new(request: HtmxHttpRequest) -> HttpResponse:
    form = LeagueCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        league = services.league_create(
            creator=request_user(request),
            system=game_system_get(form.cleaned_data["system"]),
            name=form.cleaned_data["name"],
            description=form.cleaned_data["description"],
            visibility=form.cleaned_data["visibility"],
        )
        messages.success(request, _("League created. Add a season to start."))
        return redirect("leagues:detail", league.key)
    return render(request, "leagues/league_form.html", {"form": form, "league": None})


@require_GET
def league_detail(request: HtmxHttpRequest, key: str) -> HttpResponse:
    access = access_to(request, key)
    league = access.league
    context: dict[str, Any] = {
        "access": access,
        "league": league,
        "seasons": list(league.seasons.all()),
        "organisers": list(league.organisers.all()),
        "join_url": request.build_absolute_uri(
            reverse("leagues:join") + f"?code={league.join_code}"
        ),
    }
    if access.is_organiser:
        context["organiser_form"] = OrganiserForm()
        context["log"] = log_lines(league.log.select_related("actor", "season")[:20])
    return render(request, "leagues/league.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def league_edit(request: HtmxHttpRequest, key: str) -> HttpResponse:
    access = access_to(request, key)
    access.require_organiser()
    league = access.league
    form = LeagueForm(
        request.POST or None,
        initial={
            "name": league.name,
            "description": league.description,
            "visibility": league.visibility,
        },
    )
    if request.method == "POST" and form.is_valid():
        services.league_update(user=request_user(request), key=key, **form.cleaned_data)
        messages.success(request, _("League saved."))
        return redirect("leagues:detail", key)
    return render(request, "leagues/league_form.html", {"form": form, "league": league})


@login_required
@require_POST
def league_add_organiser(request: HtmxHttpRequest, key: str) -> HttpResponse:
    form = OrganiserForm(request.POST)
    username = form.data.get("username", "")
    return act(
        request,
        lambda: services.league_add_organiser(
            user=request_user(request), key=key, username=username
        ),
        success=_("Organiser added."),
        back=reverse("leagues:detail", args=[key]),
    )


@login_required
@require_POST
def league_new_code(request: HtmxHttpRequest, key: str) -> HttpResponse:
    services.league_new_join_code(user=request_user(request), key=key)
    messages.success(request, _("New join code made; the old one no longer works."))
    return redirect("leagues:detail", key)


# --- Joining ----------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def league_join(request: HtmxHttpRequest) -> HttpResponse:
    """Enter a join code, see the league it opens, register for a season with a roster."""
    code = request.POST.get("code") or request.GET.get("code") or ""
    form = JoinForm({"code": code} if code else None)
    context: dict[str, Any] = {"form": form}
    if not code:
        return render(request, "leagues/join.html", context)
    try:
        league = league_by_join_code(code)
    except Http404:
        form.add_error("code", _("No league has this join code. Check it with your organiser."))
        return render(request, "leagues/join.html", context, status=404)
    seasons = list(league.seasons.exclude(status=Season.Status.FINISHED))
    needs_roster = registry().get(league.system.slug).rosters is not None
    offered = _offered_rosters(request, league, seasons)
    posted = form_number(request.POST.get("season", "")) if request.method == "POST" else None
    season_forms = [
        (
            season,
            RosterChoiceForm(
                request.POST if season.pk == posted else None,
                rosters=offered.get(season.pk, []),
                required=needs_roster,
                auto_id=f"id_season{season.pk}_%s",
            ),
        )
        for season in seasons
    ]
    roster_form = next((form for season, form in season_forms if season.pk == posted), None)
    context.update(
        league=league,
        seasons=seasons,
        season_forms=season_forms,
        roster_form=roster_form,
        needs_roster=needs_roster,
        joined=_joined_seasons(request, seasons),
    )
    if request.method == "POST":
        if roster_form is None:
            # No such open season of this league: the service says so.
            user = request.user
            own = roster_list_for_user(request_user(request)) if user.is_authenticated else []
            roster_form = RosterChoiceForm(request.POST, rosters=own, required=False)
            context["roster_form"] = roster_form
        return _join_season(request, league, code, roster_form, context)
    return render(request, "leagues/join.html", context)


def _offered_rosters(
    request: HtmxHttpRequest, league: League, seasons: list[Season]
) -> dict[int, list[Roster]]:
    """For each season, the visitor's rosters of the league's system that are legal with the
    season's costs, as registration checks them (none while logged out)."""
    if not request.user.is_authenticated or not seasons:
        return {}
    rosters = prefetched_rosters(
        roster_list_for_user(request_user(request)).filter(system=league.system)
    )
    return rosters_legal_for(seasons, rosters)


def _joined_seasons(request: HtmxHttpRequest, seasons: list[Season]) -> set[int]:
    """The ids of the seasons the visitor is already registered for."""
    if not request.user.is_authenticated:
        return set()
    return {
        r.season_id
        for r in Registration.objects.filter(season__in=seasons, player_id=request.user.pk)
    }


def _join_season(
    request: HtmxHttpRequest,
    league: League,
    code: str,
    roster_form: RosterChoiceForm,
    context: dict[str, Any],
) -> HttpResponse:
    """Register the visitor for the season they chose; a visitor logged out logs in first and
    comes back to the same code."""
    if not request.user.is_authenticated:
        return redirect(f"{reverse('accounts:login')}?next={request.get_full_path()}")
    season_id = form_number(request.POST.get("season", "")) or 0
    if roster_form.is_valid():
        try:
            registration = services.season_join(
                user=request_user(request),
                season_id=season_id,
                code=code,
                roster_id=roster_form.cleaned_data.get("roster"),
            )
        except LeagueError as error:
            roster_form.add_error(None, error.message)
        else:
            messages.success(request, _("You are in. Good games!"))
            return redirect(season_url(league, registration.season))
    return render(request, "leagues/join.html", context, status=422)


# --- Seasons ----------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def season_new(request: HtmxHttpRequest, key: str) -> HttpResponse:
    access = access_to(request, key)
    access.require_organiser()
    form = SeasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        fields = {k: data[k] for k in data if not k.startswith("tie_breaker_")}
        try:
            season = services.season_create(user=request_user(request), key=key, **fields)
        except LeagueError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("Season created. Share the join code with your players."))
            return redirect(season_url(access.league, season))
    return render(request, "leagues/season_form.html", {"form": form, "league": access.league})


def _standings_context(
    request: HtmxHttpRequest, access: LeagueAccess, season: Season, version: str
) -> dict[str, Any]:
    """``standings_html``: the standings table, rendered once per season version and sort
    (apps.leagues.page_cache) for every viewer, whose own row is marked afterwards: computing
    and rendering the table of a big season costs far more than the rest of the page."""
    sort = request.GET.get("sort", "rank")
    if sort not in STANDINGS_COLUMNS:
        sort = "rank"
    mine = registration_of(request.user, season)
    context: dict[str, Any] = {
        "league": access.league,
        "season": season,
        "sort": sort,
        "mine": mine,
        "tie_breaker_labels": [
            TIE_BREAKER_LABELS[t] for t in season.tie_breakers if t in TIE_BREAKER_LABELS
        ],
    }

    def render_table() -> str:
        rows = season_standings(season)
        table = guides(rows, sorted_rows(rows, sort))
        rows_html = standings_rows(
            table, league=access.league, season=season, players=season_player_ids(season)
        )
        return render_to_string(
            f"{SEASON}#standings", {**context, "table": table, "rows_html": rows_html}, request
        )

    html = cached_fragment(version, ("standings", sort), render_table)
    if mine is not None:
        row = f'<tr data-entrant="{mine.pk}">'
        html = mark_safe(html.replace(row, f'<tr class="mine" data-entrant="{mine.pk}">', 1))  # noqa: S308
    context["standings_html"] = html
    return context


@require_GET
def season_detail(request: HtmxHttpRequest, key: str, season_id: int) -> HttpResponse:
    access = access_to(request, key)
    season = season_get(access, season_id)
    version = season_version(season)
    context: dict[str, Any] = {"access": access, "league": access.league, "season": season}
    context.update(_standings_context(request, access, season, version))
    if request.htmx and request.htmx.target == "standings":
        return HttpResponse(context["standings_html"])
    context.update(season_rounds_context(request, access, season, context["mine"], version))
    context.update(
        season_day_context(
            access,
            season,
            context["mine"],
            context["rounds"],
            check_in_rows=request.GET.get("check_in") == "all",
        )
    )
    context["log"] = log_lines(visible_log(access, season)[:30]) if access.is_member else []
    context["plays_costs"] = plays_costs(season)
    context["costs_locked"] = (
        context["plays_costs"] and access.is_organiser and costs_locked(season)
    )
    if access.is_organiser:
        draft = context["draft"]
        context.update(
            pairing_job_context(request, season),
            swap_form=SwapForm(players=round_players(draft)) if draft else None,
            disputes=list(open_disputes(season)),
            contacts=season_contacts(access, season),
            roster_changes=list(
                RosterChange.objects.filter(
                    registration__season=season, status=RosterChange.Status.PENDING
                ).select_related("registration__player")
            ),
            decision_form=DecisionForm(),
        )
    return render(request, SEASON, context)


@require_GET
def season_csv(request: HtmxHttpRequest, key: str, season_id: int) -> HttpResponse:
    access = access_to(request, key)
    season = season_get(access, season_id)
    rows = season_standings(season)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    filename = f"{slugify(access.league.name)}-{slugify(season.name)}-standings.csv"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = csv.writer(response)
    writer.writerow(
        [
            _("Rank"),
            _("Player"),
            _("Played"),
            _("Wins"),
            _("Draws"),
            _("Losses"),
            _("Byes"),
            _("Points"),
            _("VP scored"),
            _("VP conceded"),
            _("VP difference"),
            _("Strength of schedule"),
            _("Head-to-head"),
            _("Dropped"),
        ]
    )
    for row in rows:
        writer.writerow(
            [
                row.rank,
                _csv_safe(row.entrant.name),
                row.played,
                row.wins,
                row.draws,
                row.losses,
                row.byes,
                row.points,
                row.vp_for,
                row.vp_against,
                row.vp_diff,
                row.sos,
                "" if row.h2h is None else row.h2h,
                _("yes") if row.entrant.dropped else "",
            ]
        )
    return response


def _csv_safe(text: str) -> str:
    """A display name a spreadsheet would run as a formula is written as plain text."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


@login_required
@require_POST
def season_finish(request: HtmxHttpRequest, key: str, season_id: int) -> HttpResponse:
    return act(
        request,
        lambda: services.season_finish(user=request_user(request), key=key, season_id=season_id),
        success=_("Season finished. The standings are final."),
        back=reverse("leagues:season", args=[key, season_id]),
    )


# --- Players ----------------------------------------------------------------------------------


@require_GET
def player_detail(
    request: HtmxHttpRequest, key: str, season_id: int, registration_id: int
) -> HttpResponse:
    access = access_to(request, key)
    season = season_get(access, season_id)
    registration = (
        Registration.objects.filter(season=season, pk=registration_id)
        .select_related("player")
        .first()
    )
    if registration is None:
        raise Http404
    rows = season_standings(season)
    row: Row | None = next((r for r in rows if r.entrant.id == registration.pk), None)
    own = access.user_id == registration.player_id
    # Before the list reveal only the player and the organisers see the roster (reveal.py).
    list_visible = may_see_list(access, season, registration)
    snapshot = (registration.roster_snapshot or {}) if list_visible else {}
    # Points and legality with the season's costs, not the catalogue's now.
    report = frozen_report(season, snapshot) if snapshot else None
    rating = next(
        (r for r in system_ratings(access.league.system) if r.player == registration.player_id),
        None,
    )
    context: dict[str, Any] = {
        "access": access,
        "league": access.league,
        "season": season,
        "registration": registration,
        "row": row,
        "names": {r.entrant.id: r.entrant.name for r in rows},
        "own": own,
        "rating": rating,
        "entries": snapshot.get("entries", []),
        # An army from outside the catalogue (Bunkers and Badasses) is frozen as its units.
        "units": snapshot.get("units", []),
        "changes": (
            list(registration.roster_changes.select_related("decided_by")) if list_visible else []
        ),
        "list_visible": list_visible,
        "report": report,
        "points": report.totals.get("points") if report is not None else None,
        "plays_costs": plays_costs(season),
    }
    if own:
        # The rosters a change could take: legal with the season's costs, as the request and
        # the organiser's approval check them.
        rosters = prefetched_rosters(
            roster_list_for_user(request_user(request)).filter(system=access.league.system)
        )
        context["roster_form"] = RosterChoiceForm(
            rosters=rosters_legal_for([season], rosters)[season.pk], required=True
        )
    return render(request, "leagues/player.html", context)


@login_required
@require_POST
def player_drop(
    request: HtmxHttpRequest, key: str, season_id: int, registration_id: int
) -> HttpResponse:
    return act(
        request,
        lambda: services.registration_drop(
            user=request_user(request), key=key, registration_id=registration_id
        ),
        success=_("Dropped from the season: no more pairings. Games played still count."),
        back=reverse("leagues:player", args=[key, season_id, registration_id]),
    )


@login_required
@require_POST
def roster_change_request(
    request: HtmxHttpRequest, key: str, season_id: int, registration_id: int
) -> HttpResponse:
    roster_id = form_number(request.POST.get("roster", "")) or 0
    return act(
        request,
        lambda: services.roster_change_request(
            user=request_user(request),
            key=key,
            registration_id=registration_id,
            roster_id=roster_id,
        ),
        success=_("Roster change requested. An organiser will approve or reject it."),
        back=reverse("leagues:player", args=[key, season_id, registration_id]),
    )


@login_required
@require_POST
def roster_change_decide(
    request: HtmxHttpRequest, key: str, season_id: int, change_id: int
) -> HttpResponse:
    approve = request.POST.get("approve") == "1"
    form = DecisionForm(request.POST)
    note = form.cleaned_data["note"] if form.is_valid() else ""
    return act(
        request,
        lambda: services.roster_change_decide(
            user=request_user(request), key=key, change_id=change_id, approve=approve, note=note
        ),
        success=_("Roster change approved.") if approve else _("Roster change rejected."),
        back=reverse("leagues:season", args=[key, season_id]),
    )
