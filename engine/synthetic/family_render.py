"""Draw a layout family's document (``families.FamilyDoc``) as text, PDF or a scan.

Text follows how each family reaches researchers as a text export (see
``families``); the PDF prints the same pages (Courier 12, 25 numbered lines); a scan is
the PDF's pages rendered to grey images with mild noise, a small rotation and blur, in
an image-only PDF (no text layer). Django-free.
"""

from __future__ import annotations

import datetime as dt
import io
import random

from fpdf import FPDF

from .families import FamilyDoc

LINES = 25
WIDTH = 60
PAGE_W, PAGE_H = 612.0, 792.0
TOP, PITCH = 84.0, 25.0
NUM_X, TEXT_X, INDENT_X = 68.0, 93.6, 129.6


def _wrap(line: str, width: int = WIDTH) -> list[tuple[str, bool]]:
    """(printed text, starts a paragraph) — whole words only."""
    out: list[tuple[str, bool]] = []
    current = ""
    for word in line.split():
        room = width - (5 if not out else 0)
        if current and len(current) + 1 + len(word) > room:
            out.append((current, not out))
            current = word
        else:
            current = f"{current} {word}" if current else word
    if current:
        out.append((current, not out))
    return out


def body_pages(doc: FamilyDoc) -> list[list[tuple[str, bool]]]:
    printed = [piece for line in doc.body for piece in _wrap(line)]
    return [printed[i : i + LINES] for i in range(0, len(printed), LINES)]


def _word_index(doc: FamilyDoc, first_page: int) -> list[list[str]]:
    """A concordance of the body's words: ``word page:line,line page:line``."""
    refs: dict[str, dict[int, list[int]]] = {}
    for p, page in enumerate(body_pages(doc), start=first_page):
        for n, (text, _) in enumerate(page, start=1):
            for raw in text.split():
                word = raw.strip(".,;:?!()\"'").lower()
                if word.isalpha() and len(word) > 2:
                    refs.setdefault(word, {}).setdefault(p, []).append(n)
    entries = []
    for word in sorted(refs):
        parts = [f"{p}:{','.join(str(n) for n in sorted(set(ns)))}" for p, ns in refs[word].items()]
        entries.append(f"{word} {' '.join(parts)}")
    lines = [" ".join(entries[i : i + 3]) for i in range(0, len(entries), 3)]
    return [lines[i : i + 40] for i in range(0, len(lines), 40)]


def _pages(doc: FamilyDoc) -> list[dict]:
    """Every printed page: kind, lines [(text, starts)], number."""
    pages: list[dict] = []
    for cover in doc.cover:
        pages.append({"kind": "cover", "lines": [(x, True) for x in cover]})
    if doc.contents:
        pages.append({"kind": "contents", "lines": [(x, True) for x in doc.contents]})
    first = len(pages) + 1
    for page in body_pages(doc):
        pages.append({"kind": "body", "lines": page})
    if doc.word_index:
        for lines in _word_index(doc, first):
            pages.append({"kind": "index", "lines": [(x, True) for x in lines]})
    for number, page in enumerate(pages, start=1):
        page["number"] = number
    return pages


def _clock(doc: FamilyDoc, page: int, line: int) -> str:
    seconds = 9 * 3600 + doc.seed % 600 + page * 100 + line * 4
    return f"{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def render_text(doc: FamilyDoc, *, form_feeds: bool = True) -> str:
    """The family's text export (see ``families``). ``form_feeds=False``: the text as a
    word processor saves it without page breaks: the caption, the appearances and the
    body as lines of text, no page furniture (header, footer, page and line numbers,
    clock times, filing stamps) and no form feed, so nothing marks where the caption
    ends. The contents and word-index pages are left out: they refer to page numbers
    such a text no longer has."""
    pages = _pages(doc)
    if not form_feeds:
        kept = [page for page in pages if page["kind"] in ("cover", "body")]
        return "\n".join(text for page in kept for text, _ in page["lines"]) + "\n"
    total = len(pages)
    out: list[str] = []
    for page in pages:
        n, lines = page["number"], page["lines"]
        numbered = page["kind"] == "body" or (doc.numbered_cover and page["kind"] == "cover")
        if doc.family == "bph2009":
            if page["kind"] == "body":
                out.extend(["1 2 3 4 5 6 7 8 9", *(str(i) for i in range(10, 26))])
            out.extend(text for text, _ in lines)
            out.extend([doc.footer, str(n + 1)])
        elif doc.family == "federal":
            out.append(f"{doc.filing} Page {n} of {total} PageID #: {4000 + n}")
            out.append(f"{'':>60}{n}\n")
            for i, (text, starts) in enumerate(lines, start=1):
                clock = f"{_clock(doc, n, i)}   " if page["kind"] == "body" else " " * 11
                lead = " " * 10 if starts and page["kind"] == "body" else ""
                out.append(f"{clock}{i:>2}   {lead}{text}\n" if numbered else f"{text}\n")
        else:
            block = [doc.header]
            for i, (text, _) in enumerate(lines, start=1):
                block.append(f"{i} {text}" if numbered else text)
            block += [str(n), doc.footer]
            out.append("\n".join(block) + "\f")
    sep = "\r" if doc.family == "bph2009" else "\n"
    return sep.join(out).rstrip("\f") + sep


