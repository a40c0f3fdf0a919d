"""Actions on spans: accept, reject, relabel, resize, add, delete, apply to all, accept all."""

from collections.abc import Callable

from django.db import transaction

from annotations.models import Entity, Span
from annotations.services.review.bulk import _decide, _form_spans, chunks
from annotations.services.review.geometry import (
    _check_extent,
    _is_word,
    _overlapping,
    occurrences,
    snap_to_words,
    word_step,
)
from annotations.services.review.groups import _entity, review_assign_entities
from annotations.services.review.permissions import ReviewError, _check_edit
from annotations.services.review.snapshots import (
    _create,
    _entity_ids,
    _lock_span,
    _lock_spans,
    _record,
    _save,
    span_snapshot,
    spans_bulk_save,
)
from annotations.services.review.touched import touched_add
from engine.detectors.names import stored_pieces
from engine.labels import LABELS
from transcripts.models import Transcript

OCCURRENCE = "review.occurrence"


def _set_status(
    *, span: Span | int, actor, version: int | None, status: str | Callable, action: str
) -> Span:
    """Lock the span (the transcript first), then read it: never read before the lock (a
    delete committed in between gave a 500). ``status`` may be a function of
    the locked span."""
    locked = _lock_span(span=span, version=version)
    _check_edit(transcript=locked.transcript, actor=actor)
    before = span_snapshot(locked)
    locked.status = status(locked) if callable(status) else status
    _save(locked, actor, "status")
    _record(
        actor=actor,
        action=action,
        transcript=locked.transcript,
        span=locked,
        before=[before],
        after=[span_snapshot(locked)],
    )
    return locked


@transaction.atomic
def span_accept(*, span: Span | int, actor, version: int | None = None) -> Span:
    """Accept a suggestion (a span the reviewer added stays ``added``)."""

    def accepted(locked: Span) -> str:
        return Span.Status.ADDED if locked.status == Span.Status.ADDED else Span.Status.ACCEPTED

    return _set_status(span=span, actor=actor, version=version, status=accepted, action="accept")


@transaction.atomic
def span_reject(*, span: Span | int, actor, version: int | None = None) -> Span:
    """Reject a suggestion: not personal data; it is not replaced."""
    return _set_status(
        span=span, actor=actor, version=version, status=Span.Status.REJECTED, action="reject"
    )


@transaction.atomic
def span_relabel(*, span: Span | int, actor, label: str, version: int | None = None) -> list[Span]:
    """Give a span another label (it leaves its group; a new group is assigned).

    Relabelling a multi-word mention to PERSON splits it into name parts. Returns the
    resulting spans.
    """
    label = _known_label(label)
    locked = _lock_span(span=span, version=version)
    transcript = locked.transcript
    _check_edit(transcript=transcript, actor=actor)
    entities_before = _entity_ids(transcript)
    before = [span_snapshot(locked)]
    result = _relabel_locked(locked, actor=actor, label=label)
    result = _regrouped(transcript, result)
    _record(
        actor=actor,
        action="relabel",
        transcript=transcript,
        span=locked,
        before=before,
        after=[span_snapshot(s) for s in result],
        created_entities=_entity_ids(transcript) - entities_before,
    )
    return result


def _regrouped(transcript: Transcript, spans: list[Span]) -> list[Span]:
    """Put ``spans`` into reference groups and read them back as stored (their groups and
    versions), in their order, in chunks of ids: what an audit row's "after" snapshots."""
    review_assign_entities(transcript=transcript, spans=spans)
    ids = [s.pk for s in spans]
    stored = {s.pk: s for part in chunks(ids) for s in Span.objects.filter(pk__in=part)}
    return [stored[pk] for pk in ids]


def _known_label(label: str) -> str:
    if label not in LABELS:
        raise ReviewError(f"Unknown label {label!r}.")
    return label


def _relabel_locked(locked: Span, *, actor, label: str) -> list[Span]:
    """Relabel one locked span as decided (accepted, or added if the reviewer added it),
    out of its group; PERSON splits a multi-word mention into name parts. No audit row,
    no group assignment: the caller does both, once."""
    transcript = locked.transcript
    status = Span.Status.ADDED if locked.status == Span.Status.ADDED else Span.Status.ACCEPTED
    parts = stored_pieces(transcript.text, locked.start, locked.end, label) or [
        (locked.start, locked.end)
    ]
    result = []
    for index, (start, end) in enumerate(parts):
        if index == 0:
            locked.start, locked.end, locked.label, locked.status = start, end, label, status
            locked.entity = None
            _save(locked, actor, "start", "end", "label", "status", "entity")
            result.append(locked)
        else:
            result.append(
                _create(
                    transcript=transcript,
                    actor=actor,
                    start=start,
                    end=end,
                    label=label,
                    status=status,
                    provenance=locked.provenance,
                )
            )
    return result


