"""A tap in the browser (issue 16): headless Chromium on a tablet viewport, a live Deathmatch
tracker served by gunicorn with production settings, from the click to the swapped DOM settled.

The server is a process of its own (deploy/gunicorn.conf.py, DEBUG off, hashed static files as
``make bench`` collects them) on a throw-away SQLite file, prepared by ``python -m bench.browser
prepare`` in a child process: the parent's test database is not reachable from another process.

In the page, a listener notes ``performance.now()`` at the click (the event's own time stamp)
and at ``htmx:afterSettle`` (then at the next frame, once the browser has styled, laid out and
painted the new tracker). The floor is measured the same way: a no-op htmx GET of a tiny static
file swapped into a small element. ``BENCH_BROWSER_TRACE=1`` adds a Chromium performance trace of
a few taps, summed by event (style, layout, script, parsing), to show where the browser's time
goes.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from bench.report import Report

PROJECT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("SKIRMISH_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
TABLET = {"width": 820, "height": 1180}
TAPS = 30
GOAL_MEDIAN_MS = 50.0
USERNAME = "bench-browser"
PASSWORD = "bench-browser-password-123"  # noqa: S105 - a throw-away database's only user

# Installed once per page: the click's and the settle's times, kept for Python to collect.
PROBE = """() => {
  if (window.__tap) return;
  const tap = window.__tap = {clicked: null};
  document.addEventListener('click', (event) => {
    tap.clicked = event.timeStamp; tap.sent = tap.answered = tap.settled = tap.painted = null;
  }, true);
  document.addEventListener('htmx:beforeSend', () => { tap.sent = performance.now(); });
  document.addEventListener('htmx:beforeSwap', () => { tap.answered = performance.now(); });
  document.addEventListener('htmx:afterSettle', () => {
    if (tap.clicked === null || tap.settled !== null) return;
    tap.settled = performance.now();
    // The next frame's callback runs after style and layout of the swapped DOM; a task queued
    // from it runs after that frame is painted.
    requestAnimationFrame(() => setTimeout(() => { tap.painted = performance.now(); }, 0));
  });
}"""
# The floor's target: a tiny element that an htmx GET of a small static file fills.
FLOOR_BUTTON = """(url) => {
  const box = document.createElement('div');
  box.innerHTML = '<button type="button" id="bench-floor" hx-get="' + url + '"'
    + ' hx-target="#bench-floor-out" hx-swap="innerHTML">floor</button>'
    + '<span id="bench-floor-out"></span>';
  box.style.cssText = 'position:fixed;top:0;left:0;z-index:9999';
  document.body.appendChild(box);
  htmx.process(box);
}"""
TRACE_CATEGORIES = "devtools.timeline,disabled-by-default-devtools.timeline,blink,v8"
TRACE_EVENTS = (
    "UpdateLayoutTree",
    "Layout",
    "ParseHTML",
    "FunctionCall",
    "EvaluateScript",
    "Paint",
    "PrePaint",
    "Layerize",
    "HitTest",
    "ParseAuthorStyleSheet",
    "MajorGC",
    "MinorGC",
    "XHRReadyStateChange",
)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# --- The server (child processes) -----------------------------------------------------------


def prepare() -> dict[str, Any]:
    """Runs in the child: a migrated database, the catalogue, one user holding both seats of a
    started Deathmatch (small teams), as at a real table."""
    import random

    from django.core.management import call_command

    from apps.accounts.models import User
    from apps.catalog.models import GameSystem
    from apps.catalog.services import catalog_load, shipped_catalog_files
    from apps.matches import services
    from apps.rosters import services as roster_services
    from bench.load import _team

    call_command("migrate", verbosity=0, interactive=False)
    for path in shipped_catalog_files():
        catalog_load(path)
    anna = User.objects.create_user(USERNAME, password=PASSWORD)
    rosters = [
        roster_services.roster_import(owner=anna, document=_team(faction, entries))
        for faction, entries in (
            (
                "phalanx",
                ["phalanx-hauptmann-brandt", "phalanx-schildtraeger", "phalanx-brandmeister"],
            ),
            (
                "shelzahav",
                [
                    "shelzahav-emirin-sahar-vel",
                    "shelzahav-duenenlaeufer",
                    "shelzahav-scharfschuetzin",
                ],
            ),
        )
    ]
    match = services.match_create(
        creator=anna,
        system=GameSystem.objects.get(slug="deathmatch"),
        mode="last-man-standing",
        seats=[services.Seat("Anna", rosters[0]), services.Seat("Ben", rosters[1])],
        settings={"game_size": 3, "gadgets": False},
        rng=random.Random(5),
    )
    _start(match.pk, anna)
    return {"match": match.pk}


def _start(match_id: int, user: Any) -> None:
    """Deployment and initiative played with legal commands, so that the board is the one of
    a game in progress (ties flip again; an open flip is accepted)."""
    import random

    from apps.matches import services
    from apps.matches.models import Match
    from apps.systems.core.errors import RuleViolation

    def do(command: str, **args: Any) -> bool:
        try:
            services.match_apply_command(
                user=user,
                match_id=match_id,
                command_type=command,
                args=args,
                expected_seq=None,
                idempotency_key=None,
                rng=random.Random(11),
            )
        except RuleViolation:
            return False
        return True

    do("deployment_flip")
    chooser = Match.objects.get(pk=match_id).state.get("deployment_chooser", 0)
    do("choose_first_deployer", player=chooser)
    do("start_game")
    do("flip_initiative")
    for _step in range(12):
        if do("choose_starter", player=0):
            break
        do("accept") or do("flip_initiative")


def _redis_url() -> str:
    """Redis as deployed (the tracker's caches are shared), if one answers; else none."""
    url = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/13")
    try:
        import redis

        redis.Redis.from_url(url, socket_timeout=2).ping()
    except Exception:  # noqa: BLE001 - any failure means: no Redis for this run
        return ""
    return url


def _server_env(database_url: str) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("CELERY_BROKER_URL", "REDIS_URL", "DATABASE_URL", "DJANGO_SETTINGS_MODULE")
    }
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "bench.browser_settings",
            "DJANGO_DEBUG": "false",
            "DJANGO_HTTPS": "false",
            "ALLOWED_HOSTS": "127.0.0.1",
            "DATABASE_URL": database_url,
            "REDIS_URL": _redis_url(),
            "BENCH_LOAD_CACHE_PREFIX": f"bench-browser-{os.getpid()}-{int(time.time())}",
            "DJANGO_SECRET_KEY": os.environ.get("DJANGO_SECRET_KEY")
            or "bench-browser-only-not-secret-0123456789abcdef0123456789abcdef",
            "GUNICORN_LOG_LEVEL": "warning",
        }
    )
    return env


