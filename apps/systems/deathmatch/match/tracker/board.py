"""The Deathmatch arena on the tracker: the map of the mode's layout, the objectives and the
result line."""

from __future__ import annotations

from dataclasses import replace

from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import TimelineLine as Text
from apps.systems.deathmatch.match.modes import Layout, ObjectiveKind
from apps.systems.deathmatch.match.state import MatchState
from apps.systems.deathmatch.match.tracker.models import MapShape, ObjectiveView

OBJECTIVE_LABELS = {
    ObjectiveKind.SWITCH.value: _("Schalter (switch) %(id)s"),
    ObjectiveKind.FOCAL_POINT.value: _("Brennpunkt (focal point) %(id)s"),
    ObjectiveKind.FLAG.value: _("Flagge (flag) %(id)s"),
}


def map_shapes(layout: Layout, names: tuple[str, ...]) -> tuple[MapShape, ...]:
    shapes = [
        MapShape(
            "zone",
            zone.player,
            zone.x,
            zone.y,
            zone.width,
            zone.height,
            label=names[zone.player] if zone.player < len(names) else "",
            label_x=zone.x + 0.6,
            label_y=zone.y + 1.6,
        )
        for zone in layout.zones
    ]
    for spot in layout.spots:
        x, y = spot.x, spot.y
        shape = MapShape(
            spot.kind.value, spot.side, x, y, label=spot.id, label_x=x + 1.4, label_y=y + 1.8
        )
        if spot.kind is ObjectiveKind.SWITCH:
            shape = replace(shape, x=x - 0.8, y=y - 0.8, width=1.6, height=1.6)
        elif spot.kind is ObjectiveKind.FLAG:
            path = f"M {x} {y + 1} V {y - 1.4} L {x + 1.4} {y - 0.8} L {x} {y - 0.2}"
            shape = replace(shape, path=path)
        else:
            radius = {ObjectiveKind.KING_ZONE: spot.radius, ObjectiveKind.CORE: 1.2}.get(
                spot.kind, 1
            )
            shape = replace(shape, radius=radius)
        shapes.append(shape)
    return tuple(shapes)


def objectives(state: MatchState) -> tuple[ObjectiveView, ...]:
    return tuple(
        ObjectiveView(
            id=o.id,
            kind=o.kind,
            label=Text(OBJECTIVE_LABELS.get(o.kind, "%(id)s"), {"id": o.id}),
            owner=o.owner,
            state=o.state.value,
            carrier=state.unit(o.carrier).name if o.carrier is not None else "",
        )
        for o in state.objectives
    )


def result(state: MatchState) -> Text | None:
    if state.result is None:
        return None
    if state.result.draw:
        names = ", ".join(state.player(p).name for p in state.result.winners)
        return Text(_("A draw between %(players)s."), {"players": names})
    return Text(_("%(player)s wins!"), {"player": state.player(state.result.winners[0]).name})
