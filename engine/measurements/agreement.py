"""Agreement between two annotators of the same text. Django-free.

Token level: the text is cut with :func:`engine.evaluation.tokenize`; each token
gets the label of the span that overlaps it (the longest overlap wins; ties go to the
scheme's label order), or ``"O"``. Over the sequence of tokens of every document
pair we compute Cohen's kappa and Krippendorff's alpha (nominal, the ``krippendorff``
package). Per label, kappa treats the tokens as "this label or not".

Span level: exact-match F1 between the two annotators per label (annotator A taken
as the reference; F1 is symmetric, precision and recall swap with the roles).

Kappa counts every token, ``O`` included, as the literature on NER agreement does;
because most tokens are ``O`` on both sides, it reads higher than span F1.
Undefined values (every token the same category on both sides) are ``None``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np

from engine.evaluation.metrics import (
    _LABEL_ORDER,
    _label_sort,
    evaluate_documents,
    tokenize,
)
from engine.gold import GoldDoc
from engine.spans import SpanLike, shape

OUTSIDE = "O"


def token_labels(
    text: str, spans: Sequence[SpanLike], tokens: Sequence[tuple[int, int]] | None = None
) -> list[str]:
    """One label per token of ``text`` (``"O"`` where no span overlaps it)."""
    tokens = tokenize(text) if tokens is None else tokens
    ordered = sorted(shape(s) for s in spans)
    out = []
    for t0, t1 in tokens:
        best = None
        for s, e, label in ordered:
            if s >= t1:
                break
            overlap = min(e, t1) - max(s, t0)
            if overlap > 0:
                key = (-overlap, _LABEL_ORDER.get(label, 99), label)
                if best is None or key < best[0]:
                    best = (key, label)
        out.append(best[1] if best else OUTSIDE)
    return out


def cohen_kappa(a: Sequence[str], b: Sequence[str]) -> float | None:
    """Cohen's kappa of two equally long label sequences; ``None`` where undefined."""
    if len(a) != len(b):
        raise ValueError("both annotators must label the same tokens")
    n = len(a)
    if n == 0:
        return None
    observed = sum(1 for x, y in zip(a, b, strict=True) if x == y) / n
    ca, cb = Counter(a), Counter(b)
    expected = sum(ca[k] * cb.get(k, 0) for k in ca) / (n * n)
    if expected >= 1.0:
        return None
    return (observed - expected) / (1.0 - expected)


def krippendorff_alpha(a: Sequence[str], b: Sequence[str]) -> float | None:
    """Krippendorff's alpha (nominal) for two coders; ``None`` where undefined."""
    import krippendorff

    if len(a) != len(b):
        raise ValueError("both annotators must label the same tokens")
    if not a or len(set(a) | set(b)) < 2:
        return None
    codes = {v: i for i, v in enumerate(sorted(set(a) | set(b)))}
    data = np.array([[codes[x] for x in a], [codes[y] for y in b]], dtype=float)
    value = krippendorff.alpha(reliability_data=data, level_of_measurement="nominal")
    return None if value is None or np.isnan(value) else float(value)


def agreement(pairs: Sequence[tuple[str, Sequence[SpanLike], Sequence[SpanLike]]]) -> dict:
    """Agreement over document pairs ``(text, spans_a, spans_b)`` (same text).

    Returns ``{"documents", "tokens", "observed", "kappa", "alpha",
    "span": {"p","r","f1","tp","fp","fn"}, "labels": {LABEL: {"kappa", "span": {...},
    "tokens_a", "tokens_b"}}}``.
    """
    seq_a: list[str] = []
    seq_b: list[str] = []
    gold_docs, preds = [], {}
    for i, (text, spans_a, spans_b) in enumerate(pairs):
        tokens = tokenize(text)
        seq_a += token_labels(text, spans_a, tokens)
        seq_b += token_labels(text, spans_b, tokens)
        doc_id = str(i)
        gold_docs.append(GoldDoc(doc_id, text, list(spans_a)))
        preds[doc_id] = list(spans_b)
    spans = evaluate_documents(gold_docs, preds)
    n = len(seq_a)
    labels = _label_sort((set(seq_a) | set(seq_b)) - {OUTSIDE})
    per_label = {}
    for label in labels:
        bin_a = [x == label for x in seq_a]
        bin_b = [y == label for y in seq_b]
        per_label[label] = {
            "kappa": cohen_kappa(bin_a, bin_b),
            "tokens_a": sum(bin_a),
            "tokens_b": sum(bin_b),
            "span": spans["labels"].get(label, {}).get("exact", {}),
        }
    for label, scores in spans["labels"].items():
        per_label.setdefault(
            label, {"kappa": None, "tokens_a": 0, "tokens_b": 0, "span": scores["exact"]}
        )
    return {
        "documents": len(pairs),
        "tokens": n,
        "observed": (sum(1 for x, y in zip(seq_a, seq_b, strict=True) if x == y) / n)
        if n
        else None,
        "kappa": cohen_kappa(seq_a, seq_b),
        "alpha": krippendorff_alpha(seq_a, seq_b),
        "span": spans["overall"]["exact"],
        "labels": {label: per_label[label] for label in _label_sort(per_label)},
    }


