"""Universalis through the Django layer: groups from the sample catalogue, a match opened from
them, the tracker page, and hidden information: a secret mission or pick is never shown to the
opponent or a spectator before its reveal, neither on the page nor in the API."""

from __future__ import annotations

import random
import re
from fractions import Fraction
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from apps.catalog.models import GameSystem
from apps.matches import services
from apps.matches.models import Match
from apps.rosters import services as roster_services
from apps.rosters.models import Roster
from tests.accounts.factories import UserFactory

pytestmark = pytest.mark.django_db


def group(faction: str = "eisenwacht") -> dict[str, Any]:
    """A legal group of the sample catalogue; the Eisenwacht's drone is assigned to its
    operator (entry 2)."""
    entries = {
        "eisenwacht": [
            {"profile": "eisenwacht-hauptfrau-vela-korr"},
            {"profile": "eisenwacht-wachsoldat"},
            {"profile": "eisenwacht-drohnenfuehrer"},
            {"profile": "eisenwacht-spaeherdrohne", "attach_to": 2},
        ],
        "nebelzirkel": [
            {"profile": "nebelzirkel-zirkelmeisterin-ysra", "items": ["nebelmagie-geisterhand"]},
            {"profile": "nebelzirkel-kultist"},
            {"profile": "nebelzirkel-schattenlaeufer"},
        ],
    }[faction]
    return {
        "format": "skirmish-roster/1",
        "system": "universalis",
        "name": f"Gruppe {faction.title()}",
        "faction": faction,
        "settings": {},
        "entries": entries,
    }


@pytest.fixture
def universalis(catalogue: None) -> GameSystem:
    return GameSystem.objects.get(slug="universalis")


def roster(owner: Any, faction: str) -> Roster:
    return roster_services.roster_import(owner=owner, document=group(faction))


def opened(universalis: GameSystem, anna: Any, ben: Any, mode: str = "secret") -> Match:
    """Anna's match of her group against Ben's (from his share link); Ben has taken his seat."""
    match = services.match_create(
        creator=anna,
        system=universalis,
        mode=mode,
        seats=[
            services.Seat("Anna", roster(anna, "eisenwacht")),
            services.Seat("Ben", roster(ben, "nebelzirkel")),
        ],
        settings={"max_rounds": 6},
        rng=random.Random(3),
    )
    return services.match_take_seat(user=ben, match_id=match.pk, index=1)


def command(match: Match, user: Any, type_: str, **args: Any) -> services.CommandOutcome:
    return services.match_apply_command(
        user=user,
        match_id=match.pk,
        command_type=type_,
        args=args,
        expected_seq=None,
        idempotency_key=None,
        rng=random.Random(7),
    )


def test_sample_groups_are_legal_and_keep_the_operator_in_their_document(
    universalis: GameSystem,
) -> None:
    owner = UserFactory()
    eisenwacht = roster(owner, "eisenwacht")
    assert eisenwacht.legal, eisenwacht.issue_count
    client = Client()
    client.force_login(owner)
    exported = client.get(reverse("rosters:export", args=[eisenwacht.pk])).json()
    assert exported["entries"][3]["attach_to"] == 2
    assert "attach_to" not in exported["entries"][0]


def test_a_telematon_without_operator_is_an_issue_until_assigned(universalis: GameSystem) -> None:
    owner = UserFactory()
    document = group()
    del document["entries"][3]["attach_to"]
    drone = roster_services.roster_import(owner=owner, document=document)
    assert not drone.legal
    entries = list(drone.entries.order_by("position"))
    client = Client()
    client.force_login(owner)
    response = client.post(
        reverse("rosters:entry_attach", args=[drone.pk, entries[3].pk]),
        {"attach_to": str(entries[2].pk)},
    )
    assert response.status_code == 302
    drone.refresh_from_db()
    assert drone.legal


def test_builder_page_shows_derived_values_and_sample_labels(universalis: GameSystem) -> None:
    owner = UserFactory()
    eisenwacht = roster(owner, "eisenwacht")
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(owner)
    page = client.get(reverse("rosters:builder", args=[eisenwacht.pk])).content.decode()
    assert "Perception 25 cm" in page
    assert "danger zone 5 cm" in page
    assert "overloaded: −1 AGI and GK (included)" in page
    assert "sample" in page
    assert "Operator:" in page


