"""The kinds left in clear on court and inquiry transcripts (``engine.synthetic.clear_kinds``)
through the ensemble with the real spaCy model: every word of each identifier is inside a
confident span (a date, a time, an age and a link with their label and whole extent), and
the dotted look-alikes (a section, a decimal, an amount) inside none."""

import re

import pytest

from engine.detectors.base import Document
from engine.labels import AGE, DATE, TIME, URL
from engine.synthetic import generate_hearing
from engine.synthetic.families import family_document

WORD_KINDS = (
    "first_name_signature",
    "meeting_place",
    "function_word_surname",
    "east_asian_name",
)
WHOLE_KINDS = {
    "day_first_date": DATE,
    "age_around_number": AGE,
    "ordinal_day_answer": DATE,
    "video_link": URL,
}


def document(family: str, seed: int):
    if family == "bph":
        h = generate_hearing(seed, words=1500)
        return h.gold, h.hard_cases, h.metadata
    doc = family_document(seed, family, words=1500)
    return doc.gold, doc.hard_cases, doc.metadata


def _confident(ensemble, family, seed):
    gold, hard, metadata = document(family, seed)
    result = ensemble.run(Document(gold.text, metadata if family == "bph" else {}))
    return gold.text, hard, [s for s in result.spans if set(s.sources) != {"safety_net"}]


@pytest.mark.slow
@pytest.mark.parametrize(("family", "seed"), [("grand_jury", 3731), ("bph", 3732)])
def test_each_clear_identifier_is_a_span_and_the_dotted_look_alikes_are_not(
    spacy_rules_ensemble, family, seed
):
    text, hard, spans = _confident(spacy_rules_ensemble, family, seed)
    streets = _streets(text, hard)
    for kind in WORD_KINDS:
        for start, end in hard[kind]:
            if (start, end) in streets:
                continue  # the next test's
            for word in re.finditer(r"\w+", text[start:end]):
                s, e = start + word.start(), start + word.end()
                assert any(x.start <= s and e <= x.end for x in spans), (kind, word[0])
    for kind, label in WHOLE_KINDS.items():
        for start, end in hard[kind]:
            assert any((x.start, x.end, x.label) == (start, end, label) for x in spans), (
                kind,
                text[start:end],
            )
    clocks = [(s, e) for s, e in hard["dotted_clock"] if re.search(r"[ap]\.?m", text[s:e])]
    for start, end in clocks:  # a dotted clock with its time of day
        assert any((x.start, x.end, x.label) == (start, end, TIME) for x in spans), text[start:end]
    for start, end in hard["dotted_not_clock"]:
        assert not any(x.start < end and start < x.end for x in spans), text[start:end]


def _streets(text, hard):
    """The streets named alone after a venue (``the Hilton on Fifth``)."""
    return {(s, e) for s, e in hard["meeting_place"] if text[s - 3 : s] == "on "}


@pytest.mark.slow
def test_a_dotted_clock_after_a_word_that_says_when_and_a_street_after_a_venue_are_spans(
    spacy_rules_ensemble,
):
    text, hard, spans = _confident(spacy_rules_ensemble, "federal", 3733)
    bare = [(s, e) for s, e in hard["dotted_clock"] if not re.search(r"[ap]\.?m", text[s:e])]
    streets = _streets(text, hard)
    assert bare and streets
    for start, end in bare:
        assert any((x.start, x.end, x.label) == (start, end, TIME) for x in spans), text[start:end]
    for start, end in streets:
        assert any(x.start <= start and end <= x.end for x in spans), text[start:end]
