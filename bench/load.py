"""`make bench-load`: gunicorn on PostgreSQL under N live matches x 4 devices, from loopback.

1. A throw-away PostgreSQL database (``skirmish_load_<pid>``, dropped at the end) is migrated,
   the shipped catalogue loaded, and ``BENCH_LOAD_MAX`` Deathmatch matches prepared through the
   ORM: two players per match, each with two device sessions (phone and tablet).
2. gunicorn starts as deployed (deploy/gunicorn.conf.py, production settings, Redis cache) on
   127.0.0.1; with ``BENCH_LOAD_SERVERS=2``, two gunicorn processes on two ports, asked in turn
   by the generator (the scale-out check: one Redis, one database, no state in a process).
   Beside them the stream server (uvicorn on skirmish.asgi, as docker-compose.yml's ``stream``),
   and the pages follow their match by streams; ``BENCH_LOAD_STREAMS=0``: no stream server,
   every page polls (as before issue 16's streams). Its CPU counts as the server's.
3. CPU per request kind: each kind alone, a few hundred times; gunicorn's CPU (master and
   workers, from /proc) before and after, divided by the count.
4. The load: N matches x 4 devices open their pages (over 2 s, or at 40 pages a second for a
   big room), then play for ``BENCH_LOAD_SECONDS`` (bench/load_client.py), for a
   few N chosen by bisection (``BENCH_LOAD_STEPS``, first the goal of 200); per kind p50, p95,
   p99 and errors, and the largest N that held p95 <= 100 ms with no error.

Time: setup about a minute, then about 30 s of CPU phases, then each step its seconds plus the
opening (N x 4 / 40 s: 20 s at 200) plus about 10 s; the default (3 steps of 60 s) takes 6-8
minutes. ``BENCH_LOAD_N=100`` runs one N only.

gunicorn runs as docker-compose.yml runs it: deploy/gunicorn.conf.py (sync workers, Django
preloaded in the master) and no access log of its own (the proxy logs every request;
``GUNICORN_ACCESS_LOG=-`` puts it back, about 0.3 ms of CPU per request). Any ``GUNICORN_*``
variable of the environment reaches the servers.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from statistics import quantiles
from typing import Any

from bench import load_client
from bench.load_client import Device, Recorder, Sample

PROJECT = Path(__file__).resolve().parent.parent
GOAL_P95_MS = 100.0
GOAL_N = 200
WARMUP_SECONDS = 5.0  # after the last page opened: the first refreshes settle, not counted
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def _setting(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    return int(value) if value else default


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# --- The database -------------------------------------------------------------------------


def _server_url() -> str:
    url = os.environ.get("DATABASE_URL", "") or "postgres://postgres@127.0.0.1:5432/postgres"
    if not url.startswith(("postgres://", "postgresql://")):
        raise SystemExit("bench-load needs PostgreSQL: set DATABASE_URL to a postgres:// URL")
    return url


def _admin(sql: str) -> None:
    import psycopg

    base, _sep, _name = _server_url().rpartition("/")
    with psycopg.connect(f"{base}/postgres", autocommit=True) as connection:
        connection.execute(sql)  # type: ignore[arg-type]


@contextmanager
def throwaway_database() -> Iterator[str]:
    name = f"skirmish_load_{os.getpid()}"
    base = _server_url().rpartition("/")[0]
    _admin(f'DROP DATABASE IF EXISTS "{name}"')
    _admin(f'CREATE DATABASE "{name}"')
    try:
        yield f"{base}/{name}"
    finally:
        from django.db import connections

        connections.close_all()
        _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _team(faction: str, entries: list[str]) -> dict[str, object]:
    return {
        "format": "skirmish-roster/1",
        "system": "deathmatch",
        "name": f"Load {faction}",
        "faction": faction,
        "settings": {"game_size": 3},
        "entries": [{"profile": slug, "items": []} for slug in entries],
    }


TEAMS = (
    ("phalanx", ["phalanx-hauptmann-brandt", "phalanx-schildtraeger", "phalanx-brandmeister"]),
    (
        "shelzahav",
        ["shelzahav-emirin-sahar-vel", "shelzahav-duenenlaeufer", "shelzahav-scharfschuetzin"],
    ),
)


def prepare(matches: int) -> list[list[Device]]:
    """Catalogue, ``matches`` matches and their device sessions; per match its four devices."""
    import random
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.core.management import call_command

    from apps.accounts.models import User
    from apps.catalog.models import GameSystem
    from apps.catalog.services import catalog_load, shipped_catalog_files
    from apps.matches import services
    from apps.rosters import services as roster_services

    call_command("migrate", verbosity=0, interactive=False)
    for path in shipped_catalog_files():
        catalog_load(path)
    # One organiser per block of matches: a user may run MAX_ACTIVE_MATCHES_PER_USER at most.
    blocks: dict[int, tuple[User, list[Any]]] = {}

    def organiser_of(index: int) -> tuple[User, list[Any]]:
        block = index // (services.MAX_ACTIVE_MATCHES_PER_USER // 2)
        if block not in blocks:
            organiser = User.objects.create(username=f"load-organiser-{block}")
            teams = [
                roster_services.roster_import(owner=organiser, document=_team(faction, entries))
                for faction, entries in TEAMS
            ]
            blocks[block] = (organiser, teams)
        return blocks[block]

    system = GameSystem.objects.get(slug="deathmatch")
    store = import_module(settings.SESSION_ENGINE).SessionStore
    backend = "django.contrib.auth.backends.ModelBackend"
    tables: list[list[Device]] = []
    for index in range(matches):
        organiser, teams = organiser_of(index)
        match = services.match_create(
            creator=organiser,
            system=system,
            mode="deathmatch",
            seats=[services.Seat("A", teams[0]), services.Seat("B", teams[1])],
            settings={"game_size": 3, "gadgets": False},
            rng=random.Random(index),
        )
        devices = []
        for seat in match.players.order_by("index"):
            player = User.objects.create(username=f"load-{index}-{seat.index}")
            # As if the player had opened the match from their own team and taken its seat.
            seat.user = seat.team_owner = player
            seat.save(update_fields=["user", "team_owner"])
            for _device in range(2):
                session = store()
                session[SESSION_KEY] = str(player.pk)
                session[BACKEND_SESSION_KEY] = backend
                session[HASH_SESSION_KEY] = player.get_session_auth_hash()
                session.create()
                commands = not devices  # the first device of the first seat taps
                devices.append(Device(match.pk, str(session.session_key), commands))
        tables.append(devices)
    return tables


# --- gunicorn -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Ports:
    web: list[int]
    stream: int | None  # the stream server (uvicorn), if streams are on


@contextmanager
def web_servers(env: dict[str, str], servers: int, workers: int) -> Iterator[Ports]:
    ports = [_free_port() for _ in range(servers)]
    stream_port = _free_port() if env.get("MATCH_STREAMS") == "true" else None
    log = Path(tempfile.mkdtemp(prefix="bench-load-")) / "gunicorn.log"
    processes = []
    with log.open("wb") as output:
        for port in ports:
            server_env = {
                **env,
                "GUNICORN_BIND": f"127.0.0.1:{port}",
                "GUNICORN_WORKERS": str(workers),
                "GUNICORN_LOG_LEVEL": "warning",
            }
            command = [sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py"]
            processes.append(
                subprocess.Popen(
                    [*command, "skirmish.wsgi"],
                    cwd=PROJECT,
                    env=server_env,
                    stdout=output,
                    stderr=subprocess.STDOUT,
                )
            )
        if stream_port is not None:
            # As docker-compose.yml's stream service runs it: one uvicorn process.
            stream = [sys.executable, "-m", "uvicorn", "skirmish.asgi:application"]
            options = ["--host", "127.0.0.1", "--port", str(stream_port), "--no-access-log"]
            processes.append(
                subprocess.Popen(
                    [*stream, *options, "--log-level", "warning"],
                    cwd=PROJECT,
                    env={**env, "DATABASE_CONN_MAX_AGE": "0"},
                    stdout=output,
                    stderr=subprocess.STDOUT,
                )
            )
        try:
            for port, process in zip([*ports, stream_port], processes, strict=False):
                if port is not None:
                    _wait_for(port, process)
            yield Ports(ports, stream_port)
        finally:
            for process in processes:
                process.send_signal(signal.SIGINT)
            for process in processes:
                try:
                    process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    process.kill()
    print(f"  (gunicorn's log: {log})")


def _wait_for(port: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"a server exited with {process.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"the server did not listen on {port} within 60 s")


def _process_tree(pid: int) -> list[int]:
    found = [pid]
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            children = task.read_text().split()
        except OSError:  # a thread that ended meanwhile (the stream server's come and go)
            continue
        for child in children:
            found += _process_tree(int(child))
    return found


def gunicorn_cpu_seconds() -> float:
    """CPU of every gunicorn process of this run (masters, workers, and workers that exited)."""
    total = 0
    for pid in _process_tree(os.getpid()):
        if pid == os.getpid():
            continue
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(value) for value in fields[11:15])  # utime, stime, cutime, cstime
    return total / CLOCK_TICKS


# --- Measuring and reporting --------------------------------------------------------------


def _percentiles(values: Sequence[float]) -> tuple[float, float, float]:
    if len(values) < 2:
        value = values[0] if values else 0.0
        return value, value, value
    cuts = quantiles(values, n=100, method="inclusive")
    return cuts[49], cuts[94], cuts[98]


# The CPU phases ask the same few matches again and again. Asked once each (300 matches, 300
# requests), every poll missed the seq cache (its entry expired while the pages opened) and every
# "kept" refresh was a first render: the figures were those of the slow paths.
CPU_DEVICES = 20


def _print_cpu(name: str, spent: float, count: int, recorder: Recorder) -> None:
    errors = sum(1 for sample in recorder.samples if not sample.ok)
    p50, p95, _p99 = _percentiles([sample.ms for sample in recorder.samples])
    print(
        f"  {name:<40} {spent / count * 1000:7.2f} ms CPU   "
        f"p50 {p50:6.1f} ms  p95 {p95:6.1f} ms   n={count} errors={errors}"
    )


def cpu_per_kind(tables: list[list[Device]], ports: list[int]) -> None:
    """Each request kind alone: gunicorn CPU per request, after one unmeasured round (which
    fills the caches the kind relies on)."""
    devices = [table[1] for table in tables[:CPU_DEVICES]]  # a device that does not tap
    asyncio.run(_open_pages(devices, ports))
    poll_etag = {"If-None-Match": '"{seq}"'}
    token = {**load_client.HTMX, "X-Skirmish-Poll-Token": "{token}"}
    kinds = [
        ("poll, unchanged (304, token + cache)", "{poll}", (304,), poll_etag),
        ("poll, unchanged (304, database path)", "/matches/{match}/poll/", (304,), poll_etag),
        ("tracker refresh, kept (token + cache)", "/matches/{match}/", (200,), token),
        ("tracker refresh, kept (database path)", "/matches/{match}/", (200,), load_client.HTMX),
        ("tracker refresh, drawn", "/matches/{match}/?fresh={n}", (200,), load_client.HTMX),
    ]
    print("\nCPU per request, one kind at a time (gunicorn master + workers, /proc)")
    for name, path, expected, headers in kinds:
        count = 600 if "poll" in name else 300
        for measured in (False, True):
            before = gunicorn_cpu_seconds()
            recorder = asyncio.run(
                load_client.repeat(
                    name,
                    path,
                    devices=devices,
                    ports=ports,
                    count=count if measured else len(devices),
                    expected=expected,
                    headers=dict(headers),
                )
            )
            spent = gunicorn_cpu_seconds() - before
        _print_cpu(name, spent, count, recorder)


async def _taps(devices: Sequence[Device], ports: list[int], count: int) -> Recorder:
    """``count`` commands, each table's tapping device in turn, one at a time per table."""
    recorder = Recorder()
    servers = load_client.Servers(ports)
    rng = random.Random(0)
    for index in range(count):
        await load_client.command_once(devices[index % len(devices)], servers, recorder, rng)
    return recorder


