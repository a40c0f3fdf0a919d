"""Page cleaning: page numbers, running headers, the transcription-company line,
margin line numbers (1-25), and page classification (cover, index, body,
certification) by content. Django-free; works on lines of text, so PDFs and
text extracted by other tools go through the same rules.
"""

import re
from collections import Counter
from dataclasses import dataclass, field

LINE_NUMBER_MAX = 25
_WS = re.compile(r"\s+")
_PAGE_NUMBER = re.compile(r"^(?:page\s+)?\d{1,4}(?:\s+of\s+\d{1,4})?$", re.I)
_LEADING_NUMBER = re.compile(r"^(\d{1,2})(?:\s+(.*))?$")
_DIGITS = re.compile(r"\d+")
_COMPANY = re.compile(
    r"^[A-Z][\w&.,' -]{0,60}\b(?:Transcription|Transcribing|Reporting|Reporters)"
    r"(?:\s+(?:Services?|Company|Co\.|Inc\.?|LLC))*,?(?:\s+(?:Inc\.?|LLC))?$"
)
SPEAKER_RE = re.compile(
    r"^([A-Z][A-Z0-9'’.\-]*(?:\s+[A-Z0-9][A-Z0-9'’.\-]*){0,6})\s*:(?:\s+(.*))?$"
)
_INDEX_TITLE = re.compile(r"^(?:I\s*N\s*D\s*E\s*X|INDEX|TABLE OF CONTENTS)$", re.I)
_INDEX_ENTRY = re.compile(r"^[A-Za-z][A-Za-z \-'/,&.]+?\s+(?:\d{1,3}|-{1,3}|—)$")
_CERT_HEADING = re.compile(
    r"^(?:(?:TRANSCRIPT |TRANSCRIBER'?S |REPORTER'?S )?CERTIFICAT(?:E|ION)\b.*|"
    r"CERTIFICATE AND DECLARATION OF TRANSCRIBER)$"
)
_COVER_MARKERS = re.compile(r"\bCDCR\b|PANEL PRESENT|Hearing of:|Transcribed by", re.I)


def collapse(line: str) -> str:
    return _WS.sub(" ", line).strip()


@dataclass
class RawLine:
    """A printed line. The layout hints come from PDFs (None/False for text input):
    ``x0``/``x1`` where the text starts and ends (after a margin line number),
    ``centered`` and ``bold`` (the whole line)."""

    text: str
    x0: float | None = None
    x1: float | None = None
    centered: bool = False
    bold: bool = False
    indented: bool = False  # set by clean_pages: starts right of the text margin


@dataclass
class Page:
    """One physical page after cleaning. ``number`` is 1-based."""

    number: int
    rows: list[RawLine]
    numbered: bool = False
    kind: str = "body"  # cover | index | body | certification
    index_entries: list[str] = field(default_factory=list)

    @property
    def lines(self) -> list[str]:
        return [row.text for row in self.rows]


def is_speaker_line(line: str) -> bool:
    m = SPEAKER_RE.match(line)
    return bool(m) and sum(c.isalpha() for c in m.group(1)) >= 2


def _edge_key(line: str) -> str:
    return _DIGITS.sub("#", line)


