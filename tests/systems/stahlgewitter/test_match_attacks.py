"""Stahlgewitter attacks on the combat results table: attack value against PW, cover, the
open-ended row, the result letters and what they do, bursts, single shots, shots at leaders,
defensive fire on a charge, weapon specials (stahlgewitter.de.txt "Fernkampf", "Deckung",
"Liegende Ziele", "Schnellfeuerwaffen", "Nahkampf", "Kampf-Ergebnistabelle", "Erläuterungen")."""

from __future__ import annotations

import pytest

from apps.systems.core.errors import RuleViolation
from apps.systems.stahlgewitter.match.attacks import defender_pw
from apps.systems.stahlgewitter.match.state import MatchState, Model, Phase, Weapon
from tests.systems.stahlgewitter.test_match_support import (
    activate,
    model_named,
    run,
    to_battle,
    to_phase,
    types,
    unit_named,
)


def sek_ranged() -> MatchState:
    """The SEK Kommando (Offizier: Sturmgewehre; Soldat 1: MPi; Soldat 2, 3: Gewehre) in its
    ranged phase; the Legion's Kultisten (PW 0) and Offizier (PW 6) revealed."""
    return to_phase(activate(to_battle(), "Kommando"), Phase.RANGED)


def attack(
    state: MatchState, attacker: str, target: str, faces: list[int], weapon: int = 0, **form: object
) -> tuple[MatchState, list]:  # type: ignore[type-arg]
    return run(
        state,
        "attack",
        faces,
        attacker=model_named(state, attacker).id,
        weapon=weapon,
        target=model_named(state, target).id,
        **form,
    )


def shots(events: list) -> list:  # type: ignore[type-arg]
    return [e.data for e in events if e.type == "attacked"]


def test_the_column_is_the_attack_value_minus_the_defenders_pw() -> None:
    """ "Zunächst addiert der Schütze seine GES zum FKW der Waffe ... Das Ergebnis ist die
    Spalte" (SPEC decision: the difference). Soldat 2: GES 1 + Gewehre 5 = 6 against a Kultist's
    PW 0: column 6; a 6 reads G: "Verteidiger getötet / 1"."""
    state, events = attack(sek_ranged(), "Soldat 2", "Kultist 1", [6])
    shot = shots(events)[0]
    assert (shot["value"], shot["pw"], shot["column"], shot["letter"]) == (6, 0, 6, "G")
    assert state.models[model_named(state, "Kultist 1").id].dead
    assert "vp_scored" in types(events)


@pytest.mark.parametrize(("cover", "column"), [("soft", 5), ("hard", 4), ("fortified", 3)])
def test_cover_moves_the_column_left(cover: str, column: int) -> None:
    """ "weiche Deckung ... eine Spalte nach links", "harte Deckung ... zwei Spalten",
    "befestigte Stellungen ... drei Spalten" """
    _state, events = attack(sek_ranged(), "Soldat 2", "Kultist 1", [1], cover=cover)
    assert shots(events)[0]["column"] == column


def test_a_prone_target_counts_one_step_of_cover_more_but_not_within_5_cm() -> None:
    """ "Liegende Ziele gelten im Offenen als in weicher Deckung ... Ausnahme: Der Gegner, der
    auf sie schießt, ist nicht weiter als 5 cm entfernt" """
    _s, events = attack(sek_ranged(), "Soldat 2", "Kultist 1", [1], prone=True)
    assert (shots(events)[0]["counted"], shots(events)[0]["column"]) == ("soft", 5)
    _s, events = attack(sek_ranged(), "Soldat 2", "Kultist 1", [1], prone=True, distance="near")
    assert (shots(events)[0]["counted"], shots(events)[0]["column"]) == ("open", 6)


def test_a_rolled_10_adds_a_second_die_for_the_rows_10_plus() -> None:
    """ "Wird eine 10 gewürfelt, so darf ein weiterer W10 gewürfelt und addiert werden." Design:
    10 then 3 is row 10+3, which at column 6 reads J: "Verteidiger ausgelöscht"."""
    state, events = attack(sek_ranged(), "Soldat 2", "Kultist 1", [10, 3])
    shot = shots(events)[0]
    assert (shot["dice"], shot["row"], shot["letter"]) == ([10, 3], 13, "J")
    assert state.models[model_named(state, "Kultist 1").id].dead


def test_the_exact_letter_chances_are_written_before_the_roll() -> None:
    _s, events = attack(sek_ranged(), "Soldat 2", "Kultist 1", [6])
    shot = shots(events)[0]
    assert shot["denominator"] == 100 and sum(shot["weights"].values()) == 100
    assert shot["weights"]["G"] == 20  # rows 5 and 6 at column 6: "-EEFFGGHH..."
    assert shot["p_hit"] == "90/100"


