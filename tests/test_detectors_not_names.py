"""Public bodies and ordinary words on court transcripts. Every text here is
made up; every rule is general (word frequency, gazetteers, shapes)."""

import pytest

from engine.detectors.allow import AllowList
from engine.detectors.base import Detection
from engine.detectors.clean import clean
from engine.detectors.decisions import Decision
from engine.detectors.not_names import person_shape_rule, sentence_start
from engine.detectors.public import public_terms
from engine.detectors.recognizers.dates import HearingDateRecognizer, HearingTimeRecognizer
from engine.detectors.recognizers.locations import AddressRecognizer
from engine.detectors.recognizers.persons import caps_given_names


def at(text, needle, label="PERSON", detector="spacy", explanation="", nth=0):
    start = -1
    for _ in range(nth + 1):
        start = text.index(needle, start + 1)
    return Detection(start, start + len(needle), label, 0.85, detector, explanation)


def rules(text, detections):
    decisions: list[Decision] = []
    clean(text, detections, AllowList(), decisions)
    return {(text[d.start : d.end], d.outcome, d.rule) for d in decisions}


@pytest.mark.parametrize(
    "text,word",
    [
        ("Q.   And then?\nA.   Traffic was bad on the bridge.", "Traffic"),
        ("THE WITNESS:   Correct.", "Correct"),
        ("A. When I got there, he left. Here is the thing.", "When"),
        ("A. When I got there, he left. Here is the thing.", "Here"),
        ("10:14:28   22   Division one handled it.", "Division"),
        ("(Laughter.)", "Laughter"),
    ],
)
def test_an_ordinary_word_opening_a_sentence_or_line_is_no_person(text, word):
    assert rules(text, [at(text, word)]) == {(word, "dropped", "sentence-start-word")}


def test_a_word_the_transcript_makes_a_name_elsewhere_stays_a_person_at_a_sentence_start():
    text = "A.   Hope said she would call.\nQ.   Did you call Hope back?"
    assert rules(text, [at(text, "Hope")]) == {("Hope", "span", "")}
    text = "MS. TEMBLEY:   Ms. Grace, good morning.\nA.   Grace is here."
    assert ("Grace", "span", "") in rules(text, [at(text, "Grace", nth=1)])


def test_single_letters_acronym_plurals_and_things_after_a_determiner_are_no_person():
    text = "A. The MRIs showed nothing. The Tahoe was parked. See exhibit B today."
    found = rules(text, [at(text, "MRIs"), at(text, "Tahoe"), at(text, "B", nth=0)])
    assert found == {
        ("MRIs", "dropped", "acronym-plural"),
        ("Tahoe", "dropped", "determiner-before"),
        ("B", "dropped", "single-letter"),
    }


def test_the_shape_rules_leave_hand_written_rules_and_names_in_mid_sentence_alone():
    text = "Q. Did you tell Okafor? A. Traffic said no."
    # a pattern's find is not second-guessed; a name that is no English word stays
    assert rules(text, [at(text, "Traffic", detector="patterns")]) == {("Traffic", "span", "")}
    assert person_shape_rule(text, text.index("Okafor"), text.index("Okafor") + 6) is None


def test_sentence_start_knows_honorifics_continue_a_sentence():
    text = "A. Mr. Yu left. Then Yu came back."
    assert not sentence_start(text, text.index("Yu"))
    assert sentence_start(text, text.index("Then"))


def test_a_sentence_start_person_before_a_speech_verb_is_a_possible_miss_not_a_drop():
    text = "A.   Hope said she would call me later that night."
    decisions: list[Decision] = []
    kept = clean(text, [at(text, "Hope")], AllowList(), decisions)
    assert kept == []
    (decision,) = decisions
    assert (decision.outcome, decision.rule, decision.label) == (
        "possible_miss",
        "sentence-start-word",
        "PERSON",
    )


