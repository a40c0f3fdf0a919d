"""The recall safety net: name-shaped words nobody covered, low score, own provenance,
run after propagation."""

from engine.detectors.allow import AllowList
from engine.detectors.base import Detection, Document
from engine.detectors.cover import CoverPageDetector
from engine.detectors.ensemble import Ensemble, stage_of
from engine.detectors.patterns import PatternDetector
from engine.detectors.propagation import PropagationDetector
from engine.detectors.safety_net import SafetyNetDetector, possible_misses


def proposed(text, found=(), allow=None):
    return {text[c.start : c.end]: c.reason for c in possible_misses(text, list(found), allow)}


def test_an_uncovered_capitalised_word_that_is_no_english_word_is_a_possible_miss():
    text = "Then Okafor came by. Later the Chess club met."
    assert proposed(text) == {"Okafor": "name-shaped"}


def test_lexicon_terms_titles_roles_and_allow_listed_words_are_not_proposed():
    text = "The HCR-20 and the Static-99R, said Commissioner Quillfeather of Narconon."
    out = proposed(text, allow=AllowList(["Narconon"]))
    assert out == {"Quillfeather": "name-shaped"}


def test_case_variants_and_misspellings_of_a_known_name_are_proposed_in_any_case():
    text = "Pellegrino said so. Later pellegrino and PELEGRINO left. The young man left."
    found = [Detection(0, 10, "PERSON", 0.9, "spacy")]
    out = proposed(text, found)
    assert out == {"pellegrino": "name-variant", "PELEGRINO": "misspelling"}


def test_a_speaker_tag_and_a_word_after_an_honorific_are_proposed_when_uncovered():
    text = "MR. LONG: Yes.\nDid you see Mr. black there?\n"
    assert proposed(text) == {"LONG": "speaker-tag", "black": "honorific"}


def test_the_safety_net_runs_last_with_a_low_score_and_its_own_provenance():
    text = (
        "PRESIDING COMMISSIONER ALDEN: Did pellegrino -- Mr. pellegrino, that is. "
        "Pellegrino was from a rival set, with Zyranthe.\n"
    )
    ensemble = Ensemble(
        [PatternDetector(), CoverPageDetector(), PropagationDetector(), SafetyNetDetector()]
    )
    assert [stage_of(d) for d in ensemble.detectors] == [0, 0, 1, 2]
    result = ensemble.run(Document(text, {"participants": [{"name": "Ann Alden"}]}))
    by_text = {text[s.start : s.end]: s for s in result.spans}
    # propagation copied the honorific's lower-case name to every case variant
    assert {"pellegrino", "Pellegrino"} <= set(by_text)
    assert "propagation" in by_text["Pellegrino"].sources
    # the safety net only proposes what nobody else covered
    net = {k: s for k, s in by_text.items() if set(s.sources) == {"safety_net"}}
    assert set(net) == {"Zyranthe"}
    assert net["Zyranthe"].score == 0.3
    assert net["Zyranthe"].provenance == [
        {"detector": "safety_net", "score": 0.3, "reason": "name-shaped"}
    ]


def test_camel_case_product_names_and_doubled_pdf_letters_are_not_name_shaped():
    text = "PageID 44 and QuickLink and McDonald and FFiinnaall and DeShawn came."
    assert proposed(text) == {"McDonald": "name-shaped", "DeShawn": "name-shaped"}


def test_capitalised_headings_and_acronyms_are_not_proposed_but_a_name_in_capitals_is():
    text = "ADJOURNMENT\nWe read the DECS file. Then OKAFOR spoke.\n"
    assert proposed(text) == {"OKAFOR": "name-shaped"}


def test_a_name_that_is_an_english_word_made_a_name_by_strong_evidence_is_shown_elsewhere():
    text = "MS. DAY: Hello.\nQ: Ms. Day, thank you. Day was late that morning, she said."
    document = Document(text, {})
    result = Ensemble([PatternDetector(), PropagationDetector(), SafetyNetDetector()]).run(document)
    net = {text[s.start : s.end] for s in result.spans if set(s.sources) == {"safety_net"}}
    confident = [text[s.start : s.end] for s in result.spans if "safety_net" not in s.sources]
    assert "Day" in net  # the sentence-initial "Day": proposed, not decided
    assert confident.count("Day") == 1 and "DAY" in confident


def test_a_name_word_opening_a_sentence_as_the_everyday_word_is_not_shown():
    # "May I ...", "Long before ..." listed as possible misses where Ms. May and
    # Mr. Long testified (false alarms at Submit)
    text = (
        "MS. MAY: Hello.\nQ: Ms. May, thank you. May I ask one more thing?\n"
        "MR. LONG: Yes. Long before that, we had stopped. Long was late."
    )
    document = Document(text, {})
    result = Ensemble([PatternDetector(), PropagationDetector(), SafetyNetDetector()]).run(document)
    net = {s.start for s in result.spans if set(s.sources) == {"safety_net"}}
    assert text.index("May I") not in net
    assert text.index("Long before") not in net
    assert text.index("Long was") in net  # a name there, as far as the words say: shown
