"""The whole Grundregeln tracker screen (``core.match.TrackerView``), assembled from the
presenters; pure: the page renders it, the rules computed it.

The page's query drives it: ``unit`` selects a model (its actions or reactions show),
``wizard`` opens the target choice of one of its actions (``mod``, ``dice``: see ``wizard``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from apps.systems.core.buttons import Button, Offers
from apps.systems.core.engine import Screen
from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import TimelineLine as Text
from apps.systems.grundregeln.match.state import MatchState, Phase
from apps.systems.grundregeln.match.timeline import REASONS
from apps.systems.grundregeln.match.tracker.actions import selection as selection_of
from apps.systems.grundregeln.match.tracker.dice import roll_views
from apps.systems.grundregeln.match.tracker.labels import MOVE_NOTES, PHASE_LABELS, TYPE_LABELS
from apps.systems.grundregeln.match.tracker.models import (
    PendingView,
    Prompt,
    RollView,
    ScenarioView,
    Selection,
    SideView,
    Wizard,
)
from apps.systems.grundregeln.match.tracker.pending import pending_view
from apps.systems.grundregeln.match.tracker.prompt import prompt
from apps.systems.grundregeln.match.tracker.sides import sides
from apps.systems.grundregeln.match.tracker.wizard import wizard
from apps.systems.grundregeln.scenario import STARTER_CHOICES, VICTORY_CHOICES
from apps.systems.grundregeln.tables import ACTIONS


@dataclass(frozen=True)
class TrackerView:
    phase: str
    round: int
    heading: tuple[Text, ...]
    scenario: ScenarioView | None
    sides: tuple[SideView, ...]
    prompt: Prompt
    selection: Selection | None
    wizard: Wizard | None
    pending: PendingView | None
    rolls: tuple[RollView, ...]
    objectives: tuple[str, ...]
    holders: tuple[tuple[str, str], ...]  # objective, holder name
    result: Text | None
    over: bool
    players: tuple[tuple[int, str], ...]
    action_table: tuple[tuple[str, str, str], ...]  # label, type, note
    # The free roll's form with its defaults (one die), while the game goes on.
    free_roll: Button | None = None

    def command_buttons(self) -> Iterator[Button]:
        yield from self.prompt.buttons
        if self.prompt.score is not None:
            yield self.prompt.score
        if self.selection is not None:
            yield from self.selection.buttons()
        if self.wizard is not None:
            yield from (choice.button for choice in self.wizard.targets)
        if self.pending is not None:
            yield from self.pending.buttons()
        if self.free_roll is not None:
            yield self.free_roll

    def screens(self) -> Iterator[Mapping[str, str]]:
        """Each model selected, and each target choice the selected model's panel opens."""
        for side in self.sides:
            for model in side.models:
                if not model.out and not model.selected:
                    yield {"unit": str(model.id)}
        if self.selection is None:
            return
        selected = {"unit": str(self.selection.model.id)}
        for group in self.selection.groups:
            for button in group.buttons:
                if button.is_wizard and button.enabled:
                    yield {**selected, **button.wizard_params}


def _heading(state: MatchState) -> tuple[Text, ...]:
    """The scenario, the round (of how many) and the phase."""
    parts = []
    rounds = 0
    if state.scenario is not None:
        parts.append(Text("%(scenario)s", {"scenario": state.scenario.name}))
        rounds = state.scenario.rounds
    if state.round and rounds:
        parts.append(
            Text(_("Round %(round)s of %(total)s"), {"round": state.round, "total": rounds})
        )
    elif state.round:
        parts.append(Text(_("Round %(round)s"), {"round": state.round}))
    parts.append(Text(PHASE_LABELS[state.phase]))
    return tuple(parts)


def _scenario_view(state: MatchState) -> ScenarioView | None:
    scenario = state.scenario
    if scenario is None:
        return None
    return ScenarioView(
        name=scenario.name,
        summary=scenario.summary,
        summary_en=scenario.summary_en,
        victory=dict(VICTORY_CHOICES)[scenario.victory.value],
        rounds=scenario.rounds,
        starter=dict(STARTER_CHOICES)[scenario.starter.value],
        objectives=scenario.objective_names,
        vp_kill=scenario.vp_kill,
        vp_npc=scenario.vp_npc,
        vp_objective=scenario.vp_objective,
        sample=scenario.sample,
        npcs=tuple((npc.name, npc.behaviour.value, npc.count) for npc in scenario.npcs),
    )


def _holders(state: MatchState) -> tuple[tuple[str, str], ...]:
    if state.scenario is None or not state.holders:
        return ()
    return tuple(
        (name, state.players[h].name if h is not None else "-")
        for name, h in zip(state.scenario.objective_names, state.holders, strict=False)
    )


def _result(state: MatchState) -> Text | None:
    result = state.result
    if result is None:
        return None
    reason = REASONS.get(result.reason, result.reason)
    if result.draw or not result.winners:
        return Text(_("A draw (%(reason)s)."), {"reason": reason}, ("reason",))
    return Text(
        _("%(winner)s wins (%(reason)s)."),
        {"winner": state.players[result.winners[0]].name, "reason": reason},
        ("reason",),
    )


def _free_roll(state: MatchState, offers: Offers) -> Button | None:
    if state.phase is Phase.OVER:
        return None
    return offers.command("roll", _("Roll"), form={"dice": 1})


def tracker_view(state: MatchState, screen: Screen) -> TrackerView:
    offers = screen.offers
    selected = screen.selected
    if selected is not None and not 0 <= selected < len(state.models):
        selected = None
    model = state.models[selected] if selected is not None else None
    target_choice = wizard(state, model, screen.params, offers) if model is not None else None
    # An open target choice takes the place of the model's panel.
    chosen = selection_of(state, model, offers) if model and target_choice is None else None
    return TrackerView(
        phase=state.phase.value,
        round=state.round,
        heading=_heading(state),
        scenario=_scenario_view(state),
        sides=sides(state, selected, offers),
        prompt=prompt(state, offers),
        selection=chosen,
        wizard=target_choice,
        pending=pending_view(state, selected, offers),
        rolls=roll_views(state),
        objectives=state.scenario.objective_names if state.scenario is not None else (),
        holders=_holders(state),
        result=_result(state),
        over=state.phase is Phase.OVER,
        players=tuple((p.index, p.name) for p in state.players),
        action_table=tuple(
            (a.label, TYPE_LABELS[a.type], MOVE_NOTES.get(a.key, "")) for a in ACTIONS
        ),
        free_roll=_free_roll(state, offers),
    )
