"""Deathmatch team building (SPEC §1.2): every rule with a legal and an illegal team."""

from __future__ import annotations

import pytest

from apps.systems.core.errors import RuleViolation
from apps.systems.deathmatch.catalog import Catalog, Rank
from apps.systems.deathmatch.roster import (
    FighterCount,
    FighterOption,
    Issue,
    ItemOption,
    RankCount,
    Roster,
    RosterEntry,
    fighter_options,
    item_options,
    totals,
    validate_roster,
)
from tests.systems.deathmatch.conftest import catalog_of, fighter, roster_of

SMALL = ("org-leader", "org-trooper", "org-specialist")
STANDARD = ("org-leader", "org-trooper", "org-trooper", "org-specialist", "org-specialist")


def codes(issues: tuple[Issue, ...]) -> list[str]:
    return [issue.code for issue in issues]


def only(issues: tuple[Issue, ...], code: str) -> list[Issue]:
    return [issue for issue in issues if issue.code == code]


# --- A legal team ----------------------------------------------------------------------------


@pytest.mark.parametrize("size", [3, 5, 7])
def test_team_with_the_exact_ranks_is_legal(catalog: Catalog, size: int) -> None:
    per_rank = (size - 1) // 2
    roster = roster_of(
        "org-leader",
        RosterEntry("org-trooper", count=per_rank),
        RosterEntry("org-specialist", count=per_rank),
        size=size,
    )
    assert validate_roster(roster, catalog) == ()


# --- Rank counts -----------------------------------------------------------------------------


def test_rank_count_standard_needs_two_troopers(catalog: Catalog) -> None:
    roster = roster_of(
        "org-leader", "org-trooper", "org-trooper", "org-trooper", "org-specialist", size=5
    )
    issues = only(validate_roster(roster, catalog), "rank_count")
    assert [issue.message for issue in issues] == [
        "Rank count: the team needs exactly 2 Troopers for game size 5, it has 3.",
        "Rank count: the team needs exactly 2 Specialists (Spezialisten) for game size 5, "
        "it has 1.",
    ]
    assert all(issue.entry is None for issue in issues)


def test_rank_count_small_needs_one_of_each(catalog: Catalog) -> None:
    roster = roster_of("org-leader", "org-trooper", "org-trooper", size=3)
    messages = [issue.message for issue in only(validate_roster(roster, catalog), "rank_count")]
    assert messages == [
        "Rank count: the team needs exactly 1 Trooper for game size 3, it has 2.",
        "Rank count: the team needs exactly 1 Specialist (Spezialist) for game size 3, it has 0.",
    ]


def test_rank_count_large_needs_three_troopers_and_three_specialists(catalog: Catalog) -> None:
    roster = roster_of(
        "org-leader",
        RosterEntry("org-trooper", count=2),
        RosterEntry("org-specialist", count=2),
        size=7,
    )
    issues = only(validate_roster(roster, catalog), "rank_count")
    assert [(issue.params["need"], issue.params["have"]) for issue in issues] == [(3, 2), (3, 2)]


def test_rank_count_needs_exactly_one_leader(catalog: Catalog) -> None:
    two = roster_of("org-leader", "org-leader", "org-specialist", size=3)
    none = roster_of("org-trooper", "org-specialist", size=3)
    assert [issue.message for issue in only(validate_roster(two, catalog), "rank_count")][0] == (
        "Rank count: the team needs exactly 1 Leader (Anführer) for game size 3, it has 2."
    )
    assert only(validate_roster(none, catalog), "rank_count")[0].params["have"] == 0


def test_specialists_exceed_troopers_is_refused(catalog: Catalog) -> None:
    roster = roster_of(
        "org-leader", "org-trooper", "org-specialist", "org-specialist", "org-specialist", size=5
    )
    issues = validate_roster(roster, catalog)
    (issue,) = only(issues, "specialists_exceed_troopers")
    assert issue.message == (
        "Specialists: a team may never have more Specialists (Spezialisten) than Troopers "
        "(Specialists: 3, Troopers: 1)."
    )
    # The table is broken too, and both are listed.
    assert codes(issues).count("rank_count") == 2


def test_specialists_exceed_troopers_even_when_the_ranks_are_otherwise_unchecked(
    catalog: Catalog,
) -> None:
    roster = roster_of("org-leader", "org-specialist", size=4)
    assert "specialists_exceed_troopers" in codes(validate_roster(roster, catalog))