def test_the_ranged_e_puts_the_defender_down() -> None:
    """ "E = Verteidiger sucht Schutz" (design: the defender goes prone)."""
    state, _ = attack(sek_ranged(), "Soldat 2", "Kultist 1", [2])
    assert state.models[model_named(state, "Kultist 1").id].prone


def test_a_stunned_model_stunned_again_loses_1_tp() -> None:
    """ "Betäubte Modelle erleiden 1 TP Schaden, wenn sie nochmals betäubt werden." """
    state = sek_ranged()
    kultist = model_named(state, "Kultist 1").id
    state, events = attack(state, "Soldat 2", "Kultist 1", [4])  # F: stunned
    assert state.models[kultist].stunned and "stunned" in types(events)
    state, events = attack(state, "Soldat 3", "Kultist 1", [4])
    damaged = next(e.data for e in events if e.type == "damaged")
    assert damaged["cause"] == "stunned_twice" and state.models[kultist].dead


def test_morphine_turns_a_stun_into_a_retreat() -> None:
    """ "Modelle unter dem Einfluß von Morphin ... können keinen Schock erleiden. Sie behandeln
    entsprechende Ergebnisse ... wie ein Rückzugsergebnis." Gewehre 6 against the Trupp's PW 6:
    column 0, 10+1 reads F."""
    state, events = attack(sek_ranged(), "Soldat 2", "Trupp", [10, 1])
    assert shots(events)[0]["letter"] == "F"
    assert "retreats" in types(events) and "stunned" not in types(events)
    assert not state.models[model_named(state, "Trupp").id].stunned


def sek_melee() -> MatchState:
    return to_phase(activate(to_battle(), "Kommando"), Phase.MELEE)


def test_a_melee_e_makes_the_defender_retreat() -> None:
    """ "E = Verteidiger zieht sich 5 cm zurück": Bajonette (NKW 4) + GES 1 against PW 0:
    column 5, a 3 reads E."""
    _s, events = attack(sek_melee(), "Soldat 2", "Kultist 1", [3], weapon=1)
    assert shots(events)[0]["melee"] and shots(events)[0]["letter"] == "E"
    assert next(e.data for e in events if e.type == "retreats")["cm"] == 5


def test_a_model_that_cannot_retreat_loses_1_tp() -> None:
    """ "Modelle, die sich nicht vom Feind weg zurückziehen können, erleiden 1 TP Schaden." """
    state, events = attack(sek_melee(), "Soldat 2", "Kultist 1", [3], weapon=1, cannot_retreat=True)
    assert next(e.data for e in events if e.type == "damaged")["cause"] == "no_retreat"
    assert state.models[model_named(state, "Kultist 1").id].dead


def test_models_behind_hard_cover_ignore_retreat_results() -> None:
    """ "Modelle hinter harter Deckung ignorieren Rückzugsergebnisse" """
    _s, events = attack(sek_melee(), "Soldat 2", "Kultist 1", [3], weapon=1, cover="hard")
    assert next(e.data for e in events if e.type == "retreat_ignored")["reason"] == "cover"
    assert shots(events)[0]["column"] == 5  # melee: cover does not move the column


def test_khirf_models_never_retreat() -> None:
    """ "Außerdem ziehen sie sich niemals zurück und ignorieren entsprechende Ergebnisse" """
    _s, events = attack(sek_melee(), "Soldat 2", "Soldat", [9], weapon=1)
    assert shots(events)[0]["letter"] == "E"
    assert next(e.data for e in events if e.type == "retreat_ignored")["reason"] == "khirf"


def test_a_melee_d_makes_the_attacker_retreat() -> None:
    """ "D = Angreifer zieht sich 5 cm zurück" (a 1 at column 5)."""
    state = sek_melee()
    soldier = model_named(state, "Soldat 2").id
    _s, events = attack(state, "Soldat 2", "Kultist 1", [1], weapon=1)
    assert next(e.data for e in events if e.type == "retreats")["model"] == soldier


def test_a_model_that_shot_does_not_fight_in_melee() -> None:
    """ "In der Nahkampfphase dürfen alle Modelle, die ... in der Fernkampfphase nicht
    angegriffen haben" """
    state, _ = attack(sek_ranged(), "Soldat 2", "Kultist 1", [1])
    state = to_phase(state, Phase.MELEE)
    with pytest.raises(RuleViolation) as refused:
        attack(state, "Soldat 2", "Kultist 2", [1], weapon=1)
    assert refused.value.code == "already_attacked"


