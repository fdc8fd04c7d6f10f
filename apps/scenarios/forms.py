"""The scenario editor's form: the system's scenario fields and a few NPC rows."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from apps.systems.core.rosters import CatalogEntry
from apps.systems.core.scenarios import NpcChoice, ScenarioRules
from apps.systems.core.schema import FieldSpec

MAX_NPC_COUNT = 12


def _field(spec: FieldSpec) -> forms.Field:
    label = _(spec.label)
    help_text = _(spec.help) if spec.help else ""
    if spec.type == "choice":
        return forms.ChoiceField(
            label=label,
            help_text=help_text,
            choices=[(v, _(t)) for v, t in spec.choices],
            required=spec.required,
            initial=spec.default,
        )
    if spec.type == "int":
        return forms.IntegerField(
            label=label,
            help_text=help_text,
            min_value=spec.minimum,
            max_value=spec.maximum,
            initial=spec.default,
            widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        )
    return forms.CharField(
        label=label,
        help_text=help_text,
        required=spec.required,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 4}),
    )


class ScenarioForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)

    def __init__(
        self,
        *args: Any,
        rules: ScenarioRules,
        npc_profiles: tuple[CatalogEntry, ...],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.rules = rules
        self.specs = rules.fields
        for spec in rules.fields:
            self.fields[spec.name] = _field(spec)
        profiles = [("", "—")] + [(p.slug, p.name) for p in npc_profiles]
        behaviours = [(key, _(label)) for key, label in rules.npc_behaviours]
        self.rows = range(rules.max_npc_rows)
        for row in self.rows:
            self.fields[f"npc_{row}_profile"] = forms.ChoiceField(
                label=_("NPC"), choices=profiles, required=False
            )
            self.fields[f"npc_{row}_behaviour"] = forms.ChoiceField(
                label=_("Behaviour"), choices=behaviours, required=False
            )
            self.fields[f"npc_{row}_count"] = forms.IntegerField(
                label=_("How many"), min_value=1, max_value=MAX_NPC_COUNT, initial=1, required=False
            )

    def spec_fields(self) -> list[forms.BoundField]:
        return [self[spec.name] for spec in self.specs]

    def npc_rows(self) -> list[list[forms.BoundField]]:
        return [
            [self[f"npc_{row}_profile"], self[f"npc_{row}_behaviour"], self[f"npc_{row}_count"]]
            for row in self.rows
        ]

    def values(self) -> dict[str, object]:
        """The scenario's values; an optional choice left empty takes its default."""
        values = {spec.name: self.cleaned_data[spec.name] for spec in self.specs}
        for spec in self.specs:
            if spec.type == "choice" and values[spec.name] in ("", None):
                values[spec.name] = spec.default
        return values

    def npcs(self) -> list[NpcChoice]:
        data = self.cleaned_data
        return [
            NpcChoice(
                profile=data[f"npc_{row}_profile"],
                behaviour=data[f"npc_{row}_behaviour"] or self.rules.npc_behaviours[0][0],
                count=data[f"npc_{row}_count"] or 1,
            )
            for row in self.rows
            if data.get(f"npc_{row}_profile")
        ]

    @staticmethod
    def initial_for(rules: ScenarioRules, name: str, data: dict[str, Any]) -> dict[str, object]:
        values, npcs = rules.values(data)
        initial: dict[str, object] = {"name": name, **values}
        for row, npc in enumerate(npcs[: rules.max_npc_rows]):
            initial.update(
                {
                    f"npc_{row}_profile": npc.profile,
                    f"npc_{row}_behaviour": npc.behaviour,
                    f"npc_{row}_count": npc.count,
                }
            )
        return initial
