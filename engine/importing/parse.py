"""Pages → canonical text + utterances (see docs/importing.md, "Canonical text").

1. Only the hearing body and the certification: cover → metadata, index skipped.
2. One utterance per line, ``SPEAKER: text``; continuation lines (also across
   pages) joined with one space; a word or spelled name split by a hyphen at a
   line or page break re-joined without a space (``Q-U-`` + ``I-L-L``).
3. Lines without a speaker tag that are headings or stage directions
   (``PROCEEDINGS``, ``(Off the record.)``) become their own line.
4. Whitespace collapsed, lines joined by ``\\n``, no trailing newline.
"""

import re
from dataclasses import dataclass, field, replace

from engine.importing.cover import empty_metadata, parse_cover
from engine.importing.errors import NoTranscript
from engine.importing.invisible import invisible_notice, remove_invisible, remove_invisible_pages
from engine.importing.layout import (
    SPEAKER_RE,
    Page,
    RawLine,
    clean_pages,
    collapse,
    is_caption_line,
    is_cert_heading,
    is_speaker_line,
)
from engine.importing.left_out import left_out_notice
from engine.importing.proceeding import proceeding_kind
from engine.importing.testimony import Testimony

BODY = "body"
CERTIFICATION = "certification"
SKIPPED = ("cover", "index", "word_index")

HEADINGS = {
    "PROCEEDINGS",
    "ADJOURNMENT",
    "RECESS",
    "DECISION",
    "CASE FACTORS",
    "PRE-COMMITMENT FACTORS",
    "POST-COMMITMENT FACTORS",
    "PAROLE PLANS",
    "CLOSING STATEMENTS",
    "OPENING STATEMENTS",
    "DELIBERATIONS",
    "CONFIDENTIAL",
    "CONFIDENTIAL PORTION",
    "PROCEEDING",
    "DIRECT EXAMINATION",
    "CROSS-EXAMINATION",
    "REDIRECT EXAMINATION",
    "INDEX",
    "CONTENTS",
}
_STAGE = re.compile(r"^\([A-Z][^()]*\)\.?$")
# A stage direction printed over several lines ("(Whereupon, the proceedings were" ...):
# after a finished sentence it starts a line of its own, which its next lines continue.
_STAGE_OPENS = re.compile(r"^\([A-Z][^()]*$")
_SENTENCE_END = re.compile(r"[.?!\"'’”)]$")
# The footer printed on line 25 of decision pages: "<NAME> <CDCR> <date> DECISION PAGE <n>".
_DECISION_FOOTER = re.compile(r"^[^a-z]*\bDECISION PAGE \d+(?:\s+\d{1,2}/\d{1,2}/\d{2,4})?$")
# Text input only (no layout): certification lines such as "Signed: ..." stand alone.
_LABEL = re.compile(r"^[A-Z][A-Za-z ]{0,20}:\s")
_SPLIT_HYPHEN = re.compile(r"[A-Za-z0-9]-$")
# The same footer glued to the end of the last sentence (text exports).
_GLUED_FOOTER = re.compile(
    r"(?<=[.?!\"'’”-])\s+([^a-z]*\bDECISION PAGE \d+(?:\s+\d{1,2}/\d{1,2}/\d{2,4})?)$"
)
# Speaker-tag titles and the role they imply when the cover does not list the speaker.
ROLE_PREFIXES = (
    ("PRESIDING COMMISSIONER", "Presiding Commissioner"),
    ("DEPUTY COMMISSIONER", "Deputy Commissioner"),
    ("DEPUTY DISTRICT ATTORNEY", "Deputy District Attorney"),
    ("DISTRICT ATTORNEY", "District Attorney"),
    ("ATTORNEY", "Attorney for Incarcerated Person"),
    ("INCARCERATED PERSON", "Incarcerated Person"),
    ("INMATE", "Incarcerated Person"),
    ("PRISONER", "Incarcerated Person"),
    ("VICTIM'S NEXT OF KIN", "Victim's Next of Kin"),
    ("VICTIM'S", "Victim's Next of Kin"),
    ("NEXT OF KIN", "Victim's Next of Kin"),
    ("VICTIM", "Victim"),
    ("SUPPORT PERSON", "Support Person"),
    ("INTERPRETER", "Interpreter"),
    ("CORRECTIONAL OFFICER", "Correctional Officer"),
    ("OFFICER", "Correctional Officer"),
    ("COMMISSIONER", "Commissioner"),
    ("HEARING MONITOR", "Hearing Monitor"),
    ("A GRAND JUROR", "Grand Juror"),
    ("GRAND JUROR", "Grand Juror"),
    ("A JUROR", "Juror"),
    ("JUROR", "Juror"),
    ("THE FOREPERSON", "Foreperson"),
    ("THE WITNESS", "Witness"),
)


