# One image for web (gunicorn), worker and beat (Celery); docker-compose.yml builds it once.
#
# Two stages: `build` installs the dependencies into a virtual environment, compiles the
# translations and collects the hashed static files; `runtime` copies only what the app needs
# to run (no tests, bench, docs or tools: .dockerignore keeps them out of the build context).

FROM python:3.11-slim AS build

ENV PYTHONDONTWRITEBYTECODE=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1 \
    PATH=/venv/bin:$PATH
RUN apt-get update \
    && apt-get install -y --no-install-recommends gettext \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
RUN python -m venv /venv
# The dependencies first (a layer that changes only with them); the project itself runs from
# /app, so its own installed copy is removed again.
COPY pyproject.toml constraints.txt README.md ./
COPY skirmish skirmish
COPY apps apps
RUN pip install -c constraints.txt . && pip uninstall -y skirmish

COPY . .
# Build outputs of the image, never of the repository: translations and hashed static files.
RUN find locale -name '*.po' -exec sh -c 'msgfmt --check-format -o "${1%.po}.mo" "$1"' _ {} \; \
    && DJANGO_DEBUG=false DJANGO_SECRET_KEY=build-only-not-used-at-runtime-0123456789abcdefghijklmnop \
       ALLOWED_HOSTS=localhost python manage.py collectstatic --noinput --verbosity 0


FROM python:3.11-slim AS runtime

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PATH=/venv/bin:$PATH
# WeasyPrint (printed cards) draws text with Pango and subsets fonts with HarfBuzz.
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
       libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --create-home --uid 1000 skirmish

COPY --from=build /venv /venv
WORKDIR /app
COPY --from=build /app/manage.py ./
COPY --from=build /app/skirmish skirmish
COPY --from=build /app/apps apps
COPY --from=build /app/templates templates
COPY --from=build /app/locale locale
COPY --from=build /app/fixtures fixtures
COPY --from=build /app/static static
COPY --from=build /app/staticfiles staticfiles
COPY --from=build /app/deploy/gunicorn.conf.py /app/deploy/healthcheck.py deploy/
# media: card PDFs (a volume); /srv/static: the volume the web container fills for the proxy.
RUN mkdir -p /app/media /srv/static && chown skirmish /app/media /srv/static

USER skirmish
EXPOSE 8000
# For web; docker-compose.yml gives the worker its own check and beat none.
HEALTHCHECK --interval=15s --timeout=8s --start-period=60s --retries=3 \
    CMD ["python", "deploy/healthcheck.py"]
CMD ["gunicorn", "-c", "deploy/gunicorn.conf.py", "skirmish.wsgi"]
