"""The Universalis rulings of SPEC §6 (issue 14), each proved with the rulebook line it rests on
(universalis.de.txt), and the further contradictions between the app and the rulebook found
around them. Round 1 unless said: Anna's leader (0) acts, her soldier is 1; Ben's leader (2)
follows, his soldier is 3 (``helpers.soldier``: NK 4, FK 6, KO 4, EH 6, 8 HP, armour 5, a
rifle and a knife)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from apps.systems.core.match import Event, replay
from apps.systems.universalis.catalog import Armour, Camouflage, Effect, Movement
from apps.systems.universalis.match.state import Phase
from tests.systems.universalis.helpers import (
    ENGINE,
    MAGE_DISCIPLINE,
    Game,
    ben_waits_ready,
    finish_round,
    model,
    of_type,
    one,
    power,
    setup,
    soldier,
    there,
    tracker,
)

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "universalis"


def acting(anna: Any = None, ben: Any = None, *, powers: tuple[Any, ...] = ()) -> Game:
    teams = [
        [
            model(anna or soldier("Anna Chefin", group_leader=True), powers=powers),
            model(soldier("Anna Soldat")),
        ],
        [model(ben or soldier("Ben Chef", group_leader=True)), model(soldier("Ben Soldat"))],
    ]
    return Game(setup(teams)).to_round_one().phase_of(0, 2)


def after_a_melee() -> Game:
    """Anna's leader attacked Ben's leader with its knife and lost: both are in melee."""
    g = acting()
    g.dice(1, 12).do("melee", unit=0, target=2, weapon=1)
    return g


def in_contact(g: Game, unit: int = 0, other: int = 2) -> Game:
    g.do("contact", unit=unit, other=other, touching=True)
    return g


# --- 1. In melee (l. 1362) -----------------------------------------------------------------------


def test_in_melee_a_model_may_not_move_away() -> None:
    """l. 1362: "Während des Nahkampfes sind für beide Modelle nur die folgenden Aktionen und
    Reaktionen erlaubt: Angriff, Verwegener Angriff, Aus Nahkampf lösen, Kraft einsetzen"."""
    g = after_a_melee()
    g.refused("move", "in_melee", unit=0, cm=1)
    g.refused("melee", "in_melee", unit=0, target=3, weapon=1, charge=True)
    assert (g.unit(0).engaged, g.unit(2).engaged) == ((2,), (0,))


def test_in_melee_a_model_may_not_shoot_another_enemy() -> None:
    """l. 1362: only Angriff, Verwegener Angriff, Aus Nahkampf lösen and Kraft einsetzen."""
    g = after_a_melee()
    g.refused("shoot", "in_melee", unit=0, targets=[{"unit": 3, "distance": 10}])
    g.refused("fire_readiness", "in_melee", unit=0, weapon=0)


def test_in_melee_a_model_may_not_go_prone_or_take_any_other_action() -> None:
    """l. 1362: everything else is refused while the model is in melee."""
    g = after_a_melee()
    for command, args in (
        ("prone", {}),
        ("turn", {}),
        ("defence", {}),
        ("use_object", {}),
    ):
        g.refused(command, "in_melee", unit=0, **args)


def test_in_melee_a_model_attacks_attacks_recklessly_disengages_or_uses_a_power() -> None:
    """l. 1364-1368: Angriff, Verwegener Angriff, Aus Nahkampf lösen, Kraft einsetzen."""
    mage = soldier("Anna", group_leader=True, disciplines=MAGE_DISCIPLINE)
    g = acting(mage, powers=(power(ap=1),))
    g.do("correct", unit=0, ap=12)
    g.dice(1, 12).do("melee", unit=0, target=2, weapon=1)
    g.dice(1, 12).do("melee", unit=0, target=2, weapon=1, reckless=True)
    g.dice(12).do("use_power", unit=0, power=0, target=2)
    g.dice(1).do("disengage", unit=0)
    assert g.unit(0).engaged == () and g.unit(2).engaged == ()
    g.do("move", unit=0, cm=1)


