"""Precision, recall and F1 of predicted spans against gold spans. Django-free.

Offsets are characters into the document text, end exclusive.

Two levels (DESIGN.md, ``evaluate --json``):

* **exact**: a prediction is a true positive when a gold span has the same
  ``start``, ``end`` and ``label``; every other prediction is a false positive and
  every unmatched gold span a false negative. Duplicates (same start, end, label)
  count once.
* **token**: the text is cut into tokens (runs of word characters, and every
  punctuation character on its own; whitespace separates). A token carries a label
  when a span of that label overlaps it. For each token and label: gold and predicted
  → tp; predicted only → fp; gold only → fn. A token whose gold label is ``PERSON``
  but is predicted ``LOCATION`` counts one fn for PERSON and one fp for LOCATION.

Gold ``ignore`` regions (e.g. speaker prefixes a benchmark did not annotate):

* a predicted span that overlaps an ignore region and overlaps no gold span counts
  neither way (exact level);
* gold spans lying wholly inside an ignore region are dropped;
* tokens overlapping an ignore region are skipped at token level.

``leaked_tokens``: gold tokens (tokens with at least one gold label, outside ignore
regions) that no prediction of any label overlaps — the words that would stay
readable in the release.

Spans are read by attribute (``engine.spans.SpanLike``: ``start``, ``end``, ``label``),
documents are ``engine.gold.GoldDoc``\ s; nothing here accepts "a dict or an object".

Per detector: the predictions that name the detector (``.detector``, or any entry of
``.detectors`` — strings or provenance dicts ``{"detector": name}``) scored alone
against all gold spans, which is the "detector run alone" figure of Table 5 when the
ensemble keeps every detector's contribution in its provenance.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.labels import LABELS
from engine.spans import SpanLike, shape

if TYPE_CHECKING:
    from engine.gold import GoldDoc

TOKEN_RE = re.compile(r"\w+|[^\w\s]")

_LABEL_ORDER = {label: i for i, label in enumerate(LABELS)}


@dataclass(slots=True)
class PRF:
    """Counts with derived precision, recall and F1 (0.0 where undefined)."""

    tp: int = 0
    fp: int = 0
    fn: int = 0

    def add(self, other: PRF) -> None:
        self.tp += other.tp
        self.fp += other.fp
        self.fn += other.fn

    @property
    def p(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0

    @property
    def r(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0

    @property
    def f1(self) -> float:
        p, r = self.p, self.r
        return 2 * p * r / (p + r) if p + r else 0.0

    def as_dict(self) -> dict[str, float | int]:
        return {
            "p": self.p,
            "r": self.r,
            "f1": self.f1,
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
        }


def prf(tp: int, fp: int, fn: int) -> dict[str, float | int]:
    """``{"p", "r", "f1", "tp", "fp", "fn"}`` from counts."""
    return PRF(tp, fp, fn).as_dict()


def tokenize(text: str) -> list[tuple[int, int]]:
    """Token offsets ``(start, end)``: word runs and single punctuation characters."""
    return [m.span() for m in TOKEN_RE.finditer(text)]


def detectors_of(prediction: SpanLike) -> list[str]:
    """The detector names a prediction credits: its ``detectors`` (names, or provenance
    dicts as stored) and its ``detector``, where it has them; deduplicated, in order."""
    names: list[str] = []
    for item in getattr(prediction, "detectors", None) or ():
        name = item.get("detector", "") if isinstance(item, Mapping) else str(item)
        if name:
            names.append(name)
    one = getattr(prediction, "detector", "")
    if one:
        names.append(str(one))
    return list(dict.fromkeys(names))


def _triples(spans: Iterable[SpanLike]) -> set[tuple[int, int, str]]:
    return {shape(s) for s in spans}


def _overlaps(a0: int, a1: int, b0: int, b1: int) -> bool:
    return a0 < b1 and b0 < a1


def _overlaps_any(start: int, end: int, regions: Sequence[tuple[int, int]]) -> bool:
    return any(_overlaps(start, end, s, e) for s, e in regions)


def _label_sort(labels: Iterable[str]) -> list[str]:
    return sorted(set(labels), key=lambda lab: (_LABEL_ORDER.get(lab, len(_LABEL_ORDER)), lab))


class _Scores:
    """Accumulates exact and token counts per label."""

    def __init__(self) -> None:
        self.exact: dict[str, PRF] = defaultdict(PRF)
        self.token: dict[str, PRF] = defaultdict(PRF)

    def overall(self, level: str) -> PRF:
        total = PRF()
        for counts in getattr(self, level).values():
            total.add(counts)
        return total

    def labels(self) -> list[str]:
        return _label_sort(list(self.exact) + list(self.token))

    def summary(self) -> dict[str, dict]:
        return {"exact": self.overall("exact").as_dict(), "token": self.overall("token").as_dict()}


def _score_doc(
    scores: _Scores,
    *,
    text: str,
    tokens: list[tuple[int, int]],
    gold: set[tuple[int, int, str]],
    ignore: list[tuple[int, int]],
    predictions: set[tuple[int, int, str]],
) -> int:
    """Add one document's counts to ``scores``; return its leaked-token count."""
    kept = set()
    for start, end, label in predictions:
        if _overlaps_any(start, end, ignore) and not any(
            _overlaps(start, end, g0, g1) for g0, g1, _ in gold
        ):
            continue
        kept.add((start, end, label))
    for start, end, label in gold | kept:
        counts = scores.exact[label]
        if (start, end, label) in gold and (start, end, label) in kept:
            counts.tp += 1
        elif (start, end, label) in kept:
            counts.fp += 1
        else:
            counts.fn += 1

    leaked = 0
    gold_sorted = sorted(gold)
    pred_sorted = sorted(kept)
    for t0, t1 in tokens:
        if _overlaps_any(t0, t1, ignore):
            continue
        g = {lab for s, e, lab in gold_sorted if s < t1 and t0 < e}
        p = {lab for s, e, lab in pred_sorted if s < t1 and t0 < e}
        if g and not p:
            leaked += 1
        for label in g | p:
            counts = scores.token[label]
            if label in g and label in p:
                counts.tp += 1
            elif label in p:
                counts.fp += 1
            else:
                counts.fn += 1
    return leaked