def test_an_ordinary_word_body_after_a_verb_of_motion_is_a_place():
    # a model's body after a verb of movement and a preposition: a town (a span,
    # no longer only a possible miss); "lived on Domino" says less: shown, not decided
    text = "A. She moved to Domino last year, with the kids."
    decisions: list[Decision] = []
    clean(text, [at(text, "Domino", "ORGANIZATION")], AllowList(), decisions)
    assert [(d.outcome, d.label) for d in decisions] == [("span", "LOCATION")]
    text = "A. She lived on Domino for years, with the kids."
    decisions = []
    clean(text, [at(text, "Domino", "ORGANIZATION")], AllowList(), decisions)
    assert [(d.outcome, d.label, d.rule) for d in decisions] == [
        ("possible_miss", "LOCATION", "ordinary-word-body")
    ]
    text = "A. Chess is thinking two moves ahead."
    decisions = []
    clean(text, [at(text, "Chess", "ORGANIZATION")], AllowList(), decisions)
    assert [(d.outcome, d.rule) for d in decisions] == [("dropped", "ordinary-word-body")]


@pytest.mark.parametrize(
    "text,value,rule",
    [
        ("A. 10, 15 minutes.", "10, 15 minutes", "minutes-duration"),
        ("A. Maybe 45.", "45", "bare-number"),
        ("A. It took 10 to 15.", "10 to 15", "bare-number"),
        ("A. About 20, 30 minutes.", "20, 30 minutes", "minutes-duration"),
    ],
)
def test_bare_numbers_and_minutes_are_no_date_or_time(text, value, rule):
    for label in ("DATE", "TIME"):
        assert rules(text, [at(text, value, label)]) == {(value, "dropped", rule)}


def test_a_year_a_clock_and_a_day_still_are_dates_and_times():
    text = "A. In 1998, at 10:30 p.m., on the 21st."
    found = rules(
        text,
        [at(text, "1998", "DATE"), at(text, "10:30 p.m.", "TIME"), at(text, "the 21st", "DATE")],
    )
    assert {v for v, outcome, _ in found if outcome == "span"} == {"1998", "10:30 p.m.", "21st"}


def test_an_ocr_day_alone_as_an_answer_and_after_no_is_a_date():
    text = "Q. What date?\nA.   The 2lst.\nA. It was the 3Oth, no, the l5th."
    found = {text[f.start : f.end] for f in HearingDateRecognizer().find_all(text)}
    assert {"2lst", "3Oth", "l5th"} <= found
    assert not HearingDateRecognizer().find_all("He finished the 9th grade.")


def test_a_military_time_alone_as_an_answer_is_a_time_a_year_alone_is_not():
    text = "Q. What time?\nA.   0915.\nQ. And the year?\nA.   1998.\nA. At about 0740. Then"
    found = {text[f.start : f.end] for f in HearingTimeRecognizer().find_all(text)}
    assert found == {"0915", "0740"}


def test_an_ocr_ordinal_named_a_body_is_a_date():
    text = "A. It was the l5th, I think."
    found = rules(text, [at(text, "l5th", "ORGANIZATION")])
    assert found == {("l5th", "span", "")}
    decisions: list[Decision] = []
    (kept,) = clean(text, [at(text, "l5th", "ORGANIZATION")], AllowList(), decisions)
    assert kept.label == "DATE"


def test_a_house_number_and_an_ordinary_word_street_said_as_an_answer_is_an_address():
    text = "A. It's 418 Harmony. We lived at 22 Orchard, by the park. It was 5 Years ago."
    found = {text[f.start : f.end] for f in AddressRecognizer().find_all(text)}
    assert found == {"418 Harmony", "22 Orchard"}


def test_a_given_name_alone_in_capitals_in_running_text_is_a_person():
    text = "A.   HOPE was there. JOY came later, and the FBI and DNA results too.\nMR. LONG: Yes."
    assert [text[s:e] for s, e in caps_given_names(text)] == ["HOPE", "JOY"]
    assert caps_given_names("THE COURT: We are ON THE RECORD now in APRIL.") == []


@pytest.mark.parametrize(
    "term",
    [
        "the Attorney General's Office",
        "the medical examiner's office",
        "the Coroner's Office",
        "the Justice Department",
        "the FBI",
        "the National Guard",
        "Congress",
        "the Congress of the United States",
        "the Police",
        "the Army",
    ],
)
def test_public_bodies_and_offices_are_public_terms(term):
    text = f"A. I called {term} that day."
    start = text.index(term.removeprefix("the "))
    assert rules(
        text,
        [
            Detection(
                start,
                start + len(term) - (4 if "the " in term else 0),
                "ORGANIZATION",
                0.85,
                "spacy",
            )
        ],
    ) == {(term.removeprefix("the "), "dropped", "public-term")}


