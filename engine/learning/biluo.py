"""The domain head that tags every token at once: BILUO tags, decoded to spans.

The domain model's head is a spaCy ``tagger`` (``spacy.Tagger.v2``: a softmax over the
tags, one matrix product per batch) on the frozen shared vectors beside a small
``tok2vec`` of its own (``engine.learning.domain_arch``); its tags are the BILUO scheme
of the entity labels (``B-PERSON``, ``I-PERSON``, ``L-PERSON``, ``U-PERSON``, ..., ``O``).
It replaced a transition-based ``ner`` head that cost ten times as much per token at
the same held-out F1 (docs/learning.md, "The model family"). Django-free.

    head_component(nlp)      # ("biluo", the tagger) or ("ner", an older model's head)
    tag_labels(labels)       # every tag the head can give, "O" first
    head_spans(head, docs, offsets)   # [(start, end, label)]: best_tags, then spans
    spans_from_tags(doc, offset, tags)   # [(start, end, label)] of a doc's tags
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

HEAD = "biluo"  # the pipe name of the tagger head in a domain model
NER = "ner"  # the pipe name of an older model's transition-based head
OUTSIDE = "O"


def tag_labels(labels: Sequence[str]) -> list[str]:
    """Every BILUO tag of ``labels`` (a fixed order: the same labels, the same head shape,
    so a retraining can start from the active head)."""
    return [OUTSIDE, *(f"{kind}-{label}" for label in labels for kind in "BILU")]


def head_component(nlp: Any) -> tuple[str, Any]:
    """The head of a domain pipeline and its pipe name (``(NER, None)`` for a pipeline
    with neither: its entities, if any, are what it finds)."""
    name = HEAD if HEAD in nlp.pipe_names else NER
    return name, nlp.get_pipe(name) if name in nlp.pipe_names else None


def is_tagger(component: Any) -> bool:
    return getattr(component, "name", "") == HEAD


def head_spans(head: Any, docs: list, offsets: Sequence[int]) -> list[tuple[int, int, str]]:
    """The spans the tagger ``head`` finds in ``docs`` (each at its ``offsets`` in the
    text): its scores decoded to the best sequence that keeps to the scheme
    (``best_tags``). The docs' own tags are left as they were."""
    found: list[tuple[int, int, str]] = []
    sequences = best_tags(head.labels, head.model.predict(docs))  # scores, not argmax
    for doc, offset, tags in zip(docs, offsets, sequences, strict=True):
        found.extend(spans_from_tags(doc, offset, tags))
    return found


def spans_from_tags(doc: Any, offset: int, tags: Sequence[str]) -> list[tuple[int, int, str]]:
    """The entity spans of ``tags`` (one BILUO tag per token of ``doc``), read leniently:
    a mention begins at ``B``/``U`` or at an ``I``/``L`` that does not continue one of
    its label, and ends at ``L``/``U`` or where the next tag does not continue it
    (``best_tags`` keeps to the scheme; tags picked one by one need not)."""
    spans: list[tuple[int, int, str]] = []
    start = end = -1
    label = ""

    def close() -> None:
        nonlocal start
        if start >= 0:
            spans.append((offset + start, offset + end, label))
        start = -1

    from spacy.attrs import IDX, LENGTH

    # the tokens' offsets from the doc's arrays (no Python object per token)
    for (idx, length), tag in zip(doc.to_array([IDX, LENGTH]).tolist(), tags, strict=True):
        tag = tag or OUTSIDE
        if tag == OUTSIDE or len(tag) < 3 or tag[1] != "-":
            close()
            continue
        kind, this = tag[0], tag[2:]
        if kind in "BU" or start < 0 or this != label:
            close()
            start, label = idx, this
        end = idx + length
        if kind in "LU":
            close()
    close()
    return spans


def tag_example(example: Any) -> Any:
    """A tagger's training ``Example`` of an NER ``Example``: its BILUO tags, with the
    tokens whose entity is missing (off token boundaries, an ignored region) missing."""
    from spacy.training import Example

    tags = [t if t not in (None, "-") else "" for t in example.get_aligned_ner()]
    return Example.from_dict(example.predicted, {"tags": tags})