def _running_keys(pages: list[list[str]]) -> tuple[set[str], set[str]]:
    """Lines repeated at the top or bottom of most pages (headers, footers).

    Returns (keys removed anywhere: no digits, e.g. the company line;
    keys removed only at page edges: with digits, e.g. "Page # of #").
    """
    if len(pages) < 3:
        return set(), set()
    counts: Counter[str] = Counter()
    for lines in pages:
        edges = {_edge_key(line) for line in lines[:2] + lines[-2:]}
        counts.update(edges)
    threshold = max(3, len(pages) // 2)
    # Never a numbered text line ("# SPEAKER: Yes, sir." at the top of many pages).
    keys = {
        k
        for k, n in counts.items()
        if n >= threshold and not SPEAKER_RE.match(k) and not k.startswith("# ")
    }
    anywhere = {k for k in keys if "#" not in k}
    return anywhere, keys - anywhere


def _strip_line_numbers(lines: list[str]) -> tuple[list[str], int]:
    """Remove margin line numbers, read at the start (pdfplumber) or the end
    (other extractors) of each line. Returns (lines, how many were numbered)."""

    def leading() -> tuple[list[str], int]:
        out, hits, last = [], 0, 0
        for line in lines:
            m = _LEADING_NUMBER.match(line)
            n = int(m.group(1)) if m else 0
            if (
                m
                and 1 <= n <= LINE_NUMBER_MAX
                and (last < n <= last + 3 or (n <= 2 and last >= 20))
            ):
                out.append(m.group(2) or "")
                hits, last = hits + 1, n
            else:
                out.append(line)
        return out, hits

    def trailing() -> tuple[list[str], int]:
        out, hits, last = [], 0, 0
        for line in lines:
            candidates = (last + 1, last + 2, last + 3) if last < 20 else (last + 1, 1, 2)
            for n in candidates:
                s = str(n)
                # "text 8" or, from extractors that glue it on, "Q-U-8".
                if n <= LINE_NUMBER_MAX and line.endswith(s):
                    out.append(line[: -len(s)].rstrip())
                    hits, last = hits + 1, n
                    break
            else:
                out.append(line)
        return out, hits

    lead, lead_hits = leading()
    trail, trail_hits = trailing()
    best, hits = (lead, lead_hits) if lead_hits >= trail_hits else (trail, trail_hits)
    if hits >= 3 and hits * 10 >= len(lines) * 6:
        return best, hits
    return lines, 0


def clean_pages(raw_pages: list[list[RawLine]] | list[list[str]]) -> list[Page]:
    pages: list[list[RawLine]] = []
    for raw in raw_pages:
        rows = [r if isinstance(r, RawLine) else RawLine(text=r) for r in raw]
        for row in rows:
            row.text = collapse(row.text)
        pages.append([row for row in rows if row.text])
    anywhere, at_edges = _running_keys([[row.text for row in rows] for rows in pages])
    cleaned: list[Page] = []
    for number, rows in enumerate(pages, start=1):
        kept: list[RawLine] = []
        last = len(rows) - 1
        for i, row in enumerate(rows):
            key = _edge_key(row.text)
            at_edge = i < 2 or i > last - 2
            if key in anywhere or (at_edge and key in at_edges):
                continue
            if at_edge and _COMPANY.match(row.text) and not SPEAKER_RE.match(row.text):
                continue
            kept.append(row)
        # The page number: a bare number (or "Page n") first or last on the page.
        if kept and _PAGE_NUMBER.match(kept[0].text):
            kept.pop(0)
        if kept and kept[-1].text.lower().startswith("page") and _PAGE_NUMBER.match(kept[-1].text):
            kept.pop()
        texts, hits = _strip_line_numbers([row.text for row in kept])
        for row, text in zip(kept, texts, strict=True):
            row.text = text.strip()
        kept = [row for row in kept if row.text]
        cleaned.append(Page(number=number, rows=kept, numbered=hits > 0))
    _mark_indents(cleaned)
    _classify(cleaned)
    return cleaned


def _mark_indents(pages: list[Page]) -> None:
    """The text margin is the most common left edge; a line starting well right of
    it begins a paragraph; a short centred line stands alone (headings, cover-like
    lines on the certification page)."""
    edges = Counter(round(row.x0) for page in pages for row in page.rows if row.x0 is not None)
    if not edges:
        return
    margin = edges.most_common(1)[0][0]
    for page in pages:
        for row in page.rows:
            if row.x0 is None:
                continue
            row.centered = row.centered and row.x0 > margin + 36
            row.indented = row.x0 > margin + 18 and not row.centered


def _looks_like_index(page: Page) -> bool:
    if any(is_speaker_line(line) for line in page.lines):
        return False
    titled = any(_INDEX_TITLE.match(line) for line in page.lines[:4])
    entries = [line for line in page.lines if _INDEX_ENTRY.match(line)]
    return (titled and len(entries) >= 2) or len(entries) >= max(5, len(page.lines) * 2 // 3)


def is_cert_heading(line: str) -> bool:
    return bool(_CERT_HEADING.match(line))


def _classify(pages: list[Page]) -> None:
    """Cover and index pages are recognised by their content, not their position.

    The body starts at the first page with margin line numbers (or, for text
    without them, the first page with speaker tags that is not cover-like);
    pages before it that are not the index are the cover.
    """
    for page in pages:
        if _looks_like_index(page):
            page.kind = "index"
            page.index_entries = [
                re.sub(r"[\s.]+(?:\d{1,3}|-{1,3}|—)$", "", line)
                for line in page.lines
                if _INDEX_ENTRY.match(line)
            ]
    candidates = [p for p in pages if p.kind != "index"]
    first_body = next((p.number for p in candidates if p.numbered), None)
    if first_body is None:
        first_body = next(
            (
                p.number
                for p in candidates
                if any(is_speaker_line(x) for x in p.lines)
                and not _COVER_MARKERS.search("\n".join(p.lines))
            ),
            None,
        )
    for page in candidates:
        if first_body is None or page.number < first_body:
            text = "\n".join(page.lines)
            if first_body is not None or _COVER_MARKERS.search(text):
                page.kind = "cover"
