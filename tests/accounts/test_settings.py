"""Accounts settings from the environment: the shared cache, email, verification, proxies."""

from __future__ import annotations

import json

import pytest

from tests.project.test_settings import manage

pytestmark = pytest.mark.slow

SHOW = (
    "import json; from django.conf import settings as s; print(json.dumps({"
    "'cache': s.CACHES['default']['BACKEND'], 'location': s.CACHES['default'].get('LOCATION'),"
    "'email': s.EMAIL_BACKEND, 'host': s.EMAIL_HOST, 'port': s.EMAIL_PORT, 'tls': s.EMAIL_USE_TLS,"
    "'from': s.DEFAULT_FROM_EMAIL, 'verification': s.ACCOUNT_EMAIL_VERIFICATION,"
    "'proxies': s.NUM_PROXIES, 'drf_proxies': s.REST_FRAMEWORK['NUM_PROXIES']}))"
)


def settings_with(**env: str) -> dict[str, object]:
    result = manage("shell", "-c", SHOW, env={"DJANGO_DEBUG": "true", **env})
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_defaults_without_services() -> None:
    shown = settings_with()
    assert shown["cache"] == "django.core.cache.backends.locmem.LocMemCache"
    assert shown["email"] == "django.core.mail.backends.console.EmailBackend"
    assert shown["verification"] == "optional"
    assert shown["proxies"] == shown["drf_proxies"] == 0


def test_services_and_mail_from_the_environment() -> None:
    shown = settings_with(
        CELERY_BROKER_URL="redis://broker.example.org:6379/0",
        EMAIL_HOST="smtp.example.org",
        DEFAULT_FROM_EMAIL="Liga <liga@example.org>",
        ACCOUNT_EMAIL_VERIFICATION="mandatory",
        NUM_PROXIES="1",
    )
    assert shown["cache"] == "apps.accounts.cache.SharedRedisCache"
    assert shown["location"] == "redis://broker.example.org:6379/0"
    assert shown["email"] == "django.core.mail.backends.smtp.EmailBackend"
    assert (shown["host"], shown["port"], shown["tls"]) == ("smtp.example.org", 587, True)
    assert shown["from"] == "Liga <liga@example.org>"
    assert shown["verification"] == "mandatory"
    assert shown["proxies"] == shown["drf_proxies"] == 1


def test_redis_url_wins_over_the_broker() -> None:
    shown = settings_with(
        CELERY_BROKER_URL="redis://broker.example.org:6379/0",
        REDIS_URL="redis://cache.example.org:6379/1",
    )
    assert shown["location"] == "redis://cache.example.org:6379/1"


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("ACCOUNT_EMAIL_VERIFICATION", "sometimes"),
        ("EMAIL_BACKEND", "django.core.mail.backends.smtp.EmailBackend"),
        ("REDIS_URL", "cache.example.org:6379"),
        ("NUM_PROXIES", "one"),
        ("LOGIN_FAILURE_LIMIT", "0"),
    ],
)
def test_malformed_values_name_the_variable(name: str, value: str) -> None:
    result = manage("check", env={"DJANGO_DEBUG": "true", name: value})
    assert result.returncode != 0
    assert name in result.stderr
