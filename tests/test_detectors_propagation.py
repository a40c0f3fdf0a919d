"""Propagation from the ordinary-word rule of English (not of one transcript), on the
generator's hard cases (transcripts/synthetic/hard_cases.py)."""

import re

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
    "case",
    [
        "honorific_tag",
        "spelled_id_letters_digits",
        "address_block",
        "lowercase_slip",
        "name_list",
        "county_list",
        "caps_place",
        "title_run",
        "party_name",
        "case_party",
        "nickname",
        "caps_name",
    ],
)
def test_generated_hard_cases_are_covered_without_models(hearing_result, case):
    h, result = hearing_result
    assert h.hard_cases[case]
    for start, end in h.hard_cases[case]:
        # each word (a PERSON is stored as name parts: "Dora Varga" is two spans)
        for word in re.finditer(r"[A-Za-z0-9][\w'’-]*", h.text[start:end]):
            s, e = start + word.start(), start + word.end()
            assert covered(result, s, e, net=False), h.text[start:end]


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


def test_coordinated_words_share_the_label_of_a_found_name_or_place():
    text = (
        "Letters from Dorvish Tembley, Okonkwo, Varga and Pellegrino. Counties Ardenne and Velmont."
    )
    found = [
        Detection(13, 20, "PERSON", 0.9, "spacy"),
        Detection(21, 28, "PERSON", 0.9, "spacy"),
        Detection(text.index("Ardenne"), text.index("Ardenne") + 7, "LOCATION", 0.9, "presidio"),
    ]
    document = Document(text, {})
    document.artifacts["detections"] = found
    copies = {
        text[d.start : d.end]: (d.label, d.explanation)
        for d in PropagationDetector().detect(document)
        if d.explanation.startswith("coordinated")
    }
    assert copies == {
        "Okonkwo": ("PERSON", "coordinated"),
        "Varga": ("PERSON", "coordinated"),
        "Pellegrino": ("PERSON", "coordinated"),
        "Velmont": ("LOCATION", "coordinated"),
    }


def test_a_conjunct_is_not_an_english_word_a_place_a_role_or_another_case():
    from engine.detectors.propagation import coordinated

    text = (
        "Dorvish Tembley and Commissioner. Okonkwo, Sacramento. Varga and Comprehensive. "
        "PELLEGRINO and Quezada."
    )
    found = [
        Detection(8, 15, "PERSON", 0.9, "spacy"),
        Detection(34, 41, "PERSON", 0.9, "spacy"),
        Detection(text.index("Varga"), text.index("Varga") + 5, "PERSON", 0.9, "spacy"),
        Detection(text.index("PELL"), text.index("PELL") + 10, "PERSON", 0.9, "spacy"),
    ]
    assert coordinated(text, found) == []


def test_a_persons_conjunct_overrules_a_models_one_word_organisation_guess():
    from engine.detectors.merge import merge

    text = "I am with Dorvish and Tembley today."
    raw = [
        Detection(10, 17, "PERSON", 0.9, "spacy"),
        Detection(22, 29, "ORGANIZATION", 0.85, "spacy"),
    ]
    merged = merge(raw, text)
    document = Document(text, {})
    document.artifacts["detections"] = [m.as_detection() for m in merged]
    document.artifacts["merged"] = merged
    copies = PropagationDetector().detect(document)
    final = {text[m.start : m.end]: m.label for m in merge(raw + copies, text)}
    assert final == {"Dorvish": "PERSON", "Tembley": "PERSON"}


# --- What still leaked on unseen transcripts (hard_cases.round_two) -----------

ROUND_TWO_SEEDS = (3101, 3102, 3103)


@pytest.fixture(scope="module", params=ROUND_TWO_SEEDS)
def round_two_result(request):
    h = generate_hearing(request.param)
    ensemble = Ensemble(
        [PatternDetector(), CoverPageDetector(), PropagationDetector(), SafetyNetDetector()]
    )
    return h, ensemble.run(Document(h.text, h.metadata))