def test_specialists_exceed_troopers_not_with_as_many_as_troopers(catalog: Catalog) -> None:
    roster = roster_of(*STANDARD, size=5)
    assert "specialists_exceed_troopers" not in codes(validate_roster(roster, catalog))


# --- Mercenaries -----------------------------------------------------------------------------


def test_fighter_listing_team_faction_is_not_a_mercenary(catalog: Catalog) -> None:
    roster = roster_of("org-leader", "veteran", "org-specialist")
    assert validate_roster(roster, catalog) == ()
    assert totals(roster, catalog).mercenaries == 0


def test_fighter_of_another_faction_is_a_mercenary_and_keeps_its_rank(catalog: Catalog) -> None:
    roster = roster_of("org-leader", "pha-trooper", "org-specialist")
    assert validate_roster(roster, catalog) == ()
    result = totals(roster, catalog)
    assert result.mercenaries == 1
    assert result.ranks[1] == RankCount(Rank.TROOPER, 1, 1)


@pytest.mark.parametrize(("size", "allowed"), [(3, 1), (5, 2), (7, 3)])
def test_mercenary_limit_allows_one_two_three(catalog: Catalog, size: int, allowed: int) -> None:
    per_rank = (size - 1) // 2
    entries = [RosterEntry("org-leader"), RosterEntry("pha-trooper", count=allowed)]
    if per_rank > allowed:
        entries.append(RosterEntry("org-trooper", count=per_rank - allowed))
    entries.append(RosterEntry("org-specialist", count=per_rank))
    at_limit = roster_of(*entries, size=size)
    assert validate_roster(at_limit, catalog) == ()
    assert totals(at_limit, catalog).mercenaries_allowed == allowed


def test_mercenary_limit_is_refused_for_the_mercenary_beyond_it(catalog: Catalog) -> None:
    roster = roster_of(
        "org-leader",
        "pha-trooper",
        "pha-specialist",
        RosterEntry("pha-trooper", name="Kael"),
        "org-specialist",
        size=5,
    )
    (issue,) = only(validate_roster(roster, catalog), "mercenary_limit")
    assert issue.entry == 3
    assert issue.message == (
        "Kael is one Söldner (mercenary) too many: at most 2 for game size 5, the team has 3."
    )


def test_mercenary_leader_is_refused(catalog: Catalog) -> None:
    roster = roster_of(RosterEntry("pha-leader", name="Kael"), "org-trooper", "org-specialist")
    (issue,) = only(validate_roster(roster, catalog), "mercenary_leader")
    assert issue.entry == 0
    assert issue.message == (
        "Kael is a Söldner (mercenary) leader: only Troopers and Specialists may come from "
        "another faction."
    )


def test_mercenary_leader_not_for_a_leader_of_the_team_faction(catalog: Catalog) -> None:
    roster = roster_of("org-leader", "org-trooper", "org-specialist")
    assert "mercenary_leader" not in codes(validate_roster(roster, catalog))


def test_mercenary_leader_names_the_profile_without_a_nickname(catalog: Catalog) -> None:
    roster = roster_of("pha-leader", "org-trooper", "org-specialist")
    (issue,) = only(validate_roster(roster, catalog), "mercenary_leader")
    assert issue.message.startswith("Brandt is a Söldner (mercenary) leader")


# --- Heroes ----------------------------------------------------------------------------------


def test_hero_duplicate_is_refused(catalog: Catalog) -> None:
    roster = roster_of("org-leader", "org-trooper", "org-trooper", "org-hero", "org-hero")
    (issue,) = only(validate_roster(roster, catalog), "hero_duplicate")
    assert issue.entry == 4
    assert issue.message == (
        "Anzi: the hero Anzi may be hired only once per team, and is already in it."
    )


def test_a_hero_is_never_a_mercenary(catalog: Catalog) -> None:
    # SPEC §6, rulebook l. 180: "... auch wenn Top-Stars und erfahrene Veteranen natürlich
    # stets dem eigenen Team vorbehalten bleiben."
    roster = roster_of(
        "pha-leader", "pha-trooper", RosterEntry("org-hero", name="Anzi"), faction="phalanx"
    )
    (issue,) = only(validate_roster(roster, catalog), "hero_mercenary")
    assert issue.entry == 2
    assert issue.message == (
        "Anzi is a hero (Held) of another faction: heroes are never hired as Söldner (mercenaries)."
    )
    assert "hero_mercenary" not in codes(
        validate_roster(roster_of(*SMALL[:2], "org-hero"), catalog)
    )


