"""The load generator of `make bench-load`: tablets following live matches, over loopback.

A small HTTP/1.1 client on asyncio streams rather than a client library: gunicorn's sync workers
close every connection after one response anyway, and on a 2-core machine the generator's own
CPU per request (a fraction of httpx's) would otherwise be taken from the server it measures.

Each device does what static/js/tracker.js does: it loads the tracker page, polls its poll URL
with ``If-None-Match`` = the seq it shows every ``POLL_SECONDS``, and when the seq moved it
refreshes the tracker partial (HTMX, with the page's poll token, as the page does). Where the
page says the server streams (``data-stream``) and a stream server is given, the device keeps a
stream open instead (apps.matches.stream), refreshes when it is told a greater seq, and polls
only while it has no stream. One device per match taps a command every 3-7 s; its answer is the
new partial, so it needs no refresh of its own.
"""

from __future__ import annotations

import asyncio
import random
import re
import time
import uuid
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from urllib.parse import parse_qs, urlsplit

POLL_SECONDS = 2.0
COMMAND_SECONDS = (3.0, 7.0)
TIMEOUT_SECONDS = 10.0
# The tablets of a room open their pages at about this rate at most (opening_seconds).
PAGES_PER_SECOND = 40.0
SEQ = re.compile(rb'data-seq="(\d+)"')
POLL_URL = re.compile(rb'data-poll-url="([^"]+)"')
STREAMS = b'data-stream="1"'


@dataclass
class Device:
    match_id: int
    session_key: str
    commands: bool
    seq: int = 0
    poll_url: str = ""
    streams: bool = False  # the page says the server streams
    streaming: bool = False  # a stream of this device is open
    tapping: bool = False  # its command is on its way (its answer brings the new board)


@dataclass
class Sample:
    kind: str
    started: float
    ms: float
    ok: bool


@dataclass
class Recorder:
    """Every request's kind, start and latency; errors are answers of an unexpected status (or
    none within ``TIMEOUT_SECONDS``)."""

    samples: list[Sample] = field(default_factory=list)
    statuses: dict[str, dict[int, int]] = field(default_factory=lambda: defaultdict(dict))

    def add(self, kind: str, started: float, status: int, expected: Sequence[int]) -> None:
        ms = (time.monotonic() - started) * 1000
        self.samples.append(Sample(kind, started, ms, status in expected))
        counts = self.statuses[kind]
        counts[status] = counts.get(status, 0) + 1


class Servers:
    """The web processes, asked in turn (round robin), as a proxy in front of them would."""

    def __init__(self, ports: Sequence[int]) -> None:
        self.ports = list(ports)
        self._next = 0

    def port(self) -> int:
        self._next = (self._next + 1) % len(self.ports)
        return self.ports[self._next]


CSRF_SECRET = "benchloadcsrfsecret0123456789abc"  # 32 characters, as Django's secrets


async def request(
    port: int,
    method: str,
    path: str,
    *,
    session: str,
    headers: dict[str, str] | None = None,
    body: bytes = b"",
) -> tuple[int, bytes]:
    """One request on a new connection; the status and the body."""
    lines = [
        f"{method} {path} HTTP/1.1",
        "Host: 127.0.0.1",
        "Connection: close",
        "Accept-Language: en",
        f"Cookie: sessionid={session}; csrftoken={CSRF_SECRET}",
        f"Content-Length: {len(body)}",
    ]
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        await writer.drain()
        data = await reader.read()
    finally:
        writer.close()
    head, _sep, content = data.partition(b"\r\n\r\n")
    status_line = head.split(b"\r\n", 1)[0].split()
    return (int(status_line[1]) if len(status_line) > 1 else 0), content


async def timed(
    recorder: Recorder,
    kind: str,
    expected: Sequence[int],
    port: int,
    method: str,
    path: str,
    **options: object,
) -> tuple[int, bytes]:
    started = time.monotonic()
    try:
        status, content = await asyncio.wait_for(
            request(port, method, path, **options),  # type: ignore[arg-type]
            TIMEOUT_SECONDS,
        )
    except (TimeoutError, OSError):
        status, content = 0, b""
    recorder.add(kind, started, status, expected)
    return status, content