@pytest.mark.parametrize(
    "case",
    [
        "spoken_address",
        "town_in_speech",
        "name_is_word",
        "spaced_spelling",
        "ocr_date_time",
        "footer_name",
        "other_id",
    ],
)
def test_round_two_hard_cases_are_covered_without_models(round_two_result, case):
    h, result = round_two_result
    assert h.hard_cases[case]
    for start, end in h.hard_cases[case]:
        for word in re.finditer(r"[A-Za-z0-9][\w'’-]*", h.text[start:end]):
            s, e = start + word.start(), start + word.end()
            assert covered(result, s, e, net=False), (case, h.text[start:end], word.group(0))


def test_round_two_identifiers_outside_the_schema_are_other_ids(round_two_result):
    h, result = round_two_result
    for start, end in h.hard_cases["other_id"]:
        labels = {s.label for s in result.spans if s.start <= start and end <= s.end}
        assert labels == {"OTHER_ID"}, h.text[start:end]


def test_round_two_crown_and_court_titles_survive(round_two_result):
    h, result = round_two_result
    assert h.hard_cases["crown_term"]
    for start, end in h.hard_cases["crown_term"]:
        assert not any(s.start < end and start < s.end for s in result.spans), h.text[start:end]


def test_a_two_letter_name_an_honorific_made_a_name_is_copied_but_not_into_maam():
    text = "Mr. Bo will sign. We have Bo's letter. Yes, Ma'am. Then Ma'am said no."
    found = [Detection(4, 6, "PERSON", 0.9, "patterns", "honorific")]
    assert propagate(text, found) == ["Bo"]
    found = [Detection(text.index("Ma'am"), text.index("Ma'am") + 2, "PERSON", 0.9, "patterns")]
    assert [text[d.start : d.end] for d in PropagationDetector().detect(_doc(text, found))] == []


def _doc(text, found):
    document = Document(text, {})
    document.artifacts["detections"] = found
    return document


def test_a_lower_case_surname_after_an_honorific_is_kept_and_copied_in_lower_case():
    from engine.detectors.clean import clean

    text = "Did griffiths -- Mr. griffiths, that's it. I am young, Mr. young. Griffiths left."
    i = text.index("Mr. g") + 4
    found = [Detection(i, i + 9, "PERSON", 0.9, "patterns", "honorific")]
    j = text.index("Mr. y") + 4
    found.append(Detection(j, j + 5, "PERSON", 0.9, "patterns", "honorific"))
    kept = clean(text, found)
    assert [text[d.start : d.end] for d in kept] == ["griffiths"]  # "young" stays a word
    copies = clean(text, PropagationDetector().detect(_doc(text, kept)))
    assert [(d.start, text[d.start : d.end]) for d in copies if d.start < i] == [(4, "griffiths")]


def test_a_full_name_the_models_called_a_body_is_a_person_when_a_rule_named_its_surname():
    text = "names a Gbolahan Ilupeju in the fight. Mr. ilupeju was there. gbolahan and me."
    i = text.index("Gbolahan")
    j = text.index("Mr. i") + 4
    found = [
        Detection(i, i + 16, "ORGANIZATION", 0.85, "spacy", "ORG"),
        Detection(j, j + 7, "PERSON", 0.9, "patterns", "honorific"),
    ]
    out = PropagationDetector().detect(_doc(text, found))
    named = [(text[d.start : d.end], d.label) for d in out if d.explanation == "named-surname"]
    assert named == [("Gbolahan Ilupeju", "PERSON")]
    assert "gbolahan" in {text[d.start : d.end] for d in out}
    # a firm's two words whose second is no name found by a rule stay a body
    found[1] = Detection(j, j + 7, "PERSON", 0.6, "spacy", "PERSON")
    assert not [
        d
        for d in PropagationDetector().detect(_doc(text, found))
        if d.explanation == "named-surname"
    ]


# --- Everyday-word names alone in capitals, and opening a sentence -----------


def test_an_everyday_word_name_is_copied_in_capitals_inside_running_text_only():
    text = (
        "THE STATE v. HOPE ELLERY\nQ. Was HOPE there?\nA. No. HOPE came later.\n"
        "I HOPE YOU WILL RULE FOR US\nQ. Mr. Hope, did you hope so?"
    )
    at = text.index("Mr. Hope") + 4
    found = [Detection(at, at + 4, "PERSON", 0.9, "patterns", "honorific")]
    spans = [
        (d.start, text[d.start : d.end]) for d in PropagationDetector().detect(_doc(text, found))
    ]
    assert (text.index("HOPE there"), "HOPE") in spans
    assert (text.index("HOPE came"), "HOPE") in spans
    assert (text.index("I HOPE") + 2, "HOPE") not in spans  # a line in capitals
    assert all(word != "hope" for _, word in spans)


