"""The rulings of SPEC §6 for the Grundregeln, and the further contradictions between the tracker
and the rulebook found when it was played against grundregeln.de.txt move by move. Every test
quotes the rulebook line it rests on ("l. N" is the line in grundregeln.de.txt)."""

from __future__ import annotations

from apps.systems.grundregeln.match.state import Phase
from tests.systems.grundregeln.match.helpers import (
    PISTOL,
    SWORD,
    Game,
    model,
    npc,
    profile,
    scenario,
    setup,
)


def started() -> Game:
    """Anna 1, Anna 2 against Ben 1, Ben 2; Anna begins."""
    return Game(setup()).begin()


def npc_game() -> Game:
    """As ``started``, with the active NPC Hund and three passive Bürger."""
    data = scenario(npcs=[npc("Hund", "active", size="S"), npc("Bürger", "passive", count=3)])
    return Game(setup(data=data)).begin()


def passive_npc_moves(g: Game) -> Game:
    """Every model walks, Hund does nothing: Anna (the start player) moves a passive NPC."""
    for unit in ("Anna 1", "Ben 1", "Anna 2", "Ben 2"):
        g.act(unit, "walk")
    g.do("skip_npc", unit=g.unit("Hund"))
    assert g.phase is Phase.NPC_MOVES and g.state.turn == 0
    return g


def resolve_all(g: Game) -> None:
    while g.state.pending is not None:
        g.do("resolve")


# --- SPEC §6, ruling 1: who may react ---------------------------------------------------------


def test_a_model_that_has_acted_this_round_may_still_react() -> None:
    """l. 71: "Alle Modelle mit Sicht dürfen reagieren, die nicht auf der Flucht sind." Having
    acted this round is no reason not to react (SPEC §6)."""
    g = started()
    g.act("Anna 1", "walk")
    g.do("declare", unit=g.unit("Ben 1"), action="walk")
    g.do("react", unit=g.unit("Anna 1"), action="block")
    assert [r.unit for r in g.state.pending.reactions] == [g.unit("Anna 1")]
    resolve_all(g)
    assert g.model("Anna 1").blocking and g.model("Anna 1").reacted
    assert g.state.turn == 0  # Anna 2 still takes its action


def test_a_model_reacts_at_most_once_per_round_also_after_acting() -> None:
    """l. 71-72: every model with sight may react, and "Die agierenden und reagierenden
    Einheiten ... werden mit Markern markiert": one reaction per model and round (SPEC §6)."""
    g = started()
    g.act("Anna 1", "walk")
    g.do("declare", unit=g.unit("Ben 1"), action="walk")
    g.do("react", unit=g.unit("Anna 1"), action="block")
    resolve_all(g)
    g.act("Anna 2", "walk")
    g.do("declare", unit=g.unit("Ben 2"), action="walk")
    g.refused("react", "already_reacted", unit=g.unit("Anna 1"), action="walk")
    g.do("react", unit=g.unit("Anna 2"), action="block")  # acted, but has not reacted yet


def test_only_a_reaction_before_its_own_activation_uses_the_models_action() -> None:
    """l. 72: "Die agierenden und reagierenden Einheiten der beiden Spieler werden mit Markern
    markiert." A model that reacts before its activation is marked: that was its one action. A
    model that reacts after its action loses nothing more (SPEC §6)."""
    g = started()
    g.do("declare", unit=g.unit("Anna 1"), action="walk")
    g.do("react", unit=g.unit("Ben 1"), action="block")
    resolve_all(g)
    g.refused("declare", "already_activated", unit=g.unit("Ben 1"), action="walk")
    g.do("declare", unit=g.unit("Ben 2"), action="walk")
    g.do("react", unit=g.unit("Anna 1"), action="block")
    resolve_all(g)
    # Anna 1's reaction came after its action: Anna 2 is still to act, then the round ends
    # (Ben 1 spent its action on its reaction).
    assert g.state.turn == 0 and not g.model("Anna 2").activated
    g.act("Anna 2", "walk")
    assert g.state.round == 2 and g.phase is Phase.ROUND_START


# --- SPEC §6, ruling 2: any simple action may be a reaction -----------------------------------


