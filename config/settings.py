"""Settings, all from the environment (django-environ; modelled on cookiecutter-django's base settings).

With no environment at all the site runs on SQLite and kombu's filesystem transport under `VAR_DIR`
(default `./var`): no server to install. `DATABASE_URL=postgres://...` and
`CELERY_BROKER_URL=redis://...` switch to real servers; `DJANGO_DEBUG=0` turns on the production block at the end.

Importing these settings writes nothing and creates no folder: each folder under VAR_DIR is made by the code that
writes there (the SQLite backend config.sqlite3, the Celery app for the broker's folders, the services for
benchmarks, work folders and caches); the secret key file is written by scripts/bootstrap.sh.
"""
import os
from pathlib import Path

import environ
from kombu import Exchange as _Exchange, Queue as _Queue
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
env = environ.Env()
if env.bool("DJANGO_READ_DOT_ENV", default=False):  # only when asked, as cookiecutter-django does
    environ.Env.read_env(BASE_DIR / ".env")

DEBUG = env.bool("DJANGO_DEBUG", default=True)  # 0 in production: see "Production" at the end

# Test runs (pytest sets PYTEST_VERSION) keep their files apart from the site's data.
VAR_DIR = Path(env("VAR_DIR", default=str(BASE_DIR / ("var/test" if env("PYTEST_VERSION", default="") else "var"))))
VAR_DIR = VAR_DIR.resolve()
SECRET_KEY_FILE = VAR_DIR / "secret_key"  # written once by scripts/bootstrap.sh (mode 0600, never committed)
# SECRET_KEY from the environment, else the key file; with neither, a fixed key that only development accepts.
SECRET_KEY = env("SECRET_KEY", default="") or (SECRET_KEY_FILE.read_text().strip() if SECRET_KEY_FILE.is_file() else "")
if not SECRET_KEY and DEBUG:
    SECRET_KEY = "django-insecure-development-only-key-set-SECRET_KEY-in-production"
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=["http://127.0.0.1:8000", "http://localhost:8000"])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "csp",
    "catalog",
    "leaderboard",
    "submissions",
    "evaluation",
]

MIDDLEWARE = [
    "config.client_address.ClientAddressMiddleware",  # first: REMOTE_ADDR is the client's (TRUSTED_PROXY_COUNT below)
    "config.http_methods.RefuseTraceMiddleware",
    "config.null_characters.RefuseNullCharactersMiddleware",  # PostgreSQL text cannot hold NUL (a 500 otherwise)
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",  # Content-Security-Policy (CONTENT_SECURITY_POLICY below)
    "django.middleware.clickjacking.XFrameOptionsMiddleware",  # above the cached board page, so it has the header
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "leaderboard.page_cache.CachedBoardPageMiddleware",  # a visitor's cached board page, before sessions and auth
    "django.contrib.sessions.middleware.SessionMiddleware",
    "config.http_methods.SlashRequiredMiddleware",  # a write to an address without its slash: 404, not a redirect
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "config.null_characters.RefuseNullCharactersInFormsMiddleware",  # after the CSRF check, which reads the form
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "axes.middleware.AxesMiddleware",  # last: turns a lockout into its page (429)
]

