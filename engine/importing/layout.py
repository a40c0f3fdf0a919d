"""Page cleaning: page numbers, running headers, the transcription-company line,
margin line numbers (1-25), and page classification (cover, index, body,
certification) by content. Django-free; works on lines of text, so PDFs and
text extracted by other tools go through the same rules.
"""

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from engine.importing.speakers import SPEAKER_RE, is_speaker_line

LINE_NUMBER_MAX = 28
_WS = re.compile(r"\s+")
_PAGE_NUMBER = re.compile(r"^(?:page\s+)?\d{1,4}(?:\s+of\s+\d{1,4})?$", re.I)
_LEADING_NUMBER = re.compile(r"^(\d{1,2})(?:\s+(.*))?$")
_DIGITS = re.compile(r"\d+")
_COMPANY = re.compile(
    r"^[A-Z][\w&.,' -]{0,60}\b(?:Transcription|Transcribing|Reporting|Reporters)"
    r"(?:\s+(?:Services?|Company|Co\.|Inc\.?|LLC))*,?(?:\s+(?:Inc\.?|LLC))?$"
)
_INDEX_TITLE = re.compile(r"^(?:I\s*N\s*D\s*E\s*X|INDEX|(?:TABLE OF )?CONTENTS)$", re.I)
_INDEX_ENTRY = re.compile(r"^[A-Za-z][A-Za-z \-'/,&.]+?\s+(?:\d{1,3}|-{1,3}|—)$")
_CERT_HEADING = re.compile(
    r"^(?:(?:TRANSCRIPT |TRANSCRIBER'?S |REPORTER'?S )?CERTIFICAT(?:E|ION)\b.*|"
    r"CERTIFICATE AND DECLARATION OF TRANSCRIBER)$"
)
_COVER_MARKERS = re.compile(r"\bCDCR\b|PANEL PRESENT|Hearing of:|Transcribed by", re.I)
# A court's or an older board's caption: a column of ")" / ")(" / ":" / "*" marks, the
# court's name, the appearances.
_CAPTION_MARKERS = re.compile(
    r"\)\(|^[^(]*\)\s*$|^\S.*\s[:*]\s*$|^IN THE (?:UNITED STATES |SUPREME |SUPERIOR |CIRCUIT |DISTRICT )?"
    r"(?:[A-Z]+ )*COURT\b|^APPEARANCES\b|^BEFORE THE HONORABLE|^TRANSCRIPT OF\b|"
    r"\bCDC\s*(?:Number|No\.?)\b|BOARD OF PAROLE HEARINGS|In the matter of|"
    r"(?-i:^FOR THE [A-Z][A-Z ]+:|^(?:OFFICIAL )?COURT REPORTERS?:|^REPORTED BY:)",
    re.I,
)
# The margin clock-time column of real-time court reporting ("09:28:29   11   text").
_CLOCK = re.compile(r"^(\d{1,2}:\d{2}(?::\d{2})?)(?:\s+(?=\d{1,2}(?:\s|$))|\s*$)")
# A concordance (word index): "wanted53:14 44:8" — page:line references.
_WORD_REF = re.compile(r"\d{1,3}:\d{1,2}(?:,\d{1,2})*")
# An index or contents line with dot leaders ("Proceedings ........ 3"), maybe several.
_DOT_LEADER = re.compile(r"\.{4,}\s*\d{1,3}\b")
_LEADER_ENTRY = re.compile(r"([A-Za-z][A-Za-z \-'/,&]*?)\s*\.{3,}\s*\d{1,3}\b")
_SPACED = re.compile(r"^(?:[A-Z] ){3,}[A-Z]$")
_PROCEEDINGS = {"PROCEEDINGS", "PROCEEDING"}
_COVER_LABEL = re.compile(
    r"^(?:(?:PANEL|OTHERS|ALSO) PRESENT|APPEARANCES|FOR THE\b|COURT REPORTERS?|REPORTED BY|"
    r"TRANSCRIBED BY|HEARING OF|CDCR?\b|IN RE\b|BEFORE\b|PRESENT\b|CASE\b|DOCKET\b)",
    re.I,
)
# "NAME IN CAPITALS, Company Inc." — the transcriber's line on a cover, not a footer.
_NAME_THEN_COMPANY = re.compile(r"^[A-Z][A-Z.'’ \-]+,\s+\S")
_EXAMINATION = re.compile(r"^[QA][.:]\s")


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
    kind: str = "body"  # cover | index | word_index | body
    index_entries: list[str] = field(default_factory=list)
    body_from: int = 0  # on the page where the body starts: its first body line

    @property
    def lines(self) -> list[str]:
        return [row.text for row in self.rows]


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