def test_a_burst_rolls_its_attacks_in_a_row_at_one_unit() -> None:
    """ "Beträgt die Feuerrate z.B. 3, so würfelt man drei Angriffe hintereinander ... dürfen
    unter keinen Umständen auf unterschiedliche Zieleinheiten verteilt werden." The first shot
    kills Kultist 1, the second goes at the next Kultist of the same unit."""
    state, events = attack(sek_ranged(), "Kommando", "Kultist 1", [6, 1], mode="burst")
    fired = shots(events)
    assert [s["shot"] for s in fired] == [1, 2] and fired[0]["shots"] == 2
    assert fired[1]["target"] == model_named(state, "Kultist 2").id
    assert {s["target_unit"] for s in fired} == {unit_named(state, "Kultisten").id}


def test_a_burst_reaches_half_the_range() -> None:
    """ "In diesem Modus kann man maximal Ziele angreifen, die sich innerhalb der halben
    Feuerstoß-Reichweite befinden" """
    with pytest.raises(RuleViolation) as refused:
        attack(sek_ranged(), "Kommando", "Kultist 1", [6], mode="burst", distance="full")
    assert refused.value.code == "burst_range"


def test_an_a_result_jams_the_weapon_and_ends_the_burst() -> None:
    """ "A-Ergebnisse ... führen dazu, daß weitere Schüsse in diesem Zug nicht erlaubt sind, da
    sich die Waffe verklemmt hat." MPi 4 + 1 against the Offizier's PW 6: column −1, a 1 is A."""
    state, events = attack(sek_ranged(), "Soldat 1", "Offizier", [1, 9, 9], mode="burst")
    assert len(shots(events)) == 1 and shots(events)[0]["letter"] == "A"
    soldier = state.models[model_named(state, "Soldat 1").id]
    assert soldier.weapons[0].fault and soldier.weapons[0].fault_until == 0
    assert soldier.stunned  # "A = Waffenfehler, Angreifer betäubt"


def test_a_b_fault_is_repaired_at_the_end_of_the_next_round() -> None:
    """ "B = Waffenfehler, 1 Runde Reparatur": Sturmgewehre 6 against PW 6, a 1 reads B."""
    state, _ = attack(sek_ranged(), "Kommando", "Offizier", [1], mode="single")
    officer = model_named(state, "Kommando").id
    assert state.models[officer].weapons[0].fault_until == 2
    with pytest.raises(RuleViolation) as refused:
        run(state, "repair", model=officer, weapon=0)
    assert refused.value.code == "wrong_phase"


def test_a_single_shot_only_after_moving_at_most_3_cm() -> None:
    """ "Hat sich ein Modell mit einer Schnellfeuerwaffe im laufenden Zug maximal 3 cm bewegt,
    so kann es die Waffe auch im Einzelschuß-Modus verwenden." """
    state = activate(to_battle(), "Kommando")
    far, _ = run(state, "move", band="far")
    far = to_phase(far, Phase.RANGED)
    with pytest.raises(RuleViolation) as refused:
        attack(far, "Soldat 1", "Kultist 1", [5], mode="single")
    assert refused.value.code == "moved_too_far"
    short, _ = run(state, "move", band="short")
    attack(to_phase(short, Phase.RANGED), "Soldat 1", "Kultist 1", [5], mode="single")


def test_a_weapon_that_cannot_move_and_fight_does_not_fire_after_moving() -> None:
    """Maschinengewehre: "Bew./kämpfen: nein"; "kein Reichweitenabzug für Feuerstöße"."""
    state = to_battle()
    state = finish(activate(state, "Kommando"))
    state = finish(activate(state, "Offizier"))
    state = activate(state, "Feuertrupp")
    moved, _ = run(state, "move", band="short")
    with pytest.raises(RuleViolation) as refused:
        attack(to_phase(moved, Phase.RANGED), "Feuertrupp", "Kultist 1", [5], distance="full")
    assert refused.value.code == "moved_heavy"
    ranged = to_phase(state, Phase.RANGED)
    _s, events = attack(ranged, "Feuertrupp", "Kultist 1", [1, 1, 1, 1], distance="full")
    assert len(shots(events)) == 4  # misses: all four at the same Kultist


def finish(state: MatchState) -> MatchState:
    state, _ = run(state, "end_turn")
    return state


def test_shots_at_leaders_are_limited_per_volley() -> None:
    """ "Mögliche Schüsse auf Anführer pro Salve": 4 attackers against a unit of 4 defenders
    may fire 1 shot at its leader."""
    state, _ = attack(sek_ranged(), "Soldat 2", "Kultisten", [1])
    with pytest.raises(RuleViolation) as refused:
        attack(state, "Soldat 3", "Kultisten", [1])
    assert refused.value.code == "leader_shots" and refused.value.params == {"shots": 1}
    attack(state, "Soldat 3", "Kultist 2", [1])


