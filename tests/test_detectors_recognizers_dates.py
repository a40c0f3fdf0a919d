"""Dates and times as OCR and stenographers write them; made-up text."""

from engine.detectors.recognizers.base import ocr_digits
from engine.detectors.recognizers.dates import HearingDateRecognizer


def test_an_ocr_first_with_its_one_read_as_l_is_a_day():
    text = "Q: What day of the month was that?\nA: It was the lst.\nQ: Of September?"
    found = [text[f.start : f.end] for f in HearingDateRecognizer().find_all(text)]
    assert "lst" in found
    assert ocr_digits("the lst") == "the 1st"
    assert ocr_digits("the last list") == "the last list"
