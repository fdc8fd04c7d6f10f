"""German dates as Django writes them ("1. November 2026", "01.11.2026"), with a comma between
date and time as German print does; the date pickers' ISO dates are accepted first."""

from __future__ import annotations

DATE_FORMAT = "j. F Y"
SHORT_DATE_FORMAT = "d.m.Y"
DATETIME_FORMAT = "j. F Y, H:i"
SHORT_DATETIME_FORMAT = "d.m.Y, H:i"
TIME_FORMAT = "H:i"
MONTH_DAY_FORMAT = "j. F"
YEAR_MONTH_FORMAT = "F Y"
FIRST_DAY_OF_WEEK = 1  # Monday
DATE_INPUT_FORMATS = ["%Y-%m-%d", "%d.%m.%Y", "%d.%m.%y"]
DATETIME_INPUT_FORMATS = ["%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M", "%d.%m.%Y %H:%M"]
