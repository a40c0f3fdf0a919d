"""The datasheet of a split gold export (``datasheet.json`` and ``README.md``): what is in
each part, how the gold was made (the machine's suggestions and what the review did with
them; counts of reviewers and approvers, never names), agreement where double-annotated.
Reads only; :func:`annotations.services.export.gold_export_split` writes the export (and
imports this module; documents come from :mod:`annotations.services.gold`)."""

from __future__ import annotations

from collections import Counter

from django.utils import timezone

from annotations.models import Proposal, Span
from annotations.selectors import REVIEWED_STATES
from annotations.services.gold import gold_doc
from anonreview.core.models import AuditEvent
from engine.datasheet import TOKENIZATION, doc_counts
from engine.gold import GoldDoc
from engine.measurements.agreement import agreement_report
from transcripts.models import Transcript


def _reviewer_ids(ids: list[int]) -> set[int]:
    """Who reviewed the transcripts ``ids``: everyone with a ``review.*`` audit row on one,
    who decided one of its spans, or who submitted it (user ids)."""
    events = AuditEvent.objects.filter(transcript_id__in=ids, actor__isnull=False)
    people = set(events.filter(event_type__startswith="review.").values_list("actor_id", flat=True))
    people |= {
        e.actor_id
        for e in events.filter(event_type="transcript.transition")
        if (e.after or {}).get("state") == Transcript.State.SUBMITTED
    }
    people |= set(
        Span.objects.filter(transcript_id__in=ids, reviewer__isnull=False)
        .values_list("reviewer_id", flat=True)
        .distinct()
    )
    return people


def _provenance(transcripts: list[Transcript], compared: list[Transcript]) -> dict:
    """How the gold of ``transcripts`` was made: the machine's suggestions and what the
    review did with them, who reviewed and approved (counts of people, never names).
    ``reviewers`` counts the people who reviewed the exported transcripts and the second
    annotations ``compared`` in the agreement block (exported or not)."""
    ids = [t.pk for t in transcripts]
    spans = Span.objects.filter(transcript_id__in=ids).select_related("proposal")
    counts = {"accepted_unchanged": 0, "accepted_changed": 0, "added": 0, "rejected": 0}
    for span in spans:
        if span.status == Span.Status.ADDED:
            counts["added"] += 1
        elif span.status == Span.Status.REJECTED:
            counts["rejected"] += 1
        elif span.status == Span.Status.ACCEPTED:
            same = span.proposal is not None and span.proposal.shape == (
                span.start,
                span.end,
                span.label,
            )
            counts["accepted_unchanged" if same else "accepted_changed"] += 1
    proposals = Proposal.objects.filter(transcript_id__in=ids)
    detectors: set[str] = set()
    for provenance in proposals.values_list("provenance", flat=True):
        for item in provenance or []:
            name = item.get("detector", "") if isinstance(item, dict) else str(item)
            if name and name != "human":
                detectors.add(name)
    events = AuditEvent.objects.filter(transcript_id__in=ids)
    first = _reviewer_ids([t.pk for t in transcripts if not t.double_of_id])
    copies = {t.pk for t in transcripts if t.double_of_id} | {c.pk for c in compared}
    second = _reviewer_ids(sorted(copies))
    reviewers = first | second
    approvers = {
        e.actor_id
        for e in events.filter(event_type="transcript.transition", actor__isnull=False)
        if (e.after or {}).get("state") == Transcript.State.APPROVED
    }
    scripted = set(
        events.filter(event_type="review.scripted").values_list("transcript_id", flat=True)
    )
    return {
        "suggestions": proposals.count(),
        "detectors": sorted(detectors),
        "spans": counts,
        "reviewers": len(reviewers),
        "reviewers_of_second_annotations": len(second),
        "approvers": len(approvers),
        "approvers_who_reviewed": len(approvers & reviewers),
        "scripted_review_transcripts": len(scripted),
    }


def _pairs(transcripts: list[Transcript]) -> list[tuple[Transcript, Transcript]]:
    """(original, copy) for every exported original with a second annotation both
    annotators submitted."""
    pairs = []
    for original in transcripts:
        if original.double_of_id:
            continue
        copy = (
            Transcript.objects.filter(double_of=original, state__in=REVIEWED_STATES)
            .order_by("pk")
            .first()
        )
        if copy is not None and original.state in REVIEWED_STATES:
            pairs.append((original, copy))
    return pairs