def test_new_group_with_a_points_limit(universalis: GameSystem) -> None:
    owner = UserFactory()
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(owner)
    faction = universalis.factions.get(slug="eisenwacht")
    response = client.post(
        reverse("rosters:new", args=["universalis"]),
        {"name": "Wache", "faction": faction.pk, "points_limit": "200"},
    )
    assert response.status_code == 302
    created = Roster.objects.get(owner=owner, name="Wache")
    assert created.settings == {"points_limit": 200}


def test_match_opens_and_the_tracker_renders(universalis: GameSystem) -> None:
    anna, ben = UserFactory(), UserFactory()
    match = opened(universalis, anna, ben)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(anna)
    page = client.get(reverse("matches:tracker", args=[match.pk])).content.decode()
    assert "Each player picks a mission in secret." in page
    assert "Choose your mission in secret" in page


def test_only_the_seat_holder_may_choose_its_secret_mission(universalis: GameSystem) -> None:
    anna, ben = UserFactory(), UserFactory()
    match = opened(universalis, anna, ben)
    with pytest.raises(services.MatchError) as refused:
        command(match, anna, "choose_mission", player=1, mission="kopfjagd")
    assert refused.value.code == "private_command"


def test_opponent_and_spectator_never_see_a_secret_mission_before_the_reveal(
    universalis: GameSystem, api_client: Any
) -> None:
    anna, ben = UserFactory(), UserFactory()
    match = opened(universalis, anna, ben)
    command(match, anna, "choose_mission", player=0, mission="kopfjagd")
    url = f"/api/v1/matches/{match.pk}/"

    api_client.force_authenticate(ben)
    state = api_client.get(url).json()["state"]
    assert state["players"][0]["mission"] is None
    events = api_client.get(f"/api/v1/matches/{match.pk}/events/").json()["events"]
    assert all("kopfjagd" not in str(event["data"]) for event in events)

    api_client.force_authenticate(anna)
    assert api_client.get(url).json()["state"]["players"][0]["mission"] == "kopfjagd"

    api_client.force_authenticate(None)
    spectated = api_client.get(f"{url}?spectate={match.spectator_token}").json()
    assert spectated["state"]["players"][0]["mission"] is None
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    page = client.get(reverse("matches:spectate", args=[match.spectator_token])).content.decode()
    assert "Kopfjagd" not in page
    client.force_login(ben)
    assert (
        "Kopfjagd" not in client.get(reverse("matches:tracker", args=[match.pk])).content.decode()
    )
    log = client.get(reverse("matches:log_json", args=[match.pk])).content.decode()
    assert "kopfjagd" not in log

    # Anna sees her own mission only when she asks for it.
    client.force_login(anna)
    plain = client.get(reverse("matches:tracker", args=[match.pk])).content.decode()
    assert "Kopfjagd" not in plain
    peek = client.get(reverse("matches:tracker", args=[match.pk]) + "?seat=0").content.decode()
    assert "Kopfjagd" in peek
    assert (
        "Kopfjagd"
        not in client.get(reverse("matches:tracker", args=[match.pk]) + "?seat=1").content.decode()
    )

    command(match, ben, "choose_mission", player=1, mission="vernichtung")
    api_client.force_authenticate(None)
    revealed = api_client.get(f"{url}?spectate={match.spectator_token}").json()["state"]
    assert [p["mission"] for p in revealed["players"]] == ["kopfjagd", "vernichtung"]


def test_commands_endpoint_lists_universalis_commands(api_client: Any, universalis: Any) -> None:
    listed = api_client.get("/api/v1/systems/universalis/commands/").json()
    types = {entry["type"]: entry for entry in listed}
    assert {"pick", "shoot", "melee", "choose_mission", "end_round"} <= set(types)
    assert types["pick"]["private"] and not types["shoot"]["private"]


def test_api_refuses_a_secret_choice_for_another_seat(
    universalis: GameSystem, api_client: Any
) -> None:
    anna, ben = UserFactory(), UserFactory()
    match = opened(universalis, anna, ben)
    api_client.force_authenticate(anna)
    refused = api_client.post(
        f"/api/v1/matches/{match.pk}/commands/",
        {"type": "choose_mission", "args": {"player": 1, "mission": "kopfjagd"}},
        format="json",
    )
    assert refused.status_code == 403 and refused.json()["code"] == "private_command"
    chosen = api_client.post(
        f"/api/v1/matches/{match.pk}/commands/",
        {"type": "choose_mission", "args": {"player": 0, "mission": "kopfjagd"}},
        format="json",
    ).json()
    assert chosen["state"]["players"][0]["mission"] == "kopfjagd"
    assert chosen["events"][0]["data"]["mission"] == "kopfjagd"


