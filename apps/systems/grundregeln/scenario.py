"""Grundregeln scenarios: rounds, victory conditions, objectives and NPCs (catalogue missions).

The rulebook leaves setup, missions, NPC behaviour and victory conditions to the scenario. A
scenario is stored as the ``data`` of a catalogue mission:

    {"players": [2, 2], "rounds": 5, "victory": "most_kills", "starter": "roll", "objectives": 0,
     "vp_kill": 1, "vp_npc": 1, "vp_objective": 0, "summary": "...", "sample": false,
     "npcs": [{"profile": "wachhund", "name": "Wachhund", "behaviour": "active", "count": 2,
               "stats": {...the NPC profile's stats...}}]}

NPC profiles are copied in when the scenario is written, so a running match and an old scenario
keep the cards they were made with.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from apps.systems.core.i18n import gettext_noop
from apps.systems.core.rosters import CatalogData, CatalogEntry
from apps.systems.core.scenarios import NpcChoice
from apps.systems.core.schema import FieldError, FieldSpec, SchemaError
from apps.systems.grundregeln.catalog import Profile, profile_from_stats


class Victory(StrEnum):
    LAST_STANDING = "last_standing"
    MOST_KILLS = "most_kills"
    OBJECTIVES = "objectives"


class Starter(StrEnum):
    """Who begins each round: the rulebook's round start roll decides "wenn Szenario nichts
    anderes vorgibt" (unless the scenario says otherwise)."""

    ROLL = "roll"  # the round start roll's winner decides
    FIRST = "first"  # player 1 begins every round
    SECOND = "second"  # player 2 begins every round

    @property
    def player(self) -> int | None:
        return {Starter.FIRST: 0, Starter.SECOND: 1}.get(self)


class Behaviour(StrEnum):
    ACTIVE = "active"  # acts in the NPC phase as the scenario says; may react; can be killed
    PASSIVE = "passive"  # moved by the players in the NPC phase; cannot be attacked


VICTORY_CHOICES: Final = (
    (Victory.LAST_STANDING.value, gettext_noop("Last side standing")),
    (Victory.MOST_KILLS.value, gettext_noop("Most kills after the last round")),
    (Victory.OBJECTIVES.value, gettext_noop("Hold the objectives: most VP after the last round")),
)
STARTER_CHOICES: Final = (
    (Starter.ROLL.value, gettext_noop("The round start roll's winner decides (rulebook)")),
    (Starter.FIRST.value, gettext_noop("Player 1 begins every round")),
    (Starter.SECOND.value, gettext_noop("Player 2 begins every round")),
)
BEHAVIOUR_CHOICES: Final = (
    (Behaviour.ACTIVE.value, gettext_noop("active")),
    (Behaviour.PASSIVE.value, gettext_noop("passive")),
)
MAX_ROUNDS: Final = 20
MAX_OBJECTIVES: Final = 3
MAX_NPCS: Final = 12
MAX_NPC_ROWS: Final = 6
OBJECTIVE_NAMES: Final = ("A", "B", "C")

