"""A file → ``ParsedTranscript``, by its content: PDFs by their signature (a scan without
a text layer read by OCR), documents and captions by their suffix, anything else as text
(``parse_file``, ``parse_pdf``). Django-free.

The top of the import: it reads every format module; none of them imports it.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.importing.captions import CAPTION_SUFFIXES, parse_captions
from engine.importing.documents import DOCUMENT_SUFFIXES, parse_document
from engine.importing.errors import EmptyFile, NeedsOcr, NotSupported
from engine.importing.filing import number_as_filed, strip_rows
from engine.importing.parse import ParsedTranscript, parse_pages
from engine.importing.pdf import looks_like_pdf, pdf_pages
from engine.importing.sources import UNSUPPORTED, decode_text
from engine.importing.text import clean_text
from engine.importing.textfile import parse_text


def parse_pdf(
    data: bytes,
    *,
    on_page: Callable[[int, int], None] | None = None,
    ocr_max_pages: int | None = None,
) -> ParsedTranscript:
    """Parse a hearing transcript PDF (bytes); a scan without a text layer is OCR'd, when
    it has at most ``ocr_max_pages`` pages (``ocr.ocr_pdf``)."""
    try:
        pages = pdf_pages(data, on_page=on_page)
        numbers = strip_rows(pages)  # filing stamps, wherever a page prints them
        return number_as_filed(parse_pages(pages, source_format="pdf"), numbers)
    except NeedsOcr:
        from engine.importing.ocr import ocr_available, parse_scanned_pdf

        if not ocr_available():
            raise
        return parse_scanned_pdf(data, on_page=on_page, max_pages=ocr_max_pages)


def parse_file(
    name: str,
    data: bytes,
    *,
    on_page: Callable[[int, int], None] | None = None,
    ocr_max_pages: int | None = None,
) -> ParsedTranscript:
    """Parse by content: PDFs by their signature, otherwise text (``.txt`` or unknown);
    ``ocr_max_pages``: the most pages of a scan read by OCR (``ocr.ocr_pdf``)."""
    if not data:
        raise EmptyFile("The file is empty.")
    lower = name.lower()
    if looks_like_pdf(data):
        return parse_pdf(data, on_page=on_page, ocr_max_pages=ocr_max_pages)
    if lower.endswith(".pdf"):
        raise NotSupported("This is not a PDF (the file does not start with %PDF).")
    if lower.endswith(DOCUMENT_SUFFIXES):  # .docx, .rtf, .md, .rst: engine.importing.documents
        return parse_document(lower, data)
    if lower.endswith(CAPTION_SUFFIXES):  # .vtt, .srt: engine.importing.captions
        return parse_captions(clean_text(decode_text(data)[0]), lower.rsplit(".", 1)[-1])
    if not lower.endswith((".txt", ".text")) and "." in lower.rsplit("/", 1)[-1]:
        raise NotSupported(UNSUPPORTED)
    return parse_text(data)
