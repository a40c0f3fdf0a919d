"""Logging that keeps personal data out of the logs.

Transcripts are full of names, and names reach exception messages (a ``KeyError('Quill')``,
a parser complaining about a line) and URLs (the review page's search ``?q=Quill``). The
formatter here writes tracebacks as frames plus the exception's *type* only, and cuts
query strings from every message. Messages themselves must already be free of personal
data (ids, counts, class names), which the code's own log calls keep to.
"""

from __future__ import annotations

import logging
import re
import traceback

_QUERY = re.compile(r"\?[^\s\"']*")


class PrivacyFormatter(logging.Formatter):
    """``logging.Formatter`` without exception messages or query strings."""

    def formatException(self, ei) -> str:  # noqa: N802 (logging's name)
        exc_type, exc, tb = ei
        frames = "".join(traceback.format_tb(tb))
        name = exc_type.__name__ if exc_type else "Exception"
        out = f"Traceback (most recent call last):\n{frames}{name}: <message withheld>"
        cause = exc.__cause__ or exc.__context__ if exc is not None else None
        if cause is not None and cause is not exc:
            out = f"{type(cause).__name__} (cause; message withheld)\n" + out
        return out

    def formatMessage(self, record: logging.LogRecord) -> str:  # noqa: N802
        return _QUERY.sub("?…", super().formatMessage(record))


def failure_words(exc: BaseException, *, worded: tuple[type[BaseException], ...] = ()) -> str:
    """What a job or model row may store about ``exc``: its message only for the app's own
    exceptions in ``worded`` (sentences we wrote, no text of a transcript); for any other
    exception its type alone, since a library's message can quote the text it choked on."""
    name = type(exc).__name__
    if worded and isinstance(exc, worded):
        return f"{name}: {str(exc)[:300]}"
    return f"{name} (message withheld: it may quote the transcript; run the step on the command line to see it)"
