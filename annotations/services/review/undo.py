"""Undo: walk back an actor's own review actions, restoring spans and their versions."""

import json

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from annotations.models import Entity, LeakException, Proposal, Span
from annotations.services.review.bulk import CHUNK, chunks
from annotations.services.review.exceptions import NOT_A_LEAK_ACTION
from annotations.services.review.groups import review_assign_entities
from annotations.services.review.permissions import ReviewError, SpanConflict, _check_edit
from annotations.services.review.snapshots import (
    _RESTORED_FIELDS,
    EVENT_PREFIX,
    UNDO_EVENT,
    _lock_spans,
    audit_provenance,
    span_snapshot,
)
from annotations.services.review.touched import touched_add
from anonreview.core.audit import audit_record
from anonreview.core.models import AuditEvent
from transcripts.models import Transcript


def review_undoable(*, transcript: Transcript, actor, limit: int = 200) -> list[int]:
    """Ids of the actor's review actions on ``transcript`` that can still be undone, newest
    first (reads ids and the ``undoes`` key only, not the snapshots)."""
    events = list(
        AuditEvent.objects.filter(
            transcript=transcript, actor=actor, event_type__startswith=EVENT_PREFIX
        )
        .order_by("-id")
        .values_list("id", "event_type", "after__undoes")[:limit]
    )
    undone = {int(undoes) for _id, kind, undoes in events if kind == UNDO_EVENT and undoes}
    return [i for i, kind, _u in events if kind != UNDO_EVENT and i not in undone]


@transaction.atomic
def review_undo(*, transcript: Transcript, actor) -> AuditEvent:
    """Revert ``actor``'s latest not-yet-undone review action on ``transcript``.

    Every span goes back to its snapshot *including its version*, so the action before
    finds its spans as it left them and undo walks back the actor's history as deep as it
    goes; a client holding the restored version sees exactly the state it showed. Refuses
    (``SpanConflict``, naming who) when someone else changed a span it touched since.
    Returns the undo's own AuditEvent (``after.undoes`` = the reverted event's id).
    """
    transcript = Transcript.objects.select_for_update().get(pk=transcript.pk)
    _check_edit(transcript=transcript, actor=actor)
    undoable = review_undoable(transcript=transcript, actor=actor)
    if not undoable:
        raise ReviewError("Nothing to undo.")
    event = AuditEvent.objects.get(pk=undoable[0])
    before = {s["id"]: s for s in event.before.get("spans", [])}
    after = {s["id"]: s for s in event.after.get("spans", [])}
    current = {
        s.pk: s
        for part in chunks(set(before) | set(after))
        for s in _lock_spans(Span.objects.filter(pk__in=part))
    }
    stale = [
        current[i]
        for i, snap in after.items()
        if i in current and current[i].version != snap["version"]
    ]
    gone = [i for i in after if i not in current]
    back = [i for i in before if i not in after and i in current]
    if stale or gone or back:
        who = _changed_by(transcript=transcript, actor=actor, since=event.pk, spans=set(after))
        by = f"{who} changed" if who else "someone changed"
        raise SpanConflict(
            f"Cannot undo: {by} these spans since; the view shows their current state.",
            spans=stale,
        )
    state_before = [span_snapshot(s) for s in current.values()]
    restored, updated = [], []
    proposal_ids = {snap.get("proposal_id") for snap in before.values()} - {None}
    proposals = {
        pk: provenance
        for part in chunks(proposal_ids)
        for pk, provenance in Proposal.objects.filter(pk__in=part).values_list("pk", "provenance")
    }
    entities = {
        pk
        for part in chunks({snap["entity_id"] for snap in before.values()} - {None})
        for pk in Entity.objects.filter(pk__in=part).values_list("pk", flat=True)
    }
    created = []
    for span_id, snap in before.items():
        span = current.get(span_id)
        fields = {k: snap[k] for k in _RESTORED_FIELDS}
        fields["proposal_id"] = snap.get("proposal_id")  # older snapshots lack it
        # Snapshots keep provenance without quoted text: the full one comes back from the
        # span itself or from its proposal when the snapshot says the same otherwise.
        for full in (span.provenance if span else None, proposals.get(fields["proposal_id"])):
            if full is not None and audit_provenance(full) == audit_provenance(snap["provenance"]):
                fields["provenance"] = full
                break
        if span is None:
            if fields["entity_id"] not in entities:
                fields["entity_id"] = None
            span = Span(pk=span_id, transcript=transcript, version=snap["version"], **fields)
            created.append(span)
        else:
            updated.append((span, fields, snap["version"]))
        restored.append(span)
    Span.objects.bulk_create(created, batch_size=CHUNK)
    _restore(updated)
    removed = [i for i in after if i not in before]
    for part in chunks(removed):
        Span.objects.filter(pk__in=part).delete()
    if event.event_type == EVENT_PREFIX + NOT_A_LEAK_ACTION:
        LeakException.objects.filter(
            pk__in=event.after.get("exceptions") or [event.after.get("exception")],
            transcript=transcript,
        ).delete()
    created_entities = event.after.get("created_entities", [])
    if created_entities:
        Entity.objects.filter(pk__in=created_entities, spans__isnull=True).delete()
    review_assign_entities(transcript=transcript, spans=restored)
    before_side = {"spans": state_before}
    after_side = {
        "undoes": event.pk,
        "action": event.event_type.removeprefix(EVENT_PREFIX),
        "spans": [span_snapshot(s) for s in restored],
        "removed": removed,
    }
    touched_add(before_side, after_side)
    return audit_record(
        actor=actor,
        event_type=UNDO_EVENT,
        transcript=transcript,
        before=before_side,
        after=after_side,
    )


def _restore(updated: list[tuple[Span, dict, int]]) -> None:
    """Give each span its restored ``fields`` and ``version``, in UPDATEs of at most
    ``CHUNK`` ids, one per distinct change: spans are grouped by the fields that change and
    the values they return to, and by how far their version goes back (``F("version")``
    minus that). A bulk decision's undo is then as many statements as the decision itself
    (one change, "back to suggested, no reviewer", a version back by one), where
    ``bulk_update``'s ``CASE id WHEN …`` per row and field cost 15× the decision at 1,000
    spans and 20× at 3,000. The spans (objects) get the same values."""
    now = timezone.now()
    groups: dict[tuple, tuple[dict, int, list[int]]] = {}
    for span, fields, version in updated:
        change = {k: v for k, v in fields.items() if getattr(span, k) != v}
        delta = version - span.version
        key = (json.dumps(change, sort_keys=True, default=str), delta)
        groups.setdefault(key, (change, delta, []))[2].append(span.pk)
        for name, value in change.items():
            setattr(span, name, value)
        span.version, span.updated_at = version, now
    for change, delta, ids in groups.values():
        if not change and not delta:
            continue
        for part in chunks(ids):
            Span.objects.filter(pk__in=part).update(
                **change, version=F("version") + delta, updated_at=now
            )


def _changed_by(*, transcript: Transcript, actor, since: int, spans: set[int]) -> str | None:
    """The username of another user whose review action after event ``since`` touched one
    of ``spans`` (the newest), or ``None``."""
    events = (
        AuditEvent.objects.filter(
            transcript=transcript, pk__gt=since, event_type__startswith=EVENT_PREFIX
        )
        .exclude(actor=actor)
        .order_by("-id")
        .values_list("actor_username", "before", "after")[:200]
    )
    for username, before, after in events:
        for side in (before, after):
            if any(s.get("id") in spans for s in (side or {}).get("spans", []) or []):
                return username or None
    return None
