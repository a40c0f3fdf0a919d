import os
import subprocess
import sys

from tests.conftest import REPO

_TEST_ONLY_ENV = {"DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE"}


def _manage(*args, env_extra):
    env = {k: v for k, v in os.environ.items() if k not in _TEST_ONLY_ENV}
    env.update(env_extra)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=REPO, env=env, capture_output=True, text=True
    )


def test_check_deploy_is_clean_with_production_settings():
    result = _manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        env_extra={
            "DEBUG": "0",
            "SECRET_KEY": "x" * 20 + "-production-secret-key-" + "y" * 30,
            "ALLOWED_HOSTS": "anonreview.example.org",
        },
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_production_without_secret_key_refuses_to_start():
    env = {"DEBUG": "0", "SECRET_KEY": ""}
    result = _manage("check", env_extra=env)
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_database_url_selects_postgresql():
    code = "from django.conf import settings; print(settings.DATABASES['default']['ENGINE'])"
    env = {k: v for k, v in os.environ.items() if k not in _TEST_ONLY_ENV}
    env["DATABASE_URL"] = "postgres://u@db.invalid:5432/x"
    out = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
    )
    assert "postgresql" in out.stdout
