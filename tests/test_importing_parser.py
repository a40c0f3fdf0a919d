"""The Django-free importer on synthetic hearings: PDF round trip, text input,
line numbers read at either end of the line, index and cover found by content."""

import functools
import re

import pdfplumber
import pytest

from engine.importing import parse, parse_file, parse_pdf, parse_text
from engine.importing.cover import parse_cover
from engine.synthetic import generate_hearing, render_pdf_bytes


@functools.cache
def hearing_and_pdf(seed: int, words: int = 1500):
    hearing = generate_hearing(seed, words=words)
    return hearing, render_pdf_bytes(hearing)


@functools.cache
def parsed_pdf(seed: int):
    return parse_pdf(hearing_and_pdf(seed)[1])


@functools.cache
def pdf_page_texts(data: bytes) -> list[str]:
    import io

    with pdfplumber.open(io.BytesIO(data)) as pdf:
        return [page.extract_text() or "" for page in pdf.pages]


@pytest.mark.parametrize("seed", [3, 8])
def test_generated_pdf_round_trips_to_the_generators_canonical_text(seed):
    hearing, _ = hearing_and_pdf(seed)
    parsed = parsed_pdf(seed)
    assert parsed.text == hearing.text
    assert parsed.metadata == hearing.metadata
    assert parsed.source_format == "pdf"


def test_generated_pdf_utterances_match_the_generator_line_by_line():
    hearing, _ = hearing_and_pdf(3)
    parsed = parsed_pdf(3)
    got = [(u.speaker, u.role, u.page, u.section, u.start, u.end) for u in parsed.utterances]
    want = [(u.speaker, u.role, u.page, u.section, u.start, u.end) for u in hearing.utterances]
    assert got == want
    for u in parsed.utterances:
        line = parsed.text[u.start : u.end]
        assert "\n" not in line
        if u.speaker:
            assert line.startswith(u.speaker + ":")


def test_certification_page_is_kept_and_marked():
    parsed = parsed_pdf(3)
    sections = [u.section for u in parsed.utterances]
    assert sections[-1] == "certification"
    first_cert = sections.index("certification")
    assert set(sections[first_cert:]) == {"certification"}
    assert "CERTIFICATE" in parsed.text[parsed.utterances[first_cert].start :]


def test_cover_index_page_numbers_company_and_line_numbers_are_removed():
    _, data = hearing_and_pdf(8)
    parsed = parsed_pdf(8)
    pages = pdf_page_texts(data)
    company = pages[-1].strip().split("\n")[-1]
    assert company and company not in parsed.text
    assert "PANEL PRESENT" not in parsed.text and "INDEX" not in parsed.text.split("\n")
    assert not re.search(r"(?m)^\d{1,2} ", parsed.text)  # no margin numbers at line starts
    assert not re.search(r"\.{4,}", parsed.text)  # no index leaders


def test_spelled_name_split_across_lines_is_rejoined():
    # The generator always splits one spelled name at a line end ("Q-U-" / "I-L-L").
    _, data = hearing_and_pdf(3)
    raw = "\n".join(pdf_page_texts(data))
    split = re.search(r"\b((?:[A-Z]-)+)\n\d+ ([A-Z](?:-[A-Z])*)\b", raw)
    assert split, "expected a spelled name split across lines in the generated PDF"
    whole = split.group(1) + split.group(2)
    text = parsed_pdf(3).text
    assert whole in text
    assert split.group(1) + " " + split.group(2) not in text


def test_text_transcript_of_speaker_lines_imports():
    text = (
        "PRESIDING COMMISSIONER ALDEN: Good morning.\n"
        "INCARCERATED PERSON QUILL: Good   morning,\n"
        "sir. My name is Calvin Quill, Q-U-\n"
        "I-L-L.\n"
        "(Off the record.)\n"
        "ATTORNEY VANCE: Thank you.\n"
    )
    parsed = parse_text(text.encode())
    assert parsed.text == (
        "PRESIDING COMMISSIONER ALDEN: Good morning.\n"
        "INCARCERATED PERSON QUILL: Good morning, sir. My name is Calvin Quill, Q-U-I-L-L.\n"
        "(Off the record.)\n"
        "ATTORNEY VANCE: Thank you."
    )
    assert [u.speaker for u in parsed.utterances] == [
        "PRESIDING COMMISSIONER ALDEN",
        "INCARCERATED PERSON QUILL",
        "",
        "ATTORNEY VANCE",
    ]
    assert [u.role for u in parsed.utterances][:2] == [
        "Presiding Commissioner",
        "Incarcerated Person",
    ]
    assert parsed.source_format == "txt" and parsed.metadata["participants"] == []


