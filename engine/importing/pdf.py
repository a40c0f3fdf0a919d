"""PDF → pages of text lines. Django-free.

pypdfium2 reads the text layer (``pdfium.pdfium_pages``, the fast path: the same lines
as pdfplumber, about six times faster). When it cannot (damaged, encrypted, no text
layer), pdfplumber reads the file and rejects what cannot be imported with a message a
person understands: not a PDF, encrypted, corrupt, or without a text layer (scanned:
``files.parse_pdf`` then OCRs it).
"""

import io
import logging
from collections.abc import Callable

from engine.importing.errors import CorruptPdf, EmptyFile, EncryptedPdf, NeedsOcr, NotSupported
from engine.importing.layout import RawLine
from engine.progress import Cancelled

logger = logging.getLogger(__name__)

PDF_MAGIC = b"%PDF-"


def looks_like_pdf(data: bytes) -> bool:
    """PDF readers accept the header anywhere in the first 1024 bytes."""
    return PDF_MAGIC in data[:1024]


def _is_encryption_error(exc: BaseException) -> bool:
    from pdfminer.pdfdocument import PDFEncryptionError, PDFPasswordIncorrect

    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, PDFPasswordIncorrect | PDFEncryptionError):
            return True
        if "password" in str(exc).lower() or "encrypt" in type(exc).__name__.lower():
            return True
        exc = (
            exc.__cause__
            or exc.__context__
            or (exc.args[0] if exc.args and isinstance(exc.args[0], BaseException) else None)
        )
    return False


def _page_lines(page) -> list[RawLine]:
    """The page's text lines with layout hints: where the text starts (after a
    margin line number), whether the line is centred, whether it is all bold."""
    out: list[RawLine] = []
    center = float(page.width) / 2
    for line in page.extract_text_lines(return_chars=True, strip=True):
        glyphs = sorted((c for c in line["chars"] if c["text"].strip()), key=lambda c: c["x0"])
        text = line["text"]
        if not glyphs:
            continue
        # Skip a leading margin number: one or two digits followed by a wide gap (the
        # text may start with digits too: "14" + "8:20 AM").
        body = glyphs
        for i in (1, 2):
            if i >= len(glyphs) or not glyphs[i - 1]["text"].isdigit():
                break
            if glyphs[i]["x0"] - glyphs[i - 1]["x1"] > 10:
                body = glyphs[i:]
                break
        x0, x1 = float(body[0]["x0"]), float(body[-1]["x1"])
        letters = [c for c in body if c["text"].isalpha()]
        bold = bool(letters) and all("bold" in (c.get("fontname") or "").lower() for c in letters)
        centered = abs((x0 + x1) / 2 - center) < 12
        out.append(RawLine(text=text, x0=x0, x1=x1, centered=centered, bold=bold))
    return out


def pdf_pages(
    data: bytes, *, on_page: Callable[[int, int], None] | None = None
) -> list[list[RawLine]]:
    """Return the text lines of every page (pdfplumber reading order) with layout hints.

    ``on_page(done, total)`` is called after each page (for progress bars).
    """
    if not data:
        raise EmptyFile("The file is empty.")
    if not looks_like_pdf(data):
        raise NotSupported("This is not a PDF (the file does not start with %PDF).")
    from engine.importing.pdfium import pdfium_pages

    fast = pdfium_pages(data, on_page=on_page)
    if fast is not None:
        return fast
    return plumber_pages(data, on_page=on_page)


def plumber_pages(
    data: bytes, *, on_page: Callable[[int, int], None] | None = None
) -> list[list[RawLine]]:
    """``pdf_pages`` with pdfplumber (pdfminer): slower; names every problem."""
    import pdfplumber

    pages: list[list[RawLine]] = []
    chars_per_page: list[int] = []
    try:
        with pdfplumber.open(io.BytesIO(data)) as pdf:
            total = len(pdf.pages)
            if total == 0:
                raise CorruptPdf("The PDF has no pages; it is damaged or incomplete.")
            for number, page in enumerate(pdf.pages, start=1):
                chars_per_page.append(len(page.chars))
                pages.append(_page_lines(page))
                page.close()  # free the parsed objects of this page
                if on_page:
                    on_page(number, total)
    except (CorruptPdf, NeedsOcr, Cancelled):
        raise
    except Exception as exc:  # pdfminer raises many types for damaged input
        if _is_encryption_error(exc):
            raise EncryptedPdf(
                "The PDF is encrypted (password protected). Save an unprotected copy and import that."
            ) from exc
        logger.info("pdf could not be read: %s", type(exc).__name__)
        raise CorruptPdf(
            f"The PDF is damaged and cannot be read ({type(exc).__name__}). "
            "Re-export it from the original document."
        ) from exc
    empty_pages = sum(1 for n in chars_per_page if n == 0)
    if sum(chars_per_page) == 0:
        raise NeedsOcr(
            "The PDF has no text layer (it is a scan or images only); it needs OCR before import."
        )
    if empty_pages * 2 > len(chars_per_page):
        raise NeedsOcr(
            f"{empty_pages} of {len(chars_per_page)} pages have no text layer (scanned pages); "
            "the PDF needs OCR before import."
        )
    return pages
