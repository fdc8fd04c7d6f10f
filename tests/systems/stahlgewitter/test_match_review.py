"""Stahlgewitter match: the review's findings (secrets through the legal actions and the log,
the log after a pick-up, the scenario winner, bursts, Vibro weapons, army points, odds shown,
the rules that had no command, cruel leaders, the rally value and the minor ones)."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest

from apps.systems.core.errors import RuleViolation
from apps.systems.core.match import Command, Event
from apps.systems.core.rosters import EntryInput, RosterInput
from apps.systems.stahlgewitter.catalog import stahlgewitter_catalog
from apps.systems.stahlgewitter.combat import Cover
from apps.systems.stahlgewitter.match.attacks import column_for, defender_pw, volley_limit
from apps.systems.stahlgewitter.match.serial import load
from apps.systems.stahlgewitter.match.state import MatchState, Model, Phase, Stage, Weapon
from apps.systems.stahlgewitter.match.timeline import timeline_line
from apps.systems.stahlgewitter.roster import totals
from apps.systems.stahlgewitter.tables import Letter, crt_letter
from tests.systems.samples import shipped
from tests.systems.stahlgewitter.test_match_support import (
    ENGINE,
    activate,
    hide_all,
    model_named,
    place_all,
    run,
    start,
    to_battle,
    to_markers,
    to_phase,
    types,
    unit_named,
)

# --- helpers -------------------------------------------------------------------------------


def face_for(column: int, letter: Letter) -> list[int]:
    """The dice that give ``letter`` at ``column`` (a first 10 rolls a second die: row 10 + it,
    a 10 counting 0)."""
    row = next(row for row in range(1, 20) if crt_letter(column, row) is letter)
    return [row] if row < 10 else [10, row - 10 or 10]


def weapon_index(model: Model, slug: str) -> int:
    return next(i for i, w in enumerate(model.weapons) if w.slug == slug)


def ranged(state: MatchState, unit: str = "Kommando") -> MatchState:
    return to_phase(activate(state, unit), Phase.RANGED)


def line_text(state: MatchState, event: Event) -> str:
    line = timeline_line(state, event)
    assert line is not None
    return line.template % line.params


def offered(state: MatchState, viewer: int | None) -> list[tuple[str, str, str]]:
    return sorted(
        (
            o.command.type,
            json.dumps(dict(o.command.args), sort_keys=True),
            o.refusal.code if o.refusal else "",
        )
        for o in ENGINE.legal_commands(state, viewer=viewer)
    )


# --- 1. secrets through the legal actions ---------------------------------------------------

WALKED = frozenset(
    {
        "place_marker",
        "skip_decoys",
        "roll_start",
        "activate",
        "ready",
        "blitz",
        "move",
        "next_phase",
        "end_turn",
        "pass_pick",
    }
)


def _hidden(mapping: dict[str, int]) -> MatchState:
    """Player 0 hides its units behind the markers ``mapping`` names, player 1 as usual."""
    state = to_markers(start())
    for name, number in mapping.items():
        state, _ = run(state, "hide_unit", player=0, unit=unit_named(state, name).id, marker=number)
    for number, unit in enumerate(state.side_units(1), start=1):
        state, _ = run(state, "hide_unit", player=1, unit=unit.id, marker=number)
    return state


def test_what_the_opponent_is_offered_never_depends_on_which_unit_is_behind_a_marker() -> None:
    """ "Das Ganze dient dazu, den Gegner vor Beginn der Schlacht über die Zusammensetzung und
    Positionierung seiner Truppen im Unklaren zu lassen": two games that differ only in player
    0's secret marker→unit mapping offer player 1 (and a spectator) exactly the same commands
    with the same verdicts, show the same state and log the same events, step by step."""
    a = _hidden({"Kommando": 1, "Feuertrupp": 2})
    b = _hidden({"Kommando": 2, "Feuertrupp": 1})
    swap = {unit_named(a, "Kommando").id: unit_named(a, "Feuertrupp").id}
    swap |= {v: k for k, v in swap.items()}
    rng = random.Random(3)
    for step in range(60):
        for viewer in (1, None):
            assert offered(a, viewer) == offered(b, viewer), (step, viewer)
            assert ENGINE.public_state(a, viewer=viewer) == ENGINE.public_state(b, viewer=viewer)
        legal = [
            o.command
            for viewer in (0, 1)
            for o in ENGINE.legal_commands(a, viewer=viewer)
            if o.refusal is None and o.command.type in WALKED and "model" not in o.command.args
        ]
        if not legal:
            break
        command = rng.choice(legal)
        args = dict(command.args)
        if "unit" in args and a.units[args["unit"]].player == 0:
            args["unit"] = swap.get(args["unit"], args["unit"])
        a_events = ENGINE.decide(a, command, random.Random(step))
        b_events = ENGINE.decide(b, Command(command.type, args), random.Random(step))
        assert [ENGINE.public_event(e, viewer=1) for e in a_events] == [
            ENGINE.public_event(e, viewer=1) for e in b_events
        ], (step, command)
        for event in a_events:
            a = ENGINE.apply(a, event)
        for event in b_events:
            b = ENGINE.apply(b, event)
    assert a.stage in (Stage.BATTLE, Stage.OVER) and a.round >= 1


def test_the_owner_still_gets_the_buttons_of_its_hidden_units() -> None:
    """The owner (and only the owner) activates, readies and assigns its hidden units."""
    state = to_battle(reveal=False)
    mine = {
        (o.command.type, o.command.args.get("unit")) for o in ENGINE.legal_commands(state, viewer=0)
    }
    theirs = {
        (o.command.type, o.command.args.get("unit")) for o in ENGINE.legal_commands(state, viewer=1)
    }
    kommando = unit_named(state, "Kommando").id
    assert ("activate", kommando) in mine and ("ready", kommando) in mine
    assert ("activate", kommando) not in theirs
    assert not any(t == "activate" for t, _u in ENGINE_spectator(state))


def ENGINE_spectator(state: MatchState) -> set[tuple[str, Any]]:  # noqa: N802 - reads as a phrase
    return {(o.command.type, o.command.args.get("unit")) for o in ENGINE.legal_commands(state)}


def test_only_the_owner_is_offered_the_secret_marker_assignment() -> None:
    """ "Auf seinem Armeeplan ordnet jeder Spieler jeder seiner Einheiten eine Nummer zu": the
    opponent does not see which of the player's units has its number already."""
    state = to_markers(start())
    state, _ = run(state, "hide_unit", player=0, unit=unit_named(state, "Kommando").id, marker=1)
    assert not [
        o
        for o in ENGINE.legal_commands(state, viewer=1)
        if o.command.args.get("player") == 0 and o.command.type == "hide_unit"
    ]
    assert [o for o in ENGINE.legal_commands(state, viewer=0) if o.command.type == "hide_unit"]