def _relevant_tokens(tokens, spans) -> list[tuple[int, int]]:
    """Tokens overlapping any span (only they can change token counts)."""
    if not spans:
        return []
    out = []
    ordered = sorted(spans)
    for t0, t1 in tokens:
        if any(s < t1 and t0 < e for s, e, _ in ordered):
            out.append((t0, t1))
    return out


def evaluate_documents(
    gold_docs: Sequence[GoldDoc], predictions: Mapping[str, Sequence[SpanLike]]
) -> dict:
    """Score ``predictions`` (doc id → spans: ``engine.spans.SpanLike``, optionally with
    ``detector`` / ``detectors``) against ``gold_docs`` (:class:`engine.gold.GoldDoc`:
    ``id``, ``text``, ``spans``, ``ignore`` as ``(start, end)`` pairs).

    Returns::

        {"overall": {"exact": {"p","r","f1","tp","fp","fn"}, "token": {...}},
         "labels": {LABEL: {"exact": {...}, "token": {...}}},
         "detectors": {NAME: {"exact": {...}, "token": {...}}},
         "leaked_tokens": N, "documents": N, "gold_tokens": N}

    Documents missing from ``predictions`` are scored as having no predictions.
    """
    ensemble = _Scores()
    per_detector: dict[str, _Scores] = {}
    leaked_total = 0
    gold_tokens = 0

    docs = list(gold_docs)
    detector_names: list[str] = []
    for doc in docs:
        for pred in predictions.get(doc.id, ()) or ():
            detector_names.extend(detectors_of(pred))
    detector_names = sorted(set(detector_names))
    for name in detector_names:
        per_detector[name] = _Scores()

    for doc in docs:
        doc_id, text = doc.id, doc.text
        ignore = [(int(s), int(e)) for s, e in doc.ignore or ()]
        gold = {
            (s, e, lab)
            for s, e, lab in _triples(doc.spans or ())
            if not any(i0 <= s and e <= i1 for i0, i1 in ignore)
        }
        preds = list(predictions.get(doc_id, ()) or ())
        pred_triples = _triples(preds)
        all_tokens = tokenize(text)
        tokens = _relevant_tokens(all_tokens, gold | pred_triples)
        gold_tokens += sum(
            1
            for t0, t1 in tokens
            if not _overlaps_any(t0, t1, ignore) and any(s < t1 and t0 < e for s, e, _ in gold)
        )
        leaked_total += _score_doc(
            ensemble, text=text, tokens=tokens, gold=gold, ignore=ignore, predictions=pred_triples
        )
        for name in detector_names:
            own = _triples(p for p in preds if name in detectors_of(p))
            own_tokens = _relevant_tokens(all_tokens, gold | own)
            _score_doc(
                per_detector[name],
                text=text,
                tokens=own_tokens,
                gold=gold,
                ignore=ignore,
                predictions=own,
            )

    return {
        "overall": ensemble.summary(),
        "labels": {
            label: {
                "exact": ensemble.exact[label].as_dict(),
                "token": ensemble.token[label].as_dict(),
            }
            for label in ensemble.labels()
        },
        "detectors": {name: scores.summary() for name, scores in per_detector.items()},
        "leaked_tokens": leaked_total,
        "documents": len(docs),
        "gold_tokens": gold_tokens,
    }


