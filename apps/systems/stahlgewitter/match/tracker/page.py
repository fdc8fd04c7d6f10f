"""The whole Stahlgewitter tracker screen (``core.match.TrackerView``): the setup step or the
active unit's phase checklist, both sides with their units, models and markers, the attack
wizard, the effect markers and, in a scenario, the mission points."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction

from apps.systems.core.buttons import Button, NumberInput, Offers
from apps.systems.core.distributions import chance_text
from apps.systems.core.engine import Screen
from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import TimelineLine as Text
from apps.systems.stahlgewitter.match import panic
from apps.systems.stahlgewitter.match.factions import is_scenario
from apps.systems.stahlgewitter.match.labels import (
    EDGE_LABELS,
    METHOD_LABELS,
    PHASE_LABELS,
    REASONS,
    STAGE_LABELS,
)
from apps.systems.stahlgewitter.match.rounds import double, hidden_marker
from apps.systems.stahlgewitter.match.secrets import hidden_from
from apps.systems.stahlgewitter.match.setup import EDGES, METHODS, hidden_all
from apps.systems.stahlgewitter.match.state import PHASES, MatchState, Phase, Stage
from apps.systems.stahlgewitter.match.team import best_leader_wik
from apps.systems.stahlgewitter.match.tracker.attack import attack_wizard
from apps.systems.stahlgewitter.match.tracker.models import (
    AttackWizard,
    PhaseStep,
    Prompt,
    SecretStep,
    SideView,
)
from apps.systems.stahlgewitter.match.tracker.sides import side_views
from apps.systems.stahlgewitter.odds import execution_weights, rally_weights, start_weights


@dataclass(frozen=True)
class FireView:
    id: int
    out: bool
    remove: Button | None


@dataclass(frozen=True)
class TrackerView:
    heading: tuple[Text, ...]
    over: bool
    stage: str
    viewer: int | None
    mode: str
    round: int
    rounds: int
    phases: tuple[PhaseStep, ...]
    prompt: Prompt
    secrets: tuple[SecretStep, ...]
    sides: tuple[SideView, ...]
    wizard: AttackWizard | None
    fires: tuple[FireView, ...]
    add_fire: Button | None
    mission: tuple[Button, ...]
    result: Text | None

    def command_buttons(self) -> Iterator[Button]:
        yield from self.prompt.buttons
        yield from self.prompt.examples
        for step in self.secrets:
            yield from step.buttons
        for side in self.sides:
            for unit in side.units:
                yield from unit.all_buttons()
            for marker in side.markers:
                yield from marker.reveal
        if self.wizard is not None:
            yield from self.wizard.buttons()
        for fire in self.fires:
            if fire.remove is not None:
                yield fire.remove
        if self.add_fire is not None:
            yield self.add_fire
        yield from self.mission

    @property
    def assigning(self) -> tuple[int, ...]:
        """The players still giving their units markers: their way into the secret view is
        the assignment step, not the army's "show my hidden units"."""
        return tuple(step.player for step in self.secrets if not step.done)

    def screens(self) -> Iterator[Mapping[str, str]]:
        """The attack wizard of every model that may attack, and each of its weapons."""
        for button in self.command_buttons():
            if button.is_wizard and button.enabled:
                yield button.wizard_params


def _heading(state: MatchState) -> tuple[Text, ...]:
    mode = _("Scenario") if state.mode == "scenario" else _("Free game")
    parts = [Text(mode)]
    if state.stage is Stage.BATTLE:
        parts.append(
            Text(_("Round %(round)s of %(total)s"), {"round": state.round, "total": state.rounds})
        )
        if state.active is not None:
            parts.append(Text(PHASE_LABELS[state.phase]))
    else:
        parts.append(Text(STAGE_LABELS[state.stage]))
    return tuple(parts)