def test_the_defender_is_in_melee_too() -> None:
    """l. 1360: "Der Basekontakt mit einem gegnerischem Modell bedeutet immer, dass sich beide
    Modelle im Nahkampf miteinander befinden." Ben's leader, attacked, may not walk off in its
    own phase."""
    g = after_a_melee()
    g.do("end_phase")
    assert g.state.active == 2
    g.refused("move", "in_melee", unit=2)
    g.refused("shoot", "in_melee", unit=2, targets=[{"unit": 1, "distance": 10}])


def test_in_melee_a_model_reacts_only_with_a_counter_or_an_opportunity_attack() -> None:
    """l. 1364-1366: the reactions in melee are Gegenangriff and Gelegenheitsangriff: Ben's
    leader in melee neither fires in reaction nor dodges."""
    g = ben_waits_ready(acting())
    in_contact(g, 0, 2)
    g.do("move", unit=1, cm=5)
    g.refused("reaction_fire", "melee_reaction", unit=2, target={"distance": 10})
    g.refused(
        "shoot", "melee_reaction", unit=1, targets=[{"unit": 2, "distance": 10, "dodge": True}]
    )


def test_a_melee_starts_with_a_charge() -> None:
    """l. 652: an Angriffsbewegung that ends in base contact becomes an attack; the two are in
    melee from then on."""
    g = acting()
    g.do("melee", unit=0, target=2, weapon=1, charge=True)
    g.dice(1, 12).do("charge_attack", unit=0)
    assert (g.unit(0).engaged, g.unit(2).engaged) == ((2,), (0,))


def test_a_melee_ends_when_the_model_disengages() -> None:
    """l. 655: "Mit dieser Aktion kann sich ein Modell aus einem Nahkampf lösen"."""
    g = after_a_melee()
    g.dice(1).do("disengage", unit=0)
    assert (g.unit(0).engaged, g.unit(2).engaged) == ((), ())
    g.do("move", unit=0, cm=2)


def test_a_melee_ends_when_the_defender_is_pushed_back() -> None:
    """l. 1387: "Ein Modell zurück zu stoßen bedeutet, mit ihm eine Bewegungsaktion
    durchzuführen": pushed back, it is out of base contact."""
    g = acting()
    g.dice(12, 1).do("melee", unit=0, target=2, weapon=1, on_win="push")
    assert (g.unit(0).engaged, g.unit(2).engaged) == ((), ())
    g.do("move", unit=0, cm=2)


def test_a_melee_ends_with_the_death_of_the_opponent() -> None:
    """l. 981: "Eliminierte Modelle können weder Aktionen noch Reaktionen ausführen"."""
    g = after_a_melee()
    g.dice(12, 1).do("auto_hit", unit=2, strength=20, damage=20)
    assert g.unit(0).engaged == ()
    g.do("skip_panic_test", unit=3)
    g.do("move", unit=0, cm=2)


def test_the_table_says_when_base_contact_begins_or_ends() -> None:
    """l. 1392: a pushed model "darf dadurch in Basekontakt mit anderen gegnerischen Modellen
    bewegt werden", and the defender may push its attacker back (l. 1380): the app cannot see
    either, the table says it."""
    g = after_a_melee()
    g.do("contact", unit=2, other=0, touching=False)
    assert (g.unit(0).engaged, g.unit(2).engaged) == ((), ())
    g.do("contact", unit=3, other=0, touching=True)
    assert g.unit(0).engaged == (3,)
    g.refused("contact", "contact_friend", unit=0, other=1, touching=True)
    g.refused("contact", "contact_unchanged", unit=0, other=3, touching=True)
    panel = there(tracker(g, selected=3).reactions)
    sent = [there(b.sends).args for b in panel.contact]
    assert {"unit": 3, "other": 0, "touching": False} in sent


# --- 2. Direct threat (l. 391) -------------------------------------------------------------------