def fleiss_kappa(ratings: Sequence[Sequence[str]]) -> float | None:
    """Fleiss' kappa: ``ratings[i]`` holds the category each rater gave item ``i`` (the
    same number of raters per item, at least two); ``None`` where undefined."""
    if not ratings:
        return None
    raters = len(ratings[0])
    if raters < 2 or any(len(row) != raters for row in ratings):
        raise ValueError("every item needs the same number (at least two) of ratings")
    n = len(ratings)
    totals: Counter[str] = Counter()
    agree = 0.0
    for row in ratings:
        counts = Counter(row)
        totals.update(counts)
        agree += (sum(c * c for c in counts.values()) - raters) / (raters * (raters - 1))
    observed = agree / n
    expected = sum((c / (n * raters)) ** 2 for c in totals.values())
    if expected >= 1.0:
        return None
    return (observed - expected) / (1.0 - expected)


# Published figures to read ours beside (what they measured differs from ours: say so).
REFERENCES = [
    {
        "source": "SweLL: Volodina et al. 2020, COLING, 'Towards Privacy by Design in Learner "
        "Corpora Research' (https://aclanthology.org/2020.coling-main.32)",
        "measure": "Fleiss' kappa and Krippendorff's alpha",
        "value": 0.86,
        "what": "labelling the personal information found in Swedish learner essays "
        "(categories of identified items)",
    },
    {
        "source": "Itani, Siskou & Hautli-Janisz 2024, NLLP, 'Automated Anonymization of "
        "Parole Hearing Transcripts'",
        "measure": "inter-annotator agreement",
        "value": None,
        "what": "not available to this project's sources when this was written: add the "
        "paper's figure here (engine.measurements.agreement.REFERENCES) from the paper",
    },
]


def _shapes(text: str, spans: Sequence[SpanLike]) -> tuple[list, list]:
    """(name parts, whole mentions) of ``spans`` in any PERSON shape."""
    from engine.detectors.names import stored_pieces
    from engine.mentions import join_name_parts
    from engine.spans import TextSpan

    parts = []
    for span in spans:
        s, e, label = shape(span)
        pieces = stored_pieces(text, s, e, label) if label == "PERSON" else [(s, e)]
        parts += [TextSpan(a, b, label) for a, b in pieces or [(s, e)]]
    return parts, join_name_parts(text, parts)


def agreement_report(
    pairs: Sequence[tuple[str, Sequence[SpanLike], Sequence[SpanLike]]],
) -> dict:
    """:func:`agreement` plus what a corpus paper reports: token level Cohen's and Fleiss'
    kappa and Krippendorff's alpha, span F1 between the annotators on whole mentions
    and on name parts (``spans`` in either shape), and :data:`REFERENCES` beside them.

    ``span`` and ``labels[...]["span"]`` are on whole mentions; ``span_name_parts``
    on name parts. Tokens carry the same labels in both shapes (the space between two
    name parts is no token), so the token figures hold for both."""
    whole, parts = [], []
    ratings: list[list[str]] = []
    for text, spans_a, spans_b in pairs:
        parts_a, whole_a = _shapes(text, spans_a)
        parts_b, whole_b = _shapes(text, spans_b)
        whole.append((text, whole_a, whole_b))
        parts.append((text, parts_a, parts_b))
        tokens = tokenize(text)
        ratings += [
            [x, y]
            for x, y in zip(
                token_labels(text, whole_a, tokens),
                token_labels(text, whole_b, tokens),
                strict=True,
            )
        ]
    report = agreement(whole)
    report["fleiss_kappa"] = fleiss_kappa(ratings)
    report["span_name_parts"] = agreement(parts)["span"]
    report["mentions"] = "whole"
    report["references"] = REFERENCES
    return report
