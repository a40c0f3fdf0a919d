"""Nothing is lost at import: the caption is the cover by what it holds, a text without
page breaks keeps every utterance after its caption, and an import that leaves out more
than a caption's worth says so (engine/importing/left_out.py, layout.body_opener)."""

import io
import json

import pytest
from django.core.management import call_command
from django.urls import reverse

from engine.importing import parse_pdf, parse_text
from engine.importing.layout import Page, RawLine
from engine.importing.left_out import CAPTION_WORDS, left_out_notice
from engine.synthetic import generate_hearing, render_pdf_bytes
from engine.synthetic.families import FAMILIES, family_document
from engine.synthetic.family_render import render_pdf, render_text
from transcripts.services.importing import transcript_import

CAPTION = """IN THE UNITED STATES DISTRICT COURT
FOR THE EASTERN DISTRICT OF TEXAS
JOHN DOE, )
Plaintiff, ) Case No. 4:19-cv-01234
v. )
ACME LOGISTICS, INC., )
Defendant. )
DEPOSITION OF JANE ROE
March 3, 2019
APPEARANCES:
FOR THE PLAINTIFF:
MR. PAUL SMITH
FOR THE DEFENDANT:
MS. ANN LEE
REPORTED BY: KIM POE, RPR
"""


def _examination(mark: str = "") -> str:
    lines = [
        "JANE ROE, having been first duly sworn, testified as follows:",
        "EXAMINATION",
        "BY MR. SMITH:",
    ]
    for i in range(7):
        lines += [f"Q{mark} Where were you on the night of the {i + 2}th?", f"A{mark} At home."]
    lines += [
        f"Q{mark} Did you see him?",
        "MS. LEE: Objection. Form.",
        f"A{mark} No.",
        "(Whereupon, the deposition concluded at 11:42 a.m.)",
    ]
    return "\n".join(lines)


def _left_out(notices: list[str]) -> list[str]:
    return [n for n in notices if "read as the cover page" in n]


@pytest.mark.parametrize("mark", ["", ".", ":"])
def test_a_deposition_in_one_text_keeps_its_examination_when_the_first_turn_comes_late(mark):
    # Before: the first speaker turn (the objection) opened the body, so the swearing-in
    # and every question and answer before it were read as the cover: 3 utterances of 21.
    parsed = parse_text(CAPTION + _examination(mark))
    lines = parsed.text.split("\n")
    assert len(parsed.utterances) == len(lines) == 21
    assert lines[:4] == [
        "JANE ROE, having been first duly sworn, testified as follows:",
        "EXAMINATION",
        "BY MR. SMITH:",
        "MR. SMITH: Where were you on the night of the 2th?",
    ]
    assert lines[-3:-1] == ["MS. LEE: Objection. Form.", "JANE ROE: No."]
    assert parsed.metadata["case_number"] == "4:19-cv-01234"
    assert not _left_out(parsed.notices)


def test_a_caption_before_testimony_without_any_speaker_turn_is_the_cover_not_text():
    # Bare Q/A lines and no speaker turn: the caption was imported as utterances before.
    text = CAPTION + _examination().replace("MS. LEE: Objection. Form.\n", "")
    parsed = parse_text(text)
    assert parsed.layout["cover_pages"] == [1]
    assert parsed.text.startswith("JANE ROE, having been first duly sworn")
    assert "IN THE UNITED STATES" not in parsed.text and "APPEARANCES" not in parsed.text
    assert parsed.metadata["court"].startswith("United States District Court")


@pytest.mark.parametrize("seed", [2, 11])
def test_a_generated_deposition_saved_without_form_feeds_imports_as_its_gold(seed):
    doc = family_document(seed, "deposition", words=900, videotaped=False)
    text = render_text(doc, form_feeds=False)
    assert "\f" not in text and doc.footer not in text
    parsed = parse_text(text.encode())
    assert parsed.text == doc.gold.text
    assert parsed.metadata["case_number"] == doc.metadata["case_number"]
    assert parsed.notices == []


