"""A scripted reviewer that follows a synthetic hearing's gold (demos and measurements).

The generator (``engine.synthetic``) knows every mention it wrote, so a transcript
made from it can be reviewed without a person: suggestions that match the gold exactly
are accepted, the others rejected, the gold the machine missed is added; carried
proposals the gold agrees with are confirmed (one input per label), the others decided
against the proposal one by one. The review is
audited as what it is (``review.scripted``, with its counts), so nobody mistakes it for
a person's work. ``load_demo --reviewed`` uses it to give a new installation an approved
hearing (the dashboard, exports and training have something to show);
docs/measurements.md measures the ensemble with it.
"""

from __future__ import annotations

from django.db import transaction

from annotations.models import Span
from annotations.services import workflow
from annotations.services.annotation_carried import carried_proposal
from annotations.services.entities import entities_assign
from annotations.services.review import HUMAN, spans_bulk_save, spans_confirm_carried
from anonreview.core.audit import audit_record
from engine.detectors.names import stored_pieces
from engine.gold import GoldDoc
from transcripts.models import Transcript


class GoldMismatch(ValueError):
    """The gold's text is not part of the transcript's canonical text."""


def gold_spans_in(transcript: Transcript, gold: GoldDoc) -> set[tuple[int, int, str]]:
    """The gold's spans in ``transcript``'s offsets, PERSON cut into name parts as stored."""
    text = transcript.text
    shift = text.find(gold.text)
    if shift < 0:
        raise GoldMismatch("The gold text does not occur in the transcript.")
    spans: set[tuple[int, int, str]] = set()
    for g in gold.spans:
        start, end = g.start + shift, g.end + shift
        parts = stored_pieces(text, start, end, g.label)
        spans |= {(a, b, g.label) for a, b in parts} or {(start, end, g.label)}
    return spans


@transaction.atomic
def transcript_review_from_gold(
    *, transcript: Transcript, gold: GoldDoc, annotator, answer_leaks: bool = False
) -> dict:
    """Review ``transcript`` (ready) as its gold says and submit it; returns the counts.

    ``answer_leaks``: when Submit's leak check lists a place that no gold mention covers
    (a participant's surname that is an ordinary word elsewhere), the reviewer marks it
    "not a leak here" (an ordinary word) and submits again, as the session oracle does;
    counted as ``not_a_leak``. A listed place inside a gold mention is raised as is."""
    wanted = gold_spans_in(transcript, gold)
    workflow.transcript_start_review(transcript=transcript, actor=annotator)
    spans = list(Span.objects.filter(transcript=transcript, status=Span.Status.SUGGESTED))
    proposals = {s.pk: carried_proposal(s.provenance) for s in spans}
    plain = [s for s in spans if proposals[s.pk] is None]
    accepted = [s for s in plain if (s.start, s.end, s.label) in wanted]
    rejected = [s for s in plain if (s.start, s.end, s.label) not in wanted]
    # Carried proposals (annotation_carried): those the gold agrees with are confirmed,
    # one input per label; the others are decided one by one against the proposal (a
    # carried rejection of a gold mention is accepted: "reversed").
    agree, reversed_, overruled = [], [], []
    for s in spans:
        entry = proposals[s.pk]
        if entry is None:
            continue
        if entry.get("decision") == "reject":
            ok = (s.start, s.end, s.label) not in wanted
        else:
            ok = (s.start, s.end, entry.get("label")) in wanted
        if ok:
            agree.append(s)
        elif (s.start, s.end, s.label) in wanted:
            reversed_.append(s)
        else:
            overruled.append(s)
    spans_bulk_save(accepted + reversed_, annotator, status=Span.Status.ACCEPTED)
    spans_bulk_save(rejected + overruled, annotator, status=Span.Status.REJECTED)
    confirm_labels = sorted({s.label for s in agree})
    for label in confirm_labels:
        spans_confirm_carried(transcript=transcript, actor=annotator, label=label)
    have = set(
        Span.objects.filter(transcript=transcript)
        .exclude(status=Span.Status.REJECTED)
        .values_list("start", "end", "label")
    )
    taken = [(a, b) for a, b, _label in have]
    added = [
        Span(
            transcript=transcript,
            start=a,
            end=b,
            label=label,
            status=Span.Status.ADDED,
            provenance=[{"detector": HUMAN, "score": 1.0}],
            score=1.0,
            reviewer=annotator,
        )
        for a, b, label in sorted(wanted - have)
        if not any(x < b and a < y for x, y in taken)  # never on top of a kept span
    ]
    Span.objects.bulk_create(added, batch_size=500)
    entities_assign(transcript=transcript)
    counts = {
        "accepted": len(accepted),
        "rejected": len(rejected),
        "added": len(added),
        "reversed": len(reversed_) + len(overruled),
        "confirmed": len(agree),
        "confirm_inputs": len(confirm_labels),
    }
    audit_record(actor=annotator, event_type="review.scripted", transcript=transcript, after=counts)
    if not answer_leaks:
        workflow.transcript_submit(transcript=transcript, actor=annotator)
        return counts
    counts["not_a_leak"] = _submit_answering_leaks(transcript, wanted, annotator)
    return counts


def _submit_answering_leaks(transcript: Transcript, wanted, annotator, rounds: int = 5) -> int:
    from annotations.models import LeakException
    from annotations.services.review.exceptions import leak_exception_add

    answered = 0
    for _ in range(rounds):
        try:
            workflow.transcript_submit(transcript=transcript, actor=annotator)
            return answered
        except workflow.SubmitLeaksFound as exc:
            places = {
                (leak.source_start, leak.source_end)
                for leak in exc.leaks
                if leak.source_start is not None and leak.source_end is not None
            }
            if len(places) < len(exc.leaks) or any(
                a < e and s < b for a, b in places for s, e, _label in wanted
            ):
                raise  # a gold mention in clear: the oracle's own mistake, shown as is
            for a, b in sorted(places):
                leak_exception_add(
                    transcript=transcript,
                    actor=annotator,
                    start=a,
                    end=b,
                    reason=LeakException.Reason.ORDINARY_WORD,
                )
                answered += 1
    workflow.transcript_submit(transcript=transcript, actor=annotator)
    return answered
