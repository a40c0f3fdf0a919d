"""The held-out sets of a retraining and the activation gate's figures.

Two disjoint held-out sets, so that a model is never judged on the documents it was
selected on:

- **Selection** (the trainer's best epoch): the recipe's held-out generated hearings
  (seeds 70900…) and the approved held-out transcripts of odd fifth ids (5, 15, 25, …).
- **Gate** (activation): generated hearings of other seeds (70950…,
  ``engine.learning.domain_recipe.gate_docs``) and the approved held-out transcripts of
  even fifth ids (10, 20, 30, …).

Both models (the candidate and the active one) are run on the gate documents and
``engine.learning.gate.gate_decide`` decides (bootstrap over documents; ties keep the
active model). ``gate_rule`` reads ``settings.LEARNING_GATE`` (``resamples``, ``seed``,
``confidence``, ``min_mentions``). A model from elsewhere goes through the same
``model_gate`` call.
"""

from __future__ import annotations

from django.conf import settings

from engine.gold import GoldDoc
from engine.learning.gate import DocCounts, GateDecision, GateRule, doc_counts, gate_decide

HELD_OUT_ONE_IN = 5
GROUP_NAMES = {
    "approved": "held-out approved transcript",
    "generated": "held-out generated hearing",
}


def is_held_out(transcript_id: int) -> bool:
    """Whether an approved transcript is held out of every training: every fifth id
    (stable whatever is approved later; the fifth approval of a new installation is the
    first held out)."""
    return transcript_id % HELD_OUT_ONE_IN == 0


def is_gate(transcript_id: int) -> bool:
    """Whether a held-out approved transcript belongs to the gate set (every tenth id);
    the other held-out ones (5, 15, …) select the best epoch."""
    return is_held_out(transcript_id) and (transcript_id // HELD_OUT_ONE_IN) % 2 == 0


def approved_sets() -> tuple[list[GoldDoc], list[GoldDoc], list[GoldDoc]]:
    """(training, selection, gate) gold of the approved transcripts, whole mentions,
    double-annotation copies excluded (``learning.gold_transcripts``)."""
    from annotations.services.export import gold_docs
    from annotations.services.learning import gold_transcripts

    transcripts = list(gold_transcripts())
    train = [t for t in transcripts if not is_held_out(t.pk)]
    selection = [t for t in transcripts if is_held_out(t.pk) and not is_gate(t.pk)]
    gate = [t for t in transcripts if is_gate(t.pk)]
    return (
        gold_docs(transcripts=train),
        gold_docs(transcripts=selection),
        gold_docs(transcripts=gate),
    )


def gate_rule() -> GateRule:
    """``GateRule`` with ``settings.LEARNING_GATE`` over its defaults."""
    options = dict(getattr(settings, "LEARNING_GATE", {}) or {})
    fields = set(GateRule.__dataclass_fields__)
    return GateRule(**{k: v for k, v in options.items() if k in fields})


def sizes(docs: list[GoldDoc]) -> dict:
    """Documents and gold mentions of a set."""
    return {"documents": len(docs), "mentions": sum(len(d.spans) for d in docs)}


def model_counts(detect, groups: dict[str, list[GoldDoc]]) -> list[DocCounts]:
    """Per-document exact counts of a model (``detect(doc) -> spans``) on each group."""
    out: list[DocCounts] = []
    for name, docs in groups.items():
        out.extend(doc_counts(docs, {d.id: list(detect(d)) for d in docs}, group=name))
    return out


def model_gate(
    candidate: list[DocCounts], active: list[DocCounts] | None, *, rule: GateRule | None = None
) -> GateDecision:
    """The gate's decision on both models' counts (``engine.learning.gate.gate_decide``)."""
    return gate_decide(candidate, active, rule=rule or gate_rule())


def decision_words(decision: GateDecision, groups: dict[str, list[GoldDoc]]) -> str:
    """One line: activated or not, why, and the gate's sizes per group."""
    parts = []
    for name, figures in decision.groups.items():
        n = figures["documents"]
        against = figures.get("active_f1")
        vs = f" against {against:.3f}" if against is not None else ""
        parts.append(
            f"{figures['candidate_f1']:.3f}{vs} on {n} {GROUP_NAMES.get(name, name)}"
            f"{'s' if n != 1 else ''} ({figures['mentions']} mentions)"
        )
    head = "Activated" if decision.activate else "Not activated"
    return f"{head}: {decision.reason}. Gate: {'; '.join(parts) or 'no documents'}"
