"""The activation gate: does a candidate model beat the active one on held-out gold by
more than the figure's noise? Django-free; any caller (a retraining, a model brought in
from outside) hands it both models' counts on the same gate documents.

    counts = doc_counts(gold_docs, predictions, group="generated")
    decision = gate_decide(candidate_counts, active_counts)
    decision.activate, decision.reason, decision.as_dict()

- **The figure**: exact micro F1 over the gate documents (``engine.evaluation``'s exact
  level: same start, end and label).
- **The noise**: a bootstrap over documents. The gate documents are drawn again with
  replacement (``resamples`` times, a fixed seed, each group within itself so that every
  resample keeps the mix of approved transcripts and generated hearings); each draw
  gives both models' micro F1 on the same documents and so one difference. The
  ``confidence`` interval of those differences is the figure's noise.
- **Activate** only when the lower bound of that interval is above 0 (a strict
  improvement larger than the noise), the gate holds at least ``min_mentions`` gold
  mentions, and the candidate is not worse on any group by its own figure. A tie
  (difference 0 on every draw) keeps the active model.
- **No active model to compare with** (none shipped): the candidate is activated when the
  gate holds enough mentions.

The gate documents must be disjoint from those a model was selected on (its best epoch):
on those, a retraining that starts from the active model can hardly lose.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field

RESAMPLES = 200
SEED = 20261128
CONFIDENCE = 0.95
MIN_MENTIONS = 200


@dataclass(frozen=True, slots=True)
class DocCounts:
    """One model's exact counts on one gate document."""

    doc: str
    group: str
    tp: int
    fp: int
    fn: int

    @property
    def mentions(self) -> int:
        """Gold mentions of the document (what the model found plus what it missed)."""
        return self.tp + self.fn


@dataclass(frozen=True, slots=True)
class GateRule:
    resamples: int = RESAMPLES
    seed: int = SEED
    confidence: float = CONFIDENCE
    min_mentions: int = MIN_MENTIONS


@dataclass(slots=True)
class GateDecision:
    activate: bool
    reason: str
    candidate_f1: float
    active_f1: float | None
    difference: float | None
    low: float | None  # the bootstrap interval of the difference
    high: float | None
    documents: int
    mentions: int
    groups: dict = field(default_factory=dict)  # name → documents, mentions, both F1
    rule: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return asdict(self)


def f1_of(counts: Sequence[DocCounts]) -> float:
    """Exact micro F1 of the summed counts (0.0 where undefined)."""
    tp = sum(c.tp for c in counts)
    fp = sum(c.fp for c in counts)
    fn = sum(c.fn for c in counts)
    return 2 * tp / (2 * tp + fp + fn) if tp else 0.0


def doc_counts(gold_docs, predictions: Mapping[str, Sequence], *, group: str) -> list[DocCounts]:
    """Per-document exact counts of ``predictions`` (doc id → spans) on ``gold_docs``
    (``engine.gold.GoldDoc``), scored as ``evaluate`` scores them."""
    from engine.evaluation.metrics import evaluate_documents

    out = []
    for doc in gold_docs:
        exact = evaluate_documents([doc], {doc.id: predictions.get(doc.id, [])})["overall"]["exact"]
        out.append(DocCounts(doc.id, group, int(exact["tp"]), int(exact["fp"]), int(exact["fn"])))
    return out


def _by_group(counts: Sequence[DocCounts]) -> dict[str, list[DocCounts]]:
    groups: dict[str, list[DocCounts]] = {}
    for c in counts:
        groups.setdefault(c.group, []).append(c)
    return groups


def bootstrap_difference(
    candidate: Sequence[DocCounts], active: Sequence[DocCounts], rule: GateRule = GateRule()
) -> tuple[float, float]:
    """The ``rule.confidence`` interval of F1(candidate) − F1(active) over resampled gate
    documents (each group resampled within itself)."""
    paired = {c.doc: c for c in active}
    pairs = [(c, paired[c.doc]) for c in candidate]
    groups: dict[str, list[tuple[DocCounts, DocCounts]]] = {}
    for pair in pairs:
        groups.setdefault(pair[0].group, []).append(pair)
    rng = random.Random(rule.seed)
    diffs = []
    for _ in range(max(1, rule.resamples)):
        drawn = [
            pair for members in groups.values() for pair in rng.choices(members, k=len(members))
        ]
        diffs.append(f1_of([a for a, _ in drawn]) - f1_of([b for _, b in drawn]))
    diffs.sort()
    tail = (1 - rule.confidence) / 2
    low = diffs[int(tail * (len(diffs) - 1))]
    high = diffs[int(round((1 - tail) * (len(diffs) - 1)))]
    return low, high


def gate_decide(
    candidate: Sequence[DocCounts],
    active: Sequence[DocCounts] | None,
    *,
    rule: GateRule = GateRule(),
) -> GateDecision:
    """Whether ``candidate`` replaces ``active`` (``None``: no model to compare with),
    both counted on the same gate documents; the reason in words (see the module)."""
    candidate = list(candidate)
    mentions = sum(c.mentions for c in candidate)
    docs = len(candidate)
    cand_f1 = round(f1_of(candidate), 4)
    rule_words = asdict(rule)
    groups = {
        name: {
            "documents": len(members),
            "mentions": sum(c.mentions for c in members),
            "candidate_f1": round(f1_of(members), 4),
        }
        for name, members in _by_group(candidate).items()
    }
    size = f"{docs} document{'s' if docs != 1 else ''}, {mentions} mentions"
    if active is None:
        enough = mentions >= rule.min_mentions and docs > 0
        reason = (
            f"no model to compare with; F1 {cand_f1:.3f} on {size}"
            if enough
            else f"too little held-out gold to judge ({size}; at least {rule.min_mentions} mentions)"
        )
        return GateDecision(
            enough, reason, cand_f1, None, None, None, None, docs, mentions, groups, rule_words
        )
    active = list(active)
    if sorted(c.doc for c in candidate) != sorted(c.doc for c in active):
        raise ValueError("both models must be counted on the same gate documents")
    act_f1 = round(f1_of(active), 4)
    for name, members in _by_group(active).items():
        groups[name]["active_f1"] = round(f1_of(members), 4)
    difference = round(cand_f1 - act_f1, 4)
    if docs == 0 or mentions < rule.min_mentions:
        return GateDecision(
            False,
            f"too little held-out gold to judge ({size}; at least {rule.min_mentions} mentions)",
            cand_f1,
            act_f1,
            difference,
            None,
            None,
            docs,
            mentions,
            groups,
            rule_words,
        )
    low, high = bootstrap_difference(candidate, active, rule)
    low, high = round(low, 4), round(high, 4)
    worse = [n for n, g in groups.items() if g["candidate_f1"] < g["active_f1"]]
    interval = f"difference {difference:+.3f}, {int(rule.confidence * 100)} % interval {low:+.3f} to {high:+.3f}"
    if worse:
        activate, why = False, f"worse on the {', '.join(worse)} gold"
    elif low > 0:
        activate, why = True, "better beyond the noise"
    elif difference == 0 and low == 0 and high == 0:
        activate, why = False, "a tie keeps the active model"
    else:
        activate, why = False, "not better beyond the noise"
    reason = f"{why}: F1 {cand_f1:.3f} against {act_f1:.3f} on {size} ({interval})"
    return GateDecision(
        activate, reason, cand_f1, act_f1, difference, low, high, docs, mentions, groups, rule_words
    )
