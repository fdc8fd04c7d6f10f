"""Forms of the league pages (shape only; the services decide what is allowed)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from apps.leagues.models import MAX_CONFIRM_HOURS, MAX_VP, League, Pairing, Registration, Season
from apps.leagues.models_day import check_reveal_time
from apps.leagues.standings import DEFAULT_TIE_BREAKERS, TieBreaker
from apps.systems.core.registry import registry

TIE_BREAKER_LABELS = {
    TieBreaker.VP_DIFF: _("VP difference"),
    TieBreaker.VP_FOR: _("VP scored"),
    TieBreaker.SOS: _("Strength of schedule (opponents' points)"),
    TieBreaker.HEAD_TO_HEAD: _("Head-to-head"),
    TieBreaker.FEWEST_LOSSES: _("Fewest losses"),
}
TIE_BREAKER_SLOTS = len(TieBreaker)
# What a date picker reads and sends, whatever the page's language.
ISO_DATE = "%Y-%m-%d"


class LeagueForm(forms.Form):
    name = forms.CharField(label=_("League name"), max_length=100)
    description = forms.CharField(
        label=_("Description"),
        max_length=2000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("Where and when you play, house rules, whom to ask."),
    )
    visibility = forms.ChoiceField(
        label=_("Who can see the league"),
        choices=League.Visibility.choices,
        initial=League.Visibility.PUBLIC,
    )


class LeagueCreateForm(LeagueForm):
    system = forms.ChoiceField(label=_("Rule system"))

    field_order = ["system", "name", "description", "visibility"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        system = self.fields["system"]
        assert isinstance(system, forms.ChoiceField)
        system.choices = [(info.slug, info.name) for info in registry().all()]


class SeasonForm(forms.Form):
    name = forms.CharField(label=_("Season name"), max_length=80)
    starts_on = forms.DateField(
        label=_("Starts on"), widget=forms.DateInput(attrs={"type": "date"}, format=ISO_DATE)
    )
    ends_on = forms.DateField(
        label=_("Ends on"), widget=forms.DateInput(attrs={"type": "date"}, format=ISO_DATE)
    )
    pairing_method = forms.ChoiceField(
        label=_("Pairing"),
        choices=Season.Method.choices,
        help_text=_(
            "Swiss pairs players with similar scores each round and avoids rematches; "
            "round-robin plays everyone once (registration closes with round 1)."
        ),
    )
    win_points = forms.IntegerField(
        label=_("Points for a win"), min_value=0, max_value=100, initial=3
    )
    draw_points = forms.IntegerField(
        label=_("Points for a draw"), min_value=0, max_value=100, initial=1
    )
    loss_points = forms.IntegerField(
        label=_("Points for a loss"), min_value=0, max_value=100, initial=0
    )
    vp_bonus_points = forms.IntegerField(
        label=_("Bonus points for a big win"),
        min_value=0,
        max_value=100,
        initial=0,
        help_text=_("0 for no bonus."),
    )
    vp_bonus_margin = forms.IntegerField(
        label=_("A big win is by at least (VP)"), min_value=0, max_value=MAX_VP, initial=0
    )
    bye_vp = forms.IntegerField(
        label=_("VP for a bye"),
        min_value=0,
        max_value=MAX_VP,
        initial=0,
        help_text=_("A bye scores as a win with these victory points."),
    )
    confirm_hours = forms.IntegerField(
        label=_("Hours to confirm a result"),
        min_value=1,
        max_value=MAX_CONFIRM_HOURS,
        initial=48,
        help_text=_("A report nobody answers counts once this many hours have passed."),
    )
    lists_reveal_at = forms.DateTimeField(
        label=_("Lists revealed at"),
        required=False,
        validators=[check_reveal_time],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text=_(
            "Until then each player's roster is seen only by that player and the organisers. "
            "Empty: always visible."
        ),
    )
    check_in_required = forms.BooleanField(
        label=_("Pair only checked-in players"),
        required=False,
        help_text=_("Swiss rounds leave out the players who did not check in for them."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [
            ("", _("— none —")),
            *((str(t), label) for t, label in TIE_BREAKER_LABELS.items()),
        ]
        defaults = [str(t) for t in DEFAULT_TIE_BREAKERS]
        for i in range(1, TIE_BREAKER_SLOTS + 1):
            self.fields[f"tie_breaker_{i}"] = forms.ChoiceField(
                label=_("Tie-breaker %d") % i,
                choices=choices,
                required=False,
                initial=defaults[i - 1] if i <= len(defaults) else "",
            )

    def tie_breaker_fields(self) -> list[forms.BoundField]:
        return [self[f"tie_breaker_{i}"] for i in range(1, TIE_BREAKER_SLOTS + 1)]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        order = [data.get(f"tie_breaker_{i}") for i in range(1, TIE_BREAKER_SLOTS + 1)]
        chosen = [code for code in order if code]
        if len(set(chosen)) != len(chosen):
            raise forms.ValidationError(_("Each tie-breaker can be used once."))
        data["tie_breakers"] = chosen
        starts, ends = data.get("starts_on"), data.get("ends_on")
        if starts and ends and ends < starts:
            self.add_error("ends_on", _("The season cannot end before it starts."))
        return data


class JoinForm(forms.Form):
    code = forms.CharField(label=_("Join code"), max_length=20)


class RosterChoiceForm(forms.Form):
    roster = forms.TypedChoiceField(label=_("Roster"), coerce=int, required=False, empty_value=None)

    def __init__(self, *args: Any, rosters: Iterable[Any], required: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["roster"]
        assert isinstance(field, forms.TypedChoiceField)
        field.choices = [(r.pk, r.name) for r in rosters]
        field.required = required
        if not required:
            field.choices = [("", _("— no roster —")), *field.choices]


class ResultForm(forms.Form):
    outcome = forms.ChoiceField(label=_("Result"), widget=forms.RadioSelect)
    vp_a = forms.IntegerField(min_value=0, max_value=MAX_VP, initial=0)
    vp_b = forms.IntegerField(min_value=0, max_value=MAX_VP, initial=0)

    def __init__(self, *args: Any, pairing: Pairing, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        a = pairing.player_a.player.shown_name
        b = pairing.player_b.player.shown_name if pairing.player_b else ""
        outcome = self.fields["outcome"]
        assert isinstance(outcome, forms.ChoiceField)
        outcome.choices = [
            ("a", _("%s won") % a),
            ("b", _("%s won") % b),
            ("draw", _("Draw")),
        ]
        self.fields["vp_a"].label = _("VP of %s") % a
        self.fields["vp_b"].label = _("VP of %s") % b


class OverrideForm(ResultForm):
    reason = forms.CharField(
        label=_("Reason (shown in the log)"),
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
    )


class DisputeForm(forms.Form):
    reason = forms.CharField(
        label=_("What is wrong?"), max_length=500, widget=forms.Textarea(attrs={"rows": 2})
    )


class SwapForm(forms.Form):
    player_x = forms.TypedChoiceField(label=_("Swap"), coerce=int)
    player_y = forms.TypedChoiceField(label=_("with"), coerce=int)

    def __init__(self, *args: Any, players: Iterable[Registration], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [(r.pk, r.player.shown_name) for r in players]
        for name in ("player_x", "player_y"):
            field = self.fields[name]
            assert isinstance(field, forms.TypedChoiceField)
            field.choices = choices


class OrganiserForm(forms.Form):
    username = forms.CharField(label=_("User name"), max_length=150)


class DecisionForm(forms.Form):
    note = forms.CharField(label=_("Note"), max_length=300, required=False)
