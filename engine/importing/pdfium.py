"""PDF → pages of text lines with pypdfium2 (fast path). Django-free.

pypdfium2 gives every character with its box and font in one pass (about ten times
faster than pdfminer). Lines are built as pdfplumber builds them, so both readers give
the same lines: characters clustered by their top (3 pt), sorted left to right, words
split at blanks or gaps wider than 3 pt, words joined with one space. Only real
characters count (pdfium's generated spaces and line breaks are ignored); a character's
box is its loose box (font ascent/descent and advance width, as pdfminer's).

``pdfium_pages`` returns None when pdfium cannot read the file or finds no text: the
caller then falls back to pdfplumber, which names the problem (encrypted, damaged,
scanned) as before.
"""

from __future__ import annotations

import ctypes
import logging
from collections.abc import Callable

from engine.importing.layout import RawLine
from engine.progress import Cancelled

logger = logging.getLogger(__name__)

Y_TOLERANCE = 3.0
X_TOLERANCE = 3.0


class _Fonts:
    """Font names by character index, read on demand (bold checks need few)."""

    def __init__(self, textpage, raw):
        self.textpage, self.raw = textpage, raw
        self.buf = ctypes.create_string_buffer(128)
        self.flags = ctypes.c_int()

    def bold(self, i: int) -> bool:
        n = self.raw.FPDFText_GetFontInfo(
            self.textpage.raw, i, self.buf, 128, ctypes.byref(self.flags)
        )
        return bool(n) and b"bold" in self.buf.value.lower()


# A character: (text, x0, x1, top, index).
Char = tuple[str, float, float, float, int]


def _chars(textpage, raw, height: float) -> list[Char]:
    count = textpage.count_chars()
    if count <= 0:
        return []
    text = textpage.get_text_range(0, count)
    # get_text_range gives one UTF-16 unit per character index, except for characters
    # outside the BMP; fall back to one call per character then.
    aligned = len(text) == count
    rect = raw.FS_RECTF()
    rect_ref = ctypes.byref(rect)
    handle = textpage.raw
    loose = raw.FPDFText_GetLooseCharBox
    chars: list[Char] = []
    for i in range(count):
        ch = text[i] if aligned else textpage.get_text_range(i, 1)
        if ch in ("\r", "\n") or not ch:
            continue
        if ch in ("\ufffe", "\x02"):  # pdfium's mark for a hyphen at a line end
            ch = "-"
        elif ch == " " and raw.FPDFText_IsGenerated(handle, i):
            continue
        loose(handle, i, rect_ref)
        chars.append((ch, rect.left, rect.right, height - rect.top, i))
    return chars


def _cluster(values: list[float], tolerance: float) -> dict[float, int]:
    """pdfplumber's cluster_list: sorted values, a new cluster after a jump > tolerance."""
    index: dict[float, int] = {}
    last = None
    n = -1
    for value in sorted(set(values)):
        if last is None or value - last > tolerance:
            n += 1
        index[value] = n
        last = value
    return index


def _lines(chars: list[Char], page_width: float, fonts: _Fonts) -> list[RawLine]:
    if not chars:
        return []
    ids = _cluster([c[3] for c in chars], Y_TOLERANCE)
    groups: dict[int, list[Char]] = {}
    for c in chars:
        groups.setdefault(ids[c[3]], []).append(c)
    out: list[RawLine] = []
    center = page_width / 2
    for key in sorted(groups):
        line = sorted(groups[key], key=lambda c: c[1])
        words: list[list[Char]] = []
        prev = None
        for c in line:
            if not c[0].strip():
                prev = None
                continue
            if (
                prev is None
                or c[1] < prev[1]
                or c[1] > prev[2] + X_TOLERANCE
                or abs(c[3] - prev[3]) > Y_TOLERANCE
            ):
                words.append([c])
            else:
                words[-1].append(c)
            prev = c
        if not words:
            continue
        text = " ".join("".join(c[0] for c in w) for w in words)
        glyphs = [c for w in words for c in w]
        # A leading margin number: one or two digits, then a wide gap (the text may
        # start with digits too: "14" + "8:20 AM").
        body = glyphs
        for i in (1, 2):
            if i >= len(glyphs) or not glyphs[i - 1][0].isdigit():
                break
            if glyphs[i][1] - glyphs[i - 1][2] > 10:
                body = glyphs[i:]
                break
        x0, x1 = float(body[0][1]), float(body[-1][2])
        # Bold when every letter is: checked from the end, stopping at the first
        # regular letter (most lines stop at their last letter).
        letters = [c for c in body if c[0].isalpha()]
        bold = bool(letters) and all(fonts.bold(c[4]) for c in reversed(letters))
        centered = abs((x0 + x1) / 2 - center) < 12
        out.append(RawLine(text=text.strip(), x0=x0, x1=x1, centered=centered, bold=bold))
    return out


def pdfium_pages(
    data: bytes, *, on_page: Callable[[int, int], None] | None = None
) -> list[list[RawLine]] | None:
    """The text lines of every page, or None (unreadable, encrypted, or no text layer
    on most pages: the caller falls back to pdfplumber's checks)."""
    import pypdfium2
    import pypdfium2.raw as raw

    try:
        pdf = pypdfium2.PdfDocument(data)
    except Exception as exc:  # PdfiumError: password, damaged file, ...
        logger.info("pdfium could not open the pdf: %s", type(exc).__name__)
        return None
    try:
        total = len(pdf)
        if total == 0:
            return None
        pages: list[list[RawLine]] = []
        empty = 0
        for number in range(total):
            page = pdf[number]
            textpage = page.get_textpage()
            try:
                chars = _chars(textpage, raw, float(page.get_height()))
                empty += not chars
                pages.append(_lines(chars, float(page.get_width()), _Fonts(textpage, raw)))
            finally:
                textpage.close()
                page.close()
            if on_page:
                on_page(number + 1, total)
        if empty * 2 > total:
            return None
        return pages
    except Cancelled:
        raise
    except Exception as exc:
        logger.info("pdfium could not read the pdf: %s", type(exc).__name__)
        return None
    finally:
        pdf.close()