def strip_clock_column(lines: list[str], *, known: bool = False) -> tuple[list[str], int]:
    """Remove a margin clock-time column ("09:28:29" before the line number) when
    most lines have one (``known``: earlier pages had the column, so a short last page's
    few lines lose theirs too). Returns (lines, how many had one)."""
    hits = [bool(_CLOCK.match(line)) for line in lines]
    if not (known and any(hits)) and (sum(hits) < 3 or sum(hits) * 10 < len(lines) * 4):
        return lines, 0
    return [
        _CLOCK.sub("", line, count=1).strip() if hit else line
        for line, hit in zip(lines, hits, strict=True)
    ], sum(hits)


def _strip_line_numbers(lines: list[str], *, known: bool = False) -> tuple[list[str], int]:
    """Remove margin line numbers, read at the start (pdfplumber) or the end
    (other extractors) of each line (``known``: earlier pages were numbered, so a
    short page whose every line is numbered from 1). Returns (lines, how many were
    numbered)."""

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
    if hits >= 3 and hits * 10 >= len(lines) * 4:
        return best, hits
    if (
        known
        and lines
        and lead_hits == len(lines)
        and _LEADING_NUMBER.match(lines[0]).group(1) == "1"
    ):
        return lead, lead_hits
    return _strip_numbered_runs(lines)


def _strip_numbered_runs(lines: list[str], min_run: int = 5) -> tuple[list[str], int]:
    """Text that is not one page per form feed: strip leading line numbers where at
    least ``min_run`` consecutive lines count up by one (n, n+1, ...)."""
    numbers = []
    for line in lines:
        m = _LEADING_NUMBER.match(line)
        n = int(m.group(1)) if m else 0
        numbers.append(n if 1 <= n <= LINE_NUMBER_MAX else 0)
    out = list(lines)
    hits = 0
    i = 0
    while i < len(lines):
        j = i
        while j + 1 < len(lines) and numbers[j] and numbers[j + 1] == numbers[j] + 1:
            j += 1
        if numbers[i] and j - i + 1 >= min_run:
            for k in range(i, j + 1):
                out[k] = _LEADING_NUMBER.match(lines[k]).group(2) or ""
            hits += j - i + 1
        i = j + 1
    return out, hits


