"""Logins, sign-ups and the API token endpoint are throttled per client, in the shared cache.

django-axes locks out a user name after LOGIN_FAILURE_LIMIT failed logins from one address;
allauth's rate limits count sign-ups and logins per address; the token endpoint's DRF throttle
counts per address. The address is REMOTE_ADDR, or the one NUM_PROXIES trusted proxies saw, so a
client writing a new X-Forwarded-For per request gains nothing.
"""

from __future__ import annotations

import datetime
import itertools
import uuid

import pytest
from axes.models import AccessAttempt
from django.test import Client, RequestFactory, override_settings
from django.urls import reverse
from rest_framework.test import APIClient

from apps.accounts.models import User
from apps.accounts.throttling import client_ip, login_name
from tests.accounts.factories import PASSWORD
from tests.conftest import shared_cache

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
LOGIN = "/accounts/login/"
TOKEN = "/api/v1/auth/token/"
# Addresses from the documentation ranges (RFC 5737): never contacted, only written in headers.
ADDRESSES = (f"203.0.113.{n}" for n in itertools.count(1))


def is_logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def attempt(client: Client, username: str, password: str, **headers: str):  # noqa: ANN201
    return client.post(LOGIN, {"login": username, "password": password}, **EN, **headers)


# --- Login lockout (django-axes) -------------------------------------------------------------


def test_forty_wrong_passwords_then_the_right_one_is_refused(client, user) -> None:
    statuses = [attempt(client, user.username, f"guess-{n}").status_code for n in range(40)]
    right = attempt(client, user.username, PASSWORD)
    assert not is_logged_in(client)
    assert right.status_code == 429
    # Locked out at the fifth failure (LOGIN_FAILURE_LIMIT), not after forty.
    assert statuses[:4] == [200] * 4 and statuses[4] == 429


def test_a_new_x_forwarded_for_per_request_does_not_reset_the_count(client, user) -> None:
    for n in range(40):
        attempt(client, user.username, f"guess-{n}", HTTP_X_FORWARDED_FOR=next(ADDRESSES))
    right = attempt(client, user.username, PASSWORD, HTTP_X_FORWARDED_FOR=next(ADDRESSES))
    assert right.status_code == 429
    assert not is_logged_in(client)


def test_lockout_after_the_failure_limit_answers_a_clear_page(client, user, settings) -> None:
    for n in range(settings.AXES_FAILURE_LIMIT - 1):
        assert attempt(client, user.username, f"guess-{n}").status_code == 200
    locked = attempt(client, user.username, "one more guess")
    assert locked.status_code == 429
    assert locked["Retry-After"] == str(15 * 60)
    page = locked.content.decode()
    assert "Too many attempts" in page and "Try again in 15 minutes." in page
    assert reverse("account_reset_password") in page
    assert attempt(client, user.username, PASSWORD).status_code == 429


def test_lockout_page_in_german(client, user, settings) -> None:
    for n in range(settings.AXES_FAILURE_LIMIT):
        response = client.post(
            LOGIN, {"login": user.username, "password": f"x{n}"}, HTTP_ACCEPT_LANGUAGE="de"
        )
    assert response.status_code == 429
    assert '<html lang="de">' in response.content.decode()


def test_the_user_name_counts_without_case_and_by_email_too(client, user, settings) -> None:
    names = [user.username.upper(), user.username, user.email, user.email.upper()]
    for n in range(settings.AXES_FAILURE_LIMIT):
        attempt(client, names[n % len(names)], f"guess-{n}")
    assert attempt(client, user.username.title(), PASSWORD).status_code == 429
    assert {a.username for a in AccessAttempt.objects.all()} == {user.username.lower()}


def test_lockout_is_per_user_name_and_address(user, settings) -> None:
    attacker = Client(REMOTE_ADDR=next(ADDRESSES))
    for n in range(settings.AXES_FAILURE_LIMIT):
        attempt(attacker, user.username, f"guess-{n}")
    assert attempt(attacker, user.username, PASSWORD).status_code == 429
    # The player at home is not locked out by someone guessing elsewhere...
    player = Client(REMOTE_ADDR=next(ADDRESSES))
    assert attempt(player, user.username, PASSWORD).status_code == 302
    # ...and the attacker's address may still log in to another account.
    other = User.objects.create_user("other", password=PASSWORD)
    assert attempt(attacker, other.username, PASSWORD).status_code == 302