# --- sign-in throttles ------------------------------------------------------------------------
# django-axes counts wrong passwords (login form, admin and API token alike) per address (the throttle: an address
# guessing at any accounts is locked out) and per account *from that address*, and locks out for AXES_COOLOFF_TIME
# after AXES_FAILURE_LIMIT of them; a right password resets that account's own count only (AXES_HANDLER:
# leaderboard.signin_lockout; axes' own reset on success clears the whole address's count, so signing in to one's
# own account, or signing up, between guesses at another's would guess without end). Never per account alone:
# anyone could then lock any user out by typing wrong passwords for their name; the account still signs in from any
# other address.
# The address is REMOTE_ADDR (django-axes' default without django-ipware), for django-ratelimit and DRF's throttles too.
#: How many reverse proxies in front of the site append the address they received a request from to X-Forwarded-For
#: (docs/deploy.md "Settings"): config.client_address.ClientAddressMiddleware, the one reader of that header, sets
#: REMOTE_ADDR to the entry this far from the right. 0 (the default): the header is never believed (a client could
#: write any address there), REMOTE_ADDR is the peer's.
TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=0)
if TRUSTED_PROXY_COUNT < 0:
    raise ImproperlyConfigured(f"TRUSTED_PROXY_COUNT must be 0 or more, not {TRUSTED_PROXY_COUNT}")
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]
AXES_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=10)
AXES_COOLOFF_TIME = env.float("LOGIN_LOCKOUT_HOURS", default=0.25)
AXES_LOCKOUT_PARAMETERS = ["ip_address", ["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True  # with AXES_HANDLER below: the signed-in account's attempts from that address only
AXES_HANDLER = "leaderboard.signin_lockout.AccountOnlyResetHandler"
AXES_VERBOSE = False
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
#: New accounts per address (django-ratelimit on /signup/): the daily quota is a team's, so accounts must not be free.
SIGNUP_RATE = env.str("SIGNUP_RATE", default="5/h")

# --- Content-Security-Policy (django-csp 4 format) --------------------------------------------
# Scripts only from this site (our static/js/ and plotly.js served from static/vendor/): no inline script, no eval,
# no other origin. Styles allow 'unsafe-inline' because plotly.js and Redoc style their elements at run time;
# Redoc's schema parser runs in a blob: worker. Nothing may frame the site.
from csp.constants import NONE as _CSP_NONE, SELF as _CSP_SELF  # noqa: E402

CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [_CSP_SELF],
        "script-src": [_CSP_SELF],
        "style-src": [_CSP_SELF, "'unsafe-inline'"],
        "img-src": [_CSP_SELF, "data:"],
        "font-src": [_CSP_SELF],
        "connect-src": [_CSP_SELF],
        "worker-src": [_CSP_SELF, "blob:"],
        "object-src": [_CSP_NONE],
        "base-uri": [_CSP_SELF],
        "form-action": [_CSP_SELF],
        "frame-ancestors": [_CSP_NONE],
    },
}

# --- E-mail (django-environ's EMAIL_URL) --------------------------------------------------------
# Sign-up's address verification and password resets send mail. Default: Django's console backend (the message is
# printed by the web process). SMTP: EMAIL_URL=smtp+tls://user:password@smtp.example.org:587 (or smtps://...:465).
vars().update(env.email_url("EMAIL_URL", default="consolemail://"))
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="RepoGenesis Leaderboard <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
#: How long a link to verify an e-mail address stays valid (a password reset link: PASSWORD_RESET_TIMEOUT).
EMAIL_VERIFY_MAX_AGE_SECONDS = env.int("EMAIL_VERIFY_MAX_AGE_SECONDS", default=3 * 24 * 3600)
PASSWORD_RESET_TIMEOUT = env.int("PASSWORD_RESET_TIMEOUT", default=3 * 24 * 3600)
#: Password-reset and verification e-mails per address (django-ratelimit): the forms cannot be used to flood a mailbox.
EMAIL_SEND_RATE = env.str("EMAIL_SEND_RATE", default="5/h")

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
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
            ],
        },
    },
]

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}")}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Django's SQLite backend, plus the database file's folder made when the first connection opens.
    DATABASES["default"]["ENGINE"] = "config.sqlite3"
    # The web process and the worker write concurrently: WAL + immediate transactions + a busy timeout.
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 30,
    }
    # A file, not :memory:, so a real worker process can share the test database.
    # One file per test session, so two sessions on one machine do not share a database.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test-db-{os.getpid()}.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The cache (django-environ's CACHE_URL): local memory per process by default, Redis in production
