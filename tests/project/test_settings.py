"""Settings from the environment: strict parsing, production safety, database selection."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import connection

from skirmish.env import Env, database_config

PROJECT = Path(__file__).resolve().parents[2]
PRODUCTION_ENV = {
    "DJANGO_DEBUG": "false",
    "DJANGO_SECRET_KEY": "k3y-for-tests-only-9f8e7d6c5b4a39281706f5e4d3c2b1a0ZYXWVUTSRQPONM",
    "ALLOWED_HOSTS": "skirmish.example.org",
}


def manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    clean = {key: value for key, value in os.environ.items() if not key.startswith("DJANGO_")}
    clean.pop("DATABASE_URL", None)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=PROJECT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_mode_refuses_to_start_without_secret_key() -> None:
    result = manage("check", env={"DJANGO_DEBUG": "false"})
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr


def test_production_mode_refuses_to_start_without_allowed_hosts() -> None:
    env = {key: value for key, value in PRODUCTION_ENV.items() if key != "ALLOWED_HOSTS"}
    result = manage("check", env=env)
    assert result.returncode != 0
    assert "Set the environment variable ALLOWED_HOSTS" in result.stderr


def test_malformed_boolean_names_the_variable() -> None:
    result = manage("check", env={"DJANGO_DEBUG": "maybe"})
    assert result.returncode != 0
    assert "DJANGO_DEBUG" in result.stderr


def test_malformed_database_url_names_the_variable() -> None:
    result = manage("check", env={"DJANGO_DEBUG": "true", "DATABASE_URL": "nonsense"})
    assert result.returncode != 0
    assert "DATABASE_URL" in result.stderr


def test_check_deploy_is_clean_with_production_values() -> None:
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION_ENV)
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def test_development_mode_starts_without_any_environment() -> None:
    result = manage("check", env={"DJANGO_DEBUG": "true"})
    assert result.returncode == 0, result.stderr


def test_env_parses_booleans_strictly() -> None:
    env = Env({"A": "yes", "B": "off", "C": "perhaps"})
    assert env.boolean("A", default=False) is True
    assert env.boolean("B", default=True) is False
    assert env.boolean("MISSING", default=True) is True
    with pytest.raises(ImproperlyConfigured, match="C"):
        env.boolean("C", default=False)


def test_env_parses_integers_and_lists() -> None:
    env = Env({"N": "12", "BAD": "twelve", "NEG": "-1", "HOSTS": "a.org, b.org,,"})
    assert env.integer("N", default=0) == 12
    with pytest.raises(ImproperlyConfigured, match="BAD"):
        env.integer("BAD", default=0)
    with pytest.raises(ImproperlyConfigured, match="NEG"):
        env.integer("NEG", default=0)
    assert env.strings("HOSTS", default=[]) == ["a.org", "b.org"]
    assert env.required_strings("HOSTS", "why") == ["a.org", "b.org"]
    with pytest.raises(ImproperlyConfigured, match="MISSING"):
        Env({"MISSING": " , "}).required_strings("MISSING", "why")


def test_env_choice_refuses_unknown_values() -> None:
    with pytest.raises(ImproperlyConfigured, match="DJANGO_LANGUAGE_CODE"):
        Env({"DJANGO_LANGUAGE_CODE": "fr"}).choice("DJANGO_LANGUAGE_CODE", "de", ["de", "en"])


def test_without_database_url_sqlite_in_the_project_folder() -> None:
    config = database_config(None, sqlite_path="/srv/skirmish/db.sqlite3")
    assert config["ENGINE"] == "django.db.backends.sqlite3"
    assert config["NAME"] == "/srv/skirmish/db.sqlite3"
    assert "journal_mode=WAL" in config["OPTIONS"]["init_command"]


def test_database_url_selects_postgresql() -> None:
    config = database_config(
        "postgres://league:secret@db.example.org:5433/skirmish", sqlite_path="unused"
    )
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["HOST"], config["PORT"], config["NAME"]) == ("db.example.org", 5433, "skirmish")
    assert (config["USER"], config["PASSWORD"]) == ("league", "secret")


def test_database_url_of_another_database_is_refused() -> None:
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL"):
        database_config("mysql://u@h/db", sqlite_path="unused")


@pytest.mark.django_db
def test_the_suite_runs_on_the_database_the_environment_names() -> None:
    on_postgres = os.environ.get("DATABASE_URL", "").startswith("postgres")
    expected = "postgresql" if on_postgres else "sqlite"
    assert connection.vendor == expected
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


@pytest.mark.parametrize(("given", "kept"), [({}, "60"), ({"DATABASE_CONN_MAX_AGE": "0"}, "0")])
def test_the_stream_server_keeps_no_database_connection(given: dict[str, str], kept: str) -> None:
    """gunicorn's workers keep a connection for a minute; the stream service (an ASGI server,
    whose sync code runs in threads that come and go) sets 0, as Django advises for ASGI."""
    env = {**PRODUCTION_ENV, "DATABASE_URL": "postgres://skirmish@db:5432/skirmish", **given}
    shown = manage(
        "shell",
        "-c",
        "from django.conf import settings; print(settings.DATABASES['default']['CONN_MAX_AGE'])",
        env=env,
    )
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.split()[-1] == kept