def test_the_lockout_ends_after_the_cool_off(client, user, settings) -> None:
    for n in range(settings.AXES_FAILURE_LIMIT):
        attempt(client, user.username, f"guess-{n}")
    AccessAttempt.objects.update(
        attempt_time=AccessAttempt.objects.get().attempt_time - datetime.timedelta(minutes=16)
    )
    assert attempt(client, user.username, PASSWORD).status_code == 302
    assert is_logged_in(client)


def test_a_successful_login_resets_the_failures(client, user, settings) -> None:
    for n in range(settings.AXES_FAILURE_LIMIT - 1):
        attempt(client, user.username, f"guess-{n}")
    assert attempt(client, user.username, PASSWORD).status_code == 302
    client.logout()
    for n in range(settings.AXES_FAILURE_LIMIT - 1):
        assert attempt(client, user.username, f"typo-{n}").status_code == 200


def test_behind_one_trusted_proxy_the_address_it_saw_counts(user, settings) -> None:
    settings.NUM_PROXIES = 1
    attacker, player = next(ADDRESSES), next(ADDRESSES)
    proxy = Client(REMOTE_ADDR="127.0.0.1")
    for n in range(settings.AXES_FAILURE_LIMIT + 3):
        # Whatever the client writes comes first; the proxy appends the address it saw.
        spoofed = f"{next(ADDRESSES)}, {attacker}"
        attempt(proxy, user.username, f"guess-{n}", HTTP_X_FORWARDED_FOR=spoofed)
    assert attempt(proxy, user.username, PASSWORD, HTTP_X_FORWARDED_FOR=attacker).status_code == 429
    assert attempt(proxy, user.username, PASSWORD, HTTP_X_FORWARDED_FOR=player).status_code == 302


def test_the_admin_login_is_locked_out_too(client, settings) -> None:
    User.objects.create_user("boss", password=PASSWORD, is_staff=True)
    for n in range(settings.AXES_FAILURE_LIMIT):
        response = client.post("/admin/login/", {"username": "boss", "password": f"x{n}"}, **EN)
    assert response.status_code == 429
    right = client.post("/admin/login/", {"username": "boss", "password": PASSWORD})
    assert right.status_code == 429


# --- Sign-ups and logins per address (allauth's rate limits) ---------------------------------


def signup(client: Client, n: int, **headers: str):  # noqa: ANN201
    data = {
        "username": f"bulk{n}",
        "email": f"bulk{n}@example.org",
        "password1": PASSWORD,
        "password2": PASSWORD,
    }
    return client.post(reverse("accounts:signup"), data, **EN, **headers)


def test_ten_sign_ups_in_a_row_from_one_client_are_refused_after_five() -> None:
    statuses = [signup(Client(), n).status_code for n in range(10)]
    assert User.objects.filter(username__startswith="bulk").count() == 5
    assert statuses[:5] == [302] * 5 and set(statuses[5:]) == {429}


def test_sign_up_limit_is_not_bypassed_by_x_forwarded_for() -> None:
    for n in range(10):
        signup(Client(), n, HTTP_X_FORWARDED_FOR=next(ADDRESSES))
    assert User.objects.filter(username__startswith="bulk").count() == 5


def test_sign_ups_from_another_address_still_work() -> None:
    for n in range(6):
        signup(Client(), n)
    assert signup(Client(REMOTE_ADDR=next(ADDRESSES)), 99).status_code == 302


def test_the_rate_limit_page_is_a_clear_429(client) -> None:
    for n in range(6):
        response = signup(Client(), n)
    assert response.status_code == 429
    assert "Too many attempts" in response.content.decode()


def test_many_user_names_from_one_address_are_slowed_down(client) -> None:
    for n in range(20):
        attempt(client, f"someone{n}", "guess")
    refused = attempt(client, "someone-else", "guess")
    assert refused.status_code == 200
    assert "Too many failed login attempts" in str(refused.context["form"].non_field_errors())


# --- The API token endpoint --------------------------------------------------------------------


def token(client: APIClient, username: str, password: str, **headers: str):  # noqa: ANN201
    credentials = {"username": username, "password": password}
    return client.post(TOKEN, credentials, format="json", **headers)


def test_token_endpoint_allows_twenty_a_minute_per_client(api_client, user) -> None:
    assert all(token(api_client, user.username, PASSWORD).status_code == 200 for _ in range(20))
    refused = token(api_client, user.username, PASSWORD)
    assert refused.status_code == 429
    assert refused.json()["code"] == "throttled"
    assert int(refused["Retry-After"]) > 0


