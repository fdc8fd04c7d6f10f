"""Stahlgewitter's further rules: surrender and massacre, cruel leaders' examples, burning and
putting out flames, medics and picking up weapons (stahlgewitter.de.txt "Moral", "Grausame
Anführer", "Flammenschäden", "Sanitäter", "Waffen aufnehmen")."""

from __future__ import annotations

import pytest

from apps.systems.core.errors import RuleViolation
from apps.systems.stahlgewitter.match.state import MatchState, Phase
from tests.systems.stahlgewitter.test_match_support import (
    activate,
    model_named,
    run,
    to_battle,
    to_phase,
    types,
    unit_named,
)


def halved(state: MatchState, name: str) -> MatchState:
    """``name`` at half its strength: its last models are out."""
    unit = unit_named(state, name)
    for model in unit.models[len(unit.models) // 2 :]:
        state = state.with_model(model, dead=True, tp=0)
    return state


def without_fanatics(state: MatchState) -> MatchState:
    """Player 1's Fanatiker out (they "nehmen auch keine Gefangenen")."""
    for model in state.models:
        if "fanatiker" in model.skills:
            state = state.with_model(model.id, dead=True, tp=0)
    return state


def legion_turn(state: MatchState) -> MatchState:
    state = activate(state, "Kommando")
    state, _ = run(state, "end_turn")
    return state


def kommando_rally(state: MatchState) -> MatchState:
    return to_phase(activate(state, "Kommando"), Phase.RALLY)


def test_a_unit_at_half_strength_may_surrender_and_an_accepted_surrender_gives_half_vp() -> None:
    """ "Eine Einheit, die auf 50% ihrer Sollstärke reduziert ist ... darf sich zu Beginn ihrer
    Sammelphase ergeben. Nimmt der Gegner die Kapitulation an, so wird die Einheit vom
    Spielfeld entfernt, gibt für den Gegner ... nur halbe Siegpunkte." """
    state = kommando_rally(without_fanatics(halved(to_battle(), "Kommando")))
    state, _ = run(state, "surrender", player=0)
    assert state.surrender == unit_named(state, "Kommando").id
    with pytest.raises(RuleViolation) as refused:
        run(state, "next_phase")
    assert refused.value.code == "answer_surrender"
    living = [m for m in state.unit_models(state.surrender or 0) if m.alive]
    state, events = run(state, "answer_surrender", player=1, accept=True)
    assert state.units[unit_named(state, "Kommando").id].out == "surrendered"
    assert state.players[1].total_vp == sum(m.points for m in living) // 2
    assert "turn_ended" in types(events)


def test_a_massacre_gives_the_massacred_side_plus_2_morale() -> None:
    """ "Der Gegner kann jedoch auch entscheiden, die sich ergebenden niederzumachen. In diesem
    Fall erhalten alle verbleibenden Einheiten der Massakrierten für den Rest des Spiels +2 auf
    ihre Moral" """
    state = kommando_rally(halved(to_battle(), "Kommando"))
    state, _ = run(state, "surrender", player=0)
    state, _ = run(state, "answer_surrender", player=1, accept=False)
    assert state.units[unit_named(state, "Kommando").id].out == "massacred"
    assert {u.morale_bonus for u in state.in_play(0)} == {2}
    _s, events = run(state, "morale_test", [1], unit=unit_named(state, "Feuertrupp").id)
    assert events[0].data["modifier"] == 2


def test_a_unit_above_half_strength_does_not_surrender() -> None:
    state = kommando_rally(to_battle())
    with pytest.raises(RuleViolation) as refused:
        run(state, "surrender", player=0)
    assert refused.value.code == "too_strong"


def test_fanatics_never_surrender() -> None:
    """ "Einheiten, die in der Armeeliste als "Fanatiker" gekennzeichnet sind, dürfen sich
    niemals ergeben." (the Kultisten's Kultist models are Fanatiker)"""
    state = halved(legion_turn(to_battle()), "Kultisten")
    state = state.with_model(model_named(state, "Kultist 1").id, dead=True, tp=0)
    state = state.with_model(model_named(state, "Kultist 3").id, dead=False, tp=1)
    state = to_phase(activate(state, "Kultisten"), Phase.RALLY)
    with pytest.raises(RuleViolation) as refused:
        run(state, "surrender", player=1)
    assert refused.value.code == "fanatics"


def panicking_kultisten() -> MatchState:
    state = legion_turn(to_battle())
    state = state.with_unit(unit_named(state, "Kultisten").id, panic=True)
    return to_phase(activate(state, "Kultisten"), Phase.RALLY)


def test_a_cruel_leaders_example_rallies_the_unit_on_1_to_9() -> None:
    """ "Der Anführer exekutiert vor der Sammelprobe ein beliebiges Modell der Einheit ... Bei
    einem Ergebnis von 1 bis 9 ist die Einheit gesammelt" """
    state = panicking_kultisten()
    leader, victim = model_named(state, "Kultisten").id, model_named(state, "Kultist 3").id
    state, events = run(state, "execute", [9], leader=leader, victim=victim)
    assert state.models[victim].dead and not state.units[state.active or 0].panic
    rolled = next(e.data for e in events if e.type == "example_rolled")
    assert rolled["weights"] == {"rallied": 9, "mutiny": 1}


def test_a_10_makes_the_unit_mutiny_against_the_cruel_leader() -> None:
    """ "Zeigt der Würfel eine 10, so meutern die Angehörigen gegen den grausamen Anführer und
    führen sofort und außer der Reihe einen Fernkampfangriff auf ihn durch." """
    state = panicking_kultisten()
    leader, victim = model_named(state, "Kultisten").id, model_named(state, "Kultist 3").id
    state, events = run(state, "execute", [10, 1, 1], leader=leader, victim=victim)
    fired = [e.data for e in events if e.type == "attacked"]
    assert {f["source"] for f in fired} == {"mutiny"} and {f["target"] for f in fired} == {leader}
    assert len(fired) == 2  # the two Kultisten left, with their Messer
    assert state.units[state.active or 0].panic
    with pytest.raises(RuleViolation) as refused:
        run(state, "rally", [1])
    assert refused.value.code == "rallied_already"


def test_only_a_cruel_leader_sets_an_example() -> None:
    state = panicking_kultisten()
    with pytest.raises(RuleViolation) as refused:
        run(state, "execute", leader=model_named(state, "Kultist 1").id, victim=8)
    assert refused.value.code == "not_cruel"


def test_a_flamethrower_hit_burns_1w4_rounds() -> None:
    """Flammenwerfer: "5 cm Schablone, Ziel brennt 1W4 Runden" (GES 1 + 6 against PW 4: column
    3, a 5 reads E)."""
    state = legion_turn(to_battle())
    state = to_phase(activate(state, "Trupp"), Phase.RANGED)
    target = model_named(state, "Soldat 2").id
    state, events = run(
        state, "attack", [5, 3], attacker=model_named(state, "Soldat").id, weapon=0, target=target
    )
    assert next(e.data for e in events if e.type == "ignited")["rounds"] == 3
    assert state.models[target].burning == 3


def test_a_burning_model_loses_1_tp_at_the_end_of_each_round() -> None:
    """Decision: the rulebook prints no burning damage; 1 TP at the end of every round."""
    state = to_battle()
    target = model_named(state, "Soldat (V)").id
    state = state.with_model(target, burning=2)
    for name in ("Kommando", "Offizier", "Feuertrupp", "Kultisten", "Trupp"):
        state, _ = run(activate(state, name), "end_turn")
    assert state.round == 2
    assert state.models[target].tp == 1 and state.models[target].burning == 1


def test_putting_out_the_flames_needs_6_with_helpers_adding_up_to_3() -> None:
    """ "Hierzu muß mit 1W10 ein Ergebnis von mindestens 6 erzielt werden. Für jeden Kameraden
    ... wird +1 auf den Wurf addiert (maximal +3)." """
    state = to_battle()
    target = model_named(state, "Soldat 2").id
    state = to_phase(activate(state.with_model(target, burning=3), "Kommando"), Phase.MELEE)
    out, events = run(state, "extinguish", [2], model=target, helpers=5)
    assert events[0].data["bonus"] == 3 and not events[0].data["extinguished"]
    out, events = run(state, "extinguish", [3], model=target, helpers=3)
    assert events[0].data["extinguished"] and out.models[target].burning == 0
    assert events[0].data["p_out"] == "8/10"


def test_a_model_that_moved_does_not_put_out_flames() -> None:
    """ "Ein brennendes Modell, das sich in der Bewegungsphase nicht bewegt ... hat" """
    state = to_battle()
    target = model_named(state, "Soldat 2").id
    state = activate(state.with_model(target, burning=3), "Kommando")
    state, _ = run(state, "move", band="short")
    with pytest.raises(RuleViolation) as refused:
        run(to_phase(state, Phase.MELEE), "extinguish", [9], model=target)
    assert refused.value.code == "model_busy_fire"


def test_a_medic_wakes_a_stunned_model_or_heals_1_tp() -> None:
    """ "Betäubte Modelle stehen sofort auf (Morphinregel!), verletzte Modelle erhalten einen TP
    zurück." The Feuertrupp's Soldat (V) is a Sanitäter."""
    state = to_battle()
    medic = model_named(state, "Soldat (V)").id
    stunned, hurt = model_named(state, "Feuertrupp").id, model_named(state, "Soldat 2").id
    state = state.with_model(stunned, stunned=True).with_model(hurt, tp=1, tp_start=2)
    state, _ = run(activate(state, "Kommando"), "end_turn")
    state, _ = run(activate(state, "Offizier"), "end_turn")
    state = to_phase(activate(state, "Feuertrupp"), Phase.RALLY)
    woke, _ = run(state, "heal", medic=medic, patient=stunned)
    assert not woke.models[stunned].stunned
    with pytest.raises(RuleViolation) as refused:
        run(woke, "heal", medic=medic, patient=hurt)
    assert refused.value.code == "medic_fought"
    healed, _ = run(state, "heal", medic=medic, patient=hurt)
    assert healed.models[hurt].tp == 2


def test_a_fallen_models_weapon_is_picked_up_but_not_a_special_weapon() -> None:
    """ "kann einen beliebigen Ausrüstungsgegenstand von dem Gefallenen aufnehmen ...
    Ausgenommen hiervon sind Spezialwaffen" (decision: launchers and template weapons)."""
    state = legion_turn(to_battle())
    flamer = model_named(state, "Soldat")
    state = state.with_model(flamer.id, dead=True, tp=0)
    state = activate(state, "Trupp")
    picker = model_named(state, "Trupp").id
    with pytest.raises(RuleViolation) as refused:
        run(state, "pick_up", model=picker, fallen=flamer.id, weapon=0)
    assert refused.value.code == "special_weapon"
    state, _ = run(state, "pick_up", model=picker, fallen=flamer.id, weapon=1)
    assert state.models[picker].weapons[-1].name == "Kontaktstunner"
    assert state.models[picker].acted == "pick_up"
    assert [w.name for w in state.models[flamer.id].weapons] == ["Flammenwerfer"]