@pytest.mark.parametrize("family", [f for f in FAMILIES if f != "bph"])
def test_every_family_saved_without_form_feeds_imports_as_its_gold(family):
    doc = family_document(5, family, words=700)
    assert parse_text(render_text(doc, form_feeds=False).encode()).text == doc.gold.text


@pytest.mark.parametrize("family", ["appellate", "grand_jury", "deposition"])
def test_a_text_export_whose_form_feeds_were_lost_imports_as_with_them(family):
    # Its pages are found by their page numbers; a page left with no line after its
    # running header and footer went out made the line-number reader fail (IndexError).
    doc = family_document(3, family, words=700, videotaped=False)
    parsed = parse_text(render_text(doc).replace("\f", "\n").encode())
    assert parsed.text == doc.gold.text


def _pages_of(*pages: tuple[str, list[str]]) -> list[Page]:
    return [
        Page(number=n, rows=[RawLine(text=line) for line in lines], kind=kind)
        for n, (kind, lines) in enumerate(pages, start=1)
    ]


def test_a_cover_holding_questions_and_answers_is_noticed_and_a_caption_is_not():
    caption = CAPTION.strip().split("\n")
    testimony = ["Q. Where were you?", "A. At home.", "Q. Alone?", "A. Yes."]
    body = ["MR. SMITH: Thank you."]
    assert left_out_notice(_pages_of(("cover", caption), ("body", body))) is None
    notice = left_out_notice(_pages_of(("cover", caption + testimony), ("body", body)))
    assert notice and "4 of them read as testimony" in notice
    assert notice.startswith(f"{len(caption) + 4} lines (")


def test_an_import_whose_cover_runs_over_a_captions_worth_says_so_in_counts_only():
    parsed = parse_text(_swallowed_text())
    (notice,) = _left_out(parsed.notices)
    assert f"at most {CAPTION_WORDS} words" in notice
    assert "Smith" not in notice and "Roe" not in notice  # counts, no text of the file


def _swallowed_text() -> str:
    """A caption, then a page of turns in mixed case (tags the layout does not read as
    turns), then numbered pages: the first two pages go to the cover."""
    said = (
        "Mr. Smith: Where were you on the evening of the fifth, after the shift ended?\n"
        "Ms. Roe: I drove home along the river road and stayed there with my sister."
    )
    numbered = "\n".join(
        f"{i} MR. SMITH: Did anyone else drive with you that night, or were you alone?"
        if i % 2
        else f"{i} MS. ROE: Nobody else was with me that night, I was alone the whole time."
        for i in range(1, 26)
    )
    return "\f".join([CAPTION, "\n".join([said] * 24), numbered, numbered])


def test_no_generated_family_is_noticed_as_left_out():
    for family in FAMILIES[1:]:
        doc = family_document(1, family, words=700)
        assert not _left_out(parse_text(render_text(doc).encode()).notices), family
        assert not _left_out(parse_pdf(render_pdf(doc)).notices), family
    hearing = generate_hearing(1, words=1500)
    assert not _left_out(parse_pdf(render_pdf_bytes(hearing)).notices)


def test_the_left_out_notice_is_on_the_transcript_page_and_in_dry_run_json(client, lead, tmp_path):
    data = _swallowed_text().encode()
    path = tmp_path / "deposition.txt"
    path.write_bytes(data)
    out = io.StringIO()
    call_command("import_transcripts", str(path), "--dry-run", "--json", stdout=out)
    (result,) = json.loads(out.getvalue())["files"]
    (notice,) = _left_out(result["notices"])

    transcript = transcript_import(name="deposition.txt", data=data, user=lead, annotate=False)
    assert transcript.metadata["import_notices"] == result["notices"]
    client.force_login(lead)
    page = client.get(reverse("annotations:detail", args=[transcript.pk])).content.decode()
    assert 'id="import-notices"' in page and notice in page
