"""The transformer detector's reading plan (which text it reads) and its session options.

Model-free: ``_regions`` needs no loaded model; the int8 model itself is tested in
tests/test_detectors_quantize.py.
"""

import pytest

from engine.detectors.base import Detection
from engine.detectors.transformer import (
    TransformerDetector,
    _copied,
    may_hold_entity,
    session_options,
)


@pytest.mark.parametrize(
    "sentence",
    [
        "Cameron was there.",  # a name that starts the sentence
        "We went to see Dr. Ortega.",
        "I called 555-0100.",
        "It is spelled S-M-I-T-H.",
        "Write to jo@example.org.",
        "She lived in Delano then.",
        "O'Brien told me.",  # an apostrophe inside a name is no spelled letter
    ],
)
def test_sentences_with_a_possible_entity_are_read(sentence):
    assert may_hold_entity(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Yes, sir.",
        "I ran.",
        "Thank you.",
        "ATTORNEY LOPEZ: No, that's correct.",
        "all right.",
        "I'm grateful.",  # "I'm" is a common word, not letters spelled out
        "Anything to add?",
        "Honestly, I don't know.",
    ],
)
def test_sentences_without_one_are_skipped(sentence):
    assert not may_hold_entity(sentence)


def read(detector, text):
    return [text[a:b] for a, b in detector._regions(text)]


def test_skipped_sentences_keep_their_speaker_label():
    text = "CHRISTOPHER BERRY: Yes, sir. I told Cameron about it.\nMS. LEE: Thank you.\n"
    parts = read(TransformerDetector(), text)
    assert "CHRISTOPHER BERRY: " in parts
    assert "I told Cameron about it.\n" in parts
    assert "MS. LEE: " in parts
    assert not any("Thank you" in p or "Yes, sir" in p for p in parts)


def test_a_speaker_label_is_read_label_reads_times_and_its_later_occurrences_are_copies():
    text = "MS. LEE: I saw Ann.\nBOB KANE: Yes.\nMS. LEE: Fresno, then.\nMS. LEE: Okay.\n"
    regions, copies = TransformerDetector(label_reads=2)._plan(text)
    parts = [text[a:b] for a, b in regions]
    assert parts.count("MS. LEE: ") == 2 and parts.count("BOB KANE: ") == 1
    assert "Fresno, then.\n" in parts  # the sentence is read, without its label
    first, second, third = (i for i in range(len(text)) if text.startswith("MS. LEE:", i))
    assert copies == [(third, (first, second), len("MS. LEE: "))]


def test_a_copied_label_gets_the_reading_found_most_often():
    text = "MS. LEE: A.\nMS. LEE: B.\nMS. LEE: C.\nMS. LEE: D.\n"
    at = [i for i in range(len(text)) if text.startswith("MS. LEE:", i)]

    def lee(start, score=0.9):
        return Detection(start + 4, start + 7, "PERSON", score, "transformer")

    found = [lee(at[0]), lee(at[2], 0.8), Detection(at[1], at[1] + 7, "PERSON", 0.7, "x")]
    copies = [(at[3], (at[0], at[1], at[2]), len("MS. LEE: "))]
    (copy,) = _copied(found, copies)  # "LEE" twice against "MS. LEE" once
    assert text[copy.start : copy.end] == "LEE" and copy.start == at[3] + 4
    assert (copy.label, copy.detector) == ("PERSON", "transformer")


def test_a_label_found_empty_most_often_copies_nothing():
    text = "AL: A.\nAL: B.\nAL: C.\nAL: D.\n"
    at = [i for i in range(len(text)) if text.startswith("AL:", i)]
    found = [Detection(at[0], at[0] + 2, "PERSON", 0.9, "transformer")]
    assert _copied(found, [(at[3], (at[0], at[1], at[2]), 4)]) == []


def test_every_line_is_read_when_skipping_is_off_or_the_text_is_all_capitals():
    text = "MS. LEE: Thank you.\nYes, sir.\n"
    assert "".join(read(TransformerDetector(skip=False), text)) == text
    shouting = "MS. LEE: THANK YOU.\nYES, SIR.\n"
    assert "".join(read(TransformerDetector(), shouting)) == shouting


def test_pieces_keep_offsets_in_the_whole_text():
    detector = TransformerDetector()
    detector.max_tokens = 8

    class Tok:  # one "word piece" per character, offsets relative to the region
        def encode_batch(self, texts, add_special_tokens=False):
            class Enc:
                def __init__(self, t):
                    self.ids = list(range(len(t)))
                    self.offsets = [(i, i + 1) for i in range(len(t))]

            return [Enc(t) for t in texts]

    detector.model = type("M", (), {"tokenizer": Tok()})()
    text = "A: Yes.\nB: Ann Lee was here.\n"
    pieces = detector._pieces(text)
    assert all(len(ids) <= 8 for _o, ids, _offs in pieces)
    covered = "".join(text[s:e] for _o, _ids, offs in pieces for s, e in offs)
    assert covered == "A: " + "B: Ann Lee was here.\n"


def test_sessions_run_on_the_given_threads_without_spinning():
    options = session_options(1)
    assert options.intra_op_num_threads == 1
    assert options.inter_op_num_threads == 1
    assert options.get_session_config_entry("session.intra_op.allow_spinning") == "0"
