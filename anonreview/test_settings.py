"""Settings for the test suite: the project's settings plus fast, isolated overrides."""

import os
import tempfile

# Playwright's sync API runs an event loop in the test thread; the ORM calls our
# tests make beside it are synchronous and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# Tests run over plain HTTP with a fixed key (the project's settings need one when DEBUG
# is off, as it is by default and under pytest).
os.environ.setdefault("SECRET_KEY", "test-only-" + "k" * 50)
os.environ.setdefault("HTTPS", "0")

from anonreview.settings import *  # noqa: E402,F403

WHITENOISE_USE_FINDERS = True  # static files without collectstatic

TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
# No retraining after approvals (with the immediate backend it would train inline, for
# minutes); the learning loop's tests turn it on where they test it.
LEARNING_RETRAIN_EVERY = 0
# The training thread keeps the test process's priority: at niceness 19 beside busy
# processes it starves (a tiny training took 7 minutes with two busy loops beside it).
LEARNING_TRAINING_NICE = 0
# Trained models of tests go to a temporary directory, never var/.
LEARNING_MODELS_DIR = tempfile.mkdtemp(prefix="anonreview-test-models-")
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
MEDIA_ROOT = tempfile.mkdtemp(prefix="anonreview-test-media-")
UPLOAD_STAGING_DIR = tempfile.mkdtemp(prefix="anonreview-test-staging-")
STORAGES = {
    **STORAGES,  # noqa: F405 (originals in the database, as in production)
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
LOGGING["root"]["level"] = "WARNING"  # noqa: F405
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # A file, not SQLite's shared in-memory database: threads then get connections of
    # their own with real file locks, as the server and the workers do (the race tests).
    DATABASES["default"]["TEST"] = {  # noqa: F405
        "NAME": os.path.join(tempfile.mkdtemp(prefix="anonreview-test-db-"), "test.sqlite3")
    }
