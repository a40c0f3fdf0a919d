"""The synthetic hearing PDF: real layout, opens with pdfplumber, carries the canonical text."""

import io
import re
from functools import cache

import pdfplumber
import pytest

from engine.synthetic import generate_hearing, render_pdf, render_pdf_bytes
from engine.synthetic.layout import LINES_PER_PAGE, MARGIN_X


@cache
def hearing_and_pdf(seed: int = 4, words: int = 3000):
    h = generate_hearing(seed, words=words)
    return h, render_pdf_bytes(h)


def printed_lines(page):
    """(x of the first text char, text without the margin number) for each printed line."""
    out = []
    for line in page.extract_text_lines(return_chars=True):
        if line["top"] < 70 or line["top"] > 740:  # page number / footer
            continue
        chars = [c for c in line["chars"] if c["x0"] > 75]  # drop margin line numbers
        if not chars:
            continue
        text = (
            re.sub(r"^\d{1,2} ", "", line["text"]) if chars is not line["chars"] else line["text"]
        )
        out.append((chars[0]["x0"], " ".join(text.split())))
    return out


def canonical_from_pdf(data: bytes) -> str:
    """The canonical-text rules of docs/synthetic.md applied to the PDF (an importer in brief)."""
    lines: list[str] = []
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        for page in pdf.pages[1:]:  # the cover goes to metadata
            rows = printed_lines(page)
            if rows and rows[0][1] == "INDEX":
                continue
            for x, text in rows:
                if abs(x - MARGIN_X) < 1 and lines:
                    lines[-1] += text if lines[-1].endswith("-") else " " + text
                else:
                    lines.append(text)
    return "\n".join(lines)


def test_pdf_opens_and_has_cover_index_body_and_certification_pages():
    h, data = hearing_and_pdf()
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        assert len(pdf.pages) == len(h.pages) + 2
        cover = pdf.pages[0].extract_text()
        assert "BOARD OF PAROLE HEARINGS" in cover
        assert "Parole Consideration Hearing of:" in cover
        assert h.metadata["incarcerated_person"].upper() in cover
        assert f"CDCR Number: {h.metadata['cdcr_number']}" in cover
        assert h.metadata["institution"].upper() in cover
        for p in h.metadata["participants"]:
            assert f"{p['name'].upper()}, {p['role']}" in cover
        assert h.metadata["transcriber"].upper() in cover
        assert "INDEX" in pdf.pages[1].extract_text()
        assert "CERTIFICATE AND DECLARATION OF TRANSCRIBER" in pdf.pages[-1].extract_text()


def test_body_pages_have_25_numbered_lines_a_page_number_and_the_company_footer():
    h, data = hearing_and_pdf()
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        for number in range(3, len(pdf.pages)):  # body pages (the last one is the certificate)
            page = pdf.pages[number - 1]
            numbers = [
                int(w["text"]) for w in page.extract_words() if w["x1"] < 75 and w["text"].isdigit()
            ]
            assert numbers == list(range(1, LINES_PER_PAGE + 1))
            words = page.extract_words()
            top = [w["text"] for w in words if w["top"] < 60]
            assert top == [str(number)]
            bottom = " ".join(w["text"] for w in words if w["top"] > 740)
            assert bottom == h.company


def test_speaker_tags_are_printed_in_bold_capitals():
    h, data = hearing_and_pdf()
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        page = pdf.pages[2]
        bold = "".join(c["text"] for c in page.chars if "Bold" in c["fontname"])
    first_speaker = next(u.speaker for u in h.utterances if u.speaker)
    assert f"{first_speaker}:" in bold


def test_pdf_read_by_the_layout_rules_gives_the_canonical_text():
    h, data = hearing_and_pdf()
    assert canonical_from_pdf(data) == h.text


def test_every_word_of_the_canonical_text_is_in_the_pdf():
    h, data = hearing_and_pdf(7, 2500)
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        pdf_text = " ".join(page.extract_text() for page in pdf.pages)
    pdf_words = set(pdf_text.split())
    for token in set(h.text.split()):
        if token in pdf_words:
            continue
        # A token split after a hyphen at a line end is printed in two parts.
        pieces = re.findall(r"[^-]+-?", token)
        assert all(p in pdf_text for p in pieces), token


def test_a_spelled_name_is_printed_across_two_lines():
    h, data = hearing_and_pdf()
    (start, end), *_ = h.hard_cases["spelled_name_split"]
    spelled = h.text[start:end]
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        lines = [t for page in pdf.pages for _, t in printed_lines(page)]
    assert any(
        line.endswith("-")
        and spelled.startswith(line.split(" ")[-1])
        and len(line.split(" ")[-1]) < len(spelled)
        for line in lines
    )


def test_render_pdf_writes_to_a_path(tmp_path):
    h, data = hearing_and_pdf()
    path = tmp_path / "h.pdf"
    render_pdf(h, path)
    assert path.read_bytes()[:5] == b"%PDF-"
    with pdfplumber.open(path) as pdf:
        assert len(pdf.pages) == len(h.pages) + 2


@pytest.mark.parametrize("seed", [0, 9])
def test_rendering_is_byte_for_byte_deterministic(seed):
    h = generate_hearing(seed, words=1500)
    assert render_pdf_bytes(h) == render_pdf_bytes(generate_hearing(seed, words=1500))


def spelled_name_split_across_pages(h) -> bool:
    return any(
        t0 <= s0 and s1 <= t1
        for t0, t1 in h.hard_cases["token_split_across_pages"]
        for s0, s1 in h.hard_cases["spelled_name"]
    )


def test_a_spelled_name_split_across_a_page_break_reads_back_whole():
    h = next(
        h
        for h in (generate_hearing(seed, words=2000) for seed in range(200))
        if spelled_name_split_across_pages(h)
    )
    data = render_pdf_bytes(h)
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        page_ends = [printed_lines(page)[-1][1] for page in pdf.pages[2:-1]]
    assert any(line.endswith("-") for line in page_ends)
    assert canonical_from_pdf(data) == h.text
