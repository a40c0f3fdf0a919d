"""engine.mentions: whole PERSON mentions from name parts, and spans without stray punctuation."""

import pytest

from engine.detectors.names import person_name_parts
from engine.mentions import join_name_parts, name_gap_joins, trim_span, trim_spans
from engine.spans import TextSpan


def parts(text, label="PERSON"):
    return [TextSpan(s, e, label) for s, e in person_name_parts(text, 0, len(text))]


def mentions(text, spans):
    return [text[s.start : s.end] for s in join_name_parts(text, spans)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Shannon Perry", ["Shannon Perry"]),
        ("John J. Doe", ["John J. Doe"]),
        ("Mary Smith - Jones", ["Mary Smith", "Jones"]),  # a spaced dash is no name hyphen
        ("Mr. Doe Ms. Roe", ["Doe", "Roe"]),  # titles stay outside and keep names apart
        ("John, Mary", ["John", "Mary"]),
        ("Shannon  Perry", ["Shannon  Perry"]),
    ],
)
def test_adjacent_name_parts_of_one_written_name_are_one_mention(text, expected):
    assert mentions(text, parts(text)) == expected


def test_hyphen_joined_parts_and_other_labels_stay_as_they_are():
    text = "Ann Lee-Park of Fresno Fresno"
    spans = [
        TextSpan(0, 3, "PERSON"),
        TextSpan(4, 7, "PERSON"),
        TextSpan(8, 12, "PERSON"),  # stored apart by a hand-made span: Lee / Park
        TextSpan(16, 22, "LOCATION"),
        TextSpan(23, 29, "LOCATION"),
    ]
    assert mentions(text, spans) == ["Ann Lee-Park", "Fresno", "Fresno"]
    assert name_gap_joins(text, (4, 7), (8, 12))
    assert not name_gap_joins("J.. Doe", (0, 1), (4, 7))


@pytest.mark.parametrize(
    ("item", "kept"),
    [
        ("P-E-R-R-Y.", "P-E-R-R-Y"),
        ("Q-U-\nI-L-L.", "Q-U-\nI-L-L"),
        ("Perry,", "Perry"),
        (" Fresno: ", "Fresno"),
        ("9:45 a.m.", "9:45 a.m."),
        ("the U.S.", "the U.S."),
        ("Acme Inc.", "Acme Inc."),
        ("Ann Lee Jr.", "Ann Lee Jr."),
        ("John J.", "John J."),
        ("(626) 590-4836", "(626) 590-4836"),
        ("590-4836)", "590-4836"),
        ("5'7\"", "5'7\""),
        ("Fresno.", "Fresno"),
        ("'90", "'90"),
    ],
)
def test_spans_never_end_on_punctuation_that_is_not_part_of_the_item(item, kept):
    text = f"Say {item} now"
    start = 4
    s, e = trim_span(text, start, start + len(item))
    assert text[s:e] == kept


def test_trimming_never_empties_a_span_and_drops_duplicates():
    assert trim_span("a . b", 2, 3) == (2, 3)
    text = "Perry, Perry"
    assert trim_spans(text, [TextSpan(0, 6, "PERSON"), TextSpan(0, 5, "PERSON")]) == [
        TextSpan(0, 5, "PERSON")
    ]
