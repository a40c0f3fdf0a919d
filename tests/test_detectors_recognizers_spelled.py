"""A phonetic or dashed spelling is one span, however it is punctuated.
Made-up text."""

import pytest

from engine.detectors.recognizers.spelled import (
    SpelledNameRecognizer,
    SpelledOutItemRecognizer,
)


def _found(recognizer, text):
    return [text[f.start : f.end] for f in recognizer.find_all(text)]


@pytest.mark.parametrize(
    "spelling",
    [
        "T as in Tom, R as in Robert, I as in Ida, N as in Nancy",
        "T as in Tom; R as in Robert; I as in Ida; N as in Nancy",
        "T as in Tom. R as in Robert. I as in Ida. N as in Nancy",
        "T as in Tom, R as in Robert -- I as in Ida, N as in Nancy",
        "T as in Tom, R as in Robert, uh, I as in Ida, and N as in Nancy",
        "T as in tom, R as in robert, I as in ida, N as in nancy",
    ],
)
def test_a_phonetic_spelling_is_one_span_whatever_stands_between_its_letters(spelling):
    text = f"THE WITNESS: My last name is Trinn. {spelling}. Then I left."
    assert _found(SpelledOutItemRecognizer(), text) == [spelling]


def test_as_in_before_a_lower_case_word_of_another_letter_is_no_spelling():
    text = "THE WITNESS: I, as in me, was there. It was a day as in any other."
    assert _found(SpelledOutItemRecognizer(), text) == []


def test_two_spellings_apart_in_a_sentence_stay_two():
    text = "A: T as in Tom. I drove to the store and he said it was B as in Boy."
    assert _found(SpelledOutItemRecognizer(), text) == ["T as in Tom", "B as in Boy"]


def test_dashed_spellings_across_a_comma_are_one_span_and_a_full_stop_parts_them():
    text = "THE WITNESS: T-R-I, N-A. It's D-O-E, and J-A-N-E, I think."
    assert _found(SpelledNameRecognizer(), text) == ["T-R-I, N-A", "D-O-E, and J-A-N-E"]