def _agreement(pairs: list[tuple[Transcript, Transcript]], *, name_parts: bool) -> dict | None:
    """Agreement between the two annotations of each pair; ``None`` where there is none."""
    if not pairs:
        return None
    docs = [
        (gold_doc(o, name_parts=name_parts), gold_doc(c, name_parts=name_parts)) for o, c in pairs
    ]
    result = agreement_report([(a.text, a.spans, b.spans) for a, b in docs])
    result["pairs"] = [{"original": o.pk, "copy": c.pk} for o, c in pairs]
    return result


def _counts_by(docs: list[GoldDoc], key) -> dict:
    """:func:`engine.datasheet.doc_counts` (documents, tokens, mentions per label) per
    value of ``key(doc)``."""
    groups: dict[str, list[GoldDoc]] = {}
    for doc in docs:
        groups.setdefault(str(key(doc)), []).append(doc)
    return {value: doc_counts(group) for value, group in sorted(groups.items())}


def gold_datasheet(
    *,
    transcripts: list[Transcript],
    parts: dict[str, list[GoldDoc]],
    fmt: str,
    name_parts: bool,
    ratios: tuple[int, int, int],
    seed: int,
) -> dict:
    """``datasheet.json``: what is in each part, how the gold was made, agreement."""
    every = [doc for docs in parts.values() for doc in docs]
    pairs = _pairs(transcripts)
    return {
        "name": "anonreview gold data",
        "created": timezone.now().date().isoformat(),
        "format": fmt,
        "mentions": "name_parts" if name_parts else "whole",
        "mention_rule": (
            "PERSON: each name part its own mention (the paper's tags)"
            if name_parts
            else "PERSON: the whole name as written, titles outside (adjacent name parts "
            "separated only by spaces, a hyphen or an initial's full stop)"
        ),
        "split": {"by": "transcript", "ratios": list(ratios), "seed": seed},
        "tokenization": TOKENIZATION,
        "parts": {
            name: {**doc_counts(docs), "ids": [doc.id for doc in docs]}
            for name, docs in parts.items()
        },
        "total": doc_counts(every),
        "states": dict(Counter(t.state for t in transcripts)),
        "sources": dict(Counter(t.source_format for t in transcripts)),
        "by_state": _counts_by(every, lambda doc: doc.meta.get("state", "")),
        "by_source": _counts_by(every, lambda doc: doc.meta.get("source_format", "")),
        "double_annotation_copies": sum(1 for t in transcripts if t.double_of_id),
        "provenance": _provenance(transcripts, [copy for _original, copy in pairs]),
        "agreement": _agreement(pairs, name_parts=name_parts),
        "offsets": "characters into each document's text, end exclusive",
        "personal_data": "texts are the original transcripts: keep the gold data as "
        "restricted as the transcripts themselves; documents carry ids and pseudonymous "
        "titles only",
    }


def datasheet_readme(sheet: dict, ext: str) -> str:
    """``README.md`` of a split gold export: the datasheet in prose."""
    lines = [
        "# anonreview gold data",
        "",
        f"Format: {sheet['format']} (`train.{ext}`, `dev.{ext}`, `test.{ext}`); "
        f"mentions: {sheet['mentions']} — {sheet['mention_rule']}.",
        f"Split by transcript, ratios {sheet['split']['ratios']}, seed {sheet['split']['seed']}: "
        "every document of one transcript is in one part.",
        "",
        "| part | documents | tokens* | mentions |",
        "|---|---|---|---|",
    ]
    for name, part in sheet["parts"].items():
        lines.append(f"| {name} | {part['documents']} | {part['tokens']} | {part['mentions']} |")
    p = sheet["provenance"]
    lines += [
        "",
        f"\\* {sheet['tokenization'][0].upper()}{sheet['tokenization'][1:]}.",
        "",
        "How it was made: the automatic annotation "
        f"({', '.join(p['detectors']) or 'no detector'}) proposed {p['suggestions']} spans; "
        f"the review accepted {p['spans']['accepted_unchanged']} unchanged, "
        f"{p['spans']['accepted_changed']} after resizing or relabelling, rejected "
        f"{p['spans']['rejected']} and added {p['spans']['added']}; {p['approvers']} lead(s) "
        "who did not review approved each transcript after the leak check"
        + (
            f" ({p['scripted_review_transcripts']} transcript(s) reviewed by the scripted "
            "reviewer from generated gold)."
            if p["scripted_review_transcripts"]
            else "."
        ),
        f"Reviewers: {p['reviewers']} person(s) decided spans, made review changes or "
        f"submitted — {p['reviewers_of_second_annotations']} of them on the second "
        "annotations that the agreement figures compare.",
        "",
        "Counts per label, state and source, and agreement where double-annotated: "
        "`datasheet.json`. Offsets are characters into each document's text, end exclusive.",
        "",
    ]
    return "\n".join(lines)