def _numbers_to_line_ends(page_text: str, *, glue: bool) -> str:
    out = []
    for k, line in enumerate(page_text.split("\n")):
        m = re.match(r"^(\d{1,2}) (.*)$", line)
        if k == 0 or not m:
            out.append(line)
        else:
            sep = "" if glue and m.group(2).endswith("-") else " "
            out.append(f"{m.group(2)}{sep}{m.group(1)}")
    return "\n".join(out)


@pytest.mark.parametrize("glue", [False, True])
def test_line_numbers_at_the_end_of_lines_are_removed_too(glue):
    hearing, data = hearing_and_pdf(3)
    pages = pdf_page_texts(data)
    moved = "\f".join(_numbers_to_line_ends(p, glue=glue) for p in pages)
    assert re.search(r"\S \d{1,2}\n", moved)  # the numbers really are at the ends now
    parsed = parse_text(moved)
    assert parsed.text == hearing.text
    assert parsed.metadata == hearing.metadata


def test_index_page_is_recognised_by_content_not_position():
    hearing, data = hearing_and_pdf(3)
    pages = pdf_page_texts(data)
    cover, index, body = pages[0], pages[1], pages[2:]
    reordered = "\f".join([index, cover, *body])  # the index first
    parsed = parse_text(reordered)
    assert parsed.text == hearing.text
    assert parsed.metadata == hearing.metadata


def test_parse_accepts_a_path(tmp_path):
    hearing, data = hearing_and_pdf(3)
    path = tmp_path / "hearing.pdf"
    path.write_bytes(data)
    assert parse(path).text == hearing.text


def test_cover_lines_give_the_design_metadata_keys():
    meta = parse_cover(
        [
            "In the matter of the Life Term CDCR Number: V12345",
            "Parole Consideration Hearing of:",
            "CALVIN QUILL",
            "MULE CREEK STATE PRISON",
            "IONE, CALIFORNIA",
            "MARCH 5, 2024",
            "1:15 PM",
            "PANEL PRESENT:",
            "DORA ALDEN, Presiding Commissioner",
            "OTHERS PRESENT:",
            "UNIDENTIFIED, Correctional Officers",
            "Transcribed by:",
            "PAT O'BRIEN",
        ]
    )
    assert meta == {
        "incarcerated_person": "Calvin Quill",
        "cdcr_number": "V12345",
        "institution": "Mule Creek State Prison",
        "location": "Ione, California",
        "hearing_date": "2024-03-05",
        "hearing_time": "13:15",
        "participants": [{"name": "Dora Alden", "role": "Presiding Commissioner"}],
        "transcriber": "Pat O'Brien",
    }


def test_repeated_lines_are_headers_only_when_not_numbered_text():
    page = (
        "{n}\n1 INCARCERATED PERSON QUILL: Yes, sir.\n"
        "2 PRESIDING COMMISSIONER ALDEN: Next {n}.\n3 more words here\nAcme Transcription"
    )
    parsed = parse_text("\f".join(page.format(n=n) for n in range(3, 7)))
    assert parsed.text.count("INCARCERATED PERSON QUILL: Yes, sir.") == 4
    assert (
        "Acme" not in parsed.text
        and "PRESIDING COMMISSIONER ALDEN: Next 6. more words here" in parsed.text
    )


# --- Text without page marks is cut into pages (the review loads pages) -----


def test_text_without_page_marks_is_cut_into_pages_of_25_lines():
    from engine.importing.parse import SHEET_LINES

    text = "".join(f"PRESIDING COMMISSIONER: Line {i} of the hearing.\n" for i in range(60))
    parsed = parse_file("long.txt", text.encode())
    assert [u.page for u in parsed.utterances[::SHEET_LINES]] == [1, 2, 3]
    assert parsed.page_count == 3 and parsed.layout["lines_per_page_cut"] == SHEET_LINES
    short = parse_file("short.txt", b"PRESIDING COMMISSIONER: Hello.\nATTORNEY: Hi.\n")
    assert short.page_count == 1 and "lines_per_page_cut" not in short.layout


def test_a_huge_text_without_page_marks_has_at_most_a_thousand_pages():
    from engine.importing.parse import MAX_SHEETS

    text = "".join(f"This is sentence number {i} of the statement.\n" for i in range(60000))
    parsed = parse_file("huge.txt", text.encode())
    assert parsed.page_count == MAX_SHEETS
    assert parsed.utterances[-1].page == MAX_SHEETS and parsed.utterances[59].page == 1


def test_text_split_by_form_feeds_keeps_its_own_pages():
    pages = "\f".join(
        "".join(f"ATTORNEY: Page {p} line {i}.\n" for i in range(40)) for p in range(1, 3)
    )
    parsed = parse_file("paged.txt", pages.encode())
    assert parsed.page_count == 2 and {u.page for u in parsed.utterances} == {1, 2}
