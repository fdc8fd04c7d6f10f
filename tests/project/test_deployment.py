"""The production setup as files: docker-compose.yml, the Dockerfile, .dockerignore, gunicorn's
config and the web container's health check (issue 15, "Hardening gaps").

What runs is tested in tests/faults/test_proxy.py (gunicorn behind nginx with these configs);
here the files themselves are checked, and the compose file is validated with
``docker-compose config`` as CI does (.ci/run).
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml
from django.conf import settings

from tests.conftest import skip_or_fail

PROJECT = Path(__file__).resolve().parents[2]
APP_SERVICES = ("web", "stream", "worker", "beat")
REQUIRED_ENV = {"DJANGO_SECRET_KEY": "compose-check-only", "ALLOWED_HOSTS": "skirmish.example.org"}


def compose() -> dict[str, Any]:
    return yaml.safe_load((PROJECT / "docker-compose.yml").read_text())


def app_environment(service: str) -> dict[str, str]:
    return compose()["services"][service]["environment"]


def load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def docker_compose(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    binary = shutil.which("docker-compose")
    if binary is None:
        skip_or_fail("no docker-compose (apt-get install docker-compose)")
    clean = {key: value for key, value in os.environ.items() if key not in REQUIRED_ENV}
    return subprocess.run(
        [str(binary), "-f", str(PROJECT / "docker-compose.yml"), *args],
        cwd=PROJECT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


# --- docker-compose.yml -----------------------------------------------------------------------


def test_compose_config_is_valid_as_ci_checks_it() -> None:
    result = docker_compose("config", "--quiet", env=REQUIRED_ENV)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("missing", sorted(REQUIRED_ENV))
def test_compose_refuses_to_start_without_a_secret_key_or_hosts(missing: str) -> None:
    env = {key: value for key, value in REQUIRED_ENV.items() if key != missing}
    result = docker_compose("config", "--quiet", env=env)
    assert result.returncode != 0
    assert f"set {missing}" in result.stderr


def test_the_secret_key_has_no_default() -> None:
    for service in APP_SERVICES:
        env = app_environment(service)
        assert env["DJANGO_SECRET_KEY"].startswith("${DJANGO_SECRET_KEY:?"), service
        assert env["ALLOWED_HOSTS"].startswith("${ALLOWED_HOSTS:?"), service


def test_https_is_on_by_default_and_the_proxy_headers_are_trusted() -> None:
    for service in APP_SERVICES:
        env = app_environment(service)
        assert env["DJANGO_HTTPS"] == "${DJANGO_HTTPS:-true}", service
        assert env["DJANGO_SECURE_PROXY_SSL_HEADER"] == "true", service
        # One proxy in front (two behind a load balancer): Django and the throttles take the
        # address the nearest one appends.
        assert env["NUM_PROXIES"] == "${NUM_PROXIES:-1}", service
        assert env["CSRF_TRUSTED_ORIGINS"] == "${CSRF_TRUSTED_ORIGINS:-}", service


def test_the_resolved_compose_file_keeps_https_on(tmp_path: Path) -> None:
    result = docker_compose("config", env=REQUIRED_ENV)
    assert result.returncode == 0, result.stderr
    resolved = yaml.safe_load(result.stdout)["services"]
    for service in APP_SERVICES:
        env = resolved[service]["environment"]
        assert env["DJANGO_HTTPS"] == "true", service
        assert env["NUM_PROXIES"] == "1", service
        assert env["DJANGO_SECRET_KEY"] == REQUIRED_ENV["DJANGO_SECRET_KEY"], service


def test_only_the_proxy_is_published() -> None:
    services = compose()["services"]
    published = {name for name, service in services.items() if service.get("ports")}
    assert published == {"proxy"}
    assert services["proxy"]["image"].startswith("nginx:")
    # gunicorn is reachable by the proxy only.
    assert services["web"]["expose"] == ["8000"]
    assert services["proxy"]["environment"]["SKIRMISH_UPSTREAM"] == "web:8000"
    # So is the stream server, which the proxy sends the trackers' streams to.
    assert services["stream"]["expose"] == ["8001"]
    assert services["stream"]["environment"]["DATABASE_CONN_MAX_AGE"] == "0"
    assert services["web"]["environment"]["MATCH_STREAMS"] == "true"
    assert services["proxy"]["environment"]["SKIRMISH_STREAM_UPSTREAM"] == "stream:8001"


def test_every_service_restarts_unless_stopped() -> None:
    services = compose()["services"]
    restart = {name: service.get("restart") for name, service in services.items()}
    assert restart == dict.fromkeys(services, "unless-stopped")


def test_web_worker_and_beat_run_one_image_built_once() -> None:
    services = compose()["services"]
    images = {services[name]["image"] for name in APP_SERVICES}
    assert images == {"${SKIRMISH_IMAGE:-skirmish:latest}"}
    assert [name for name in services if "build" in services[name]] == ["web"]
    # stream, worker and beat never pull an image of that name from a registry: they wait for
    # web's.
    for name in ("stream", "worker", "beat"):
        assert services[name]["pull_policy"] == "never"
        assert services[name]["depends_on"]["web"] == {"condition": "service_healthy"}


def test_the_web_healthcheck_is_the_images_own() -> None:
    web = compose()["services"]["web"]
    assert web["healthcheck"]["test"] == ["CMD", "python", "deploy/healthcheck.py"]


# --- Dockerfile and .dockerignore ---------------------------------------------------------------


def dockerfile_stages() -> list[list[str]]:
    """The Dockerfile's instructions (continuation lines joined), split into stages."""
    text = re.sub(r"\\\n", " ", (PROJECT / "Dockerfile").read_text())
    stages: list[list[str]] = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.upper().startswith("FROM "):
            stages.append([])
        stages[-1].append(line)
    return stages


