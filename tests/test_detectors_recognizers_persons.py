"""Speaker tags and forms of address (recognizers/persons.py)."""

import pytest

from engine.detectors.recognizers.persons import SpeakerTagRecognizer, speaker_tag_names


def names(text):
    return [text[f.start : f.end] for f in SpeakerTagRecognizer().find_all(text)]


@pytest.mark.parametrize(
    "tag,expected",
    [
        ("MR. LONG: Thank you.", ["LONG"]),
        ("CHIEF JUSTICE ROBERTS: We will hear argument.", ["ROBERTS"]),
        ("PRESIDING COMMISSIONER YOUNG: Okay.", ["YOUNG"]),
        ("INCARCERATED PERSON BLACK: Yes.", ["BLACK"]),
        ("DEPUTY DISTRICT ATTORNEY ROSE SMITH: Yes.", ["ROSE", "SMITH"]),
        ("MITCHELL: Right here.", ["MITCHELL"]),
        ("THE COURT: Proceed.", []),
        ("JUROR NO. 5: Yes.", []),
        ("COURT SECURITY OFFICER: All rise.", []),
        ("APPEARANCES:\n", []),
        ("THE FOREPERSON: We have.", []),
    ],
)
def test_the_name_part_of_a_speaker_tag_is_a_person_and_titles_and_roles_are_not(tag, expected):
    assert [tag[s:e] for s, e in speaker_tag_names(tag)] == expected


@pytest.mark.parametrize(
    "text,expected",
    [
        ("Did pellegrino -- Mr. pellegrino, that's P as in Paul", ["pellegrino"]),
        ("Mr. and Mrs. Okafor came.", ["Okafor"]),
        ("Ms. Tyrell Okafor said so.", ["Tyrell Okafor"]),
        ("Thank you, Mr. Chief Justice.", []),
        ("I miss my family.", []),
    ],
)
def test_a_word_after_an_honorific_is_a_name_in_any_case(text, expected):
    assert names(text) == expected


def test_a_title_before_a_word_that_is_no_english_word_is_a_name():
    text = "General Prelogar argued. The General Counsel and Justice Sotomayor spoke."
    assert names(text) == ["Prelogar", "Sotomayor"]
