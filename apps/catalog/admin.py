"""Admin for the catalogue: forms with one input per field of the system's schema.

Profiles and items are saved through ``apps.catalog.services`` so that any change of a card
makes a new version, as it does when the shipped data is loaded.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.db import transaction
from django.http import HttpRequest
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from apps.catalog import services
from apps.catalog.models import Faction, GameSystem, Item, Mission, Profile
from apps.systems.core.errors import RuleViolation
from apps.systems.core.registry import registry
from apps.systems.core.schema import CatalogSchema, FieldSpec, SchemaError

STRUCTURED_ROWS = 4


def _form_field(spec: FieldSpec) -> forms.Field:
    label = gettext(spec.label)
    help_text = gettext(spec.help) if spec.help else ""
    if spec.type == "int":
        return forms.IntegerField(
            label=label,
            help_text=help_text,
            required=spec.required,
            min_value=spec.minimum,
            max_value=spec.maximum,
        )
    if spec.type == "bool":
        return forms.BooleanField(label=label, help_text=help_text, required=False)
    if spec.type == "choice":
        return forms.ChoiceField(
            label=label,
            help_text=help_text,
            required=spec.required,
            choices=[(value, gettext(text)) for value, text in spec.choices],
        )
    rows = 2 if spec.type == "text" else STRUCTURED_ROWS
    return forms.CharField(
        label=label,
        help_text=help_text,
        required=spec.required,
        widget=forms.Textarea(attrs={"rows": rows, "cols": 80}),
    )


def _schema_for(system: GameSystem | None) -> CatalogSchema | None:
    return registry().get(system.slug).catalog if system is not None else None


class SchemaForm(forms.ModelForm):
    """A catalogue form whose ``stats`` inputs come from the system's schema."""

    spec_attribute = "profile_fields"
    schema: CatalogSchema | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.schema is None:
            return
        stats = self.instance.stats if self.instance.pk else {}
        for spec in self.specs():
            self.fields[f"stats__{spec.name}"] = _form_field(spec)
            if spec.name in stats:
                self.initial[f"stats__{spec.name}"] = self.schema.format_field(
                    spec, stats[spec.name]
                )

    def specs(self) -> tuple[FieldSpec, ...]:
        assert self.schema is not None
        return tuple(getattr(self.schema, self.spec_attribute))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.schema is None:
            return data
        stats: dict[str, object] = {}
        for spec in self.specs():
            key = f"stats__{spec.name}"
            if key not in data or (data[key] in (None, "") and not spec.required):
                continue
            try:
                stats[spec.name] = self.schema.parse_field(spec, data[key])
            except SchemaError as error:
                self.add_error(key, "; ".join(e.message for e in error.errors))
        data["stats"] = stats
        return data


def _add_schema_errors(form: forms.ModelForm, error: RuleViolation) -> None:
    if isinstance(error, SchemaError):
        for field_error in error.errors:
            name = f"stats__{field_error.field.split('.')[0]}"
            target = name if name in form.fields else None
            form.add_error(target, f"{field_error.field}: {field_error.message}")
    else:
        form.add_error(None, error.message)


class CatalogRowAdmin(admin.ModelAdmin):
    """Deleting catalogue rows renews the system's catalogue stamp, so no process keeps
    offering a deleted card from its cached catalogue."""

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        with transaction.atomic():
            super().delete_model(request, obj)
            services.catalog_changed(obj.system)

    def delete_queryset(self, request: HttpRequest, queryset: Any) -> None:
        with transaction.atomic():
            systems = list(GameSystem.objects.filter(pk__in=queryset.values("system")))
            super().delete_queryset(request, queryset)
            for system in systems:
                services.catalog_changed(system)


class CardAdmin(CatalogRowAdmin):
    """Shared admin behaviour of versioned cards."""

    form_base: type[SchemaForm]
    list_display = ("name", "slug", "system", "version", "sample", "updated_at")
    list_filter = ("system", "sample")
    search_fields = ("name", "slug")
    readonly_fields = ("version", "updated_at")

    def _system(self, request: HttpRequest, obj: Any) -> GameSystem | None:
        if obj is not None:
            return obj.system
        slug = request.GET.get("system") or next(
            (info.slug for info in registry().all() if info.catalog is not None), None
        )
        return GameSystem.objects.filter(slug=slug).first() if slug else None

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> Any:
        schema = _schema_for(self._system(request, obj))
        base = type(self.form_base.__name__, (self.form_base,), {"schema": schema})
        kwargs["form"] = base
        kwargs["fields"] = None
        return super().get_form(request, obj, change=change, **kwargs)

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        schema = _schema_for(self._system(request, obj))
        card = list(self.card_fields)
        specs = getattr(schema, self.form_base.spec_attribute, ()) if schema else ()
        stats = [f"stats__{spec.name}" for spec in specs]
        sets: list[Any] = [(None, {"fields": card + ["version", "updated_at"]})]
        if stats:
            sets.append((_("Card values"), {"fields": stats}))
        else:
            sets.append((_("Card values (JSON)"), {"fields": ["stats"]}))
        return sets

    card_fields: tuple[str, ...] = ()