def test_a_reaction_may_hand_over_an_item_to_a_friend() -> None:
    """l. 65: "Jede einfache Aktion kann als Reaktion genutzt werden." Gegenstand weitergeben
    is einfach (l. 62) and is aimed at a friend, not at the acting model."""
    g = started()
    g.do("declare", unit=g.unit("Anna 1"), action="strike", target=g.unit("Ben 1"))
    g.do("react", unit=g.unit("Ben 2"), action="hand_over", target=g.unit("Ben 1"), note="Trank")
    assert g.state.pending.reactions[0].target == g.unit("Ben 1")
    handed = g.event(g.do("resolve"), "item_used")
    assert (handed["action"], handed["target"], handed["note"]) == (
        "hand_over",
        g.unit("Ben 1"),
        "Trank",
    )


def test_a_reaction_may_be_aimed_at_another_model_than_the_acting_one() -> None:
    """l. 65: "Jede einfache Aktion kann als Reaktion genutzt werden": a strike at any enemy in
    reach, a push of any model, not only of the model whose action it answers."""
    g = started()
    g.do("declare", unit=g.unit("Anna 1"), action="walk")
    g.do("react", unit=g.unit("Ben 1"), action="strike", target=g.unit("Anna 2"))
    g.do("react", unit=g.unit("Ben 2"), action="push", target=g.unit("Ben 1"))
    struck = g.event(g.dice(1, 1, 1).do("resolve"), "attacked")
    assert (struck["attacker"], struck["target"]) == (g.unit("Ben 1"), g.unit("Anna 2"))
    assert g.model("Ben 1").engaged == (g.unit("Anna 2"),)
    pushed = g.event(g.dice(3).do("resolve"), "pushed")
    assert (pushed["unit"], pushed["target"]) == (g.unit("Ben 2"), g.unit("Ben 1"))


def test_a_reaction_without_a_target_still_answers_the_acting_model() -> None:
    """l. 65 allows any target; the API keeps its default: a strike or push named without a
    target is aimed at the acting model, and an attack still needs an enemy."""
    g = started()
    g.do("declare", unit=g.unit("Anna 1"), action="walk")
    g.refused(
        "react", "not_an_enemy", unit=g.unit("Ben 1"), action="strike", target=g.unit("Ben 2")
    )
    g.do("react", unit=g.unit("Ben 1"), action="strike")
    assert g.state.pending.reactions[0].target == g.unit("Anna 1")


# --- Further contradictions found against the rulebook ------------------------------------------


def test_only_the_other_player_reacts_to_a_passive_npc_move() -> None:
    """l. 69-71: "Der aktive Spieler bestimmt eine Einheit/ein Modell für eine Aktion" and "Der
    passive Spieler sagt seine Reaktionen ... an": the player who moves a passive NPC is the
    active player, so only the other player's models react to that move (the app let the
    mover's own models react to it, a free action in the NPC phase)."""
    g = passive_npc_moves(npc_game())
    g.do("move_npc", unit=g.unit("Bürger 1"), action="walk")
    assert g.state.pending.reacting == (1,)
    g.refused("react", "not_reacting_side", unit=g.unit("Anna 2"), action="block")
    g.do("react", unit=g.unit("Ben 2"), action="block")
    resolve_all(g)
    assert g.state.turn == 1 and g.model("Ben 2").blocking and not g.model("Anna 2").blocking


def test_a_passive_npc_may_take_its_scenario_action_instead_of_moving() -> None:
    """l. 148: "NPCs können nur NPC-Aktionen durchführen (siehe Szenario-Regeln) oder sich
    bewegen": the player whose turn it is lets a passive NPC take its scenario action (the app
    only offered moves)."""
    g = passive_npc_moves(npc_game())
    g.do("move_npc", unit=g.unit("Bürger 1"), action="npc_action", note="ruft die Wache")
    events = g.do("resolve")
    assert g.types(events) == ["action_resolved", "item_used", "npc_moved"]
    assert g.event(events, "item_used")["note"] == "ruft die Wache"
    assert g.model("Bürger 1").activated and g.state.turn == 1
    g.refused("move_npc", "npc_already_moved", unit=g.unit("Bürger 1"), action="npc_action")


def test_an_active_npc_may_react_with_its_scenario_action() -> None:
    """l. 65: "Szenario-NPCs dürfen mit ihren Aktionen in der Spielerphase reagieren": with the
    actions the scenario gives them too, not only with the table's simple actions."""
    g = npc_game()
    g.do("declare", unit=g.unit("Anna 1"), action="walk")
    g.refused("react", "npc_only", unit=g.unit("Ben 1"), action="npc_action")
    g.do("react", unit=g.unit("Hund"), action="npc_action", note="bellt")
    used = g.event(g.do("resolve"), "item_used")
    assert (used["unit"], used["action"], used["note"]) == (g.unit("Hund"), "npc_action", "bellt")
    assert g.model("Hund").reacted