def render_pdf(doc: FamilyDoc) -> bytes:
    pdf = FPDF(unit="pt", format="letter")
    pdf.set_auto_page_break(False)
    pdf.set_creator("anonreview synthetic generator")
    pdf.set_creation_date(dt.datetime(2020, 1, 1, tzinfo=dt.UTC))
    pages = _pages(doc)
    for page in pages:
        pdf.add_page()
        n, kind = page["number"], page["kind"]
        pdf.set_font("Courier", "", 10)
        if doc.filing:
            pdf.text(40, 24, f"{doc.filing} Page {n} of {len(pages)} PageID #: {4000 + n}")
        if doc.header:
            pdf.text((PAGE_W - pdf.get_string_width(doc.header)) / 2, 40, doc.header)
        numbered = kind == "body" or (doc.numbered_cover and kind == "cover")
        size = 8 if kind == "index" else 12
        for i, (text, starts) in enumerate(page["lines"], start=1):
            top = TOP + (i - 1) * (PITCH if size == 12 else 16)
            if numbered:
                pdf.set_font("Helvetica", "", 11)
                label = str(i)
                pdf.text(NUM_X - pdf.get_string_width(label), top + 9, label)
                if doc.clock and kind == "body":
                    pdf.set_font("Helvetica", "", 9)
                    pdf.text(12, top + 9, _clock(doc, n, i))
            if kind == "cover":  # long caption lines: a smaller type from the margin
                pdf.set_font("Courier", "", 10)
                x = TEXT_X - 20
            else:
                pdf.set_font("Courier", "", size)
                x = INDENT_X if starts and kind == "body" else TEXT_X
            pdf.text(x, top + 9, text)
        pdf.set_font("Courier", "", 11)
        label = str(n)
        pdf.text((PAGE_W - pdf.get_string_width(label)) / 2, 740, label)
        if doc.footer:
            pdf.text((PAGE_W - pdf.get_string_width(doc.footer)) / 2, 758, doc.footer)
    return bytes(pdf.output())


def render_scan(
    pdf_bytes: bytes, *, dpi: int = 200, seed: int = 0, pages: int | None = None
) -> bytes:
    """An image-only PDF of ``pdf_bytes``' pages as a scanner would give them: grey,
    turned by less than a degree, slightly blurred, with speckles. ``pages``: only the
    first n pages."""
    import pypdfium2
    from PIL import Image, ImageFilter

    rng = random.Random(seed)
    source = pypdfium2.PdfDocument(pdf_bytes)
    out = FPDF(unit="pt", format="letter")
    out.set_auto_page_break(False)
    out.set_creation_date(dt.datetime(2020, 1, 1, tzinfo=dt.UTC))
    try:
        count = len(source) if pages is None else min(pages, len(source))
        for i in range(count):
            page = source[i]
            image = page.render(scale=dpi / 72, grayscale=True).to_pil().convert("L")
            page.close()
            image = image.rotate(rng.uniform(-0.4, 0.4), fillcolor=255, resample=Image.BICUBIC)
            image = image.filter(ImageFilter.GaussianBlur(0.5))
            pixels = image.load()
            w, h = image.size
            for _ in range(w * h // 20000):  # dust: lone grey specks
                x, y = rng.randrange(w), rng.randrange(h)
                pixels[x, y] = rng.choice((60, 120, 180))
            buf = io.BytesIO()
            image.save(buf, format="PNG")
            buf.seek(0)
            out.add_page()
            out.image(buf, x=0, y=0, w=PAGE_W, h=PAGE_H)
    finally:
        source.close()
    return bytes(out.output())