def test_a_user_holding_both_seats_names_the_seat_to_see_its_secret(
    universalis: GameSystem, api_client: Any
) -> None:
    anna = UserFactory()
    match = opened(universalis, anna, anna)
    command(match, anna, "choose_mission", player=1, mission="durchbruch")
    api_client.force_authenticate(anna)
    url = f"/api/v1/matches/{match.pk}/"
    assert api_client.get(url).json()["state"]["players"][1]["mission"] is None
    seen = api_client.get(f"{url}?seat=1").json()
    assert seen["viewer"] == 1 and seen["state"]["players"][1]["mission"] == "durchbruch"


def test_the_match_form_offers_the_secret_choice_and_agreed_missions(
    universalis: GameSystem,
) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(UserFactory())
    page = client.get(reverse("matches:new", args=["universalis"])).content.decode()
    assert "Each player picks a mission in secret (rulebook)" in page
    assert "Kopfjagd (Headhunt)" in page and "Round limit" in page
    assert "Random: flip a card" not in page


def scripted(*faces: int) -> random.Random:
    from tests.systems.universalis.helpers import ScriptedRandom

    rng = ScriptedRandom(0)
    rng.script.extend(faces)
    return rng


def drive(match: Match, user: Any, type_: str, *faces: int, **args: Any) -> None:
    services.match_apply_command(
        user=user,
        match_id=match.pk,
        command_type=type_,
        args=args,
        expected_seq=None,
        idempotency_key=None,
        rng=scripted(*faces),
    )


def acting_match(universalis: GameSystem, unit: int = 2) -> tuple[Match, Any, Any]:
    """Round 1: Anna's ``unit`` (by default her drone operator, 2, with its drone 3) takes its
    phase against Ben's Zirkelmeisterin (4)."""
    anna, ben = UserFactory(), UserFactory()
    match = opened(universalis, anna, ben)
    drive(match, anna, "choose_mission", player=0, mission="vernichtung")
    drive(match, ben, "choose_mission", player=1, mission="vernichtung")
    drive(match, anna, "roll_deployment", 12, 1)
    drive(match, anna, "start_game")
    drive(match, anna, "pick", player=0, unit=unit)
    drive(match, ben, "pick", 12, 1, player=1, unit=4)
    return match, anna, ben


def test_the_tracker_previews_the_odds_of_the_attack_forms(universalis: GameSystem) -> None:
    """The page shows the odds of the shot form's defaults; a changed field asks the tracker
    with the form's fields (HTMX) and the answer carries the new odds; bad fields never fail."""
    match, anna, _ben = acting_match(universalis)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(anna)
    url = reverse("matches:tracker", args=[match.pk])
    page = client.get(url).content.decode()
    assert 'id="preview-shoot-2"' in page and 'id="preview-melee-2"' in page
    assert "Wound against armour: damage" in page and "Success " in page
    # The preview is a GET: the form's CSRF token and command keys stay out of the query string.
    previews = re.findall(r"<output [^>]*preview[^>]*>", page)
    private = 'hx-params="not csrfmiddlewaretoken,idempotency_key,expected_seq"'
    assert previews and all(private in tag for tag in previews)
    near = client.get(
        url,
        {
            "command": "shoot",
            "args.unit:int": "2",
            "args.targets.0.unit:int": "4",
            "args.targets.0.distance:int": "1",
        },
        HTTP_HX_REQUEST="true",
    ).content.decode()
    far = client.get(
        url,
        {
            "command": "shoot",
            "args.unit:int": "2",
            "args.targets.0.unit:int": "4",
            "args.targets.0.distance:int": "499",
        },
        HTTP_HX_REQUEST="true",
    ).content.decode()
    assert "Hit " in near and "out of the weapon" in far
    # The preview asks with its own id as the target: the answer is that element alone.
    alone = client.get(
        url,
        {"command": "shoot", "args.unit:int": "2", "args.targets.0.unit:int": "4"},
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="preview-shoot-2",
    ).content.decode()
    assert alone.startswith('<output class="odds-preview odds-command" id="preview-shoot-2"')
    assert alone.endswith("</output>") and "Hit " in alone and 'id="tracker"' not in alone
    junk = client.get(url, {"command": "melee", "args.unit:int": "2", "args.weapon:int": "x"})
    assert junk.status_code == 200
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    client.force_login(anna)
    assert "Verletzungs- und Rüstungswurf: Schaden" in client.get(url).content.decode()


