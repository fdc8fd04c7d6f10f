"""The whole Bunkers and Badasses tracker screen (``core.match.TrackerView``). One screen: the
setup step or the phase checklist, both players, the battle options, the board and the units."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from apps.systems.bunkers.match.state import MatchState
from apps.systems.bunkers.match.tables import (
    MISSION_NAMES,
    PHASE_LABELS,
    PHASES,
    SIDE_LABELS,
    SIDES,
    STAGE_LABELS,
    DoorState,
    Stage,
)
from apps.systems.bunkers.match.timeline import REASONS
from apps.systems.bunkers.match.tracker.board import (
    add_door_button,
    artifact_view,
    door_views,
    marker_views,
    piece_views,
)
from apps.systems.bunkers.match.tracker.models import (
    ArtifactView,
    DoorView,
    MarkerView,
    OptionsView,
    PhaseStep,
    PieceView,
    PlayerView,
    Prompt,
    SideView,
)
from apps.systems.bunkers.match.tracker.options import options_views
from apps.systems.bunkers.match.tracker.sides import player_views, side_views
from apps.systems.core.buttons import Button, Offers
from apps.systems.core.engine import Screen
from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import TimelineLine as Text


@dataclass(frozen=True)
class TrackerView:
    heading: tuple[Text, ...]
    over: bool
    stage: str
    mission: str
    round: int
    rounds: int
    levels: int  # 1: one board, no level split; 2: upper and lower
    phases: tuple[PhaseStep, ...]
    players: tuple[PlayerView, ...]
    prompt: Prompt
    score: Button | None  # the objective scoring form
    ends_turn: bool  # the next step ends the player turn (the keep-open form shows)
    open_doors: tuple[DoorView, ...]
    options: tuple[OptionsView, ...]
    doors: tuple[DoorView, ...]
    add_door: Button | None
    pieces: tuple[PieceView, ...]
    sides: tuple[SideView, ...]
    markers: tuple[MarkerView, ...]
    artifact: ArtifactView | None
    result: Text | None

    def command_buttons(self) -> Iterator[Button]:
        yield from self.prompt.buttons
        if self.score is not None:
            yield self.score
        for player in self.players:
            yield from (b for b in (player.adjust_cp, player.adjust_vp) if b is not None)
        for options in self.options:
            yield from options.buttons()
        yield from self._board_buttons()
        for side in self.sides:
            for unit in side.units:
                yield from unit.buttons
                yield from unit.adjust

    def _board_buttons(self) -> Iterator[Button]:
        for door in self.doors:
            yield from door.buttons
        if self.add_door is not None:
            yield self.add_door
        for piece in self.pieces:
            yield from piece.buttons
        yield from (m.reveal for m in self.markers if m.reveal is not None)
        if self.artifact is not None:
            yield from (b for b in (self.artifact.hand_over, self.artifact.drop) if b)

    def screens(self) -> Iterator[Mapping[str, str]]:
        """Everything is on one screen."""
        yield from ()


def _heading(state: MatchState) -> tuple[Text, ...]:
    parts = [Text("%(mission)s", {"mission": MISSION_NAMES.get(state.mission, state.mission)})]
    if state.stage is Stage.BATTLE and state.active is not None:
        parts.append(
            Text(_("Round %(round)s of %(total)s"), {"round": state.round, "total": state.rounds})
        )
        parts.append(Text(_("%(player)s's turn"), {"player": state.players[state.active].name}))
        parts.append(Text(PHASE_LABELS[state.phase]))
    else:
        parts.append(Text(STAGE_LABELS[state.stage]))
    return tuple(parts)


def _phases(state: MatchState) -> tuple[PhaseStep, ...]:
    if state.stage is not Stage.BATTLE:
        return ()
    now = PHASES.index(state.phase)
    return tuple(
        PhaseStep(phase.value, PHASE_LABELS[phase], index < now, index == now)
        for index, phase in enumerate(PHASES)
    )


def _prompt(state: MatchState, offers: Offers) -> Prompt:
    stage = state.stage
    title = Text(STAGE_LABELS[stage])
    if stage in (Stage.ZONES, Stage.MARKER, Stage.FIRST):
        return Prompt(
            "roll_off", title, None, (offers.command("roll_off", _("Roll off"), style="primary"),)
        )
    if stage is Stage.CHOOSE_ZONES and state.roll_winner is not None:
        winner = state.roll_winner
        help_ = Text(
            _("%(player)s won the roll-off and chooses."),
            {"player": state.players[winner].name},
        )
        buttons = tuple(
            offers.command(
                "choose_zones",
                SIDE_LABELS[side],
                args={"player": winner, "side": side},
                style="primary",
            )
            for side in SIDES
        )
        return Prompt("choose_zones", title, help_, buttons)
    if stage is Stage.DEPLOY and state.deployer is not None:
        template = (
            _(
                "%(player)s deploys the next unit (tap it below), 50:50 over both levels "
                "(reserve not counted)."
            )
            if state.levels >= 2
            else _("%(player)s deploys the next unit (tap it below).")
        )
        help_ = Text(template, {"player": state.players[state.deployer].name})
        return Prompt("deploy", title, help_)
    if stage is Stage.BATTLE:
        return _battle_prompt(state, offers)
    if stage is Stage.FINAL:
        help_ = Text(_("Is the artifact in one of its carrier's own deployment zones? (2 VP)"))
        buttons = (
            offers.command("score_end", _("Yes, in the own zone"), form={"home": True}),
            offers.command("score_end", _("No"), form={"home": False}),
        )
        return Prompt("final", title, help_, buttons)
    return Prompt("over", title)


def _battle_prompt(state: MatchState, offers: Offers) -> Prompt:
    position = PHASES.index(state.phase)
    if position + 1 < len(PHASES):
        label = Text(
            _("Next: %(phase)s"), {"phase": PHASE_LABELS[PHASES[position + 1]]}, ("phase",)
        )
        button = offers.command(
            "next_phase", label.template, params=label.params, translate=("phase",), style="primary"
        )
        return Prompt("phase", Text(PHASE_LABELS[state.phase]), None, (button,))
    button = offers.command("next_phase", _("End the turn"), form={"keep": []}, style="primary")
    help_ = Text(
        _(
            'Open doors and barriers close now unless a model or sentry gun is within 2": '
            "tick those that stay open."
        )
    )
    return Prompt("end_turn", Text(PHASE_LABELS[state.phase]), help_, (button,))


def _score(state: MatchState, offers: Offers) -> Button | None:
    if not state.scoring_due:
        return None
    return offers.command(
        "score_objectives",
        _("Score the markers"),
        form={"holders": [None] * len(state.markers)},
        style="primary",
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


def tracker_view(state: MatchState, screen: Screen) -> TrackerView:
    offers = screen.offers
    doors = door_views(state, offers)
    prompt = _prompt(state, offers)
    return TrackerView(
        heading=_heading(state),
        over=state.stage is Stage.OVER,
        stage=state.stage.value,
        mission=state.mission,
        round=state.round,
        rounds=state.rounds,
        levels=state.levels,
        phases=_phases(state),
        players=player_views(state, offers),
        prompt=prompt,
        score=_score(state, offers),
        ends_turn=prompt.key == "end_turn",
        open_doors=tuple(d for d in doors if d.state == DoorState.OPEN.value),
        options=options_views(state, offers),
        doors=doors,
        add_door=add_door_button(state, offers),
        pieces=piece_views(state, offers),
        sides=side_views(state, offers),
        markers=marker_views(state, offers),
        artifact=artifact_view(state, offers),
        result=_result(state),
    )