def test_a_failed_threat_test_forces_an_attack_on_the_threat() -> None:
    """l. 391: "Misslingt dieser Test muss ein Angriff gegen die direkte Bedrohung erfolgen,
    egal ob per Nahkampf, Fernkampf, Ausrüstung, Eigenschaften oder Kräften"."""
    g = acting()
    g.dice(12).do("threat_test", unit=0, threat=2)
    assert g.unit(0).must_attack == (2,)
    g.refused("move", "attack_threat", unit=0, cm=5)
    g.refused("shoot", "attack_threat", unit=0, targets=[{"unit": 3, "distance": 10}])
    g.refused("melee", "attack_threat", unit=0, target=3, weapon=1)
    g.dice(12).do("shoot", unit=0, targets=[{"unit": 2, "distance": 10}])
    assert g.unit(0).must_attack == ()
    g.do("move", unit=0, cm=5)


def test_a_passed_threat_test_lets_the_model_act_freely() -> None:
    """l. 389: "Möchte das Modell eine direkte Bedrohung ignorieren, muss es dafür einen
    erfolgreichen EH-Test durchführen"."""
    g = acting()
    g.dice(1).do("threat_test", unit=0, threat=2)
    assert g.unit(0).must_attack == ()
    g.do("move", unit=0, cm=5)


def test_the_threat_is_an_enemy_in_play_and_the_tracker_names_it() -> None:
    """l. 387: the direct threat is an enemy model; the tracker's test asks which one."""
    g = acting()
    g.refused("threat_test", "not_threat", unit=0, threat=1)
    form = there(tracker(g).members[0].threat)
    assert [c.value for c in form.threats] == [2, 3] and form.threat == 2
    assert there(form.button.sends).args == {"unit": 0, "threat": 2}


# --- 3. Reaction fire answers a charge (l. 651, l. 1201) -----------------------------------------


def test_reaction_fire_answers_a_charge_before_its_melee() -> None:
    """l. 651: the Angriffsbewegung is a movement action; l. 1201: reaction fire "darf nur auf
    ein gegnerisches Modell gerichtet sein, welches eine beliebige Bewegungsaktion innerhalb des
    Wahrnehmungsbereichs durchführt". The reaction comes before the melee is resolved."""
    g = ben_waits_ready(acting())
    events = g.do("melee", unit=1, target=3, weapon=1, charge=True)
    assert not of_type(events, "melee_fought")
    assert g.state.charge is not None and g.unit(1).ap == 6 - 1
    g.refused("shoot", "charge_pending", unit=1, targets=[{"unit": 3, "distance": 10}])
    g.refused("end_phase", "charge_pending")
    fire = there(there(tracker(g, selected=2).reactions).reaction_fire)
    assert fire.button.enabled
    g.dice(12).do("reaction_fire", unit=2, target={"distance": 10})
    events = g.dice(12, 1, 12, 1).do("charge_attack", unit=1)
    assert one(events, "melee_fought")["rolls"][0]["totals"][0] == 12 + 4 + 2
    assert g.state.charge is None and g.unit(1).ap == 5


def test_a_charger_shot_down_in_reaction_never_attacks() -> None:
    """l. 652: the move becomes an attack only when it ends in base contact; a charger the
    reaction fire eliminates never gets there."""
    g = ben_waits_ready(acting())
    g.do("correct", unit=1, hp=1)
    g.do("melee", unit=1, target=3, weapon=1, charge=True)
    g.dice(1, 12, 1).do("reaction_fire", unit=2, target={"distance": 10})
    assert not g.unit(1).in_play and g.state.charge is None
    g.do("skip_panic_test", unit=0)
    assert g.state.active == 3


def test_the_charge_form_waits_for_the_reactions_then_attacks() -> None:
    """The tracker shows the charger only its attack while the charge waits."""
    g = acting()
    g.do("melee", unit=0, target=2, weapon=1, charge=True)
    member = tracker(g).members[0]
    form = there(member.charge)
    assert form.target == "Ben Chef" and form.button.enabled
    assert member.move is None and member.shoot is None


# --- 4. Cover (l. 774-776) -----------------------------------------------------------------------