def _layout(tags: Sequence[str]) -> tuple[list[str], Any, int]:
    """The labels of ``tags`` and, per label, the indices of its B, I, L, U tags; the
    index of O."""
    import numpy

    index = {t: i for i, t in enumerate(tags)}
    labels = sorted({t[2:] for t in tags if len(t) > 2 and t[1] == "-"})
    table = numpy.array([[index.get(f"{k}-{label}", -1) for k in "BILU"] for label in labels])
    if (table < 0).any() or OUTSIDE not in index:
        raise ValueError("the head's tags are not a complete BILUO set")
    return labels, table, index[OUTSIDE]


def best_tags(tags: Sequence[str], scores: list) -> list[list[str]]:
    """The most probable tag sequence of each doc that keeps to the BILUO scheme (a
    mention opens with B and closes with L of its label, or is one U; Viterbi over the
    softmax's log probabilities), for a batch: ``scores[i]`` is doc i's (tokens × tags)
    array of scores before the softmax (the head's output: ``normalize`` is off).
    Decoding all docs of a batch position by position keeps it to a few numpy operations
    per position (a 15,000-word hearing: tens of milliseconds)."""
    import numpy

    labels, table, o = _layout(tags)
    n_docs = len(scores)
    if not n_docs:
        return []
    lengths = [len(s) for s in scores]
    width = max(lengths)
    n_labels = len(labels)
    logp = numpy.full((n_docs, width, len(tags)), -1e9, dtype="float32")
    for d, s in enumerate(scores):
        if len(s):
            x = numpy.asarray(s, dtype="float32")
            top = x.max(1, keepdims=True)
            logp[d, : len(s)] = x - top - numpy.log(numpy.exp(x - top).sum(1, keepdims=True))
    b_i, i_i, l_i, u_i = (table[:, k] for k in range(4))
    rows = numpy.arange(n_docs)
    outside = numpy.zeros(n_docs, dtype="float32")  # best score ending outside a mention
    inside = numpy.full((n_docs, n_labels), -1e9, dtype="float32")  # inside a mention of x
    back_out = numpy.zeros((n_docs, width, 2), dtype="int32")  # (kind, label) that led out
    back_in = numpy.zeros((n_docs, width, n_labels), dtype=bool)  # True: began here (B)
    for t in range(width):
        lp = logp[:, t]
        via_o = outside + lp[:, o]
        via_u = outside[:, None] + lp[:, u_i]
        via_l = inside + lp[:, l_i]
        best_u, best_l = via_u.argmax(1), via_l.argmax(1)
        options = numpy.stack([via_o, via_u[rows, best_u], via_l[rows, best_l]], axis=1)
        kind = options.argmax(1)
        back_out[:, t, 0] = kind
        back_out[:, t, 1] = numpy.where(kind == 1, best_u, best_l)
        via_b = outside[:, None] + lp[:, b_i]
        via_i = inside + lp[:, i_i]
        began = via_b >= via_i
        back_in[:, t] = began
        inside = numpy.where(began, via_b, via_i)
        outside = options[rows, kind]
        # a shorter doc's padding (every tag improbable) comes after its last token: the
        # way back starts at that token and never reads it
    out: list[list[str]] = []
    for d, n in enumerate(lengths):
        seq = [OUTSIDE] * n
        state = -1  # -1: outside a mention; else inside a mention of label ``state``
        for t in range(n - 1, -1, -1):
            if state < 0:
                kind, label = back_out[d, t]
                if kind == 0:
                    seq[t] = OUTSIDE
                elif kind == 1:
                    seq[t] = f"U-{labels[label]}"
                else:
                    seq[t] = f"L-{labels[label]}"
                    state = int(label)
            else:
                if back_in[d, t, state]:
                    seq[t] = f"B-{labels[state]}"
                    state = -1
                else:
                    seq[t] = f"I-{labels[state]}"
        out.append(seq)
    return out
