"""Who acts when: the models still to take their phase, the secret picks, the free
activations, the models acting in a phase and who may retest a panic. Pure queries of the state.
"""

from __future__ import annotations

from apps.systems.universalis.match.state import MatchState, Phase, Unit


def orphan(state: MatchState, unit: Unit) -> bool:
    """A telematon whose operator is gone is activated last in the round (19.3)."""
    return unit.telematon and (unit.operator is None or not state.units[unit.operator].in_play)


def eligible(state: MatchState, player: int, *, orphans: bool = False) -> tuple[Unit, ...]:
    """Models of ``player`` that may still take their initiative phase this round: not the
    telematons of an operator in play (they act in its phase); orphaned telematons only when
    ``orphans``."""
    return tuple(
        u
        for u in state.units
        if u.player == player
        and u.in_play
        and not u.activated
        and (not u.telematon or (orphans and orphan(state, u)))
    )


def picking(state: MatchState) -> bool:
    """Both players still have a model to pick: the order is rolled for."""
    return state.phase is Phase.ORDER and all(eligible(state, p.index) for p in state.players)


def free_activations(state: MatchState) -> tuple[Unit, ...]:
    """Models that take their phase without a roll: the rest of a player's models once the
    other has none left (5.5.2), then the orphaned telematons."""
    if state.phase is not Phase.ORDER or picking(state):
        return ()
    regular = tuple(u for p in state.players for u in eligible(state, p.index))
    if regular:
        return regular
    return tuple(u for p in state.players for u in eligible(state, p.index, orphans=True))


def phase_group(state: MatchState, unit_id: int) -> tuple[Unit, ...]:
    """The model and its telematons, which act in its initiative phase (19.1)."""
    return tuple(
        u
        for u in state.units
        if u.in_play and (u.id == unit_id or (u.telematon and u.operator == unit_id))
    )


def retest_refusal(state: MatchState, unit: Unit) -> str:
    """Why ``unit`` cannot retest its panic at the end of the running phase ("" if it can): it
    must panic, be in play and act in this phase, and not be a telematon without its operator
    (11.4.1, 19.3)."""
    if state.phase is not Phase.ACTING or state.active is None:
        return "not_now"
    if not unit.in_play or unit not in phase_group(state, state.active):
        return "not_active"
    if not unit.panic:
        return "not_panicking"
    if orphan(state, unit):
        return "orphan_panic"
    return ""