def test_a_foreign_hero_option_is_disabled_as_hero_mercenary(catalog: Catalog) -> None:
    options = fighter_options(Roster("phalanx", 5, ()), catalog)
    assert reason(fighter_option(options, "org-hero")).code == "hero_mercenary"


def test_hero_duplicate_counts_an_entry_of_two(catalog: Catalog) -> None:
    roster = roster_of(
        "org-leader", RosterEntry("org-trooper", count=2), RosterEntry("org-hero", count=2)
    )
    assert [issue.entry for issue in only(validate_roster(roster, catalog), "hero_duplicate")] == [
        2
    ]


def test_hero_duplicate_not_for_one_hero_per_team(catalog: Catalog) -> None:
    roster = roster_of("org-leader", "org-trooper", "org-hero")
    assert validate_roster(roster, catalog) == ()


def test_hero_character_upgrade_is_refused(catalog: Catalog) -> None:
    roster = roster_of(
        "org-leader", "org-trooper", RosterEntry("org-hero", items=("stims", "panzerplatten"))
    )
    (issue,) = validate_roster(roster, catalog)
    assert issue.code == "hero_character_upgrade"
    assert issue.entry == 2
    assert issue.message == "Anzi is a hero (Held) and may not take the character upgrade Stims."


def test_hero_character_upgrade_is_fine_for_a_non_hero(catalog: Catalog) -> None:
    roster = roster_of("org-leader", "org-trooper", RosterEntry("org-specialist", items=("stims",)))
    assert validate_roster(roster, catalog) == ()


# --- Equipment points ------------------------------------------------------------------------


def test_arp_overspent_is_refused(catalog: Catalog) -> None:
    # Pool 2 + 2 + 3 = 7; eight points of equipment.
    roster = roster_of(
        RosterEntry("org-leader", items=("panzerplatten", "medkit")),
        RosterEntry("org-trooper", items=("panzerplatten", "pistole")),
        RosterEntry("org-specialist", items=("panzerplatten",)),
    )
    (issue,) = validate_roster(roster, catalog)
    assert issue.code == "arp_overspent"
    assert issue.entry is None
    assert issue.message == (
        "Equipment points: the equipment costs 8 ARP, the team has only 7 ARP."
    )


def test_arp_overspent_not_when_spending_the_whole_pool(catalog: Catalog) -> None:
    roster = roster_of(
        RosterEntry("org-leader", items=("panzerplatten", "medkit")),
        RosterEntry("org-trooper", items=("panzerplatten",)),
        RosterEntry("org-specialist", items=("panzerplatten",)),
    )
    assert validate_roster(roster, catalog) == ()
    assert totals(roster, catalog).arp_left == 0


def test_unspent_arp_is_not_an_issue(catalog: Catalog) -> None:
    roster = roster_of(*SMALL)
    assert validate_roster(roster, catalog) == ()
    assert totals(roster, catalog).arp_left == 7


def test_equipment_of_an_entry_of_two_is_paid_twice(catalog: Catalog) -> None:
    roster = roster_of(
        "org-leader",
        RosterEntry("org-trooper", items=("panzerplatten",), count=2),
        RosterEntry("org-specialist", count=2),
    )
    assert totals(roster, catalog).arp_spent == 4


def test_last_man_standing_bonus_makes_the_extra_equipment_legal(catalog: Catalog) -> None:
    # Pool 2 + 1 + 3 = 6 (+1 for the Mech in Last Man Standing); seven points of equipment.
    roster = roster_of(
        RosterEntry("org-leader", items=("panzerplatten", "medkit")),
        RosterEntry("org-mech", items=("panzerplatten",)),
        RosterEntry("org-specialist", items=("panzerplatten",)),
    )
    assert codes(validate_roster(roster, catalog)) == ["arp_overspent"]
    assert validate_roster(roster, catalog, last_man_standing=True) == ()


# --- Card limits -----------------------------------------------------------------------------


