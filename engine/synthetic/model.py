"""Data types of a synthetic hearing and the marked-text builder. Django-free.

Generators write utterances as plain strings with inline *marks* around entity mentions::

    f"My name is {m('PERSON', 'Calvin Quill')}."

``m(label, text, tag=None)`` wraps ``text`` in control characters that never occur in
transcript text. ``TextBuilder`` strips the marks while it appends lines, and turns every
mark into a gold span (``label``) and/or a hard-case record (``tag``) with offsets into the
canonical text. A mark with an empty label records a hard case only (a stutter, which must
*not* be a span).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from engine.gold import GoldDoc, GoldSpan

_OPEN, _MID, _CLOSE = "\x01", "\x02", "\x03"
_MARK = re.compile("\x01([^\x02]*)\x02([^\x03]*)\x03")
_SPACES = re.compile(r"\s+")
_DOUBLE_STOP = re.compile("\\.\x03\\.")  # "a.m." ending a sentence takes no second period

BODY = "body"
CERTIFICATION = "certification"

# How a canonical line is printed (see docs/synthetic.md, "Layout").
SPEECH = "speech"  # SPEAKER: text, first line at the paragraph indent, continuations at the margin
PARAGRAPH = (
    "paragraph"  # no speaker, first line at the paragraph indent, continuations at the margin
)
HEADING = "heading"  # bold, centred, one printed line
PARENTHETICAL = "parenthetical"  # "(Off the record.)", one printed line at the paragraph indent
CENTERED = "centered"  # centred, one printed line (certification page)
FOOTER_LINE = "footer_line"  # bold, paragraph indent, printed on line 25 of its page


def m(label: str, text: str, tag: str | None = None) -> str:
    """Mark ``text`` as a mention of ``label`` ('' = no span) with an optional hard-case tag."""
    key = label if tag is None else f"{label}|{tag}"
    return f"{_OPEN}{key}{_MID}{text}{_CLOSE}"


def strip_marks(marked: str) -> str:
    return _MARK.sub(lambda mt: mt.group(2), marked)


@dataclass(slots=True)
class SyntheticUtterance:
    """One canonical line. ``start``/``end`` cover the whole line (speaker prefix included),
    character offsets into ``SyntheticHearing.text``, end exclusive; ``text`` is the part after
    ``SPEAKER: `` (the whole line when there is no speaker)."""

    speaker: str
    role: str
    text: str
    page: int
    section: str
    start: int
    end: int
    kind: str = SPEECH

    def to_json(self) -> dict[str, Any]:
        return {
            "speaker": self.speaker,
            "role": self.role,
            "text": self.text,
            "page": self.page,
            "section": self.section,
            "start": self.start,
            "end": self.end,
        }


@dataclass(slots=True)
class SyntheticHearing:
    id: str
    seed: int
    metadata: dict[str, Any]
    utterances: list[SyntheticUtterance]
    text: str
    gold: GoldDoc
    # Hard cases by name -> [(start, end)] into ``text`` (stutters, phonetic IDs, ...).
    hard_cases: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    # Printed layout: list of pages (see ``layout.Page``); the cover and index are pages 1-2.
    pages: list[Any] = field(default_factory=list)
    company: str = ""
    # Index page entries: (title, page number or "--").
    index: list[tuple[str, str]] = field(default_factory=list)

    @property
    def word_count(self) -> int:
        return len(self.text.split())


@dataclass(slots=True)
class _Line:
    speaker: str
    role: str
    body: str
    section: str
    kind: str
    start: int
    end: int


class TextBuilder:
    """Appends canonical lines (joined by ``\\n``) and collects spans and hard cases."""

    def __init__(self) -> None:
        self._parts: list[str] = []
        self._pos = 0
        self.lines: list[_Line] = []
        self.spans: list[GoldSpan] = []
        self.hard_cases: dict[str, list[tuple[int, int]]] = {}
        self.words = 0

    def _consume(self, marked: str, offset: int) -> str:
        out: list[str] = []
        last = 0
        length = offset
        for mt in _MARK.finditer(marked):
            plain = marked[last : mt.start()]
            out.append(plain)
            length += len(plain)
            key, mention = mt.group(1), mt.group(2)
            label, _, tag = key.partition("|")
            start, end = length, length + len(mention)
            if not mention or mention != mention.strip():
                raise ValueError(f"bad mention {mention!r}")
            if label:
                self.spans.append(GoldSpan(start, end, label))
            if tag:
                self.hard_cases.setdefault(tag, []).append((start, end))
            out.append(mention)
            length = end
            last = mt.end()
        out.append(marked[last:])
        return "".join(out)

    def add(
        self,
        body: str,
        *,
        speaker: str = "",
        role: str = "",
        section: str = BODY,
        kind: str | None = None,
    ) -> None:
        body = _DOUBLE_STOP.sub(".\x03", _SPACES.sub(" ", body).strip())
        speaker = _SPACES.sub(" ", speaker).strip()
        if not body and not speaker:
            return
        if kind is None:
            kind = SPEECH if speaker else PARAGRAPH
        if self._parts:
            self._parts.append("\n")
            self._pos += 1
        start = self._pos
        plain_speaker = ""
        if speaker:
            plain_speaker = self._consume(speaker, self._pos)
            prefix = plain_speaker + ": "
            self._parts.append(prefix)
            self._pos += len(prefix)
        plain_body = self._consume(body, self._pos)
        self._parts.append(plain_body)
        self._pos += len(plain_body)
        self.words += len(plain_body.split()) + len(plain_speaker.split())
        self.lines.append(_Line(plain_speaker, role, plain_body, section, kind, start, self._pos))

    @property
    def text(self) -> str:
        return "".join(self._parts)
