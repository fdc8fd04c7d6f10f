"""Issue: "English dates show as 11/01/2026; use the locale's format everywhere." Dates are
written in each language's own order and words, on pages and in forms."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from django.template import Context, Template
from django.utils import translation

from apps.leagues.forms import SeasonForm

NOVEMBER_1 = date(2026, 11, 1)
EVENING = datetime(2026, 11, 1, 19, 30, tzinfo=ZoneInfo("Europe/Berlin"))


def _render(text: str, **context: object) -> str:
    return Template(text).render(Context(context))


@pytest.mark.parametrize(
    ("language", "short_date", "short_datetime", "long_date"),
    [
        ("en", "1 Nov 2026", "1 Nov 2026, 19:30", "1 November 2026"),
        ("de", "01.11.2026", "01.11.2026, 19:30", "1. November 2026"),
    ],
)
def test_dates_read_in_the_languages_own_order(
    language: str, short_date: str, short_datetime: str, long_date: str
) -> None:
    with translation.override(language):
        assert _render('{{ d|date:"SHORT_DATE_FORMAT" }}', d=NOVEMBER_1) == short_date
        assert _render('{{ d|date:"SHORT_DATETIME_FORMAT" }}', d=EVENING) == short_datetime
        assert _render("{{ d|date }}", d=NOVEMBER_1) == long_date


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_date_pickers_get_iso_dates_in_either_language(language: str) -> None:
    with translation.override(language):
        form = SeasonForm(initial={"starts_on": NOVEMBER_1})
        assert 'value="2026-11-01"' in str(form["starts_on"])
        bound = SeasonForm(data={"starts_on": "2026-11-01"})
        bound.is_valid()
        assert bound.cleaned_data["starts_on"] == NOVEMBER_1