# (CACHE_URL=redis://host:6379/1, Django's own Redis backend). The board's rows and answers are kept there, keyed by
# the board version stored in the database (leaderboard.board_cache), so per-process caches are never stale.
CACHES = {"default": env.cache_url("CACHE_URL", default="locmemcache://board")}
# The throttles' cache: django-ratelimit's sign-up and e-mail rates (RATELIMIT_USE_CACHE) and DRF's token throttle
# (leaderboard.api.auth.AuthRateThrottle) count there; the sign-in lockout counts in the database (django-axes'
# database handler). Never the board's cache: local memory is per process (with 2 gunicorn workers each allowed the
# whole rate) and its 300 entries are evicted by the board's pages (400 distinct query strings wiped the counters).
# THROTTLE_CACHE_URL, else CACHE_URL when set (Redis in production: shared by every web process), else the
# database (Django's DatabaseCache, table `throttle_cache`: shared by every process without a server; made by
# leaderboard 0010 and `manage.py createcachetable` in scripts/release.sh and scripts/run.sh).
THROTTLE_CACHE_ALIAS = "throttle"
_throttle_cache_url = env.str("THROTTLE_CACHE_URL", default="") or env.str("CACHE_URL", default="")
CACHES[THROTTLE_CACHE_ALIAS] = (
    {**environ.Env.cache_url_config(_throttle_cache_url), "KEY_PREFIX": "throttle"} if _throttle_cache_url else
    {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "throttle_cache",
     "OPTIONS": {"MAX_ENTRIES": 1_000_000}})  # culled only past a million counters (expired ones go first)
RATELIMIT_USE_CACHE = THROTTLE_CACHE_ALIAS

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "leaderboard:home"
LOGOUT_REDIRECT_URL = "leaderboard:home"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "staticfiles"  # made by collectstatic (scripts/run.sh)
STATICFILES_DIRS = [BASE_DIR / "static"]
WHITENOISE_USE_FINDERS = True  # serve static files without a collectstatic step (tests, dev)
MEDIA_ROOT = VAR_DIR / "media"
MEDIA_URL = "/media-not-served/"  # uploads are private: no URL serves MEDIA_ROOT
BENCHMARK_ROOT = Path(env("BENCHMARK_ROOT", default=str(VAR_DIR / "benchmarks")))  # hidden tests: never served

# --- Object storage: what worker hosts read (archives, generated repositories, task bundles) ------
# Everything a worker needs goes through Django's storage API: `default` holds the submitted and generated archives,
# `benchmarks` the tasks' private-file bundles (catalog.bundles). On the filesystem by default (MEDIA_ROOT and
# BENCHMARK_ROOT: one host, nothing to set up). With AWS_STORAGE_BUCKET_NAME both live in that S3 bucket
# (django-storages), under the prefixes `media/` and `benchmarks/`, and worker hosts share nothing but the database,
# the broker and the bucket (docs/deploy.md "Adding a worker host"). AWS_S3_ENDPOINT_URL points at any
# S3-compatible server (MinIO, Ceph, moto); the keys come from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (or the
# host's role when unset).
AWS_STORAGE_BUCKET_NAME = env.str("AWS_STORAGE_BUCKET_NAME", default="")
if AWS_STORAGE_BUCKET_NAME:
    from boto3.s3.transfer import TransferConfig as _TransferConfig  # noqa: E402

    AWS_S3_ENDPOINT_URL = env.str("AWS_S3_ENDPOINT_URL", default="") or None
    AWS_S3_REGION_NAME = env.str("AWS_S3_REGION_NAME", default="") or None
    AWS_ACCESS_KEY_ID = env.str("AWS_ACCESS_KEY_ID", default="") or None
    AWS_SECRET_ACCESS_KEY = env.str("AWS_SECRET_ACCESS_KEY", default="") or None
    AWS_S3_ADDRESSING_STYLE = env.str("AWS_S3_ADDRESSING_STYLE", default="path")  # what S3-compatible servers take
    AWS_DEFAULT_ACL = None  # the bucket's own policy (private): nothing is public
    AWS_QUERYSTRING_AUTH = True
    AWS_S3_FILE_OVERWRITE = False
    # Uploads in 8 MiB parts, one at a time in the request's own thread: boto3's threaded transfer reads up to 10
    # parts ahead into memory (a 200 MB upload grew the web worker's peak RSS by 92 MB; sequential: 9 MB,
    # bench/upload_memory.py --storage s3).
    AWS_S3_TRANSFER_CONFIG = _TransferConfig(multipart_threshold=8 * 1024 * 1024, multipart_chunksize=8 * 1024 * 1024,
                                             use_threads=False)
    _s3 = "storages.backends.s3.S3Storage"
    STORAGES = {"default": {"BACKEND": _s3, "OPTIONS": {"location": "media"}},
                "benchmarks": {"BACKEND": _s3, "OPTIONS": {"location": "benchmarks"}}}
