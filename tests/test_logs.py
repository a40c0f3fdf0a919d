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
