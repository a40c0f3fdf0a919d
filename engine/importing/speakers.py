"""A speaker tag at the start of a line (``SPEAKER: text``). Django-free.

Its own module because the layout analysis (``layout``) and the testimony reader
(``testimony``) both ask it, and the layout analysis calls the testimony reader.
"""

import re

SPEAKER_RE = re.compile(
    r"^([A-Z][A-Z0-9'’.\-]*(?:\s+[A-Z0-9][A-Z0-9'’.\-]*){0,6})\s*:(?:\s+(.*))?$"
)


def is_speaker_line(line: str) -> bool:
    """A speaker tag with at least two letters (``Q:`` and ``A:`` are no speakers)."""
    m = SPEAKER_RE.match(line)
    return bool(m) and sum(c.isalpha() for c in m.group(1)) >= 2
