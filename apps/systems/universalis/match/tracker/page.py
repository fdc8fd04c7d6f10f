"""The whole Universalis tracker screen (``core.match.TrackerView``), assembled from the
presenters; pure: the page renders it, the rules computed it.

``screen.viewer`` is the seat whose secrets may be shown (its mission, its pick): ``None``
shows none, and the page asks the owner to open them explicitly (see the reference).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Final

from apps.systems.core.buttons import Button
from apps.systems.core.engine import Screen
from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import TimelineLine as Text
from apps.systems.universalis.match.missions import MISSIONS
from apps.systems.universalis.match.state import MatchState, Phase
from apps.systems.universalis.match.tracker import due, prompt
from apps.systems.universalis.match.tracker.abilities import OBJECT_ATTRIBUTES
from apps.systems.universalis.match.tracker.actions import MemberActions
from apps.systems.universalis.match.tracker.member import members
from apps.systems.universalis.match.tracker.models import (
    AreaForm,
    BurningTest,
    PanicTest,
    PlayerView,
    Reactions,
    RollView,
    RoundEnd,
    SecretStep,
)
from apps.systems.universalis.match.tracker.reactions import reactions
from apps.systems.universalis.match.tracker.rerolls import REROLL_CHOICES
from apps.systems.universalis.match.tracker.units import player_views, result, roll_view

ON_WIN: Final = (("hit", _("hit")), ("push", _("push back")), ("power", _("touch power")))
# The cover between shooter and target: its FK malus (the armour bonus only if the target
# touches it, a check box of its own).
COVER_CHOICES: Final = (
    ("none", _("no cover")),
    ("soft", _("soft cover (−1)")),
    ("hard", _("hard cover (−2)")),
    ("massive", _("massive cover (−3)")),
)


@dataclass(frozen=True)
class TrackerView:
    phase: str
    round: int
    max_rounds: int
    viewer: int | None
    heading: tuple[Text, ...]
    players: tuple[PlayerView, ...]
    prompt: Text
    buttons: tuple[Button, ...]
    secrets: tuple[SecretStep, ...]
    members: tuple[MemberActions, ...]
    reactions: Reactions | None
    end_phase: Button | None
    panic_due: tuple[PanicTest, ...]
    retests: tuple[PanicTest, ...]  # panicking models of the phase that may retest at its end
    burning_due: tuple[BurningTest, ...]
    area: AreaForm | None
    round_end: RoundEnd | None
    rolls: tuple[RollView, ...]
    over: bool
    result: Text | None
    cover_choices: tuple[tuple[str, str], ...] = COVER_CHOICES
    on_win_choices: tuple[tuple[str, str], ...] = ON_WIN
    object_attributes: tuple[tuple[str, str], ...] = OBJECT_ATTRIBUTES
    reroll_choices: tuple[tuple[str, str], ...] = REROLL_CHOICES
    missions: tuple[tuple[str, str], ...] = field(default=())

    def command_buttons(self) -> Iterator[Button]:
        """Every command button and form of the screen (a secret step's options too: the page
        shows them to their player only)."""
        yield from self.buttons
        for step in self.secrets:
            yield from step.options
        for burning in self.burning_due:
            yield burning.button
        for test in self.panic_due:
            yield test.button
            if test.skip is not None:
                yield test.skip
        if self.area is not None:
            yield self.area.button
        for member in self.members:
            yield from member.command_buttons()
        if self.end_phase is not None:
            yield self.end_phase
        yield from (test.button for test in self.retests)
        if self.reactions is not None:
            yield from self.reactions.command_buttons()
        if self.round_end is not None:
            yield self.round_end.button
            yield from self.round_end.surrender

    def screens(self) -> Iterator[Mapping[str, str]]:
        """Each model in play selected (its reactions and the table tools); a secret choice is
        no screen of its own: its options are on every screen."""
        for player in self.players:
            for unit in player.units:
                if unit.in_play and not unit.selected:
                    yield {"unit": str(unit.id)}


def _heading(state: MatchState, line: Text) -> tuple[Text, ...]:
    parts = [Text("%(system)s", {"system": "Universalis"})]
    if state.round and state.max_rounds:
        parts.append(
            Text(_("Round %(round)s / %(max)s"), {"round": state.round, "max": state.max_rounds})
        )
    elif state.round:
        parts.append(Text(_("Round %(round)s"), {"round": state.round}))
    parts.append(line)
    return tuple(parts)


def tracker_view(state: MatchState, screen: Screen) -> TrackerView:
    offers, params = screen.offers, screen.params
    selected = screen.selected
    if selected is not None and not 0 <= selected < len(state.units):
        selected = None
    chosen = state.units[selected] if selected is not None else None
    line, buttons = prompt.prompt(state, offers)
    end_phase, retests = due.end_phase(state, selected, params, offers)
    return TrackerView(
        phase=state.phase.value,
        round=state.round,
        max_rounds=state.max_rounds,
        viewer=screen.viewer,
        heading=_heading(state, line),
        players=player_views(state, screen.viewer, selected),
        prompt=line,
        buttons=buttons,
        secrets=prompt.secrets(state, offers),
        members=members(state, selected, params, offers),
        reactions=reactions(state, chosen, params, offers),
        end_phase=end_phase,
        panic_due=due.panic_tests(state, selected, params, offers),
        retests=retests,
        burning_due=due.burning_tests(state, selected, offers),
        area=due.area_form(state, offers),
        round_end=prompt.round_end(state, offers),
        rolls=tuple(roll_view(r) for r in state.last_rolls),
        over=state.phase is Phase.OVER,
        result=result(state),
        missions=tuple((m.slug, m.name) for m in MISSIONS),
    )