def _phases(state: MatchState) -> tuple[PhaseStep, ...]:
    if state.stage is not Stage.BATTLE or state.active is None:
        return ()
    now = PHASES.index(state.phase)
    return tuple(
        PhaseStep(p.value, PHASE_LABELS[p], i < now, i == now) for i, p in enumerate(PHASES)
    )


def _name(state: MatchState, player: int | None) -> str:
    return state.players[player].name if player is not None else "—"


def _setup_prompt(state: MatchState, offers: Offers, viewer: int | None = None) -> Prompt:
    stage = state.stage
    title = Text(STAGE_LABELS[stage])
    if stage is Stage.TERRAIN:
        odds = _even_roll(state)
        buttons = tuple(
            offers.command(
                "choose_terrain",
                METHOD_LABELS[m],
                args={"method": m},
                style="primary",
                odds_lines=odds,
            )
            for m in METHODS
        )
        help_ = Text(_("Choose how the terrain is set up; the tracker rolls who goes first."))
        return Prompt("terrain", title, (help_,), buttons)
    if stage is Stage.PLACING:
        help_ = Text(
            _(
                "%(player)s rolled higher and places the first terrain piece; then alternately "
                "until a player passes. The other one chooses the deployment zone."
            ),
            {"player": _name(state, state.terrain_first)},
        )
        buttons = tuple(
            offers.command(
                "pass_terrain",
                _("%(player)s passes"),
                params={"player": p.name},
                args={"player": p.index},
            )
            for p in state.players
        )
        return Prompt("placing", title, (help_,), buttons)
    if stage is Stage.ZONE:
        chooser = state.zone_chooser
        help_ = Text(
            _(
                "%(player)s chooses a table edge: within 20 cm of it and at least 20 cm from the "
                "corners."
            ),
            {"player": _name(state, chooser)},
        )
        buttons = tuple(
            offers.command(
                "choose_zone", EDGE_LABELS[e], args={"player": chooser, "edge": e}, style="primary"
            )
            for e in EDGES
        )
        return Prompt("zone", title, (help_,), buttons)
    if stage is Stage.DEPLOY_ROLL:
        button = offers.command(
            "roll_deployment",
            _("Roll: who places first"),
            style="primary",
            odds_lines=_even_roll(state),
        )
        return Prompt("deploy_roll", title, (), (button,))
    if stage is Stage.MARKERS:
        return _markers_prompt(state, offers, title, viewer)
    if stage is Stage.START:
        return _start_prompt(state, offers, title)
    return Prompt("over", title)


def _even_roll(state: MatchState) -> tuple[Text, ...]:
    """1d10 each, ties rolled again, no bonus: either player wins half the time."""
    first, second = start_weights((0, 0))
    return (
        Text(
            _("%(player)s wins the roll: %(chance)s"),
            {
                "player": state.players[0].name,
                "chance": chance_text(Fraction(first, first + second)),
            },
        ),
    )


def _markers_prompt(
    state: MatchState, offers: Offers, title: Text, viewer: int | None = None
) -> Prompt:
    placer = state.placer
    help_ = [
        Text(
            _(
                "Each player secretly gives every unit a numbered marker (three more markers are "
                "decoys), then the markers are placed alternately in the deployment zones."
            )
        )
    ]
    buttons: tuple[Button, ...] = ()
    if placer is not None and not hidden_all(state, placer):
        help_.append(
            Text(
                _("%(player)s gives every unit its marker first, then places the first marker."),
                {"player": _name(state, placer)},
            )
        )
    elif placer is not None:
        help_.append(
            Text(_("%(player)s places the next marker."), {"player": _name(state, placer)})
        )
        buttons = tuple(
            offers.command(
                "place_marker",
                _("Place marker %(number)s"),
                params={"number": m.number},
                args={"player": placer, "marker": m.number},
            )
            for m in state.player_markers(placer)
            if not m.placed and not m.removed
        )
        if viewer == placer:
            # Only the placer may see whether the markers left are all decoys.
            buttons += (
                offers.command("skip_decoys", _("No more decoys"), args={"player": placer}),
            )
    return Prompt("markers", title, tuple(help_), buttons)