# --- 2. events about a hidden unit's models ------------------------------------------------


def test_a_hidden_units_models_do_nothing_until_it_is_set_up() -> None:
    """ "Ein Spieler kann jederzeit entscheiden, statt einer Spielmarke die von ihr
    repräsentierte Einheit aufzubauen": going prone (or a single model's move) would name the
    unit, so it is refused until the player sets the unit up."""
    state = activate(to_battle(reveal=False), "Kommando")
    model = state.units[unit_named(state, "Kommando").id].models[1]
    for command, args in (
        ("prone", {"model": model, "down": True}),
        ("move", {"band": "short", "model": model}),
    ):
        with pytest.raises(RuleViolation) as refused:
            run(state, command, **args)
        assert refused.value.code == "unit_hidden"


def test_a_hidden_units_morale_test_names_only_its_marker() -> None:
    """A hidden unit's morale test tells the others the marker and the outcome, not the tested
    model, its WIK or the chance (which would name the unit)."""
    state = to_battle(reveal=False)
    unit = unit_named(state, "Kommando")
    state, events = run(state, "morale_test", [10, 10], unit=unit.id)
    tested = next(e for e in events if e.type == "morale_tested")
    public = ENGINE.public_event(tested, viewer=1)
    assert public["marker"] is not None
    assert all(public.get(key) is None for key in ("unit", "model", "wik", "p_pass"))
    assert "WIK" not in line_text(state, tested) and "Kommando" not in line_text(state, tested)
    assert ENGINE.public_state(state, viewer=1)["units"][unit.id]["panic"] is False
    assert ENGINE.public_state(state, viewer=0)["units"][unit.id]["panic"] is True


# --- 3. the log after a pick-up ------------------------------------------------------------


