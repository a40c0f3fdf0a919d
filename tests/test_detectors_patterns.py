"""The hearing recognizers on hand-written synthetic sentences (no models needed)."""

import pytest

from engine.detectors.patterns import (
    AgeRecognizer,
    CdcrIdRecognizer,
    HearingDateRecognizer,
    HearingTimeRecognizer,
    HeightRecognizer,
    SpelledNameRecognizer,
    SpelledOutItemRecognizer,
    find_hearing_entities,
    offline_tldextract,
)


def found(recognizer, text):
    return [text[f.start : f.end] for f in recognizer.find_all(text)]


def test_spelled_name_found_with_dashes_and_rejoined_across_a_line_break():
    text = "My name is Ann Quill, Q-U-I-L-L. The street is O-A-\nK-L-E-Y Road."
    assert found(SpelledNameRecognizer(), text) == ["Q-U-I-L-L", "O-A-\nK-L-E-Y"]


@pytest.mark.parametrize(
    "text",
    [
        "I-I-I don't know.",
        "th-th-that was it",
        "b-b-but I said no",
        "w-w-we went home",
        "uh-uh, no",
    ],
)
def test_stutters_are_never_spelled_names(text):
    assert found(SpelledNameRecognizer(), text) == []


def test_spelled_out_item_with_as_in_words():
    text = "That is V as in Victor, E as in Edward, and then the number."
    assert found(SpelledOutItemRecognizer(), text) == ["V as in Victor, E as in Edward"]


@pytest.mark.parametrize(
    "text,expected",
    [
        ("CDCR number V12345.", ["V12345"]),
        ("His number is BK4821, sir.", ["BK4821"]),
        ("That's Victor 12345.", ["Victor 12345"]),
        ("It is T-9-8-7-6-5.", ["T-9-8-7-6-5"]),
    ],
)
def test_cdcr_numbers_in_their_spoken_and_written_forms(text, expected):
    assert found(CdcrIdRecognizer(), text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Send it to P.O. Box 12345.",
        "Sacramento, CA 95814.",
        "the zip code 94110",
        "see page 12345",
        "Form W2",
    ],
)
def test_zip_codes_po_boxes_and_pages_are_not_cdcr_numbers(text):
    assert found(CdcrIdRecognizer(), text) == []


def test_heights_in_words_and_marks():
    text = "He is five foot eleven; she is 6'2\" and I am 5 feet 10 inches."
    assert found(HeightRecognizer(), text) == ["five foot eleven", "6'2\"", "5 feet 10 inches"]


def test_ages_report_the_number():
    text = "At the age of 19 I left. I was nineteen years old. When I was 16 we moved."
    assert found(AgeRecognizer(), text) == ["19", "nineteen", "16"]


def test_age_pattern_ignores_clock_and_money_numbers():
    assert found(AgeRecognizer(), "When I was 10 minutes late, it cost 20 dollars.") == []


def test_dates_in_formats_ordinals_weekdays_months_years_and_decades():
    text = (
        "On May 13, 2012 and 05/13/2012, the 13th of May, on a Monday, in June, "
        "back in '98, in the 1990s, the '80s, in 1998."
    )
    values = found(HearingDateRecognizer(), text)
    for expected in [
        "May 13, 2012",
        "05/13/2012",
        "the 13th of May",
        "Monday",
        "June",
        "'98",
        "1990s",
        "'80s",
        "1998",
    ]:
        assert expected in values


def test_may_and_march_as_verbs_are_not_dates():
    assert found(HearingDateRecognizer(), "May I ask a question? We march on.") == []


def test_counts_are_not_years():
    assert found(HearingDateRecognizer(), "It cost $2000 and took 1500 hours.") == []


def test_times_with_clock_words_and_noon():
    text = "We start at 1:30 PM, or one o'clock, or at noon, or 10 a.m. Good morning."
    assert found(HearingTimeRecognizer(), text) == ["1:30 PM", "one o'clock", "noon", "10 a.m."]


