"""The annotation's last step: a new transcript's suggestions arrive with the decisions
the reviewers of approved hearings made for their forms, as *proposals*.

After the ensemble's suggestions are stored, each one whose surface form carries a
decision (``annotations.selectors.carried``: rejected or relabelled in at least
``CARRY_MIN`` approved hearings, and in ``CARRY_SHARE`` of those where the machine
proposed it), or, where the form's votes are mixed, whose form *in its context* carries
one, gets that decision as a proposal: the span stays *suggested* with the machine's
label (undecided: Submit, approval, the leak check and every export treat it so), and its
provenance ends with ``{"detector": "carried", "decision": "reject", "why": "rejected in
4 approved hearings", ...}``. A person on this transcript confirms it (the form table:
one input for a form, or for every carried proposal of a label;
``services.review.carried``), which applies the rejection or relabel as that person's
decision, or decides otherwise. Nobody else's decision ever stands for this
transcript's reviewer: an unconfirmed carried rejection released names ("my wife Rose")
that nobody on the transcript had decided.

A carried **rejection** is never proposed for a form this transcript gives as a name
(``engine.detectors.named_here``: the names it gives, a form beside another person
mention, after "my wife" / "my lawyer is", or proposed as a person by two independent
members here), and no carried decision is proposed on a machine's possible miss.

``settings.CARRIED_DECISIONS = False`` turns the step off (the form table still shows a
carried decision beside the form).
"""

from __future__ import annotations

from django.conf import settings

from annotations.models import Span
from annotations.selectors.carried import (
    REJECT,
    carried_context_decisions,
    carried_decisions,
    carried_for,
    carried_proposal,
    context_in,
    named_here,
)
from engine.mentions import normalize_form
from transcripts.models import Transcript

__all__ = ["carried_apply", "carried_proposal", "is_carried", "named_here", "untouched_carried_ids"]


def is_carried(provenance) -> bool:
    """Whether a span's provenance holds a carried decision (proposed for it)."""
    return carried_proposal(provenance) is not None


def untouched_carried_ids(*, transcript: Transcript) -> list[int]:
    """The transcript's rejected spans with a carried decision and no reviewer: rows an
    earlier version of this step rejected by itself, which a new annotation replaces by
    undecided proposals."""
    rows = Span.objects.filter(
        transcript=transcript, status=Span.Status.REJECTED, reviewer__isnull=True
    ).values_list("pk", "provenance")
    return [pk for pk, provenance in rows if is_carried(provenance)]


def carried_apply(*, transcript: Transcript) -> dict[str, int]:
    """Propose the decisions that carry on ``transcript``'s suggested spans (see the
    module docstring). Returns ``{"reject": n, "relabel": n, "named_here": n}`` (proposals
    made, and carried rejections not proposed because the transcript gives the form as a
    name). The caller holds the transaction (``transcript_annotate``)."""
    done = {"reject": 0, "relabel": 0, "named_here": 0}
    if not getattr(settings, "CARRIED_DECISIONS", True):
        return done  # turned off (a setting; bench_learning --no-carried measures without)
    carried = carried_decisions()
    contexts = carried_context_decisions()
    if not carried and not contexts:
        return done
    from engine.pseudonymize.leaks import is_possible_miss

    text = transcript.text
    candidates = []
    for span in Span.objects.filter(
        transcript=transcript, status=Span.Status.SUGGESTED, reviewer__isnull=True
    ).select_related("proposal"):
        if is_possible_miss(span.provenance) or is_carried(span.provenance):
            continue
        proposed = span.proposal.label if span.proposal_id else span.label
        decision = carried_for(
            proposed,
            normalize_form(text[span.start : span.end]),
            context_in(text, span.start, span.end),
            forms=carried,
            contexts=contexts,
        )
        if decision is not None:
            candidates.append((span, decision))
    if not candidates:
        return done
    named = None
    changed = []
    for span, decision in candidates:
        if decision.decision == REJECT:
            if named is None:
                named = named_here(transcript=transcript)
            if normalize_form(text[span.start : span.end]) in named:
                done["named_here"] += 1
                continue  # a name this transcript gives is never proposed for rejection
        span.provenance = [*(span.provenance or []), decision.provenance()]
        done[decision.decision] += 1
        changed.append(span)
    Span.objects.bulk_update(changed, ["provenance"], batch_size=500)
    return done
