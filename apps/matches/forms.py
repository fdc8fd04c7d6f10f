"""Forms of the match pages: the setup form, and reading a command's args from a plain HTML form.

Command forms name their fields ``args.<path>[:type]``: ``args.weapon:int=1``,
``args.targets.0.cover=hard``, ``args.targets.0.rear:bool=true``, ``args.units:ints`` (repeated),
``args.focal_points.A:int-or-null`` (empty: nobody); an ``:int`` field left empty is left
out. In a list of objects, when any object has an ``_on`` field (a ticked checkbox), objects
without one are dropped: unticked rows of a multi-target form.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from apps.catalog.models import GameSystem, Mission
from apps.common.http import form_number
from apps.rosters.forms import roster_size_text
from apps.rosters.models import Roster
from apps.systems.core.errors import RuleViolation
from apps.systems.core.registry import registry
from apps.systems.core.schema import FieldSpec

MAX_ARG_FIELDS = 120
MAX_SEATS = 4


def _typed(kind: str, values: Sequence[str]) -> Any:
    try:
        if kind == "int":
            return int(values[-1])
        if kind == "int-or-null":
            return int(values[-1]) if values[-1] != "" else None
        if kind == "ints":
            return [int(value) for value in values if value != ""]
        if kind == "bool":
            return values[-1] in ("true", "on", "1")
    except ValueError:
        raise RuleViolation("invalid_args", "A number was expected.") from None
    if kind:
        raise RuleViolation("invalid_args", f"Unknown field type {kind!r}.")
    return values[-1]


def _listify(value: Any) -> Any:
    """Dicts whose keys are all numbers become lists (in index order)."""
    if not isinstance(value, dict):
        return value
    items = {key: _listify(item) for key, item in value.items()}
    indices = {key: form_number(key) for key in items}
    if items and all(index is not None for index in indices.values()):
        entries = [items[key] for key in sorted(items, key=lambda key: indices[key] or 0)]
        if any(isinstance(e, dict) and "_on" in e for e in entries):
            entries = [e for e in entries if isinstance(e, dict) and e.pop("_on", False)]
        return entries
    return items


def command_args(fields: Mapping[str, Sequence[str]]) -> dict[str, Any]:
    """The nested args a command form describes (see the module docstring)."""
    keys = [key for key in fields if key.startswith("args.")]
    if len(keys) > MAX_ARG_FIELDS:
        raise RuleViolation("invalid_args", "Too many fields.")
    args: dict[str, Any] = {}
    for key in keys:
        path, _sep, kind = key[len("args.") :].partition(":")
        parts = path.split(".")
        if not all(parts) or len(parts) > 4:
            raise RuleViolation("invalid_args", f"Bad field name {key!r}.")
        if kind == "int" and fields[key][-1:] == [""]:
            # A number field left empty (browsers send "") is an optional value not given.
            continue
        node = args
        for part in parts[:-1]:
            child = node.setdefault(part, {})
            if not isinstance(child, dict):
                raise RuleViolation("invalid_args", f"Bad field name {key!r}.")
            node = child
        node[parts[-1]] = _typed(kind, fields[key])
    result = _listify(args)
    if not isinstance(result, dict):
        # Only numbers at the top (``args.0``): a list, never a command's named args.
        raise RuleViolation("invalid_args", "Command fields must have names.")
    return result


def _mode_choices(system: GameSystem) -> list[tuple[str, Any]]:
    """The system's game modes from the catalogue, grouped by how many players each is for; an
    engine with its own ``mode_choices()`` (value, gettext_noop-marked label) lists those."""
    engine = registry().get(system.slug).matches
    own = engine.mode_choices() if engine is not None else ()
    if own:
        return [(value, str(_(label))) for value, label in own]
    groups: dict[str, list[tuple[str, str]]] = {}
    for mission in Mission.objects.filter(system=system).order_by("pk"):
        number = f"{mission.number} · " if mission.number is not None else ""
        low, high = mission.data.get("players", [2, 2])
        players = str(low) if low == high else f"{low}-{high}"
        groups.setdefault(players, []).append((mission.slug, f"{number}{mission.name}"))
    return [("random", str(_("Random")))] + [
        (str(_("%(players)s players") % {"players": players}), options)
        for players, options in groups.items()
    ]


def _setting_field(spec: FieldSpec) -> forms.Field:
    """A form field for one of the engine's setup settings (labels are gettext_noop-marked)."""
    label = _(spec.label)
    if spec.type == "bool":
        return forms.BooleanField(label=label, required=False, initial=spec.default)
    if spec.type == "choice":
        numeric = all(value.isdigit() for value, _label in spec.choices)
        return forms.TypedChoiceField(
            label=label,
            choices=[(value, _(text)) for value, text in spec.choices],
            coerce=int if numeric else str,
            initial=spec.default,
        )
    if spec.type == "int":
        return forms.IntegerField(
            label=label,
            required=spec.required,
            min_value=spec.minimum,
            max_value=spec.maximum,
            initial=spec.default,
        )
    return forms.CharField(label=label, required=spec.required, max_length=100)


