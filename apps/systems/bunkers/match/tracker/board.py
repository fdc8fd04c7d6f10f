"""The board on the tracker: doors and laser barriers, sentry guns and barricades, objective
markers and the artifact; every button asks the engine (``Offers``)."""

from __future__ import annotations

from apps.systems.bunkers.match.state import Door, MatchState
from apps.systems.bunkers.match.tables import (
    DOOR_KIND_LABELS,
    DOOR_STATE_LABELS,
    DOOR_WOUNDS,
    Mission,
    Phase,
    Stage,
)
from apps.systems.bunkers.match.tracker.models import (
    PLAYER_COLOURS,
    ArtifactView,
    DoorView,
    MarkerView,
    PieceView,
)
from apps.systems.core.buttons import Button, NumberInput, Offers
from apps.systems.core.i18n import gettext_noop as _

WOUNDS_INPUT = NumberInput("args.wounds:int", _("Wounds"), 1, 1, 20)


def _door_buttons(state: MatchState, door: Door, offers: Offers) -> tuple[Button, ...]:
    if state.stage is not Stage.BATTLE:
        return ()
    args = {"door": door.id}
    buttons = [
        offers.command("open_door", _("Open"), args=args),
        offers.command("close_door", _("Close"), args=args),
    ]
    if door.kind == "door":
        buttons.append(
            offers.command(
                "damage_door", _("Wounds lost"), args=args, inputs=(WOUNDS_INPUT,), style="danger"
            )
        )
    return tuple(buttons)


def door_views(state: MatchState, offers: Offers) -> tuple[DoorView, ...]:
    return tuple(
        DoorView(
            id=door.id,
            name=door.name,
            kind=door.kind,
            kind_label=DOOR_KIND_LABELS[door.kind],
            narrow=door.narrow,
            state=door.state.value,
            state_label=DOOR_STATE_LABELS[door.state],
            wounds=door.wounds,
            max_wounds=DOOR_WOUNDS if door.kind == "door" else 0,
            trapped=door.trapped,
            buttons=_door_buttons(state, door, offers),
        )
        for door in state.doors
    )


def add_door_button(state: MatchState, offers: Offers) -> Button | None:
    if state.stage is Stage.OVER:
        return None
    return offers.command(
        "add_door", _("Add to the board"), form={"name": "", "kind": "door", "narrow": False}
    )


def piece_views(state: MatchState, offers: Offers) -> tuple[PieceView, ...]:
    views = []
    for piece in state.pieces:
        if piece.removed:
            continue
        args = {"piece": piece.id}
        buttons = []
        if piece.kind == "sentry" and state.phase in (Phase.SHOOTING, Phase.FIGHT):
            buttons.append(
                offers.command(
                    "damage_piece",
                    _("Wounds lost"),
                    args=args,
                    inputs=(WOUNDS_INPUT,),
                    style="danger",
                )
            )
        if state.stage is Stage.BATTLE:
            buttons.append(offers.command("remove_piece", _("Remove"), args=args))
        views.append(
            PieceView(
                id=piece.id,
                kind=piece.kind,
                label=_("Sentry Gun") if piece.kind == "sentry" else _("Barrikade (barricade)"),
                owner=state.players[piece.player].name,
                colour=PLAYER_COLOURS[piece.player % 2],
                wounds=piece.wounds,
                buttons=tuple(buttons),
            )
        )
    return tuple(views)


def marker_views(state: MatchState, offers: Offers) -> tuple[MarkerView, ...]:
    artifact = state.mission == Mission.ARTEFAKT
    views = []
    for marker in state.markers:
        reveal = None
        if artifact and not marker.revealed and state.stage is Stage.BATTLE:
            reveal = offers.command("reveal_marker", _("Reveal"), args={"marker": marker.number})
        holder = state.players[marker.holder].name if marker.holder is not None else ""
        views.append(
            MarkerView(
                number=marker.number,
                revealed=marker.revealed,
                artifact=marker.revealed and state.artifact == marker.number,
                holder=holder,
                reveal=reveal,
            )
        )
    return tuple(views)


def artifact_view(state: MatchState, offers: Offers) -> ArtifactView | None:
    if state.mission != Mission.ARTEFAKT:
        return None
    carrier = state.units[state.carrier] if state.carrier is not None else None
    hand_over = drop = None
    units: tuple[tuple[int, str], ...] = ()
    if carrier is not None and state.stage is Stage.BATTLE:
        units = tuple(
            (u.id, u.name)
            for u in state.side_units(carrier.player)
            if u.on_table and u.id != carrier.id
        )
        if state.phase is Phase.MOVEMENT:
            form = {"to": units[0][0]} if units else {}
            hand_over = offers.command("hand_over", _("Hand over"), form=form)
        drop = offers.command("drop", _("Carrier killed: drop it"))
    return ArtifactView(
        found=state.artifact_found,
        carrier=carrier.name if carrier is not None else "",
        lying=state.artifact_found and carrier is None,
        hand_over=hand_over,
        units=units,
        drop=drop,
    )