def _show(device: Device, content: bytes) -> None:
    """Take the seq and poll URL of a tracker (page or partial) the device now shows."""
    seq = SEQ.search(content)
    url = POLL_URL.search(content)
    if seq:
        device.seq = int(seq.group(1))
    if url:
        device.poll_url = url.group(1).decode().replace("&amp;", "&")
        device.streams = STREAMS in content


HTMX = {"HX-Request": "true", "HX-Target": "tracker"}


def _token_header(device: Device) -> dict[str, str]:
    """The page's poll token, which static/js/tracker.js sends with a refresh."""
    token = parse_qs(urlsplit(device.poll_url).query).get("t", [""])[0]
    return {"X-Skirmish-Poll-Token": token} if token else {}


async def load_page(device: Device, servers: Servers, recorder: Recorder) -> None:
    _status, content = await timed(
        recorder,
        "page",
        (200,),
        servers.port(),
        "GET",
        f"/matches/{device.match_id}/",
        session=device.session_key,
    )
    _show(device, content)


async def open_page(device: Device, servers: Servers, recorder: Recorder, until: float) -> bool:
    """Load the tracker page until it loads, as a player reloads a page that failed. Without a
    page the device has no poll URL: in a 30-match run of issue 16 one page load timed out and
    every later poll of that device was sent to an empty path and counted as an error (the "20
    errors per phase"). The failed loads still count, as errors of the kind "page"."""
    while time.monotonic() < until:
        await load_page(device, servers, recorder)
        if device.poll_url:
            return True
        await asyncio.sleep(POLL_SECONDS)
    return False


async def poll_once(device: Device, servers: Servers, recorder: Recorder) -> None:
    status, content = await timed(
        recorder,
        "poll",
        (200, 304),
        servers.port(),
        "GET",
        device.poll_url,
        session=device.session_key,
        headers={"If-None-Match": f'"{device.seq}"'},
    )
    if status == 200 and f'"seq": {device.seq}}}'.encode() not in content:
        await refresh(device, servers, recorder)


async def refresh(device: Device, servers: Servers, recorder: Recorder) -> None:
    _status, page = await timed(
        recorder,
        "refresh",
        (200,),
        servers.port(),
        "GET",
        f"/matches/{device.match_id}/",
        session=device.session_key,
        headers={**HTMX, "X-Skirmish-Refresh": "0", **_token_header(device)},
    )
    _show(device, page)


def _behind(device: Device, told: bytes) -> bool:
    """Told a greater seq than the device shows, with no command of its own on its way (whose
    answer brings the new board), as static/js/tracker.js decides."""
    return int(told) > device.seq and not device.tapping


async def follow_stream(
    device: Device, servers: Servers, recorder: Recorder, until: float, port: int
) -> None:
    """The device's stream, until ``until``: a refresh whenever it tells a greater seq than
    the device shows. Its opening is timed as the kind "stream" (the answer's head); a stream
    refused or cut leaves the device polling."""
    path = device.poll_url.replace("/poll/?", "/stream/?")
    started = time.monotonic()
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection("127.0.0.1", port), TIMEOUT_SECONDS
        )
    except (TimeoutError, OSError):
        recorder.add("stream", started, 0, (200,))
        return
    try:
        head = (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
            f"Accept-Language: en\r\nCookie: sessionid={device.session_key}\r\n\r\n"
        )
        writer.write(head.encode())
        status_line = await asyncio.wait_for(reader.readline(), TIMEOUT_SECONDS)
        parts = status_line.split()
        status = int(parts[1]) if len(parts) > 1 else 0
        recorder.add("stream", started, status, (200,))
        if status != 200:
            return
        device.streaming = True
        event = b""
        while time.monotonic() < until:
            line = await asyncio.wait_for(reader.readline(), until - time.monotonic())
            if not line:
                return
            if line.startswith(b"event: "):
                event = line[7:].strip()
            elif line.startswith(b"data: ") and event == b"seq" and _behind(device, line[6:]):
                await refresh(device, servers, recorder)
            elif line.startswith(b"data: ") and event == b"check":
                await poll_once(device, servers, recorder)
    except (TimeoutError, OSError, ValueError):
        return
    finally:
        device.streaming = False
        writer.close()


