"""A round's pairings table rows as HTML, built in Python.

The season page shows its current round in full: 128 games in a 256-player season, each row
with two names, a score, its badges and a link or two. Through the template engine the rows
were about a third of the page's time after every change (issue 16); as with the standings
(``standings_rows``), the texts and links are made once per table and every value escaped.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from apps.common.links import url_stem
from apps.leagues.models import League, Pairing, Result, Round


def pairing_rows(
    games: Iterable[Mapping[str, Any]], round_: Round, league: League, *, tracker: bool
) -> SafeString:
    """The ``<tr>`` of each game of ``round_.view`` (``round_views.round_view``): the links
    only in a published round, the tracker's link (``tracker``: the system has one) on the
    viewer's own game until it has a result."""
    texts = {
        "versus": escape(pgettext("versus, between two players", "v")),
        "not_reported": escape(_("not reported")),
        "bye": escape(_("bye")),
        "report": escape(_("Report / confirm")),
        "game": escape(_("Game")),
        "play": escape(_("Play on the tracker")),
    }
    published = round_.status == Round.Status.PUBLISHED
    # The league key is a generated token: nothing to escape in either link.
    game_url = url_stem("leagues:pairing", league.key)
    play_url = url_stem("matches:league_new")
    rows = []
    for game in games:
        pairing: Pairing = game["pairing"]
        result: Result | None = game["result"]
        mine = ' class="mine"' if game["mine"] else ""
        if pairing.player_b is None:
            cells = (
                f"<td>{escape(pairing.player_a.player.shown_name)}</td>"
                f'<td><span class="badge">{texts["bye"]}</span></td><td></td>'
            )
        else:
            links = ""
            if published:
                label = texts["report"] if game["mine"] and not game["counts"] else texts["game"]
                links = f'<a href="{game_url}{pairing.pk}/">{label}</a>'
                if game["mine"] and result is None and tracker:
                    links += f' · <a href="{play_url}{pairing.pk}/">{texts["play"]}</a>'
            cells = (
                f"<td>{_players(pairing, result, texts['versus'])}</td>"
                f"<td>{_score(result, game['counts'], texts['not_reported'])}</td>"
                f"<td>{links}</td>"
            )
        rows.append(f'<tr{mine}><td class="num">{pairing.table}</td>{cells}</tr>')
    return mark_safe("".join(rows))  # noqa: S308 - every text above is escaped


def _players(pairing: Pairing, result: Result | None, versus: str) -> str:
    outcome = result.outcome if result is not None else None
    first = "winner" if outcome == Result.Outcome.A else ""
    second = "winner" if outcome == Result.Outcome.B else ""
    assert pairing.player_b is not None
    return (
        f'<span class="{first}">{escape(pairing.player_a.player.shown_name)}</span>'
        f' <span class="muted">{versus}</span>'
        f' <span class="{second}">{escape(pairing.player_b.player.shown_name)}</span>'
    )


def _score(result: Result | None, counts: bool, not_reported: str) -> str:
    if result is None:
        return f'<span class="muted">{not_reported}</span>'
    return f'<span class="score">{result.vp_a}–{result.vp_b}</span> {result_badges(result, counts)}'


def result_badges(result: Result, counts: bool) -> SafeString:
    """The badges of a reported result: where it stands (confirmed, decided, disputed,
    counting unanswered or awaiting confirmation) and whether the tracker recorded it."""
    if result.status == Result.Status.CONFIRMED:
        badge = format_html('<span class="badge ok">{}</span>', _("confirmed"))
    elif result.status == Result.Status.DECIDED:
        badge = format_html('<span class="badge ok">{}</span>', _("decided"))
    elif result.status == Result.Status.DISPUTED:
        badge = format_html('<span class="badge warn">{}</span>', _("disputed"))
    elif counts:
        badge = format_html('<span class="badge ok">{}</span>', _("counts (not answered)"))
    else:
        badge = format_html('<span class="badge warn">{}</span>', _("awaiting confirmation"))
    if result.source == Result.Source.TRACKED:
        badge += format_html(' <span class="badge">{}</span>', _("recorded by the tracker"))
    return badge
