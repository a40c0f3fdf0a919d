"""Printed layout of a hearing: line wrapping and pagination. Django-free.

The geometry follows the real Board of Parole Hearings transcripts (US Letter, Courier 12,
25 numbered lines per body page, 25 pt apart). The layout is computed once by the generator
(it decides ``Utterance.page`` and which spelled names are split across lines) and drawn by
``pdf.render_pdf``. ``reconstruct_text`` applies the canonical-text rules to the printed lines
(docs/synthetic.md) and must give back ``SyntheticHearing.text`` exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import model

PAGE_W, PAGE_H = 612.0, 792.0
CHAR_W = 7.2  # Courier 12
MARGIN_X = 93.6  # continuation lines
INDENT_X = 129.6  # first line of an utterance / paragraph
RIGHT_X = 525.6
LINE_CHARS = round((RIGHT_X - MARGIN_X) / CHAR_W)  # 60
FIRST_CHARS = round((RIGHT_X - INDENT_X) / CHAR_W)  # 55
LINES_PER_PAGE = 25
FIRST_TOP = 83.6
LINE_PITCH = 25.0
FIRST_BODY_PAGE = 3  # 1 = cover, 2 = index


@dataclass(slots=True)
class PrintedLine:
    text: str
    x: float
    bold_chars: int = 0  # length of the bold prefix (speaker tag) or whole line for headings
    italic: bool = False
    starts: bool = True  # starts a canonical line (False: continuation)
    split: bool = False  # ends inside a token (the token goes on with the next line)
    line_index: int = -1  # index of the canonical line (utterance) it belongs to


@dataclass(slots=True)
class Page:
    number: int
    kind: str  # body | certification
    lines: list[PrintedLine | None] = field(default_factory=list)  # slots 1..25; None = empty


def centered_x(text: str) -> float:
    return round((PAGE_W - len(text) * CHAR_W) / 2, 2)


def _split_point(token: str, room: int) -> int:
    """Index just after the last hyphen at which ``token`` may be split within ``room`` chars."""
    best = 0
    for i, ch in enumerate(token[:room], start=1):
        if ch == "-" and i < len(token) and i >= 2 and token[i - 2] != "-" and token[i] != "-":
            best = i
    return best


def wrap(
    text: str, first_width: int = FIRST_CHARS, width: int = LINE_CHARS
) -> list[tuple[str, bool]]:
    """Greedy wrap of a single-spaced line; returns ``[(printed_line, split)]``.

    A token that does not fit is split after one of its hyphens when part of it fits
    (``Q-U-`` / ``I-L-L``). A printed line never ends with ``-`` unless the token goes on
    with the next line (``--`` dashes move to the next line), so "join without a space after
    a trailing hyphen" restores the text exactly.
    """
    lines: list[tuple[str, bool]] = []
    cur: list[str] = []
    cur_len = 0
    limit = first_width
    tokens = text.split(" ")
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        need = len(tok) + (1 if cur else 0)
        if cur_len + need <= limit:
            cur.append(tok)
            cur_len += need
            i += 1
            continue
        room = limit - cur_len - (1 if cur else 0)
        cut = _split_point(tok, room) if room >= 2 else 0
        if cut:
            cur.append(tok[:cut])
            lines.append((" ".join(cur), True))
            tokens[i] = tok[cut:]
        else:
            if not cur:  # a token longer than a line: print it as is
                cur.append(tok)
                i += 1
            elif cur[-1].endswith("-") and len(cur) > 1:
                tokens.insert(i, cur.pop())
            lines.append((" ".join(cur), False))
        cur, cur_len, limit = [], 0, width
    if cur:
        lines.append((" ".join(cur), False))
    return lines


def _printed(line: model._Line, index: int) -> list[PrintedLine]:
    kind = line.kind
    full = f"{line.speaker}: {line.body}" if line.speaker else line.body
    if kind in (model.HEADING, model.CENTERED):
        return [
            PrintedLine(
                full, centered_x(full), len(full) if kind == model.HEADING else 0, line_index=index
            )
        ]
    if kind in (model.PARENTHETICAL, model.FOOTER_LINE):
        bold = len(full) if kind == model.FOOTER_LINE else 0
        return [PrintedLine(full, INDENT_X, bold, line_index=index)]
    out = []
    for n, (text, split) in enumerate(wrap(full)):
        if n == 0:
            bold = len(line.speaker) + 1 if line.speaker else 0
            out.append(PrintedLine(text, INDENT_X, bold, split=split, line_index=index))
        else:
            out.append(PrintedLine(text, MARGIN_X, starts=False, split=split, line_index=index))
    return out


def paginate(lines: list[model._Line]) -> list[Page]:
    """Body pages of 25 numbered lines from page 3, then one certification page."""
    pages: list[Page] = []
    body = Page(FIRST_BODY_PAGE, "body")
    pages.append(body)
    cert: Page | None = None
    for index, line in enumerate(lines):
        if line.section == model.CERTIFICATION:
            if cert is None:
                cert = Page(pages[-1].number + 1, "certification")
                pages.append(cert)
            cert.lines.extend(_printed(line, index))
            continue
        if line.kind == model.FOOTER_LINE:
            if len(body.lines) >= LINES_PER_PAGE:
                body = Page(body.number + 1, "body")
                pages.append(body)
            body.lines.extend([None] * (LINES_PER_PAGE - 1 - len(body.lines)))
        for printed in _printed(line, index):
            if len(body.lines) >= LINES_PER_PAGE:
                body = Page(body.number + 1, "body")
                pages.append(body)
            body.lines.append(printed)
    for page in pages:
        if page.kind == "body":
            page.lines.extend([None] * (LINES_PER_PAGE - len(page.lines)))
    return pages


def line_pages(pages: list[Page]) -> dict[int, int]:
    """Canonical line index -> the page its first printed line is on."""
    found: dict[int, int] = {}
    for page in pages:
        for printed in page.lines:
            if printed is not None and printed.line_index not in found:
                found[printed.line_index] = page.number
    return found


def reconstruct_text(pages: list[Page]) -> str:
    """The canonical text as an importer builds it from the printed lines (docs/synthetic.md)."""
    out: list[str] = []
    for page in pages:
        for printed in page.lines:
            if printed is None:
                continue
            if printed.starts or not out:
                out.append(printed.text)
            elif out[-1].endswith("-"):
                out[-1] += printed.text
            else:
                out[-1] += " " + printed.text
    return "\n".join(out)