@dataclass(frozen=True)
class ParsedUtterance:
    """A line of the canonical text; ``start``/``end`` are character offsets (end exclusive)."""

    index: int
    speaker: str
    role: str
    page: int
    section: str
    start: int
    end: int


@dataclass
class ParsedTranscript:
    text: str
    metadata: dict
    utterances: list[ParsedUtterance]
    page_count: int
    source_format: str  # "pdf" | "txt"
    index_entries: list[str] = field(default_factory=list)
    # What the layout analysis found (``_layout_report``) and notices for people
    # (e.g. "no structure recognised", "read by OCR", "word index left out").
    layout: dict = field(default_factory=dict)
    notices: list[str] = field(default_factory=list)
    # The kind of proceeding (engine.importing.proceeding): "hearing", "trial", "grand
    # jury", ... or None when neither the cover nor the first headings say.
    proceeding: str | None = None


def _family(role: str) -> str:
    role = role.upper()
    for word in (
        "PRESIDING",
        "DEPUTY COMMISSIONER",
        "DISTRICT ATTORNEY",
        "ATTORNEY",
        "INCARCERATED",
        "VICTIM",
    ):
        if word in role:
            return word
    return role


def role_for(speaker: str, participants: list[dict], incarcerated: str | None = None) -> str:
    """The role of a speaker tag: the cover's role for the participant it names
    (by full or last name), else the role its title implies, else ""."""
    tag = speaker.upper().replace("’", "'")
    implied = next((role for prefix, role in ROLE_PREFIXES if tag.startswith(prefix)), "")
    last = tag.split()[-1] if tag.split() else ""
    matches = [
        p
        for p in participants
        if (name := (p.get("name") or "").upper()) and (tag == name or name.split()[-1] == last)
    ]
    if len(matches) > 1 and implied:
        matches = [p for p in matches if _family(p.get("role", "")) == _family(implied)] or matches
    if matches:
        return matches[0].get("role") or implied
    if incarcerated and tag == incarcerated.upper():
        return "Incarcerated Person"
    return implied


def _is_heading(line: str, headings: set[str]) -> bool:
    if any(c.islower() for c in line):
        return False
    bare = line.strip(" .:")
    if bare in headings or is_cert_heading(line):
        return True
    # Letter-spaced headings ("P ROCEEDINGS", "C O N T E N T S").
    squeezed = bare.replace(" ", "")
    return len(bare) <= 40 and any(squeezed == h.replace(" ", "") for h in headings)


def _cert_line_alone(line: str) -> bool:
    """Without layout (text input), which certification lines stand alone: lines in
    capitals (the cover block) and "Label: value" lines."""
    return (any(c.isalpha() for c in line) and not any(c.islower() for c in line)) or bool(
        _LABEL.match(line)
    )


def split_glued_turns(pages: list[Page]) -> int:
    """Two turns printed on one line ("... Yes, sir. DEPUTY COMMISSIONER X: Thank you.")
    become two lines, when the second tag is one the document uses at line starts; a
    decision-page footer glued to the last sentence becomes its own line."""
    tags = {
        m.group(1)
        for page in pages
        for row in page.rows
        if is_speaker_line(row.text) and (m := SPEAKER_RE.match(row.text))
    }
    tags = {t for t in tags if len(t) >= 4 and not t.startswith("BY ")}
    if not tags:
        return 0
    pattern = re.compile(
        r"(?<=[.?!,\"'’”-])\s+(?=(?:"
        + "|".join(re.escape(t) for t in sorted(tags, key=len, reverse=True))
        + r"):\s)"
    )
    count = 0
    for page in pages:
        rows: list[RawLine] = []
        for row in page.rows:
            parts = pattern.split(row.text)
            footer = _GLUED_FOOTER.search(parts[-1])
            if footer:
                parts[-1:] = [parts[-1][: footer.start()], footer.group(1)]
            if len(parts) == 1:
                rows.append(row)
                continue
            count += len(parts) - 1
            for i, part in enumerate(parts):
                piece = replace(row, text=part.strip())
                if i:
                    piece.indented, piece.centered = False, False
                rows.append(piece)
        page.rows = rows
    return count


