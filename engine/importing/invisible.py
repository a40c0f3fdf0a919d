"""Invisible characters removed at import. Django-free.

A zero-width space, joiner or non-joiner, a word joiner, a byte-order mark or a
bidirectional control inside a name (``Gr\u200been``) splits it for every
detector and for the leak check, while a reader sees one word: the leak check then
flagged ``Gr`` and the release held ``[PERSON_8]\u200been``. Every character of Unicode's
*format* category (``Cf``) is such a character (the soft hyphen is the layout's: see
``SOFT_HYPHEN``); none carries text, so they are removed
before the canonical text (and every offset into it) exists, and the import says so.
"""

from __future__ import annotations

import re
from dataclasses import replace

# Every format character (category Cf, Unicode 14 as Python 3.11 has it), as ranges: a
# scan of all code points at import time cost 0.4 s a process (a test keeps them whole).
# The soft hyphen (U+00AD) is left to the layout analysis, which reads "-\u00ad" as a
# double dash (``engine.importing.layout``) and removes the others.
SOFT_HYPHEN = 0x00AD
FORMAT_RANGES = (
    (0x0600, 0x0605), (0x061C, 0x061C), (0x06DD, 0x06DD),
    (0x070F, 0x070F), (0x0890, 0x0891), (0x08E2, 0x08E2), (0x180E, 0x180E),
    (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x2064), (0x2066, 0x206F),
    (0xFEFF, 0xFEFF), (0xFFF9, 0xFFFB), (0x110BD, 0x110BD), (0x110CD, 0x110CD),
    (0x13430, 0x13438), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0001, 0xE0001),
    (0xE0020, 0xE007F),
)  # fmt: skip
_FORMAT = re.compile(
    "[" + "".join(f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in FORMAT_RANGES) + "]"
)


def remove_invisible(text: str) -> tuple[str, int]:
    """``text`` without its invisible (format) characters, and how many were removed."""
    cleaned, count = _FORMAT.subn("", text)
    return cleaned, count


def remove_invisible_pages(pages: list[list]) -> tuple[list[list], int]:
    """Every line of every page (a string, or a layout line with its ``text``) without
    its invisible characters, and how many were removed in all."""
    total = 0
    out = []
    for page in pages:
        lines = []
        for line in page:
            text = line if isinstance(line, str) else line.text
            cleaned, count = remove_invisible(text)
            if count:
                line = cleaned if isinstance(line, str) else replace(line, text=cleaned)
                total += count
            lines.append(line)
        out.append(lines)
    return out, total


def invisible_notice(count: int) -> str:
    """The import notice for ``count`` removed characters."""
    noun = "character was" if count == 1 else "characters were"
    return (
        f"{count} invisible {noun} removed (zero-width spaces, joiners, "
        "direction marks): they split names for the detectors and the leak check."
    )
