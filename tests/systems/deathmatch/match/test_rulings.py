"""The Deathmatch rulings of SPEC §6, each with the rulebook line it rests on
(``shared/rules/deathmatch.de.txt``, quoted in the test).

Plain fighters: Reflex 6, Resistance 3, 6 LP, Gewehr (weapon 0: FK 3, S 3), Klinge (weapon 1:
NK 3, S 3). Anna's units are 0-2, Ben's 3-5; Anna begins. A hit flip card c hits for c >= 4 and
grazes at 3; a wound flip card c deals c damage against Resistance 3."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from apps.systems.core.buttons import Offers
from apps.systems.core.match import Event
from apps.systems.deathmatch.catalog import EquipmentCard, ItemKind
from apps.systems.deathmatch.match.state import Phase
from apps.systems.deathmatch.match.tracker.units import unit_view
from tests.systems.deathmatch.match.helpers import (
    BLADE,
    ENGINE,
    F,
    Game,
    Member,
    default_team,
    item,
    one,
    profile,
    setup,
    target,
    weapon,
)


def match(
    anna: Sequence[Member] | None = None,
    ben: Sequence[Member] | None = None,
    *,
    mode: str = "flag-rush",
    gadgets: tuple[int, int] | None = None,
    command: int = 0,
) -> Game:
    teams = [anna or default_team(0, command=command), ben or default_team(1, command=command)]
    g = Game(setup(mode, teams, gadgets=gadgets is not None))
    if gadgets is not None:
        g.do("choose_gadget", player=0, option=gadgets[0])
        g.do("choose_gadget", player=1, option=gadgets[1])
    g.to_round_one()
    return g


def declared_target(events: Sequence[Event]) -> Mapping[str, Any]:
    found: Mapping[str, Any] = one(events, "attack_declared")["attack"]["targets"][0]
    return found


def card(name: str, text: str, *, kind: ItemKind = ItemKind.ARMOUR_UPGRADE) -> EquipmentCard:
    return EquipmentCard(
        slug=name.casefold().replace(" ", "-"),
        name=name,
        cost=2,
        limit_per_model=1,
        kind=kind,
        text=text,
    )


# The sample catalogue's cards (fixtures/deathmatch/catalog.json).
PANZERPLATTEN = card("Rüstungsupgrade Verstärkte Panzerplatten", "Das Modell erhält +1 Widerstand.")
TARNFELD = card("Rüstungsupgrade Tarnfeld", "Gegen Fernkampfattacken erhält das Modell +1 Reflex.")


# --- 1. Seen cards stay seen -------------------------------------------------------------------


def test_undo_never_returns_a_revealed_card_to_the_face_down_deck() -> None:
    # l. 217: "... werden die übrigen Karten als verdeckter Stapel auf dem Wendepunkt platziert";
    # l. 243: "Das zweite Ergebnis ist immer bindend." Undo restores the state, but a card
    # once revealed stays drawn: the attack made again flips the next card.
    g = match()
    g.activate(0)
    g.stack(0, [2, 8, 7])
    events = g.do("ranged_attack", targets=[target(3)])
    assert one(events, "hit_flipped")["flip"]["cards"][0]["value"] == 2
    seen = g.state.players[0].deck
    kept = g.undo()
    assert [e.type for e in kept] == ["decks_kept"]
    assert g.state.players[0].deck == seen
    assert g.state.active == 0 and g.state.attack is None and g.unit(0).ap == 2
    events = g.do("ranged_attack", targets=[target(3)])
    assert one(events, "hit_flipped")["flip"]["cards"][0]["value"] == 8


def test_undo_of_a_free_flip_cannot_be_used_to_look_at_the_next_card() -> None:
    # l. 217 "verdeckter Stapel": the next card is face down; a free flip and undo show it.
    g = match()
    g.stack(0, [9, 1])
    assert one(g.do("flip", player=0), "free_flipped")["result"] == 9
    g.undo()
    g.activate(0)
    events = g.do("ranged_attack", targets=[target(3)])
    assert one(events, "hit_flipped")["flip"]["cards"][0]["value"] == 1


def test_undo_without_a_card_drawn_keeps_nothing() -> None:
    g = match()
    g.activate(0)
    assert g.undo() == []
    assert g.state.active is None


def test_a_reroll_after_an_undo_takes_the_next_face_down_card() -> None:
    # A flip waiting for its reroll can be older than the deck after an undo; the reroll takes
    # the next face-down card (l. 243 "Das zweite Ergebnis ist immer bindend"), never the
    # wound card the undone command revealed.
    g = match(command=1)
    g.activate(0)
    g.stack(0, [5, 1, 3])
    g.do("ranged_attack", targets=[target(3)])  # hit flip 5: waits for Anna's reroll decision
    events = g.do("accept")
    assert one(events, "wound_flipped")["flip"]["cards"][0]["value"] == 1
    g.undo()
    assert g.state.attack is not None and g.state.attack.hit_flip is not None
    events = g.do("reroll", positions=[0])
    assert one(events, "flip_rerolled")["flip"]["cards"][0]["value"] == 3


# --- 2. A second pistol pairs ------------------------------------------------------------------


PISTOL = weapon("Schwere Pistole", value=3, strength=3, rules=["Handwaffe"])
SECOND_PISTOL = card(
    "Zweite Pistole",
    "Trägt das Modell bereits eine Pistole, führt es beide zusammen als Paar (PP) mit "
    "verstärktem Trefferflip.",
    kind=ItemKind.WEAPON,
)


def test_a_bought_second_pistol_pairs_with_the_carried_pistol() -> None:
    # l. 145: "Andererseits kann ein Modell, das z. B. nur eine einzelne Pistole trägt, eine
    # weitere Pistole kaufen, um so den Bonus für paarweise geführte Waffen zu erhalten."
    second = EquipmentCard(
        slug=SECOND_PISTOL.slug,
        name=SECOND_PISTOL.name,
        cost=1,
        limit_per_model=1,
        kind=ItemKind.WEAPON,
        text=SECOND_PISTOL.text,
        weapon=weapon("Pistole", value=2, strength=2),
    )
    gunner = F(profile("Anna Pistolera", weapons=(PISTOL, BLADE)), (second,))
    g = match([gunner, *default_team(0)[1:]])
    pistols = [w for w in g.unit(0).weapons if "pistol" in w.name.casefold()]
    assert len(pistols) == 1
    assert pistols[0].paired and pistols[0].symbol == "PP" and pistols[0].bonus_cards == 1
    g.activate(0)
    g.stack(0, [2, 7, 1])
    events = g.do("ranged_attack", weapon=0, targets=[target(3)])
    # The pair's ⬠: two cards, the higher kept -- 7 + FK 3 hits Reflex 6.
    flipped = one(events, "hit_flipped")["flip"]
    assert [c["value"] for c in flipped["cards"]] == [2, 7]
    assert one(events, "hit_resolved")["targets"][0]["outcome"] == "hit"


def test_a_pistol_card_without_a_pistol_to_pair_is_a_weapon_of_its_own() -> None:
    second = EquipmentCard(
        slug="zweite-pistole",
        name="Zweite Pistole",
        cost=1,
        limit_per_model=1,
        kind=ItemKind.WEAPON,
        weapon=weapon("Pistole", value=2, strength=2),
    )
    g = match([F(profile("Anna Gewehr"), (second,)), *default_team(0)[1:]])
    assert [(w.name, w.symbol) for w in g.unit(0).weapons] == [
        ("Gewehr", "P"),
        ("Klinge", "M"),
        ("Pistole", "P"),
    ]


# --- 3. Equipment that changes a profile value applies ---------------------------------------


def test_a_card_with_plus_one_widerstand_is_wounded_against_its_raised_resistance() -> None:
    # l. 128: the ARP are spent "um das Team mit Ausrüstungskarten aufzuwerten"; l. 773: "um
    # seine Kämpfer mit zusätzlichem Equipment auszustatten und so zu verbessern".
    armoured = F(profile("Ben Gepanzert"), (PANZERPLATTEN,))
    g = match(ben=[armoured, *default_team(1)[1:]])
    g.activate(0)
    g.stack(0, [5, 4])
    events = g.do("ranged_attack", targets=[target(3)])
    assert one(events, "wound_flipped")["resistance"] == 4
    assert one(events, "wounded")["damage"] == 3


def test_a_card_with_a_reflex_bonus_against_shots_counts_against_shots_only() -> None:
    # l. 128 / l. 773 (aufwerten, verbessern): Tarnfeld "Gegen Fernkampfattacken ... +1 Reflex".
    hidden = F(profile("Ben Getarnt"), (TARNFELD,))
    g = match(ben=[hidden, *default_team(1)[1:]])
    g.activate(0)
    g.stack(0, [4, 1])
    events = g.do("ranged_attack", targets=[target(3)])
    assert declared_target(events)["reflex"] == 7
    assert one(events, "hit_resolved")["targets"][0]["outcome"] == "graze"
    g.stack(0, [4, 1])
    events = g.do("melee_attack", weapon=1, targets=[target(3)])
    assert declared_target(events)["reflex"] == 6


def test_cards_raising_lp_movement_and_attack_values_apply_in_the_match() -> None:
    # l. 128 / l. 773: equipment "verbessert" the fighter -- every value it names.
    cards = (
        card("Zähigkeit", "Das Modell erhält +2 Lebenspunkte."),
        card("Sprintmodul", "Das Modell erhält +1 Zoll Bewegung."),
        card("Zielsucher", "Das Modell erhält +1 FK."),
        card("Kampfhandschuh", "Das Modell erhält +1 NK."),
    )
    g = match([F(profile("Anna Aufgewertet"), cards), *default_team(0)[1:]])
    unit = g.unit(0)
    assert (unit.lp, unit.max_lp) == (8, 8)
    g.activate(0)
    assert one(g.do("move"), "moved")["inches"] == 6
    g.stack(0, [1, 1])
    assert declared_target(g.do("ranged_attack", targets=[target(3)]))["attack_value"] == 4
    g.end()
    g.next_round()
    g.activate(0)
    g.stack(0, [1, 1])
    events = g.do("melee_attack", weapon=1, targets=[target(3)])
    assert declared_target(events)["attack_value"] == 4


def test_the_tracker_shows_the_values_equipment_changes() -> None:
    armoured = F(profile("Ben Gepanzert"), (PANZERPLATTEN, TARNFELD))
    g = match(ben=[armoured, *default_team(1)[1:]])
    view = unit_view(g.state, g.unit(3), None, Offers(ENGINE.legality(g.state), ENGINE.refusals))
    assert (view.resistance, view.reflex) == (4, 6)
    assert any("Tarnfeld" in str(badge.params) for badge in view.badges)


def test_a_correction_enters_a_standing_modifier_that_every_roll_uses() -> None:
    # SPEC §6: "Table effects the app cannot know may be entered as a standing modifier on a
    # model (a correction, logged)" -- the values l. 128 / l. 773 let equipment change.
    g = match()
    events = g.do("adjust", unit=3, mod_reflex=2, mod_resistance=1, note="Schildgenerator")
    adjusted = one(events, "unit_adjusted")
    assert adjusted["modifiers"] == {"reflex": 2, "resistance": 1}
    assert adjusted["note"] == "Schildgenerator"
    g.activate(0)
    g.stack(0, [5, 5])
    events = g.do("ranged_attack", targets=[target(3)])
    assert declared_target(events)["reflex"] == 8
    g.stack(0, [9, 5])
    events = g.do("ranged_attack", targets=[target(3)])
    assert one(events, "wound_flipped")["resistance"] == 4
    g.refused("adjust", "nothing_changed", unit=3, mod_reflex=2)


def test_a_standing_lp_modifier_changes_the_models_life_points() -> None:
    # The LP track gets longer or shorter; the damage the model took stays.
    g = match()
    g.do("adjust", unit=3, lp=5)
    g.do("adjust", unit=3, mod_lp=2)
    assert (g.unit(3).lp, g.unit(3).max_lp) == (7, 8)
    g.do("adjust", unit=3, mod_lp=-1)
    assert (g.unit(3).lp, g.unit(3).max_lp) == (4, 5)
    g.refused("adjust", "invalid_args", unit=3, mod_lp=-6)


# --- 4. Nothing left to activate: the turn passes ---------------------------------------------


def test_a_correction_leaving_the_player_nothing_to_activate_passes_the_turn() -> None:
    # l. 331: "Wenn ein Spieler kein Modell mehr zum Aktivieren hat, darf sein Gegner
    # nacheinander seine restlichen Modelle aktivieren."
    g = match()
    for unit in (0, 3, 1, 4):
        g.activate(unit)
        g.end()
    assert g.state.turn == 0
    g.do("pass")
    g.activate(5)
    g.end()
    assert g.state.turn == 0 and g.state.players[0].passed and g.cp(0) == 0
    g.do("adjust", unit=2, lp=0)  # knocked out by hand: respawns as activated
    assert g.unit(2).respawns == 1 and g.unit(2).activated
    assert g.state.awaiting == "score"  # nobody has anything left: the round is over


def test_a_correction_between_activations_hands_the_turn_to_who_can_activate() -> None:
    # l. 331: the opponent activates its remaining models one after another.
    g = match()
    for unit in (0, 3, 1, 4):
        g.activate(unit)
        g.end()
    g.do("adjust", unit=2, lp=0)
    assert g.state.turn == 1 and g.state.phase is Phase.ACTIVATION
    g.activate(5)
    g.end()
    assert g.state.awaiting == "score"


# --- 5. Erlöser only at the start of rounds 2 and 4 -----------------------------------------


def test_an_unused_erloeser_lapses_after_round_two() -> None:
    # l. 910: "Diese Station wird ausschließlich am Anfang der zweiten, und vierten Runde
    # aktiv."
    g = match(gadgets=(8, 1))
    g.next_round()
    assert g.state.round == 2 and g.state.gadgets[0].active
    g.next_round()
    assert g.state.round == 3
    assert not g.state.gadgets[0].active
    assert one(g.events, "gadgets_lapsed")["gadgets"] == ["G1", "G2"]
    g.activate(0)
    g.refused("touch_gadget", "gadget_inactive", unit=0, gadget="G1")
    g.end()
    g.next_round()
    assert g.state.round == 4
    g.activate(0)
    assert one(g.do("touch_gadget", unit=0, gadget="G1"), "gadget_used")["effect"] == "erloeser"


# --- 6. Gadgets: one copy of every option; stations recharge in the start phase -------------


def test_both_players_choosing_the_same_gadget_each_get_one_copy() -> None:
    # l. 858: "erhält jeder Spieler je ein Exemplar von allen gewählten Optionen."
    g = Game(setup("flag-rush", gadgets=True))
    g.do("choose_gadget", player=0, option=1)
    events = g.do("choose_gadget", player=1, option=1)
    placed = one(events, "gadgets_placed")
    assert [(x["id"], x["option"], x["owner"]) for x in placed["gadgets"]] == [
        ("G1", 1, 0),
        ("G2", 1, 1),
    ]


def test_both_players_choosing_drones_each_get_one_drone() -> None:
    # l. 858 "je ein Exemplar"; gadget 9: "Jedes Team erhält eine Angriffsdrohne".
    g = Game(setup("flag-rush", gadgets=True))
    g.do("choose_gadget", player=0, option=9)
    events = g.do("choose_gadget", player=1, option=9)
    drones = one(events, "gadgets_placed")["units"]
    assert [d["player"] for d in drones] == [0, 1]


def test_a_used_station_recharges_only_in_the_next_start_phase() -> None:
    # l. 326: "Auffrischen: Spielfeldstationen ..., die im Verlauf der letzten Runde
    # verbraucht wurden, laden nach und sind ab diesem Moment wieder einsatzbereit."
    g = match(gadgets=(7, 4))
    g.activate(0)
    g.do("touch_gadget", unit=0, gadget="G1")
    g.end()
    g.activate(3)
    g.refused("touch_gadget", "gadget_used", unit=3, gadget="G1")
    g.end()
    g.activate(1)
    g.refused("touch_gadget", "gadget_used", unit=1, gadget="G1")
    g.end()
    g.next_round()
    g.activate(1)
    assert one(g.do("touch_gadget", unit=1, gadget="G1"), "gadget_used")["effect"] == "stim"


# --- 7. Charge ⬠ only after a successful hit --------------------------------------------------


def test_the_charge_boost_comes_only_after_a_hit_not_after_a_flesh_wound() -> None:
    # l. 381: "... deren Verwundungsflip im Falle eines erfolgreichen Treffers um ⬠ verstärkt
    # wird"; l. 597: a Fleischwunde gives "einen erschwerten (⬡) Verwundungsflip".
    g = match()
    g.activate(0)
    g.stack(0, [3, 4, 1])
    events = g.do("charge", weapon=1, targets=[target(3)])
    assert one(events, "hit_resolved")["targets"][0]["outcome"] == "graze"
    wound = one(events, "wound_flipped")["flip"]
    assert wound["modifier"] == -1
    assert [c["value"] for c in wound["cards"]] == [4, 1]


# --- 8. Respawn removes all markers, ammunition included --------------------------------------


def test_a_respawned_model_has_its_full_ammunition_again() -> None:
    # l. 209: "Alle Marker und Effekte eines respawnden Modells werden entfernt"; l. 533: "Solche
    # Waffen beginnen mit X Munitionsmarkern."
    rocket = weapon("Rakete", rules=["Limitiert (2)"])
    g = match([profile("Anna Rakete", weapons=(rocket, BLADE)), *default_team(0)[1:]])
    g.activate(0)
    g.stack(0, [1])
    g.do("ranged_attack", targets=[target(3)])
    assert g.unit(0).ammo == (1, None)
    events = g.do("adjust", unit=0, lp=0)
    assert one(events, "ammo_restored") == {"unit": 0, "ammo": [2, None]}
    assert g.unit(0).respawns == 1 and g.unit(0).ammo == (2, None)


def test_a_card_without_a_profile_value_changes_nothing() -> None:
    g = match([F(profile("Anna Medkit"), (item("medkit"),)), *default_team(0)[1:]])
    assert (g.unit(0).max_lp, g.unit(0).profile.move_inches) == (6, 5)


# --- Further contradictions found beside the rulings ---------------------------------------------


def test_the_tracker_shows_an_energy_cores_own_resistance() -> None:
    # SPEC §1.8 Onslaught: "one stationary energy core per half (Resistance 5, energy shield 3,
    # ...)": the shield markers count against hits, the core's Widerstand stays 5. The tracker
    # showed 5 + 3 - 3 × 3 = -1.
    g = Game(setup("onslaught"))
    g.to_round_one()
    core = next(u for u in g.state.units if u.kind.value == "core")
    view = unit_view(g.state, core, None, Offers(ENGINE.legality(g.state), ENGINE.refusals))
    assert (core.shields, view.resistance) == (3, 5)