def relabel_locked_spans(
    transcript: Transcript, spans: list[Span], *, actor, to: str
) -> list[Span]:
    """Relabel locked ``spans`` to ``to`` as decided (accepted, or added if the reviewer
    added them); no audit row, no groups (the caller does both, once). Returns the
    resulting spans.

    A mention that stays one span (most of them) changes in one UPDATE per status; a
    PERSON mention cut into name parts goes one by one. (288 mentions one UPDATE each, and
    the transcript's text read once per span, took 2 s on a 15,000-word hearing.)"""
    text, result, whole = transcript.text, [], {}
    for span in spans:
        span.transcript = transcript
        if (stored_pieces(text, span.start, span.end, to) or [(span.start, span.end)]) == [
            (span.start, span.end)
        ]:
            status = Span.Status.ADDED if span.status == Span.Status.ADDED else Span.Status.ACCEPTED
            whole.setdefault(status, []).append(span)
            result.append(span)
        else:
            result.extend(_relabel_locked(span, actor=actor, label=to))
    for status, group in whole.items():
        for part in chunks(group):  # bounded IN lists
            spans_bulk_save(part, actor, label=to, status=status, entity=None)
    return result


@transaction.atomic
def spans_relabel_form(
    *, transcript: Transcript, actor, label: str, form: str, to: str
) -> list[Span]:
    """Relabel every mention of ``form`` as ``label`` to ``to`` (undecided, accepted or
    added ones; rejected mentions stay rejected) in ONE audit event (``bulk`` "form"): one
    input and one undo step for "this form is a place, not an organisation". The audit
    row names the spans, never the form."""
    _check_edit(transcript=transcript, actor=actor)
    to = _known_label(to)
    if to == _known_label(label):
        raise ReviewError(f"These mentions are {label} already.")
    spans = _form_spans(
        transcript=transcript, label=label, form=form,
        statuses=(Span.Status.SUGGESTED, Span.Status.ACCEPTED, Span.Status.ADDED),
    )  # fmt: skip
    if not spans:
        raise ReviewError("Nothing left to relabel there.")
    entities_before = _entity_ids(transcript)
    before = [span_snapshot(s) for s in spans]
    result = _regrouped(transcript, relabel_locked_spans(transcript, spans, actor=actor, to=to))
    _record(
        actor=actor,
        action="relabel_form",
        transcript=transcript,
        span=spans[0] if len(spans) == 1 else None,
        before=before,
        after=[span_snapshot(s) for s in result],
        created_entities=_entity_ids(transcript) - entities_before,
        extra={"label": label, "to": to, "bulk": "form", "count": len(spans)},
    )
    return result