def clean_pages(
    raw_pages: list[list[RawLine]] | list[list[str]], stats: dict | None = None
) -> list[Page]:
    """Clean and classify pages. ``stats`` (optional) receives what was found:
    ``clock_times``, ``numbered_pages``, ``running_lines``, ``index_lines``."""
    stats = stats if stats is not None else {}
    for key in ("clock_times", "numbered_pages", "running_lines", "index_lines"):
        stats.setdefault(key, 0)
    pages: list[list[RawLine]] = []
    for raw in raw_pages:
        rows = [r if isinstance(r, RawLine) else RawLine(text=r) for r in raw]
        for row in rows:
            row.text = collapse(row.text)
        rows = [row for row in rows if row.text]
        texts, clocks = strip_clock_column(
            [row.text for row in rows], known=stats["clock_times"] > 0
        )
        stats["clock_times"] += clocks
        for row, text in zip(rows, texts, strict=True):
            row.text = text
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
                stats["running_lines"] += 1
                continue
            if (
                at_edge
                and _COMPANY.match(row.text)
                and not SPEAKER_RE.match(row.text)
                and not _NAME_THEN_COMPANY.match(row.text)
            ):
                stats["running_lines"] += 1
                continue
            kept.append(row)
        # The page number: a bare number (or "Page n") first or last on the page.
        if kept and _PAGE_NUMBER.match(kept[0].text):
            kept.pop(0)
        if kept and kept[-1].text.lower().startswith("page") and _PAGE_NUMBER.match(kept[-1].text):
            kept.pop()
        texts, hits = _strip_line_numbers(
            [row.text for row in kept], known=stats["numbered_pages"] > 0
        )
        for row, text in zip(kept, texts, strict=True):
            row.text = text.strip()
        kept = [row for row in kept if row.text]
        entries: list[str] = []
        body_rows: list[RawLine] = []
        whole_index = _looks_like_index(Page(number=number, rows=kept))
        for row in kept:
            if _SPACED.match(row.text):
                row.text = row.text.replace(" ", "")
            if not whole_index and _DOT_LEADER.search(row.text) and not is_speaker_line(row.text):
                entries.extend(e.strip() for e in _LEADER_ENTRY.findall(row.text) if e.strip())
                stats["index_lines"] += 1
                continue
            body_rows.append(row)
        page = Page(number=number, rows=body_rows, numbered=hits > 0)
        if entries and not body_rows:
            page.kind = "index"
        page.index_entries = [e.removeprefix("Page ").strip() for e in entries]
        stats["numbered_pages"] += hits > 0
        cleaned.append(page)
    _mark_indents(cleaned)
    _classify(cleaned)
    return split_cover(cleaned)


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


def is_word_index(page: Page, *, follows_one: bool = False) -> bool:
    """A concordance page: most tokens are page:line references ("44:8", "wanted53:14").
    ``follows_one``: the page after a word-index page (its short last page) needs only
    a few references, and no speaker turn."""
    tokens = " ".join(page.lines).split()
    refs = sum(1 for t in tokens if _WORD_REF.search(t))
    if follows_one and not any(is_speaker_line(line) for line in page.lines):
        return refs >= 2 and refs * 10 >= len(tokens) * 3
    return refs >= 20 and refs * 10 >= len(tokens) * 3


def starts_body(line: str) -> bool:
    """A line that can open the hearing itself: the PROCEEDINGS heading, a speaker turn
    (a tag in capitals and words in sentence case), or a ``Q.``/``A.`` line."""
    if not any(c.islower() for c in line) and re.sub(r"[\s.:]", "", line) in _PROCEEDINGS:
        return True
    if _EXAMINATION.match(line):
        return True
    m = SPEAKER_RE.match(line)
    if not m or not is_speaker_line(line):
        return False
    rest = m.group(2) or ""
    return any(c.islower() for c in rest) and not _COVER_LABEL.match(m.group(1))


def body_opener(lines: list[str]) -> Callable[[str], bool]:
    """``starts_body`` for one document, with its testimony: a swearing-in line, a ``BY
    MR. NAME:`` line or an examination heading opens the body too, and so does a bare
    ``Q text`` / ``A text`` line in a document written as testimony
    (``testimony.qa_mode``). A caption holds none of them; without them, a deposition
    whose only speaker turn comes late ("MS. LEE: Objection.") had its whole examination
    read as the cover."""
    from engine.importing.testimony import is_exam_mark, is_qa_line, qa_mode

    bare = qa_mode(lines)

    def opens(line: str) -> bool:
        # an examination listed with its page on a cover ("DIRECT EXAMINATION BY MR. X 4")
        # is an index entry, not the heading
        return (
            starts_body(line)
            or (is_exam_mark(line) and not line[-1:].isdigit())
            or is_qa_line(line, bare=bare)
        )

    return opens