def test_the_log_names_the_weapon_fired_after_weapons_were_picked_up() -> None:
    """ "kann einen beliebigen Ausrüstungsgegenstand von dem Gefallenen aufnehmen": the fallen
    model's weapons move, and the log still names the weapon each shot was fired with."""
    state = ranged(to_battle())
    soldier = model_named(state, "Soldat 2")
    target = model_named(state, "Offizier")
    state, events = run(state, "attack", [1], attacker=soldier.id, weapon=0, target=target.id)
    attacked = next(e for e in events if e.type == "attacked")
    state = state.with_model(soldier.id, dead=True, tp=0)
    state = ENGINE.apply(
        state,
        Event(
            "picked_up",
            {"model": 3, "unit": 0, "fallen": soldier.id, "weapon": 0, "weapon_name": "x"},
        ),
    )
    assert soldier.weapons[0].name in line_text(state, attacked)
    fault = Event(
        "weapon_fault", {"model": soldier.id, "weapon": 1, "weapon_name": "Bajonette", "until": 0}
    )
    assert "Bajonette" in line_text(state, fault)


# --- 4. the scenario winner ----------------------------------------------------------------


def test_a_scenario_is_won_on_mission_points_alone() -> None:
    """ "Es gewinnt der Spieler, der nach Ende des Szenarios die meisten Missionspunkte
    ergattert hat." """
    state = to_battle(start(seed=1))
    assert state.mode == "scenario"
    state, _ = run(state, "adjust", model=model_named(state, "Offizier").id, change="tp_lost")
    state, _ = run(state, "mission_points", player=1, points=5)
    assert state.players[0].total_vp > 5
    state, _ = run(state, "end_on_time")
    assert state.result is not None and state.result.winners == (1,)
    assert ENGINE.result(state)["vp"] == [0, 5]  # type: ignore[index]


# --- 5.-7. bursts --------------------------------------------------------------------------


def _burst(state: MatchState) -> tuple[Model, int]:
    shooter = model_named(state, "Soldat 1")
    return shooter, weapon_index(shooter, "maschinenpistolen")


def test_every_shot_of_a_burst_at_a_leader_counts_against_the_volley_table() -> None:
    """ "Mögliche Schüsse auf Anführer pro Salve": each shot at a leader counts; the burst's
    shots past the limit go at the unit's other models."""
    state = ranged(to_battle())
    shooter, index = _burst(state)
    leader = model_named(state, "Kultisten")
    limit = volley_limit(state, shooter.unit, leader.unit)
    column = column_for(
        shooter,
        shooter.weapons[index],
        leader,
        melee=False,
        cover=Cover.OPEN,
        prone=False,
        near=False,
    )[0]
    miss = face_for(column, Letter.C)
    _s, events = run(
        state,
        "attack",
        miss * 3,
        attacker=shooter.id,
        weapon=index,
        target=leader.id,
        mode="burst",
    )
    targets = [e.data["target"] for e in events if e.type == "attacked"]
    assert len(targets) == 3
    assert targets.count(leader.id) == limit < 3
    assert all(not state.models[t].leader for t in targets[limit:])
    assert types(events).count("leader_shot") == limit


def test_a_burst_stops_at_a_weapon_fault_b() -> None:
    """ "A-Ergebnisse ... führen dazu, daß weitere Schüsse in diesem Zug nicht erlaubt sind, da
    sich die Waffe verklemmt hat": a B jams the weapon as well (1 round repair)."""
    state = ranged(to_battle())
    shooter, index = _burst(state)
    target = model_named(state, "Trupp")
    column = column_for(
        shooter,
        shooter.weapons[index],
        target,
        melee=False,
        cover=Cover.OPEN,
        prone=False,
        near=False,
    )[0]
    jam = (
        face_for(column, Letter.B)
        if Letter.B in {crt_letter(column, r) for r in range(1, 10)}
        else None
    )
    if jam is None:
        column = column_for(
            shooter,
            shooter.weapons[index],
            target,
            melee=False,
            cover=Cover.FORTIFIED,
            prone=False,
            near=False,
        )[0]
        jam = face_for(column, Letter.B)
        cover = "fortified"
    else:
        cover = "open"
    _s, events = run(
        state,
        "attack",
        [*jam, 9, 9],
        attacker=shooter.id,
        weapon=index,
        target=target.id,
        mode="burst",
        cover=cover,
    )
    assert types(events).count("attacked") == 1
    assert "weapon_fault" in types(events)