def _start_prompt(state: MatchState, offers: Offers, title: Text) -> Prompt:
    bonus = (0, 0)
    if state.start_wik:
        bonus = tuple(  # type: ignore[assignment]
            best_leader_wik([m for m in state.models if m.player == p.index]) for p in state.players
        )
    first, second = start_weights(bonus)
    odds = (
        Text(
            _("%(player)s starts: %(chance)s"),
            {
                "player": state.players[0].name,
                "chance": chance_text(Fraction(first, first + second)),
            },
        ),
    )
    help_ = (
        Text(
            _("1d10 each, ties rolled again; each adds the best leader's WIK (%(a)s / %(b)s)."),
            {"a": bonus[0], "b": bonus[1]},
        )
        if state.start_wik
        else Text(_("1d10 each, ties rolled again: the higher starts every round."))
    )
    button = offers.command("roll_start", _("Start roll"), style="primary", odds_lines=odds)
    return Prompt("start", title, (help_,), (button,))


def secret_steps(
    state: MatchState, offers: Offers, viewer: int | None = None
) -> tuple[SecretStep, ...]:
    """The marker assignments still open; the buttons only for their owner (``viewer``): the
    legal commands of anyone else would show which unit has its marker already."""
    if state.stage is not Stage.MARKERS:
        return ()
    steps = []
    for player in state.players:
        free = tuple(m.number for m in state.player_markers(player.index) if m.unit is None)
        waiting = [u for u in state.side_units(player.index) if state.marker_of(u.id) is None]
        buttons = tuple(
            offers.command(
                "hide_unit",
                "%(unit)s",
                params={"unit": unit.name},
                args={"player": player.index, "unit": unit.id},
                form={"marker": free[0]},
                style="primary",
                # The secret view stays open until the last unit has its marker.
                keeps_secret_view=len(waiting) > 1,
            )
            for unit in waiting
            if free and viewer == player.index
        )
        steps.append(
            SecretStep(player.index, player.name, hidden_all(state, player.index), buttons, free)
        )
    return tuple(steps)


def _surrender_prompt(state: MatchState, offers: Offers) -> Prompt:
    assert state.surrender is not None
    unit = state.units[state.surrender]
    help_ = Text(
        _(
            "%(unit)s surrenders. %(player)s accepts (the unit leaves the game for half its VP) "
            "or massacres it (its side gets +2 morale for the rest of the game)."
        ),
        {"unit": unit.name, "player": _name(state, 1 - unit.player)},
    )
    buttons = (
        offers.command(
            "answer_surrender",
            _("Accept the surrender"),
            args={"player": 1 - unit.player, "accept": True},
            style="primary",
        ),
        offers.command(
            "answer_surrender",
            _("Massacre them"),
            args={"player": 1 - unit.player, "accept": False},
        ),
    )
    return Prompt("surrender", Text(_("Surrender")), (help_,), buttons)


def _examples(
    state: MatchState, offers: Offers
) -> tuple[tuple[Button, ...], tuple[tuple[int, str], ...]]:
    """A panicking unit's rally phase: each cruel leader of its side may set an example."""
    if state.active is None or state.phase is not Phase.RALLY:
        return (), ()
    unit = state.units[state.active]
    if not unit.panic:
        return (), ()
    leaders = [
        m
        for m in state.models
        if m.player == unit.player and m.alive and m.leader and "grausam" in m.skills
    ]
    victims = tuple((m.id, m.name) for m in state.living(unit.id))
    rallied, mutiny = execution_weights()
    odds = (
        Text(
            _("Rallied %(rallied)s, mutiny %(mutiny)s"),
            {
                "rallied": chance_text(Fraction(rallied, rallied + mutiny)),
                "mutiny": chance_text(Fraction(mutiny, rallied + mutiny)),
            },
        ),
    )
    buttons = []
    for leader in leaders:
        victim = next((v for v, _name in victims if v != leader.id), None)
        if victim is None:
            continue
        buttons.append(
            offers.command(
                "execute",
                _("%(leader)s sets an example"),
                params={"leader": leader.name},
                args={"leader": leader.id},
                form={"victim": victim},
                odds_lines=odds,
            )
        )
    return tuple(buttons), victims