# --- name words: how much of each gold PERSON name is covered ----------------------------

_NAME_WORD = re.compile(r"[^\W\d_][\w'’.-]*")


def _coverage(counts: Mapping[str, int]) -> dict[str, float | int]:
    n = counts["words"]
    return {
        "words": n,
        "covered": counts["covered"],
        "covered_person": counts["covered_person"],
        "coverage": round(counts["covered"] / n, 4) if n else 0.0,
        "person_coverage": round(counts["covered_person"] / n, 4) if n else 0.0,
    }


def name_word_coverage(
    gold_docs: Sequence[GoldDoc],
    predictions: Mapping[str, Sequence[SpanLike]],
    *,
    kind_of: Callable[[str], str] = lambda word: "names",
    context: int = 40,
) -> dict:
    """Coverage of the **capitalised words inside gold PERSON spans** (outside ignore
    regions): a word is *covered* when any prediction overlaps it, *covered as PERSON*
    when a PERSON prediction does.

    Gold schemes differ on what a PERSON mention holds: GUM marks ``Mr. Roberts``,
    ``Petitioner``, ``my Lords`` and groups (a nationality, a religion), this project keeps titles and
    roles readable and labels groups NRP. So ``kind_of(word)`` sorts the words into
    ``"names"``, ``"roles"`` (titles, roles, forms of address) and ``"groups"``
    (nationalities, religions), and the figures are given for each and for ``"all"``::

        {"all": {...}, "names": {...}, "roles": {...}, "groups": {...}, "missed": [...]}

    each ``{"words", "covered", "covered_person", "coverage", "person_coverage"}``;
    ``missed`` lists every word not covered as PERSON: ``{"doc", "word", "kind",
    "covered", "context"}`` (for reading on a terminal, never for storing).
    """
    kinds = ("all", "names", "roles", "groups")
    totals = {key: {"words": 0, "covered": 0, "covered_person": 0} for key in kinds}
    missed: list[dict] = []
    for doc in gold_docs:
        text = doc.text
        ignore = [(int(s), int(e)) for s, e in doc.ignore or ()]
        preds = sorted(shape(p) for p in predictions.get(doc.id, ()) or ())
        for start, end, label in sorted(_triples(doc.spans or ())):
            if label != "PERSON" or _overlaps_any(start, end, ignore):
                continue
            for match in _NAME_WORD.finditer(text, start, end):
                word = match.group(0).rstrip(".'’-")
                if not word[:1].isupper():
                    continue
                w0 = match.start()
                w1 = w0 + len(word)
                hit = [lab for s, e, lab in preds if s < w1 and w0 < e]
                kind = kind_of(word)
                for key in ("all", kind):
                    totals[key]["words"] += 1
                    totals[key]["covered"] += bool(hit)
                    totals[key]["covered_person"] += "PERSON" in hit
                if "PERSON" not in hit:
                    missed.append(
                        {
                            "doc": doc.id,
                            "word": word,
                            "kind": kind,
                            "covered": sorted(set(hit)),
                            "context": text[max(0, w0 - context) : w1 + context].replace("\n", " "),
                        }
                    )
    return {key: _coverage(counts) for key, counts in totals.items()} | {"missed": missed}