def test_a_moves_range_is_rolled_before_the_reactions_are_carried_out() -> None:
    """Bewegung l. 84-86: "3. Reichweiten prüfen/bestimmen 4. Die Reaktionen wird durchgeführt
    5. Die Bewegung wird durchgeführt": a sprint's 2W6+B is rolled before the first reaction is
    carried out, so the table knows the range when it resolves the reactions (the app rolled it
    with the move, after them)."""
    g = started()
    g.do("declare", unit=g.unit("Anna 1"), action="sprint")
    g.do("react", unit=g.unit("Ben 1"), action="push", target=g.unit("Anna 1"))
    first = g.dice(2, 3, 4).do("resolve")
    assert g.types(first)[:3] == ["range_rolled", "reaction_resolved", "pushed"]
    ranged = g.event(first, "range_rolled")
    assert (ranged["roll"]["dice"], ranged["distance"]) == ([2, 3], 9)
    assert g.event(first, "pushed")["roll"]["dice"] == [4]
    moved = g.event(g.do("resolve"), "moved")  # no die is left queued: none is rolled
    assert moved["distance"] == 9 and "roll" not in moved


def test_a_move_without_reactions_rolls_its_range_with_the_move() -> None:
    """l. 84-86 with no reaction to carry out: determining the range and moving are one step."""
    g = started()
    g.do("declare", unit=g.unit("Anna 1"), action="sprint")
    events = g.dice(2, 3).do("resolve")
    assert "range_rolled" not in g.types(events)
    assert g.event(events, "moved")["distance"] == 9


# --- Attacks: what is measured after the reactions ---------------------------------------------


def gunfight() -> Game:
    """The Schütze (pistol ready, 2 attack dice) against Ben 1 and Ben 2; the Schütze begins."""
    gunner = profile("Schütze", weapons=[PISTOL, SWORD])
    return Game(setup([[model(gunner)], [model(profile("Ben"))] * 2])).begin()


def test_the_attack_dice_modifier_is_determined_after_the_reactions() -> None:
    """Fernkampf l. 126-127: "3. Reaktionen durchführen 4. Reichweite messen und Modifikator
    bestimmen": the range is measured once the reactions are done, so the modifier the table
    names when the shot is resolved counts, not a guess made when it was declared."""
    g = gunfight()
    g.do("declare", unit=g.unit("Schütze"), action="shoot", target=g.unit("Ben 1"), modifier=1)
    g.do("react", unit=g.unit("Ben 1"), action="walk")
    g.do("resolve")
    events = g.dice(1).do("resolve", modifier=-1)
    assert g.event(events, "attacked")["attack_dice"] == 1  # the pistol's 2, -1
    assert g.event(events, "action_resolved")["modifier"] == -1


def test_a_melee_attack_may_be_redirected_after_the_reactions() -> None:
    """Nahkampf l. 114-116: "4. Angriffsdistanz würfeln/messen ... 5. optional: Angreifer
    bewegen / ausrichten / Angriff umlenken 6. Schlagabtausch durchführen": after the reactions
    the attacker may turn its attack on another model."""
    g = started()
    g.do("declare", unit=g.unit("Anna 1"), action="charge", target=g.unit("Ben 1"))
    g.do("react", unit=g.unit("Ben 1"), action="walk")
    g.do("resolve")
    g.refused("resolve", "not_an_enemy", target=g.unit("Anna 2"))
    events = g.dice(1, 1, 1).do("resolve", target=g.unit("Ben 2"))
    assert g.event(events, "moved")["target"] == g.unit("Ben 2")
    assert g.event(events, "attacked")["target"] == g.unit("Ben 2")
    assert g.model("Anna 1").engaged == (g.unit("Ben 2"),) and not g.model("Ben 1").engaged


def test_only_a_melee_attack_is_redirected_and_only_an_attack_takes_a_modifier() -> None:
    """Angriff umlenken is a step of the Nahkampf (l. 115) only; the Fernkampf (l. 124-128)
    keeps its target."""
    g = gunfight()
    g.do("declare", unit=g.unit("Schütze"), action="shoot", target=g.unit("Ben 1"))
    g.refused("resolve", "redirect_melee_only", target=g.unit("Ben 2"))
    g.refused("resolve", "invalid_args", possible=False, modifier=1)
    g.dice(1, 1).do("resolve")
    g.do("declare", unit=g.unit("Ben 1"), action="walk")
    g.refused("resolve", "modifier_attack_only", modifier=1)
