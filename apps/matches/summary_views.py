"""The post-game summary page: VP by round, damage and knock-outs per model, each player's luck
and the MVP, from the system's pure ``engine.summary`` (``core.summary``).

Participants open it at ``/matches/<id>/summary/``, anyone with the spectator link at
``/matches/watch/<token>/summary/``; everyone else gets a 404, as for the tracker. A match in
progress shows its summary so far.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from apps.common.http import HtmxHttpRequest
from apps.matches.models import Match
from apps.matches.selectors import (
    effective_events,
    engine_for,
    event_rows,
    match_by_spectator_token,
    match_for_participant,
    match_state,
)
from apps.systems.core.summary import MVP_RULE, LuckLine, ModelLine, PlayerSummary, Summary

# The chart's drawing area in SVG units; it scales to the width of the page.
CHART_WIDTH = 320
CHART_HEIGHT = 160
CHART_PAD = 24


@dataclass(frozen=True)
class Series:
    """One player's running total as an SVG polyline, with the dots at each round."""

    index: int
    name: str
    points: str
    dots: tuple[tuple[float, float, int], ...]  # x, y, running total


@dataclass(frozen=True)
class Chart:
    series: tuple[Series, ...]
    rounds: tuple[tuple[float, int], ...]  # x of each round's label, round number
    top: int  # the highest running total (the y axis label)
    width: int = CHART_WIDTH
    height: int = CHART_HEIGHT
    pad: int = CHART_PAD

    @property
    def view_box(self) -> str:
        return f"0 0 {self.width} {self.height}"

    @property
    def baseline(self) -> int:
        return self.height - self.pad


def chart(players: tuple[PlayerSummary, ...]) -> Chart:
    """Running totals by round: round 0 (nothing yet) on the left, the last round on the right."""
    rounds = max((len(p.points_by_round) for p in players), default=0)
    top = max([1, *(max(p.cumulative, default=0) for p in players)])
    span_x = CHART_WIDTH - 2 * CHART_PAD
    span_y = CHART_HEIGHT - 2 * CHART_PAD

    def x(round_: int) -> float:
        return round(CHART_PAD + span_x * round_ / max(rounds, 1), 1)

    def y(total: int) -> float:
        return round(CHART_HEIGHT - CHART_PAD - span_y * total / top, 1)

    series = []
    for player in players:
        totals = (0, *player.cumulative)
        dots = tuple((x(r), y(t), t) for r, t in enumerate(totals))
        series.append(
            Series(
                index=player.index,
                name=player.name,
                points=" ".join(f"{dx},{dy}" for dx, dy, _t in dots),
                dots=dots[1:],
            )
        )
    return Chart(
        series=tuple(series), rounds=tuple((x(r), r) for r in range(1, rounds + 1)), top=top
    )


@dataclass(frozen=True)
class LuckRow:
    label: str
    count: int
    observed: float
    expected: float
    difference: float

    @classmethod
    def of(cls, line: LuckLine) -> LuckRow:
        return cls(
            label=_(line.label),
            count=line.count,
            observed=float(line.observed),
            expected=float(line.expected),
            difference=float(line.difference),
        )


@dataclass(frozen=True)
class Team:
    """A player's column of the page (``index`` None: the models of no player, NPCs)."""

    index: int | None
    name: str
    total: int
    points_by_round: tuple[int, ...]
    luck: tuple[LuckRow, ...]
    models: tuple[ModelLine, ...]


def _teams(summary: Summary) -> list[Team]:
    teams = [
        Team(
            index=p.index,
            name=p.name,
            total=p.total,
            points_by_round=p.points_by_round,
            luck=tuple(LuckRow.of(line) for line in p.luck),
            models=tuple(m for m in summary.models if m.player == p.index),
        )
        for p in summary.players
    ]
    npcs = tuple(m for m in summary.models if m.player is None)
    if npcs:
        teams.append(Team(None, _("NPCs"), 0, (), (), npcs))
    return teams


def _context(match: Match, *, spectate: str) -> dict[str, Any]:
    engine = engine_for(match)
    state = match_state(match)
    summary = engine.summary(effective_events(engine, list(event_rows(match))), state)
    if summary is None:
        raise Http404
    chart_ = chart(summary.players)
    mvp = summary.model(summary.mvp) if summary.mvp is not None else None
    names = {p.index: p.name for p in summary.players}
    tracker = (
        reverse("matches:spectate", args=[spectate])
        if spectate
        else reverse("matches:tracker", args=[match.pk])
    )
    return {
        "match": match,
        "summary": summary,
        "teams": _teams(summary),
        "chart": chart_,
        "round_numbers": range(1, len(chart_.rounds) + 1),
        "points_label": _(summary.points_label),
        "notes": [_(note) for note in (*summary.notes, MVP_RULE)],
        "mvp": mvp,
        "mvp_player": names.get(mvp.player) if mvp is not None and mvp.player is not None else "",
        "tracker_url": tracker,
        "spectate": spectate,
    }


@require_GET
def match_summary(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    """The summary for the match's participants (404 for anyone else, logged in or not)."""
    match = match_for_participant(request.user, match_id)
    return render(request, "matches/summary.html", _context(match, spectate=""))


@require_GET
def match_summary_spectate(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The same summary for anyone holding the spectator link."""
    match = match_by_spectator_token(token)
    return render(request, "matches/summary.html", _context(match, spectate=token))
