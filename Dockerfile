# The web and worker image for docker-compose.yml (production settings, PostgreSQL, Redis).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1
RUN apt-get update \
    && apt-get install -y --no-install-recommends gettext make \
       libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY pyproject.toml constraints.txt README.md ./
COPY skirmish skirmish
COPY apps apps
RUN pip install --no-cache-dir -c constraints.txt .
COPY . .
# Build outputs of the image, never of the repository: translations and hashed static files.
RUN make messages \
    && DJANGO_DEBUG=false DJANGO_SECRET_KEY=build-only-not-used-at-runtime-0123456789abcdefghijklmnop \
       ALLOWED_HOSTS=localhost python manage.py collectstatic --noinput --verbosity 0

RUN useradd --create-home skirmish && mkdir -p /app/media && chown skirmish /app/media
USER skirmish
EXPOSE 8000
CMD ["gunicorn", "skirmish.wsgi", "--bind", "0.0.0.0:8000", "--workers", "3", "--access-logfile", "-"]