class GameSettingsForm(forms.Form):
    """The game's mode and the engine's setup settings: what a match needs besides its teams
    (a league game's teams are the players' season rosters)."""

    mode = forms.ChoiceField(label=_("Game mode"))

    def __init__(self, *args: Any, system: GameSystem, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.system = system
        mode = self.fields["mode"]
        assert isinstance(mode, forms.ChoiceField)
        mode.choices = _mode_choices(system)
        self.random_mode = any(value == "random" for value, _label in mode.choices)
        engine = registry().get(system.slug).matches
        self.setting_names = [spec.name for spec in engine.setup_fields()] if engine else []
        for spec in engine.setup_fields() if engine else ():
            self.fields[spec.name] = _setting_field(spec)

    def settings(self) -> dict[str, Any]:
        """The match settings the engine asked for, as entered."""
        return {name: self.cleaned_data[name] for name in self.setting_names}

    def setting_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.setting_names]


class MatchSetupForm(GameSettingsForm):
    def __init__(
        self, *args: Any, system: GameSystem, rosters: list[Roster], **kwargs: Any
    ) -> None:
        super().__init__(*args, system=system, **kwargs)
        illegal = _("illegal")
        roster_choices = [("", "—")] + [
            (
                str(r.pk),
                f"{r.name} · {roster_size_text(system.slug, r.settings)}"
                + ("" if r.legal else f" · {illegal}"),
            )
            for r in rosters
        ]
        # As many seats as the system has players (Deathmatch up to four, the others two).
        self.seat_count = min(MAX_SEATS, registry().get(system.slug).max_players)
        for seat in range(self.seat_count):
            required = seat < 2
            label = (_("Player %(n)s") if required else _("Player %(n)s (optional)")) % {
                "n": seat + 1
            }
            self.fields[f"name_{seat}"] = forms.CharField(
                label=label, max_length=40, required=False
            )
            self.fields[f"roster_{seat}"] = forms.ChoiceField(
                label=_("Team"), choices=roster_choices, required=False
            )
            self.fields[f"share_{seat}"] = forms.CharField(
                label=_("or a shared team's link"), max_length=300, required=False
            )
            self.fields[f"roster_{seat}"].widget.attrs["data-required"] = "1" if required else ""

    def seat_fields(self) -> list[list[forms.BoundField]]:
        return [
            [self[f"name_{seat}"], self[f"roster_{seat}"], self[f"share_{seat}"]]
            for seat in range(self.seat_count)
        ]

    def seats(self) -> list[tuple[int, str, str, str]]:
        """(seat, name, roster id, share link) of every seat that names a team. A field that
        failed its own check is missing from ``cleaned_data`` (``clean`` runs anyway)."""
        data = self.cleaned_data
        return [
            (
                seat,
                data.get(f"name_{seat}", ""),
                data.get(f"roster_{seat}", ""),
                data.get(f"share_{seat}", "").strip(),
            )
            for seat in range(self.seat_count)
            if data.get(f"roster_{seat}") or data.get(f"share_{seat}", "").strip()
        ]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if len(self.seats()) < 2:
            raise forms.ValidationError(_("Choose a team for at least two players."))
        return cleaned


def share_token_from(text: str) -> str:
    """The token of a shared roster link ("…/rosters/shared/<token>/") or a bare token."""
    parts = [part for part in text.strip().split("/") if part]
    return parts[-1] if parts else ""
