"""Forms of the roster pages (shape only; the rules are checked by the system)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from apps.catalog.models import Faction, GameSystem
from apps.systems.core.registry import registry

MAX_IMPORT_BYTES = 256 * 1024


def add_size_field(form: forms.Form, system: GameSystem) -> list[str]:
    """The roster's size setting: the system's game sizes (Deathmatch), or else an optional
    points limit (the points systems of api.md). Returns the setting names it added."""
    sizes = registry().get(system.slug).game_sizes
    if sizes:
        form.fields["game_size"] = forms.TypedChoiceField(
            label=_("Game size"),
            coerce=int,
            initial=sizes[len(sizes) // 2].value,
            choices=[(size.value, _(size.label)) for size in sizes],
        )
        return ["game_size"]
    form.fields["points_limit"] = forms.IntegerField(
        label=_("Points limit"),
        required=False,
        min_value=1,
        max_value=100_000,
        help_text=_("Optional: leave empty to play without a limit."),
    )
    return ["points_limit"]


def size_settings(form: forms.Form, names: list[str]) -> dict[str, object]:
    """The size settings as entered; an empty points limit is no setting at all."""
    data = form.cleaned_data
    return {name: data[name] for name in names if data.get(name) is not None}


class RosterCreateForm(forms.Form):
    name = forms.CharField(label=_("Team name"), max_length=100)
    faction = forms.ModelChoiceField(
        label=_("Faction"), queryset=Faction.objects.none(), empty_label=_("Choose a faction")
    )

    def __init__(self, *args: Any, system: GameSystem, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        faction_field = self.fields["faction"]
        assert isinstance(faction_field, forms.ModelChoiceField)
        faction_field.queryset = Faction.objects.filter(system=system)
        self.size_names = add_size_field(self, system)

    def settings(self) -> dict[str, object]:
        return size_settings(self, self.size_names)


class RosterSettingsForm(forms.Form):
    name = forms.CharField(label=_("Team name"), max_length=100)

    def __init__(self, *args: Any, system: GameSystem, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.size_names = add_size_field(self, system)
        rules = registry().get(system.slug).rosters
        self.option_keys = [option.key for option in rules.options] if rules else []
        for option in rules.options if rules else ():
            self.fields[option.key] = forms.BooleanField(
                label=_(option.label), help_text=_(option.help), required=False
            )

    def option_fields(self) -> list[forms.BoundField]:
        return [self[key] for key in self.option_keys]

    def size_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.size_names]

    def settings(self) -> dict[str, object]:
        """The roster settings the form sets (call after ``is_valid``); an emptied points limit
        is removed (``None``)."""
        data = self.cleaned_data
        sizes = {name: data.get(name) for name in self.size_names}
        return {**sizes, **{key: data[key] for key in self.option_keys}}


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