def test_token_endpoint_throttle_ignores_x_forwarded_for(api_client, user) -> None:
    for _ in range(20):
        token(api_client, user.username, PASSWORD, HTTP_X_FORWARDED_FOR=next(ADDRESSES))
    refused = token(api_client, user.username, PASSWORD, HTTP_X_FORWARDED_FOR=next(ADDRESSES))
    assert refused.status_code == 429


def test_token_endpoint_locks_out_after_failed_passwords(api_client, user, settings) -> None:
    limit = settings.AXES_FAILURE_LIMIT
    answers = [token(api_client, user.username, f"x{n}") for n in range(limit)]
    assert [a.status_code for a in answers[:-1]] == [400] * (limit - 1)
    locked = token(api_client, user.username, PASSWORD)
    assert locked.status_code == 429
    body = locked.json()
    assert body["code"] == "locked_out"
    assert "Try again in 15 minutes" in body["message"]
    assert locked["Retry-After"] == str(15 * 60)


@pytest.mark.services
def test_token_throttle_is_shared_by_two_workers_through_redis(user, redis_cache_url) -> None:
    """Two web workers: two cache clients with their own connections to Redis, no shared
    memory. What the first counted, the second sees."""
    import redis

    prefix = f"test-{uuid.uuid4().hex}"
    with override_settings(CACHES=shared_cache(redis_cache_url, prefix)):
        first_worker = APIClient()
        answers = [token(first_worker, user.username, PASSWORD).status_code for _ in range(12)]
        assert answers == [200] * 12
    with override_settings(CACHES=shared_cache(redis_cache_url, prefix)):  # new cache clients
        second_worker = APIClient()
        answers = [token(second_worker, user.username, PASSWORD).status_code for _ in range(9)]
    assert answers == [200] * 8 + [429]
    raw = redis.Redis.from_url(redis_cache_url)
    keys = raw.keys(f"{prefix}:*")
    assert any(b"throttle_auth_127.0.0.1" in key for key in keys)
    raw.delete(*keys)


@pytest.mark.services
def test_login_rate_limits_count_in_redis(redis_cache_url) -> None:
    import redis

    prefix = f"test-{uuid.uuid4().hex}"
    with override_settings(CACHES=shared_cache(redis_cache_url, prefix)):
        for n in range(6):
            signup(Client(), n)
    assert User.objects.filter(username__startswith="bulk").count() == 5
    raw = redis.Redis.from_url(redis_cache_url)
    keys = raw.keys(f"{prefix}:*")
    assert keys
    raw.delete(*keys)


# --- Who the client is -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("proxies", "forwarded", "expected"),
    [
        (0, None, "192.0.2.1"),
        (0, "198.51.100.9", "192.0.2.1"),
        (1, None, "192.0.2.1"),
        (1, "198.51.100.9", "198.51.100.9"),
        (1, "6.6.6.6, 198.51.100.9", "198.51.100.9"),
        (2, "6.6.6.6, 198.51.100.9, 10.1.1.1", "198.51.100.9"),
        (3, "198.51.100.9", "198.51.100.9"),
        (1, " , ", "192.0.2.1"),
    ],
)
def test_client_ip(settings, proxies: int, forwarded: str | None, expected: str) -> None:
    settings.NUM_PROXIES = proxies
    headers = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded is not None else {}
    request = RequestFactory().get("/", REMOTE_ADDR="192.0.2.1", **headers)
    assert client_ip(request) == expected


def test_drf_counts_the_same_client_as_axes_and_allauth(settings) -> None:
    from rest_framework.request import Request
    from rest_framework.throttling import AnonRateThrottle

    from apps.accounts.adapter import AccountAdapter

    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    settings.NUM_PROXIES = 1
    request = RequestFactory().post(
        "/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6, 198.51.100.9"
    )
    assert AnonRateThrottle().get_ident(Request(request)) == "198.51.100.9"
    assert AccountAdapter().get_client_ip(request) == "198.51.100.9"
    assert client_ip(request) == "198.51.100.9"


def test_login_name_ignores_case_and_spaces() -> None:
    request = RequestFactory().post("/", {"login": " Alice "})
    assert login_name(request, {"username": " Alice "}) == "alice"
    assert login_name(request, None) == "alice"
    assert login_name(request, {"username": None}) == "alice"
    assert login_name(request, {"username": " "}) is None


def test_login_name_of_an_address_is_its_account(user) -> None:
    request = RequestFactory().post("/")
    assert login_name(request, {"username": user.email.upper()}) == user.username
    assert login_name(request, {"username": "nobody@example.org"}) == "nobody@example.org"
    at_name = User.objects.create_user("bob@home", password=PASSWORD)
    assert login_name(request, {"username": "BOB@home"}) == at_name.username
