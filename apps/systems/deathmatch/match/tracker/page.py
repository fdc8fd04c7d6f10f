"""The whole Deathmatch tracker screen (``core.match.TrackerView``), assembled from the
presenters; pure: the page renders it, the rules computed it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Final

from apps.systems.core.buttons import Button, Offers
from apps.systems.core.engine import Screen
from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import TimelineLine as Text
from apps.systems.deathmatch.match.modes import Layout, Mode, ObjectiveKind, mode_by_slug
from apps.systems.deathmatch.match.state import MatchState, Phase, Unit
from apps.systems.deathmatch.match.timeline import GADGET_NAMES
from apps.systems.deathmatch.match.tracker import activation, touch
from apps.systems.deathmatch.match.tracker.board import map_shapes, objectives, result
from apps.systems.deathmatch.match.tracker.decks import DeckView, deck_views
from apps.systems.deathmatch.match.tracker.flips import flip_view, free_flip_view
from apps.systems.deathmatch.match.tracker.models import (
    FlipView,
    MapShape,
    ObjectiveView,
    PlayerView,
    Prompt,
    ScoreInput,
    UnitView,
    Wizard,
)
from apps.systems.deathmatch.match.tracker.prompt import prompt
from apps.systems.deathmatch.match.tracker.units import player_views, unit_view
from apps.systems.deathmatch.match.tracker.wizard import wizard
from apps.systems.deathmatch.match.tracker.wizard_query import wizard_input

PHASES: Final = {
    Phase.SETUP: _("Setup"),
    Phase.START: _("Start phase"),
    Phase.DRONES: _("Drones"),
    Phase.ACTIVATION: _("Activation phase"),
    Phase.END: _("End phase"),
    Phase.OVER: _("Game over"),
}


@dataclass(frozen=True)
class TrackerView:
    mode: Mode
    layout: Layout
    shapes: tuple[MapShape, ...]
    phase: str
    round: int
    players: tuple[PlayerView, ...]
    prompt: Prompt
    actions: tuple[Button, ...]
    free_actions: tuple[Button, ...]
    selected: UnitView | None
    selected_buttons: tuple[Button, ...]
    flip: FlipView | None
    wizard: Wizard | None
    score: ScoreInput | None
    objectives: tuple[ObjectiveView, ...]
    gadgets: tuple[tuple[str, str, str, bool], ...]  # id, name, owner, active
    result: Text | None
    over: bool
    active: UnitView | None
    reactors: tuple[Button, ...] = ()
    free_flip: FlipView | None = None
    # The active panel's forms (a move with hazards, ending the activation) and the selected
    # model's corrections (adjust, automatic hit), with their defaults as the engine judges
    # them: a form is shown while its command is possible.
    activation_forms: tuple[Button, ...] = ()
    corrections: tuple[Button, ...] = ()
    # An automatic hit on the selected model (a fall after Rückstoß, off a wall): the players
    # who may have caused it, for the knock-out credit (empty: not possible now).
    auto_hit_credit: tuple[tuple[int, str], ...] = ()
    free_flip_form: Button | None = None
    heading: tuple[Text, ...] = field(default=())
    # Each player's cards left per value before the Wendepunkt (the deck panel).
    decks: tuple[DeckView, ...] = ()

    @property
    def may_correct(self) -> bool:
        return touch.may_correct(self.corrections)

    @property
    def mode_panel_key(self) -> str:
        """Everything the mode panel shows (the arena map, the victory conditions, the
        objectives and who holds them, the gadgets): the same key, the same panel. It changes
        a few times a game, so the tracker keeps the panel's render under it."""
        owners = tuple((p.index, p.name, p.colour) for p in self.players)
        return repr((self.mode, self.layout, self.shapes, self.objectives, self.gadgets, owners))

    def command_buttons(self) -> Iterable[Button]:
        yield from self.prompt.buttons
        yield from self.prompt.forms
        yield from self.actions
        yield from self.activation_forms
        yield from self.free_actions
        yield from self.selected_buttons
        yield from self.reactors
        yield from self.corrections
        for flip in (self.flip, self.free_flip):
            if flip is not None:
                yield from (flip.accept, flip.reroll)
        if self.wizard is not None:
            yield from (choice.button for choice in self.wizard.weapons)
            yield from (target.button for target in self.wizard.targets)
        if self.free_flip_form is not None:
            yield self.free_flip_form

    def screens(self) -> Iterable[Mapping[str, str]]:
        """Each model selected, and each wizard this screen opens."""
        for player in self.players:
            for unit in player.units:
                if not unit.out and not unit.selected:
                    yield {"unit": str(unit.id)}
        selected = {"unit": str(self.selected.id)} if self.selected is not None else {}
        for button in (*self.actions, *self.reactors):
            if button.is_wizard and button.enabled:
                yield {**selected, **button.wizard_params}
        if self.wizard is not None:
            for choice in self.wizard.weapons:
                if choice.usable and choice.line.index != self.wizard.weapon:
                    yield {**selected, **choice.button.wizard_params}