def _battle_prompt(state: MatchState, offers: Offers, viewer: int | None = None) -> Prompt:
    if state.surrender is not None:
        return _surrender_prompt(state, offers)
    if state.active is None:
        picker = state.turn_player
        help_ = [Text(_("Activate a unit or put it on readiness (Aktionsbereitschaft) below."))]
        passes: tuple[Button, ...] = ()
        if picker is not None and double(state, picker):
            help_.append(Text(_("More than twice the opponent's units: two activations in a row.")))
            if state.picks == 2:
                passes = (offers.command("pass_pick", _("Pass the second activation")),)
        return Prompt(
            "pick",
            Text(_("%(player)s's pick"), {"player": _name(state, picker)}),
            tuple(help_),
            passes,
        )
    secret = hidden_from(state, state.active, viewer)
    unit = state.units[state.active]
    marker = state.marker_of(unit.id)
    who = (
        Text(_("%(player)s: %(unit)s"), {"player": _name(state, unit.player), "unit": unit.name})
        if unit.revealed or marker is None
        else Text(
            _("%(player)s: marker %(number)s (moves 9 cm)"),
            {"player": _name(state, unit.player), "number": marker.number},
        )
    )
    help_ = [who]
    if state.blitz is not None:
        help_.append(
            Text(
                _("Blitzaktion called by %(player)s: it follows when this phase ends."),
                {"player": _name(state, state.units[state.blitz].player)},
            )
        )
    if state.interrupted is not None:
        help_.append(Text(_("Blitzaktion: the interrupted unit continues afterwards.")))
    if unit.panic and not secret:
        help_.append(
            Text(_("Panicking: the unit flees its full move towards cover and may only rally."))
        )
    buttons = list(_phase_buttons(state, offers, secret=secret))
    position = PHASES.index(state.phase)
    if position + 1 < len(PHASES):
        label = Text(
            _("Next: %(phase)s"), {"phase": PHASE_LABELS[PHASES[position + 1]]}, ("phase",)
        )
        buttons.append(
            offers.command(
                "next_phase",
                label.template,
                params=label.params,
                translate=("phase",),
                style="primary",
            )
        )
        buttons.append(offers.command("end_turn", _("End the turn")))
    else:
        buttons.append(offers.command("next_phase", _("End the turn"), style="primary"))
    examples, victims = _examples(state, offers) if not secret else ((), ())
    return Prompt(
        "phase",
        Text(PHASE_LABELS[state.phase]),
        tuple(help_),
        tuple(buttons),
        () if secret else _rally_odds(state),
        examples,
        victims,
    )


