"""Review actions on spans and reference groups (the review workspace writes through these).

Every action is one ``@transaction.atomic`` service that

* checks the actor may change the transcript (assignee, lead or admin; state editable),
* checks the span's ``version`` (optimistic locking: a stale version raises ``SpanConflict``),
* writes the change and one ``AuditEvent`` (``review.<action>``) whose ``before``/``after``
  hold snapshots of every span the action touched, and
* moves a ``ready`` transcript to ``in_review`` the first time someone acts on it.

``review_undo`` reverts the actor's latest review action on a transcript from those
snapshots (any depth; it refuses when someone changed the spans since). Offsets are
characters into ``Transcript.text``, end exclusive.
"""

import re
from collections.abc import Iterable

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from annotations.models import Entity, Span
from annotations.services.entities import entities_assign
from anonreview import roles
from anonreview.core.audit import audit_record
from anonreview.core.models import AuditEvent
from engine.detectors.names import stored_pieces
from engine.labels import LABELS
from engine.pseudonymize.keys import entity_key
from transcripts.models import Transcript
from transcripts.services.workflow import (
    EDITABLE_STATES,
    READ_ONLY_STATES,
    transcript_start_review,
)

S = Transcript.State
_RESTORED_FIELDS = (
    "start", "end", "label", "status", "entity_id", "provenance", "score", "reviewer_id",
)  # fmt: skip
EVENT_PREFIX = "review."
UNDO_EVENT = "review.undo"
HUMAN = "human"
OCCURRENCE = "review.occurrence"
# States in which leads (not only assignees) may still change spans.
LEAD_EDITABLE_STATES = frozenset(EDITABLE_STATES | {S.SUBMITTED, S.RETURNED})
_TRIM = ' \t\n\r,;:!?"“”()[]{}'


class ReviewError(Exception):
    """An action that cannot be done (message fit for users)."""


class ReviewPermissionError(ReviewError):
    """The actor may not change this transcript's spans (now)."""


class SpanConflict(ReviewError):
    """Someone changed the span since the page showed it (stale ``version``)."""

    def __init__(self, message: str, *, spans: Iterable[Span] = ()):
        super().__init__(message)
        self.spans = list(spans)


# --- permissions ---------------------------------------------------------------------


def review_edit_refusal(*, transcript: Transcript, user) -> str | None:
    """Why ``user`` may not change spans of ``transcript`` now, or ``None`` if they may."""
    if not getattr(user, "is_authenticated", False):
        return "Log in to review."
    lead = roles.is_lead(user)
    assignee = lead or transcript.assignees.filter(pk=user.pk).exists()
    if not assignee:
        return "Only the transcript's assignees, leads and admins can change its spans."
    if transcript.state in READ_ONLY_STATES:
        return f"This transcript is {transcript.get_state_display().lower()} and read-only."
    if lead and transcript.state in LEAD_EDITABLE_STATES:
        return None
    if transcript.state == S.RETURNED:
        return "This transcript was returned: resume the review to change it again."
    if transcript.state not in EDITABLE_STATES:
        return f"A transcript that is {transcript.get_state_display().lower()} cannot be changed."
    return None


def _check_edit(*, transcript: Transcript, actor) -> Transcript:
    transcript.state = Transcript.objects.values_list("state", flat=True).get(pk=transcript.pk)
    refusal = review_edit_refusal(transcript=transcript, user=actor)
    if refusal:
        raise ReviewPermissionError(refusal)
    if transcript.state == S.READY:
        transcript_start_review(transcript=transcript, actor=actor)
    return transcript


@transaction.atomic
def review_resume(*, transcript: Transcript, actor) -> Transcript:
    """An assignee resumes a returned transcript (returned → in review)."""
    if transcript.state != S.RETURNED:
        raise ReviewError("Only a returned transcript can be resumed.")
    return transcript_start_review(transcript=transcript, actor=actor)


# --- snapshots and audit ---------------------------------------------------------------