def test_item_limit_per_model_is_refused(catalog: Catalog) -> None:
    roster = roster_of(
        "org-leader",
        RosterEntry("org-trooper", items=("medkit", "medkit"), name="Kael"),
        "org-specialist",
    )
    (issue,) = validate_roster(roster, catalog)
    assert (issue.code, issue.entry) == ("item_limit", 1)
    assert issue.message == "Kael carries 2 × Medkit; the card allows at most 1 per model."


def test_item_limit_allows_the_cards_number_of_copies(catalog: Catalog) -> None:
    roster = roster_of(
        "org-leader", RosterEntry("org-trooper", items=("stims", "stims")), "org-specialist"
    )
    assert validate_roster(roster, catalog) == ()


def test_item_limit_counts_per_model_not_per_team(catalog: Catalog) -> None:
    roster = roster_of(
        RosterEntry("org-leader", items=("medkit",)),
        RosterEntry("org-trooper", items=("medkit",)),
        RosterEntry("org-specialist", items=("medkit",)),
    )
    assert validate_roster(roster, catalog) == ()


# --- Respawn-Fokus ---------------------------------------------------------------------------


def test_leader_respawn_focus_is_implicit_and_free(catalog: Catalog) -> None:
    roster = roster_of(*SMALL)
    assert validate_roster(roster, catalog) == ()
    assert totals(roster, catalog).arp_spent == 0


def test_respawn_focus_free_is_refused(catalog: Catalog) -> None:
    roster = roster_of(
        "org-leader", RosterEntry("org-trooper", items=("respawn-fokus",)), "org-specialist"
    )
    (issue,) = validate_roster(roster, catalog)
    assert (issue.code, issue.entry) == ("respawn_focus_free", 1)
    assert issue.message == (
        "Klon: the Respawn Fokus is not for sale; the leader carries one for free."
    )


def test_respawn_focus_free_not_for_a_focus_with_a_price(catalog: Catalog) -> None:
    roster = roster_of(
        "org-leader", RosterEntry("org-trooper", items=("extra-fokus",)), "org-specialist"
    )
    assert validate_roster(roster, catalog) == ()
    assert totals(roster, catalog).arp_spent == 2


# --- What the catalogue does not know --------------------------------------------------------


def test_unknown_profile_is_refused(catalog: Catalog) -> None:
    roster = roster_of("org-leader", "org-trooper", "ghost")
    issues = validate_roster(roster, catalog)
    (issue,) = only(issues, "unknown_profile")
    assert issue.entry == 2
    assert issue.message == "ghost: the catalogue has no fighter profile ghost."
    # The unknown fighter counts in no rank.
    assert only(issues, "rank_count")[0].params["have"] == 0


def test_unknown_item_is_refused_and_costs_nothing(catalog: Catalog) -> None:
    roster = roster_of("org-leader", RosterEntry("org-trooper", items=("laser",)), "org-specialist")
    (issue,) = validate_roster(roster, catalog)
    assert (issue.code, issue.entry) == ("unknown_item", 1)
    assert issue.message == "Klon: the catalogue has no equipment card laser."
    assert totals(roster, catalog).arp_spent == 0


def test_unknown_profile_and_unknown_item_not_for_catalogue_cards(catalog: Catalog) -> None:
    roster = roster_of(RosterEntry("org-leader", items=("medkit",)), "org-trooper")
    assert {"unknown_profile", "unknown_item"}.isdisjoint(codes(validate_roster(roster, catalog)))


def test_unknown_faction_is_refused_without_mercenary_noise(catalog: Catalog) -> None:
    roster = roster_of(*SMALL, faction="atlantis")
    issues = validate_roster(roster, catalog)
    assert codes(issues) == ["unknown_faction"]
    assert issues[0].message == "Faction: the catalogue has no faction atlantis."


@pytest.mark.parametrize("size", [0, 4, 9])
def test_game_size_must_be_three_five_or_seven(catalog: Catalog, size: int) -> None:
    roster = roster_of(*SMALL, size=size)
    issues = validate_roster(roster, catalog)
    assert codes(issues) == ["game_size"]
    assert issues[0].message == f"Game size: a team has 3, 5 or 7 fighters, not {size}."


