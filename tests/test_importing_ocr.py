"""OCR of scanned PDFs (Tesseract): line grouping, low-confidence ranges, a generated scan."""

import re
import shutil
from collections import Counter

import pytest

from engine.importing import parse_pdf
from engine.importing.ocr import OcrPage, Word, group_lines, low_confidence_ranges
from engine.importing.parse import ParsedUtterance
from engine.synthetic.families import family_document
from engine.synthetic.family_render import render_pdf, render_scan


def test_words_on_one_baseline_make_one_line_with_the_margin_number_skipped():
    words = [
        Word("3", 60, 66, 100, 110, 96),
        Word("THE", 130, 150, 101, 111, 95),
        Word("COURT:", 155, 195, 100, 110, 90),
        Word("Yes.", 200, 225, 99, 110, 40),
        Word("next", 94, 120, 125, 135, 93),
    ]
    lines = group_lines(words, 612)
    assert [line.text for line, _ in lines] == ["3 THE COURT: Yes.", "next"]
    assert lines[0][0].x0 == 130 and lines[1][0].x0 == 94


def test_low_confidence_words_become_ranges_in_their_pages_utterances():
    text = "THE COURT: Yes.\nMR. OKAFOR: Thank you."
    utterances = [
        ParsedUtterance(0, "THE COURT", "", 1, "body", 0, 15),
        ParsedUtterance(1, "MR. OKAFOR", "", 2, "body", 16, 38),
    ]
    pages = [OcrPage([], [], low=["Yes."]), OcrPage([], [], low=["Thank", "x"])]
    assert low_confidence_ranges(text, utterances, pages) == [[11, 14], [28, 33]]


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract-ocr is not installed")
def test_generated_scan_is_ocrd_to_the_same_turns_and_metadata():
    doc = family_document(6, "federal", words=250)
    pdf = render_pdf(doc)
    text_layer = parse_pdf(pdf)
    scanned = parse_pdf(render_scan(pdf, seed=6))
    assert "ocr" in scanned.metadata and "ocr" not in text_layer.metadata
    # the filing stamp at the top of every filed page is no text, read by OCR or not
    assert "PageID" not in text_layer.text and "PageID" not in scanned.text
    for key in ("court", "hearing_date", "hearing_time"):
        assert scanned.metadata[key] == text_layer.metadata[key]
    assert [u.speaker for u in scanned.utterances if u.speaker] == [
        u.speaker for u in text_layer.utterances if u.speaker
    ]
    want = Counter(re.findall(r"\w+", text_layer.text.lower()))
    got = Counter(re.findall(r"\w+", scanned.text.lower()))
    assert sum((want & got).values()) >= 0.95 * sum(want.values())
    report = scanned.metadata["ocr"]
    assert report["pages"] == text_layer.page_count and report["seconds_per_page"] > 0
    for start, end in report["low_confidence"]:
        assert 0 <= start < end <= len(scanned.text)
    assert any("read by OCR" in n for n in scanned.notices)


def test_ocr_failure_is_a_sentence_not_a_traceback(monkeypatch):
    from engine.importing import ocr
    from engine.importing.errors import NeedsOcr

    def boom(*args, **kwargs):
        raise OSError("tesseract cannot be started")

    monkeypatch.setattr(ocr, "ocr_available", lambda: True)
    monkeypatch.setattr(ocr.subprocess, "Popen", boom)
    scan = render_scan(render_pdf(family_document(2, "federal", words=100)), seed=2, pages=1)
    with pytest.raises(NeedsOcr, match="OCR of a scanned page failed"):
        parse_pdf(scan)


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract-ocr is not installed")
def test_a_giant_scanned_page_is_refused_with_its_size_in_words():
    # A 14,400-pt page told the user to check that tesseract is installed.
    import io

    import pypdfium2

    from engine.importing.errors import NeedsOcr

    pdf = pypdfium2.PdfDocument.new()
    pdf.new_page(14400, 14400)
    buf = io.BytesIO()
    pdf.save(buf)
    with pytest.raises(NeedsOcr) as refused:
        parse_pdf(buf.getvalue())
    assert "Page 1 is 200 × 200 inches, too large to read by OCR" in refused.value.message
    assert "installed" not in refused.value.message
