"""schemathesis against the API's own OpenAPI schema: every operation, in process (the WSGI
app, no port), authenticated with a seeded user's token, bounded in examples (and by the
Makefile in time).

For every generated request: no 5xx (``not_a_server_error``), every status, content type,
header and body as the schema documents them (the ``*_conformance`` checks), schema-invalid
input refused (``negative_data_rejection``), auth actually needed where the schema says so
(``ignored_auth``) and 405 for undocumented methods. Left out: ``positive_data_acceptance``,
which would want every schema-valid body accepted; the API refuses many (an unknown slug, an
illegal command, a roster that breaks the rules) with a documented 400/409.

Path parameters (and a few ids in bodies) of a schema-valid request are set to the seeded
objects (``tests/schema/seed.py``), so that operations succeed and not only fail with 404.

``make test`` runs this with a few examples per operation; ``make schemathesis`` (in CI) with
more: ``SCHEMATHESIS_MAX_EXAMPLES``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.core.parameters import ParameterLocation
from schemathesis.specs.openapi.checks import positive_data_acceptance

from tests.schema.conftest import ANSWERS
from tests.schema.seed import Seed, seed_api_data

pytestmark = pytest.mark.schemathesis

MAX_EXAMPLES = int(os.environ.get("SCHEMATHESIS_MAX_EXAMPLES", "5"))

schema = schemathesis.openapi.from_wsgi("/api/schema/", WSGIHandler())


@pytest.fixture
def in_the_test_transaction() -> Iterator[None]:
    """Requests run inside the test's transaction, as with Django's test client.

    A real WSGI handler closes the database connection after every request (inside the test's
    atomic block it counts as obsolete); on PostgreSQL that ends the test's transaction and
    every later query fails with "the connection is closed". The test client disconnects the
    same handler for the same reason.
    """
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture
def seed(db: None, settings: Any, tmp_path: Path, in_the_test_transaction: None) -> Seed:
    settings.MEDIA_ROOT = tmp_path
    return seed_api_data()


def _generated_valid(case: schemathesis.Case, location: ParameterLocation) -> bool:
    meta = case.meta
    if meta is None:
        return True
    component = meta.components.get(location)
    return component is None or not component.mode.is_negative


def aim_at_seed(case: schemathesis.Case, seed: Seed) -> None:
    """Point a schema-valid request at the seeded objects (a negative one stays as it is)."""
    if case.path_parameters and _generated_valid(case, ParameterLocation.PATH):
        for name in case.path_parameters:
            if name in seed.path:
                case.path_parameters[name] = seed.path[name]
    body = case.body
    if not isinstance(body, dict) or not _generated_valid(case, ParameterLocation.BODY):
        return
    if case.operation.path == "/matches/" and isinstance(body.get("players"), list):
        for index, player in enumerate(body["players"]):
            if isinstance(player, dict) and "roster" in player:
                player["roster"] = seed.roster_ids[index % 2]
    if case.operation.path.endswith("/join/") and "code" in body:
        body["code"] = seed.join_code


@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_the_api_answers_as_its_schema_says(case: schemathesis.Case, seed: Seed) -> None:
    aim_at_seed(case, seed)
    response = case.call_and_validate(
        headers={"Authorization": f"Token {seed.token}"},
        excluded_checks=[positive_data_acceptance],
    )
    ANSWERS[case.operation.label][response.status_code] += 1
