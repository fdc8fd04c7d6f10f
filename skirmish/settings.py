"""Settings for Skirmish: one module, configured by environment variables.

Without any environment the app runs for a first local look: SQLite in the project folder and
Celery tasks executed in-process. Production sets ``DJANGO_DEBUG=false`` and must then provide
``DJANGO_SECRET_KEY`` and ``ALLOWED_HOSTS``; the README lists every variable.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured
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
    "csp",
    "allauth",
    "allauth.account",
    "axes",
    "apps.common",
    "apps.accounts",
    "apps.pages",
    "apps.catalog",
    "apps.rosters",
    "apps.matches",
    "apps.scenarios",
    "apps.leagues",
    "apps.cards",
    "apps.notifications",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # A tracker's poll with a valid token, answered from the cache (apps.matches.poll).
    "apps.matches.poll.PollMiddleware",
    # Early, so it compresses the finished body: only the match pages, see its module (BREACH).
    "apps.common.compression.BreachSafeGZipMiddleware",
    # The Content-Security-Policy header (CONTENT_SECURITY_POLICY below).
    "csp.middleware.CSPMiddleware",
    # A tracker refresh with a valid poll token, answered from the kept render
    # (apps.matches.kept_refresh); compressed and given its CSP header by the two above.
    "apps.matches.kept_refresh.KeptRefreshMiddleware",
    # A body over the cap is refused (413) before anything below reads it.
    "apps.common.middleware.RequestSizeLimitMiddleware",
    # NUL and lone surrogates in any input: 400 invalid_text before a view or session reads it.
    "apps.common.text_input.TextInputMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: turns a login refused for too many failures into its page.
    "axes.middleware.AxesMiddleware",
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
                "apps.notifications.context_processors.unread",
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
if "CONN_MAX_AGE" in DATABASES["default"]:
    # Kept open for a minute by gunicorn's workers; an ASGI server (the stream service) runs
    # Django's sync code in threads that come and go, each of which would keep its own: there
    # 0, as Django advises for ASGI (docker-compose.yml sets it).
    DATABASES["default"]["CONN_MAX_AGE"] = env.integer(
        "DATABASE_CONN_MAX_AGE", default=int(DATABASES["default"]["CONN_MAX_AGE"])
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Accounts ---------------------------------------------------------------------------------

# django-allauth: sign-up, login by user name or email, email addresses, password reset.
# django-axes: logins that failed too often for one user name from one address are locked out.

AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "accounts:profile"
LOGOUT_REDIRECT_URL = "pages:home"
AUTHENTICATION_BACKENDS = [
    # First, so that a locked-out client is refused before any password is checked.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

ACCOUNT_ADAPTER = "apps.accounts.adapter.AccountAdapter"
ACCOUNT_FORMS = {
    "login": "apps.accounts.forms.LoginForm",
    "signup": "apps.accounts.forms.SignupForm",
}
ACCOUNT_LOGIN_METHODS = {"username", "email"}
# A new account starts where a new player starts: building their first team (not the API
# token page a returning login lands on).
ACCOUNT_SIGNUP_REDIRECT_URL = "rosters:list"
# Every account has an email address: to recover it, and for organisers to reach their players.
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = env.choice(
    "ACCOUNT_EMAIL_VERIFICATION", "optional", ["none", "optional", "mandatory"]
)
# A login lasts SESSION_COOKIE_AGE, as it did before allauth (a tablet at the table stays in).
ACCOUNT_SESSION_REMEMBER = True
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[Skirmish] "
ACCOUNT_RATE_LIMITS = {
    # Sign-ups per client address (10 accounts in 2.7 s were possible); fixing typos stays below.
    "signup": "5/m/ip,20/h/ip",
    # One address trying many user names; a single account is locked out by django-axes below.
    "login_failed": "20/10m/ip",
}

# How many reverse proxies in front of the app append to X-Forwarded-For. 0: the client is
# REMOTE_ADDR and the header is ignored, so a client cannot pick its own address. The throttles
# of the API, allauth and django-axes all take the client address from this one number.
NUM_PROXIES = env.integer("NUM_PROXIES", default=0)

AXES_FAILURE_LIMIT = env.integer("LOGIN_FAILURE_LIMIT", default=5, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=env.integer("LOGIN_LOCKOUT_MINUTES", default=15, minimum=1))
# Per user name and address: a typo-prone player cannot lock out everyone on the club's network,
# and an attacker elsewhere cannot lock out the player.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_USERNAME_CALLABLE = "apps.accounts.throttling.login_name"
AXES_CLIENT_IP_CALLABLE = "apps.accounts.throttling.client_ip"
AXES_LOCKOUT_CALLABLE = "apps.accounts.views.locked_out"
AXES_RESET_ON_SUCCESS = True
# Failures are kept (in the database, shared by every process); successful logins are not logged.
AXES_DISABLE_ACCESS_LOG = True

# --- Email ------------------------------------------------------------------------------------

# Password resets and address verification. Without EMAIL_HOST, mails are written to the log.
EMAIL_HOST = env.string("EMAIL_HOST") or "localhost"
EMAIL_BACKEND = {
    "console": "django.core.mail.backends.console.EmailBackend",
    "smtp": "django.core.mail.backends.smtp.EmailBackend",
}[
    env.choice(
        "EMAIL_BACKEND",
        "smtp" if env.string("EMAIL_HOST") else "console",
        ["console", "smtp"],
    )
]
EMAIL_PORT = env.integer("EMAIL_PORT", default=587, minimum=1)
EMAIL_HOST_USER = env.string("EMAIL_HOST_USER", default="")
EMAIL_HOST_PASSWORD = env.string("EMAIL_HOST_PASSWORD", default="")
EMAIL_USE_SSL = env.boolean("EMAIL_USE_SSL", default=False)
EMAIL_USE_TLS = env.boolean("EMAIL_USE_TLS", default=not EMAIL_USE_SSL)
if EMAIL_USE_SSL and EMAIL_USE_TLS:
    raise ImproperlyConfigured("Set only one of EMAIL_USE_TLS and EMAIL_USE_SSL to true.")
# A mail server that does not answer must not hold a request (Django's default waits forever).
EMAIL_TIMEOUT = env.integer("EMAIL_TIMEOUT", default=10, minimum=1)
DEFAULT_FROM_EMAIL = env.string("DEFAULT_FROM_EMAIL", default="Skirmish <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# --- Languages --------------------------------------------------------------------------------

LANGUAGES = [("de", _("German")), ("en", _("English"))]
LANGUAGE_CODE = env.choice("DJANGO_LANGUAGE_CODE", default="de", choices=["de", "en"])
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
# Dates in each language's own words and order (skirmish/formats): "1 Nov 2026", "01.11.2026".
FORMAT_MODULE_PATH = ["skirmish.formats"]
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
# Health checks (the container's own, a load balancer's) ask over plain HTTP inside the network.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
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
# The whole body, files included (DATA_UPLOAD_MAX_MEMORY_SIZE does not count files): a larger
# Content-Length is answered 413 before the body is read (apps.common.middleware). The proxy
# caps bodies too (deploy/nginx/locations.conf: client_max_body_size, the same 2 MiB).
REQUEST_MAX_BODY_SIZE = DATA_UPLOAD_MAX_MEMORY_SIZE
# Uploads stay in memory: nothing under the cap needs a temporary file, nothing over it is read.
FILE_UPLOAD_HANDLERS = ["django.core.files.uploadhandler.MemoryFileUploadHandler"]

# Content-Security-Policy (django-csp): scripts only from this site's own files -- no inline
# script, no inline event handler, no eval (htmx runs with allowEval off, see base.html).
# Inline styles stay allowed: the tracker draws its bars with style="width: …" and the error
# page carries its own styles; with img-src, font-src and connect-src limited to this site, an
# injected style has no way to send anything elsewhere.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        # data: for the icons of the API docs (Swagger UI) and the printed cards' QR codes.
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        # The service worker (/sw.js) and the web app manifest: this site's own.
        "worker-src": ["'self'"],
        "manifest-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

# --- Cache ------------------------------------------------------------------------------------

# The throttles count in the cache, so every web process must see the same counts: Redis when one
# is configured (REDIS_URL, else a redis:// Celery broker); local memory serves one process only.
_broker_url = env.string("CELERY_BROKER_URL") or ""
REDIS_URL = env.string("REDIS_URL") or (
    _broker_url if _broker_url.startswith(("redis://", "rediss://")) else None
)
if REDIS_URL and not REDIS_URL.startswith(("redis://", "rediss://", "unix://")):
    raise ImproperlyConfigured(
        f"The environment variable REDIS_URL must be a redis:// URL (got {REDIS_URL!r})."
    )
if REDIS_URL:
    CACHES = {
        "default": {
            # Django's RedisCache, bounded: a Redis that is down or hung costs a request at most
            # a second, then the throttles stop counting for a while instead of failing pages.
            "BACKEND": "apps.accounts.cache.SharedRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "skirmish",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Only Redis is one cache for every web process; local memory is each process's own. What must be
# the same everywhere follows from that: a poll answered from a seq another process cached long
# ago would say "unchanged" for a match that moved (apps.matches.seqcache), and a session cached
# by one process would outlive its logout in another. A development server is one process.
CACHE_IS_SHARED = bool(REDIS_URL)
MATCH_SEQ_IN_CACHE = env.boolean("MATCH_SEQ_IN_CACHE", default=CACHE_IS_SHARED or DEBUG)
# A stream server runs behind the proxy (docker-compose.yml's ``stream``): trackers follow their
# match by server-sent events instead of polling while their stream works (apps.matches.stream).
# It needs the shared cache (Redis publishes the seqs).
MATCH_STREAMS = env.boolean("MATCH_STREAMS", default=False) and CACHE_IS_SHARED
if CACHE_IS_SHARED:
    # Sessions read from Redis (written through to the database, which keeps them when Redis
    # is away): a poll checks its user's session without a query.
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

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
    # drf-spectacular's, with every operation's {code, message} error responses added.
    "DEFAULT_SCHEMA_CLASS": "apps.common.schema.ApiAutoSchema",
    "EXCEPTION_HANDLER": "apps.common.api.exception_handler",
    # army_files: parsing an uploaded army list, per user or client address.
    "DEFAULT_THROTTLE_RATES": {
        "auth": "20/minute",
        "anon": "120/minute",
        "army_files": "60/minute",
    },
    # Throttles count per client address: REMOTE_ADDR behind NUM_PROXIES trusted proxies.
    "NUM_PROXIES": NUM_PROXIES,
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
    # Request bodies get components of their own (required fields, no read-only ones).
    "COMPONENT_SPLIT_REQUEST": True,
    # Several models have a "status" (or "visibility", ...): one named enum each.
    "ENUM_NAME_OVERRIDES": {
        "MatchStatusEnum": "apps.matches.models.MatchStatus",
        "CardExportStatusEnum": "apps.cards.models.CardExport.Status",
        "SeasonStatusEnum": "apps.leagues.models.Season.Status",
        "RoundStatusEnum": "apps.leagues.models.Round.Status",
        "ResultStatusEnum": "apps.leagues.models.Result.Status",
        # A round being paired by the task (apps.leagues.pairing_jobs).
        "PairingJobStateEnum": ["queued", "running", "done", "failed"],
        # The 409 answer to a command sent on an old seq (apps.matches.serializers).
        "StaleCodeEnum": ["stale"],
    },
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
# A card render takes seconds (make bench: a 7-fighter roster well under one); the limits leave
# ample room and keep a lost render's recovery (visibility timeout, stale retry) near 2 minutes.
CELERY_TASK_TIME_LIMIT = 90
CELERY_TASK_SOFT_TIME_LIMIT = 75
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A worker that loses the broker stops its late-acknowledged tasks: their messages are
# delivered again instead of finishing on a connection that can no longer acknowledge them.
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
# Every call to Redis is bounded: a broker that accepts connections and never answers must cost
# a web request seconds, not a gunicorn worker (kombu and redis-py wait forever by default).
# 3 s is well above a healthy Redis's answer and above the 1 s a worker's BRPOP blocks.
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": 2,
    "socket_timeout": 3,
    # A message is unacknowledged while its task runs (late acks). If the whole worker dies,
    # Redis hands the message to another worker after this long: the hard time limit of a task
    # plus 10 s, so that a render still running is never delivered twice. The restore sweep
    # then runs about every 30 s (kombu: 10 s × throttle).
    "visibility_timeout": CELERY_TASK_TIME_LIMIT + 10,
    "unacked_restore_throttle": 3,
}
# Publishing a task: one quick retry (a pooled connection that went stale when Redis
# restarted), then the caller hears of the failure (a card export answers 503 / fails).
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.2,
}
# The result backend (Redis too): bounded the same way, and few retries (Celery's default is 20).
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = 2
CELERY_REDIS_SOCKET_TIMEOUT = 3
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {
    "retry_policy": {"max_retries": 2, "interval_start": 0, "interval_step": 0.5, "interval_max": 1}
}
CELERY_TIMEZONE = TIME_ZONE
CELERY_BEAT_SCHEDULE = {
    # Retries or fails exports whose worker died and deletes old PDFs (also `manage.py
    # cards_cleanup`); often enough that a lost export is retried within minutes.
    "cards-cleanup": {"task": "cards.cleanup", "schedule": 5 * 60},
    # Reminds players of league reports about to count (apps.notifications.services); a
    # reminder is sent once, so the interval only decides how early within its 12 hours.
    "notifications-deadlines": {"task": "notifications.deadline_reminders", "schedule": 15 * 60},
}

# --- Printed cards ----------------------------------------------------------------------------

# Finished card PDFs are kept this long, then deleted by the cleanup task.
CARDS_KEEP_DAYS = env.integer("CARDS_KEEP_DAYS", default=7, minimum=1)
# An export still "running" after this long lost its worker (the task's hard time limit is
# CELERY_TASK_TIME_LIMIT, and Redis redelivers a dead worker's message after the visibility
# timeout, 100 s); it is queued again up to CARDS_STALE_RETRIES times, then marked failed so
# that its page stops waiting. The page's poll checks this too, so nobody waits for the beat.
CARDS_STALE_MINUTES = env.integer("CARDS_STALE_MINUTES", default=2, minimum=2)
CARDS_STALE_RETRIES = env.integer("CARDS_STALE_RETRIES", default=2, minimum=0)

# --- Notifications ----------------------------------------------------------------------------

# The site's address for links in emails sent by Celery tasks, which have no request to build
# them from: SITE_URL, else the first of ALLOWED_HOSTS (the development server's port in debug).
_site_host = ALLOWED_HOSTS[0].lstrip(".") if ALLOWED_HOSTS[0] != "*" else "localhost"
SITE_URL = (
    env.string("SITE_URL")
    or f"{'https' if HTTPS else 'http'}://{_site_host}{':8000' if DEBUG else ''}"
).rstrip("/")
if not SITE_URL.startswith(("https://", "http://")):
    raise ImproperlyConfigured(
        f"The environment variable SITE_URL must start with https:// (got {SITE_URL!r})."
    )

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
    "loggers": {
        "weasyprint": {"level": "WARNING"},
        "fontTools": {"level": "WARNING"},
        # django-axes logs every start at INFO; its failed logins and lockouts are warnings.
        "axes": {"level": "WARNING"},
    },
}
