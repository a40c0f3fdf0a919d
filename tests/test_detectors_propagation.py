"""Propagation from the ordinary-word rule of English (not of one transcript), on the
generator's hard cases (transcripts/synthetic/hard_cases.py)."""

import pytest

from engine.detectors.base import Detection, Document
from engine.detectors.cover import CoverPageDetector
from engine.detectors.ensemble import Ensemble
from engine.detectors.patterns import PatternDetector
from engine.detectors.propagation import PropagationDetector
from engine.detectors.safety_net import SafetyNetDetector
from engine.synthetic import generate_hearing


def propagate(text, found):
    document = Document(text, {})
    document.artifacts["detections"] = found
    return sorted({text[d.start : d.end] for d in PropagationDetector().detect(document)})


def test_a_lowercase_slip_no_longer_stops_the_name_from_propagating():
    text = "Did pellegrino -- Mr. pellegrino, that's P as in Paul. Pellegrino was from a rival set. PELLEGRINO."
    found = [Detection(22, 32, "PERSON", 0.9, "presidio", "honorific")]
    assert propagate(text, found) == ["PELLEGRINO", "Pellegrino", "pellegrino"]


def test_a_first_name_found_with_a_surname_reaches_its_standalone_lowercase_uses():
    text = "Tyrell Okafor testified. Later tyrell called, and Tyrell wrote."
    found = [
        Detection(0, 6, "PERSON", 0.9, "spacy"),
        Detection(7, 13, "PERSON", 0.9, "spacy"),
    ]
    assert propagate(text, found) == ["Okafor", "Tyrell", "tyrell"]


def test_a_name_that_is_an_english_word_propagates_capitalised_in_mid_sentence_only():
    text = "Mr. Young came. Young people wait. We saw Young there, a young man."
    found = [Detection(4, 9, "PERSON", 0.9, "cover+spacy")]
    document = Document(text, {})
    document.artifacts["detections"] = found
    spans = [(d.start, d.end) for d in PropagationDetector().detect(document)]
    assert (text.index("Young there"), text.index("Young there") + 5) in spans
    assert (text.index("Young people"), text.index("Young people") + 5) not in spans
    assert all(text[s:e] != "young" for s, e in spans)


def test_an_english_word_name_after_an_honorific_abbreviation_is_in_mid_sentence():
    text = "Young Quill spoke. Later we asked Mr. Young. Young people wait."
    found = [Detection(0, 5, "PERSON", 0.9, "cover")]
    document = Document(text, {})
    document.artifacts["detections"] = found
    spans = {(d.start, d.end) for d in PropagationDetector().detect(document)}
    at = text.index("Mr. Young") + 4
    assert (at, at + 5) in spans
    assert (text.index("Young people"), text.index("Young people") + 5) not in spans


def test_an_english_word_named_by_one_model_alone_is_not_copied():
    text = "You completed the Landscaping vocation? I finished Landscaping in May."
    found = [Detection(18, 29, "PERSON", 0.85, "presidio")]
    assert propagate(text, found) == []


def test_presidio_ner_and_spacy_are_one_model_for_an_english_word_name():
    from engine.detectors.merge import merge

    text = "You completed the Landscaping vocation? I finished Landscaping in May."
    raw = [
        Detection(18, 29, "PERSON", 0.85, "presidio", "SpacyRecognizer"),
        Detection(18, 29, "PERSON", 0.85, "spacy", "PERSON"),
    ]
    merged = merge(raw, text)
    document = Document(text, {})
    document.artifacts["detections"] = [m.as_detection() for m in merged]
    document.artifacts["merged"] = merged
    assert PropagationDetector().detect(document) == []


@pytest.fixture(scope="module")
def hearing_result():
    h = generate_hearing(3101)
    ensemble = Ensemble(
        [PatternDetector(), CoverPageDetector(), PropagationDetector(), SafetyNetDetector()]
    )
    result = ensemble.run(Document(h.text, h.metadata))
    return h, result


def covered(result, start, end, net=True):
    return any(
        s.start <= start and end <= s.end and (net or set(s.sources) != {"safety_net"})
        for s in result.spans
    )


@pytest.mark.parametrize(
    "case", ["honorific_tag", "spelled_id_letters_digits", "address_block", "lowercase_slip"]
)
def test_generated_hard_cases_are_covered_without_models(hearing_result, case):
    h, result = hearing_result
    assert h.hard_cases[case]
    for start, end in h.hard_cases[case]:
        assert covered(result, start, end, net=False), h.text[start:end]


def test_generated_public_terms_survive(hearing_result):
    h, result = hearing_result
    for start, end in h.hard_cases["public_term"]:
        assert not any(s.start < end and start < s.end for s in result.spans), h.text[start:end]


def test_a_name_glued_to_a_page_number_in_a_word_index_is_still_copied_and_kept():
    from engine.detectors.clean import clean

    text = "Justice Okafor asked.\nindex 12:3 Okafor16:17 24:11 okafor's 3:2\n"
    found = [Detection(8, 14, "PERSON", 0.9, "presidio", "honorific")]
    document = Document(text, {})
    document.artifacts["detections"] = found
    copies = PropagationDetector().detect(document)
    kept = clean(text, copies)
    assert [text[d.start : d.end] for d in kept] == ["Okafor", "Okafor", "okafor"]
