"""The dashboard's figures, computed from the database (reads) and stored as a Job
result (the "recompute" job). The arithmetic lives in the Django-free
``engine.evaluation`` and ``engine.measurements`` packages.

What the tables mean (docs/measurements.md):

* **Table 3** — automatic annotation vs reviewed gold over the approved (and released)
  transcripts, P/R/F1 per label and overall, exact span and token level. The
  automatic annotation is what the machine proposed: the stored ``Proposal`` rows (the
  start/end/label and detectors as proposed, whatever the reviewer later decided,
  changed or deleted). The gold is every ``accepted`` or ``added`` span.
* **Table 5** — each detector alone: the proposed spans whose provenance names it.
* **Table 8** — ablation: detection re-run now with the current ensemble, with and
  without the cover-page detector, against the same gold.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable

from django.db.models import QuerySet
from django.utils import timezone

from annotations.models import Span
from annotations.selectors import (  # the dashboard's reads
    REVIEWED_STATES,
    double_pairs,
    gold_spans,
    gold_transcripts,
    machine_predictions,
    reviewed_transcripts,
)
from anonreview.core.models import AuditEvent
from engine.evaluation import evaluate_documents
from engine.gold import GoldDoc
from engine.measurements.agreement import agreement_report
from engine.measurements.corpus import corpus_statistics, exported_tokens
from engine.measurements.effort import (
    ReviewRecord,
    actions_per_day,
    active_seconds,
    decisions_by_kind,
    effort_summary,
    review_seconds,
)
from engine.progress import Progress, ProgressFn, part
from engine.spans import Prediction
from transcripts.models import Job, Transcript
from transcripts.services import jobs

logger = logging.getLogger(__name__)

S = Transcript.State
COVER_DETECTOR = "cover"
SAFETY_NET = "safety_net"
DASHBOARD_MARK = "dashboard"


def as_mentions(text: str, spans: list[Prediction], *, machine: bool = False) -> list[Prediction]:
    """Whole mentions (``engine.mentions.join_predictions``): the stored name parts of one
    written name joined into one PERSON span, as the review page shows them and as
    ``evaluate``, the datasheet, the export and agreement count. The machine's proposals
    are joined the same way whatever member proposed each part: a reviewer accepts
    ``Kyle`` + ``Lewis`` as one mention, so Table 3 scores it as one (joining only parts cut
    from one proposal counted 16 of 16 sampled such names as misses: PERSON exact F1 0.646
    where the same data scored 0.975 joined). ``machine``: proposals (only parts written
    as names join); a reviewer's spans join as the gold export joins them."""
    from engine.mentions import join_predictions

    return join_predictions(text, spans, machine=machine)


def _net_only(prediction: Prediction) -> bool:
    from engine.evaluation.metrics import detectors_of

    return set(detectors_of(prediction)) == {SAFETY_NET}


def _gold_doc(transcript: Transcript, *, name_parts: bool = False) -> GoldDoc:
    spans = gold_spans(transcript)
    if not name_parts:
        spans = as_mentions(transcript.text, spans)
    return GoldDoc(str(transcript.pk), transcript.text, spans)


def evaluation_stored(transcripts: Iterable[Transcript], *, name_parts: bool = False) -> dict:
    """Tables 3 and 5 from the stored suggestions (see the module docstring), on whole
    mentions (``name_parts``: on the stored name parts, the second figure)."""
    docs, preds = [], {}
    for t in transcripts:
        docs.append(_gold_doc(t, name_parts=name_parts))
        # evaluate's headline figure: a safety-net possible miss is shown apart, not proposed
        machine = [p for p in machine_predictions(t) if not _net_only(p)]
        preds[str(t.pk)] = machine if name_parts else as_mentions(t.text, machine, machine=True)
    return evaluate_documents(docs, preds)


# --- Table 8: re-run detection ------------------------------------------------------


def _pieces(text: str, start: int, end: int, label: str) -> list[tuple[int, int]]:
    from engine.detectors.names import stored_pieces

    return stored_pieces(text, start, end, label)


