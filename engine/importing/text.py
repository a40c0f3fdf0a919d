"""Decoded text → clean text for the parser. Django-free.

``sources.decode_text`` finds the encoding (byte-order marks, UTF-16 without one, UTF-8,
Windows-1252). Then:

* Control characters (NUL, ESC, BEL, DEL, C1 codes …) are removed wherever they are in
  the file; tab, line ends and form feeds (page breaks) stay.
* A line longer than :data:`MAX_LINE_CHARS` (a whole transcript on one line) is split
  before each speaker tag (``PRESIDING COMMISSIONER ALDEN:``); a line that is still that
  long is refused with a sentence, never rendered as one line of megabytes.
"""

from __future__ import annotations

import re

from engine.importing.errors import NotSupported

# C0 controls but tab, line feed, form feed and carriage return; DEL; C1 controls.
_CONTROLS = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f]")
# A transcript's longest utterance is a few thousand characters.
MAX_LINE_CHARS = 50_000
# Before a speaker tag inside a long line: "... record. INCARCERATED PERSON QUILL: ..."
_TAG_INSIDE = re.compile(r"(?<=[.?!\"”)\]])[ \t]+(?=[A-Z][A-Z.'’ -]{1,60}[A-Z.]: )")


def split_long_lines(text: str, *, limit: int = MAX_LINE_CHARS) -> str:
    """Split lines longer than ``limit`` before each speaker tag; refuse what stays longer."""
    if len(text) <= limit or not any(len(line) > limit for line in text.split("\n")):
        return text
    out = []
    for number, line in enumerate(text.split("\n"), start=1):
        if len(line) > limit:
            line = _TAG_INSIDE.sub("\n", line)
            longest = max(len(part) for part in line.split("\n"))
            if longest > limit:
                raise NotSupported(
                    f"Line {number} is {longest:,} characters long, too long for one speaker "
                    f"turn (at most {limit:,}): put each speaker's turn on a line of its own "
                    "(SPEAKER: text) and import the file again."
                )
        out.append(line)
    return "\n".join(out)


def strip_controls(text: str) -> str:
    """``text`` without control characters (tab, line ends and form feeds stay)."""
    return _CONTROLS.sub("", text)


def clean_text(text: str) -> str:
    """Control characters removed, megabyte lines split or refused (``NotSupported``)."""
    return split_long_lines(strip_controls(text))