def cpu_per_tap(tables: list[list[Device]], ports: list[int], count: int = 200) -> None:
    """An HTMX tap (a free flip, answered with the tracker drawn for its viewer): gunicorn CPU
    per command, after one unmeasured tap per table."""
    devices = [table[0] for table in tables[:CPU_DEVICES]]  # the device that taps
    asyncio.run(_open_pages(devices, ports))
    asyncio.run(_taps(devices, ports, len(devices)))
    before = gunicorn_cpu_seconds()
    recorder = asyncio.run(_taps(devices, ports, count))
    spent = gunicorn_cpu_seconds() - before
    _print_cpu("command (HTMX tap, drawn)", spent, count, recorder)


async def _open_pages(devices: Sequence[Device], ports: list[int]) -> None:
    recorder = Recorder()
    servers = load_client.Servers(ports)
    for device in devices:
        await load_client.load_page(device, servers, recorder)


def _print_table(samples: Sequence[Sample], counted: Sequence[Sample]) -> float:
    """Per kind p50/p95/p99 and errors (pages and stream openings: every one; the rest: the
    steady state); the p95 of the steady state's kinds together."""
    print(f"  {'kind':<9} {'n':>6} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'errors':>7}")
    p95 = 0.0
    opening = ("page", "stream")
    for kind in ("page", "stream", "poll", "refresh", "command", "all"):
        if kind == "all":
            chosen = [s for s in counted if s.kind not in opening]
        else:
            chosen = [s for s in (samples if kind in opening else counted) if s.kind == kind]
        if not chosen and kind != "all":
            continue
        errors = sum(1 for s in chosen if not s.ok)
        p50, p95, p99 = _percentiles([s.ms for s in chosen])
        print(f"  {kind:<9} {len(chosen):>6} {p50:8.1f} {p95:8.1f} {p99:8.1f} {errors:>7}")
    return p95  # the last row's: all


