"""Log and odds lines come from framework-free rule code with decimal points; readers see their
own language's decimal separator."""

from __future__ import annotations

from django.utils import translation

from apps.matches.presenters import line_text, localized_decimals
from apps.systems.core.match import TimelineLine


def test_german_readers_see_decimal_commas_in_line_parameters() -> None:
    line = TimelineLine("Expected LP lost: %(p)s", {"p": "0.91"})
    with translation.override("de"):
        assert line_text(line).endswith(": 0,91")
    with translation.override("en"):
        assert line_text(line) == "Expected LP lost: 0.91"


def test_fractions_names_and_whole_numbers_stay_as_they_are() -> None:
    with translation.override("de"):
        assert localized_decimals("65 % (741/1147)") == "65 % (741/1147)"
        assert localized_decimals("12.5 %") == "12,5 %"
        assert localized_decimals("Zivilist 1.") == "Zivilist 1."
        assert localized_decimals("v1.2.3") == "v1.2.3"
