"""Forms of the roster pages (shape only; the rules are checked by the system)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from apps.catalog.models import Faction, GameSystem
from apps.catalog.selectors import team_factions
from apps.rosters.models import MAX_ENTRY_COUNT
from apps.rosters.selectors import catalog_data
from apps.systems.core.registry import SizeKind, Sizing, registry
from apps.systems.core.rosters import OptionChoice, RosterOption

MAX_IMPORT_BYTES = 256 * 1024


def size_amount(sizing: Sizing, value: int) -> str:
    """``value`` in the sizing's words: "5 fighters", "600 points"."""
    singular, plural = sizing.amount
    return ngettext(singular, plural, value) % {"n": value}


def choice_label(choice: OptionChoice) -> str:
    """A roster option's choice in the reader's language (its label is a catalogue msgid)."""
    return gettext(choice.label) % dict(choice.params)


def option_choices(system: GameSystem, option: RosterOption) -> list[tuple[str, str]]:
    """The (value, label) choices of a roster option; with ``catalog_kind`` they include the
    catalogue's current items of that kind (an organiser may have added one)."""
    return [
        (choice.value, choice_label(choice))
        for choice in option.catalog_choices(catalog_data(system))
    ]


def roster_size_text(system_slug: str, settings: Mapping[str, object]) -> str:
    """How big a team is built, in the system's words: its game size or points limit, and the
    catalogue choice that sizes it too (a Stahlgewitter game type with its range); with none of
    them, that there is no limit."""
    info = registry().get(system_slug)
    sizing = info.sizing
    value = settings.get(sizing.setting)
    parts = []
    if isinstance(value, int) and not isinstance(value, bool):
        parts.append(size_amount(sizing, value))
    for option in info.rosters.options if info.rosters else ():
        chosen = settings.get(option.key)
        if not option.catalog_kind or not chosen or not isinstance(chosen, str):
            continue
        system = GameSystem.objects.filter(slug=system_slug).first()
        choices = option.catalog_choices(catalog_data(system)) if system else ()
        label = next((choice_label(c) for c in choices if c.value == chosen), chosen)
        parts.append(label)
    return " · ".join(parts) if parts else gettext("no points limit")


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
            if option.choices or option.catalog_kind:
                self.fields[option.key] = forms.ChoiceField(
                    label=_(option.label),
                    help_text=_(option.help),
                    required=False,
                    choices=option_choices(system, option),
                )
                continue
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


class CountForm(forms.Form):
    """An entry's number of identical models: a number typed in (``count``), or a step from
    the stored number (``change``, the −/+ buttons: two quick taps add two)."""

    count = forms.IntegerField(required=False, min_value=1, max_value=MAX_ENTRY_COUNT)
    change = forms.TypedChoiceField(required=False, coerce=int, choices=[("-1", "-1"), ("1", "1")])

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("count") is None and data.get("change") in (None, ""):
            raise forms.ValidationError(_("Enter the number of models."))
        return data


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