def test_cover_gives_the_armour_bonus_only_when_the_target_touches_it() -> None:
    """l. 774: cover counts "nur wenn sie sich zwischen Angreifer und Verteidiger befindet";
    l. 776: "Sie kann im Fernkampf einen Bonus auf den Rüstungswurf geben. Dieser kommt zur
    Anwendung, wenn das Modell die Deckung berührt." Two inputs: the FK malus of the cover
    between, the armour bonus only if the target touches it."""
    g = acting()
    between = g.dice(1, 1, 1).do(
        "shoot", unit=0, weapon=0, targets=[{"unit": 2, "distance": 10, "cover": "hard"}]
    )
    assert one(between, "shot")["roll"]["target"] == 6 - 2
    assert one(between, "wound_rolled")["armour"] == 1 + 5
    touching = g.dice(1, 1, 1).do(
        "shoot",
        unit=0,
        weapon=0,
        targets=[{"unit": 2, "distance": 10, "cover": "hard", "touching": True}],
    )
    assert one(touching, "shot")["roll"]["target"] == 6 - 2
    assert one(touching, "wound_rolled")["armour"] == 1 + 5 + 1


def test_the_reaction_fire_asks_both_cover_inputs_too() -> None:
    """l. 776 for reaction fire: only a mover touching the massive cover gets +2 on its
    armour roll; the FK malus is the same."""
    for touching, bonus in ((False, 0), (True, 2)):
        g = ben_waits_ready(acting())
        g.do("move", unit=1, cm=5)
        target = {"distance": 10, "cover": "massive", "touching": touching}
        events = g.dice(1, 1, 1).do("reaction_fire", unit=2, target=target)
        assert one(events, "shot")["roll"]["target"] == 6 - 1 - 3
        assert one(events, "wound_rolled")["armour"] == 1 + 5 + bonus


# --- 5. Camouflage in the first round of the fight (l. 1439, l. 1501) ----------------------------


def test_camouflage_gives_its_melee_bonus_for_the_whole_first_round() -> None:
    """l. 1439: "Wenn ein getarntes Modell einen Angriff einleitet erhält es für die erste Runde
    einen Bonus von +2 auf seinen NK-Wurf." (l. 1501: +1 more with active camouflage.) Not only
    the attack that reveals it: its second attack, and its defence against the counter-attack,
    in the same round; no more in the next round."""
    anna = soldier("Anna", group_leader=True, camouflage=Camouflage(active=False, level=1))
    g = acting(anna)
    first = g.dice(1, 12).do("melee", unit=0, target=2, weapon=1)
    assert one(first, "melee_fought")["rolls"][0]["totals"][0] == 1 + 4 + 2
    assert not g.unit(0).camouflaged
    counter = g.dice(12, 1).do("counter_attack", unit=2, weapon=1)
    assert one(counter, "melee_fought")["rolls"][0]["totals"][1] == 1 + 4 + 2
    second = g.dice(1, 12).do("melee", unit=0, target=2, weapon=1)
    assert one(second, "melee_fought")["rolls"][0]["totals"][0] == 1 + 4 + 2
    finish_round(g)
    g.do("end_round")
    g.phase_of(0, 2)
    later = g.dice(1, 12).do("melee", unit=0, target=2, weapon=1)
    assert one(later, "melee_fought")["rolls"][0]["totals"][0] == 1 + 4


def test_active_camouflage_keeps_plus_3_for_the_first_round() -> None:
    """l. 1501: "Im Nahkampf erhalten sie einen zusätzlichen Bonus von +1 auf ihren NK-Wurf"."""
    anna = soldier("Anna", group_leader=True, camouflage=Camouflage(active=True, level=1))
    g = acting(anna)
    g.do("melee", unit=0, target=2, weapon=1, charge=True)
    assert not g.unit(0).camouflaged  # revealed as it charges: reaction fire may answer it
    attack = g.dice(1, 12).do("charge_attack", unit=0)
    assert one(attack, "melee_fought")["rolls"][0]["totals"][0] == 1 + 4 + 2 + 3
    again = g.dice(1, 12).do("melee", unit=0, target=2, weapon=1)
    assert one(again, "melee_fought")["rolls"][0]["totals"][0] == 1 + 4 + 3


# --- 6. Optional rerolls (l. 911, l. 929-930) ----------------------------------------------------

ADAPTIV = Armour("Adaptivpanzer", 5, effects=(Effect.ADAPTIV,))