def test_a_states_public_body_or_one_after_a_line_number_is_public_a_local_one_is_not():
    text = "A. I served in the Texas National Guard.\n22   National Guard for nine years."
    found = rules(
        text,
        [
            at(text, "Texas National Guard", "ORGANIZATION"),
            at(text, "22   National Guard", "ORGANIZATION"),
        ],
    )
    assert {rule for _, _, rule in found} == {"public-term"}
    text = "A. The Stockton Police Department came."
    assert rules(text, [at(text, "Stockton Police Department", "ORGANIZATION")]) == {
        ("Stockton Police Department", "span", "")
    }
    # a named local body is one name: none of its words is a public term
    assert public_terms(text).regions == []
    text = "A. He is a firefighter at Red River Army Depot. She is in the Army."
    assert [text[s:e] for s, e, _ in public_terms(text).regions] == ["Army"]


def test_a_given_name_that_is_a_word_before_a_surname_stays_a_person_at_a_sentence_start():
    text = "RITA TEMBLEY:   Amber Lee and a friend of hers, I think."
    assert rules(text, [at(text, "Amber", detector="transformer")]) == {("Amber", "span", "")}


def test_an_ordinary_word_at_an_answers_start_is_cut_from_a_models_longer_find():
    text = "HAROLD OKAFOR:   Case type was the point, he said."
    found = rules(text, [at(text, "OKAFOR:   Case")])
    assert found == {("OKAFOR", "span", ""), ("Case", "dropped", "sentence-start-word")}


def test_a_gazetteer_name_after_a_determiner_is_a_name_used_as_a_modifier():
    text = "Q. Is this the Allen case or the Tahoe?"
    found = rules(text, [at(text, "Allen"), at(text, "Tahoe")])
    assert found == {("Allen", "span", ""), ("Tahoe", "dropped", "determiner-before")}


class _FirstWhen:
    """Stands in for a statistical model that once reads a sentence's first word as a name."""

    labels = frozenset({"PERSON"})

    def detect(self, document):
        start = document.text.index("When")
        return [Detection(start, start + 4, "PERSON", 0.85, self.name)]


def test_a_one_off_sentence_start_proposal_is_not_spread_to_every_occurrence():
    from engine.detectors.base import Detector, Document
    from engine.detectors.ensemble import Ensemble
    from engine.detectors.patterns import PatternDetector
    from engine.detectors.propagation import PropagationDetector
    from engine.detectors.safety_net import SafetyNetDetector

    spacy_like = type("SpacyLike", (_FirstWhen, Detector), {"name": "spacy"})
    token_like = type("TokenLike", (_FirstWhen, Detector), {"name": "transformer"})
    text = (
        "Q. When did you arrive?\nA. When it was dark. I said, When can I go? He said "
        "Here. When he left, Here we go.\nQ. When?\nA. When I could.\n"
    )
    result = Ensemble(
        [PatternDetector(), spacy_like(), token_like(), PropagationDetector(), SafetyNetDetector()]
    ).run(Document(text))
    assert [text[s.start : s.end] for s in result.spans] == []


def test_the_safety_net_does_not_propose_an_acronyms_plural():
    from engine.detectors.safety_net import possible_misses

    text = "A. The MRIs showed nothing and the CSOs left. Zyranthe stayed."
    assert [text[c.start : c.end] for c in possible_misses(text, [])] == ["Zyranthe"]


def test_a_surname_in_a_list_is_evidence_and_a_surname_before_family_stays_a_person():
    text = "A. Letters from Julia Mares, Watts, Adegoke and me.\nTHE WITNESS: Watts and me talked."
    assert ("Watts", "span", "") in rules(text, [at(text, "Watts", detector="transformer", nth=1)])
    text = "Q. Any contact with the Wagnor family since then?"
    assert rules(text, [at(text, "Wagnor")]) == {("Wagnor", "span", "")}


def test_an_acronym_that_is_also_a_given_name_is_no_caps_given_name():
    text = "A. His passport number is 257781770, the VIN is ZJDF39CYEDND0V642, the plate too."
    assert caps_given_names(text) == []


def test_a_given_name_before_a_surname_both_english_words_stays_a_person():
    text = "THE WITNESS:   Angel Noble and a friend of hers, I think."
    assert ("Angel", "span", "") in rules(text, [at(text, "Angel", detector="transformer")])
    text = "THE WITNESS:   Traffic Control was closed."
    assert rules(text, [at(text, "Traffic")]) == {("Traffic", "dropped", "sentence-start-word")}
