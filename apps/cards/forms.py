"""The print dialog's choices."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from apps.cards.models import CardExport
from apps.cards.services import ExportOptions

ROSTER_CONTENTS = [
    choice for choice in CardExport.Contents.choices if choice[0] != CardExport.Contents.BLANK
]


class PrintForm(forms.Form):
    contents = forms.ChoiceField(
        label=_("What to print"),
        choices=ROSTER_CONTENTS,
        initial=CardExport.Contents.ALL,
        widget=forms.RadioSelect,
    )
    layout = forms.ChoiceField(
        label=_("Layout"),
        choices=CardExport.Layout.choices,
        initial=CardExport.Layout.SHEET,
        widget=forms.RadioSelect,
    )
    paper = forms.ChoiceField(
        label=_("Paper"),
        choices=CardExport.Paper.choices,
        initial=CardExport.Paper.A4,
        widget=forms.RadioSelect,
    )

    def options(self) -> ExportOptions:
        data = self.cleaned_data
        return ExportOptions(
            layout=data["layout"], paper=data["paper"], contents=data.get("contents", "")
        )


class BlankForm(PrintForm):
    contents = None  # type: ignore[assignment]