@transaction.atomic
def span_resize(
    *,
    span: Span | int,
    actor,
    version: int | None = None,
    start: int | None = None,
    end: int | None = None,
    edge: str | None = None,
    grow: bool = True,
) -> Span:
    """Move a span's boundaries, always to whole words.

    Either give new ``start``/``end`` (snapped to word boundaries), or an ``edge``
    (``"left"``/``"right"``) to extend (``grow=True``) or shrink by one word.
    """
    locked = _lock_span(span=span, version=version)
    transcript = locked.transcript
    _check_edit(transcript=transcript, actor=actor)
    text = transcript.text
    new_start, new_end = locked.start, locked.end
    if edge == "left" and grow:
        new_start = word_step(text, new_start, forward=False)
    elif edge == "left":
        new_start = word_step(text, new_start, forward=True)
        while new_start < new_end and not _is_word(text[new_start]):
            new_start += 1
    elif edge == "right" and grow:
        new_end = word_step(text, new_end, forward=True)
    elif edge == "right":
        new_end = word_step(text, new_end, forward=False)
        while new_end > new_start and not _is_word(text[new_end - 1]):
            new_end -= 1
    elif edge is None:
        new_start = locked.start if start is None else int(start)
        new_end = locked.end if end is None else int(end)
    else:
        raise ReviewError("Resize the left or the right edge.")
    new_start, new_end = snap_to_words(text, new_start, new_end)
    if edge is not None and grow:  # a step into a piece of the same label takes it whole
        for c in _overlapping(
            transcript=transcript, start=new_start, end=new_end, exclude=[locked.pk]
        ).filter(label=locked.label):
            new_start, new_end = min(new_start, c.start), max(new_end, c.end)
    if new_end <= new_start:
        raise ReviewError("A span must keep at least one word; delete or reject it instead.")
    _check_extent(text, new_start, new_end)
    # Spans wholly inside the new extent are swallowed (the pieces of one spelling, issue
    # 29, 3.2): deleted in the same step, so one undo brings them back. A drag over them
    # swallows any label; a one-word edge step only pieces of the span's own label. A span
    # that only overlaps an edge still refuses the resize.
    clash = list(
        _overlapping(transcript=transcript, start=new_start, end=new_end, exclude=[locked.pk])
    )
    if any(
        c.start < new_start or c.end > new_end or (edge is not None and c.label != locked.label)
        for c in clash
    ):
        raise ReviewError("The new extent overlaps another span; reject or shrink that one first.")
    if (new_start, new_end) == (locked.start, locked.end):
        raise ReviewError("The span already has this extent.")
    before = [span_snapshot(locked), *(span_snapshot(c) for c in clash)]
    Span.objects.filter(pk__in=[c.pk for c in clash]).delete()
    locked.start, locked.end = new_start, new_end
    if locked.status == Span.Status.SUGGESTED:
        locked.status = Span.Status.ACCEPTED
    _save(locked, actor, "start", "end", "status")
    _record(
        actor=actor,
        action="resize",
        transcript=transcript,
        span=locked,
        before=before,
        after=[span_snapshot(locked)],
        extra={"swallowed": [c.pk for c in clash]} if clash else None,
    )
    return locked


@transaction.atomic
def span_add(*, transcript: Transcript, actor, start: int, end: int, label: str) -> list[Span]:
    """Add a span from a text selection (snapped to words; PERSON → one span per name part).

    Name parts already covered by a span are skipped. Returns the new spans.
    """
    if label not in LABELS:
        raise ReviewError(f"Unknown label {label!r}.")
    transcript = Transcript.objects.select_for_update().get(pk=transcript.pk)
    _check_edit(transcript=transcript, actor=actor)
    text = transcript.text
    start, end = snap_to_words(text, int(start), int(end))
    _check_extent(text, start, end)
    parts = stored_pieces(text, start, end, label)
    if not parts:
        raise ReviewError("The selection holds no name (titles such as Mr. are not names).")
    entities_before = _entity_ids(transcript)
    # One selection over the pieces of one item (a spelling cut in three):
    # the spans wholly inside it are swallowed by the new span, in the same undo step.
    swallowed = []
    if len(parts) == 1:
        inside = list(_overlapping(transcript=transcript, start=start, end=end))
        if inside and all(
            start <= c.start and c.end <= end and (c.start, c.end) != (start, end) for c in inside
        ):
            swallowed = [span_snapshot(c) for c in inside]
            Span.objects.filter(pk__in=[c.pk for c in inside]).delete()
    created = []
    for part_start, part_end in parts:
        if _overlapping(transcript=transcript, start=part_start, end=part_end).exists():
            continue
        created.append(
            _create(
                transcript=transcript,
                actor=actor,
                start=part_start,
                end=part_end,
                label=label,
                status=Span.Status.ADDED,
            )
        )
    if not created:
        raise ReviewError("The selection is already annotated; relabel or resize that span.")
    created = _regrouped(transcript, created)
    _record(
        actor=actor,
        action="add",
        transcript=transcript,
        span=created[0],
        before=swallowed,
        after=[span_snapshot(s) for s in created],
        created_entities=_entity_ids(transcript) - entities_before,
    )
    return created


@transaction.atomic
def span_delete(*, span: Span | int, actor, version: int | None = None) -> Span:
    """Delete a span (for mistakes; suggestions are normally rejected, which keeps them)."""
    locked = _lock_span(span=span, version=version)
    _check_edit(transcript=locked.transcript, actor=actor)
    before = span_snapshot(locked)
    _record(actor=actor, action="delete", transcript=locked.transcript, before=[before], after=[])
    locked.delete()
    return locked