def test_every_shot_of_a_burst_counts_the_declared_prone_target() -> None:
    """ "Liegende Ziele gelten im Offenen als in weicher Deckung": the whole burst, not its
    first shot only."""
    state = ranged(to_battle())
    shooter, index = _burst(state)
    target = model_named(state, "Trupp")
    column = column_for(
        shooter,
        shooter.weapons[index],
        target,
        melee=False,
        cover=Cover.SOFT,
        prone=False,
        near=False,
    )[0]
    miss = face_for(column, Letter.C)
    state, events = run(
        state,
        "attack",
        miss * 3,
        attacker=shooter.id,
        weapon=index,
        target=target.id,
        mode="burst",
        prone=True,
    )
    counted = [e.data["counted"] for e in events if e.type == "attacked"]
    assert counted == ["soft"] * 3
    assert state.models[target.id].prone


# --- 8. Vibro ------------------------------------------------------------------------------


def test_a_vibro_weapon_does_not_break_a_models_armour() -> None:
    """Vibro-Varianten "ja 1)": "1) nur zum Öffnen von Schotts, Luken, etc." """
    catalog, _ = shipped("stahlgewitter")
    entry = EntryInput("sek-soldat", ("schwerter", "vibro-variante"), "Vibro", 1, None)
    team = ENGINE.team_setup(RosterInput("sek", {}, [entry]), catalog)
    weapon = load(team["units"][0]["models"][0]["weapons"][0], Weapon)
    assert weapon.armour_breaker and weapon.bulkheads_only
    attacker = Model(id=0, unit=0, player=0, name="a", profile="p", ges=1, weapons=(weapon,))
    target = Model(id=1, unit=1, player=1, name="t", profile="p", pw=6, armour_pw=5)
    assert defender_pw(attacker, weapon, target, True)[1] == 6


# --- 9. army points ------------------------------------------------------------------------


def test_the_match_counts_a_models_army_points_as_the_roster_does() -> None:
    """A bought armour replaces the standard one: the match's army points and VP equal the
    roster's ("Armeepunkte repräsentieren die Kosten der Einheiten")."""
    catalog, _ = shipped("stahlgewitter")
    roster = RosterInput(
        "sek", {}, [EntryInput("sek-soldat", ("gewehre", "tipla-kampfpanzerung"), "T", 2, None)]
    )
    team = ENGINE.team_setup(roster, catalog)
    assert team["points"] == totals(roster, stahlgewitter_catalog(catalog)).points


# --- 10. odds shown ------------------------------------------------------------------------


def test_the_morale_button_says_which_modifier_its_chance_is_for() -> None:
    """The chance shown is the one of the test the form sends (its modifier)."""
    state = to_battle()
    view = ENGINE.tracker(state, selected=None, params={}, viewer=0)
    button = next(b for side in view.sides for u in side.units if (b := u.morale) is not None)
    assert any("modifier" in line.template for line in button.odds)


def test_the_attack_odds_say_what_the_form_assumes() -> None:
    """Prone targets and the distance move the column: the odds say which they assume."""
    state = ranged(to_battle())
    shooter = model_named(state, "Soldat 2")
    view = ENGINE.tracker(
        state, selected=None, params={"wizard": "attack", "model": str(shooter.id)}, viewer=0
    )
    assert view.wizard is not None
    button = view.wizard.targets[0].buttons[0]
    assert "5 cm" in button.odds[-1].template


# --- 11. rules with no command -------------------------------------------------------------


def test_a_panicking_unit_at_the_table_edge_leaves_the_game() -> None:
    """ "Erreicht eine in Panik geratene Einheit eine Tischkante, so wird sie aus dem Spiel
    entfernt." The enemy scores its army points."""
    state = to_battle()
    trupp = unit_named(state, "Trupp")
    with pytest.raises(RuleViolation) as refused:
        run(state, "remove_unit", player=1, unit=trupp.id, reason="table_edge")
    assert refused.value.code == "not_panicking"
    state = state.with_unit(trupp.id, panic=True)
    state, _ = run(state, "remove_unit", player=1, unit=trupp.id, reason="table_edge")
    assert state.units[trupp.id].out == "table_edge"
    assert state.players[0].total_vp == sum(state.models[m].points for m in trupp.models)


def test_fanatics_that_cannot_flee_do_not_surrender() -> None:
    """ "ergeben sie sich sofort und werden als Verluste entfernt"; but Fanatiker "dürfen sich
    niemals ergeben"."""
    state = to_battle()
    kult = unit_named(state, "Kultisten")
    state = state.with_unit(kult.id, panic=True)
    with pytest.raises(RuleViolation) as refused:
        run(state, "remove_unit", player=1, unit=kult.id, reason="cannot_flee")
    assert refused.value.code == "fanatics"
    kommando = unit_named(state, "Kommando")
    state, _ = run(
        state.with_unit(kommando.id, panic=True),
        "remove_unit",
        player=0,
        unit=kommando.id,
        reason="cannot_flee",
    )
    assert state.units[kommando.id].out == "cannot_flee"


