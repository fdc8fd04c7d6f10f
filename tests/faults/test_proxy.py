"""gunicorn behind nginx with the project's own proxy config (deploy/nginx), on loopback.

Issue 15: compose published gunicorn's sync workers directly, and three sockets sending their
headers slowly blocked every worker: a /healthz took 33 s. Here the config of docker-compose.yml
(the HTTP template and locations.conf) is rendered for 127.0.0.1 ports, gunicorn runs with
deploy/gunicorn.conf.py and production settings, and slow clients go to nginx. The other two
modes of the proxy (SKIRMISH_PROXY=https, behind-tls) run against the same gunicorn.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import skip_or_fail
from tests.faults.conftest import closed_port, production_env

pytestmark = [pytest.mark.faults, pytest.mark.slow]

PROJECT = Path(__file__).resolve().parents[2]
DEPLOY = PROJECT / "deploy"
HOST = "skirmish.example.org"
GUNICORN_WORKERS = 2
SLOW_CLIENTS = 6  # three were enough to block every worker of the old setup


def nginx_binary() -> str:
    found = shutil.which("nginx") or next(
        (path for path in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.path.exists(path)),
        None,
    )
    if found is None:
        skip_or_fail("no nginx (apt-get install nginx)")
    return str(found)


def replace_once(text: str, old: str, new: str) -> str:
    """The rendering must find what it replaces exactly once: a changed template fails here
    instead of silently testing something else."""
    assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times"
    return text.replace(old, new)


def render_site(
    root: Path, template: Path, listen: str, upstream: str, stream_upstream: str | None = None
) -> Path:
    """deploy/nginx rendered as the nginx image renders it (envsubst of ${SKIRMISH_UPSTREAM}
    and ${SKIRMISH_STREAM_UPSTREAM}), with the container's paths and port 80 moved into
    ``root`` and onto ``listen``. Without a stream server, streams go to gunicorn (which
    answers them 204: the pages poll)."""
    (root / "skirmish").mkdir(parents=True)
    locations = (DEPLOY / "nginx" / "locations.conf").read_text()
    locations = replace_once(locations, "root /srv;", f"root {root / 'srv'};")
    (root / "skirmish" / "locations.conf").write_text(locations)
    site = template.read_text()
    site = site.replace("${SKIRMISH_UPSTREAM}", upstream)
    site = site.replace("${SKIRMISH_STREAM_UPSTREAM}", stream_upstream or upstream)
    assert "${" not in site
    site = site.replace(
        "include /etc/nginx/skirmish/locations.conf;",
        f"include {root / 'skirmish' / 'locations.conf'};",
    )
    site = replace_once(site, "listen 80 default_server;", f"listen {listen} default_server;")
    (root / "conf.d").mkdir()
    (root / "conf.d" / "default.conf").write_text(site)
    for temp in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (root / "temp" / temp).mkdir(parents=True)
    # The image's nginx.conf, reduced: everything of Skirmish's own comes from conf.d.
    user = "user root root;\n" if os.geteuid() == 0 else ""
    main = root / "nginx.conf"
    main.write_text(
        f"{user}worker_processes 1;\npid {root / 'nginx.pid'};\n"
        f"error_log {root / 'error.log'} warn;\n"
        "events { worker_connections 512; }\n"
        "http {\n"
        "  include /etc/nginx/mime.types;\n"
        "  default_type application/octet-stream;\n"
        f"  access_log {root / 'access.log'};\n"
        f"  client_body_temp_path {root / 'temp' / 'body'};\n"
        f"  proxy_temp_path {root / 'temp' / 'proxy'};\n"
        f"  fastcgi_temp_path {root / 'temp' / 'fastcgi'};\n"
        f"  uwsgi_temp_path {root / 'temp' / 'uwsgi'};\n"
        f"  scgi_temp_path {root / 'temp' / 'scgi'};\n"
        f"  include {root / 'conf.d'}/*.conf;\n"
        "}\n"
    )
    return main


def wait_for_port(port: int, process: subprocess.Popen[bytes], what: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"{what} exited with {process.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.1)
    pytest.fail(f"{what} did not listen on {port} within {timeout:.0f} s")


@dataclass
class Site:
    proxy_port: int
    gunicorn_port: int
    root: Path
    balancer_port: int  # nginx as configured behind a TLS-terminating load balancer

    def get(
        self,
        path: str,
        *,
        port: int | None = None,
        headers: dict[str, str] | None = None,
        timeout: float = 10,
    ) -> tuple[int, dict[str, str], bytes]:
        connection = http.client.HTTPConnection(
            "127.0.0.1", port or self.proxy_port, timeout=timeout
        )
        try:
            connection.request("GET", path, headers={"Host": HOST, **(headers or {})})
            response = connection.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        finally:
            connection.close()

    def gunicorn_log(self) -> str:
        return (self.root / "gunicorn.log").read_text(errors="replace")

    def post(self, path: str, body: bytes, content_type: str) -> tuple[int, bytes]:
        connection = http.client.HTTPConnection("127.0.0.1", self.proxy_port, timeout=30)
        try:
            connection.request(
                "POST", path, body=body, headers={"Host": HOST, "Content-Type": content_type}
            )
            response = connection.getresponse()
            return response.status, response.read()
        finally:
            connection.close()


def stop(process: subprocess.Popen[bytes], how: signal.Signals = signal.SIGTERM) -> None:
    if process.poll() is None:
        process.send_signal(how)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    nginx_binary()  # skips (or fails in CI) before anything starts when there is none
    root = tmp_path_factory.mktemp("proxy")
    gunicorn_port, proxy_port, balancer_port = closed_port(), closed_port(), closed_port()
    static = root / "srv" / "static" / "css"
    static.mkdir(parents=True)
    (static / "site.css").write_text("body { color: black; }\n")
    (static / "site.0123456789ab.css").write_text("body { color: black; }\n")
    env = production_env(
        DJANGO_SECRET_KEY="proxy-test-only-0123456789abcdefghijklmnopqrstuvwxyz-0123456789",
        ALLOWED_HOSTS=HOST,
        DJANGO_HTTPS="true",
        DJANGO_SECURE_PROXY_SSL_HEADER="true",
        NUM_PROXIES="1",
        DATABASE_URL=f"sqlite:///{root / 'site.sqlite3'}",
        GUNICORN_BIND=f"127.0.0.1:{gunicorn_port}",
        GUNICORN_WORKERS=str(GUNICORN_WORKERS),
    )
    gunicorn_log = (root / "gunicorn.log").open("wb")
    gunicorn = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", str(DEPLOY / "gunicorn.conf.py"), "skirmish.wsgi"],
        cwd=PROJECT,
        env=env,
        stdout=gunicorn_log,
        stderr=subprocess.STDOUT,
    )
    proxy = start_nginx(root, "http", proxy_port, gunicorn_port)
    balancer = start_nginx(root / "behind-tls", "behind-tls", balancer_port, gunicorn_port)
    try:
        wait_for_port(gunicorn_port, gunicorn, "gunicorn", 60)
        wait_for_port(proxy_port, proxy, "nginx", 20)
        wait_for_port(balancer_port, balancer, "nginx (behind-tls)", 20)
        yield Site(
            proxy_port=proxy_port,
            gunicorn_port=gunicorn_port,
            root=root,
            balancer_port=balancer_port,
        )
    finally:
        stop(balancer)
        stop(proxy)
        stop(gunicorn, signal.SIGINT)  # gunicorn's quick shutdown: no requests are left
        gunicorn_log.close()
        print((root / "gunicorn.log").read_text(errors="replace")[-3000:])
        print((root / "error.log").read_text(errors="replace")[-2000:])


def start_nginx(
    root: Path, mode: str, port: int, gunicorn_port: int, stream_port: int | None = None
) -> subprocess.Popen[bytes]:
    """nginx with deploy/nginx/<mode>/default.conf.template (SKIRMISH_PROXY=<mode>), checked
    with ``nginx -t`` first."""
    nginx = nginx_binary()
    config = render_site(
        root,
        DEPLOY / "nginx" / mode / "default.conf.template",
        listen=f"127.0.0.1:{port}",
        upstream=f"127.0.0.1:{gunicorn_port}",
        stream_upstream=f"127.0.0.1:{stream_port}" if stream_port else None,
    )
    checked = subprocess.run(
        [nginx, "-t", "-p", str(root), "-c", str(config)], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stderr
    return subprocess.Popen(
        [nginx, "-p", str(root), "-c", str(config), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL,
        stderr=(root / "nginx.out").open("wb"),
    )


class SlowClients:
    """Sockets that send a request's headers (or its body) a few bytes at a time and never
    finish: what blocked every sync worker when gunicorn faced the network."""

    def __init__(self, port: int, count: int) -> None:
        self.sockets: list[socket.socket] = []
        self._stop = threading.Event()
        for index in range(count):
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            if index % 2:
                # Headers complete, the body trickles.
                sock.sendall(
                    f"POST /api/v1/rosters/validate/ HTTP/1.1\r\nHost: {HOST}\r\n"
                    "Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{".encode()
                )
            else:
                sock.sendall(f"GET / HTTP/1.1\r\nHost: {HOST}\r\n".encode())
            self.sockets.append(sock)
        self._thread = threading.Thread(target=self._trickle, daemon=True)
        self._thread.start()

    def _trickle(self) -> None:
        while not self._stop.wait(0.5):
            for sock in self.sockets:
                with contextlib.suppress(OSError):
                    sock.send(b"X")

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        for sock in self.sockets:
            sock.close()


def test_slow_clients_do_not_stop_healthz_behind_the_proxy(site: Site) -> None:
    assert site.get("/healthz")[0] == 200  # warm: both workers have loaded Django
    slow = SlowClients(site.proxy_port, SLOW_CLIENTS)
    try:
        time.sleep(1.0)  # the slow requests are all in by now
        timings = []
        for _ in range(5):
            started = time.monotonic()
            status, _, body = site.get("/healthz", timeout=5)
            timings.append(time.monotonic() - started)
            assert status == 200
            assert json.loads(body)["database"] == "ok"
        print(f"/healthz behind nginx with {SLOW_CLIENTS} slow clients: {timings}")
        # Without the proxy the same clients held every worker: /healthz took 30 s and more.
        assert max(timings) < 2.0, timings
    finally:
        slow.close()


def test_the_proxy_passes_the_scheme_and_healthz_is_exempt_from_the_redirect(site: Site) -> None:
    # Plain HTTP reaches Django as http (X-Forwarded-Proto): HTTPS is on, so it redirects...
    status, headers, _ = site.get("/")
    assert status == 301
    assert headers["Location"] == f"https://{HOST}/"
    # ...and a client cannot claim https itself: nginx sets the header from its own scheme.
    assert site.get("/", headers={"X-Forwarded-Proto": "https"})[0] == 301
    # Health checks ask over plain HTTP inside the network.
    status, _, body = site.get("/healthz")
    assert status == 200
    assert json.loads(body)["status"] == "ok"


def test_behind_a_tls_load_balancer_the_proxy_passes_its_scheme_on(site: Site) -> None:
    """SKIRMISH_PROXY=behind-tls: a request the load balancer took over HTTPS is served (no
    redirect loop), as secure (HSTS); one it took over plain HTTP is redirected."""
    port = site.balancer_port
    status, headers, _ = site.get(
        "/no-such-page/", port=port, headers={"X-Forwarded-Proto": "https"}
    )
    assert status == 404
    assert "max-age=31536000" in headers["Strict-Transport-Security"]
    for scheme in ("http", "HTTPS, http", "x"):
        status, headers, _ = site.get("/", port=port, headers={"X-Forwarded-Proto": scheme})
        assert status == 301, scheme
        assert headers["Location"] == f"https://{HOST}/"
    # The plain HTTP template trusts no such header (tested above) and is for a try-out only.


def test_a_form_post_through_the_proxy_passes_the_csrf_origin_check(site: Site) -> None:
    """Django compares a POST's Origin with the scheme (X-Forwarded-Proto) and the host it was
    handed, port included: both must come through the proxy as the browser used them. (On a
    port of its own the site needs no CSRF_TRUSTED_ORIGINS.)"""
    token = "a" * 32  # a CSRF secret of Django's form, as cookie and header alike
    host = f"{HOST}:8443"

    def logout(origin: str) -> int:
        connection = http.client.HTTPConnection("127.0.0.1", site.balancer_port, timeout=10)
        try:
            connection.request(
                "POST",
                "/accounts/logout/",
                headers={
                    "Host": host,
                    "X-Forwarded-Proto": "https",
                    "Origin": origin,
                    "Cookie": f"csrftoken={token}",
                    "X-CSRFToken": token,
                },
            )
            response = connection.getresponse()
            response.read()
            return response.status
        finally:
            connection.close()

    assert logout(f"https://{host}") == 302  # logged out (no one was logged in): home
    assert logout(f"https://{HOST}") == 403  # another origin: the port differs
    assert logout(f"http://{host}") == 403  # and another scheme


def test_the_proxy_caps_bodies(site: Site) -> None:
    # Over the 2 MB cap: nginx refuses it without passing it on, in the API's error shape...
    status, body = site.post(
        "/api/v1/rosters/validate/", b"[" + b" " * 2_500_000 + b"]", "application/json"
    )
    assert status == 413
    assert json.loads(body)["code"] == "too_large"
    # ...a page for a form...
    status, body = site.post("/rosters/import/", b"x" * 2_500_000, "multipart/form-data")
    assert status == 413
    assert b"Too large" in body
    # ...and under the cap the body reaches Django, which answers for itself: over plain HTTP
    # with HTTPS on, a redirect. (Django redirects without reading the body and gunicorn then
    # closes the connection, so nginx, still sending, may answer 502 instead: what this checks
    # is that the request got through, in gunicorn's access log.)
    line = '"POST /api/v1/rosters/validate/ HTTP/1.0" 301'
    before = site.gunicorn_log().count(line)
    status, body = site.post(
        "/api/v1/rosters/validate/", b"[" + b" " * 1_900_000 + b"]", "application/json"
    )
    assert status != 413, body[:200]
    deadline = time.monotonic() + 5
    while site.gunicorn_log().count(line) == before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert site.gunicorn_log().count(line) == before + 1


def test_the_proxy_serves_static_files_itself(site: Site) -> None:
    status, headers, body = site.get("/static/css/site.0123456789ab.css")
    assert status == 200 and body.startswith(b"body")
    assert "immutable" in headers["Cache-Control"]
    status, headers, _ = site.get("/static/css/site.css")
    assert status == 200
    assert headers["Cache-Control"] == "max-age=3600"
    # Card PDFs are Django's (after its permission check): the proxy serves no /media/ (this
    # reaches Django, which redirects plain HTTP to HTTPS and would then answer 404).
    assert site.get("/media/cards/1-x.pdf")[0] != 200


def test_the_container_healthcheck_passes_with_the_production_hosts(site: Site) -> None:
    env = {
        **os.environ,
        "ALLOWED_HOSTS": f"{HOST},www.{HOST}",
        "GUNICORN_BIND": f"127.0.0.1:{site.gunicorn_port}",
    }
    result = subprocess.run(
        [sys.executable, str(DEPLOY / "healthcheck.py")], env=env, capture_output=True, timeout=30
    )
    assert result.returncode == 0, result.stderr
    # What the old check sent: the address as the host, plain HTTP. Refused (400), as in
    # production; the new check names an allowed host.
    assert site.get("/healthz", port=site.gunicorn_port, headers={"Host": "127.0.0.1"})[0] == 400


def test_the_https_proxy_terminates_tls(site: Site, tmp_path: Path) -> None:
    """SKIRMISH_PROXY=https with a throw-away self-signed certificate: port 80 redirects to
    HTTPS, and over HTTPS Django is told the scheme (so it serves, with HSTS)."""
    nginx = nginx_binary()
    openssl = shutil.which("openssl")
    if openssl is None:
        skip_or_fail("no openssl to make a test certificate")
    tls = tmp_path / "tls"
    tls.mkdir()
    subprocess.run(
        [
            str(openssl),
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            f"/CN={HOST}",
            "-addext",
            f"subjectAltName=DNS:{HOST}",
            "-keyout",
            str(tls / "privkey.pem"),
            "-out",
            str(tls / "fullchain.pem"),
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    http_port, https_port = closed_port(), closed_port()
    config = render_site(
        tmp_path / "site",
        DEPLOY / "nginx" / "https" / "default.conf.template",
        listen=f"127.0.0.1:{http_port}",
        upstream=f"127.0.0.1:{site.gunicorn_port}",
    )
    site_conf = config.parent / "conf.d" / "default.conf"
    text = site_conf.read_text()
    text = replace_once(
        text,
        "listen 443 ssl http2 default_server;",
        f"listen 127.0.0.1:{https_port} ssl http2 default_server;",
    )
    text = text.replace("/etc/nginx/tls/", f"{tls}/")
    site_conf.write_text(text)
    checked = subprocess.run(
        [nginx, "-t", "-p", str(config.parent), "-c", str(config)], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stderr
    proxy = subprocess.Popen(
        [nginx, "-p", str(config.parent), "-c", str(config), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL,
        stderr=(tmp_path / "nginx.out").open("wb"),
    )
    try:
        wait_for_port(https_port, proxy, "nginx (https)", 20)
        status, headers, _ = site.get("/rosters/", port=http_port)
        assert status == 301
        assert headers["Location"] == f"https://{HOST}/rosters/"
        # The certificate names HOST: a TLS connection to the loopback address under that name
        # (verified against the certificate), then HTTP over it.
        context = ssl.create_default_context(cafile=str(tls / "fullchain.pem"))
        raw = socket.create_connection(("127.0.0.1", https_port), timeout=10)
        connection = http.client.HTTPConnection(HOST, https_port, timeout=10)
        connection.sock = context.wrap_socket(raw, server_hostname=HOST)
        try:
            connection.request("GET", "/no-such-page/", headers={"Host": HOST})
            response = connection.getresponse()
            response.read()
        finally:
            connection.close()
        assert response.status == 404  # served, not redirected: Django saw https
        assert "max-age=31536000" in response.getheader("Strict-Transport-Security", "")
    finally:
        stop(proxy)


def test_the_proxy_compresses_static_files_and_nothing_of_djangos(site: Site) -> None:
    """nginx gzips text under /static/ (a file without WhiteNoise's .gz beside it here), and
    leaves what Django answers as Django sent it (BREACH: deploy/README.md, "Compression")."""
    import gzip

    css = "".join(f".rule-{index} {{ color: black; margin: {index}px; }}\n" for index in range(200))
    (site.root / "srv" / "static" / "css" / "big.css").write_text(css)
    status, headers, body = site.get("/static/css/big.css", headers={"Accept-Encoding": "gzip"})
    assert status == 200
    assert headers.get("Content-Encoding") == "gzip"
    assert "Accept-Encoding" in headers.get("Vary", "")
    assert gzip.decompress(body).decode() == css
    # Without the header, the plain file.
    status, headers, body = site.get("/static/css/big.css")
    assert "Content-Encoding" not in headers and body.decode() == css
    # Django's answers pass as Django sent them: an HTML page (a 404 served over "https"
    # behind the load balancer), well over the minimum size, stays uncompressed.
    status, headers, body = site.get(
        "/no-such-page/",
        port=site.balancer_port,
        headers={"Accept-Encoding": "gzip", "X-Forwarded-Proto": "https"},
    )
    assert status == 404 and len(body) > 1000
    assert "Content-Encoding" not in headers
