"""The action and movement tables, row by row, against the rulebook.

Expected values are typed in from the German rulebook (grundregeln.de.txt): the table under
"Aktion und Reaktion / Aktionstypen" (Aktion, Typ) and the table under "Grundaktionen /
Bewegung / Reichweite" (Bewegung, Reichweite, Typ, Einschränkung), B being the model's
Bewegungswert.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from apps.systems.grundregeln.tables import (
    ACTION_BY_KEY,
    ACTIONS,
    FLEEING_ACTIONS,
    MELEE_MOVES,
    NPC_MOVES,
    Action,
    ActionType,
    Effect,
    action,
)

EINFACH, KOMPLEX = ActionType.SIMPLE, ActionType.COMPLEX
TYP = {"einfach": EINFACH, "komplex": KOMPLEX}

# "Aktionstypen": every row but "Bewegen  siehe Bewegung", with the bracketed remark the
# rulebook prints after some names left out of the name.
AKTIONSTYPEN = """
Waffe wechseln|einfach
Schubsen|einfach
Zuschlagen|einfach
Schießen|einfach
Langsames Nachladen|komplex
Schnelles Nachladen|einfach
Moral wiederherstellen|komplex
Gegenstand nutzen / aufheben / fallen lassen|einfach
Gegenstand weitergeben|einfach
Blocken|einfach
"""

# "Reichweite" (movement kinds): Bewegung | Reichweite | Typ, exactly as printed.
BEWEGUNG = """
Ausrichten|0|einfach
Laufen|B|einfach
Lösen|B|einfach
Marsch|2xB|komplex
Rennen / Sprinten|2W6+B|komplex
Angriff|2xB|komplex
Laufen und Schießen|B|komplex
Flucht|W6+B|einfach
Verfolgung|W6+B|komplex
Klettern|1/2 B|komplex
Fallen|0 B|einfach
Durchquetschen|1/2 B|einfach
"""

# "Fallen" is something that happens to a model, not an action a player chooses: the app
# resolves it with its own "fall" command (distance × 1W6 attack dice, full armour), so it is
# the one printed row that is not in ACTIONS.
NOT_AN_ACTION = {"Fallen"}


def rows(printed: str) -> list[list[str]]:
    return [line.split("|") for line in printed.strip().splitlines()]


def reach(printed: str) -> tuple[Fraction, int]:
    """A printed Reichweite as (multiple of B, d6 rolled): "2xB" is (2, 0), "W6+B" is (1, 1)."""
    text = printed.replace(" ", "")
    if text in ("0", "0B"):
        return Fraction(0), 0
    if "W6+" in text:
        count, rest = text.split("W6+")
        assert rest == "B"
        return Fraction(1), int(count or 1)
    factor = text.removesuffix("B").removesuffix("x")
    return Fraction(factor or 1), 0


def by_name(name: str) -> Action:
    [found] = [a for a in ACTIONS if a.name == name]
    return found


def test_reach_reads_the_printed_notation() -> None:
    assert reach("0") == (0, 0)
    assert reach("B") == (1, 0)
    assert reach("2xB") == (2, 0)
    assert reach("2W6+B") == (1, 2)
    assert reach("W6+B") == (1, 1)
    assert reach("1/2 B") == (Fraction(1, 2), 0)


@pytest.mark.parametrize(("name", "typ"), rows(AKTIONSTYPEN), ids=lambda v: v)
def test_action_type_as_printed(name: str, typ: str) -> None:
    found = by_name(name)
    assert found.type is TYP[typ]
    assert not found.movement  # "Bewegen" is its own table


MOVES = [row for row in rows(BEWEGUNG) if row[0] not in NOT_AN_ACTION]


@pytest.mark.parametrize(("name", "printed", "typ"), MOVES, ids=lambda v: v)
def test_movement_reach_and_type_as_printed(name: str, printed: str, typ: str) -> None:
    found = by_name(name)
    factor, dice = reach(printed)
    assert found.type is TYP[typ]
    assert found.movement
    assert found.dice == dice
    if dice:
        # 2W6+B and W6+B: the d6 are added to B once.
        assert found.distance == 1
    else:
        assert Fraction(found.distance) == factor


def test_every_printed_row_is_an_action_and_nothing_else_is() -> None:
    printed = {row[0] for row in rows(AKTIONSTYPEN) + rows(BEWEGUNG)} - NOT_AN_ACTION
    assert sorted(a.name for a in ACTIONS) == sorted(printed)
    assert not NOT_AN_ACTION & {a.name for a in ACTIONS}


def test_every_simple_action_and_only_those_may_be_a_reaction() -> None:
    # "Jede einfache Aktion kann als Reaktion genutzt werden."
    for each in ACTIONS:
        assert each.reaction is (each.type is EINFACH), each.key


@pytest.mark.parametrize(
    ("name", "weapon"),
    [
        ("Zuschlagen", "melee"),
        ("Schießen", "ranged"),
        # "Sturmangriff in Richtung eines Ziels, analog zu Marsch und Zuschlagen"
        ("Angriff", "melee"),
        # "In Richtung eines Ziels, analog zu Laufen" -- and shooting
        ("Laufen und Schießen", "ranged"),
    ],
)
def test_attacking_actions_and_their_weapon(name: str, weapon: str) -> None:
    found = by_name(name)
    assert found.effect is Effect.ATTACK
    assert found.weapon == weapon
    assert found.target


def test_only_the_attacking_actions_attack() -> None:
    attacking = {a.name for a in ACTIONS if a.effect is Effect.ATTACK or a.weapon}
    assert attacking == {"Zuschlagen", "Schießen", "Angriff", "Laufen und Schießen"}


@pytest.mark.parametrize(
    ("name", "effect"),
    [
        ("Schubsen", Effect.PUSH),
        ("Waffe wechseln", Effect.SWITCH_WEAPON),
        ("Langsames Nachladen", Effect.RELOAD),
        ("Schnelles Nachladen", Effect.RELOAD),
        ("Moral wiederherstellen", Effect.RESTORE_MORALE),
        ("Blocken", Effect.BLOCK),
        ("Lösen", Effect.DISENGAGE),
        ("Gegenstand nutzen / aufheben / fallen lassen", Effect.NONE),
        ("Gegenstand weitergeben", Effect.NONE),
    ],
)
def test_effect_of_the_other_actions(name: str, effect: Effect) -> None:
    assert by_name(name).effect is effect


@pytest.mark.parametrize(
    "name",
    [
        "Schubsen",  # "W6 von aktiven Modell weg": the pushed model is named
        "Gegenstand weitergeben",  # "innerhalb 1": to another model
        "Verfolgung",  # "In Richtung des Fliehenden"
        "Angriff",
        "Laufen und Schießen",
        "Zuschlagen",
        "Schießen",
    ],
)
def test_actions_that_name_another_model(name: str) -> None:
    assert by_name(name).target


def test_no_other_action_names_a_target() -> None:
    targeted = {a.name for a in ACTIONS if a.target}
    assert targeted == {
        "Schubsen",
        "Gegenstand weitergeben",
        "Verfolgung",
        "Angriff",
        "Laufen und Schießen",
        "Zuschlagen",
        "Schießen",
    }


def test_keys_are_unique_and_looked_up() -> None:
    assert len(ACTION_BY_KEY) == len(ACTIONS)
    for each in ACTIONS:
        assert action(each.key) is each
    assert action("fall") is None
    assert action("") is None


def test_labels_begin_with_the_rulebook_name() -> None:
    # The German UI shows the name; the English gloss follows in brackets.
    for each in ACTIONS:
        assert each.label.startswith(each.name + " ("), each.key


def test_lösen_is_the_only_walking_move_out_of_melee() -> None:
    # "Lösen ... aus Nahkampf"; a model stays in melee "bis Gegner eliminiert oder aus Nahkampf
    # gelöst": besides Lösen only turning on the spot (Ausrichten, reach 0) and a flight
    # (Flucht, after a failed morale test) let a model in melee move.
    assert {ACTION_BY_KEY[key].name for key in MELEE_MOVES} == {"Ausrichten", "Lösen", "Flucht"}


def test_fleeing_models_may_only_move_or_rally() -> None:
    assert ACTION_BY_KEY["restore_morale"].name == "Moral wiederherstellen"
    for key in FLEEING_ACTIONS - {"restore_morale"}:
        found = ACTION_BY_KEY[key]
        assert found.effect is Effect.MOVE, key
        assert not found.target, key  # a fleeing model chases nobody (not Verfolgung)


def test_npcs_only_move() -> None:
    # NPC-Phase: "NPCs können nur NPC-Aktionen durchführen ... oder sich bewegen".
    assert len(set(NPC_MOVES)) == len(NPC_MOVES)
    for key in NPC_MOVES:
        found = ACTION_BY_KEY[key]
        assert found.effect is Effect.MOVE, key
        assert not found.target, key
    # Flight follows a failed morale test, which NPCs do not take.
    assert "flee" not in NPC_MOVES
