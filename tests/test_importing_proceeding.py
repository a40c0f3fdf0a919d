"""proceeding_kind: the kind of proceeding from the cover or the first headings (made-up
covers and the generator's families)."""

import pytest

from engine.importing import parse_pdf, parse_text
from engine.importing.proceeding import proceeding_kind
from engine.synthetic import generate_hearing, render_pdf_bytes
from engine.synthetic.families import FAMILIES, family_document
from engine.synthetic.family_render import render_text


@pytest.mark.parametrize(
    ("cover", "kind"),
    [
        (
            ["IN RE: SPECIAL GRAND JURY", "TRANSCRIPT OF PROCEEDINGS", "HEARING ROOM 4"],
            "grand jury",
        ),
        (["VIDEOTAPED DEPOSITION OF SAM POE", "taken at the offices of"], "deposition"),
        (["JURY TRIAL - DAY 1", "JURY SELECTION"], "jury selection"),
        (["IN THE COURT OF APPEALS", "ORAL ARGUMENT"], "appeal"),
        (["TRANSCRIPT OF JURY TRIAL", "VOLUME 3"], "trial"),
        (["SUBSEQUENT PAROLE CONSIDERATION HEARING", "BOARD OF PAROLE HEARINGS"], "hearing"),
        (["IN THE DISTRICT COURT", "TRANSCRIPT OF PROCEEDINGS"], None),
    ],
)
def test_the_most_specific_kind_on_the_cover_wins(cover, kind):
    assert proceeding_kind(cover, ["THE COURT: Good morning."]) == kind


def test_without_a_cover_a_heading_in_capitals_before_the_turns_names_the_kind():
    body = ["GRAND JURY PROCEEDINGS", "MS. DOE: Good morning, we are at the trial stage."]
    assert proceeding_kind([], body) == "grand jury"


def test_speech_does_not_name_the_kind():
    body = ["PROCEEDINGS", "THE COURT: This deposition will be read at the trial.", "MR. POE: Yes."]
    assert proceeding_kind([], body) is None
    assert proceeding_kind([], ["THE COURT: THIS IS A TRIAL."]) is None  # a turn in capitals


@pytest.mark.parametrize(
    ("family", "kind"),
    [
        ("bph2009", "hearing"),
        ("federal", "trial"),
        ("appellate", "appeal"),
        ("grand_jury", "grand jury"),
        ("deposition", "deposition"),
    ],
)
def test_each_generated_family_is_recognised(family, kind):
    assert family in FAMILIES
    parsed = parse_text(render_text(family_document(2, family, words=600)).encode())
    assert parsed.proceeding == kind and parsed.layout["proceeding"] == kind


def test_a_board_hearing_pdf_is_a_hearing():
    assert parse_pdf(render_pdf_bytes(generate_hearing(2, words=1000))).proceeding == "hearing"