SCENARIO_FIELDS: Final = (
    FieldSpec("victory", gettext_noop("Victory condition"), "choice", choices=VICTORY_CHOICES),
    FieldSpec(
        "starter",
        gettext_noop("Who begins each round"),
        "choice",
        choices=STARTER_CHOICES,
        required=False,
        default=Starter.ROLL.value,
        help=gettext_noop(
            "Without a rule of the scenario, the round start roll's winner decides. Player 1 "
            "is the first seat of the match."
        ),
    ),
    FieldSpec(
        "rounds",
        gettext_noop("Rounds"),
        "int",
        minimum=0,
        maximum=MAX_ROUNDS,
        default=5,
        help=gettext_noop("0: no round limit (only for last side standing)."),
    ),
    FieldSpec(
        "objectives",
        gettext_noop("Objectives (A, B, C)"),
        "int",
        minimum=0,
        maximum=MAX_OBJECTIVES,
        default=0,
        help=gettext_noop("Who holds each objective is asked at the end of every round."),
    ),
    FieldSpec(
        "vp_kill",
        gettext_noop("VP per enemy model eliminated"),
        "int",
        minimum=0,
        maximum=10,
        default=1,
    ),
    FieldSpec(
        "vp_npc",
        gettext_noop("VP per active NPC eliminated"),
        "int",
        minimum=0,
        maximum=10,
        default=0,
    ),
    FieldSpec(
        "vp_objective",
        gettext_noop("VP per objective held at the end of a round"),
        "int",
        minimum=0,
        maximum=10,
        default=0,
    ),
    FieldSpec(
        "summary",
        gettext_noop("Setup and special rules"),
        "text",
        required=False,
        default="",
        help=gettext_noop("Deployment, what the NPCs do, anything the table must know."),
    ),
    FieldSpec(
        "summary_en",
        gettext_noop("Setup and special rules in English"),
        "text",
        required=False,
        default="",
        help=gettext_noop("Shown instead of the German text in English."),
    ),
)
_INT_KEYS: Final = ("rounds", "objectives", "vp_kill", "vp_npc", "vp_objective")
_DATA_KEYS: Final = (
    "players",
    "victory",
    "starter",
    "summary",
    "summary_en",
    "sample",
    "npcs",
    *_INT_KEYS,
)
_NPC_KEYS: Final = ("profile", "name", "behaviour", "count", "stats")


@dataclass(frozen=True)
class NpcSpec:
    name: str
    behaviour: Behaviour
    count: int
    profile: Profile


@dataclass(frozen=True)
class Scenario:
    slug: str
    name: str
    victory: Victory
    rounds: int
    starter: Starter = Starter.ROLL
    objectives: int = 0
    vp_kill: int = 0
    vp_npc: int = 0
    vp_objective: int = 0
    summary: str = ""
    summary_en: str = ""
    npcs: tuple[NpcSpec, ...] = ()
    sample: bool = False

    @property
    def scores_vp(self) -> bool:
        return self.victory is not Victory.LAST_STANDING

    @property
    def objective_names(self) -> tuple[str, ...]:
        return OBJECTIVE_NAMES[: self.objectives]


def _spec(name: str) -> FieldSpec:
    return next(spec for spec in SCENARIO_FIELDS if spec.name == name)


def _check_values(values: Mapping[str, object], errors: list[FieldError]) -> dict[str, object]:
    """The scenario's plain values, checked; every problem is added to ``errors``."""
    victory = _checked_choice(
        values.get("victory"), "victory", Victory, Victory.LAST_STANDING.value, errors
    )
    starter = _checked_choice(
        values.get("starter", Starter.ROLL.value), "starter", Starter, Starter.ROLL.value, errors
    )
    checked: dict[str, object] = {"victory": victory, "starter": starter}
    for key in _INT_KEYS:
        checked[key] = _checked_int(values, key, errors)
    for key in ("summary", "summary_en"):
        checked[key] = _checked_summary(values.get(key, ""), key, errors)
    _check_victory(Victory(victory), checked, errors)
    return checked


def _checked_choice(
    value: object, key: str, choices: type[StrEnum], fallback: str, errors: list[FieldError]
) -> str:
    """``value`` when it is one of ``choices``; else a problem, and ``fallback`` so that the
    other checks can go on."""
    if isinstance(value, str) and value in [choice.value for choice in choices]:
        return value
    errors.append(FieldError(key, f"must be one of {', '.join(choices)}, not {value!r}."))
    return fallback


def _checked_int(values: Mapping[str, object], key: str, errors: list[FieldError]) -> int:
    """A whole number within its field's range (one out of range is reported and kept)."""
    spec = _spec(key)
    value = values.get(key, spec.default)
    if not isinstance(value, int) or isinstance(value, bool):
        errors.append(FieldError(key, f"must be a whole number, not {value!r}."))
        return 0
    if not (spec.minimum or 0) <= value <= (spec.maximum or 0):
        errors.append(FieldError(key, f"must be {spec.minimum} to {spec.maximum}, not {value}."))
    return value


