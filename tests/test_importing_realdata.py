"""The importer on the real transcript in ../shared/realdata (skipped when absent).

No name or text from the file is written here: every expected value is computed at
run time from the file itself (its name, its pdfplumber text) or is a format check.
"""

import functools
import io
import re

import pdfplumber
import pytest

from engine.importing import parse_pdf

pytestmark = pytest.mark.realdata

LINE_NUMBER_START = re.compile(r"(?m)^(?:[1-9]|1\d|2[0-5]) ")
SPELLED = re.compile(r"\b[A-Z](?:-[A-Z]){2,}\b")


@functools.cache
def _parsed(path):
    return parse_pdf(path.read_bytes())


@functools.cache
def _raw_pages(path) -> list[str]:
    with pdfplumber.open(io.BytesIO(path.read_bytes())) as pdf:
        return [page.extract_text() or "" for page in pdf.pages]


def test_real_cover_metadata_matches_the_file_name_and_formats(realdata_pdf):
    meta = _parsed(realdata_pdf).metadata
    # The file name is "<Surname>-<CDCR>-<YYYY-MM-DD>.pdf".
    surname, cdcr, date = re.match(
        r"^([^-]+)-([A-Z]{1,2}\d{4,6})-(\d{4}-\d{2}-\d{2})$", realdata_pdf.stem
    ).groups()
    assert meta["cdcr_number"] == cdcr
    assert meta["hearing_date"] == date
    assert re.fullmatch(r"\d{2}:\d{2}", meta["hearing_time"])
    assert meta["incarcerated_person"].split()[-1] == surname
    assert re.fullmatch(r"[A-Z][a-z]+(?: [A-Z][a-z]+)*, California", meta["location"])
    assert meta["institution"] and meta["institution"].endswith("Prison")
    assert meta["transcriber"] and len(meta["transcriber"].split()) >= 2
    roles = [p["role"] for p in meta["participants"]]
    assert roles.count("Presiding Commissioner") == 1 and roles.count("Deputy Commissioner") == 1
    assert any(r.startswith("Attorney") for r in roles) and "Incarcerated Person" in roles
    assert all(p["name"] and p["name"].upper() != "UNIDENTIFIED" for p in meta["participants"])
    # Every name on the cover is printed there (in capitals).
    cover = _raw_pages(realdata_pdf)[0]
    for p in meta["participants"]:
        assert p["name"].upper() in cover


def test_real_text_has_no_cover_index_headers_page_or_line_numbers(realdata_pdf):
    parsed = _parsed(realdata_pdf)
    pages = _raw_pages(realdata_pdf)
    company = pages[2].strip().split("\n")[-1]  # the line printed at the foot of every page
    assert sum(company in p for p in pages) >= len(pages) - 1
    assert company not in parsed.text
    assert not LINE_NUMBER_START.search(parsed.text)
    assert "PANEL PRESENT" not in parsed.text and "\nINDEX\n" not in parsed.text
    assert not re.search(r"(?m)^\d+$", parsed.text)  # no bare page numbers
    first_body_line = re.sub(r"^\d+\s+", "", pages[2].split("\n")[1])
    assert parsed.text.startswith(first_body_line)


def test_real_utterances_have_speakers_roles_and_a_marked_certification(realdata_pdf):
    parsed = _parsed(realdata_pdf)
    spoken = [u for u in parsed.utterances if u.speaker]
    assert len(spoken) >= 50
    assert all(u.role for u in spoken)
    assert {u.role for u in spoken} >= {
        "Presiding Commissioner",
        "Deputy Commissioner",
        "Incarcerated Person",
    }
    for u in parsed.utterances:
        line = parsed.text[u.start : u.end]
        assert "\n" not in line and (not u.speaker or line.startswith(u.speaker + ": "))
    assert parsed.utterances[-1].section == "certification"
    assert parsed.utterances[0].section == "body" and parsed.utterances[0].page >= 3


def test_real_spelled_names_split_by_line_numbers_are_whole(realdata_pdf):
    parsed = _parsed(realdata_pdf)
    raw = "\n".join(_raw_pages(realdata_pdf))
    splits = re.findall(r"\b((?:[A-Z]-)+)\n\d{1,2} ((?:[A-Z]-)*[A-Z])\b", raw)
    assert splits, "the real file splits a spelled name across a line number"
    for head, tail in splits:
        assert head + tail in parsed.text
    surname = parsed.metadata["incarcerated_person"].split()[-1].upper()
    assert "-".join(surname) in SPELLED.findall(parsed.text)
    assert not re.search(r"\b[A-Z]-\s+[A-Z]-[A-Z]", parsed.text)


@pytest.mark.slow
@pytest.mark.skipif(
    __import__("shutil").which("tesseract") is None, reason="tesseract-ocr is not installed"
)
def test_real_scan_gives_the_same_cover_metadata_and_95_percent_of_the_words(
    realdata_pdf, realdata_scanned_pdf
):
    from collections import Counter

    text_layer = _parsed(realdata_pdf)
    scanned = _parsed(realdata_scanned_pdf)
    for key, value in text_layer.metadata.items():
        assert scanned.metadata[key] == value, key
    want = Counter(re.findall(r"\w+", text_layer.text.lower()))
    got = Counter(re.findall(r"\w+", scanned.text.lower()))
    recall = sum((want & got).values()) / sum(want.values())
    assert recall >= 0.95, recall
    assert len(scanned.utterances) == len(text_layer.utterances)
    assert scanned.metadata["ocr"]["pages"] == text_layer.page_count
