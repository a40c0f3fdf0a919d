"""Render a synthetic hearing as a PDF in the layout of the real BPH transcripts (fpdf2).

Page 1: cover (board heading, "In the matter of ...", name, CDCR number, institution, city,
date, time, panel and others present, transcriber). Page 2: index. Pages 3..n: body, 25
numbered lines, page number at the top, the transcription company at the bottom.
Last page: certificate of the transcriber. Django-free.
"""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path
from typing import BinaryIO

from fpdf import FPDF

from engine.vocab import MONTHS

from . import layout
from .model import SyntheticHearing

_MONTHS = tuple(month.upper() for month in MONTHS)
_ASCENT = 9.0  # baseline below a line's top for Courier 12
_NUM_SIZE = 11.0


def _clock(hhmm: str) -> str:
    hour, minute = (int(x) for x in hhmm.split(":"))
    return f"{hour % 12 or 12}:{minute:02d} {'AM' if hour < 12 else 'PM'}"


def _date_caps(iso: str) -> str:
    year, month, day = (int(x) for x in iso.split("-"))
    return f"{_MONTHS[month - 1]} {day}, {year}"


class _Doc(FPDF):
    pass


def _text(
    pdf: FPDF,
    x: float,
    top: float,
    text: str,
    style: str = "",
    size: float = 12.0,
    family: str = "Courier",
) -> None:
    pdf.set_font(family, style, size)
    pdf.text(x, top + _ASCENT, text)


def _centered(pdf: FPDF, top: float, text: str, style: str = "") -> None:
    _text(pdf, layout.centered_x(text), top, text, style)


def _page_frame(pdf: FPDF, number: int, company: str, *, rule: bool = True) -> None:
    label = str(number)
    pdf.set_font("Helvetica", "", _NUM_SIZE)
    width = pdf.get_string_width(label)
    pdf.text((layout.PAGE_W - width) / 2, 38.3 + 8.5, label)
    if rule:
        pdf.set_line_width(0.48)
        pdf.line(79.14, 734.2, 532.86, 734.2)
    _centered(pdf, 758.4, company)


def _cover(pdf: FPDF, h: SyntheticHearing) -> None:
    md = h.metadata
    pdf.add_page()
    _centered(pdf, 83.6, "SUBSEQUENT PAROLE CONSIDERATION HEARING")
    _centered(pdf, 108.6, "STATE OF CALIFORNIA")
    _centered(pdf, 133.6, "BOARD OF PAROLE HEARINGS")
    _text(pdf, 93.6, 189.4, "In the matter of the Life Term")
    _text(pdf, 345.6, 189.4, f"CDCR Number: {md['cdcr_number']}")
    _text(pdf, 93.6, 203.0, "Parole Consideration Hearing of:")
    _text(pdf, 93.6, 226.6, md["incarcerated_person"].upper(), "B")
    _centered(pdf, 303.8, md["institution"].upper())
    _centered(pdf, 328.8, md["location"].upper())
    _centered(pdf, 353.8, _date_caps(md["hearing_date"]))
    _centered(pdf, 378.8, _clock(md["hearing_time"]))
    top = 428.8
    _text(pdf, 93.6, top, "PANEL PRESENT:")
    top += 15
    panel = [p for p in md["participants"] if "Commissioner" in p["role"]]
    others = [p for p in md["participants"] if "Commissioner" not in p["role"]]
    for p in panel:
        _text(pdf, 93.6, top, f"{p['name'].upper()}, {p['role']}")
        top += 13.6
    top += 30
    _text(pdf, 93.6, top, "OTHERS PRESENT:")
    top += 15
    for p in others:
        _text(pdf, 93.6, top, f"{p['name'].upper()}, {p['role']}")
        top += 13.6
    _text(pdf, 93.6, top, "UNIDENTIFIED, Correctional Officers")
    top += 45
    _text(pdf, 93.6, top, "Transcribed by:")
    _text(pdf, 93.6, top + 25, md["transcriber"].upper())


def _index(pdf: FPDF, h: SyntheticHearing) -> None:
    pdf.add_page()
    _page_frame(pdf, 2, h.company)
    _centered(pdf, 83.6, "INDEX")
    _text(pdf, 480.3, 153.6, "Page")
    pdf.line(480.3, 165.0, 509.1, 165.0)
    top = 190.6
    for title, page in h.index:
        _text(pdf, 99.0, top, title)
        _text(pdf, 501.9 - len(page) * layout.CHAR_W, top, page)
        top += 37.5


def _body_page(pdf: FPDF, h: SyntheticHearing, page: layout.Page) -> None:
    pdf.add_page()
    _page_frame(pdf, page.number, h.company)
    for slot in range(layout.LINES_PER_PAGE):
        top = layout.FIRST_TOP + slot * layout.LINE_PITCH
        label = str(slot + 1)
        pdf.set_font("Helvetica", "", _NUM_SIZE)
        pdf.text(68.0 - pdf.get_string_width(label), top + 8.5, label)
        printed = page.lines[slot] if slot < len(page.lines) else None
        if printed is not None:
            _draw_line(pdf, printed, top)


def _draw_line(pdf: FPDF, printed: layout.PrintedLine, top: float) -> None:
    text = printed.text
    if printed.bold_chars >= len(text):
        _text(pdf, printed.x, top, text, "B")
    elif printed.bold_chars:
        head, rest = text[: printed.bold_chars], text[printed.bold_chars :]
        _text(pdf, printed.x, top, head, "B")
        _text(pdf, printed.x + len(head) * layout.CHAR_W, top, rest)
    else:
        _text(pdf, printed.x, top, text, "I" if printed.italic else "")


def _cert_page(pdf: FPDF, h: SyntheticHearing, page: layout.Page) -> None:
    pdf.add_page()
    _page_frame(pdf, page.number, h.company)
    top = layout.FIRST_TOP
    for printed in page.lines:
        if printed is None:
            continue
        _draw_line(pdf, printed, top)
        top += layout.LINE_PITCH


def render_pdf(hearing: SyntheticHearing, out: str | Path | BinaryIO) -> None:
    """Write ``hearing`` as a PDF to a path or a binary file object."""
    pdf = _Doc(unit="pt", format="letter")
    pdf.set_auto_page_break(False)
    pdf.set_creator("anonreview synthetic generator")
    pdf.set_title(f"Synthetic parole hearing {hearing.id}")
    # A fixed creation date keeps the bytes identical for the same hearing.
    year, month, day = (int(x) for x in hearing.metadata["hearing_date"].split("-"))
    pdf.set_creation_date(dt.datetime(year, month, day, tzinfo=dt.UTC))
    _cover(pdf, hearing)
    _index(pdf, hearing)
    for page in hearing.pages:
        if page.kind == "body":
            _body_page(pdf, hearing, page)
        else:
            _cert_page(pdf, hearing, page)
    data = pdf.output()
    if isinstance(out, (str, Path)):
        Path(out).write_bytes(data)
    else:
        out.write(data)


def render_pdf_bytes(hearing: SyntheticHearing) -> bytes:
    buf = io.BytesIO()
    render_pdf(hearing, buf)
    return buf.getvalue()