@pytest.mark.parametrize("count", [0, -1, 8])
def test_count_invalid_is_refused(catalog: Catalog, count: int) -> None:
    roster = roster_of(
        "org-leader", "org-trooper", RosterEntry("org-specialist", count=count), size=3
    )
    (issue,) = only(validate_roster(roster, catalog), "count_invalid")
    assert issue.entry == 2
    assert issue.message == (f"Techniker: the number of such fighters must be 1 to 7, not {count}.")


def test_count_invalid_not_for_two_fighters_in_one_entry(catalog: Catalog) -> None:
    roster = roster_of(
        "org-leader", RosterEntry("org-trooper", count=2), RosterEntry("org-specialist", count=2)
    )
    assert validate_roster(roster, catalog) == ()
    assert totals(roster, catalog).fighters == FighterCount(5, 5)


# --- Listing ---------------------------------------------------------------------------------


def test_every_issue_is_listed_team_first_then_by_entry_then_code(catalog: Catalog) -> None:
    roster = roster_of(
        RosterEntry("pha-leader", items=("medkit", "medkit", "laser")),
        "org-hero",
        RosterEntry("org-hero", items=("stims",)),
        "ghost",
        size=5,
    )
    issues = validate_roster(roster, catalog)
    assert [(issue.entry, issue.code) for issue in issues] == [
        (None, "rank_count"),  # no Troopers; the one Leader and two Specialists are right
        (None, "specialists_exceed_troopers"),
        (0, "item_limit"),
        (0, "mercenary_leader"),
        (0, "unknown_item"),
        (2, "hero_character_upgrade"),
        (2, "hero_duplicate"),
        (3, "unknown_profile"),
    ]
    assert issues == validate_roster(roster, catalog)


def test_issue_keeps_template_and_params_for_translation(catalog: Catalog) -> None:
    roster = roster_of("pha-leader", "org-trooper", "org-specialist")
    (issue,) = validate_roster(roster, catalog)
    assert issue.template == (
        "%(fighter)s is a Söldner (mercenary) leader: only Troopers and Specialists may come "
        "from another faction."
    )
    assert issue.params == {"fighter": "Brandt"}
    assert issue.as_dict() == {"code": "mercenary_leader", "message": issue.message, "entry": 0}


# --- Totals ----------------------------------------------------------------------------------


def test_harmony_bonus_for_single_faction_team(catalog: Catalog) -> None:
    result = totals(roster_of(*SMALL), catalog)
    assert result.harmony_bonus == 1
    assert result.command_points == 3 + 0 + 1 + 1


def test_harmony_bonus_counts_a_veteran_of_the_team_faction(catalog: Catalog) -> None:
    assert totals(roster_of("org-leader", "veteran", "org-specialist"), catalog).harmony_bonus == 1


def test_no_harmony_bonus_with_a_mercenary(catalog: Catalog) -> None:
    result = totals(roster_of("org-leader", "pha-trooper", "org-specialist"), catalog)
    assert result.harmony_bonus == 0
    assert result.command_points == 4


def test_no_harmony_bonus_for_an_empty_team(catalog: Catalog) -> None:
    result = totals(Roster("organon", 3, ()), catalog)
    assert (result.harmony_bonus, result.command_points) == (0, 0)


def test_no_harmony_bonus_with_an_unknown_fighter(catalog: Catalog) -> None:
    assert totals(roster_of("org-leader", "ghost", "org-specialist"), catalog).harmony_bonus == 0


@pytest.mark.parametrize(("mechs", "bonus"), [(0, 0), (1, 1), (2, 1), (3, 2), (4, 2)])
def test_last_man_standing_adds_half_arp_per_mech_rounded_up(mechs: int, bonus: int) -> None:
    catalog = catalog_of(
        [
            fighter("leader", Rank.LEADER, arp=2),
            fighter("mech", Rank.TROOPER, arp=1, mech=True),
            fighter("trooper", Rank.TROOPER, arp=1),
        ]
    )
    roster = roster_of(
        "leader", RosterEntry("mech", count=mechs), RosterEntry("trooper", count=4 - mechs), size=5
    )
    normal = totals(roster, catalog)
    last_man_standing = totals(roster, catalog, last_man_standing=True)
    assert normal.arp_pool == 2 + 4
    assert last_man_standing.arp_pool == 2 + 4 + bonus
    assert last_man_standing.arp_left == last_man_standing.arp_pool