@transaction.atomic
def span_apply_to_all(*, span: Span | int, actor, version: int | None = None) -> list[Span]:
    """Propose ``span``'s label at every other occurrence of its text.

    Creates *suggested* spans (provenance ``review.occurrence``) that the reviewer then
    accepts or rejects like any other suggestion — never a silent mass decision. Returns
    the new suggestions (empty when every occurrence is already annotated).
    """
    locked = _lock_span(span=span, version=version)
    transcript = locked.transcript
    _check_edit(transcript=transcript, actor=actor)
    if locked.status == Span.Status.REJECTED:
        raise ReviewError(
            "Apply a label, not a rejection: reject the other suggestions one by one."
        )
    text = transcript.text
    needle = text[locked.start : locked.end]
    taken = list(
        Span.objects.filter(transcript=transcript)
        .exclude(status=Span.Status.REJECTED)
        .values_list("start", "end")
    )
    entities_before = _entity_ids(transcript)
    created = []
    for start, end in occurrences(text, needle):
        if any(s < end and e > start for s, e in taken):
            continue
        created.append(
            Span(
                transcript=transcript,
                start=start,
                end=end,
                label=locked.label,
                status=Span.Status.SUGGESTED,
                provenance=[{"detector": OCCURRENCE, "score": 1.0, "from_span": locked.pk}],
                score=1.0,
                entity_id=locked.entity_id,
            )
        )
    if not created:
        return []
    created = _regrouped(transcript, Span.objects.bulk_create(created))
    _record(
        actor=actor,
        action="apply_all",
        transcript=transcript,
        span=locked,
        before=[],
        after=[span_snapshot(s) for s in created],
        created_entities=_entity_ids(transcript) - entities_before,
        extra={"from_span": locked.pk},
    )
    return created


@transaction.atomic
def spans_accept_all(
    *,
    transcript: Transcript,
    actor,
    label: str | None = None,
    entity: Entity | int | str | None = None,
) -> list[Span]:
    """Accept every remaining suggestion of one label or one reference group (one audit
    event, ``after["bulk"]`` ``"label"`` or ``"group"``; the view asks first above
    ``bulk.CONFIRM_ABOVE`` spans)."""
    if (label is None) == (entity is None):
        raise ReviewError("Accept all of one label or of one group.")
    _check_edit(transcript=transcript, actor=actor)
    queryset = Span.objects.filter(transcript=transcript, status=Span.Status.SUGGESTED)
    if label is not None:
        if label not in LABELS:
            raise ReviewError(f"Unknown label {label!r}.")
        queryset = queryset.filter(label=label)
        scope = {"label": label}
    else:
        entity = _entity(transcript=transcript, entity=entity)
        queryset = queryset.filter(entity=entity)
        scope = {"entity": entity.ref}
    spans = _lock_spans(queryset)
    if not spans:
        raise ReviewError("Nothing left to accept there.")
    return _decide(
        transcript=transcript, actor=actor, spans=spans, status=Span.Status.ACCEPTED,
        action="accept_all", bulk="label" if label is not None else "group", extra=scope,
    )  # fmt: skip


FLAG_EVENT = "review_note.flag"  # not a ``review.`` action: undo leaves notes alone


@transaction.atomic
def span_flag(
    *, span: Span | int, actor, flagged: bool, note: str = "", version: int | None = None
) -> Span:
    """Flag a span for the lead, with an optional comment (or clear the flag). The span's
    decision and version do not change; the audit event keeps the old and new note."""
    locked = _lock_span(span=span, version=version)
    _check_edit(transcript=locked.transcript, actor=actor, action="flag")
    note = (note or "").strip()[:2000]
    before = {"flagged": locked.flagged, "note": locked.lead_note}
    locked.flagged, locked.lead_note = bool(flagged), note if flagged else ""
    Span.objects.filter(pk=locked.pk).update(flagged=locked.flagged, lead_note=locked.lead_note)
    from anonreview.core.audit import audit_record

    before = {**before, "spans": [span_snapshot(locked)]}
    after = {"flagged": locked.flagged, "note": locked.lead_note}
    touched_add(before, after)
    audit_record(
        actor=actor,
        event_type=FLAG_EVENT,
        transcript=locked.transcript,
        span=locked,
        before=before,
        after=after,
    )
    return locked
