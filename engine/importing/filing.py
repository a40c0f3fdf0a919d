"""Court e-filing stamps: the line a filing system prints at the top of every filed page.
Django-free.

Found from their shape, never from a court's name, wherever they land in a line (a text
export that lost the line break glues the stamp to the end of the page's last line, in
the middle of a sentence):

- federal CM/ECF and the appellate systems that copy it: a case number, then some of
  ``Document 57`` / ``Document #: 57`` / ``Doc: 57``, ``Filed 03/04/19`` / ``Date Filed:
  03/04/2019``, a docket entry number, then ``Page 5 of 90`` / ``Page: 5`` / ``Pg: 5 of
  90`` / ``Page5 of 90``, and ``PageID #: 1234`` / ``Page ID #:1234`` / ``Entry ID:
  6543210`` (``Case 1:19-cv-01234-ABC-DEF Document 57 Filed 03/04/19 Page 5 of 90
  PageID #: 1234``, ``USCA11 Case: 19-12345 Date Filed: 03/04/2019 Page: 5 of 90``); a
  stamp names a document, a filing date or a page id besides the case and page, so a
  sentence about "case 12 on page 4 of 9" is none;
- New York's NYSCEF header, two lines (``FILED: NEW YORK COUNTY CLERK 03/04/2019 09:15 AM
  INDEX NO. 123456/2019`` and ``NYSCEF DOC. NO. 57 RECEIVED NYSCEF: 03/04/2019``).

The page in a federal stamp is the filed page: the importer numbers pages by it
(``filed_numbers``), so a page whose stamp was missed or an exhibit that starts on page 3
of its filing keeps every later page number right.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_DATE = r"\d{1,2}/\d{1,2}/\d{2,4}"
_ECF = re.compile(
    r"(?:\b(?:USCA\d{1,2}|Appellate)\s+)?\b(?:Case|Appeal):?\s+(?:No\.\s*)?"
    r"(?=[\w:.\-]*\d)[\w:.\-]+,?\s+"
    r"(?:(?:Doc(?:ument)?|Dkt|ECF)(?:\s+No\.)?\s*#?\s*:?\s*#?\s*[\w\-]+,?\s+)?"
    rf"(?:(?:Date\s+)?Filed:?\s*{_DATE},?\s+)?"
    rf"(?:{_DATE},?\s+\d{{5,}},?\s+)?"
    r"(?:Page|Pg):?\s*(?P<page>\d{1,5})(?:\s+of\s+\d{1,5})?"
    r"(?:\s+Page\s*ID\s*#?\s*:?\s*\d+)?"
    rf"(?:\s+Date\s+Filed:?\s*{_DATE})?"
    r"(?:\s+Entry\s+ID:?\s*\d+)?",
    re.I,
)
# What makes a case-and-page phrase a stamp.
_STAMP_WORD = re.compile(r"\bDoc(?:ument)?\b|\bDkt\b|\bFiled\b|\bPage\s*ID\b|\bEntry\s+ID\b", re.I)
_NYSCEF = re.compile(
    rf"FILED:\s+[A-Z][A-Z .]+ COUNTY CLERK\s+{_DATE}(?:\s+\d{{1,2}}:\d{{2}}\s*[AP]M)?\s+"
    r"INDEX NO\.\s*\S+|NYSCEF DOC\.\s*NO\.\s*\d+\s+RECEIVED NYSCEF:\s*"
    rf"{_DATE}"
)


@dataclass(frozen=True)
class Stamp:
    start: int
    end: int
    text: str
    page: int | None  # the filed page, where the stamp gives it


def find_stamp(line: str) -> Stamp | None:
    """The first filing stamp in ``line``, or None."""
    low = line.lower()
    # every stamp holds one of these words: most lines are passed over at C speed (the
    # pattern alone took 14 s of 200,000 lines of prose at load 20)
    if "case" not in low and "appeal" not in low and "nyscef" not in low and "clerk" not in low:
        return None
    for m in _ECF.finditer(line):
        if _STAMP_WORD.search(m.group(0)):
            return Stamp(m.start(), m.end(), m.group(0), int(m.group("page")))
    if m := _NYSCEF.search(line):
        return Stamp(m.start(), m.end(), m.group(0), None)
    return None


def split_stamps(lines: list[str]) -> tuple[list[str], list[int | None]]:
    """Lines with each stamp on a line of its own: a stamp inside a line splits it
    (the text before stays, the text after goes on after the stamp). Returns the lines
    and, for each, the stamp's page (``-1`` for a stamp without a page, None for text)."""
    out: list[str] = []
    marks: list[int | None] = []
    for line in lines:
        rest = line
        while (stamp := find_stamp(rest)) is not None:
            before = rest[: stamp.start].rstrip()
            if before.strip():
                out.append(before)
                marks.append(None)
            out.append(stamp.text)
            marks.append(stamp.page if stamp.page is not None else -1)
            rest = rest[stamp.end :].lstrip()
            if not rest:
                break
        if rest or rest == line:
            out.append(rest)
            marks.append(None)
    return out, marks


def strip_page(lines: list[str]) -> tuple[list[str], int | None, int]:
    """A page's lines without its stamps: (lines, the filed page or None, stamps)."""
    split, marks = split_stamps(lines)
    kept = [line for line, mark in zip(split, marks, strict=True) if mark is None]
    pages = [mark for mark in marks if mark is not None and mark >= 0]
    return kept, (pages[0] if pages else None), sum(1 for mark in marks if mark is not None)


def filed_numbers(numbers: list[int | None]) -> list[int] | None:
    """Page numbers from the filed pages' stamps, when they count up through the file
    (a page without a stamp follows the page before it); else None."""
    known = [n for n in numbers if n is not None]
    if len(known) < 2 or any(b <= a for a, b in zip(known, known[1:], strict=False)):
        return None
    out: list[int] = []
    for i, n in enumerate(numbers):
        if n is None:
            n = out[-1] + 1 if out else max(1, known[0] - (numbers.index(known[0]) - i))
        out.append(n)
    if any(b <= a for a, b in zip(out, out[1:], strict=False)):
        return None
    return out


def strip_rows(pages: list[list]) -> list[int | None]:
    """PDF pages (rows with ``.text``): stamps removed from their rows in place (a row
    that was only a stamp goes); returns each page's filed page number or None."""
    numbers: list[int | None] = []
    for rows in pages:
        number = None
        kept = []
        for row in rows:
            text = row.text
            while (stamp := find_stamp(text)) is not None:
                number = number if number is not None else stamp.page
                text = f"{text[: stamp.start].rstrip()} {text[stamp.end :].lstrip()}".strip()
            if text != row.text:
                row.text = text
                if not any(c.isalnum() for c in text):
                    continue  # only a speck beside the stamp (OCR reads one as ",")
            if text.strip():
                kept.append(row)
        rows[:] = kept
        numbers.append(number)
    return numbers


def number_as_filed(parsed, numbers: list[int | None]):
    """A ``ParsedTranscript`` with its pages numbered by the filed pages' stamps
    (``filed_numbers``, one per page it was parsed from) when they count up: a missed
    stamp or an exhibit that starts on page 3 of its filing keeps every later page
    number right."""
    from dataclasses import replace

    filed = filed_numbers(numbers)
    if filed is None or any(u.page > len(filed) for u in parsed.utterances):
        return parsed
    parsed.utterances = [replace(u, page=filed[u.page - 1]) for u in parsed.utterances]
    parsed.page_count = max(filed)
    parsed.layout["filed_page_numbers"] = [filed[0], filed[-1]]
    return parsed