@contextmanager
def database(root: Path) -> Iterator[str]:
    """A throw-away PostgreSQL database as deployed (bench/load.py's), or, without a server,
    a SQLite file."""
    from bench import load

    try:
        load._server_url()
        load._admin("SELECT 1")
    except (SystemExit, Exception):  # noqa: BLE001 - no PostgreSQL server: SQLite
        yield f"sqlite:///{root / 'browser.sqlite3'}"
        return
    with load.throwaway_database() as url:
        yield url


@contextmanager
def server(root: Path, database_url: str) -> Iterator[tuple[str, int]]:
    """gunicorn as deployed (two sync workers: the page's poll never queues a tap) on a
    prepared database; yields the base URL and the match id."""
    env = _server_env(database_url)
    prepared = subprocess.run(
        [sys.executable, "-m", "bench.browser", "prepare"],
        cwd=PROJECT,
        env=env,
        capture_output=True,
        check=True,
        timeout=600,
    )
    match_id = int(json.loads(prepared.stdout.decode().strip().splitlines()[-1])["match"])
    port = _free_port()
    env.update({"GUNICORN_BIND": f"127.0.0.1:{port}", "GUNICORN_WORKERS": "2"})
    log = (root / "gunicorn.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", "skirmish.wsgi"],
        cwd=PROJECT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        from bench.load import _wait_for

        _wait_for(port, process)
        base = f"http://127.0.0.1:{port}"
        # Each worker's first request loads the app (seconds on a busy machine): not a tap's.
        for _worker in range(4):
            with urllib.request.urlopen(base + "/accounts/login/", timeout=120) as answer:
                answer.read()
        yield base, match_id
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


