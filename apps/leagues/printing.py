"""A season's pairings (the current round) and standings as PDFs, printed through the cards'
export pipeline (apps.cards.documents): the same job row, Celery task, polling page, download
and cleanup as printed cards; only the HTML is the league's.

Anyone who may see the season may print it. An export is reused while the season's version
(apps.leagues.page_cache) is the same, so a room full of people pressing "Print" renders one PDF.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from apps.accounts.models import User
from apps.cards.documents import DocumentKind, register_document
from apps.cards.models import CardExport
from apps.cards.rendering import CardRenderError, font_paths
from apps.cards.services import card_export_request_document
from apps.leagues.common import LeagueError
from apps.leagues.models import Round, Season
from apps.leagues.page_cache import season_version
from apps.leagues.round_views import round_view
from apps.leagues.selectors import (
    AnyUser,
    league_access,
    season_get,
    season_rounds,
    season_standings,
)

PAIRINGS = CardExport.Contents.PAIRINGS
STANDINGS = CardExport.Contents.STANDINGS
KINDS = (str(PAIRINGS), str(STANDINGS))


def current_round_number(season: Season) -> int | None:
    """The last published round: the one being played (drafts are never printed)."""
    return (
        Round.objects.filter(season=season, status=Round.Status.PUBLISHED)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    )


def season_print_request(
    *, user: AnyUser, key: str, season_id: int, kind: str, language: str
) -> CardExport:
    """The PDF of the season's current pairings or standings (existing or new); raises
    ``ExportsUnavailable`` when no worker can make a new one."""
    access = league_access(user, key)
    season = season_get(access, season_id)
    if kind not in KINDS:
        raise LeagueError("unknown_document", _("Print the pairings or the standings."), 404)
    number = current_round_number(season) if kind == PAIRINGS else None
    if kind == PAIRINGS and number is None:
        raise LeagueError("no_round", _("No round has been published yet."), 409)
    return card_export_request_document(
        kind=kind,
        system=access.league.system,
        requested_by=user if isinstance(user, User) else None,
        document={"season": season.pk, "round": number},
        version=[season_version(season)],
        language=language,
    )


def _season(export: CardExport) -> Season:
    season = (
        Season.objects.select_related("league__system")
        .filter(pk=export.document.get("season"))
        .first()
    )
    if season is None:
        raise CardRenderError(_("The season was deleted."))
    return season


def _base(season: Season) -> dict[str, Any]:
    fonts = font_paths()
    return {
        "season": season,
        "league": season.league,
        "printed_at": timezone.now(),
        "font_regular": fonts["regular"].as_uri(),
        "font_bold": fonts["bold"].as_uri(),
    }


def pairings_html(export: CardExport) -> str:
    season = _season(export)
    number = export.document.get("round")
    rounds = season_rounds(season, include_drafts=False, numbers=[number] if number else [])
    if not rounds:
        raise CardRenderError(_("This round is no longer published."))
    view = round_view(rounds[0], season, None)
    return render_to_string("leagues/print/pairings.html", {**_base(season), "view": view})


def standings_html(export: CardExport) -> str:
    season = _season(export)
    rows = season_standings(season)
    return render_to_string("leagues/print/standings.html", {**_base(season), "rows": rows})


def _filename(export: CardExport) -> str:
    season = Season.objects.filter(pk=export.document.get("season")).first()
    name = slugify(season.name) if season else "season"
    if export.contents == PAIRINGS:
        return f"{name or 'season'}-round-{export.document.get('round')}-pairings.pdf"
    return f"{name or 'season'}-standings.pdf"


def _title(export: CardExport) -> str:
    if export.contents == PAIRINGS:
        return _("Print pairings")
    return _("Print standings")


def _back_url(export: CardExport) -> str:
    season = Season.objects.select_related("league").filter(pk=export.document.get("season"))
    found = season.first()
    if found is None:
        return reverse("leagues:list")
    return reverse("leagues:season", args=[found.league.key, found.pk])


def _may_see(export: CardExport, user: AnyUser) -> bool:
    season = Season.objects.select_related("league").filter(pk=export.document.get("season"))
    found = season.first()
    if found is None:
        return export.requested_by_id is not None and export.requested_by_id == user.pk
    try:
        league_access(user, found.league.key)
    except Http404:
        return False
    return True


def register() -> None:
    """Called by the app's ready(): the two league documents join the print pipeline."""
    for kind, html in ((PAIRINGS, pairings_html), (STANDINGS, standings_html)):
        register_document(
            DocumentKind(
                kind=str(kind),
                html=html,
                filename=_filename,
                title=_title,
                back_url=_back_url,
                may_see=_may_see,
            )
        )