def test_find_hearing_entities_sorts_by_offset():
    text = "On Monday at 9:00 a.m., V12345 spelled Q-U-I-L-L."
    labels = [f.label for f in find_hearing_entities(text)]
    assert labels == ["DATE", "TIME", "CDCR_ID", "SPELLED_NAME"]


def test_email_domains_validate_offline():
    assert offline_tldextract()("someone@example.org").fqdn == "example.org"


def test_spelled_out_item_with_a_hyphenated_word():
    text = "That's K as in King, X as in X-ray."
    assert found(SpelledOutItemRecognizer(), text) == ["K as in King, X as in X-ray"]


def test_dates_after_a_phonetic_month_word_are_not_cdcr_numbers():
    assert found(CdcrIdRecognizer(), "On November 9, 2004 and in November 1995.") == []
    assert found(CdcrIdRecognizer(), "Henry Paul 45678.") == ["Henry Paul 45678"]


def test_a_place_is_never_found_inside_a_spelling():
    from engine.detectors.patterns import PlaceRecognizer

    text = "He lived in Oakland. That's U as in Union."
    assert [text[f.start : f.end] for f in PlaceRecognizer().find_all(text)] == ["Oakland"]


# --- Dates and times as OCR and stenographers write them ---------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("It was September lOth, l998.", ["September lOth, l998"]),
        ("on the 2Oth of May", ["the 2Oth of May"]),
        ("It was the 9th.", ["9th"]),
        ("Was it on the 21st, or the 22nd?", ["21st"]),
    ],
)
def test_ocr_digits_and_a_day_alone_are_dates_with_offsets_into_the_text(text, expected):
    values = found(HearingDateRecognizer(), text)
    assert [v for v in values if v in expected] == expected


def test_a_grade_or_a_count_is_no_day_alone():
    assert found(HearingDateRecognizer(), "I was in the 9th grade. I said I will go.") == []


@pytest.mark.parametrize(
    "text, expected",
    [
        ("at approximately 0915 hours", "0915 hours"),
        ("they left at 1430 hours", "1430 hours"),
        ("we met at 0745, then", "0745"),
        ("The visit was at 2:30p.m. sharp", "2:30p.m."),
        ("by 2:3O p.m.", "2:3O p.m."),
    ],
)
def test_military_times_and_a_clock_without_a_space_are_times(text, expected):
    assert expected in found(HearingTimeRecognizer(), text)


def test_a_house_number_or_a_year_is_no_military_time():
    assert found(HearingTimeRecognizer(), "at 0915 Main Street in 1998") == []


def test_the_cleaning_keeps_an_ocr_year_and_a_leading_zero_time():
    from engine.detectors.base import Detection
    from engine.detectors.clean import clean

    text = "in l998 at 0915."
    kept = clean(
        text,
        [
            Detection(3, 7, "DATE", 0.6, "patterns", "year"),
            Detection(11, 15, "TIME", 0.85, "patterns", "military-leading-zero"),
        ],
    )
    assert [text[d.start : d.end] for d in kept] == ["l998", "0915"]


# --- Spellings in other shapes -----------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Ms. Day, D A Y.", ["D A Y"]),
        ("his name is Bo, B O.", ["B O"]),
        ("it is spelled D, A, Y", ["D, A, Y"]),
    ],
)
def test_letters_separated_by_spaces_or_commas_are_a_spelling_where_the_text_says_so(
    text, expected
):
    assert found(SpelledNameRecognizer(), text) == expected


@pytest.mark.parametrize("text", ["I A M here", "the U S A", "Plan B A C grade"])
def test_spaced_capitals_without_a_cue_are_no_spelling(text):
    assert found(SpelledNameRecognizer(), text) == []


def test_a_phonetic_spelling_runs_over_a_line_break_and_over_digits_read_between():
    text = "The tag is V as in Victor,\n4, K as in King, 7. Thanks."
    assert found(SpelledOutItemRecognizer(), text) == ["V as in Victor,\n4, K as in King, 7"]