def segment(
    pages: list[Page], metadata: dict, standalone: frozenset[str] = frozenset()
) -> tuple[str, list[ParsedUtterance]]:
    """Join the body and certification lines into canonical lines (utterances);
    ``standalone``: lines the file marks as headings (Markdown, reStructuredText)."""
    headings = set(HEADINGS)
    for page in pages:
        headings.update(entry.upper() for entry in page.index_entries)
    paras: list[dict] = []
    section = BODY
    started = False
    body = [p for p in pages if p.kind not in SKIPPED]
    split_glued_turns(body)
    # Question-and-answer testimony (engine.importing.testimony): who asks, who answers.
    exam = Testimony([row.text for page in body for row in page.rows])
    for page in body:
        for row in page.rows:
            line = row.text
            if started and section == BODY and is_cert_heading(line):
                section = CERTIFICATION
            started = True
            current = paras[-1] if paras and paras[-1]["open"] else None
            if current is not None and current["section"] != section:
                current = None
            step = exam.read(
                line, current["qa"] if current else None, current["tail"] if current else ""
            )
            m = SPEAKER_RE.match(line) if step is None and is_speaker_line(line) else None
            qa = ""
            joins = False
            if step is not None:
                joins = step.kind == "continue"
                kind, speaker, text, qa = step.kind, step.speaker, step.text, step.qa
            elif m:
                kind, speaker, text = "open", m.group(1), m.group(2) or ""
            elif (
                row.centered
                or row.bold
                or _STAGE.match(line)
                or _DECISION_FOOTER.match(line)
                or _is_heading(line, headings)
                or line in standalone
                or (section == BODY and is_caption_line(line))
                or (row.x0 is None and section == CERTIFICATION and _cert_line_alone(line))
            ):
                kind, speaker, text = "closed", "", line
            elif (
                row.indented
                or current is None
                or (_STAGE_OPENS.match(line) and _SENTENCE_END.search(current["tail"]))
            ):
                kind, speaker, text = "open", "", line
            else:
                joins = True
            if joins:
                # A continuation line. The paragraph's pieces are joined once, at the
                # end, and only its last two characters are looked at here: joining and
                # searching the whole paragraph at every line made a file of lines
                # without recognised speaker turns quadratic.
                para = paras[-1]
                tail = para["tail"]
                if not tail:
                    piece = line
                elif _SPLIT_HYPHEN.search(tail) and tail != "--":
                    piece = line
                else:
                    piece = " " + line
                para["parts"].append(piece)
                para["tail"] = (tail + piece)[-2:]
                continue
            paras.append(
                {
                    "speaker": speaker,
                    "parts": [text],
                    "tail": text[-2:],
                    "page": page.number,
                    "section": section,
                    "open": kind == "open",
                    "qa": qa,
                }
            )
    participants = metadata.get("participants") or []
    incarcerated = metadata.get("incarcerated_person")
    out: list[str] = []
    utterances: list[ParsedUtterance] = []
    offset = 0
    for para in paras:
        # A soft hyphen is invisible: "-\u00ad" prints as a dash ("as -- as"); others go.
        text = "".join(para["parts"])
        body = collapse(text.replace("-\u00ad", "--").replace("\u00ad", ""))
        line = f"{para['speaker']}: {body}" if para["speaker"] else body
        line = line.strip()
        if not line:
            continue
        utterances.append(
            ParsedUtterance(
                index=len(utterances),
                speaker=para["speaker"],
                role=(
                    role_for(para["speaker"], participants, incarcerated)
                    or exam.roles.get(para["speaker"], "")
                )
                if para["speaker"]
                else "",
                page=para["page"],
                section=para["section"],
                start=offset,
                end=offset + len(line),
            )
        )
        out.append(line)
        offset += len(line) + 1
    return "\n".join(out), utterances


UNSTRUCTURED = (
    "No speaker turns or transcript layout were recognised in this file; each paragraph "
    "was imported as one utterance. Check the text before review."
)