class ProfileForm(SchemaForm):
    spec_attribute = "profile_fields"

    class Meta:
        model = Profile
        fields = ["system", "slug", "name", "factions", "sample", "stats"]


class ItemForm(SchemaForm):
    spec_attribute = "item_fields"

    class Meta:
        model = Item
        fields = ["system", "slug", "name", "kind", "cost", "sample", "stats"]


@admin.register(Profile)
class ProfileAdmin(CardAdmin):
    form_base = ProfileForm
    card_fields = ("system", "slug", "name", "factions", "sample")
    filter_horizontal = ("factions",)

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        saved = services.profile_save(
            system=form.cleaned_data["system"],
            slug=form.cleaned_data["slug"],
            name=form.cleaned_data["name"],
            factions=list(form.cleaned_data["factions"]),
            stats=form.cleaned_data.get("stats", obj.stats),
            sample=form.cleaned_data["sample"],
            profile=Profile.objects.get(pk=obj.pk) if change else None,
        )
        obj.pk, obj.version = saved.pk, saved.version

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        """Factions were set by the service together with the new version."""

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> Any:
        form_class = super().get_form(request, obj, change=change, **kwargs)

        class CheckedProfileForm(form_class):  # type: ignore[misc, valid-type]
            def clean(self) -> dict[str, Any]:
                data = super().clean()
                schema = self.schema
                if schema is not None and not self.errors and data.get("system"):
                    try:
                        schema.check_profile(
                            slug=data["slug"],
                            name=data["name"],
                            factions=[f.slug for f in data.get("factions", [])],
                            stats=data.get("stats", {}),
                        )
                    except RuleViolation as error:
                        _add_schema_errors(self, error)
                return data

        return CheckedProfileForm


@admin.register(Item)
class ItemAdmin(CardAdmin):
    form_base = ItemForm
    card_fields = ("system", "slug", "name", "kind", "cost", "sample")
    list_display = ("name", "slug", "system", "kind", "cost", "version", "sample")

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        saved = services.item_save(
            system=form.cleaned_data["system"],
            slug=form.cleaned_data["slug"],
            name=form.cleaned_data["name"],
            kind=form.cleaned_data["kind"],
            cost=form.cleaned_data["cost"],
            stats=form.cleaned_data.get("stats", obj.stats),
            sample=form.cleaned_data["sample"],
            item=Item.objects.get(pk=obj.pk) if change else None,
        )
        obj.pk, obj.version = saved.pk, saved.version

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> Any:
        form_class = super().get_form(request, obj, change=change, **kwargs)
        schema = _schema_for(self._system(request, obj))

        class CheckedItemForm(form_class):  # type: ignore[misc, valid-type]
            def __init__(self, *args: Any, **kw: Any) -> None:
                super().__init__(*args, **kw)
                if schema is not None and schema.item_kinds:
                    self.fields["kind"] = forms.ChoiceField(
                        label=_("kind"),
                        choices=[(value, gettext(text)) for value, text in schema.item_kinds],
                    )

            def clean(self) -> dict[str, Any]:
                data = super().clean()
                if schema is not None and not self.errors and data.get("system"):
                    try:
                        schema.check_item(
                            slug=data["slug"],
                            name=data["name"],
                            kind=data["kind"],
                            cost=data["cost"],
                            stats=data.get("stats", {}),
                        )
                    except RuleViolation as error:
                        _add_schema_errors(self, error)
                return data

        return CheckedItemForm


@admin.register(Faction)
class FactionAdmin(CatalogRowAdmin):
    list_display = ("name", "slug", "system", "sample")
    list_filter = ("system", "sample")

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        with transaction.atomic():
            super().save_model(request, obj, form, change)
            services.catalog_changed(obj.system)


@admin.register(Mission)
class MissionAdmin(admin.ModelAdmin):
    list_display = ("name", "number", "system")
    list_filter = ("system",)


@admin.register(GameSystem)
class GameSystemAdmin(admin.ModelAdmin):
    list_display = ("name", "slug")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # systems are registered in code (apps/systems/core/registry.py)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
