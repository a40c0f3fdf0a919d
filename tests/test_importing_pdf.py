"""The fast PDF reader (pypdfium2) gives the same lines and the same import as pdfplumber."""

import pytest

from engine.importing.parse import parse_pages
from engine.importing.pdf import pdf_pages, plumber_pages
from engine.importing.pdfium import pdfium_pages
from engine.synthetic import generate_hearing, render_pdf_bytes
from engine.synthetic.families import family_document
from engine.synthetic.family_render import render_pdf


def _pdfs():
    yield "bph", render_pdf_bytes(generate_hearing(21, words=2500))
    for family in ("bph2009", "federal", "appellate"):
        yield family, render_pdf(family_document(21, family, words=700))


@pytest.mark.parametrize(
    ("family", "data"), list(_pdfs()), ids=lambda v: v if isinstance(v, str) else ""
)
def test_pdfium_and_pdfplumber_import_the_same(family, data):
    fast, slow = pdfium_pages(data), plumber_pages(data)
    assert [[row.text for row in page] for page in fast] == [
        [row.text for row in page] for page in slow
    ]
    a = parse_pages(fast, source_format="pdf")
    b = parse_pages(slow, source_format="pdf")
    assert a.text == b.text and a.metadata == b.metadata
    assert [(u.speaker, u.page, u.section) for u in a.utterances] == [
        (u.speaker, u.page, u.section) for u in b.utterances
    ]


def test_hyphen_at_a_line_end_is_kept():
    hearing = generate_hearing(4, words=2500)
    lines = [row.text for page in pdfium_pages(render_pdf_bytes(hearing)) for row in page]
    assert any(line.endswith("-") for line in lines)


def test_unreadable_pdf_falls_back_to_pdfplumber_messages():
    assert pdfium_pages(b"%PDF-1.4\nnot really") is None
    with pytest.raises(Exception, match="damaged"):
        pdf_pages(b"%PDF-1.4\nnot really")