@pytest.mark.parametrize(
    ("face", "result"),
    [(1, "panic"), (10, "surrender"), (5, "extra_attack"), (9, "extra_turn")],
)
def test_a_fallen_banner_calls_for_a_wik_test(face: int, result: str) -> None:
    """ "Fällt Fahne, dann WIK-Probe. Mißlungen = Panik, mißlungen mit 0 = ergibt sich,
    gelungen = sofortiger Zusatzangriff, gelungen mit 9 = sofortiger Zusatzzug." The Kommando
    tests on its leader's WIK (5 here)."""
    state = to_battle()
    kommando = unit_named(state, "Kommando")
    state = state.with_model(model_named(state, "Kommando").id, wik=5)
    with pytest.raises(RuleViolation) as refused:
        run(state, "banner_falls", [face], unit=unit_named(state, "Trupp").id)
    assert refused.value.code == "no_banner"
    with pytest.raises(RuleViolation) as refused:
        run(state, "banner_falls", [face], unit=kommando.id)
    assert refused.value.code == "banner_standing"
    state = state.with_model(model_named(state, "Soldat 1").id, dead=True, tp=0)
    state, events = run(state, "banner_falls", [face], unit=kommando.id)
    tested = next(e for e in events if e.type == "banner_tested")
    assert tested.data["result"] == result
    assert state.units[kommando.id].panic is (result in ("panic", "surrender"))
    assert (state.surrender == kommando.id) is (result == "surrender")
    assert "Kommando" in line_text(state, tested)
    if result != "surrender":
        with pytest.raises(RuleViolation) as refused:
            run(state, "banner_falls", [face], unit=kommando.id)
        assert refused.value.code == "no_banner"


# --- 12. cruel leaders and Fanatiker ---------------------------------------------------------


def _kultisten_rally(state: MatchState) -> MatchState:
    state, _ = run(activate(state, "Kommando"), "end_turn")
    state = state.with_unit(unit_named(state, "Kultisten").id, panic=True)
    return to_phase(activate(state, "Kultisten"), Phase.RALLY)


def test_after_a_mutiny_only_a_new_example_calms_the_unit() -> None:
    """ "Überlebt er diese Attacke, so kann er die Einheit nur durch ein erneutes Exempel in der
    folgenden Sammelphase beruhigen." """
    state = _kultisten_rally(to_battle())
    leader = model_named(state, "Offizier")
    victim = model_named(state, "Kultist 1")
    state, events = run(state, "execute", [10] + [1] * 20, leader=leader.id, victim=victim.id)
    assert state.models[leader.id].alive and "mutiny_survived" in types(events)
    kult = unit_named(state, "Kultisten").id
    assert state.units[kult].mutinied
    again = replace(state, rallied=False)
    with pytest.raises(RuleViolation) as refused:
        run(again, "rally", [1], leader_near=True)
    assert refused.value.code == "mutinied"
    calmed, _ = run(
        again, "execute", [1], leader=leader.id, victim=model_named(state, "Kultist 2").id
    )
    assert not calmed.units[kult].mutinied and not calmed.units[kult].panic


def test_an_army_with_fanatics_takes_no_prisoners() -> None:
    """Fanatiker "nehmen auch keine Gefangenen": Legion 666 (with Fanatiker) cannot accept the
    SEK's surrender, only massacre them."""
    state = to_battle()
    kommando = unit_named(state, "Kommando")
    for model in kommando.models[2:]:
        state = state.with_model(model, dead=True, tp=0)
    state, _ = run(to_phase(activate(state, "Kommando"), Phase.RALLY), "surrender", player=0)
    with pytest.raises(RuleViolation) as refused:
        run(state, "answer_surrender", player=1, accept=True)
    assert refused.value.code == "no_prisoners"
    state, _ = run(state, "answer_surrender", player=1, accept=False)
    assert state.units[kommando.id].out == "massacred"


# --- 13. the rally value -------------------------------------------------------------------


