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
from apps.catalog.costs import (
    PROVISIONAL_KEY,
    is_provisional,
    profile_cost,
    profile_cost_field,
    provisional_field,
)
from apps.catalog.models import Faction, GameSystem, Item, Mission, Profile
from apps.catalog.pins import card_holders, held_message
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


class ProvisionalFilter(admin.SimpleListFilter):
    """Cards whose cost is marked provisional (invented, not printed), or the others."""

    title = _("provisional cost")
    parameter_name = "provisional"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [("yes", _("Yes")), ("no", _("No"))]

    def queryset(self, request: HttpRequest, queryset: Any) -> Any:
        marked = {f"stats__{PROVISIONAL_KEY}": True}
        if self.value() == "yes":
            return queryset.filter(**marked)
        if self.value() == "no":
            # Not ``exclude``: a card without the key would be left out too (SQL NULL).
            return queryset.exclude(pk__in=queryset.filter(**marked).values("pk"))
        return queryset


COSTS_HELP = _(
    "What a roster pays for the card. A league season keeps the costs it was pinned with: "
    "an edit here counts for its rosters only when an organiser sets the season to the current "
    "costs on its page. Provisional: invented, the rulebook prints no cost."
)


class CardAdmin(CatalogRowAdmin):
    """Shared admin behaviour of versioned cards: the cost and whether it is provisional are
    shown in the list and in a fieldset of their own (``apps.catalog.costs``)."""

    form_base: type[SchemaForm]
    list_display = (
        "name",
        "slug",
        "system",
        "cost_shown",
        "provisional_shown",
        "version",
        "sample",
        "updated_at",
    )
    list_filter = ("system", ProvisionalFilter, "sample")
    list_select_related = ("system",)
    search_fields = ("name", "slug")
    readonly_fields = ("version", "updated_at")

    def cost_fields(self, schema: CatalogSchema | None) -> list[str]:
        """The form fields of the cost fieldset."""
        return []

    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> Any:
        """A card a league season's pin holds is listed as protected: the admin then refuses
        its deletion, naming the seasons (``apps.catalog.pins``; the delete itself refuses too).
        """
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        kind = "profiles" if self.model is Profile else "items"
        protected = list(protected)
        for card in objs:
            holders = card_holders(card.system, kind, [card.slug])
            if holders:
                protected.append(held_message(card, holders))
        return deleted, counts, perms_needed, protected

    @admin.display(description=_("cost"))
    def cost_shown(self, obj: Any) -> int | None:
        return profile_cost(_schema_for(obj.system), obj.stats)

    @admin.display(description=_("provisional"), boolean=True)
    def provisional_shown(self, obj: Any) -> bool:
        return is_provisional(obj.stats)

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
        costs = self.cost_fields(schema)
        card = [name for name in self.card_fields if name not in costs]
        specs = getattr(schema, self.form_base.spec_attribute, ()) if schema else ()
        stats = [f"stats__{spec.name}" for spec in specs if f"stats__{spec.name}" not in costs]
        sets: list[Any] = [(None, {"fields": card + ["version", "updated_at"]})]
        if costs:
            sets.append((_("Cost"), {"fields": costs, "description": COSTS_HELP}))
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

    def cost_fields(self, schema: CatalogSchema | None) -> list[str]:
        fields = [
            f"stats__{spec.name}"
            for spec in (profile_cost_field(schema), provisional_field(schema, items=False))
            if spec is not None
        ]
        return fields

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
    list_display = (
        "name",
        "slug",
        "system",
        "kind",
        "cost",
        "provisional_shown",
        "version",
        "sample",
    )

    def cost_fields(self, schema: CatalogSchema | None) -> list[str]:
        provisional = provisional_field(schema, items=True)
        return ["cost"] + ([f"stats__{provisional.name}"] if provisional is not None else [])

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
