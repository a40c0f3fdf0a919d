"""Plain text → pages, for text files that lost their form feeds. Django-free.

Transcripts saved as text keep the marks of their pages in other ways; each is found
from its shape, never from a company's or court's name:

- a court-filing stamp at the top of every page (``Case <no> Document <n> Filed <date>
  Page <n> of <n> ...`` and the other shapes ``filing`` knows), also where it is glued to
  the end of a line: a page starts there, the stamp is removed and its page number kept
  (``TextPages.numbers``);
- the margin line numbers printed as a block (``1 2 3 ... 9`` then ``10`` ... ``25`` on
  lines of their own, as some exporters write the number column before each page): a
  page starts there, and the block is removed (also when its start is glued to the end
  of a text line);
- page numbers on lines of their own that count up by one through the file: a page
  ends there, and the number is removed.

Text with form feeds is split on them; only the filing stamps are removed there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.importing.filing import split_stamps, strip_page

_BARE_INT = re.compile(r"^\s*(\d{1,4})\s*$")
_LEADING_INT = re.compile(r"^\s*(\d{1,2})(?:\s|$)")
_BLOCK_HEAD = re.compile(r"^(?P<before>.*?)\s?(?P<nums>1(?: \d{1,2}){3,})\s*$")
LINE_NUMBER_LIMIT = 28


@dataclass
class TextPages:
    pages: list[list[str]]
    filing_stamps: int = 0
    number_blocks: int = 0
    page_numbers: int = 0
    notes: list[str] = field(default_factory=list)
    # each page's filed page number, from its filing stamp (None: no stamp gave one)
    numbers: list[int | None] = field(default_factory=list)


def _is_count_from(tokens: list[str], start: int) -> bool:
    return all(t.isdigit() and int(t) == start + i for i, t in enumerate(tokens))


def _in_margin_count(lines: list[str], i: int, n: int) -> bool:
    """Whether the bare number ``n`` on line ``i`` is counted with the margin line numbers
    around it (a double-spaced certificate's ``7 certify ...``, ``8`` alone, ``9 record
    ...``), so it is no page number; a page number after a page's line 25 is followed by
    the next page's line 1."""

    def counts(step: int) -> bool:  # the nearest line with text, above or below
        j = i + step
        while 0 <= j < len(lines) and not lines[j].strip():
            j += step
        m = _LEADING_INT.match(lines[j]) if 0 <= j < len(lines) else None
        return m is not None and int(m.group(1)) == n + step

    return counts(-1) and counts(1)


def _block_at(lines: list[str], i: int) -> tuple[int, str] | None:
    """A margin-number block starting on line ``i``: (lines it spans, text before it)."""
    m = _BLOCK_HEAD.match(lines[i])
    if not m:
        return None
    nums = m.group("nums").split()
    if not _is_count_from(nums, 1):
        return None
    expected = len(nums) + 1
    j = i + 1
    while j < len(lines) and expected <= LINE_NUMBER_LIMIT:
        token = lines[j].strip()
        if not token:
            j += 1
            continue
        if token.isdigit() and int(token) == expected:
            expected += 1
            j += 1
            continue
        break
    if expected - 1 < 10:  # a real block runs to the end of the page's number column
        return None
    return j - i, m.group("before")


def split_text_pages(text: str) -> TextPages:
    if "\f" in text:
        result = TextPages([])
        for page in text.split("\f"):
            lines, number, stamps = strip_page(page.split("\n"))
            result.pages.append(lines)
            result.numbers.append(number)
            result.filing_stamps += stamps
        return result
    lines, marks = split_stamps(text.split("\n"))
    result = TextPages([])
    breaks_before: set[int] = set()
    dropped: set[int] = set()
    replaced: dict[int, str] = {}
    for i, mark in enumerate(marks):
        if mark is not None:
            breaks_before.add(i)
            dropped.add(i)
            result.filing_stamps += 1
    i = 0
    while i < len(lines):
        block = _block_at(lines, i) if i not in dropped else None
        if block:
            span, before = block
            result.number_blocks += 1
            if before.strip():
                replaced[i] = before
                breaks_before.add(i + 1)
                dropped.update(range(i + 1, i + span))
            else:
                breaks_before.add(i)
                dropped.update(range(i, i + span))
            i += span
        else:
            i += 1
    if not result.filing_stamps:
        # Page numbers: bare numbers on their own line that count up by one.
        chain: list[int] = []
        for i, line in enumerate(lines):
            if i in dropped:
                continue
            m = _BARE_INT.match(line)
            if not m:
                continue
            n = int(m.group(1))
            if _in_margin_count(lines, i, n):
                continue
            if not chain or n == int(lines[chain[-1]].strip()) + 1:
                chain.append(i)
            elif len(chain) < 2:
                chain = [i]
        if len(chain) >= 2:
            for i in chain:
                dropped.add(i)
                breaks_before.add(i + 1)
            result.page_numbers = len(chain)
    page: list[str] = []
    number: int | None = None
    for i, line in enumerate(lines):
        if i in breaks_before and any(x.strip() for x in page):
            result.pages.append(page)
            result.numbers.append(number)
            page, number = [], None
        if marks[i] is not None and marks[i] >= 0 and number is None:
            number = marks[i]  # the stamp that starts this page gives its filed number
        if i in dropped:
            continue
        page.append(replaced.get(i, line))
    if page:
        result.pages.append(page)
        result.numbers.append(number)
    kept = [k for k, p in enumerate(result.pages) if any(x.strip() for x in p)]
    result.pages = [result.pages[k] for k in kept] or [[]]
    result.numbers = [result.numbers[k] for k in kept] or [None]
    return result