def _heading(state: MatchState, mode: Mode) -> tuple[Text, ...]:
    parts = [Text("%(mode)s", {"mode": mode.name})]
    if state.round:
        parts.append(Text(_("Round %(round)s"), {"round": state.round}))
    parts.append(Text(PHASES[state.phase]))
    return tuple(parts)


def _score(state: MatchState, mode: Mode) -> ScoreInput | None:
    if state.awaiting != "score":
        return None
    focal = tuple(o.id for o in state.objectives if o.kind == ObjectiveKind.FOCAL_POINT.value)
    king = next((u.name for u in state.units if u.king and u.in_play), None)
    return ScoreInput(focal, king if mode.king else None)


def _auto_hit_credit(
    state: MatchState, unit: Unit | None, offers: Offers
) -> tuple[tuple[int, str], ...]:
    """Who may have caused an automatic hit on ``unit`` (its opponents), while the engine
    takes one on it."""
    if unit is None or offers.refusal("auto_hit", {"unit": unit.id, "strength": 3}) is not None:
        return ()
    return tuple((p, state.player(p).name) for p in state.opponents(unit.player))


def _free_flip_form(state: MatchState, offers: Offers) -> Button | None:
    if state.phase is Phase.OVER:
        return None
    return offers.command("flip", _("Flip"), form={"player": 0, "boost": 0})


def tracker_view(state: MatchState, screen: Screen) -> TrackerView:
    offers = screen.offers
    mode = mode_by_slug(state.mode)
    selected = screen.selected
    if selected is not None and not 0 <= selected < len(state.units):
        selected = None
    if selected is None and state.active is not None:
        selected = state.active
    chosen = state.unit(selected) if selected is not None else None
    active = state.unit(state.active) if state.active is not None else None
    layout = mode.layout(len(state.players), state.game_size)
    request = wizard_input(screen.params)
    return TrackerView(
        mode=mode,
        layout=layout,
        shapes=map_shapes(layout, tuple(p.name for p in state.players)),
        phase=state.phase.value,
        round=state.round,
        players=player_views(state, selected, offers),
        prompt=prompt(state, offers),
        actions=activation.actions(state, mode, offers),
        free_actions=touch.touch_actions(state, mode, chosen, offers),
        selected=unit_view(state, chosen, selected, offers) if chosen is not None else None,
        selected_buttons=touch.selected_buttons(state, chosen, offers),
        flip=flip_view(state, offers),
        wizard=wizard(state, request, selected, offers) if request is not None else None,
        score=_score(state, mode),
        objectives=objectives(state),
        gadgets=tuple(
            (g.id, GADGET_NAMES[g.option], state.player(g.owner).name, g.active)
            for g in state.gadgets
        ),
        result=result(state),
        over=state.phase is Phase.OVER,
        active=unit_view(state, active, selected, offers) if active is not None else None,
        reactors=touch.reactors(state, offers),
        free_flip=free_flip_view(state, offers),
        activation_forms=activation.activation_forms(state, offers),
        corrections=touch.correction_forms(state, chosen, offers),
        auto_hit_credit=_auto_hit_credit(state, chosen, offers),
        free_flip_form=_free_flip_form(state, offers),
        heading=_heading(state, mode),
        decks=deck_views(state),
    )
