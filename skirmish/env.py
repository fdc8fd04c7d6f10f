"""Strict parsing of environment variables for the settings module.

A value that is present but malformed stops start-up with a message naming the variable, rather
than falling back to a default that hides the typo (healthchecks' ``envbool``/``envint``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


class Env:
    """Reads typed values from a mapping of environment variables (``os.environ`` by default)."""

    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        self._environ = os.environ if environ is None else environ

    def _raw(self, name: str) -> str | None:
        value = self._environ.get(name)
        if value is None or value.strip() == "":
            return None
        return value.strip()

    def string(self, name: str, default: str | None = None) -> str | None:
        value = self._raw(name)
        return default if value is None else value

    def required_string(self, name: str, why: str) -> str:
        value = self._raw(name)
        if value is None:
            raise ImproperlyConfigured(f"Set the environment variable {name}: {why}")
        return value

    def boolean(self, name: str, default: bool) -> bool:
        value = self._raw(name)
        if value is None:
            return default
        lowered = value.lower()
        if lowered in _TRUE:
            return True
        if lowered in _FALSE:
            return False
        raise ImproperlyConfigured(
            f"The environment variable {name} must be true or false (got {value!r})."
        )

    def integer(self, name: str, default: int, *, minimum: int = 0) -> int:
        value = self._raw(name)
        if value is None:
            return default
        try:
            number = int(value)
        except ValueError:
            raise ImproperlyConfigured(
                f"The environment variable {name} must be a whole number (got {value!r})."
            ) from None
        if number < minimum:
            raise ImproperlyConfigured(
                f"The environment variable {name} must be at least {minimum} (got {number})."
            )
        return number

    def strings(self, name: str, default: list[str]) -> list[str]:
        value = self._raw(name)
        if value is None:
            return list(default)
        return [item.strip() for item in value.split(",") if item.strip()]

    def required_strings(self, name: str, why: str) -> list[str]:
        values = self.strings(name, default=[])
        if not values:
            raise ImproperlyConfigured(f"Set the environment variable {name}: {why}")
        return values

    def choice(self, name: str, default: str, choices: list[str]) -> str:
        value = self._raw(name)
        if value is None:
            return default
        if value not in choices:
            raise ImproperlyConfigured(
                f"The environment variable {name} must be one of {', '.join(choices)} "
                f"(got {value!r})."
            )
        return value


def database_config(url: str | None, *, sqlite_path: str) -> dict[str, object]:
    """The ``DATABASES["default"]`` entry for ``DATABASE_URL``, or SQLite when it is unset.

    SQLite in the project folder is the zero-setup default for a first ``make run``; PostgreSQL
    is the database of record, selected by ``DATABASE_URL=postgres://...``.
    """
    import dj_database_url

    if url is None:
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": sqlite_path,
            # WAL lets the live tracker's polls read while a command writes, and "normal"
            # syncing keeps a tap from waiting on a disk flush (still safe against a crash of
            # the app; a power cut may lose the last moments). IMMEDIATE takes the write lock
            # at the start of a transaction instead of failing halfway with "database locked".
            "OPTIONS": {
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
                "transaction_mode": "IMMEDIATE",
            },
        }
    try:
        config = dict(dj_database_url.parse(url, conn_max_age=60, conn_health_checks=True))
    except (ValueError, KeyError) as error:
        raise ImproperlyConfigured(
            f"The environment variable DATABASE_URL is not a database URL ({error})."
        ) from None
    if config.get("ENGINE") not in {
        "django.db.backends.postgresql",
        "django.db.backends.sqlite3",
    }:
        raise ImproperlyConfigured(
            "The environment variable DATABASE_URL must name PostgreSQL (postgres://...) "
            "or SQLite (sqlite:///...)."
        )
    return config