def test_the_rally_test_uses_the_highest_ranking_leader_nearby() -> None:
    """ "Sie wird auf den Moralwert des ranghöchsten Anführers durchgeführt": the Trupp (WIK 7,
    no leader) with the Offizier (WIK 9) within 10 cm rallies on a 9."""
    state = to_battle(first=1)
    trupp = unit_named(state, "Trupp")
    state = to_phase(activate(state.with_unit(trupp.id, panic=True), "Trupp"), Phase.RALLY)
    alone, events = run(state, "rally", [9], leader_near=True)
    assert events[0].data["value"] == 7 and alone.units[trupp.id].panic
    led, events = run(state, "rally", [9], leader=model_named(state, "Offizier").id)
    assert events[0].data["value"] == 9 and not led.units[trupp.id].panic


# --- 14. the minor ones --------------------------------------------------------------------


def test_a_prone_model_in_soft_cover_ignores_retreats() -> None:
    """ "Liegende Ziele gelten ... in weicher Deckung als in harter Deckung"; "Modelle hinter
    harter Deckung ignorieren Rückzugsergebnisse". The Trupp under Morphin turns a stun (F)
    into a retreat."""
    state = ranged(to_battle())
    shooter = model_named(state, "Soldat 2")
    target = model_named(state, "Trupp")
    state = state.with_model(target.id, prone=True)
    column = column_for(
        shooter, shooter.weapons[0], target, melee=False, cover=Cover.SOFT, prone=True, near=False
    )[0]
    _s, events = run(
        state,
        "attack",
        face_for(column, Letter.F),
        attacker=shooter.id,
        weapon=0,
        target=target.id,
        cover="soft",
        prone=True,
    )
    assert "retreat_ignored" in types(events) and "retreats" not in types(events)


def test_a_medic_does_not_heal_itself() -> None:
    """ "Sanitäter, die sich in direktem Kontakt zu einem betäubten oder verletzten Modell
    befinden": another model."""
    state = to_battle()
    medic = model_named(state, "Soldat (V)")
    state = state.with_model(medic.id, tp=1, tp_start=2)
    state = to_phase(activate(state, "Feuertrupp"), Phase.RALLY)
    with pytest.raises(RuleViolation) as refused:
        run(state, "heal", medic=medic.id, patient=medic.id)
    assert refused.value.code == "heals_itself"


def test_the_second_activation_in_a_row_may_be_passed() -> None:
    """ "so darf er jedesmal, wenn er an der Reihe ist, zwei Einheiten nacheinander
    aktivieren" (may, not must)."""
    state = to_battle(first=1)
    state = replace(state, counts=(0, 3))
    state = state.with_unit(unit_named(state, "Kommando").id, out="wiped")
    state = replace(state, counts=(1, 3))
    with pytest.raises(RuleViolation) as refused:
        run(state, "pass_pick")
    assert refused.value.code == "no_second_pick"
    state, _ = run(activate(state, "Offizier"), "end_turn")
    assert state.turn_player == 1 and state.picks == 2
    state, _ = run(state, "pass_pick")
    assert state.turn_player == 0


def test_the_decoys_are_optional() -> None:
    """ "Außerdem darf jeder Spieler drei Marken mehr plazieren, als er Einheiten hat." """
    state = hide_all(to_markers(start()))
    with pytest.raises(RuleViolation) as refused:
        run(state, "skip_decoys", player=state.placer)
    assert refused.value.code == "units_first"
    while state.stage is Stage.MARKERS:
        placer = state.placer
        assert placer is not None
        mine = state.player_markers(placer)
        units = [m for m in mine if m.unit is not None and not m.placed]
        if units:
            state, _ = run(state, "place_marker", player=placer, marker=units[0].number)
        else:
            state, _ = run(state, "skip_decoys", player=placer)
    assert all(m.removed for m in state.markers if m.unit is None)
    assert place_all is not None


def test_a_spreading_fire_names_its_new_marker_in_the_event() -> None:
    """The applier checks no rule: the round's event says which fire markers spread laid."""
    state = to_battle()
    state, _ = run(state, "add_fire")
    state = replace(state, round=1)
    spread = next(face for face in range(1, 11) if _fire_result(face) == "spreads")
    from apps.systems.stahlgewitter.match.context import Ctx
    from apps.systems.stahlgewitter.match.rounds import start_round

    class One(random.Random):
        def randint(self, a: int, b: int) -> int:
            return spread

    ctx = Ctx(state, One())
    start_round(ctx, 2)
    started = next(e for e in ctx.events if e.type == "round_started")
    assert started.data["spread"] == [1]
    assert len(ctx.state.fires) == 2


def _fire_result(face: int) -> str:
    from apps.systems.stahlgewitter.morale import fire_marker

    class One(random.Random):
        def randint(self, a: int, b: int) -> int:
            return face

    return fire_marker(One()).result