def test_totals_count_ranks_fighters_and_arp(catalog: Catalog) -> None:
    roster = roster_of(
        RosterEntry("org-leader", items=("panzerplatten",)),
        "pha-trooper",
        RosterEntry("org-specialist", items=("medkit", "stims")),
        "org-specialist",
        size=5,
    )
    result = totals(roster, catalog)
    assert result.ranks == (
        RankCount(Rank.LEADER, 1, 1),
        RankCount(Rank.TROOPER, 1, 2),
        RankCount(Rank.SPECIALIST, 2, 2),
    )
    assert result.fighters == FighterCount(4, 5)
    assert (result.arp_pool, result.arp_spent, result.arp_left) == (9, 4, 5)
    assert (result.mercenaries, result.mercenaries_allowed) == (1, 2)


def test_totals_show_overspending_as_negative_arp_left(catalog: Catalog) -> None:
    roster = roster_of(RosterEntry("pha-trooper", items=("panzerplatten",)), size=3)
    assert totals(roster, catalog).arp_left == -1


def test_totals_as_dict_has_the_api_keys(catalog: Catalog) -> None:
    data = totals(roster_of(*SMALL), catalog).as_dict()
    assert {"arp_pool", "arp_spent", "command_points", "mercenaries"} <= set(data)
    assert data["ranks"] == {
        "leader": {"have": 1, "need": 1},
        "trooper": {"have": 1, "need": 1},
        "specialist": {"have": 1, "need": 1},
    }
    assert data["fighters"] == {"have": 3, "need": 3}


def test_totals_need_nothing_for_an_unknown_game_size(catalog: Catalog) -> None:
    result = totals(roster_of(*SMALL, size=4), catalog)
    assert result.fighters == FighterCount(3, 0)
    assert all(count.need == 0 for count in result.ranks)
    assert result.mercenaries_allowed == 0


# --- Builder options -------------------------------------------------------------------------


def fighter_option(options: tuple[FighterOption, ...], slug: str) -> FighterOption:
    return next(option for option in options if option.profile == slug)


def item_option(options: tuple[ItemOption, ...], slug: str) -> ItemOption:
    return next(option for option in options if option.item == slug)


def reason(option: FighterOption | ItemOption) -> Issue:
    """The reason of a disabled option (and a check that it is disabled)."""
    assert not option.allowed
    assert option.reason is not None
    return option.reason


def test_fighter_options_list_the_team_faction_first_then_mercenaries(catalog: Catalog) -> None:
    options = fighter_options(Roster("organon", 5, ()), catalog)
    assert [(option.profile, option.mercenary) for option in options] == [
        ("org-leader", False),
        ("org-mech", False),
        ("org-trooper", False),
        ("veteran", False),
        ("org-hero", False),
        ("org-specialist", False),
        ("pha-leader", True),
        ("pha-trooper", True),
        ("pha-specialist", True),
        ("pha-mech", True),
    ]
    assert [option.profile for option in options if not option.allowed] == ["pha-leader"]
    assert all(option.reason is None for option in options if option.allowed)


def test_foreign_leader_option_is_disabled_as_mercenary_leader(catalog: Catalog) -> None:
    options = fighter_options(Roster("organon", 5, ()), catalog)
    refused = reason(fighter_option(options, "pha-leader"))
    assert refused.code == "mercenary_leader"
    assert refused.message.startswith("Brandt is a Söldner (mercenary) leader")


def test_full_rank_option_is_disabled_with_rank_count(catalog: Catalog) -> None:
    roster = roster_of("org-leader", "org-trooper", "org-trooper", size=5)
    options = fighter_options(roster, catalog)
    trooper = reason(fighter_option(options, "org-trooper"))
    assert trooper.code == "rank_count"
    assert trooper.message == "Rank count: the team already has all 2 Troopers for game size 5."
    assert reason(fighter_option(options, "org-leader")).message == (
        "Rank count: the team already has its Leader (Anführer)."
    )
    assert fighter_option(options, "org-specialist").allowed


def test_mercenary_option_is_disabled_when_the_limit_is_reached(catalog: Catalog) -> None:
    roster = roster_of("org-leader", "pha-trooper", size=3)
    options = fighter_options(roster, catalog)
    specialist = reason(fighter_option(options, "pha-specialist"))
    assert specialist.code == "mercenary_limit"
    assert specialist.message == (
        "Harpunier would be a Söldner (mercenary): the team already has 1, the most game size 3 "
        "allows."
    )
    assert fighter_option(options, "org-specialist").allowed


