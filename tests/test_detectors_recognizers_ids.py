"""Identifiers made of letters and digits, spelled (recognizers/ids.py)."""

import pytest

from engine.detectors.recognizers.ids import CdcrIdRecognizer


def found(text):
    spans = CdcrIdRecognizer().find_all(text)
    # the longest result at each start
    best = {}
    for f in spans:
        if f.start not in best or f.end > best[f.start].end:
            best[f.start] = f
    starts = sorted(best)
    out, end = [], -1
    for s in starts:
        if s >= end:
            out.append(text[s : best[s].end])
            end = best[s].end
    return out


@pytest.mark.parametrize(
    "text,expected",
    [
        ("My old number was B-K-4-4-1-7, sir.", ["B-K-4-4-1-7"]),
        ("in county it was A-32262.", ["A-32262"]),
        ("the youth number was B, as in baker,\n65921.", ["B, as in baker,\n65921"]),
        ("B as in boy, K as in king, 4417 is it", ["B as in boy, K as in king, 4417"]),
        ("V as in Victor six five nine two one", ["V as in Victor six five nine two one"]),
    ],
)
def test_letters_and_digits_spelled_one_by_one_are_an_id(text, expected):
    assert found(text) == expected


@pytest.mark.parametrize("text", ["Form A-1 and B-2", "zip code 95814", "I-I-I think so"])
def test_short_forms_zip_codes_and_stutters_are_no_id(text):
    assert found(text) == []


# --- OTHER_ID: identifying numbers outside the paper's schema ---------------


def other_ids(text):
    from engine.detectors.recognizers.ids import OtherIdRecognizer

    return [text[f.start : f.end] for f in OtherIdRecognizer().find_all(text)]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("His passport number is 548201377.", "548201377"),
        ("The VIN is 1HGCM82633A004352 on the title.", "1HGCM82633A004352"),
        ("the VIN is 1 H G C M 8 2 6 3 3 A", "1 H G C M 8 2 6 3 3 A"),
        ("the bank account ending in 2004 is open", "2004"),
        ("juror badge number 2231, please", "2231"),
        (
            "Envelope ID: 3F2504E0-4F89-11D3-9A0C-0305E82C3301",
            "3F2504E0-4F89-11D3-9A0C-0305E82C3301",
        ),
        ("his driver's license number is B1234567.", "B1234567"),
        ("the plate is 7 A B C 1 2 3.", "7 A B C 1 2 3"),
    ],
)
def test_an_identifier_outside_the_schema_is_found_by_its_shape_or_its_context(text, expected):
    assert other_ids(text) == [expected]


@pytest.mark.parametrize(
    "text",
    [
        "a member since 2004",
        "the account of the incident",
        "his badge number was 12",
        "the account was 4000 dollars",
        "a passport to a better life",
    ],
)
def test_words_about_accounts_and_badges_without_a_number_give_no_id(text):
    assert other_ids(text) == []


def test_other_id_is_a_direct_identifier_with_its_own_tag():
    from engine.labels import DIRECT_IDENTIFIERS, LABELS
    from engine.pseudonymize import tag_for

    assert "OTHER_ID" in LABELS and "OTHER_ID" in DIRECT_IDENTIFIERS
    assert LABELS[:9] == (
        "PERSON",
        "SPELLED_NAME",
        "SPELLED_OUT_ITEM",
        "CDCR_ID",
        "LOCATION",
        "ORGANIZATION",
        "DATE",
        "TIME",
        "AGE",
    )  # the review page's keys 1-9 keep their labels
    assert tag_for("OTHER_ID", "OTHER_ID_1", "548201377") == "[OTHER_ID_1]"


def test_a_letter_spelled_with_a_hyphenated_word_before_the_digits_is_an_id():
    assert found("the youth number was X, as in x-ray, 44448.") == ["X, as in x-ray, 44448"]