# --- The browser ----------------------------------------------------------------------------


PHASES = {
    "settled": "to settled",
    "painted": "to the next frame painted",
    "request": "of it: click to request sent (browser)",
    "server": "of it: request to answer (server, loopback)",
    "swap": "of it: answer to settled (browser: parse, swap, handlers)",
}


def _timed_click(page: Page, selector: str) -> dict[str, float]:
    """Click ``selector``; milliseconds from the click to the settled DOM and to its paint,
    and the parts of the first: before the request, the server's, the swap's."""
    page.click(selector)
    page.wait_for_function("() => window.__tap.painted !== null", timeout=10_000)
    tap = page.evaluate("() => window.__tap")
    return {
        "settled": tap["settled"] - tap["clicked"],
        "painted": tap["painted"] - tap["clicked"],
        "request": tap["sent"] - tap["clicked"],
        "server": tap["answered"] - tap["sent"],
        "swap": tap["settled"] - tap["answered"],
    }


def _flip_button(page: Page) -> str:
    """The free flip's button, in sight: a command that never ends the game (bench/taps.py
    sends the same), answered with the whole tracker partial."""
    page.evaluate(
        "() => { const box = document.querySelector('#tracker details.free-flip');"
        " box.open = true; box.scrollIntoView({block: 'center'}); }"
    )
    return "#tracker details.free-flip button[type=submit]"


def _median(samples: list[float]) -> float:
    return statistics.median(samples)


def _line(name: str, samples: list[float], floor: float | None = None) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    ratio = f"   {_median(ordered) / floor:4.1f}× the floor" if floor else ""
    return (
        f"  {name:<62} median {_median(ordered):7.1f} ms   p95 {p95:7.1f} ms   "
        f"n={len(samples)}{ratio}"
    )


def _clicks(page: Page, selector: str | Callable[[], str], count: int) -> dict[str, list[float]]:
    samples: dict[str, list[float]] = {phase: [] for phase in PHASES}
    for _ in range(count):
        for phase, ms in _timed_click(page, selector() if callable(selector) else selector).items():
            samples[phase].append(ms)
    return samples


def _floor(page: Page, static_url: str) -> dict[str, list[float]]:
    page.evaluate(FLOOR_BUTTON, static_url)
    _clicks(page, "#bench-floor", 3)  # warm: the file is in the browser's cache after
    samples = _clicks(page, "#bench-floor", TAPS)
    page.evaluate("() => document.getElementById('bench-floor').parentElement.remove()")
    return samples


def _taps(page: Page, count: int) -> dict[str, list[float]]:
    return _clicks(page, lambda: _flip_button(page), count)


def _trace_summary(path: Path, taps: int) -> None:
    """The renderer main thread's time per event name, per tap, the biggest first."""
    events = json.loads(path.read_text())
    events = events.get("traceEvents", events) if isinstance(events, dict) else events
    main = {
        (event["pid"], event["tid"])
        for event in events
        if event.get("name") == "thread_name"
        and event.get("args", {}).get("name") == "CrRendererMain"
    }
    spent: Counter[str] = Counter()
    scripts: Counter[str] = Counter()
    for event in events:
        if (event.get("pid"), event.get("tid")) not in main or event.get(
            "name"
        ) not in TRACE_EVENTS:
            continue
        spent[event["name"]] += event.get("dur", 0) / 1000
        if event["name"] == "FunctionCall":
            data = event.get("args", {}).get("data", {})
            where = f"{data.get('url', '?').rsplit('/', 1)[-1]}:{data.get('lineNumber', '?')}"
            scripts[f"{where} {data.get('functionName') or '(anonymous)'}"] += event["dur"] / 1000
    print(f"  Chromium trace, renderer main thread, ms per tap ({taps} taps):")
    for name, ms in spent.most_common():
        print(f"    {name:<24} {ms / taps:7.2f}")
    print("  Script (FunctionCall) by function, ms per tap:")
    for name, ms in scripts.most_common(8):
        print(f"    {name:<60} {ms / taps:7.2f}")