def _paragraph_utterances(text: str) -> tuple[str, list[ParsedUtterance]]:
    """Text with no recognised structure: one utterance per paragraph (blank-line
    separated; one per line when the file has no blank lines)."""
    paras = [p for p in re.split(r"\n\s*\n", text) if p.strip()]
    if len(paras) <= 1:
        paras = [line for line in text.split("\n") if line.strip()]
    out: list[str] = []
    utterances: list[ParsedUtterance] = []
    offset = 0
    for para in paras:
        line = collapse(para)
        utterances.append(
            ParsedUtterance(
                index=len(utterances),
                speaker="",
                role="",
                page=1,
                section=BODY,
                start=offset,
                end=offset + len(line),
            )
        )
        out.append(line)
        offset += len(line) + 1
    return "\n".join(out), utterances


# Text without page marks (no form feeds, stamps, number blocks or page numbers) is cut
# into pages of SHEET_LINES lines, more when that would make over MAX_SHEETS pages: the
# review page loads a few pages at a time (and lists every page in its minimap), and one
# 200,000-line "page" made it render every line at once (over 80 s).
SHEET_LINES = 25
MAX_SHEETS = 1000


def sheet_lines(count: int) -> int:
    """Lines per page for ``count`` lines of text without page marks."""
    return max(SHEET_LINES, -(-count // MAX_SHEETS))


def _sheets(utterances: list[ParsedUtterance]) -> list[ParsedUtterance]:
    per_page = sheet_lines(len(utterances))
    return [replace(u, page=1 + u.index // per_page) for u in utterances]


def _layout_report(pages: list[Page], stats: dict, extra: dict | None = None) -> dict:
    """What the layout analysis found (stored as ``metadata["layout"]``)."""
    report = {
        "pages": len({p.number for p in pages}),
        "cover_pages": sorted({p.number for p in pages if p.kind == "cover"}),
        "index_pages": sorted({p.number for p in pages if p.kind == "index"}),
        "word_index_pages": sorted({p.number for p in pages if p.kind == "word_index"}),
        "numbered_pages": stats.get("numbered_pages", 0),
        "clock_times_removed": stats.get("clock_times", 0),
        "running_lines_removed": stats.get("running_lines", 0),
        "index_lines_removed": stats.get("index_lines", 0),
    }
    report.update(extra or {})
    return report


def parse_pages(
    raw_pages: list[list[str]],
    *,
    source_format: str,
    layout_extra: dict | None = None,
    raw_text: str | None = None,
    standalone: frozenset[str] = frozenset(),
) -> ParsedTranscript:
    stats: dict = {}
    # Invisible characters out before anything reads the text (engine.importing.invisible).
    raw_pages, invisible = remove_invisible_pages(raw_pages)
    if raw_text is not None:
        raw_text, _count = remove_invisible(raw_text)
    pages = clean_pages(raw_pages, stats)
    cover_lines = [line for page in pages if page.kind == "cover" for line in page.lines]
    metadata = parse_cover(cover_lines) if cover_lines else empty_metadata()
    text, utterances = segment(pages, metadata, standalone)
    notices: list[str] = [invisible_notice(invisible)] if invisible else []
    if left_out := left_out_notice(pages):
        notices.append(left_out)
    dropped = [p.number for p in pages if p.kind == "word_index"]
    if dropped:
        notices.append(
            f"{len(dropped)} word-index page(s) were left out (pages {dropped[0]}-{dropped[-1]})."
        )
    if raw_text is not None and not any(u.speaker for u in utterances):
        text, utterances = _paragraph_utterances(raw_text)
        notices.append(UNSTRUCTURED)
    page_count = len(raw_pages)
    cut = raw_text is not None and page_count == 1 and len(utterances) > SHEET_LINES
    if cut:
        utterances = _sheets(utterances)
        page_count = utterances[-1].page
    if not text.strip():
        raise NoTranscript("No hearing text was found in the file (only a cover or index page?).")
    layout = _layout_report(pages, stats, layout_extra)
    layout["certification"] = any(u.section == CERTIFICATION for u in utterances)
    body_lines = [line for page in pages if page.kind not in SKIPPED for line in page.lines]
    proceeding = proceeding_kind(cover_lines, body_lines)
    layout["proceeding"] = proceeding
    if cut:  # no page marks: pages of SHEET_LINES lines (the layout found one page)
        layout["lines_per_page_cut"] = sheet_lines(len(utterances))
    index_entries = [e for page in pages for e in page.index_entries]
    return ParsedTranscript(
        text=text,
        metadata=metadata,
        utterances=utterances,
        page_count=page_count,
        source_format=source_format,
        index_entries=index_entries,
        layout=layout,
        notices=notices,
        proceeding=proceeding,
    )