else:
    STORAGES = {"default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
                "benchmarks": {"BACKEND": "django.core.files.storage.FileSystemStorage",
                               "OPTIONS": {"location": BENCHMARK_ROOT, "directory_permissions_mode": 0o700,
                                           "file_permissions_mode": 0o600}}}
STORAGES["staticfiles"] = {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"}

# --- Benchmarks and evaluation -------------------------------------------------------------
EVALUATION_WORK_ROOT = Path(env("EVALUATION_WORK_ROOT", default=str(VAR_DIR / "work")))
EVALUATION_CACHE_ROOT = Path(env("EVALUATION_CACHE_ROOT", default=str(VAR_DIR / "cache")))
EVALUATION_BACKEND = env("EVALUATION_BACKEND", default="local")  # local | docker
EVALUATION_TASK_CONCURRENCY = env.int("EVALUATION_TASK_CONCURRENCY", default=2)
EVALUATION_SANDBOX_PYTHON = env("EVALUATION_SANDBOX_PYTHON", default="/usr/bin/python3")
EVALUATION_STALE_SECONDS = env.int("EVALUATION_STALE_SECONDS", default=60)  # silent heartbeat = dead worker
EVALUATION_MIN_ISOLATION = env("EVALUATION_MIN_ISOLATION", default="netns+bwrap")  # netns+bwrap[+cgroup] | docker
#: Evaluate without a sandbox (isolation `process`): for one's own trusted repositories only, never for submissions;
#: every result then carries a warning. The worker refuses to start below EVALUATION_MIN_ISOLATION otherwise.
EVALUATION_ALLOW_UNSANDBOXED = env.bool("EVALUATION_ALLOW_UNSANDBOXED", default=False)
EVALUATION_MAVEN_SEED = env("EVALUATION_MAVEN_SEED", default="~/.m2/repository")
EVALUATION_MAVEN_OFFLINE = env.bool("EVALUATION_MAVEN_OFFLINE", default=False)  # builds reach Maven Central via the proxy
# Where the worker checks each artifact an online build fetched before a hidden test run may load it (its .sha1).
EVALUATION_MAVEN_CENTRAL = env.str("EVALUATION_MAVEN_CENTRAL", default="https://repo.maven.apache.org/maven2/")
#: The shared wheel cache (core.engine.uv_cache): what one task may add to it, and the size past which it is emptied.
EVALUATION_UV_CACHE_TASK_BYTES = env.int("EVALUATION_UV_CACHE_TASK_BYTES", default=256 * 2**20)
EVALUATION_UV_CACHE_MAX_BYTES = env.int("EVALUATION_UV_CACHE_MAX_BYTES", default=4 * 2**30)
# The only hosts the install phase can reach (HTTPS through the sandbox's allow-listing proxy).
EVALUATION_PACKAGE_HOSTS = env.list("EVALUATION_PACKAGE_HOSTS", default=[
    "pypi.org", "files.pythonhosted.org", "repo.maven.apache.org", "repo1.maven.org"])
# The home page's benchmark: the first of these that is imported (RepoGenesis Verified once `make run` imported it).
DEFAULT_BENCHMARKS = env.list("DEFAULT_BENCHMARKS", default=["repogenesis", "demo"])
DEFAULT_SPLIT = env("DEFAULT_SPLIT", default="verified")

SUBMISSION_MAX_UPLOAD_BYTES = env.int("SUBMISSION_MAX_UPLOAD_BYTES", default=50 * 1024 * 1024)
SUBMISSION_MAX_MEMBERS = env.int("SUBMISSION_MAX_MEMBERS", default=20_000)
SUBMISSION_MAX_EXTRACTED_BYTES = env.int("SUBMISSION_MAX_EXTRACTED_BYTES", default=500 * 1024 * 1024)
SUBMISSION_MAX_RATIO = env.int("SUBMISSION_MAX_RATIO", default=200)
SUBMISSION_DAILY_QUOTA = env.int("SUBMISSION_DAILY_QUOTA", default=5)
# Agent endpoints (docs/agent-protocol.md): limits of the platform's calls to a team's agent.
AGENT_TASK_DEADLINE_SECONDS = env.float("AGENT_TASK_DEADLINE_SECONDS", default=1800.0)  # per task, polling included
AGENT_MAX_RESPONSE_BYTES = env.int("AGENT_MAX_RESPONSE_BYTES", default=50 * 1024 * 1024)
AGENT_MAX_IN_FLIGHT = env.int("AGENT_MAX_IN_FLIGHT", default=2)  # tasks in flight per endpoint
AGENT_RETRY_ATTEMPTS = env.int("AGENT_RETRY_ATTEMPTS", default=3)  # tries on connection errors and 5xx
AGENT_RETRY_BACKOFF_SECONDS = env.float("AGENT_RETRY_BACKOFF_SECONDS", default=2.0)  # 2 s, 4 s, ... (capped 30 s)
AGENT_POLL_INTERVAL_SECONDS = env.float("AGENT_POLL_INTERVAL_SECONDS", default=5.0)  # after a 202 without Retry-After
AGENT_CONNECT_TIMEOUT_SECONDS = env.float("AGENT_CONNECT_TIMEOUT_SECONDS", default=10.0)
AGENT_MAX_REDIRECTS = env.int("AGENT_MAX_REDIRECTS", default=3)  # each hop is checked like the endpoint itself
# Addresses an endpoint may resolve to although they are loopback/private/link-local (e.g. "127.0.0.1", "10.1.0.0/16").
AGENT_ALLOWED_NETWORKS = env.list("AGENT_ALLOWED_NETWORKS", default=[])
# Fernet keys for the endpoints' secrets (the first encrypts; all decrypt). Empty: one derived from SECRET_KEY.
AGENT_SECRET_KEYS = env.list("AGENT_SECRET_KEYS", default=[])
DATA_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024

# --- Celery (Celery docs, "Using Celery with Django") ---------------------------------------
CELERY_BROKER_URL = env("CELERY_BROKER_URL", default="filesystem://")
if CELERY_BROKER_URL.startswith("filesystem://"):
    # The folders are made by the Celery app before it publishes or consumes (config.celery.broker_folders_create).
    _queue = VAR_DIR / "broker" / "queue"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_queue),
        "data_folder_out": str(_queue),
        "processed_folder": str(VAR_DIR / "broker" / "processed"),
        "control_folder": str(VAR_DIR / "broker" / "control"),  # kombu's default is ./control in the checkout
        "store_processed": False,
        "polling_interval": 0.5,
    }
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SOFT_TIME_LIMIT = env.int("CELERY_TASK_SOFT_TIME_LIMIT", default=1800)
CELERY_TASK_TIME_LIMIT = env.int("CELERY_TASK_TIME_LIMIT", default=1900)
CELERY_TASK_ALWAYS_EAGER = False
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Two queues (Celery "Routing Tasks"): `celery`, the default, carries the teams' work (uploads, endpoint runs,
# notification e-mails); `background` the platform's own: reference checks, the seeding and re-scoring runs
# (EvaluationRun.background), the recovery sweeps, and the webhook deliveries (a team's slow receiver must never
# hold an evaluation slot). `make run` and `make worker` (scripts/worker.sh) start one worker per queue, so no team's
# evaluation waits behind background work; a worker started without -Q serves both.
CELERY_TASK_DEFAULT_QUEUE = "celery"
EVALUATION_BACKGROUND_QUEUE = "background"
CELERY_TASK_QUEUES = tuple(_Queue(name, _Exchange(name), routing_key=name)
                           for name in (CELERY_TASK_DEFAULT_QUEUE, EVALUATION_BACKGROUND_QUEUE))