def test_optional_rerolls_are_never_used_unasked() -> None:
    """l. 929: "Der Rüstungswurf darf einmal neu gewürfelt werden": Adaptiv is the owner's
    choice, never applied automatically."""
    g = acting(ben=soldier("Ben", group_leader=True, armour=ADAPTIV))
    events = g.dice(9, 1).do("auto_hit", unit=2, strength=5, damage=2)
    assert len(one(events, "wound_rolled")["rolls"]) == 1
    assert g.unit(2).hp == 8 - 2


def test_the_owner_chooses_when_to_use_a_reroll_also_at_a_tie() -> None:
    """l. 911 (Erschütterung: "Der Angreifer darf ..."), l. 929 (Adaptiv: "darf"), l. 930
    (Robust: "Der Verteidiger darf ..."): each owner says when it rerolls, an argument of the
    command: here Ben rerolls his armour at a tie and escapes the shock."""
    g = acting(ben=soldier("Ben", group_leader=True, armour=ADAPTIV))
    events = g.dice(12, 1, 5, 4, 12).do(
        "melee", unit=0, target=2, weapon=-1, adaptiv="behind_or_tie"
    )
    wound = one(events, "wound_rolled")
    assert [r["totals"] for r in wound["rolls"]] == [[9, 9], [9, 17]]
    assert (g.unit(2).hp, g.unit(2).ap) == (8, 6)
    robust = Armour("Robustpanzer", 5, effects=(Effect.ROBUST,))
    g = acting(ben=soldier("Ben", group_leader=True, armour=robust))
    events = g.dice(9, 1, 1).do("auto_hit", unit=2, strength=5, damage=2, robust="behind")
    assert (one(events, "wound_rolled")["wound"], g.unit(2).hp) == (6, 8)


def test_the_tracker_asks_each_owner_for_its_reroll() -> None:
    """The attack forms ask for the rerolls the effects allow, "no reroll" first; the preview
    counts them as chosen."""
    g = acting(ben=soldier("Ben", group_leader=True, armour=ADAPTIV))
    view = tracker(g)
    shoot = there(view.members[0].shoot)
    assert [f.name for f in shoot.rerolls] == ["adaptiv"]
    assert view.reroll_choices[0][0] == "no"
    asked = {
        "command": "shoot",
        "args.unit:int": "0",
        "args.weapon:int": "0",
        "args.targets.0.unit:int": "2",
        "args.targets.0.distance:int": "10",
    }
    plain = there(tracker(g, params=asked).members[0].shoot).preview
    chosen = there(tracker(g, params={**asked, "args.adaptiv": "behind"}).members[0].shoot).preview
    assert plain[1] != chosen[1]  # the wound line: Adaptiv lowers the chance of damage


# --- 7. Panicking models move at the round's start (l. 504) --------------------------------------


def panicking_leader() -> Game:
    """Anna's soldier falls; her leader fails its panic test and panics into round 2."""
    g = acting()
    g.dice(12, 1).do("auto_hit", unit=1, strength=20, damage=20)
    g.dice(12).do("panic_test", unit=0)
    finish_round(g)
    g.do("end_round")
    return g


def test_panicking_models_move_at_the_start_of_the_round() -> None:
    """l. 504: "Alle Modelle in Panik werden entsprechend bewegt. Dies kann gleichzeitig
    geschehen." The round's first pick waits for it."""
    g = panicking_leader()
    assert g.state.round == 2 and g.state.panic_moves_due == (0,)
    g.refused("pick", "panic_moves_first", player=0, unit=0)
    events = g.do("panic_move", unit=0)
    assert one(events, "panic_moved")["left_table"] is False
    assert g.state.panic_moves_due == () and g.unit(0).ap == 6 + 3
    g.refused("panic_move", "no_panic_move", unit=0)
    g.do("pick", player=0, unit=0)


def test_the_tracker_asks_for_the_panic_moves() -> None:
    """The round's start shows a step for each panicking model: it runs, or it runs off."""
    g = panicking_leader()
    buttons = [b for b in tracker(g).buttons if b.command == "panic_move"]
    assert [there(b.sends).args for b in buttons] == [
        {"unit": 0, "left_table": False},
        {"unit": 0, "left_table": True},
    ]
    assert all(b.enabled for b in buttons)
    g.do("panic_move", unit=0, left_table=True)
    assert g.unit(0).fled


