"""Bunkers and Badasses: importing a BattleScribe roster of about 2,000 points (the Salamanders
test roster's units repeated), as .ros and as .rosz. Goal: ≤ 100 ms. The floors parse the same
bytes without building an army: bare expat, ``xml.etree.ElementTree.fromstring`` and, where it is
installed, ``defusedxml.ElementTree.fromstring``.

The roster is read from ../shared/test-data/battlescribe/ and never copied into the project; when
that folder is absent the bench says so and skips. ``python -m bench.bunkers_import`` runs it
alone (no database needed)."""

from __future__ import annotations

import copy
import io
import zipfile
from collections.abc import Callable
from pathlib import Path
from xml.etree import ElementTree
from xml.parsers import expat

from apps.systems.bunkers.battlescribe import NAMESPACE, parse_roster_file
from bench.report import Report, Timing, measure

GOAL_MS = 100.0
TARGET_POINTS = 2000
REPEAT = 30
SOURCE = (
    Path(__file__).resolve().parents[1].parent
    / "shared"
    / "test-data"
    / "battlescribe"
    / "salamanders-battalion.ros"
)


def large_roster(source: bytes, target_points: int = TARGET_POINTS) -> bytes:
    """The roster with its units' selections repeated until the army reaches
    ``target_points`` (declared totals left stale, as an edited export might have them)."""
    ElementTree.register_namespace("", NAMESPACE)
    root = ElementTree.fromstring(source)
    ns = {"bs": NAMESPACE}
    force = root.find("bs:forces/bs:force", ns)
    assert force is not None
    selections = force.find("bs:selections", ns)
    assert selections is not None
    # In this roster every unit is a selection directly under the force, in the same order.
    units = [s for s in selections if s.get("type") in ("unit", "model")]
    army = parse_roster_file(source, SOURCE.name)
    points, index = army.computed.points, 0
    while points < target_points:
        selections.append(copy.deepcopy(units[index % len(units)]))
        points += army.units[index % len(units)].costs.points
        index += 1
    large: bytes = ElementTree.tostring(root, encoding="utf-8", xml_declaration=True)
    return large


def _zipped(data: bytes) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("army.ros", data)
    return buffer.getvalue()


def _bare_expat(data: bytes) -> Callable[[], object]:
    def run() -> object:
        parser = expat.ParserCreate(namespace_separator="}")
        return parser.Parse(data, True)

    return run


def _importing(data: bytes) -> Callable[[], object]:
    return lambda: parse_roster_file(data, "large")


def _floors(data: bytes) -> list[tuple[str, Callable[[], object]]]:
    floors: list[tuple[str, Callable[[], object]]] = [
        ("floor: bare expat, no tree", _bare_expat(data)),
        ("floor: xml.etree.ElementTree.fromstring", lambda: ElementTree.fromstring(data)),
    ]
    try:
        from defusedxml import ElementTree as defused
    except ImportError:
        print("  (defusedxml is not installed: its floor is left out)")
    else:
        floors.append(
            (
                "floor: defusedxml.ElementTree.fromstring",
                lambda: defused.fromstring(data, forbid_dtd=True),
            )
        )
    return floors


def run(report: Report) -> None:
    report.section(f"Bunkers and Badasses: BattleScribe import, ~{TARGET_POINTS} points")
    if not SOURCE.is_file():
        print(f"  skipped: the shared test roster is not here ({SOURCE})")
        return
    data = large_roster(SOURCE.read_bytes())
    packed = _zipped(data)
    army = parse_roster_file(data, "large.ros")
    print(
        f"  {len(data) / 1024:,.0f} KiB .ros ({len(packed) / 1024:,.0f} KiB .rosz), "
        f"{len(army.units)} units, {army.computed.points} points"
    )
    floors = [measure(name, action, repeat=REPEAT, warmup=2) for name, action in _floors(data)]
    for timing in floors:
        report.add(timing)
    floor = floors[1]  # ElementTree: a tree built from the same bytes
    for name, payload in (("parse_roster_file, .ros", data), ("parse_roster_file, .rosz", packed)):
        timing = measure(name, _importing(payload), repeat=REPEAT)
        ratio = timing.median_ms / floor.median_ms if floor.median_ms else float("inf")
        verdict = "ok" if timing.median_ms <= GOAL_MS else "OVER"
        note = f"{ratio:,.1f}x ElementTree; goal ≤ {GOAL_MS:g} ms: {verdict}"
        report.add(Timing(timing.name, timing.samples_ns, note=note))


if __name__ == "__main__":
    run(Report())