def _checked_summary(summary: object, key: str, errors: list[FieldError]) -> str:
    if not isinstance(summary, str) or len(summary) > 2000:
        errors.append(FieldError(key, "must be a text of at most 2000 characters."))
        return ""
    return summary.strip()


def _check_victory(kind: Victory, checked: dict[str, object], errors: list[FieldError]) -> None:
    """What the victory condition needs of the other values (and clears what it ignores)."""
    if kind is Victory.LAST_STANDING:
        # VP decide nothing in a last-side-standing game: none are kept, so none are shown.
        checked.update(vp_kill=0, vp_npc=0, vp_objective=0)
    elif checked["rounds"] == 0:
        errors.append(FieldError("rounds", "a game decided by VP needs a round limit."))
    if kind is Victory.MOST_KILLS and checked["vp_kill"] == 0 and checked["vp_npc"] == 0:
        errors.append(FieldError("vp_kill", "most kills needs VP for eliminated models."))
    if kind is Victory.OBJECTIVES:
        if checked["objectives"] == 0:
            errors.append(FieldError("objectives", "name at least one objective."))
        if checked["vp_objective"] == 0:
            errors.append(FieldError("vp_objective", "objectives need VP when they are held."))


def _npc_profile(
    entry: Mapping[str, object], slug: str, path: str, errors: list[FieldError]
) -> Profile | None:
    stats = entry.get("stats")
    name = entry.get("name")
    try:
        profile = profile_from_stats(
            slug=slug,
            name=name if isinstance(name, str) else "",
            factions=("npc",),
            stats=stats if isinstance(stats, Mapping) else {},
        )
    except SchemaError as error:
        errors.extend(FieldError(f"{path}.{e.field}", e.message) for e in error.errors)
        return None
    if not profile.npc:
        errors.append(FieldError(f"{path}.stats.npc", "must be an NPC profile."))
    return profile


def scenario_from_data(slug: str, name: str, data: Mapping[str, object]) -> Scenario:
    """A scenario from a mission's ``data``; raises ``SchemaError`` listing every problem."""
    errors: list[FieldError] = []
    if not isinstance(data, Mapping):
        raise SchemaError([FieldError("data", "must be an object.")])
    errors.extend(FieldError(str(key), "unknown field.") for key in data if key not in _DATA_KEYS)
    values = _check_values(data, errors)
    npcs = _npc_specs(data.get("npcs", []), errors)
    players = data.get("players", [2, 2])
    if players != [2, 2]:
        errors.append(FieldError("players", "Grundregeln scenarios are for 2 players: [2, 2]."))
    sample = data.get("sample", False)
    if not isinstance(sample, bool):
        errors.append(FieldError("sample", "must be true or false."))
    if not isinstance(name, str) or not name.strip():
        errors.append(FieldError("name", "must not be empty."))
    if errors:
        raise SchemaError(errors)
    return Scenario(
        slug=slug,
        name=name.strip(),
        victory=Victory(str(values["victory"])),
        rounds=int(str(values["rounds"])),
        starter=Starter(str(values["starter"])),
        objectives=int(str(values["objectives"])),
        vp_kill=int(str(values["vp_kill"])),
        vp_npc=int(str(values["vp_npc"])),
        vp_objective=int(str(values["vp_objective"])),
        summary=str(values["summary"]),
        summary_en=str(values["summary_en"]),
        npcs=tuple(npcs),
        sample=sample is True,
    )