def measure_browser(base: str, match_id: int, root: Path) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        context = browser.new_context(viewport=TABLET, locale="en-GB", has_touch=True)
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.goto(base + "/accounts/login/")
        page.get_by_label("Username").fill(USERNAME)
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Log in").click()
        page.wait_for_url(lambda url: "/accounts/login/" not in url)
        page.goto(f"{base}/matches/{match_id}/")
        page.wait_for_selector("#tracker")
        page.evaluate(PROBE)
        static_url = page.evaluate(
            "() => [...document.querySelectorAll('link[rel=stylesheet]')]"
            ".map((link) => link.href).find((href) => href.includes('/static/'))"
        )
        _taps(page, 5)  # the first taps load odds tables and fonts: not counted
        floor = _floor(page, static_url)
        taps = _taps(page, TAPS)
        size = page.evaluate("() => document.getElementById('tracker').outerHTML.length")
        print(f"  (tracker partial: {size / 1024:.1f} KB of HTML, {page.evaluate(_NODES)} nodes)")
        _print(floor, taps)
        if os.environ.get("BENCH_BROWSER_TRACE"):
            trace = root / "trace.json"
            browser.start_tracing(
                page=page, path=str(trace), categories=TRACE_CATEGORIES.split(",")
            )
            _taps(page, 10)
            browser.stop_tracing()
            _trace_summary(trace, 10)
        browser.close()


def _print(floor: dict[str, list[float]], taps: dict[str, list[float]]) -> None:
    for phase, label in PHASES.items():
        print(_line(f"floor: htmx GET of a small static file, {label}", floor[phase]))
    for phase, label in PHASES.items():
        print(
            _line(f"tap: free flip + tracker partial, {label}", taps[phase], _median(floor[phase]))
        )
    median, floor_ms = _median(taps["settled"]), _median(floor["settled"])
    print(
        f"  tap to a settled DOM: median {median:.1f} ms (goal ≤ {GOAL_MEDIAN_MS:g} ms: "
        f"{'yes' if median <= GOAL_MEDIAN_MS else 'NO'}; floor {floor_ms:.1f} ms)",
        flush=True,
    )


_NODES = "() => document.getElementById('tracker').getElementsByTagName('*').length"


def run(report: Report) -> None:
    del report  # milliseconds in the browser, printed here: not server timings
    print(
        f"\nBrowser: a tap on the Deathmatch tracker in headless Chromium ({TABLET['width']}×"
        f"{TABLET['height']}), gunicorn with production settings on loopback",
        flush=True,
    )
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        print(f"  skipped: no Chromium at {CHROMIUM} (apt-get install chromium)")
        return
    try:
        import playwright  # noqa: F401
    except ImportError:
        print("  skipped: Playwright is not installed (pip install -e '.[dev]')")
        return
    root = Path(tempfile.mkdtemp(prefix="bench-browser-"))
    try:
        started = time.monotonic()
        with database(root) as url, server(root, url) as (base, match_id):
            print(
                f"  ({url.split(':', 1)[0]}, {'Redis' if _redis_url() else 'local-memory'} cache;"
                f" server prepared in {time.monotonic() - started:.0f} s)",
                flush=True,
            )
            measure_browser(base, match_id, root)
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "skirmish.settings")
    import django

    django.setup()
    if sys.argv[1:] == ["prepare"]:
        print(json.dumps(prepare()))
    else:
        from bench.report import Report

        run(Report())
