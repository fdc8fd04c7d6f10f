"""Forms of the roster pages (shape only; the rules are checked by the system)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from apps.catalog.models import Faction, GameSystem
from apps.catalog.selectors import team_factions
from apps.systems.core.registry import SizeKind, Sizing, registry

MAX_IMPORT_BYTES = 256 * 1024


def size_amount(sizing: Sizing, value: int) -> str:
    """``value`` in the sizing's words: "5 fighters", "600 points"."""
    singular, plural = sizing.amount
    return ngettext(singular, plural, value) % {"n": value}


def roster_size_text(system_slug: str, settings: Mapping[str, object]) -> str:
    """How big a team is built: its game size, or its points limit, in the system's words."""
    sizing = registry().get(system_slug).sizing
    value = settings.get(sizing.setting)
    if isinstance(value, int) and not isinstance(value, bool):
        return size_amount(sizing, value)
    return gettext("no points limit")


def add_size_field(form: forms.Form, system: GameSystem, *, initial: bool) -> str:
    """The field that sizes a team, as the system sizes it (``Sizing``): one of the presets for
    a number of models, or a points limit with the presets as suggestions. Returns the field's
    name (the roster setting it fills)."""
    sizing = registry().get(system.slug).sizing
    if sizing.kind is SizeKind.MODELS:
        form.fields[sizing.setting] = forms.TypedChoiceField(
            label=_(sizing.label),
            coerce=int,
            choices=[(size.value, _(size.label)) for size in sizing.presets],
            initial=sizing.default if initial else None,
        )
        return sizing.setting
    suggestions = ", ".join(str(_(size.label)) for size in sizing.presets)
    help_text = _("What the players agreed on; leave it empty for no limit.")
    if suggestions:
        help_text = _("What the players agreed on (usual: %(sizes)s); empty for no limit.") % {
            "sizes": suggestions
        }
    form.fields[sizing.setting] = forms.IntegerField(
        label=_(sizing.label),
        required=sizing.required,
        min_value=1,
        max_value=sizing.maximum,
        initial=sizing.default if initial else None,
        help_text=help_text,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    return sizing.setting


class RosterCreateForm(forms.Form):
    name = forms.CharField(label=_("Team name"), max_length=100)
    faction = forms.ModelChoiceField(
        label=_("Faction"), queryset=Faction.objects.none(), empty_label=_("Choose a faction")
    )

    def __init__(self, *args: Any, system: GameSystem, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if registry().get(system.slug).outside_army:
            # An army from outside the catalogue has no catalogue faction to choose.
            del self.fields["faction"]
        else:
            faction_field = self.fields["faction"]
            assert isinstance(faction_field, forms.ModelChoiceField)
            faction_field.queryset = team_factions(system)
        self.size_name = add_size_field(self, system, initial=True)

    def settings(self) -> dict[str, object]:
        """The roster settings the form sets (call after ``is_valid``)."""
        return {self.size_name: self.cleaned_data[self.size_name]}


class RosterSettingsForm(forms.Form):
    name = forms.CharField(label=_("Team name"), max_length=100)

    def __init__(self, *args: Any, system: GameSystem, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.size_name = add_size_field(self, system, initial=False)
        rules = registry().get(system.slug).rosters
        self.option_keys = [option.key for option in rules.options] if rules else []
        for option in rules.options if rules else ():
            self.fields[option.key] = forms.BooleanField(
                label=_(option.label), help_text=_(option.help), required=False
            )

    def option_fields(self) -> list[forms.BoundField]:
        return [self[key] for key in self.option_keys]

    def size_field(self) -> forms.BoundField:
        return self[self.size_name]

    def settings(self) -> dict[str, object]:
        """The roster settings the form sets (call after ``is_valid``)."""
        data = self.cleaned_data
        options = {key: data[key] for key in self.option_keys}
        return {self.size_name: data[self.size_name], **options}


class RenameForm(forms.Form):
    name = forms.CharField(label=_("Nickname"), max_length=60, required=False)


class ImportForm(forms.Form):
    file = forms.FileField(
        label=_("Roster file (.json)"),
        required=False,
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
    )
    text = forms.CharField(
        label=_("…or paste the document"),
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
        required=False,
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        upload = data.get("file")
        if upload is not None:
            if upload.size > MAX_IMPORT_BYTES:
                raise forms.ValidationError(_("The file is larger than 256 KB."))
            try:
                data["content"] = upload.read().decode("utf-8")
            except UnicodeDecodeError:
                raise forms.ValidationError(_("The file is not UTF-8 text.")) from None
        elif data.get("text"):
            if len(data["text"]) > MAX_IMPORT_BYTES:
                raise forms.ValidationError(_("The document is larger than 256 KB."))
            data["content"] = data["text"]
        else:
            raise forms.ValidationError(_("Choose a file or paste a roster document."))
        return data
