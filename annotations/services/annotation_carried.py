"""The annotation's last step (issue 30, "decisions that carry"): a new transcript's
suggestions arrive as the reviewers of approved hearings decided them.

After the ensemble's suggestions are stored, each one whose surface form carries a
decision (``annotations.selectors.carried``: rejected or relabelled in at least
``CARRY_MIN`` approved hearings, and in ``CARRY_SHARE`` of those where the machine
proposed it), or, where the form's votes are mixed, whose form *in its context* (the
previous word or sign, the class of what follows) carries one, is changed as the
decision says:

- a carried **rejection** arrives *rejected*, with no reviewer: the review page, the
  form table and the approval summary show it as rejected, and its provenance ends with
  ``{"detector": "carried", "decision": "reject", "why": "rejected in 4 approved
  hearings", ...}``; one action (Accept, or the form table's Accept ``a``) reverses it;
- a carried **relabel** arrives *suggested* with the label the reviewers gave it (its
  proposal keeps the machine's label), for the reviewer to accept.

Never for a name the transcript itself gives (cover page, speaker tags, a spelled-out
word, the word after an honorific: ``engine.detectors.given``, the allow-list's rule),
and never on a machine's possible miss. A carried rejection hides nothing from the leak
check: if the same word is kept as a name anywhere in the transcript (a span, a cover
name, a speaker tag), Submit lists the rejected place as a leak (``services.leaks``).

``settings.CARRIED_DECISIONS = False`` turns the step off (the form table still offers
a carried decision as the first choice).

A carried span that nobody touched (``reviewer`` empty) is still the machine's: a new
annotation of the transcript replaces it with the suggestions
(``annotation.transcript_spans_replace``), and once approved it counts as "left as
carried", not as a reviewer's rejection (``selectors.carried``).
"""

from __future__ import annotations

from django.conf import settings

from annotations.models import Span
from annotations.selectors.carried import (
    CARRIED,
    REJECT,
    carried_context_decisions,
    carried_decisions,
    carried_for,
    context_in,
)
from annotations.services.review.bulk import normalize_form
from transcripts.models import Transcript


def is_carried(provenance) -> bool:
    """Whether a span's provenance says a carried decision made it."""
    return any(isinstance(p, dict) and p.get("detector") == CARRIED for p in provenance or [])


def untouched_carried_ids(*, transcript: Transcript) -> list[int]:
    """The transcript's carried rejections that no reviewer has touched (the machine's)."""
    rows = Span.objects.filter(
        transcript=transcript, status=Span.Status.REJECTED, reviewer__isnull=True
    ).values_list("pk", "provenance")
    return [pk for pk, provenance in rows if is_carried(provenance)]


def carried_apply(*, transcript: Transcript) -> dict[str, int]:
    """Apply the decisions that carry to ``transcript``'s suggested spans (see the module
    docstring). Returns ``{"rejected": n, "relabelled": n}``. The caller holds the
    transaction (``transcript_annotate``)."""
    done = {"rejected": 0, "relabelled": 0}
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
    from engine.detectors.given import given_names, is_given_name_term

    speakers = transcript.utterances.exclude(speaker="").values_list("speaker", flat=True)
    names = given_names(text, transcript.metadata or {}, speakers=set(speakers))
    changed = []
    for span, decision in candidates:
        form = text[span.start : span.end]
        if names and is_given_name_term(form, names):
            continue  # a name this transcript gives is never hidden by the corpus
        span.provenance = [*(span.provenance or []), decision.provenance()]
        if decision.decision == REJECT:
            span.status = Span.Status.REJECTED
            done["rejected"] += 1
        else:
            span.label = decision.label
            done["relabelled"] += 1
        changed.append(span)
    Span.objects.bulk_update(changed, ["status", "label", "provenance"], batch_size=500)
    return done
