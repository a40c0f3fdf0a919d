"""Dates and times as OCR and stenographers write them; made-up text."""

from engine.detectors.recognizers.base import ocr_digits
from engine.detectors.recognizers.dates import HearingDateRecognizer


def test_an_ocr_first_with_its_one_read_as_l_is_a_day():
    text = "Q: What day of the month was that?\nA: It was the lst.\nQ: Of September?"
    found = [text[f.start : f.end] for f in HearingDateRecognizer().find_all(text)]
    assert "lst" in found
    assert ocr_digits("the lst") == "the 1st"
    assert ocr_digits("the last list") == "the last list"


# --- Military times without "hours", chained, in words ----------------------


def _times(text):
    from engine.detectors.recognizers.dates import HearingTimeRecognizer

    return [text[f.start : f.end] for f in HearingTimeRecognizer().find_all(text)]


def test_a_four_digit_clock_no_year_can_be_is_a_time_after_a_time_preposition():
    assert _times("We left at 2130, maybe 2145. About 0300 that night.") == [
        "2130",
        "2145",
        "0300",
    ]
    assert _times("Between 2130 and 2200 the car was gone.") == ["2130", "2200"]
    assert _times("We got there at 1430. They left at 1600 and we stayed.") == ["1430", "1600"]
    assert _times("Around 2245. Or maybe 2300. And 1945 was a year.") == ["2245", "2300"]


def test_a_year_a_count_or_a_height_after_a_preposition_is_no_military_time():
    for text in (
        "at 2015 he left",
        "about 1500 people came",
        "at 1200 feet",
        "Since 1995, maybe 1996.",
        "in 2130 years",
    ):
        assert _times(text) == [], text


def test_a_military_time_said_in_words_with_hours_is_a_time():
    assert _times("Around twenty-one thirty hours we left.") == ["twenty-one thirty hours"]
    assert _times("At oh six hundred hours, roll call.") == ["oh six hundred hours"]
    assert _times("We came back at fourteen hundred.") == ["fourteen hundred"]
    assert _times("He served twenty years, thirty hours of class.") == []
