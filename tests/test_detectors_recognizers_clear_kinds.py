"""The recognizers on the generator's kinds left in clear (``engine.synthetic.clear_kinds``):
every hard case of a kind is found with its label and extent (the cleaning's trim of a
leading determiner and a final period aside), in every layout family and several seeds;
the look-alikes of a dotted clock are no time."""

import re

import pytest

from engine.detectors.recognizers import find_hearing_entities
from engine.synthetic import generate_hearing
from engine.synthetic.families import family_document

KINDS = (
    "dotted_clock",
    "day_first_date",
    "age_around_number",
    "ordinal_day_answer",
    "first_name_signature",
    "meeting_place",
    "function_word_surname",
    "east_asian_name",
    "video_link",
)
CASES = [
    ("bph", 3701),
    ("bph2009", 3702),
    ("federal", 3703),
    ("appellate", 3704),
    ("grand_jury", 3705),
    ("deposition", 3706),
    ("grand_jury", 3707),
    ("deposition", 3708),
]


def document(family: str, seed: int):
    if family == "bph":
        h = generate_hearing(seed, words=1200)
        return h.gold, h.hard_cases
    doc = family_document(seed, family, words=1200)
    return doc.gold, doc.hard_cases


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    lead = re.match(r"(?i:the|on|at) ", text[start:end])
    if lead:
        start += lead.end()
    if text[start:end].endswith(".") and not text[start:end].endswith(("a.m.", "p.m.")):
        end -= 1
    return start, end


@pytest.fixture(scope="module", params=CASES, ids=lambda c: f"{c[0]}-{c[1]}")
def found(request):
    gold, hard = document(*request.param)
    spans = {(s.start, s.end): s.label for s in gold.spans}
    return gold.text, hard, spans, find_hearing_entities(gold.text)


@pytest.mark.parametrize("kind", KINDS)
def test_each_clear_kind_is_found_with_its_label_and_extent(found, kind):
    text, hard, spans, finds = found
    got = {(*_trimmed(text, f.start, f.end), f.label) for f in finds}
    for start, end in hard[kind]:
        assert (start, end, spans[(start, end)]) in got, (kind, text[start:end])


def test_a_section_number_a_decimal_and_an_amount_are_no_time(found):
    text, hard, _, finds = found
    for start, end in hard["dotted_not_clock"]:
        assert not any(f.start < end and start < f.end for f in finds), text[start:end]


def test_a_dotted_clock_needs_a_word_that_says_when_or_a_time_of_day():
    from engine.detectors.recognizers.dates import HearingTimeRecognizer

    def times(text):
        return [text[f.start : f.end] for f in HearingTimeRecognizer().find_all(text)]

    assert times("It rose by 2.45 percent, at 3.50 metres, about 1.25 times.") == []
    assert times("Rule 10.15 says so, and version 4.20 came out.") == []
    assert times("between 10.30 and 11.00, or 5.45-6.15pm") == ["10.30", "11.00", "5.45", "6.15pm"]


def test_an_ambiguous_month_after_a_bare_number_needs_an_ordinal_a_year_or_a_preposition():
    from engine.detectors.recognizers.dates import HearingDateRecognizer

    def dates(text):
        return [text[f.start : f.end] for f in HearingDateRecognizer().find_all(text)]

    assert dates("See page 3 May I ask a question?") == []
    assert "4 March" in dates("It was on 4 March, I think") and "3rd May" in dates("the 3rd May")


def test_a_first_name_alone_is_a_signature_only_where_a_message_is_spoken_of():
    text = "Q. Who drove?\nA. Brandon.\nQ. How is the letter signed?\nA. Brandon."
    found = [(f.start, text[f.start : f.end]) for f in find_hearing_entities(text)]
    assert found == [(text.rindex("Brandon"), "Brandon")]


def test_a_function_word_surname_after_a_given_name_stays_a_span_through_the_table():
    """``Helen An``, ``Marcus To``: the name-shape rule's find keeps its last part, a
    function word that is no role word there (the decision table's part rows)."""
    from engine.detectors.base import Document
    from engine.detectors.ensemble import Ensemble
    from engine.detectors.patterns import PatternDetector

    ensemble = Ensemble([PatternDetector()])
    seen = set()
    for family, seed in CASES:
        gold, hard = document(family, seed)
        text = gold.text
        kept = [(s.start, s.end) for s in ensemble.run(Document(text)).spans if s.label == "PERSON"]
        for start, end in hard["function_word_surname"]:
            words = [
                (m.start() + start, m.end() + start) for m in re.finditer(r"\S+", text[start:end])
            ]
            seen.add(text[words[-1][0] : words[-1][1]])
            for a, b in words:
                assert any(s <= a and b <= e for s, e in kept), (family, text[start:end])
    assert seen & {"An", "To"}, seen  # the role-word surnames are among them