def test_a_charge_through_the_defenders_view_draws_defensive_fire_first() -> None:
    """ "Bewegt sich eine Einheit zur Einleitung eines Nahkampfangriffs mehr als 5 cm durch
    dessen Sichtbereich auf den Gegner zu, so können alle Angehörigen der angegriffenen Einheit
    sofort ... einen Schuß auf die Angreifer abgeben, sofern sie über eine Waffe mit einem FKW
    verfügen und diese nicht in die Kategorie „Werfer“ fällt." """
    state = finish(activate(to_battle(), "Feuertrupp"))
    state = activate(state, "Kultisten")
    state, events = run(
        state, "charge", [1] * 8, target=unit_named(state, "Kommando").id, through_view=True
    )
    fired = shots(events)
    assert {s["source"] for s in fired} == {"defensive"} and len(fired) == 4
    assert {state.models[s["attacker"]].unit for s in fired} == {unit_named(state, "Kommando").id}
    _s, quiet = run(
        activate(finish(activate(to_battle(), "Feuertrupp")), "Kultisten"),
        "charge",
        target=unit_named(state, "Kommando").id,
        through_view=False,
    )
    assert not shots(quiet)


def test_a_hidden_unit_is_revealed_when_it_fires_and_cannot_be_targeted() -> None:
    """ "die Einheit, die durch die Spielmarke repräsentiert wird, will Feuern oder einen
    Nahkampf einleiten" """
    state = to_battle(reveal=False)
    kultisten = unit_named(state, "Kultisten")
    marker = state.marker_of(kultisten.id)
    assert marker is not None
    state, _ = run(state, "reveal_marker", player=1, marker=marker.number, reason="seen")
    state = to_phase(activate(state, "Kommando"), Phase.RANGED)
    state, events = attack(state, "Soldat 2", "Kultist 1", [1])
    assert events[0].type == "marker_revealed" and events[0].data["reason"] == "fired"
    assert state.units[unit_named(state, "Kommando").id].revealed
    with pytest.raises(RuleViolation) as refused:
        attack(state, "Soldat 3", "Offizier", [1])
    assert refused.value.code == "target_hidden"


def test_the_kontaktstunner_stuns_on_every_result_from_e() -> None:
    """Kontaktstunner: "alle Ergebnisse ab E = Verteidiger betäubt" (a 10+2 reads G)."""
    state = finish(activate(to_battle(), "Kommando"))
    state = to_phase(activate(state, "Trupp"), Phase.MELEE)
    state, events = attack(state, "Soldat", "Soldat 2", [10, 2], weapon=1)
    assert shots(events)[0]["letter"] == "G"
    assert "damaged" not in types(events)
    assert state.models[model_named(state, "Soldat 2").id].stunned


def test_a_schallgewehr_hit_forces_a_morale_test() -> None:
    """Schallgewehre: "sofortige Moralprobe" (GES 1 + FKW 2 against PW 4: column −1, a 9 is E)."""
    state = finish(activate(to_battle(), "Kommando"))
    state = to_phase(activate(state, "Trupp"), Phase.RANGED)
    _s, events = attack(state, "Trupp", "Soldat 2", [9, 5], weapon=1)
    test = next(e.data for e in events if e.type == "morale_tested")
    assert test["cause"] == "sonic" and test["unit"] == unit_named(state, "Kommando").id


def _model(pw: int, armour: int) -> Model:
    return Model(id=0, unit=0, player=0, name="x", profile="x", pw=pw, armour_pw=armour, ges=1)


@pytest.mark.parametrize(
    ("weapon", "expected"),
    [
        (Weapon("w", "Gewehr", "rifle", fkw=5), (6, 6)),
        (Weapon("p", "Plasma", "pistol", fkw=5, ignores_armour=True), (6, 1)),
        (Weapon("m", "Mikrowelle", "pistol", fkw=1, pw_always_1=True), (8, 1)),
        (Weapon("b", "Breaker", "launcher", fkw=7, armour_breaker=True), (8, 3)),
    ],
)
def test_weapon_specials_change_the_defenders_pw(weapon: Weapon, expected: tuple[int, int]) -> None:
    """ "ignoriert Rüstung"; "+ PW auf FKW und PW immer 1"; Panzerknacker (decision: the armour
    part of the PW counts half). Defender PW 6 of which armour 5."""
    attacker, target = _model(0, 0), _model(6, 5)
    assert defender_pw(attacker, weapon, target, False) == expected
