"""Snapshots of spans for the audit trail, optimistic locking and saving with a version."""

from collections.abc import Iterable

from django.db.models import F
from django.utils import timezone

from annotations.models import Entity, Span
from annotations.services.review.permissions import SpanConflict, _lock_transcript
from annotations.services.review.touched import touched_add
from anonreview.core.audit import audit_record
from anonreview.core.models import AuditEvent
from transcripts.models import Transcript

EVENT_PREFIX = "review."
UNDO_EVENT = "review.undo"
HUMAN = "human"

_RESTORED_FIELDS = (
    "start", "end", "label", "status", "entity_id", "provenance", "score", "reviewer_id",
)  # fmt: skip


# Provenance keys that hold text of the transcript (a copy's ``original`` name): left out
# of audit snapshots (audit rows keep ids, not name fragments).
TEXT_KEYS = frozenset({"original"})


def audit_provenance(provenance) -> list:
    """``provenance`` without the text it quotes (for audit rows)."""
    return [
        {k: v for k, v in item.items() if k not in TEXT_KEYS} if isinstance(item, dict) else item
        for item in provenance or []
    ]


def span_snapshot(span: Span) -> dict:
    """What an audit row keeps of a span: offsets, label, status, group, scores and the
    detectors, never its text (``audit_provenance``)."""
    return {
        "id": span.pk,
        "start": span.start,
        "end": span.end,
        "label": span.label,
        "status": span.status,
        "entity_id": span.entity_id,
        "provenance": audit_provenance(span.provenance),
        "score": span.score,
        "reviewer_id": span.reviewer_id,
        "version": span.version,
        "proposal_id": span.proposal_id,
    }


def _record(
    *,
    actor,
    action: str,
    transcript: Transcript,
    before: list[dict],
    after: list[dict],
    span: Span | None = None,
    created_entities: Iterable[int] = (),
    extra: dict | None = None,
) -> AuditEvent:
    """Write the action's audit event and report what it touched (``touched``)."""
    before_side = {"spans": before}
    after_side = {"spans": after, "created_entities": sorted(created_entities), **(extra or {})}
    touched_add(before_side, after_side)
    return audit_record(
        actor=actor,
        event_type=EVENT_PREFIX + action,
        transcript=transcript,
        span=span,
        before=before_side,
        after=after_side,
    )


def _lock_span(*, span: Span | int, version: int | None) -> Span:
    span_id = span.pk if isinstance(span, Span) else span
    transcript_id = Span.objects.filter(pk=span_id).values_list("transcript_id", flat=True).first()
    if transcript_id is not None:
        _lock_transcript(transcript_id)  # the transcript first, then the span (one order)
    try:
        locked = Span.objects.select_for_update().select_related("transcript").get(pk=span_id)
    except Span.DoesNotExist as exc:
        raise SpanConflict("This span no longer exists: someone deleted it.") from exc
    if version is not None and int(version) != locked.version:
        who = (
            AuditEvent.objects.filter(span_id=locked.pk)
            .values_list("actor_username", flat=True)
            .first()
        )
        by = f" by {who}" if who else ""
        raise SpanConflict(
            f"This span was changed{by} since you loaded it; the view shows its current state.",
            spans=[locked],
        )
    return locked


def _save(span: Span, actor, *fields: str) -> None:
    span.version += 1
    span.reviewer = actor if getattr(actor, "is_authenticated", False) else None
    span.save(update_fields=[*fields, "version", "reviewer", "updated_at"])


def spans_bulk_save(spans: list[Span], actor, **changes) -> None:
    """Apply ``changes`` to many spans in one UPDATE (version + 1 each, reviewer = actor)."""
    user = actor if getattr(actor, "is_authenticated", False) else None
    now = timezone.now()
    Span.objects.filter(pk__in=[s.pk for s in spans]).update(
        version=F("version") + 1, reviewer=user, updated_at=now, **changes
    )
    for span in spans:
        for key, value in changes.items():
            setattr(span, key, value)
        span.version += 1
        span.reviewer, span.updated_at = user, now


def _entity_ids(transcript: Transcript) -> set[int]:
    return set(Entity.objects.filter(transcript=transcript).values_list("pk", flat=True))


def _create(*, transcript, actor, start, end, label, status, provenance=None, score=1.0) -> Span:
    return Span.objects.create(
        transcript=transcript,
        start=start,
        end=end,
        label=label,
        status=status,
        provenance=provenance if provenance is not None else [{"detector": HUMAN, "score": 1.0}],
        score=score,
        reviewer=actor if getattr(actor, "is_authenticated", False) else None,
    )


def _lock_spans(queryset) -> list[Span]:
    return list(queryset.select_for_update().order_by("pk"))