def test_a_panicking_model_that_falls_before_its_run_makes_none() -> None:
    """The round start waits for no run of a model that is no longer in play."""
    g = panicking_leader()
    g.dice(12, 1).do("auto_hit", unit=0, strength=20, damage=20)
    assert g.state.panic_moves_due == ()
    g.refused("panic_move", "no_panic_move", unit=0)


# --- Further contradictions found around the rulings ---------------------------------------------


def test_only_a_model_in_melee_disengages() -> None:
    """l. 656 (Aus Nahkampf lösen): "Das Modell muss sich im Nahkampf befinden."."""
    g = acting()
    g.refused("disengage", "not_engaged", unit=0)


def test_only_the_models_it_leaves_make_an_opportunity_attack() -> None:
    """l. 1415: "Kann durchgeführt werden, wenn sich ein gegnerisches Modell in Basekontakt aus
    dem Nahkampf löst." Ben's soldier was not in base contact with Anna's leader."""
    g = in_contact(acting())
    g.dice(1).do("disengage", unit=0)
    g.refused("opportunity_attack", "not_in_contact", unit=3, weapon=1)
    g.dice(12, 1, 1, 12).do("opportunity_attack", unit=2, weapon=1)


def test_a_flying_models_first_action_is_a_full_move() -> None:
    """l. 632: "In jeder Runde muss als erste Aktion immer eine volle Bewegung in Blickrichtung
    ausgeführt werden."."""
    g = acting(soldier("Anna", group_leader=True, movement=Movement.FLIGHT))
    g.refused("move", "flight_moves_first", unit=0, cm=5)
    g.do("move", unit=0, cm=10)
    g.do("move", unit=0, cm=5)


def test_a_shot_into_a_melee_the_app_knows_may_hit_either_combatant() -> None:
    """l. 1241: "Ob das Modell oder eines seiner Nahkampfgegner getroffen wird entscheidet der
    Zufall": the app knows the melee, so the table need not list it."""
    g = in_contact(acting(), 1, 2)
    events = g.dice(1, 2, 12, 1).do("shoot", unit=0, targets=[{"unit": 2, "distance": 10}])
    assert one(events, "melee_victim")["unit"] == 1
    assert one(events, "wound_rolled")["unit"] == 1


# --- Versioned logs ------------------------------------------------------------------------------


def test_a_version_1_snapshot_loads_with_the_new_fields_at_their_defaults() -> None:
    """A snapshot written before the rulings (schema version 1) has none of their fields: the
    state upgrade writes their defaults in, and it loads."""
    g = acting()
    g.dice(1, 12).do("melee", unit=0, target=2, weapon=1)
    g.do("contact", unit=0, other=2, touching=False)
    current = json.loads(json.dumps(ENGINE.dump_state(g.state)))
    old = {k: v for k, v in current.items() if k not in ("charge", "panic_moves_due")}
    old["units"] = [
        {k: v for k, v in u.items() if k not in ("engaged", "must_attack", "ambush_round")}
        for u in current["units"]
    ]
    old["last_action"] = {k: v for k, v in current["last_action"].items() if k != "left"}
    assert ENGINE.schema_version == 3
    assert ENGINE.upgrade_state(old, 1) == current
    loaded = ENGINE.load_state(ENGINE.upgrade_state(old, 1))
    assert json.loads(json.dumps(ENGINE.dump_state(loaded))) == current


def test_a_version_1_log_replays_to_its_recorded_state() -> None:
    """A log recorded in version 1 (a golden log) replays through the upgrades to its recorded
    final state, upgraded."""
    document = json.loads((GOLDEN / "seed-2.json").read_text(encoding="utf-8"))
    assert {e["version"] for e in document["events"]} == {1}
    events = [ENGINE.upgrade_event(Event(e["type"], e["data"]), 1) for e in document["events"]]
    state = replay(ENGINE, events)
    assert state.phase is Phase.OVER
    recorded = ENGINE.upgrade_state(document["state"], document["state_version"])
    assert json.loads(json.dumps(ENGINE.dump_state(state))) == recorded