def span_snapshot(span: Span) -> dict:
    return {
        "id": span.pk,
        "start": span.start,
        "end": span.end,
        "label": span.label,
        "status": span.status,
        "entity_id": span.entity_id,
        "provenance": span.provenance,
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
    return audit_record(
        actor=actor,
        event_type=EVENT_PREFIX + action,
        transcript=transcript,
        span=span,
        before={"spans": before},
        after={"spans": after, "created_entities": sorted(created_entities), **(extra or {})},
    )


def _lock_span(*, span: Span | int, version: int | None) -> Span:
    span_id = span.pk if isinstance(span, Span) else span
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


def review_assign_entities(*, transcript: Transcript, spans: Iterable[Span] | None = None) -> None:
    """Give every non-rejected span without a reference group one (keeps existing groups).

    ``spans`` (new or relabelled) first join an existing group of their label whose key
    is theirs (what ``entities_assign`` would do, without its pass over the whole
    transcript); only the rest go through ``entities_assign``.
    """
    if spans is None:
        entities_assign(transcript=transcript)
        return
    spans = [s for s in spans if s.entity_id is None and s.status != Span.Status.REJECTED]
    if spans:
        text = transcript.text
        keys = {s.pk: entity_key(s.label, text[s.start : s.end]) for s in spans}
        groups: dict[tuple[str, str], Entity] = {}
        for e in Entity.objects.filter(
            transcript=transcript, label__in={s.label for s in spans}, key__in=set(keys.values())
        ).order_by("id"):
            groups.setdefault((e.label, e.key), e)  # the oldest group of that key
        for span in spans:
            entity = groups.get((span.label, keys[span.pk]))
            if entity is not None:
                span.entity = entity
                Span.objects.filter(pk=span.pk).update(entity=entity)
    rest = [s for s in spans if s.entity_id is None]
    if rest:
        entities_assign(transcript=transcript, spans=rest)


def _ref_number(ref: str) -> int:
    match = re.search(r"_(\d+)$", ref)
    return int(match.group(1)) if match else 0


def _next_ref(*, transcript: Transcript, like: Entity) -> str:
    match = re.match(r"^(.*)_(\d+)$", like.ref)
    prefix = match.group(1) if match else like.ref
    refs = Entity.objects.filter(transcript=transcript, ref__startswith=f"{prefix}_").values_list(
        "ref", flat=True
    )
    numbers = [_ref_number(r) for r in refs if re.fullmatch(rf"{re.escape(prefix)}_\d+", r)]
    return f"{prefix}_{max(numbers, default=0) + 1}"


# --- word boundaries -----------------------------------------------------------------


def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch in "_@"


def snap_to_words(text: str, start: int, end: int) -> tuple[int, int]:
    """Widen ``[start, end)`` to whole words and trim surrounding spaces and punctuation."""
    start, end = max(0, min(start, end)), min(len(text), max(start, end))
    while start < end and text[start] in _TRIM:
        start += 1
    while end > start and (text[end - 1] in _TRIM or text[end - 1] in ".'’"):
        end -= 1
    while start > 0 and start < len(text) and _is_word(text[start - 1]) and _is_word(text[start]):
        start -= 1
    while end < len(text) and end > 0 and _is_word(text[end - 1]) and _is_word(text[end]):
        end += 1
    return start, end


def word_step(text: str, pos: int, *, forward: bool) -> int:
    """The next word boundary from ``pos``: skip non-word characters, then a word."""
    if forward:
        while pos < len(text) and not _is_word(text[pos]) and text[pos] != "\n":
            pos += 1
        while pos < len(text) and (
            _is_word(text[pos])
            or (text[pos] in "-'’." and pos + 1 < len(text) and _is_word(text[pos + 1]))
        ):
            pos += 1
        return pos
    while pos > 0 and not _is_word(text[pos - 1]) and text[pos - 1] != "\n":
        pos -= 1
    while pos > 0 and (
        _is_word(text[pos - 1]) or (text[pos - 1] in "-'’." and pos > 1 and _is_word(text[pos - 2]))
    ):
        pos -= 1
    return pos


def _check_extent(text: str, start: int, end: int) -> None:
    if not (0 <= start < end <= len(text)):
        raise ReviewError("Select at least one word.")
    if "\n" in text[start:end]:
        raise ReviewError("A span cannot cross from one utterance into the next.")


def _overlapping(*, transcript: Transcript, start: int, end: int, exclude: Iterable[int] = ()):
    return (
        Span.objects.filter(transcript=transcript, start__lt=end, end__gt=start)
        .exclude(status=Span.Status.REJECTED)
        .exclude(pk__in=list(exclude))
    )


# --- single-span actions ---------------------------------------------------------------


def _set_status(*, span: Span | int, actor, version: int | None, status: str, action: str) -> Span:
    locked = _lock_span(span=span, version=version)
    _check_edit(transcript=locked.transcript, actor=actor)
    before = span_snapshot(locked)
    locked.status = status
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
    current = span if isinstance(span, Span) else Span.objects.get(pk=span)
    status = Span.Status.ADDED if current.status == Span.Status.ADDED else Span.Status.ACCEPTED
    return _set_status(span=span, actor=actor, version=version, status=status, action="accept")


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
    if label not in LABELS:
        raise ReviewError(f"Unknown label {label!r}.")
    locked = _lock_span(span=span, version=version)
    transcript = locked.transcript
    _check_edit(transcript=transcript, actor=actor)
    entities_before = _entity_ids(transcript)
    before = [span_snapshot(locked)]
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
    review_assign_entities(transcript=transcript, spans=result)
    result = list(Span.objects.filter(pk__in=[s.pk for s in result]))
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
    if new_end <= new_start:
        raise ReviewError("A span must keep at least one word; delete or reject it instead.")
    _check_extent(text, new_start, new_end)
    clash = _overlapping(transcript=transcript, start=new_start, end=new_end, exclude=[locked.pk])
    if clash.exists():
        raise ReviewError("The new extent overlaps another span; reject or shrink that one first.")
    if (new_start, new_end) == (locked.start, locked.end):
        raise ReviewError("The span already has this extent.")
    before = span_snapshot(locked)
    locked.start, locked.end = new_start, new_end
    if locked.status == Span.Status.SUGGESTED:
        locked.status = Span.Status.ACCEPTED
    _save(locked, actor, "start", "end", "status")
    _record(
        actor=actor,
        action="resize",
        transcript=transcript,
        span=locked,
        before=[before],
        after=[span_snapshot(locked)],
    )
    return locked


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
    review_assign_entities(transcript=transcript, spans=created)
    created = list(Span.objects.filter(pk__in=[s.pk for s in created]))
    _record(
        actor=actor,
        action="add",
        transcript=transcript,
        span=created[0],
        before=[],
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


# --- reference groups ---------------------------------------------------------------


def _entity(*, transcript: Transcript, entity: Entity | int | str) -> Entity:
    if isinstance(entity, Entity):
        return entity
    lookup = {"ref": entity} if isinstance(entity, str) and not entity.isdigit() else {"pk": entity}
    try:
        return Entity.objects.get(transcript=transcript, **lookup)
    except Entity.DoesNotExist as exc:
        raise ReviewError("That reference group no longer exists.") from exc


def _lock_spans(queryset) -> list[Span]:
    return list(queryset.select_for_update().order_by("pk"))


@transaction.atomic
def entity_merge(
    *, transcript: Transcript, source: Entity | int | str, target: Entity | int | str, actor
) -> Entity:
    """Merge reference group ``source`` into ``target`` (same person): one pseudonym.

    Every mention of ``source`` joins ``target``; ``source`` stays, empty, so its ref is
    never reused (undo puts the mentions back).
    """
    _check_edit(transcript=transcript, actor=actor)
    source = _entity(transcript=transcript, entity=source)
    target = _entity(transcript=transcript, entity=target)
    if source.pk == target.pk:
        raise ReviewError("Pick two different groups to merge.")
    if source.label != target.label:
        raise ReviewError(f"Cannot merge a {source.label} group into a {target.label} group.")
    spans = _lock_spans(Span.objects.filter(transcript=transcript, entity=source))
    if not spans:
        raise ReviewError(f"{source.ref} has no mentions to merge.")
    before = [span_snapshot(s) for s in spans]
    spans_bulk_save(spans, actor, entity=target)
    _record(
        actor=actor,
        action="merge",
        transcript=transcript,
        before=before,
        after=[span_snapshot(s) for s in spans],
        extra={"source": source.ref, "target": target.ref},
    )
    return target


@transaction.atomic
def entity_split(
    *, transcript: Transcript, entity: Entity | int | str, spans: Iterable[Span | int], actor
) -> Entity:
    """Move the given mentions of ``entity`` into a new reference group (another person)."""
    _check_edit(transcript=transcript, actor=actor)
    entity = _entity(transcript=transcript, entity=entity)
    ids = [s.pk if isinstance(s, Span) else int(s) for s in spans]
    moving = _lock_spans(Span.objects.filter(transcript=transcript, entity=entity, pk__in=ids))
    if not moving:
        raise ReviewError("Choose mentions of this group to split off.")
    if len(moving) == Span.objects.filter(entity=entity).count():
        raise ReviewError("Splitting off every mention would leave the group empty.")
    new = Entity.objects.create(
        transcript=transcript,
        label=entity.label,
        ref=_next_ref(transcript=transcript, like=entity),
        key=entity.key,
    )
    before = [span_snapshot(s) for s in moving]
    spans_bulk_save(moving, actor, entity=new)
    _record(
        actor=actor,
        action="split",
        transcript=transcript,
        span=moving[0] if len(moving) == 1 else None,
        before=before,
        after=[span_snapshot(s) for s in moving],
        created_entities=[new.pk],
        extra={"source": entity.ref, "target": new.ref},
    )
    return new


# --- many spans at once -------------------------------------------------------------


def occurrences(text: str, needle: str) -> list[tuple[int, int]]:
    """Whole-word occurrences of ``needle`` in ``text`` (case-sensitive)."""
    if not needle.strip():
        return []
    pattern = re.compile(rf"(?<![\w@]){re.escape(needle)}(?![\w@])")
    return [(m.start(), m.end()) for m in pattern.finditer(text)]


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
    created = Span.objects.bulk_create(created)
    review_assign_entities(transcript=transcript, spans=created)
    _record(
        actor=actor,
        action="apply_all",
        transcript=transcript,
        span=locked,
        before=[],
        after=[span_snapshot(s) for s in Span.objects.filter(pk__in=[s.pk for s in created])],
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
    """Accept every remaining suggestion of one label or one reference group (confirm first)."""
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
    before = [span_snapshot(s) for s in spans]
    ids = [s.pk for s in spans]
    user = actor if getattr(actor, "is_authenticated", False) else None
    Span.objects.filter(pk__in=ids).update(
        status=Span.Status.ACCEPTED,
        version=F("version") + 1,
        reviewer=user,
        updated_at=timezone.now(),
    )
    spans = list(Span.objects.filter(pk__in=ids))
    _record(
        actor=actor,
        action="accept_all",
        transcript=transcript,
        before=before,
        after=[span_snapshot(s) for s in spans],
        extra=scope,
    )
    return spans


# --- undo ----------------------------------------------------------------------------


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

    Refuses (``SpanConflict``) when a span it touched was changed since by anyone.
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
    current = {s.pk: s for s in _lock_spans(Span.objects.filter(pk__in=set(before) | set(after)))}
    stale = [
        current[i]
        for i, snap in after.items()
        if i in current and current[i].version != snap["version"]
    ]
    gone = [i for i in after if i not in current]
    back = [i for i in before if i not in after and i in current]
    if stale or gone or back:
        raise SpanConflict(
            "Cannot undo: someone changed these spans since; the view shows their current state.",
            spans=stale,
        )
    state_before = [span_snapshot(s) for s in current.values()]
    restored, updated = [], []
    for span_id, snap in before.items():
        span = current.get(span_id)
        fields = {k: snap[k] for k in _RESTORED_FIELDS}
        fields["proposal_id"] = snap.get("proposal_id")  # older snapshots lack it
        if span is None:
            if snap["entity_id"] and not Entity.objects.filter(pk=snap["entity_id"]).exists():
                fields["entity_id"] = None
            span = Span.objects.create(
                pk=span_id, transcript=transcript, version=snap["version"] + 1, **fields
            )
        else:
            for key, value in fields.items():
                setattr(span, key, value)
            span.version += 1
            span.updated_at = timezone.now()
            updated.append(span)
        restored.append(span)
    Span.objects.bulk_update(
        updated, [*_RESTORED_FIELDS, "proposal_id", "version", "updated_at"], batch_size=500
    )
    removed = [i for i in after if i not in before]
    Span.objects.filter(pk__in=removed).delete()
    created_entities = event.after.get("created_entities", [])
    if created_entities:
        Entity.objects.filter(pk__in=created_entities, spans__isnull=True).delete()
    review_assign_entities(transcript=transcript, spans=restored)
    return audit_record(
        actor=actor,
        event_type=UNDO_EVENT,
        transcript=transcript,
        before={"spans": state_before},
        after={
            "undoes": event.pk,
            "action": event.event_type.removeprefix(EVENT_PREFIX),
            "spans": [span_snapshot(s) for s in restored],
            "removed": removed,
        },
    )
