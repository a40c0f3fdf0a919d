"""One explicit decision per candidate: span, possible miss or a named rule."""

from engine.detectors.allow import AllowList
from engine.detectors.base import Detection, Detector, Document
from engine.detectors.clean import clean
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


class WordsAsBodies(Detector):
    """Stands in for a statistical model that calls capitalised ordinary words bodies."""

    name = "spacy"
    labels = frozenset({"ORGANIZATION"})

    def detect(self, document):
        import re

        return [
            Detection(m.start(), m.end(), "ORGANIZATION", 0.85, self.name)
            for m in re.finditer(r"\b(?:Domino|Commerce|Chess)\b", document.text)
        ]


def test_a_dropped_find_its_context_makes_a_place_reaches_the_reviewer_as_a_possible_miss():
    from engine.detectors.safety_net import SafetyNetDetector

    text = (
        "A. She moved to Domino last year. Chess is thinking ahead. We lived on Commerce "
        "for a long time before we left the state for good. "
        + "The weather was fine that day. "
        * 40
    )
    result = Ensemble([PatternDetector(), WordsAsBodies(), SafetyNetDetector()]).run(Document(text))
    net = {
        (text[s.start : s.end], s.label) for s in result.spans if set(s.sources) == {"safety_net"}
    }
    spans = {
        (text[s.start : s.end], s.label) for s in result.spans if "safety_net" not in s.sources
    }
    # a verb of movement and a preposition make a model's word a place: a span
    assert ("Domino", "LOCATION") in spans
    # "on" alone says less (a street, a status, a day): shown, not decided
    assert net == {("Commerce", "LOCATION")}
    assert trace(result.decisions, text.index("Chess"), text.index("Chess") + 5)[0]["outcome"] == (
        DROPPED
    )


def test_dropped_finds_stay_within_the_safety_nets_budget():
    from engine.detectors.decisions import POSSIBLE_MISS, dropped_finds

    text = " ".join(["word"] * 400)
    decisions = [
        Decision("spacy", i * 5, i * 5 + 4, "LOCATION", POSSIBLE_MISS, "ordinary-word-body")
        for i in range(10)
    ]
    assert len(dropped_finds(text, decisions, [])) == 2  # 5 per 1,000 words
    assert len(dropped_finds(text, decisions, [], already=1)) == 1
    assert dropped_finds(text, decisions, [(0, 12)]) == [
        (15, 19, "LOCATION"),
        (20, 24, "LOCATION"),
    ]


def test_a_models_everyday_word_after_a_verb_of_movement_is_a_place_but_not_an_institution():
    # "we were living in Energy", "a place up in Harmony" (a model's body or
    # place); "went to Church" stays dropped
    text = "We were living in Energy then. My uncle had a place up in Harmony. We went to Church."
    decided = []
    kept = clean(
        text,
        [
            at(text, "Energy", "ORGANIZATION"),
            at(text, "Harmony", "LOCATION"),
            at(text, "Church", "LOCATION"),
        ],
        None,
        decided,
    )
    assert {(text[d.start : d.end], d.label) for d in kept} == {
        ("Energy", "LOCATION"),
        ("Harmony", "LOCATION"),
    }
    assert [d.rule for d in decided if text[d.start : d.end] == "Church"] == ["ordinary-word-body"]


def test_a_bare_military_time_is_kept_from_a_pattern_but_a_models_day_clock_is_not():
    text = "We left at 2130, maybe 2145. It was at 1430. About 1430 people."
    kept = clean(
        text,
        [
            at(text, "2130", "TIME", "patterns"),
            at(text, "2145", "TIME", "spacy"),
            at(text, "1430", "TIME", "patterns"),
            at(text, "1430", "TIME", "spacy", nth=1),
        ],
    )
    assert [(text[d.start : d.end], d.detector) for d in kept] == [
        ("2130", "patterns"),
        ("2145", "spacy"),
        ("1430", "patterns"),
    ]


def test_a_models_everyday_word_after_a_person_from_is_a_place():
    text = "A guy from Energy helped us out. Chess is fun."
    kept = clean(text, [at(text, "Energy", "ORGANIZATION"), at(text, "Chess", "ORGANIZATION")])
    assert [(text[d.start : d.end], d.label) for d in kept] == [("Energy", "LOCATION")]


def test_a_two_letter_surname_that_is_a_function_word_after_an_honorific_is_a_name():
    text = "Mr. An drove. It was an accident."
    kept = clean(text, [at(text, "An", "PERSON"), at(text, "an", "PERSON")])
    assert [text[d.start : d.end] for d in kept] == ["An"]