def test_an_everyday_word_name_opening_a_sentence_is_copied_only_as_a_subject():
    text = "Did you talk to Mr. Ng? Yes. Ng and Ms. Ho were there. Ng told me. Ng is fine."
    found = [Detection(20, 22, "PERSON", 0.9, "patterns", "honorific")]
    spans = {d.start for d in PropagationDetector().detect(_doc(text, found))}
    assert text.index("Ng and") in spans
    assert text.index("Ng told") in spans
    assert text.index("Ng is") not in spans
    text = "Ms. Long testified. Long before that, we had stopped. Long said no."
    found = [Detection(4, 8, "PERSON", 0.9, "patterns", "honorific")]
    spans = {d.start for d in PropagationDetector().detect(_doc(text, found))}
    assert text.index("Long before") not in spans
    assert text.index("Long said") in spans


def test_an_everyday_word_given_before_a_surname_is_copied_whoever_found_it():
    text = "Who is Grace Verbeek? My cousin. Was GRACE there? We saw Grace at home."
    found = [
        Detection(7, 12, "PERSON", 0.85, "spacy"),
        Detection(13, 20, "PERSON", 0.85, "spacy"),
    ]
    spans = {
        (d.start, text[d.start : d.end]) for d in PropagationDetector().detect(_doc(text, found))
    }
    assert (text.index("GRACE"), "GRACE") in spans
    assert (text.index("Grace at"), "Grace") in spans


def test_an_everyday_word_name_opening_a_sentence_before_its_surname_is_copied():
    text = "Who is Hope? A. Hope Ellery, the defendant. Hope is all we have."
    found = [
        Detection(7, 11, "PERSON", 0.85, "spacy+transformer"),
        Detection(text.index("Ellery"), text.index("Ellery") + 6, "PERSON", 0.85, "spacy"),
    ]
    spans = {d.start for d in PropagationDetector().detect(_doc(text, found))}
    assert text.index("Hope Ellery") in spans
    assert text.index("Hope is") not in spans


def test_a_model_named_everyday_word_after_a_title_is_copied_where_it_is_a_subject():
    text = "Did you talk to Detective Pak? Yes. Pak told me to wait. The pak was heavy."
    found = [Detection(26, 29, "PERSON", 0.85, "spacy")]
    assert propagate(text, found) == ["Pak"]
    # the same word named by one model without a title stays where it was found
    text = "Did you talk to Pak? Yes. Pak told me to wait."
    assert propagate(text, [Detection(16, 19, "PERSON", 0.85, "spacy")]) == []


def _lower_case_drops(start, end):
    from engine.detectors.decisions import DROPPED, Decision

    return [
        Decision("spacy", start, end, "PERSON", DROPPED, "lower-case", "PERSON"),
        Decision("presidio", start, end, "PERSON", DROPPED, "lower-case", "SpacyRecognizer"),
        Decision("transformer", start, end, "PERSON", DROPPED, "lower-case", "GIVEN_NAME"),
        Decision("domain", start, end, "PERSON", DROPPED, "lower-case", "domain model"),
    ]


def test_a_lower_case_slip_of_a_given_name_every_model_called_a_person_is_proposed():
    from engine.detectors.clean import clean

    text = "Malcolm McDevitt was there. malcolm and me never got along. I hope malcolm knew."
    document = Document(text, {})
    document.artifacts["detections"] = [
        Detection(0, 7, "PERSON", 0.9, "spacy"),
        Detection(8, 16, "PERSON", 0.9, "spacy"),
    ]
    slip = text.index("malcolm")
    document.artifacts["decisions"] = _lower_case_drops(slip, slip + 7)
    found = PropagationDetector().detect(document)
    lower = [d for d in found if text[d.start : d.end] == "malcolm"]
    # the word the models read, not every lower-case use of it
    assert [(d.start, d.end) for d in lower] == [(slip, slip + 7)]
    assert [text[d.start : d.end] for d in clean(text, lower)] == ["malcolm"]
    # two of the three models (spaCy, also through Presidio, and the token classifier)
    # are not enough
    document.artifacts["decisions"] = _lower_case_drops(slip, slip + 7)[:3]
    assert not [
        d for d in PropagationDetector().detect(document) if text[d.start : d.end] == "malcolm"
    ]