def test_the_tracker_offers_the_panic_retest_and_sends_it(
    universalis: GameSystem, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A telematon whose operator lives panics; at the end of the operator's phase the page
    offers its retest and the end-phase form sends it."""
    match, anna, _ben = acting_match(universalis)
    drive(match, anna, "auto_hit", 12, 1, unit=1, strength=30, damage=20)
    drive(match, anna, "panic_test", 1, unit=0)
    drive(match, anna, "panic_test", 1, unit=2)
    drive(match, anna, "panic_test", 12, unit=3)
    match.refresh_from_db()
    assert match.state["units"][3]["panic"] and match.state["active"] == 2

    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(anna)
    page = client.get(reverse("matches:tracker", args=[match.pk])).content.decode()
    assert "panics: panic test again (EH) as the phase ends" in page
    assert 'name="args.panic_retests.0.unit:int" value="3"' in page

    monkeypatch.setattr(services, "_server_rng", lambda: scripted(1))
    response = client.post(
        reverse("matches:command", args=[match.pk]),
        {
            "command": "end_phase",
            "expected_seq": str(match.seq),
            "idempotency_key": "retest",
            "args.panic_retests.0._on:bool": "true",
            "args.panic_retests.0.unit:int": "3",
            "args.panic_retests.0.friends:int": "1",
            "args.panic_retests.0.enemies:int": "0",
        },
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert not match.state["units"][3]["panic"]
    assert match.state["active"] != 2


# --- Kraft blockieren, Objekt benutzen, unique ids --------------------------------------------


def mages_match(universalis: GameSystem, ben_pick: int = 3) -> tuple[Match, Any, Any]:
    """Two Nebelzirkel groups: Anna's Zirkelmeisterin Ysra (unit 0) puts her lasting
    Nebelschleier (WN−1) in play; then Ben's model ``ben_pick`` (3: his Ysra, of a discipline,
    WN 6; 4: a Kultist, of none) takes its phase."""
    anna, ben = UserFactory(), UserFactory()
    anna_group = group("nebelzirkel")
    anna_group["entries"][0]["items"] = ["nebelmagie-nebelschleier"]
    match = services.match_create(
        creator=anna,
        system=universalis,
        mode="secret",
        seats=[
            services.Seat("Anna", roster_services.roster_import(owner=anna, document=anna_group)),
            services.Seat("Ben", roster(ben, "nebelzirkel")),
        ],
        settings={"max_rounds": 6},
        rng=random.Random(3),
    )
    services.match_take_seat(user=ben, match_id=match.pk, index=1)
    drive(match, anna, "choose_mission", player=0, mission="vernichtung")
    drive(match, ben, "choose_mission", player=1, mission="vernichtung")
    drive(match, anna, "roll_deployment", 12, 1)
    drive(match, anna, "start_game")
    drive(match, anna, "pick", player=0, unit=0)
    drive(match, ben, "pick", 12, 1, player=1, unit=ben_pick)
    drive(match, anna, "use_power", 1, unit=0, power=0)
    drive(match, anna, "end_phase")
    match.refresh_from_db()
    assert match.state["units"][0]["powers_in_play"] == [0]
    assert match.state["active"] == ben_pick
    return match, anna, ben


def block(client: Client, match: Match, htmx: bool = True, **args: int) -> Any:
    fields = {f"args.{name}:int": str(value) for name, value in args.items()}
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(
        reverse("matches:command", args=[match.pk]),
        {
            "command": "block_power",
            "expected_seq": str(match.seq),
            "idempotency_key": f"block-{match.seq}",
            **fields,
        },
        **headers,
    )


@pytest.mark.parametrize(("face", "ended"), [(5, True), (6, False)])
def test_the_tracker_offers_block_power_with_its_odds_and_sends_it(
    universalis: GameSystem, monkeypatch: pytest.MonkeyPatch, face: int, ended: bool
) -> None:
    """Kraft blockieren (2 AP): Ben's Ysra sees Anna's Nebelschleier in play with the exact
    chance of her roll (WN 6 − 1: 5/12); a roll of 5 ends the power, a 6 leaves it in play."""
    match, _anna, ben = mages_match(universalis)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(ben)
    page = client.get(reverse("matches:tracker", args=[match.pk])).content.decode()
    assert "Block a power in play (Kraft blockieren)" in page
    assert "Block Nebelschleier (Zirkelmeisterin Ysra)" in page
    assert 'name="args.owner:int" value="0"' in page and "Success 42 % (5/12)" in page
    assert "It loses 1 HP on a failure" in page

    hp = match.state["units"][3]["hp"]
    monkeypatch.setattr(services, "_server_rng", lambda: scripted(face))
    response = block(client, match, htmx=False, unit=3, owner=0, power=0)
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.state["units"][0]["powers_in_play"] == ([] if ended else [0])
    assert match.state["units"][3]["ap"] == 4
    assert match.state["units"][3]["hp"] == (hp if ended else hp - 1)
    page = client.get(reverse("matches:tracker", args=[match.pk])).content.decode()
    assert ("Block Nebelschleier" in page) is not ended


def test_block_power_is_not_offered_to_a_model_without_discipline_and_refused_with_messages(
    universalis: GameSystem,
) -> None:
    """A Kultist has no discipline: no block is offered and a sent one is refused with its
    reason; so are a power not in play and a block without the AP for it."""
    match, _anna, ben = mages_match(universalis, ben_pick=4)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(ben)
    page = client.get(reverse("matches:tracker", args=[match.pk])).content.decode()
    assert "Kraft blockieren" not in page and "Block Nebelschleier" not in page
    refused = block(client, match, unit=4, owner=0, power=0)
    assert refused.status_code == 422
    assert "cannot block that power (it needs a discipline)" in refused.content.decode()
    followed = client.post(
        reverse("matches:command", args=[match.pk]),
        {
            "command": "block_power",
            "expected_seq": str(match.seq),
            "args.unit:int": "4",
            "args.owner:int": "0",
            "args.power:int": "0",
        },
        follow=True,
    ).content.decode()
    assert "cannot block that power (it needs a discipline)" in followed

    match, _anna, ben = mages_match(universalis)
    client.force_login(ben)
    refused = block(client, match, unit=3, owner=3, power=0)
    assert "That power is not in play." in refused.content.decode()
    drive(match, ben, "correct", unit=3, ap=1)
    match.refresh_from_db()
    page = client.get(reverse("matches:tracker", args=[match.pk])).content.decode()
    assert "Block Nebelschleier (Zirkelmeisterin Ysra)" in page
    refused = block(client, match, unit=3, owner=0, power=0)
    assert refused.status_code == 422
    assert "Not enough action points (AP) for that." in refused.content.decode()
    match.refresh_from_db()
    assert match.state["units"][0]["powers_in_play"] == [0]
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    client.force_login(ben)
    page = client.get(reverse("matches:tracker", args=[match.pk])).content.decode()
    assert "Kraft blockieren" in page


def test_the_use_object_form_previews_its_roll_and_sends_it(
    universalis: GameSystem, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Objekt benutzen (1 AP, 9.2.1): the form names the object's attribute roll and its
    modifier, shows the chance as filled in, and the roll is made against it."""
    match, anna, _ben = acting_match(universalis)
    match.refresh_from_db()
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(anna)
    url = reverse("matches:tracker", args=[match.pk])
    page = client.get(url).content.decode()
    assert 'id="preview-object-2"' in page and 'name="args.attribute"' in page
    assert "No roll: the object simply works." in page
    asked = client.get(
        url,
        {
            "command": "use_object",
            "args.unit:int": "2",
            "args.attribute": "ko",
            "args.modifier:int": "-2",
        },
        HTTP_HX_REQUEST="true",
    ).content.decode()
    ko = match.state["units"][2]["card"]["ko"]
    chance = Fraction(ko - 2, 12)
    assert f"({chance.numerator}/{chance.denominator})" in asked

    monkeypatch.setattr(services, "_server_rng", lambda: scripted(12))
    response = client.post(
        reverse("matches:command", args=[match.pk]),
        {
            "command": "use_object",
            "expected_seq": str(match.seq),
            "idempotency_key": "object",
            "args.unit:int": "2",
            "args.attribute": "ko",
            "args.modifier:int": "-2",
        },
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.state["units"][2]["ap"] == 5
    assert match.state["last_rolls"][0]["target"] == ko - 2
    response = client.post(
        reverse("matches:command", args=[match.pk]),
        {
            "command": "use_object",
            "expected_seq": str(match.seq),
            "idempotency_key": "object-plain",
            "args.unit:int": "2",
            "args.attribute": "",
            "args.modifier:int": "0",
        },
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.state["units"][2]["ap"] == 4


def page_ids(page: str) -> list[str]:
    from html.parser import HTMLParser

    ids: list[str] = []

    class Ids(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            ids.extend(value for name, value in attrs if name == "id" and value)

    Ids().feed(page)
    return ids


def test_a_tracker_page_has_no_duplicate_ids(universalis: GameSystem) -> None:
    """Disabled buttons name their reason by a unique id (aria-describedby), in the active
    model's grid as in the prompt, for the operator as for its drone."""
    match, anna, _ben = acting_match(universalis)
    drive(match, anna, "threat_test", 1, unit=2, threat=4)
    drive(match, anna, "correct", unit=2, ap=0)
    drive(match, anna, "correct", unit=3, ap=0)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(anna)
    page = client.get(reverse("matches:tracker", args=[match.pk]), {"unit": "4"}).content.decode()
    assert page.count('class="reason"') >= 6
    ids = page_ids(page)
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})
    for described in set(re.findall(r'aria-describedby="([^"]+)"', page)):
        assert described in ids


def test_the_area_form_sends_only_the_ticked_models_and_names_why_one_cannot_be(
    universalis: GameSystem, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a grenade's shot the page offers a row per model in play: a camouflaged one
    disabled with the engine's reason (16.2); of the others only the ticked rows are hit."""
    match, anna, _ben = acting_match(universalis, unit=1)
    grenade = {"unit": 4, "distance": 5}
    drive(match, anna, "shoot", 1, unit=1, weapon=1, mode="snap", targets=[grenade])
    match.refresh_from_db()
    assert match.state["area"] is not None and match.state["units"][6]["camouflaged"]

    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(anna)
    page = client.get(reverse("matches:tracker", args=[match.pk])).content.decode()
    rows = re.findall(r'name="args\.hits\.(\d+)\.unit:int" value="(\d+)"', page)
    assert [int(unit) for _row, unit in rows] == [0, 1, 2, 3, 4, 5, 6]
    assert page.count('name="args.hits.6._on:bool" value="false"') == 1
    assert re.search(r'name="args\.hits\.6\._on:bool" value="true" disabled', page)
    assert "That model is camouflaged: reveal it first." in page

    fields: dict[str, Any] = {
        "command": "area_hits",
        "expected_seq": str(match.seq),
        "idempotency_key": "area",
    }
    for row, unit in rows:
        ticked = unit == "4"
        fields[f"args.hits.{row}._on:bool"] = ["false", "true"] if ticked else ["false"]
        fields[f"args.hits.{row}.unit:int"] = unit
        fields[f"args.hits.{row}.cover"] = "none"
    hp = [u["hp"] for u in match.state["units"]]
    monkeypatch.setattr(services, "_server_rng", lambda: scripted(12, 1))
    response = client.post(reverse("matches:command", args=[match.pk]), fields)
    assert response.status_code == 302
    match.refresh_from_db()
    lost = [i for i, u in enumerate(match.state["units"]) if u["hp"] < hp[i]]
    assert lost == [4] and match.state["area"] is None


def test_a_match_opened_through_the_api_gets_the_forms_round_limit(universalis) -> None:
    # SPEC §6 (Universalis): "Round limit: a match opened through the API gets the same default
    # as the page form" -- 6 rounds, not "no limit".
    owner = UserFactory()
    rosters = [roster(owner, faction) for faction in ("eisenwacht", "nebelzirkel")]
    client = APIClient()
    client.force_authenticate(owner)
    response = client.post(
        "/api/v1/matches/",
        {
            "system": "universalis",
            "mission": "secret",
            "players": [{"roster": r.pk} for r in rosters],
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert response.json()["state"]["max_rounds"] == 6


def test_the_api_takes_the_owners_choice_of_an_optional_reroll(
    universalis: GameSystem, api_client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SPEC §6: the optional rerolls ("darf", l. 929) are the owner's choice, an argument in
    the API: Ysra's Adaptiv robe is rolled again only when her player says so."""
    match, anna, _ben = acting_match(universalis)
    api_client.force_authenticate(anna)
    url = f"/api/v1/matches/{match.pk}/commands/"
    shot = {"unit": 2, "weapon": 0, "targets": [{"unit": 4, "distance": 10, "shots": 4}]}

    def wound_rolls(args: dict[str, Any], *faces: int) -> list[Any]:
        monkeypatch.setattr(services, "_server_rng", lambda: scripted(*faces))
        response = api_client.post(url, {"type": "shoot", "args": args}, format="json")
        assert response.status_code == 200, response.json()
        events = response.json()["events"]
        return next(e["data"]["rolls"] for e in events if e["type"] == "wound_rolled")

    assert len(wound_rolls(shot, 1, 12, 1)) == 1
    assert len(wound_rolls({**shot, "adaptiv": "behind"}, 1, 12, 1, 12)) == 2


def test_the_tracker_page_asks_for_the_direct_threat_the_cover_and_the_rerolls(
    universalis: GameSystem,
) -> None:
    """The threat test names its threat, a shot's target row has the cover it stands behind
    and whether it touches it (l. 774-776), and the shot asks Ysra's player about Adaptiv."""
    match, anna, _ben = acting_match(universalis)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(anna)
    page = client.get(reverse("matches:tracker", args=[match.pk])).content.decode()
    assert 'name="args.threat:int"' in page
    assert 'name="args.targets.0.touching:bool"' in page
    assert 'name="args.adaptiv"' in page and "when behind or tied" in page


def test_the_tracker_page_shows_a_waiting_charge_and_the_base_contact_tools(
    universalis: GameSystem,
) -> None:
    """After an Angriffsbewegung that reached its target, the charger's panel holds only the
    charge's attack (reactions to the move come first, l. 651, l. 1201); a selected enemy's
    panel lets the table say whom it touches (the melee, l. 1360)."""
    match, anna, _ben = acting_match(universalis)
    drive(match, anna, "melee", unit=2, target=4, weapon=-1, charge=True)
    match.refresh_from_db()
    assert match.state["charge"]["target"] == 4
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(anna)
    url = reverse("matches:tracker", args=[match.pk])
    page = client.get(url).content.decode()
    assert 'value="charge_attack"' in page and "Attack Zirkelmeisterin Ysra (charge)" in page
    assert 'value="shoot"' not in page
    drive(match, anna, "charge_attack", 12, 1, unit=2, on_win="push")
    selected = client.get(url, {"unit": "5"}).content.decode()
    assert "In base contact with Drohnenführer" in selected
    ids = page_ids(selected)
    assert len(ids) == len(set(ids))


def test_the_tracker_page_asks_for_the_panic_runs_at_the_round_start(
    universalis: GameSystem,
) -> None:
    """l. 504: "Alle Modelle in Panik werden entsprechend bewegt": round 2 begins with a step
    for the panicking leader, and the secret picks wait for it."""
    match, anna, ben = acting_match(universalis)
    drive(match, anna, "auto_hit", 12, 1, unit=1, strength=30, damage=20)
    drive(match, anna, "panic_test", 12, unit=0)
    drive(match, anna, "skip_panic_test", unit=2)
    drive(match, anna, "skip_panic_test", unit=3)
    drive(match, anna, "end_phase")
    drive(match, ben, "end_phase")
    drive(match, anna, "pick", player=0, unit=0)
    drive(match, ben, "pick", 12, 1, player=1, unit=5)
    drive(match, anna, "end_phase")
    drive(match, ben, "end_phase")
    drive(match, ben, "activate", unit=6)
    drive(match, ben, "end_phase")
    drive(match, anna, "end_round")
    match.refresh_from_db()
    assert match.state["round"] == 2 and match.state["panic_moves_due"] == [0]
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(anna)
    page = client.get(reverse("matches:tracker", args=[match.pk])).content.decode()
    assert "first the panicking models run" in page
    assert "Hauptfrau Vela Korr runs towards the nearest table edge" in page
    assert "Hauptfrau Vela Korr runs off the table" in page
