"""The web container's health check: ``GET /healthz`` from gunicorn, as the proxy would ask it;
with a port as its argument, from the server on that port (the stream service's uvicorn).

It sends a ``Host`` the site answers to (the first name in ``ALLOWED_HOSTS``; Django answers 400
to any other) and ``X-Forwarded-Proto: https`` (the site trusts it from the proxy), so neither
the host check nor the HTTPS redirect gets in the way; ``/healthz`` is also exempt from the
redirect (``SECURE_REDIRECT_EXEMPT``). Exits 0 when the answer is 200 within the timeout.

Standard library only: it runs in the image's Python without Django.
"""

from __future__ import annotations

import http.client
import os
import sys

TIMEOUT = 5.0


def site_host(allowed_hosts: str) -> str:
    """A host name Django accepts: the first entry of ``ALLOWED_HOSTS`` that names one."""
    for entry in allowed_hosts.split(","):
        name = entry.strip()
        if name and name != "*":
            # ".example.org" allows example.org and its subdomains.
            return name.lstrip(".")
    return "localhost"


def gunicorn_port(bind: str) -> int:
    """The port of ``GUNICORN_BIND`` (``0.0.0.0:8000``, ``[::]:8000``); 8000 by default."""
    _, _, port = bind.rpartition(":")
    return int(port) if port.isdigit() else 8000


def check(address: str, port: int, host: str, timeout: float = TIMEOUT) -> int:
    """The status code of ``/healthz``; 0 when nothing answered."""
    connection = http.client.HTTPConnection(address, port, timeout=timeout)
    try:
        connection.request("GET", "/healthz", headers={"Host": host, "X-Forwarded-Proto": "https"})
        return connection.getresponse().status
    except OSError:
        return 0
    finally:
        connection.close()


def main(argv: list[str]) -> int:
    port = int(argv[1]) if len(argv) > 1 else gunicorn_port(os.environ.get("GUNICORN_BIND", ""))
    status = check(
        os.environ.get("HEALTHCHECK_ADDRESS", "127.0.0.1"),
        port,
        site_host(os.environ.get("ALLOWED_HOSTS", "")),
    )
    if status != 200:
        print(f"/healthz answered {status or 'nothing'}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
