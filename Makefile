# Skirmish: `make run` serves the app with demo data, `make test` runs the whole suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
PO_FILES := $(wildcard locale/*/LC_MESSAGES/django.po)
MO_FILES := $(PO_FILES:.po=.mo)

.PHONY: run test audit faults schemathesis permission-matrix bench bench-load lint install messages makemessages constraints clean

$(VENV)/.installed: pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[dev]'
	touch $@

install: $(VENV)/.installed

# Compiled translations are build output: made from the .po files, never committed.
%.mo: %.po
	msgfmt --check-format -o $@ $<

messages: $(MO_FILES)

run: install messages
	DJANGO_DEBUG=true $(BIN)/python manage.py migrate --noinput
	DJANGO_DEBUG=true $(BIN)/python manage.py load_catalog
	DJANGO_DEBUG=true $(BIN)/python manage.py demo_user
	DJANGO_DEBUG=true $(BIN)/python manage.py runserver $(HOST):$(PORT)

# One pytest-xdist worker per core, each with its own test database; the browser tests share
# one worker (tests/conftest.py). The two suites that start real processes or send thousands of
# generated requests have targets of their own (below); .ci/run runs all three.
test: install messages
	$(BIN)/pytest -n auto -m "not faults and not schemathesis and not audit"

# Page-by-page browser audits (tests/e2e, marker audit): axe-core on the main pages in both
# themes and every page's width at 390 px in both languages. Slow by nature (every page, twice);
# .ci/run runs them after `make test`.
audit: install messages
	$(BIN)/pytest -n 0 -q -p no:cacheprovider -m audit tests/e2e

# Fault injection against real processes on 127.0.0.1 (tests/faults): Redis closed and hung,
# Celery workers killed mid-render and missing, slow clients against nginx in front of gunicorn.
faults: install messages
	$(BIN)/pytest -n auto -q -p no:cacheprovider -m faults tests/faults

# schemathesis against the OpenAPI schema (tests/schema): every operation in process through the
# WSGI app (no port), with a seeded user's token, in one process so that it prints the answers
# per operation. SCHEMATHESIS_MAX_EXAMPLES=5 makes a quick run.
SCHEMATHESIS_MAX_EXAMPLES ?= 40
schemathesis: install messages
	SCHEMATHESIS_MAX_EXAMPLES=$(SCHEMATHESIS_MAX_EXAMPLES) timeout 1200 \
		$(BIN)/pytest -n 0 -q -p no:cacheprovider -m schemathesis tests/schema

# The permission matrix (tests/permissions/matrix.py) as Markdown on stdout, once every cell of
# it has passed against the app (the test output goes to stderr).
permission-matrix: install messages
	$(BIN)/pytest -n 0 -q -p no:randomly -p no:cacheprovider tests/permissions 1>&2
	$(BIN)/python -m tests.permissions.matrix

# Production settings (DEBUG off, hashed static files) against a throw-away test database.
BENCH_ENV := DJANGO_DEBUG=false DJANGO_HTTPS=false ALLOWED_HOSTS=testserver \
	DJANGO_SECRET_KEY=bench-only-not-secret-0123456789abcdef0123456789abcdef
bench: install messages
	$(BENCH_ENV) $(BIN)/python manage.py collectstatic --noinput --verbosity 0
	$(BENCH_ENV) $(BIN)/python -m bench

# gunicorn (deploy/gunicorn.conf.py, 5 sync workers) on a throw-away PostgreSQL database of
# DATABASE_URL's server, with Redis (BENCH_REDIS_URL, default db 13), driven from loopback by
# N matches x 4 devices (bench/load.py): CPU per request kind, then p50/p95/p99 per kind for a
# few N, and the largest N that holds p95 <= 100 ms with 0 errors. About 5 minutes by default;
# BENCH_LOAD_N=100 BENCH_LOAD_SECONDS=10 makes a quick run, BENCH_LOAD_SERVERS=2 runs two
# gunicorn processes asked in turn (scale-out).
bench-load: install messages
	$(BIN)/python -m bench.load

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check apps skirmish tests bench tools
	$(BIN)/lint-imports
	DJANGO_DEBUG=true $(BIN)/mypy apps/systems
	$(BIN)/python -m tools.complexity

# For developers (needs GNU gettext's xgettext): refresh the German catalogue from the sources.
makemessages: install
	DJANGO_DEBUG=true $(BIN)/python manage.py makemessages -l de --no-obsolete \
		--ignore=.venv --ignore=staticfiles --ignore=media --ignore=tests --ignore=bench

constraints: install
	( echo "# Pinned versions for a reproducible install: pip install -c constraints.txt -e '.[dev]'"; \
	  echo "# Regenerate after changing pyproject.toml: make constraints"; \
	  $(BIN)/python -m pip freeze --exclude-editable ) > constraints.txt

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .mypy_cache .ruff_cache $(MO_FILES)