def _detect(
    text: str, metadata: dict, *, ensemble, disabled: tuple[str, ...] = ()
) -> tuple[list[Prediction], dict[str, list[Prediction]], dict]:
    """Run the current ensemble (``annotation_detect``) with ``disabled``
    detectors switched off. Returns the merged predictions, each detector's own
    (cleaned) detections, and the detectors' errors. PERSON spans are cut into name
    parts as stored spans are, then joined into whole mentions as the gold is."""
    from annotations.services.annotation import annotation_detect

    only = [d.name for d in ensemble.detectors if d.name not in disabled]
    result = annotation_detect(text=text, metadata=metadata, only=only, ensemble=ensemble)
    merged = as_mentions(
        text,
        machine=True,
        spans=[
            Prediction(start, end, span.label, detectors=list(span.detectors))
            for span in result.spans
            for start, end in _pieces(text, span.start, span.end, span.label)
        ],
    )
    alone = {
        name: as_mentions(
            text,
            machine=True,
            spans=[
                Prediction(start, end, d.label, detectors=[name])
                for d in found
                for start, end in _pieces(text, d.start, d.end, d.label)
            ],
        )
        for name, found in result.by_detector.items()
    }
    return merged, alone, dict(result.errors)


def evaluation_rerun(
    transcripts: Iterable[Transcript],
    *,
    ensemble=None,
    disabled: tuple[str, ...] = (),
    progress: ProgressFn | None = None,
) -> dict:
    """Detection re-run now on each transcript's text, scored against its gold.

    ``result["alone"]``: each detector's own detections in that run scored alone
    (before merging; propagation only spreads what the others found)."""
    from annotations.services.annotation import ensemble_build

    ensemble = ensemble or ensemble_build()
    transcripts = list(transcripts)
    docs, preds, errors = [], {}, {}
    alone: dict[str, dict[str, list[Prediction]]] = defaultdict(dict)
    for i, t in enumerate(transcripts):
        docs.append(_gold_doc(t))
        preds[str(t.pk)], own, failed = _detect(
            t.text, t.metadata or {}, ensemble=ensemble, disabled=disabled
        )
        for name, found in own.items():
            alone[name][str(t.pk)] = found
        errors.update(failed)
        if progress:
            progress(Progress(i + 1, len(transcripts), f"Detection {i + 1}/{len(transcripts)}"))
    result = evaluate_documents(docs, preds)
    result["errors"] = errors
    result["detectors_run"] = [d.name for d in ensemble.detectors if d.name not in disabled]
    result["alone"] = {}
    for name in sorted(alone):
        scored = evaluate_documents(docs, alone[name])
        result["alone"][name] = {**scored["overall"], "labels": scored["labels"]}
    return result


def ablation(
    transcripts: Iterable[Transcript],
    *,
    detector: str = COVER_DETECTOR,
    ensemble=None,
    progress: ProgressFn | None = None,
) -> dict:
    """Table 8: the ensemble re-run with all detectors and without ``detector``."""
    from annotations.services.annotation import ensemble_build

    ensemble = ensemble or ensemble_build()
    if detector not in {d.name for d in ensemble.detectors}:
        raise ValueError(f"no detector called {detector!r} is configured")
    transcripts = list(transcripts)
    full = evaluation_rerun(transcripts, ensemble=ensemble, progress=part(progress, 0, 0.5))
    without = evaluation_rerun(
        transcripts, ensemble=ensemble, disabled=(detector,), progress=part(progress, 0.5, 1)
    )
    return {"detector": detector, "with": full, "without": without}


# --- agreement, effort, corpus ----------------------------------------------------


def agreement_for(pairs: Iterable[tuple[Transcript, Transcript]]) -> dict:
    """Agreement on whole mentions and tokens, with name-part span F1, Fleiss' kappa
    and the published references (``engine.measurements.agreement.agreement_report``)."""
    return agreement_report([(o.text, gold_spans(o), gold_spans(c)) for o, c in pairs])


