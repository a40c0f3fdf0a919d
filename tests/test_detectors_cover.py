"""The cover-page detector: what the transcript's own metadata names, wherever it recurs."""

import pytest

from engine.detectors.base import Document
from engine.detectors.cover import CoverPageDetector, find_word

META = {
    "incarcerated_person": "Jonah Quill",
    "cdcr_number": "V12345",
    "institution": "Mule Creek State Prison",
    "location": "Ione, California",
    "participants": [{"name": "Tessa Alden", "role": "presiding_commissioner"}],
}


def found(text, meta=META):
    detections = CoverPageDetector().detect(Document(text, meta))
    return sorted((text[d.start : d.end], d.label) for d in detections)


def test_name_parts_are_found_in_speaker_tags_in_capitals_and_with_possessives():
    text = "PRESIDING COMMISSIONER ALDEN: Mr. Quill's file.\nINMATE QUILL: Yes. Jonah here."
    assert found(text) == [
        ("ALDEN", "PERSON"),
        ("Jonah", "PERSON"),
        ("QUILL", "PERSON"),
        ("Quill", "PERSON"),
    ]


def test_lower_case_occurrences_of_a_name_part_are_not_names():
    meta = {**META, "incarcerated_person": "Will Rose"}
    assert found("I will say the sun rose. Mr. Rose agreed.", meta) == [("Rose", "PERSON")]


def test_city_and_institution_are_found_in_header_capitals_too():
    text = "MULE CREEK STATE PRISON\nIONE, CALIFORNIA\nAt Mule Creek in Ione, number V12345."
    assert found(text) == [
        ("CALIFORNIA", "LOCATION"),
        ("IONE", "LOCATION"),
        ("Ione", "LOCATION"),
        ("MULE CREEK", "ORGANIZATION"),
        ("MULE CREEK STATE PRISON", "ORGANIZATION"),
        ("Mule Creek", "ORGANIZATION"),
        ("V12345", "CDCR_ID"),
    ]


def test_a_lower_case_place_word_is_not_the_place():
    meta = {**META, "location": "Ione, California"}
    assert found("ione is not a word here, but Ione is.", meta) == [("Ione", "LOCATION")]


@pytest.mark.parametrize(
    "word,ignore_case,capitalised,expected",
    [
        ("Lee", True, False, ["Lee", "LEE", "lee", "Lee"]),  # not Lee-x, -Lee, Lee'x
        ("Lee", False, False, ["Lee", "Lee"]),
        ("lee", True, True, ["Lee", "LEE", "Lee"]),
        ("Bo", True, False, ["Bo"]),  # "Bo's" keeps its name, "Ma'am" holds no "Ma"
        ("Ma", True, False, []),
        ("will", True, False, ["Will"]),  # an everyday word: capitalised only
        ("Émile", True, False, ["ÉMILE", "émile"]),
    ],
)
def test_a_word_is_found_whole_from_the_texts_word_index(word, ignore_case, capitalised, expected):
    text = "Lee, LEE and lee; Lee-x -Lee Lee'x Lee's. Bo's Ma'am. I will see Will. ÉMILE émile"
    found = [
        text[s:e]
        for s, e in find_word(text, word, ignore_case=ignore_case, capitalised=capitalised)
    ]
    assert found == expected
