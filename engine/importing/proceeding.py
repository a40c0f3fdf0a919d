"""The kind of proceeding a transcript records, from its cover and its first headings.

One of ``grand jury``, ``deposition``, ``jury selection``, ``appeal``, ``trial``,
``hearing``, or None when neither the cover nor the headings before the first turn say.
The most specific wording wins (a grand jury's cover may also say "hearing"; a jury
selection volume is part of a trial). Used for the transcript's title, which names the
kind and nobody. Django-free.
"""

from __future__ import annotations

import re

from engine.importing.layout import is_speaker_line

KINDS: tuple[tuple[str, re.Pattern], ...] = (
    ("grand jury", re.compile(r"\bGRAND\s+JURY\b", re.I)),
    ("deposition", re.compile(r"\bDEPOSITIONS?\b", re.I)),
    ("jury selection", re.compile(r"\bJURY\s+SELECTION\b|\bVOIR\s+DIRE\b", re.I)),
    (
        "appeal",
        re.compile(
            r"\bORAL\s+ARGUMENTS?\b|\bAPPEALS?\b|\bAPPELLATE\b|\bAPPELLANTS?\b|\bCERTIORARI\b",
            re.I,
        ),
    ),
    ("trial", re.compile(r"\bTRIAL\b", re.I)),
    ("hearing", re.compile(r"\bHEARINGS?\b", re.I)),
)
_HEAD_LINES = 12


def proceeding_kind(cover_lines: list[str], body_lines: list[str]) -> str | None:
    """The kind of proceeding: the cover's words, else the headings in capitals among
    the body's first lines (a volume without a cover: "GRAND JURY PROCEEDINGS")."""
    cover = "\n".join(cover_lines)
    headings = "\n".join(
        line
        for line in body_lines[:_HEAD_LINES]
        if any(c.isalpha() for c in line)
        and not any(c.islower() for c in line)
        and not is_speaker_line(line)
    )
    for text in (cover, headings):
        for kind, pattern in KINDS:
            if text and pattern.search(text):
                return kind
    return None