def agreement_for_transcript(transcript: Transcript) -> dict | None:
    """Agreement between the annotators of ``transcript`` (an original or its copy),
    whatever their progress; ``None`` if it is not double-annotated."""
    original = transcript.double_of or transcript
    copy = Transcript.objects.filter(double_of=original).order_by("pk").first()
    if copy is None:
        return None
    result = agreement_for([(original, copy)])
    result["annotators"] = [
        ", ".join(u.get_username() for u in original.assignees.all()),
        ", ".join(u.get_username() for u in copy.assignees.all()),
    ]
    result["final"] = original.state in REVIEWED_STATES and copy.state in REVIEWED_STATES
    result["copy_id"] = copy.pk
    result["original_id"] = original.pk
    return result


def _review_actions(transcript_ids: list[int]) -> QuerySet[AuditEvent]:
    """Audit rows a person wrote on the transcripts, transitions, assignment and exports
    (a lead downloading gold is no review) left out."""
    return (
        AuditEvent.objects.filter(transcript_id__in=transcript_ids, actor__isnull=False)
        .exclude(event_type__startswith="transcript.")
        .exclude(event_type__endswith="_exported")
        .order_by("created_at")
    )


def review_record(transcript: Transcript) -> ReviewRecord:
    spans = list(transcript.spans.select_related("proposal"))
    machine = [s for s in spans if s.proposal is not None and s.status != Span.Status.ADDED]
    unchanged = sum(
        1
        for s in machine
        if s.status == Span.Status.ACCEPTED and s.proposal.shape == (s.start, s.end, s.label)
    )
    deleted = transcript.proposals.filter(spans__isnull=True).count()
    added: dict[str, int] = defaultdict(int)
    for s in spans:
        if s.status == Span.Status.ADDED:
            added[s.label] += 1
    transitions = [
        (e.created_at, e.before.get("state", ""), e.after.get("state", ""))
        for e in AuditEvent.objects.filter(
            transcript=transcript, event_type="transcript.transition"
        )
    ]
    submitted = [when for when, _source, target in transitions if target == S.SUBMITTED]
    rows = list(
        _review_actions([transcript.pk])
        .filter(event_type__startswith="review")
        .values_list("event_type", "after", "created_at")
    )
    moments = [when for _type, _after, when in rows] + [
        when for when, _source, target in transitions if target in (S.IN_REVIEW, S.SUBMITTED)
    ]
    return ReviewRecord(
        submitted_at=max(submitted).isoformat() if submitted else "",
        transcript_id=transcript.pk,
        title=transcript.title,
        tokens=exported_tokens(
            transcript.text, as_mentions(transcript.text, gold_spans(transcript))
        ),
        actions=_review_actions([transcript.pk]).count(),
        suggestions=len(machine) + deleted,
        accepted_unchanged=unchanged,
        added_by_label=dict(added),
        review_seconds=review_seconds(transitions),
        decisions=decisions_by_kind((event_type, after) for event_type, after, _when in rows),
        active_seconds=active_seconds(moments),
    )


SCRIPTED = "review.scripted"


def effort(transcripts: Iterable[Transcript]) -> dict:
    """Reviewer effort over the transcripts people reviewed: a transcript reviewed by the
    scripted reviewer (``review.scripted``: the demo's hearing, benchmarks) is left out
    and counted apart (``scripted_left_out``) — its actions are a script's, thousands a
    minute, not a person's."""
    transcripts = list(transcripts)
    scripted = set(
        AuditEvent.objects.filter(
            event_type=SCRIPTED, transcript_id__in=[t.pk for t in transcripts]
        ).values_list("transcript_id", flat=True)
    )
    transcripts = [t for t in transcripts if t.pk not in scripted]
    summary = effort_summary([review_record(t) for t in transcripts])
    summary["scripted_left_out"] = len(scripted)
    moments = _review_actions([t.pk for t in transcripts]).values_list("created_at", flat=True)
    summary["per_day"] = actions_per_day(timezone.localtime(m) for m in moments)
    return summary


def corpus(transcripts: Iterable[Transcript], *, name_parts: bool = False) -> dict:
    """Table 6 on whole mentions (``name_parts``: each stored name part one entity)."""
    return corpus_statistics(
        [
            (t.pk, t.text, gold_spans(t) if name_parts else as_mentions(t.text, gold_spans(t)))
            for t in transcripts
        ]
    )


