"""Settings for Skirmish: one module, configured by environment variables.

Without any environment the app runs for a first local look: SQLite in the project folder and
Celery tasks executed in-process. Production sets ``DJANGO_DEBUG=false`` and must then provide
``DJANGO_SECRET_KEY`` and ``ALLOWED_HOSTS``; the README lists every variable.
"""

from __future__ import annotations

from pathlib import Path

from django.utils.translation import gettext_lazy as _

from skirmish.env import Env, database_config

BASE_DIR = Path(__file__).resolve().parent.parent
env = Env()

# --- Core -------------------------------------------------------------------------------------

DEBUG = env.boolean("DJANGO_DEBUG", default=False)

if DEBUG:
    # A fixed key is fine for a local development server and keeps sessions across restarts.
    SECRET_KEY = env.string("DJANGO_SECRET_KEY") or "django-insecure-local-development-only"
else:
    SECRET_KEY = env.required_string(
        "DJANGO_SECRET_KEY",
        "it is required when DJANGO_DEBUG is off (generate one with "
        "`python -c 'import secrets; print(secrets.token_urlsafe(50))'`).",
    )

if DEBUG:
    ALLOWED_HOSTS = env.strings("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]"])
else:
    # Without it every request would be refused with a bare 400, long after a "successful" start.
    ALLOWED_HOSTS = env.required_strings(
        "ALLOWED_HOSTS",
        "it is required when DJANGO_DEBUG is off: the comma-separated host names the site "
        "answers to, e.g. skirmish.example.org.",
    )
CSRF_TRUSTED_ORIGINS = env.strings("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "template_partials",
    "apps.common",
    "apps.accounts",
    "apps.pages",
    "apps.catalog",
    "apps.rosters",
    "apps.matches",
    "apps.scenarios",
    "apps.leagues",
    "apps.cards",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

if not DEBUG:
    # Production serves the collected, hashed static files itself; a development server and the
    # test live server serve them from the sources.
    MIDDLEWARE.insert(1, "whitenoise.middleware.WhiteNoiseMiddleware")

ROOT_URLCONF = "skirmish.urls"
WSGI_APPLICATION = "skirmish.wsgi.application"
ASGI_APPLICATION = "skirmish.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "apps.common.context_processors.site",
            ],
        },
    },
]

# --- Database ---------------------------------------------------------------------------------

DATABASES = {
    "default": database_config(
        env.string("DATABASE_URL"), sqlite_path=str(BASE_DIR / "db.sqlite3")
    ),
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Accounts ---------------------------------------------------------------------------------

AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "accounts:profile"
LOGOUT_REDIRECT_URL = "pages:home"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- Languages --------------------------------------------------------------------------------

LANGUAGES = [("de", _("German")), ("en", _("English"))]
LANGUAGE_CODE = env.choice("DJANGO_LANGUAGE_CODE", default="de", choices=["de", "en"])
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = env.string("DJANGO_TIME_ZONE", default="Europe/Berlin")
USE_TZ = True

# --- Static and media files -------------------------------------------------------------------

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_URL = "media/"
MEDIA_ROOT = Path(env.string("DJANGO_MEDIA_ROOT") or BASE_DIR / "media")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # Hashed names need `collectstatic`; a development server serves the sources instead.
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage",
    },
}

# --- Security ---------------------------------------------------------------------------------

# Behind a TLS-terminating proxy, trust its X-Forwarded-Proto header.
if env.boolean("DJANGO_SECURE_PROXY_SSL_HEADER", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

HTTPS = env.boolean("DJANGO_HTTPS", default=not DEBUG)
SECURE_SSL_REDIRECT = HTTPS
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = env.integer("DJANGO_HSTS_SECONDS", default=31_536_000 if HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.boolean("DJANGO_HSTS_INCLUDE_SUBDOMAINS", default=HTTPS)
SECURE_HSTS_PRELOAD = env.boolean("DJANGO_HSTS_PRELOAD", default=HTTPS)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
# Uploads (rosters, BattleScribe files) are small; refuse anything bigger before parsing it.
DATA_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024

# --- Cache ------------------------------------------------------------------------------------

CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# --- REST API ---------------------------------------------------------------------------------

API_RENDERERS = ["rest_framework.renderers.JSONRenderer"]
if DEBUG:
    API_RENDERERS.append("rest_framework.renderers.BrowsableAPIRenderer")

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    # Private by default; public endpoints say so explicitly.
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": API_RENDERERS,
    "DEFAULT_PARSER_CLASSES": ["apps.common.parsers.JSONParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "apps.common.api.exception_handler",
    "DEFAULT_THROTTLE_RATES": {"auth": "20/minute", "anon": "120/minute"},
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Skirmish API",
    "DESCRIPTION": "Rosters, live matches and leagues for tabletop skirmish games.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "SCHEMA_PATH_PREFIX": "/api/v1",
}

# --- Celery -----------------------------------------------------------------------------------

CELERY_BROKER_URL = env.string("CELERY_BROKER_URL")
CELERY_RESULT_BACKEND = env.string("CELERY_RESULT_BACKEND") or CELERY_BROKER_URL
# Without a broker (the zero-setup start) tasks run in-process, so every page still works.
CELERY_TASK_ALWAYS_EAGER = CELERY_BROKER_URL is None
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = 5 * 60
CELERY_TASK_SOFT_TIME_LIMIT = 4 * 60
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = TIME_ZONE
CELERY_BEAT_SCHEDULE = {
    # Fails exports whose worker died and deletes old PDFs (also `manage.py cards_cleanup`).
    "cards-cleanup": {"task": "cards.cleanup", "schedule": 60 * 60},
}

# --- Printed cards ----------------------------------------------------------------------------

# Finished card PDFs are kept this long, then deleted by the cleanup task.
CARDS_KEEP_DAYS = env.integer("CARDS_KEEP_DAYS", default=7, minimum=1)
# An export still "running" after this long lost its worker (the task's hard time limit is
# CELERY_TASK_TIME_LIMIT); it is marked failed so that its page stops waiting.
CARDS_STALE_MINUTES = env.integer("CARDS_STALE_MINUTES", default=10, minimum=1)

# --- Logging ----------------------------------------------------------------------------------

LOG_LEVEL = env.choice(
    "DJANGO_LOG_LEVEL", "INFO", ["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]
)
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    # WeasyPrint logs every layout step at INFO; its warnings are what matters.
    "loggers": {"weasyprint": {"level": "WARNING"}, "fontTools": {"level": "WARNING"}},
}