CELERY_TASK_ROUTES = {f"evaluation.tasks.{name}": {"queue": EVALUATION_BACKGROUND_QUEUE}
                      for name in ("reference_check", "runs_recover", "generations_recover", "webhook_deliver")}
# A sweep still waiting when the next one is due is dropped (`expires`), not run twice.
CELERY_BEAT_SCHEDULE = {"runs-recover": {"task": "evaluation.tasks.runs_recover",
                                         "schedule": float(EVALUATION_STALE_SECONDS),
                                         "options": {"expires": float(EVALUATION_STALE_SECONDS)}},
                        "generations-recover": {"task": "evaluation.tasks.generations_recover",
                                                "schedule": float(EVALUATION_STALE_SECONDS),
                                                "options": {"expires": float(EVALUATION_STALE_SECONDS)}}}
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")

# --- API ------------------------------------------------------------------------------------
REST_FRAMEWORK = {
    # JSON with \uXXXX escapes: a lone surrogate echoed in a validation error ("\ud800" is not a valid choice) is
    # then valid output, not a UnicodeEncodeError (a 500: break-it pass 11 of issue 13)
    "UNICODE_JSON": False,
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "leaderboard.api.errors.api_exception_handler",
    # JSON bodies under DATA_UPLOAD_MAX_MEMORY_SIZE (413 before reading), never a 500 on deep nesting
    "DEFAULT_PARSER_CLASSES": ["leaderboard.api.parsers.BoundedJSONParser", "rest_framework.parsers.FormParser",
                               "rest_framework.parsers.MultiPartParser"],
    "DEFAULT_THROTTLE_RATES": {"auth": env.str("AUTH_TOKEN_RATE", default="10/min")},
    # Throttles count per REMOTE_ADDR, which config.client_address sets (TRUSTED_PROXY_COUNT); DRF's default (None)
    # would take the whole X-Forwarded-For a client sends as its identity.
    "NUM_PROXIES": 0,
    # Every list of the API is paged (leaderboard.api.pagination.ApiPagination: ?page=&page_size=, at most
    # API_MAX_PAGE_SIZE).
    "DEFAULT_PAGINATION_CLASS": "leaderboard.api.pagination.ApiPagination",
    "PAGE_SIZE": env.int("API_PAGE_SIZE", default=50),
}
API_MAX_PAGE_SIZE = env.int("API_MAX_PAGE_SIZE", default=200)
SPECTACULAR_SETTINGS = {
    "TITLE": "RepoGenesis Leaderboard API",
    "DESCRIPTION": "Submit generated repositories, follow their evaluation, read leaderboards and reports.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # A refused request (4xx: 403, 404, 400 ...) is one warning line, never a traceback (config.logging_filters).
    # A 403 is one line naming the method, path and user (config.logging_filters.RefusedRequestOneLine, on the
    # loggers Django writes refused requests to, so every handler gets the line). The `django` logger keeps no
    # handler of Django's own (its DEBUG console handler printed the traceback): its records reach the root's.
    "filters": {"no_client_error_tracebacks": {"()": "config.logging_filters.NoClientErrorTraceback"},
                "refused_request_one_line": {"()": "config.logging_filters.RefusedRequestOneLine"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["no_client_error_tracebacks"]}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", default="INFO")},
    "loggers": {"httpx": {"level": "WARNING"}, "httpcore": {"level": "WARNING"},  # no request lines, no headers
                "django": {"handlers": [], "level": "INFO"},
                "django.request": {"filters": ["refused_request_one_line"]},
                "django.security.csrf": {"filters": ["refused_request_one_line"]}},
}

# plotly.js is served from static/vendor/plotly-partial.min.js: a partial bundle of the plotly.js version the plotly
# package ships, with only the trace types the site draws, built by scripts/build-plotly.sh (no CDN).

# --- Notifications (issue 13 "Lifecycle"): e-mail to a team when a submission finishes or fails, its webhook ----
#: The site's address in e-mails and webhook bodies (links to the submission's page).
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000").rstrip("/")
#: A webhook delivery: seconds per attempt, attempts in all, first retry delay (doubled at each retry).
WEBHOOK_TIMEOUT_SECONDS = env.float("WEBHOOK_TIMEOUT_SECONDS", default=10.0)
WEBHOOK_MAX_ATTEMPTS = env.int("WEBHOOK_MAX_ATTEMPTS", default=5)
WEBHOOK_RETRY_BACKOFF_SECONDS = env.float("WEBHOOK_RETRY_BACKOFF_SECONDS", default=30.0)
#: Members of one team at most, pending invitations included (teams share one daily quota).
TEAM_MAX_MEMBERS = env.int("TEAM_MAX_MEMBERS", default=20)

# --- Production (DJANGO_DEBUG=0) -------------------------------------------------------------
# Every value that differs in production is set here, from the environment (docs/deploy.md "Settings"). The site is
# expected behind a proxy that terminates TLS; set ALLOWED_HOSTS and CSRF_TRUSTED_ORIGINS (above) to its name.
if not DEBUG:
    if not SECRET_KEY:
        raise ImproperlyConfigured(f"DJANGO_DEBUG=0 needs SECRET_KEY in the environment (or in {SECRET_KEY_FILE})")
    # Trust the proxy's scheme header only when told (DJANGO_SECURE_PROXY_SSL_HEADER=X-Forwarded-Proto): a site
    # reached without that proxy would otherwise take any client's header for HTTPS.
    _proxy_header = env.str("DJANGO_SECURE_PROXY_SSL_HEADER", default="")
    if _proxy_header:
        SECURE_PROXY_SSL_HEADER = ("HTTP_" + _proxy_header.upper().replace("-", "_"), "https")
    SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SESSION_COOKIE_HTTPONLY = True
    CSRF_COOKIE_HTTPONLY = True  # forms carry the token in the page ({% csrf_token %}); no script reads the cookie
    # Static files come from collectstatic (a release step: scripts/release.sh): hashed names, gzip and brotli
    # copies; whitenoise serves the hashed ones for 10 years ("immutable"), anything else for WHITENOISE_MAX_AGE.
    STORAGES["staticfiles"] = {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"}
    WHITENOISE_USE_FINDERS = False
    WHITENOISE_MAX_AGE = env.int("WHITENOISE_MAX_AGE", default=3600)
    # Source maps are read by a browser's developer tools only: not worth compressing (half of collectstatic's time).
    from whitenoise.compress import Compressor as _Compressor  # noqa: E402

    WHITENOISE_SKIP_COMPRESS_EXTENSIONS = [*_Compressor.SKIP_COMPRESS_EXTENSIONS, "map"]
    # Start low; raise (e.g. to 31536000) once HTTPS is known to work for every subdomain.
    SECURE_HSTS_SECONDS = env.int("DJANGO_SECURE_HSTS_SECONDS", default=60)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
    SECURE_HSTS_PRELOAD = env.bool("DJANGO_SECURE_HSTS_PRELOAD", default=True)