def _phase_buttons(state: MatchState, offers: Offers, *, secret: bool = False) -> Iterator[Button]:
    """``secret``: the active unit is a marker to the viewer, who gets only the marker's move."""
    assert state.active is not None
    unit = state.units[state.active]
    if state.phase is Phase.MOVEMENT and hidden_marker(state, unit) is not None:
        # A hidden unit moves as its marker (9 cm): the engine records that as "far", so the
        # tracker does not offer a "≤ 3 cm" it would not keep.
        yield offers.command("move", _("The marker moved (up to 9 cm)"), args={"band": "far"})
        if secret:
            return
    elif state.phase is Phase.MOVEMENT:
        yield offers.command("move", _("Moved ≤ 3 cm"), args={"band": "short"})
        yield offers.command("move", _("Moved more than 3 cm"), args={"band": "far"})
        for enemy in state.units:
            if enemy.player == unit.player or enemy.out or not enemy.revealed:
                continue
            yield offers.command(
                "charge",
                _("Charge %(unit)s through its view (defensive fire)"),
                params={"unit": enemy.name},
                args={"target": enemy.id, "through_view": True},
            )
            yield offers.command(
                "charge",
                _("Charge %(unit)s (not through its view)"),
                params={"unit": enemy.name},
                args={"target": enemy.id, "through_view": False},
            )
    if secret:
        return
    if state.phase is Phase.RALLY and len(state.living(unit.id)) * 2 <= len(unit.models):
        yield offers.command(
            "surrender", _("Surrender (enemies 2:1 within 50 cm)"), args={"player": unit.player}
        )
    if state.phase is Phase.RALLY and unit.panic:
        yield offers.command("rally", _("Rally test"), style="primary")
        yield offers.command(
            "rally", _("Rally test: a leader within 10 cm"), args={"leader_near": True}
        )
        yield offers.command("rally", _("Rally test: behind hard cover"), args={"hard_cover": True})


def _rally_odds(state: MatchState) -> tuple[Text, ...]:
    if state.phase is not Phase.RALLY or state.active is None:
        return ()
    unit = state.units[state.active]
    model = panic.test_model(state, unit)
    if not unit.panic or model is None:
        return ()
    rallied, stays, deserts = rally_weights(model.wik)
    return (
        Text(
            _(
                "Rally on %(value)s: rallied %(rallied)s, still panicking %(stays)s, "
                "deserts %(deserts)s"
            ),
            {
                "value": model.wik,
                "rallied": chance_text(Fraction(rallied, 10)),
                "stays": chance_text(Fraction(stays, 10)),
                "deserts": chance_text(Fraction(deserts, 10)),
            },
        ),
    )


def _prompt(state: MatchState, offers: Offers, viewer: int | None = None) -> Prompt:
    if state.stage is Stage.BATTLE:
        return _battle_prompt(state, offers, viewer)
    if state.stage is Stage.OVER:
        return Prompt("over", Text(STAGE_LABELS[Stage.OVER]))
    return _setup_prompt(state, offers, viewer)


def _fires(state: MatchState, offers: Offers) -> tuple[FireView, ...]:
    live = state.stage is Stage.BATTLE
    return tuple(
        FireView(
            f.id,
            f.out,
            offers.command("remove_fire", _("Put out"), args={"fire": f.id})
            if live and not f.out
            else None,
        )
        for f in state.fires
    )


def _mission(state: MatchState, offers: Offers) -> tuple[Button, ...]:
    if not is_scenario(state.mode) or state.stage is not Stage.BATTLE:
        return ()
    points = NumberInput("args.points:int", _("Mission points (+/−)"), 1, -100, 100)
    return tuple(
        offers.command(
            "mission_points",
            _("Mission points: %(player)s"),
            params={"player": p.name},
            args={"player": p.index},
            inputs=(points,),
        )
        for p in state.players
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
    sides = side_views(state, offers, screen.viewer)
    models = {m.id: m for side in sides for unit in side.units for m in unit.models}
    return TrackerView(
        heading=_heading(state),
        over=state.stage is Stage.OVER,
        stage=state.stage.value,
        viewer=screen.viewer,
        mode=state.mode,
        round=state.round,
        rounds=state.rounds,
        phases=_phases(state),
        prompt=_prompt(state, offers, screen.viewer),
        secrets=secret_steps(state, offers, screen.viewer),
        sides=sides,
        wizard=attack_wizard(state, screen.params, offers, models),
        fires=_fires(state, offers),
        add_fire=offers.command("add_fire", _("Add a fire marker"))
        if state.stage is Stage.BATTLE
        else None,
        mission=_mission(state, offers),
        result=_result(state),
    )