def test_the_dockerfile_has_a_build_and_a_runtime_stage() -> None:
    stages = dockerfile_stages()
    assert len(stages) == 2
    build, runtime = stages
    assert build[0].endswith(" AS build")
    assert runtime[0].endswith(" AS runtime")
    # The runtime stage installs nothing with pip and has no compiler: it copies the venv.
    assert not any("pip install" in line for line in runtime)
    assert "COPY --from=build /venv /venv" in runtime


def test_the_runtime_image_has_a_healthcheck_and_runs_unprivileged() -> None:
    runtime = dockerfile_stages()[-1]
    healthchecks = [line for line in runtime if line.startswith("HEALTHCHECK ")]
    assert len(healthchecks) == 1
    assert 'CMD ["python", "deploy/healthcheck.py"]' in healthchecks[0]
    assert "USER skirmish" in runtime
    assert runtime[-1] == 'CMD ["gunicorn", "-c", "deploy/gunicorn.conf.py", "skirmish.wsgi"]'


def test_the_runtime_image_holds_no_tests_bench_or_docs() -> None:
    runtime = dockerfile_stages()[-1]
    copied = [line.split()[-2:] for line in runtime if line.startswith("COPY --from=build")]
    sources = " ".join(source for source, _ in copied)
    for folder in ("tests", "bench", "docs", "tools", ".ci"):
        assert f"/app/{folder}" not in sources, folder
    # Nor the build context (the build stage's `COPY . .`).
    ignored = {
        line.strip()
        for line in (PROJECT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    }
    assert {"tests", "bench", "docs", "tools", ".git", ".venv", "**/*.pem", "**/*.key"} <= ignored


# --- gunicorn and the health check ------------------------------------------------------------


def test_gunicorn_has_timeouts_and_recycles_its_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("GUNICORN_TIMEOUT", "GUNICORN_GRACEFUL_TIMEOUT", "GUNICORN_MAX_REQUESTS"):
        monkeypatch.delenv(name, raising=False)
    config = load(PROJECT / "deploy" / "gunicorn.conf.py")
    assert config.worker_class == "sync"
    assert config.timeout == 30
    assert config.graceful_timeout == 30
    assert config.max_requests == 5000
    # Spread widely: workers that start together are not replaced together.
    assert config.max_requests // 2 <= config.max_requests_jitter < config.max_requests
    # nginx waits longer for an answer than gunicorn lets a request run: gunicorn's kill (and
    # its log line) comes first.
    locations = (PROJECT / "deploy" / "nginx" / "locations.conf").read_text()
    read_timeout = re.search(r"proxy_read_timeout (\d+)s;", locations)
    assert read_timeout is not None and int(read_timeout.group(1)) > config.timeout


@pytest.mark.parametrize("preload", ["true", "false"])
def test_every_gunicorn_worker_starts_warm(monkeypatch: pytest.MonkeyPatch, preload: str) -> None:
    """With preload_app the master warms up once, before it forks (apps.common.warmup), and
    freezes what it loaded; without it, each worker warms itself before its first request."""
    import gc

    from apps.common import warmup

    monkeypatch.setenv("GUNICORN_PRELOAD", preload)
    warmed: list[str] = []
    monkeypatch.setattr(warmup, "warm_process", lambda: warmed.append("warm"))
    monkeypatch.setattr(gc, "freeze", lambda: warmed.append("freeze"))
    config = load(PROJECT / "deploy" / "gunicorn.conf.py")
    config.when_ready(None)
    assert warmed == (["warm", "freeze"] if preload == "true" else [])
    config.post_worker_init(None)
    assert warmed == (["warm", "freeze"] if preload == "true" else ["warm"])


def test_gunicorn_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GUNICORN_TIMEOUT", "20")
    monkeypatch.setenv("GUNICORN_MAX_REQUESTS", "500")
    config = load(PROJECT / "deploy" / "gunicorn.conf.py")
    assert (config.timeout, config.max_requests) == (20, 500)
    monkeypatch.setenv("GUNICORN_TIMEOUT", "soon")
    with pytest.raises(SystemExit, match="GUNICORN_TIMEOUT"):
        load(PROJECT / "deploy" / "gunicorn.conf.py")


def test_the_compose_file_hands_gunicorn_its_settings() -> None:
    env = app_environment("web")
    assert env["GUNICORN_TIMEOUT"] == "${GUNICORN_TIMEOUT:-30}"
    assert env["GUNICORN_MAX_REQUESTS"] == "${GUNICORN_MAX_REQUESTS:-5000}"


@pytest.mark.parametrize(
    ("allowed_hosts", "host"),
    [
        ("skirmish.example.org,www.skirmish.example.org", "skirmish.example.org"),
        (" .example.org ", "example.org"),
        ("*,skirmish.example.org", "skirmish.example.org"),
        ("", "localhost"),
    ],
)
def test_the_healthcheck_names_a_host_django_accepts(allowed_hosts: str, host: str) -> None:
    healthcheck = load(PROJECT / "deploy" / "healthcheck.py")
    assert healthcheck.site_host(allowed_hosts) == host


def test_healthz_is_exempt_from_the_https_redirect() -> None:
    assert any(re.match(pattern, "healthz") for pattern in settings.SECURE_REDIRECT_EXEMPT)
    assert not any(re.match(pattern, "healthz/x") for pattern in settings.SECURE_REDIRECT_EXEMPT)


# --- nginx --------------------------------------------------------------------------------------


def test_the_proxy_caps_bodies_at_djangos_cap() -> None:
    locations = (PROJECT / "deploy" / "nginx" / "locations.conf").read_text()
    cap = re.search(r"^client_max_body_size (\d+)m;", locations, re.MULTILINE)
    assert cap is not None
    assert int(cap.group(1)) * 1024 * 1024 == settings.REQUEST_MAX_BODY_SIZE
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE == settings.REQUEST_MAX_BODY_SIZE
    assert settings.FILE_UPLOAD_MAX_MEMORY_SIZE == settings.REQUEST_MAX_BODY_SIZE


def test_the_proxy_sets_the_forwarded_headers_itself() -> None:
    locations = (PROJECT / "deploy" / "nginx" / "locations.conf").read_text()
    assert "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;" in locations
    assert "proxy_set_header Host $http_host;" in locations
    assert "proxy_request_buffering on;" in locations
    assert "proxy_buffering on;" in locations