def test_hired_hero_option_is_disabled_as_hero_duplicate(catalog: Catalog) -> None:
    roster = roster_of("org-leader", "org-hero", size=5)
    hero = reason(fighter_option(fighter_options(roster, catalog), "org-hero"))
    assert (hero.code, hero.entry) == ("hero_duplicate", 1)


def test_specialist_before_its_troopers_is_allowed_as_a_draft(catalog: Catalog) -> None:
    roster = roster_of("org-leader", "org-specialist", size=5)
    assert fighter_option(fighter_options(roster, catalog), "org-specialist").allowed


def test_fighter_options_are_disabled_for_an_unknown_game_size(catalog: Catalog) -> None:
    options = fighter_options(Roster("organon", 6, ()), catalog)
    assert {reason(option).code for option in options} == {"game_size"}


def test_fighter_options_are_disabled_for_an_unknown_faction(catalog: Catalog) -> None:
    options = fighter_options(Roster("atlantis", 5, ()), catalog)
    assert {reason(option).code for option in options} == {"unknown_faction"}


def test_item_options_allow_what_fits(catalog: Catalog) -> None:
    options = item_options(roster_of(*SMALL), catalog, 1)
    assert [option.item for option in options] == list(catalog.items)
    assert [option.item for option in options if option.allowed] == [
        "pistole",
        "panzerplatten",
        "stims",
        "medkit",
        "extra-fokus",
    ]


def test_item_option_is_disabled_at_the_cards_limit(catalog: Catalog) -> None:
    roster = roster_of(
        "org-leader", RosterEntry("org-trooper", items=("medkit",)), "org-specialist"
    )
    refused = reason(item_option(item_options(roster, catalog, 1), "medkit"))
    assert refused.code == "item_limit"
    assert refused.message == "Klon already carries 1 × Medkit, the most the card allows per model."


def test_item_option_character_upgrade_is_disabled_for_a_hero(catalog: Catalog) -> None:
    options = item_options(roster_of("org-leader", "org-trooper", "org-hero"), catalog, 2)
    assert reason(item_option(options, "stims")).code == "hero_character_upgrade"
    assert item_option(options, "panzerplatten").allowed


def test_item_option_is_disabled_when_the_arp_left_is_too_little(catalog: Catalog) -> None:
    # Pool 7, spent 6: one point left.
    roster = roster_of(
        RosterEntry("org-leader", items=("panzerplatten",)),
        RosterEntry("org-trooper", items=("panzerplatten",)),
        RosterEntry("org-specialist", items=("panzerplatten",)),
    )
    options = item_options(roster, catalog, 0)
    refused = reason(item_option(options, "extra-fokus"))
    assert refused.code == "arp_overspent"
    assert refused.message == (
        "Equipment points: Extra Fokus costs 2 ARP for Ilva, the team has 1 ARP left."
    )
    assert item_option(options, "medkit").allowed


def test_item_option_costs_once_per_fighter_of_the_entry(catalog: Catalog) -> None:
    roster = roster_of(
        RosterEntry("org-leader", items=("panzerplatten",)),
        RosterEntry("org-trooper", count=2),
        size=5,
    )
    # Pool 6, spent 2: four points left, enough for the card on both fighters (2 x 2 ARP)...
    assert item_option(item_options(roster, catalog, 1), "panzerplatten").allowed
    # ...but not with three left, although one copy alone would fit.
    tighter = roster_of(
        RosterEntry("org-leader", items=("panzerplatten", "medkit")),
        RosterEntry("org-trooper", count=2),
        size=5,
    )
    assert reason(item_option(item_options(tighter, catalog, 1), "panzerplatten")).code == (
        "arp_overspent"
    )


def test_item_option_free_respawn_focus_is_disabled(catalog: Catalog) -> None:
    options = item_options(roster_of(*SMALL), catalog, 0)
    assert reason(item_option(options, "respawn-fokus")).code == "respawn_focus_free"


def test_item_options_refuse_an_entry_the_roster_does_not_have(catalog: Catalog) -> None:
    with pytest.raises(RuleViolation) as error:
        item_options(roster_of(*SMALL), catalog, 3)
    assert error.value.code == "entry_not_found"
