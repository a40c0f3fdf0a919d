"""One explicit decision per candidate (issue 30): span, possible miss or a named rule."""

from engine.detectors.base import Detection, Document
from engine.detectors.clean import AllowList, clean
from engine.detectors.decisions import DROPPED, SPAN, Decision, trace
from engine.detectors.ensemble import Ensemble
from engine.detectors.patterns import PatternDetector


def at(text, needle, label, detector="spacy", explanation="", nth=0):
    start = -1
    for _ in range(nth + 1):
        start = text.index(needle, start + 1)
    return Detection(start, start + len(needle), label, 0.85, detector, explanation)


def test_every_candidate_ends_in_a_span_or_a_named_rule():
    text = "Chess is a game. Mr. Okonkwo met the Chief Justice today's at noon. Good luck."
    raw = [
        at(text, "Chess", "ORGANIZATION"),
        at(text, "Mr. Okonkwo", "PERSON"),
        at(text, "Chief Justice", "PERSON"),
        at(text, "today's", "DATE"),
        at(text, "Good", "PERSON", "presidio", "PersonContextRecognizer"),
    ]
    decisions: list[Decision] = []
    kept = clean(text, raw, AllowList(), decisions)
    by_words = {(text[d.start : d.end], d.outcome, d.rule) for d in decisions}
    assert by_words == {
        ("Chess", DROPPED, "ordinary-word-body"),
        ("Okonkwo", SPAN, ""),
        ("Chief Justice", DROPPED, "title-or-role"),
        ("today's", DROPPED, "date-no-anchor"),
        ("Good", DROPPED, "not-a-name-here"),
    }
    # the spans decided "span" are exactly what clean returns
    assert sorted((d.start, d.end) for d in decisions if d.outcome == SPAN) == [
        (k.start, k.end) for k in kept
    ]


def test_allow_listed_and_public_finds_are_dropped_by_name():
    text = "The Harbor Light Circle group and the Supreme Court met Dora."
    decisions: list[Decision] = []
    clean(
        text,
        [at(text, "Circle", "ORGANIZATION"), at(text, "Supreme Court", "ORGANIZATION")],
        AllowList(["Harbor Light Circle"]),
        decisions,
    )
    assert {(text[d.start : d.end], d.rule) for d in decisions} == {
        ("Circle", "allow-list"),
        ("Supreme Court", "public-term"),
    }


def test_trace_names_the_member_and_the_rule_for_words_left_in_clear():
    text = "Traffic was bad that day."
    decisions: list[Decision] = []
    clean(text, [at(text, "Traffic", "ORGANIZATION")], AllowList(), decisions)
    assert trace(decisions, 0, 7) == [
        {
            "detector": "spacy",
            "start": 0,
            "end": 7,
            "label": "ORGANIZATION",
            "outcome": "dropped",
            "rule": "ordinary-word-body",
        }
    ]


def test_ensemble_result_holds_the_decisions_of_every_member():
    text = "The hearing was on May 13, 2012 and section 3 applies."
    result = Ensemble([PatternDetector()]).run(Document(text))
    assert result.decisions
    assert all(d.detector == "patterns" for d in result.decisions)
    assert {(text[d.start : d.end], d.outcome) for d in result.decisions} >= {
        ("May 13, 2012", SPAN)
    }
