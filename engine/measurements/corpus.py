"""Corpus statistics (the paper's Table 6): entities per label, per transcript and per
1,000 tokens. Django-free.

An entity here is a mention (a gold span); ``groups`` counts distinct reference groups
(``PERSON_3``) where the spans carry one. Tokens as the exported gold files hold them
(:func:`engine.datasheet.doc_tokens`: spaCy's English tokenizer cut at every span edge,
whitespace tokens not counted), so the dashboard, the datasheet and the CoNLL lines of
the same corpus give one count.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine.datasheet import doc_tokens
from engine.evaluation.metrics import _label_sort
from engine.gold import GoldDoc, GoldSpan
from engine.measurements.effort import per_1000
from engine.spans import SpanLike


def exported_tokens(text: str, spans: Sequence[SpanLike]) -> int:
    """Tokens of ``text`` as the exported gold files hold it with ``spans``."""
    gold = [GoldSpan(int(s.start), int(s.end), str(s.label)) for s in spans]
    return doc_tokens(GoldDoc("", text, gold))[0]


def corpus_statistics(docs: Sequence[tuple[object, str, Sequence[SpanLike]]]) -> dict:
    """``docs``: ``(doc_id, text, spans)``; spans have ``label`` and optionally ``entity``
    (a reference-group id). Returns totals, per-label and per-transcript figures."""
    labels: Counter[str] = Counter()
    groups: dict[str, set] = {}
    per_doc = []
    total_tokens = 0
    for doc_id, text, spans in docs:
        tokens = exported_tokens(text, spans)
        total_tokens += tokens
        doc_labels = Counter(str(s.label) for s in spans)
        labels.update(doc_labels)
        for s in spans:
            entity = getattr(s, "entity", None)  # a reference group, where the span has one
            if entity is not None:
                groups.setdefault(str(s.label), set()).add((doc_id, entity))
        per_doc.append(
            {
                "transcript": doc_id,
                "tokens": tokens,
                "entities": sum(doc_labels.values()),
                "per_1000_tokens": per_1000(sum(doc_labels.values()), tokens),
                "labels": {label: doc_labels[label] for label in _label_sort(doc_labels)},
            }
        )
    n = len(docs)
    total = sum(labels.values())
    return {
        "transcripts": n,
        "tokens": total_tokens,
        "entities": total,
        "per_transcript": total / n if n else None,
        "per_1000_tokens": per_1000(total, total_tokens),
        "labels": {
            label: {
                "count": labels[label],
                "groups": len(groups.get(label, ())),
                "share": labels[label] / total if total else None,
                "per_transcript": labels[label] / n if n else None,
                "per_1000_tokens": per_1000(labels[label], total_tokens),
            }
            for label in _label_sort(labels)
        },
        "documents": per_doc,
    }
