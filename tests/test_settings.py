import os
import subprocess
import sys

from tests.conftest import REPO

_TEST_ONLY_ENV = {
    "DJANGO_SETTINGS_MODULE",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
    "HTTPS",
    "SECRET_KEY",
    "DEBUG",
    "SECRET_KEY_FILE",
}


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


def test_production_without_secret_key_refuses_to_start(tmp_path):
    env = {"DEBUG": "0", "SECRET_KEY": "", "SECRET_KEY_FILE": str(tmp_path / "absent")}
    result = _manage("check", env_extra=env)
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_database_url_selects_postgresql():
    code = "from django.conf import settings; print(settings.DATABASES['default']['ENGINE'])"
    env = {k: v for k, v in os.environ.items() if k not in _TEST_ONLY_ENV}
    env["DATABASE_URL"] = "postgres://u@db.invalid:5432/x"
    env["SECRET_KEY"] = "k" * 60
    out = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
    )
    assert "postgresql" in out.stdout


# --- DEBUG off, a generated local key, make run's defaults ---------

_PROBE = """
import django
django.setup()
from django.conf import settings
from django.test import Client
from django.test.utils import override_settings
print("DEBUG", settings.DEBUG)
with override_settings(ALLOWED_HOSTS=["testserver"]):
    body = Client().get("/no-such-page/", follow=True).content.decode()
print("URLCONF-LISTED", "URLconf" in body or "admin/" in body)
"""


def test_debug_is_off_unless_debug_1_and_a_404_lists_no_urls(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in _TEST_ONLY_ENV}
    env.update(
        DJANGO_SETTINGS_MODULE="anonreview.settings",
        HTTPS="0",
        SECRET_KEY="k" * 60,
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
    )
    out = subprocess.run(
        [sys.executable, "-c", _PROBE], cwd=REPO, env=env, capture_output=True, text=True
    )
    assert "DEBUG False" in out.stdout, out.stderr[-2000:]
    assert "URLCONF-LISTED False" in out.stdout
    env["DEBUG"] = "1"
    out = subprocess.run(
        [sys.executable, "-c", _PROBE], cwd=REPO, env=env, capture_output=True, text=True
    )
    assert "DEBUG True" in out.stdout


def test_make_secret_writes_a_private_key_once_and_settings_read_it(tmp_path):
    import shutil
    import stat

    if not shutil.which("make"):
        import pytest

        pytest.skip("make is not installed")
    key_file = tmp_path / "var" / "secret_key"
    env = {k: v for k, v in os.environ.items() if k not in _TEST_ONLY_ENV}
    run = ["make", "-s", "secret", f"SECRET_KEY_FILE={key_file}"]
    subprocess.run(run, cwd=REPO, env=env, check=True, capture_output=True)
    key = key_file.read_text().strip()
    assert len(key) >= 50 and stat.S_IMODE(key_file.stat().st_mode) == 0o600
    subprocess.run(run, cwd=REPO, env=env, check=True, capture_output=True)
    assert key_file.read_text().strip() == key  # created once, never replaced
    code = f"from django.conf import settings; print(settings.SECRET_KEY == {key!r})"
    out = _manage("shell", "-c", code, env_extra={"DEBUG": "0", "SECRET_KEY_FILE": str(key_file)})
    assert "True" in out.stdout, out.stderr


def test_check_deploy_with_make_run_defaults_warns_only_about_https(tmp_path):
    key_file = tmp_path / "secret_key"
    key_file.write_text("s3cr3t-" + "abcdefghij" * 6)
    result = _manage(
        "check",
        "--deploy",
        env_extra={"DEBUG": "0", "HTTPS": "0", "SECRET_KEY_FILE": str(key_file)},
    )
    import re

    warnings = set(re.findall(r"\((\S+\.[WE]\d+)\)", result.stdout + result.stderr))
    https_only = {"security.W004", "security.W008", "security.W012", "security.W016"}
    assert warnings <= https_only, result.stdout + result.stderr
