"""Logs carry no personal data: no exception messages, no query strings."""

import logging

from anonreview.logs import PrivacyFormatter


def record(msg, *args, exc_info=None, name="django.server"):
    return logging.LogRecord(name, logging.ERROR, __file__, 1, msg, args, exc_info)


def test_tracebacks_keep_frames_and_type_but_not_the_message():
    name = "".join(["Jonah ", "Qu", "ill"])  # data, not source code, as in real failures
    try:
        {}[name]
    except KeyError:
        import sys

        line = PrivacyFormatter("%(message)s").format(
            record("lookup failed", exc_info=sys.exc_info())
        )
    assert "Quill" not in line
    assert "KeyError: <message withheld>" in line and "test_logs.py" in line


def test_query_strings_are_cut_from_request_lines():
    line = PrivacyFormatter("%(message)s").format(
        record('"%s" %s %s', "GET /transcripts/1/review/?q=Quill&label=PERSON HTTP/1.1", 200, 5)
    )
    assert line == '"GET /transcripts/1/review/?… HTTP/1.1" 200 5'


def test_the_configured_console_handler_uses_the_privacy_formatter():
    handlers = [h for h in logging.getLogger().handlers if isinstance(h, logging.StreamHandler)]
    assert any(isinstance(h.formatter, PrivacyFormatter) for h in handlers)
    server = logging.getLogger("django.server")
    assert any(isinstance(h.formatter, PrivacyFormatter) for h in server.handlers)


# --- in a running process, with DEBUG on and off -----------------

import os  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402

import pytest  # noqa: E402

from tests.conftest import REPO  # noqa: E402

# A view that fails with a name in its exception, requested with a name in the query.
_FAILING_REQUEST = """
import django
django.setup()
from django.contrib.auth.decorators import login_not_required
from django.test import Client
from django.test.utils import override_settings
from django.urls import path

SECRET = "Quill" + "feather"

@login_not_required
def boom(request):
    raise KeyError(SECRET)

urlpatterns = [path("boom/", boom)]
with override_settings(ROOT_URLCONF="__main__", ALLOWED_HOSTS=["testserver"]):
    response = Client(raise_request_exception=False).get("/boom/?q=" + SECRET)
    print("STATUS", response.status_code)
"""


@pytest.mark.parametrize("debug", ["1", "0"])
def test_a_500_logs_no_exception_message_nor_query_string_with_debug_on_and_off(tmp_path, debug):
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DJANGO_SETTINGS_MODULE", "DEBUG", "SECRET_KEY"}
    }
    env.update(
        DJANGO_SETTINGS_MODULE="anonreview.settings",
        DEBUG=debug,
        HTTPS="0",
        SECRET_KEY="k" * 60,
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
    )
    result = subprocess.run(
        [sys.executable, "-c", _FAILING_REQUEST],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "STATUS 500" in result.stdout, result.stderr[-2000:]
    logged = result.stdout + result.stderr
    assert "KeyError: <message withheld>" in logged  # the failure is logged ...
    assert "feather" not in logged  # ... without the name, from the message or the URL