_COVER_LINE = re.compile(
    r"^(?:(?:SUBSEQUENT |INITIAL |DOCUMENTATION )?PAROLE (?:CONSIDERATION|SUITABILITY) HEARING"
    r"(?: STATE OF CALIFORNIA)?|STATE OF CALIFORNIA|BOARD OF PAROLE HEARINGS|"
    r"(?:PANEL|OTHERS|ALSO) PRESENT:?(?: .*)?|In the matter of .*|Hearing of:.*)$"
)


def is_caption_line(line: str) -> bool:
    """A cover line met inside the body (a second transcript in one file): a whole
    cover heading or label, or a line ending in a caption's bracket column."""
    return bool(_COVER_LINE.match(line) or re.search(r"^[^(]*\S\s+\)(?:\s*\()?\s*$", line))


def caption_lines(lines: list[str]) -> int:
    return sum(1 for line in lines if _CAPTION_MARKERS.search(line))


def _cover_like(page: Page) -> bool:
    captions = caption_lines(page.lines)
    turns = sum(1 for line in page.lines if starts_body(line))
    return (captions >= 2 or (captions == 1 and not turns)) and captions > turns


def _classify(pages: list[Page]) -> None:
    """Cover, index and word-index pages are recognised by their content, not their position.

    The body starts at the first page with margin line numbers that is not a caption,
    or at the first line that opens the hearing (``body_opener``), whichever comes
    first; what comes before it (but the index) is the cover. A body page's lines
    before that start go to the cover, too (``Page.body_from``).
    """
    previous = ""
    for page in pages:
        if page.kind == "index":
            previous = page.kind
            continue
        if _looks_like_index(page):
            page.kind = "index"
            page.index_entries = [
                re.sub(r"[\s.]+(?:\d{1,3}|-{1,3}|—)$", "", line)
                for line in page.lines
                if _INDEX_ENTRY.match(line)
            ]
        elif is_word_index(page, follows_one=previous == "word_index"):
            page.kind = "word_index"
        previous = page.kind
    candidates = [p for p in pages if p.kind not in ("index", "word_index")]
    first_numbered = next((p.number for p in candidates if p.numbered and not _cover_like(p)), None)
    opens = body_opener([line for p in candidates for line in p.lines])
    first_line = next(
        ((p.number, i) for p in candidates for i, line in enumerate(p.lines) if opens(line)),
        None,
    )
    if first_line is not None and first_line[0] == first_numbered:
        # The first numbered page opens with the end of a caption ("APPEARANCES
        # CONTINUED"): the body starts at its first hearing line.
        page = next(p for p in candidates if p.number == first_numbered)
        before = page.lines[: first_line[1]]
        start = first_line if caption_lines(before) else (first_numbered, 0)
    elif first_numbered is not None and (first_line is None or first_numbered < first_line[0]):
        start = (first_numbered, 0)
    else:
        start = first_line
    for page in candidates:
        if start is None:
            if _COVER_MARKERS.search("\n".join(page.lines)):
                page.kind = "cover"
        elif page.number < start[0]:
            page.kind = "cover"
        elif page.number == start[0]:
            before = page.lines[: start[1]]
            # Lines before the first turn are the cover only when they look like one;
            # otherwise (a file that starts mid-turn) they are the body's start.
            if (
                caption_lines(before)
                or _COVER_MARKERS.search("\n".join(before))
                or any(_INDEX_TITLE.match(line) for line in before)
            ):
                page.body_from = start[1]


def split_cover(pages: list[Page]) -> list[Page]:
    """Split the page where the body starts: its lines before the start become a cover page."""
    out: list[Page] = []
    for page in pages:
        if page.body_from:
            out.append(Page(number=page.number, rows=page.rows[: page.body_from], kind="cover"))
            page.rows = page.rows[page.body_from :]
            page.body_from = 0
        out.append(page)
    return out