def _final(text, raw):
    from engine.detectors.merge import merge

    merged = merge(raw, text)
    document = Document(text, {})
    document.artifacts["detections"] = [m.as_detection() for m in merged]
    document.artifacts["merged"] = merged
    copies = PropagationDetector().detect(document)
    return [(text[m.start : m.end], m.label) for m in merge(raw + copies, text)]


def test_an_employer_a_rule_named_whole_stays_one_organization_where_models_split_it():
    text = "I work at Hartley Brandt. Hartley Brandt does audits. Nobody at Hartley Brandt knows."
    raw = [
        Detection(10, 24, "ORGANIZATION", 0.9, "presidio", explanation="employer"),
        Detection(26, 33, "PERSON", 0.85, "spacy"),
        Detection(34, 40, "PERSON", 0.85, "spacy"),
        Detection(26, 33, "PERSON", 0.8, "domain"),
        Detection(34, 40, "PERSON", 0.8, "domain"),
    ]
    assert _final(text, raw) == [("Hartley Brandt", "ORGANIZATION")] * 3


def test_a_company_a_rule_named_is_an_organization_where_models_call_it_a_place():
    text = "Ardenvale is a trucking outfit. I've been with Ardenvale, and Ardenvale paid me."
    raw = [
        Detection(0, 9, "ORGANIZATION", 0.9, "presidio", explanation="business-named"),
        Detection(47, 56, "LOCATION", 0.85, "spacy"),
        Detection(47, 56, "LOCATION", 0.8, "domain"),
        Detection(47, 56, "LOCATION", 0.9, "transformer"),
        Detection(62, 71, "LOCATION", 0.85, "spacy"),
    ]
    assert _final(text, raw) == [("Ardenvale", "ORGANIZATION")] * 3


def test_a_firm_named_for_a_person_a_rule_named_keeps_the_persons_name_a_person():
    text = "I work at Kessler Vance. Mr. Kessler Vance was there."
    raw = [
        Detection(10, 23, "ORGANIZATION", 0.9, "presidio", explanation="employer"),
        Detection(29, 42, "PERSON", 0.9, "presidio", explanation="honorific"),
    ]
    assert _final(text, raw) == [("Kessler Vance", "ORGANIZATION"), ("Kessler Vance", "PERSON")]


def test_a_town_after_then_in_a_list_of_places_overrules_a_models_person_guess():
    text = "We lived in Garrison for a while, then Whitfield."
    raw = [
        Detection(12, 20, "LOCATION", 0.88, "presidio", explanation="place-after-verb"),
        Detection(39, 48, "PERSON", 0.85, "spacy"),
        Detection(39, 48, "PERSON", 0.9, "transformer"),
    ]
    assert _final(text, raw) == [("Garrison", "LOCATION"), ("Whitfield", "LOCATION")]
    text = "I called Fresno, then Marcus."
    raw = [
        Detection(9, 15, "LOCATION", 0.9, "presidio", explanation="gazetteer-place"),
        Detection(22, 28, "PERSON", 0.85, "spacy"),
    ]
    assert _final(text, raw) == [("Fresno", "LOCATION"), ("Marcus", "PERSON")]


def test_an_unknown_word_before_a_surname_a_rule_named_is_the_given_name_and_is_copied():
    text = (
        "It names a Kwasi Akyeampong. Mr. akyeampong said so. Then Akyeampong left. kwasi and me."
    )
    raw = [Detection(33, 43, "PERSON", 0.9, "patterns", explanation="honorific")]
    final = _final(text, raw)
    assert ("Kwasi", "PERSON") in final and ("kwasi", "PERSON") in final
    assert "Then" not in [value for value, _ in final]