# --- the dashboard snapshot and its job ---------------------------------------------


def dashboard_compute(
    *, rerun: bool = True, ensemble=None, progress: ProgressFn | None = None
) -> dict:
    """Every figure of the dashboard, as one JSON-serialisable dict."""

    def report(pct: int, message: str) -> None:
        if progress:
            progress(Progress(pct, 100, message))

    gold = list(gold_transcripts())
    report(5, "Scoring the stored suggestions")
    stored = evaluation_stored(gold)
    stored_parts = evaluation_stored(gold, name_parts=True)
    report(20, "Corpus statistics")
    stats = corpus(gold)
    stats_parts = corpus(gold, name_parts=True)
    report(30, "Agreement and effort")
    pairs = double_pairs()
    agree = agreement_for(pairs)
    agree["pairs"] = [{"original": o.pk, "copy": c.pk} for o, c in pairs]
    work = effort(reviewed_transcripts())
    table8: dict = {"available": False, "reason": "not computed"}
    if rerun and gold:
        report(40, "Re-running detection for the ablation")
        try:
            table8 = ablation(
                gold,
                ensemble=ensemble,
                progress=part(progress, 0.40, 0.95),
            )
            table8["available"] = True
        except Exception as exc:  # the ensemble may be missing or fail: say so, keep the rest
            logger.warning("ablation failed: %s", exc.__class__.__name__)
            table8 = {"available": False, "reason": f"{exc.__class__.__name__}: {exc}"[:300]}
    elif not gold:
        table8 = {"available": False, "reason": "no approved transcripts yet"}
    return {
        "kind": DASHBOARD_MARK,
        "computed_at": timezone.now().isoformat(),
        "transcripts": [{"id": t.pk, "title": t.title, "state": t.state} for t in gold],
        "table3": {
            "overall": stored["overall"],
            "labels": stored["labels"],
            "leaked_tokens": stored["leaked_tokens"],
        },
        # The second figure, labelled: PERSON counted as name parts (the paper's tags).
        "table3_name_parts": {
            "overall": stored_parts["overall"],
            "labels": stored_parts["labels"],
            "leaked_tokens": stored_parts["leaked_tokens"],
        },
        "mentions": "whole",
        "table5": stored["detectors"],
        "table8": table8,
        "corpus": stats,
        "corpus_name_parts": {
            "entities": stats_parts["entities"],
            "labels": {k: v["count"] for k, v in stats_parts["labels"].items()},
        },
        "agreement": agree,
        "effort": work,
    }


def dashboard_recompute_job(*, job_id: int, rerun: bool = True) -> None:
    jobs.job_start(job_id=job_id, message="Computing the dashboard")
    try:
        snapshot = dashboard_compute(
            rerun=rerun,
            progress=jobs.job_reporter(job_id=job_id),
        )
    except Exception as exc:
        logger.warning("dashboard job %s failed: %s", job_id, exc.__class__.__name__)
        jobs.job_fail(job_id=job_id, error=f"{exc.__class__.__name__}: {exc}"[:500])
        return
    jobs.job_finish(job_id=job_id, message="Dashboard computed", result=snapshot)


def dashboard_latest() -> Job | None:
    """The most recent finished dashboard job (its ``result`` is the snapshot)."""
    return (
        Job.objects.filter(
            kind=Job.Kind.EVALUATE, status=Job.Status.DONE, result__kind=DASHBOARD_MARK
        )
        .order_by("-updated_at", "-id")
        .first()
    )


def dashboard_running() -> Job | None:
    return (
        Job.objects.filter(
            kind=Job.Kind.EVALUATE, status__in=[Job.Status.QUEUED, Job.Status.RUNNING]
        )
        .filter(message__icontains="dashboard")
        .order_by("-id")
        .first()
    )


LEARNING_CURVE = "bench_learning"


def learning_curve_latest() -> Job | None:
    """The latest saved ``bench_learning`` run (``--save``): the loop's curve."""
    return (
        Job.objects.filter(
            kind=Job.Kind.EVALUATE, status=Job.Status.DONE, result__kind=LEARNING_CURVE
        )
        .order_by("-updated_at", "-id")
        .first()
    )