async def command_once(
    device: Device, servers: Servers, recorder: Recorder, rng: random.Random
) -> None:
    fields = (
        f"command=flip&args.player%3Aint={rng.randrange(2)}&expected_seq={device.seq}"
        f"&idempotency_key={uuid.uuid4().hex}"
    )
    device.tapping = True
    try:
        await _command(device, servers, recorder, fields)
    finally:
        device.tapping = False


async def _command(device: Device, servers: Servers, recorder: Recorder, fields: str) -> None:
    _status, content = await timed(
        recorder,
        "command",
        (200,),
        servers.port(),
        "POST",
        f"/matches/{device.match_id}/command/",
        session=device.session_key,
        headers={
            **HTMX,
            "Content-Type": "application/x-www-form-urlencoded",
            "X-CSRFToken": CSRF_SECRET,
        },
        body=fields.encode(),
    )
    _show(device, content)


def opening_seconds(devices: int) -> float:
    """How long the room takes to open its pages: one poll interval, or longer for a big room.
    800 tablets opening a page each (25 ms of CPU) within 2 s queued 20 s of work on 2 cores:
    pages waited past TIMEOUT_SECONDS, and the run measured that queue, not a club night."""
    return max(POLL_SECONDS, devices / PAGES_PER_SECOND)


async def run_device(
    device: Device,
    servers: Servers,
    recorder: Recorder,
    until: float,
    rng: random.Random,
    opening: float,
    stream_port: int | None = None,
) -> None:
    await asyncio.sleep(rng.uniform(0, opening))
    if not await open_page(device, servers, recorder, until):
        return
    stream = None
    if stream_port is not None and device.streams:
        stream = asyncio.create_task(follow_stream(device, servers, recorder, until, stream_port))
    try:
        await _play(device, servers, recorder, until, rng)
    finally:
        if stream is not None:
            stream.cancel()


async def _play(
    device: Device, servers: Servers, recorder: Recorder, until: float, rng: random.Random
) -> None:
    next_poll = time.monotonic() + POLL_SECONDS
    next_command = time.monotonic() + rng.uniform(*COMMAND_SECONDS)
    while True:
        due = min(next_poll, next_command) if device.commands else next_poll
        if due >= until:
            return
        await asyncio.sleep(max(0.0, due - time.monotonic()))
        if device.commands and due == next_command:
            await command_once(device, servers, recorder, rng)
            next_command = time.monotonic() + rng.uniform(*COMMAND_SECONDS)
        else:
            if not device.streaming:
                await poll_once(device, servers, recorder)
            next_poll = time.monotonic() + POLL_SECONDS


async def drive(
    devices: Sequence[Device],
    ports: Sequence[int],
    seconds: float,
    stream_port: int | None = None,
) -> tuple[Recorder, float]:
    """The pages opened over ``opening_seconds``, then ``seconds`` of play; the recorder and
    the time the play began (what came before it is the room opening, not the steady state)."""
    recorder = Recorder()
    servers = Servers(ports)
    opening = opening_seconds(len(devices))
    playing = time.monotonic() + opening
    until = playing + seconds
    await asyncio.gather(
        *(
            run_device(device, servers, recorder, until, random.Random(index), opening, stream_port)
            for index, device in enumerate(devices)
        )
    )
    return recorder, playing


async def repeat(
    kind: str,
    path: str,
    *,
    devices: Sequence[Device],
    ports: Sequence[int],
    count: int,
    expected: Sequence[int],
    headers: dict[str, str] | None = None,
    concurrency: int = 3,
) -> Recorder:
    """``count`` requests of one kind (``{match}`` and ``{seq}`` filled per device), a few at a
    time: for the CPU one kind costs, measured alone."""
    recorder = Recorder()
    servers = Servers(ports)
    queue = list(range(count))

    async def worker() -> None:
        while queue:
            index = queue.pop()
            device = devices[index % len(devices)]
            url = path.format(match=device.match_id, poll=device.poll_url, n=index)
            token = _token_header(device).get("X-Skirmish-Poll-Token", "")
            filled = {k: v.format(seq=device.seq, token=token) for k, v in (headers or {}).items()}
            await timed(
                recorder,
                kind,
                expected,
                servers.port(),
                "GET",
                url,
                session=device.session_key,
                headers=filled,
            )

    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return recorder