def _print_windows(samples: Sequence[Sample], playing: float, width: float = 10.0) -> None:
    """The p95 of all requests started in each ``width`` seconds of play: a backlog that
    builds up shows as a rising row, a passing stall as one high window."""
    windows: dict[int, list[float]] = {}
    for sample in samples:
        if sample.started >= playing:
            windows.setdefault(int((sample.started - playing) // width), []).append(sample.ms)
    cells = [f"{_percentiles(windows[i])[1]:.0f}" for i in sorted(windows) if len(windows[i]) >= 20]
    print(f"  p95 ms by {width:.0f} s of play: {' '.join(cells)}")


def run_load(tables: list[list[Device]], ports: Ports, n: int, seconds: float) -> bool:
    devices = [device for table in tables[:n] for device in table]
    before, started = gunicorn_cpu_seconds(), time.monotonic()
    client_before = time.process_time()
    recorder, playing = asyncio.run(
        load_client.drive(devices, ports.web, seconds, stream_port=ports.stream)
    )
    wall = time.monotonic() - started
    server_cpu = gunicorn_cpu_seconds() - before
    client_cpu = time.process_time() - client_before
    counted = [s for s in recorder.samples if s.started - playing >= WARMUP_SECONDS]
    print(
        f"\n{n} matches x 4 devices, pages opened over {playing - started:.0f} s, then "
        f"{seconds:.0f} s ({len(recorder.samples)} requests)"
    )
    p95 = _print_table(recorder.samples, counted)
    _print_windows(recorder.samples, playing)
    holds = p95 <= GOAL_P95_MS and all(s.ok for s in recorder.samples)
    rate = len(recorder.samples) / wall
    print(
        f"  server CPU (gunicorn{' + stream server' if ports.stream else ''}) "
        f"{server_cpu:.1f} s = {server_cpu / wall:.2f} cores "
        f"({server_cpu / max(1, len(recorder.samples)) * 1000:.2f} ms/request, {rate:.0f} req/s);"
        f" generator {client_cpu / wall:.2f} cores"
    )
    if any(not s.ok for s in recorder.samples):
        print(f"  statuses: {dict(recorder.statuses)}")
    print(f"  p95 <= {GOAL_P95_MS:.0f} ms with 0 errors: {'yes' if holds else 'NO'}", flush=True)
    return holds


def search(tables: list[list[Device]], ports: Ports, seconds: float) -> None:
    """The largest N that holds, by bisection from the goal (steps of 25), bounded in steps."""
    fixed = os.environ.get("BENCH_LOAD_N", "").strip()
    if fixed:
        run_load(tables, ports, min(int(fixed), len(tables)), seconds)
        return
    low, high = 0, len(tables) + 1
    candidate = min(GOAL_N, len(tables))
    for _step in range(_setting("BENCH_LOAD_STEPS", 3)):
        if run_load(tables, ports, candidate, seconds):
            low = candidate
        else:
            high = candidate
        candidate = (low + high) // 2 // 25 * 25
        if candidate <= low or candidate >= high:
            break
    print(f"\nLargest N tried that held p95 <= {GOAL_P95_MS:.0f} ms with 0 errors: {low or 'none'}")


def main() -> int:
    matches = _setting("BENCH_LOAD_MAX", 300)
    seconds = float(_setting("BENCH_LOAD_SECONDS", 60))
    servers = _setting("BENCH_LOAD_SERVERS", 1)
    # As deployed (deploy/gunicorn.conf.py); two servers share the cores.
    workers = _setting("BENCH_LOAD_WORKERS", 5 if servers == 1 else 3)
    redis_url = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/13")
    streams = os.environ.get("BENCH_LOAD_STREAMS", "1").strip() != "0"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "bench.load_settings",
        "DJANGO_DEBUG": "false",
        "DJANGO_HTTPS": "false",
        "ALLOWED_HOSTS": "127.0.0.1",
        "REDIS_URL": redis_url,
        "GUNICORN_ACCESS_LOG": os.environ.get("GUNICORN_ACCESS_LOG", "off"),
        "MATCH_STREAMS": "true" if streams else "false",
        "BENCH_LOAD_CACHE_PREFIX": f"bench-load-{os.getpid()}-{int(time.time())}",
        "DJANGO_SECRET_KEY": os.environ.get("DJANGO_SECRET_KEY")
        or "bench-load-only-not-secret-0123456789abcdef0123456789abcdef",
    }
    with throwaway_database() as database_url:
        env["DATABASE_URL"] = database_url
        os.environ.update(env)
        import django

        django.setup()
        started = time.monotonic()
        tables = prepare(matches)
        print(
            f"Skirmish load benchmark ({os.cpu_count()} cores; {servers} gunicorn x {workers} "
            f"sync workers, preload {env.get('GUNICORN_PRELOAD', 'true')}, access log "
            f"{env['GUNICORN_ACCESS_LOG']}; {'streams' if streams else 'polls only'}; PostgreSQL; "
            f"Redis {redis_url}); {matches} matches "
            f"ready in {time.monotonic() - started:.0f} s",
            flush=True,
        )
        with web_servers(env, servers, workers) as ports:
            cpu_per_kind(tables, ports.web)
            cpu_per_tap(tables, ports.web)
            search(tables, ports, seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
