"""Forms of the outside-army pages (shape only; the house rules are checked by the system)."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.core.files.uploadedfile import UploadedFile
from django.utils.translation import gettext_lazy as _

from apps.rosters.models import (
    MAX_UNIT_MODELS,
    MAX_UNIT_POINTS,
    MAX_UNIT_POWER,
    MAX_UNIT_WOUNDS,
)
from apps.rosters.unit_documents import MAX_KEYWORDS
from apps.systems.core.rosters import MAX_KEYWORD_LENGTH, MAX_POINTS_LIMIT, UnitInput

# A list builder's file: larger than any real 2,000-point list (BattleScribe's run to 300 KB);
# the parser keeps its own, stricter limits on what the file unpacks to.
MAX_ARMY_FILE_BYTES = 2 * 1024 * 1024

_MM = r"(\d{1,3}(?:[.,]\d)?)"
_ROUND = re.compile(rf"^\s*{_MM}\s*(?:mm)?\s*$", re.IGNORECASE)
_OVAL = re.compile(rf"^\s*{_MM}\s*[x×*]\s*{_MM}\s*(?:mm)?\s*$", re.IGNORECASE)


def _mm(text: str) -> str:
    """A length as stored: "28.5", "32" (a decimal comma read as a point, ".0" dropped)."""
    return f"{float(text.replace(',', '.')):g}"


def base_from_text(text: str) -> str:
    """A base as a player types it ("32", "32 mm", "120x92", "120 × 92 mm") in the stored form
    ("round:32", "oval:120x92"); "" for nothing; ``ValidationError`` for anything else."""
    if not text.strip():
        return ""
    if match := _ROUND.match(text):
        return f"round:{_mm(match[1])}"
    if match := _OVAL.match(text):
        return f"oval:{_mm(match[1])}x{_mm(match[2])}"
    raise forms.ValidationError(
        _("Give the base in millimetres: 32 for a round base, 120x92 for an oval one.")
    )


def base_as_text(base: str) -> str:
    """The stored form as the player typed it: "32", "120x92"."""
    return base.partition(":")[2]


def _flags() -> dict[str, forms.BooleanField]:
    return {
        "walker": forms.BooleanField(label=_("Walker"), required=False),
        "reserve": forms.BooleanField(label=_("Starts in reserve"), required=False),
        "deep_strike": forms.BooleanField(
            label=_("Arrives by a deep-strike-like rule"), required=False
        ),
    }


class UnitAnswerForm(forms.Form):
    """What the player says about one unit."""

    base = forms.CharField(label=_("Base (mm)"), max_length=20, required=False)
    walker, reserve, deep_strike = _flags().values()

    def clean_base(self) -> str:
        return base_from_text(self.cleaned_data.get("base", ""))


class UnitForm(forms.Form):
    """A unit typed in by hand."""

    name = forms.CharField(label=_("Unit name"), max_length=100)
    models = forms.IntegerField(label=_("Models"), min_value=1, max_value=MAX_UNIT_MODELS)
    points = forms.IntegerField(
        label=_("Points"), min_value=0, max_value=MAX_UNIT_POINTS, required=False
    )
    power = forms.IntegerField(
        label=_("Power level"), min_value=0, max_value=MAX_UNIT_POWER, required=False
    )
    wounds = forms.IntegerField(
        label=_("Wounds per model"), min_value=1, max_value=MAX_UNIT_WOUNDS, initial=1
    )
    keywords = forms.CharField(
        label=_("Keywords"),
        max_length=600,
        required=False,
        help_text=_("Separated by commas, e.g. Infantry, Character, Vehicle, Fly."),
    )
    base = forms.CharField(label=_("Base (mm)"), max_length=20, required=False)
    walker, reserve, deep_strike = _flags().values()

    def clean_base(self) -> str:
        return base_from_text(self.cleaned_data.get("base", ""))

    def clean_keywords(self) -> tuple[str, ...]:
        words = [word.strip() for word in self.cleaned_data.get("keywords", "").split(",")]
        words = list(dict.fromkeys(word[:MAX_KEYWORD_LENGTH] for word in words if word))
        if len(words) > MAX_KEYWORDS:
            raise forms.ValidationError(_("At most %(limit)d keywords.") % {"limit": MAX_KEYWORDS})
        return tuple(words)

    def unit(self) -> UnitInput:
        """The unit the form describes (call after ``is_valid``)."""
        data = self.cleaned_data
        return UnitInput(
            name=data["name"].strip(),
            models=data["models"],
            points=data["points"] or 0,
            power=data["power"] or 0,
            keywords=data["keywords"],
            wounds=data["wounds"],
            base=data["base"],
            walker=data["walker"],
            reserve=data["reserve"],
            deep_strike=data["deep_strike"],
        )


class ArmyFileForm(forms.Form):
    """A BattleScribe roster (.ros, .rosz) or New Recruit's compatible export."""

    file = forms.FileField(
        label=_("Army list (.ros or .rosz)"),
        widget=forms.ClearableFileInput(attrs={"accept": ".ros,.rosz,application/xml,.xml,.zip"}),
    )
    name = forms.CharField(
        label=_("Army name"),
        max_length=100,
        required=False,
        help_text=_("Leave it empty to use the list's own name."),
    )
    points_limit = forms.IntegerField(
        label=_("Points limit"),
        min_value=1,
        max_value=MAX_POINTS_LIMIT,
        required=False,
        help_text=_("What the players agreed on; leave it empty for no limit."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    power_level = forms.BooleanField(label=_("Built with power level"), required=False)

    def clean_file(self) -> UploadedFile:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_ARMY_FILE_BYTES:
            raise forms.ValidationError(_("The file is larger than 2 MB."))
        return upload

    def settings(self) -> dict[str, Any]:
        data = self.cleaned_data
        settings: dict[str, Any] = {"power_level": data["power_level"]}
        if data["points_limit"] is not None:
            settings["points_limit"] = data["points_limit"]
        return settings
