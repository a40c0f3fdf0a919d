"""engine.detectors.extent: a candidate's extent, without what opens a line of testimony."""

import pytest

from engine.detectors.base import Detection
from engine.detectors.extent import trim

TEXT = (
    "Q. Where did you work?\n"
    "BRIANNA BARNES: Water example fish need discover way.\n"
    "A. Roofing supplies, mostly.\n"
    "THE COURT: Fresno County Jail is full.\n"
    "Acme Roofing Co. called."
)


def _trimmed(words: str, label: str = "ORGANIZATION") -> str | None:
    start = TEXT.index(words)
    d = trim(TEXT, Detection(start, start + len(words), label, 0.85, "spacy", "ORG"))
    return TEXT[d.start : d.end] if d else None


@pytest.mark.parametrize(
    ("found", "kept"),
    [
        ("BRIANNA BARNES: Water", "Water"),  # a speaker label in capitals
        ("THE COURT: Fresno County Jail", "Fresno County Jail"),
        ("A. Roofing", "Roofing"),  # an answer's mark
        ("Acme Roofing Co", "Acme Roofing Co"),  # a line's own first words stay
    ],
)
def test_what_opens_a_line_of_testimony_is_no_part_of_a_body_or_place(found, kept):
    assert _trimmed(found) == kept


def test_a_person_find_keeps_the_label_its_name_parts_are_cut_from():
    assert _trimmed("BRIANNA BARNES: Water", "PERSON") == "BRIANNA BARNES: Water"


def test_a_speaker_label_alone_is_left_for_the_table_to_decide():
    assert _trimmed("BRIANNA BARNES") == "BRIANNA BARNES"
    assert _trimmed("BRIANNA BARNES:") == "BRIANNA BARNES"