def _npc_specs(raw_npcs: object, errors: list[FieldError]) -> list[NpcSpec]:
    """The scenario's NPC rows, at most ``MAX_NPCS`` models in all."""
    if not isinstance(raw_npcs, list):
        errors.append(FieldError("npcs", "must be a list."))
        raw_npcs = []
    npcs: list[NpcSpec] = []
    for index, raw in enumerate(raw_npcs):
        npc = _npc_spec(raw, f"npcs.{index}", errors)
        if npc is not None:
            npcs.append(npc)
    if sum(npc.count for npc in npcs) > MAX_NPCS:
        errors.append(FieldError("npcs", f"at most {MAX_NPCS} NPCs in all."))
    return npcs


def _npc_spec(raw: object, path: str, errors: list[FieldError]) -> NpcSpec | None:
    """One NPC row; None when it has no usable profile (every problem is reported)."""
    if not isinstance(raw, Mapping):
        errors.append(FieldError(path, "must be an object."))
        return None
    errors.extend(
        FieldError(f"{path}.{key}", "unknown field.") for key in raw if key not in _NPC_KEYS
    )
    behaviour = raw.get("behaviour")
    if behaviour not in [key for key, _label in BEHAVIOUR_CHOICES]:
        errors.append(
            FieldError(f"{path}.behaviour", f"must be active or passive, not {behaviour!r}.")
        )
        behaviour = Behaviour.PASSIVE.value
    count = raw.get("count", 1)
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_NPCS:
        errors.append(FieldError(f"{path}.count", f"must be 1 to {MAX_NPCS}, not {count!r}."))
        count = 1
    profile_slug = raw.get("profile")
    profile = _npc_profile(raw, profile_slug if isinstance(profile_slug, str) else "", path, errors)
    if profile is None:
        return None
    return NpcSpec(profile.name, Behaviour(str(behaviour)), count, profile)


def _is_npc(entry: CatalogEntry) -> bool:
    return entry.stats.get("npc") is True


class GrundregelnScenarioRules:
    fields: tuple[FieldSpec, ...] = SCENARIO_FIELDS
    npc_behaviours: tuple[tuple[str, str], ...] = BEHAVIOUR_CHOICES
    max_npc_rows: int = MAX_NPC_ROWS

    def npc_profiles(self, catalog: CatalogData) -> tuple[CatalogEntry, ...]:
        return tuple(entry for entry in catalog.profiles.values() if _is_npc(entry))

    def build(
        self,
        *,
        values: Mapping[str, object],
        npcs: Sequence[NpcChoice],
        catalog: CatalogData,
    ) -> dict[str, object]:
        errors: list[FieldError] = []
        data: dict[str, object] = {"players": [2, 2], **_check_values(values, errors)}
        rows = []
        for index, choice in enumerate(npcs):
            entry = catalog.profiles.get(choice.profile)
            if entry is None or not _is_npc(entry):
                errors.append(
                    FieldError(
                        f"npcs.{index}.profile", f"{choice.profile!r} is not an NPC profile."
                    )
                )
                continue
            rows.append(
                {
                    "profile": entry.slug,
                    "name": entry.name,
                    "behaviour": choice.behaviour,
                    "count": choice.count,
                    "stats": dict(entry.stats),
                }
            )
        data["npcs"] = rows
        data["sample"] = False
        if errors:
            raise SchemaError(errors)
        scenario_from_data("scenario", "scenario", data)
        return data

    def values(self, data: Mapping[str, object]) -> tuple[dict[str, object], tuple[NpcChoice, ...]]:
        values = {spec.name: data.get(spec.name, spec.default) for spec in SCENARIO_FIELDS}
        raw = data.get("npcs", [])
        npcs = tuple(
            NpcChoice(
                profile=str(row.get("profile", "")),
                behaviour=str(row.get("behaviour", Behaviour.PASSIVE.value)),
                count=int(row.get("count", 1)),
            )
            for row in (raw if isinstance(raw, list) else [])
            if isinstance(row, Mapping)
        )
        return values, npcs

    def check(self, data: Mapping[str, object]) -> None:
        scenario_from_data("scenario", "scenario", data)
