"""The standings table's rows as HTML, built in Python.

A full season's table is 256 rows of a dozen cells, each with a guide of up to ten games; the
template engine took most of the season page's time to render it after every change (issue
16). Here every text is escaped with ``html.escape`` (quotes too, as the templates escape) and
the rows joined once; the page caches the result by the season's version (``page_cache``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from apps.common.links import url_stem
from apps.leagues.models import League, Season
from apps.leagues.standings import Row

Guide = list[tuple[str, str, str]]


def guides(rows: Sequence[Row], table: Sequence[Row]) -> list[tuple[Row, Guide]]:
    """Each row of ``table`` with its player's games as (class, letter, title), the opponents
    named from ``rows`` (the whole table). The texts are translated once for the table, not
    once per game: a full season has thousands of games."""
    letters = {
        "W": pgettext("win, one letter", "W"),
        "D": pgettext("draw, one letter", "D"),
        "L": pgettext("loss, one letter", "L"),
        "bye": pgettext("bye, one letter", "B"),
    }
    bye = _("Round %(n)d: bye")
    played = _("Round %(n)d: %(for)d–%(against)d against %(name)s")
    names = {row.entrant.id: row.entrant.name for row in rows}

    def guide(row: Row) -> Guide:
        return [
            (
                item.result.lower(),
                letters[item.result],
                bye % {"n": item.round}
                if item.opponent is None
                else played
                % {
                    "n": item.round,
                    "for": item.vp_for,
                    "against": item.vp_against,
                    "name": names.get(item.opponent, ""),
                },
            )
            for item in row.history
        ]

    return [(row, guide(row)) for row in table]


def _ahead_by_texts() -> dict[str, str]:
    """Why a player ranks above the next one with the same points, by the deciding
    tie-breaker ("" for fewer losses)."""
    return {
        "vp_diff": escape(_("ahead of the next on VP difference")),
        "vp_for": escape(_("ahead of the next on VP scored")),
        "sos": escape(_("ahead of the next on strength of schedule")),
        "h2h": escape(_("ahead of the next on head-to-head")),
        "": escape(_("ahead of the next on fewer losses")),
    }


def _name_cell(
    row: Row, player_url: str, dropped: str, history: str, ahead_by: Mapping[str, str]
) -> str:
    badge = f' <span class="badge">{dropped}</span>' if row.entrant.dropped else ""
    reason = ahead_by.get(str(row.ahead_by), ahead_by[""])
    ahead = f'<small class="ahead">{reason}</small>' if row.ahead_by else ""
    return (
        f'<th scope="row"><span class="name-line"><a href="{player_url}{row.entrant.id}/">'
        f"{escape(row.entrant.name)}</a>{history}</span>{badge}{ahead}</th>"
    )


def _history_link(history_url: str, user_id: int | None, label: str) -> str:
    """A small link to the player's league history (all seasons); none without a user."""
    if user_id is None:
        return ""
    return (
        f' <a class="history-link" href="{history_url}{user_id}/" title="{label}">'
        f'<span aria-hidden="true">↗</span><span class="visually-hidden">{label}</span></a>'
    )


def _games(guide: Guide) -> str:
    return "".join(
        f'<li class="{escape(css)}" title="{escape(title)}">{escape(letter)}</li>'
        for css, letter, title in guide
    )


def _row(
    row: Row,
    guide: Guide,
    player_url: str,
    labels: tuple[str, str],
    history: str,
    ahead_by: Mapping[str, str],
) -> str:
    games_label, dropped = labels
    vp_diff = f"+{row.vp_diff}" if row.vp_diff > 0 else str(row.vp_diff)
    h2h = "–" if row.h2h is None else str(row.h2h)
    return (
        f'<tr data-entrant="{row.entrant.id}"><td class="num">{row.rank}</td>'
        f"{_name_cell(row, player_url, dropped, history, ahead_by)}"
        f'<td class="num">{row.played}</td><td class="num col-more">{row.wins}</td>'
        f'<td class="num col-more">{row.draws}</td><td class="num col-more">{row.losses}</td>'
        f'<td class="num strong">{row.points}</td><td class="num">{vp_diff}</td>'
        f'<td class="num col-more">{row.vp_for}</td><td class="num col-more">{row.sos}</td>'
        f'<td class="num col-more">{h2h}</td><td class="col-more">'
        f'<ol class="guide" aria-label="{games_label}">{_games(guide)}</ol></td></tr>'
    )


def standings_rows(
    table: Sequence[tuple[Row, Guide]],
    *,
    league: League,
    season: Season,
    players: Mapping[int, int] | None = None,
) -> SafeString:
    """The ``<tr>`` of every row, in the table's order; the viewer's own row is marked by the
    view afterwards (one cached table serves everyone). ``players`` (registration id → user
    id) adds the links to the players' league histories."""
    player_url = escape(url_stem("leagues:player", league.key, season.pk))
    history_url = escape(url_stem("leagues:history"))
    history_label = escape(_("League history"))
    players = players or {}
    labels = (escape(_("Games")), escape(_("dropped")))
    ahead_by = _ahead_by_texts()
    html = "".join(
        _row(
            row,
            guide,
            player_url,
            labels,
            _history_link(history_url, players.get(row.entrant.id), history_label),
            ahead_by,
        )
        for row, guide in table
    )
    return mark_safe(html)  # noqa: S308 - every text above is escaped
