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
