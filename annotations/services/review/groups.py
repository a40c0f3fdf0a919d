"""Reference groups: assigning, merging, splitting (one pseudonym per person)."""

import re
from collections.abc import Iterable

from django.db import transaction

from annotations import locking
from annotations.models import Entity, Span
from annotations.services.entities import entities_assign
from annotations.services.review.permissions import ReviewError, SpanConflict, _check_edit
from annotations.services.review.snapshots import (
    _lock_spans,
    _record,
    span_snapshot,
    spans_bulk_save,
)
from engine.pseudonymize.keys import entity_key
from transcripts.models import Transcript


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
        joining: dict[int, list[int]] = {}
        for span in spans:
            entity = groups.get((span.label, keys[span.pk]))
            if entity is not None:
                span.entity = entity
                joining.setdefault(entity.pk, []).append(span.pk)
        for entity_id, ids in joining.items():  # one UPDATE per group, not per span
            for part in _chunks(ids):
                Span.objects.filter(pk__in=part).update(entity_id=entity_id)
    rest = [s for s in spans if s.entity_id is None]
    if rest:
        entities_assign(transcript=transcript, spans=rest)


def _chunks(ids: list[int], size: int = 500):
    for i in range(0, len(ids), size):
        yield ids[i : i + size]


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


def _entity(*, transcript: Transcript, entity: Entity | int | str) -> Entity:
    if isinstance(entity, Entity):
        return entity
    lookup = {"ref": entity} if isinstance(entity, str) and not entity.isdigit() else {"pk": entity}
    try:
        return Entity.objects.get(transcript=transcript, **lookup)
    except Entity.DoesNotExist as exc:
        raise ReviewError("That reference group no longer exists.") from exc


def _check_group_versions(*, groups: dict[str, list[Span]], versions) -> None:
    """Raise ``SpanConflict`` when a group changed since ``versions`` (``{ref: version}``,
    ``annotations.locking.group_version`` of the page's view); ``None``: no check."""
    if versions is None:
        return
    current = {
        ref: locking.group_version((s.pk, s.version) for s in spans)
        for ref, spans in groups.items()
    }
    changed = locking.stale({ref: versions.get(ref, "") for ref in groups}, current)
    if changed:
        raise SpanConflict(
            f"{changed[0]} was changed since you loaded it; the view shows its current state.",
            spans=[s for ref in changed for s in groups[ref]],
        )


@transaction.atomic
def entity_merge(
    *,
    transcript: Transcript,
    source: Entity | int | str,
    target: Entity | int | str,
    actor,
    versions: dict[str, str] | None = None,
) -> Entity:
    """Merge reference group ``source`` into ``target`` (same person): one pseudonym.

    Every mention of ``source`` joins ``target``; ``source`` stays, empty, so its ref is
    never reused (undo puts the mentions back). ``versions`` (``{ref: group version}``,
    the page's view of both groups) raises ``SpanConflict`` when either changed since.
    """
    _check_edit(transcript=transcript, actor=actor)
    source = _entity(transcript=transcript, entity=source)
    target = _entity(transcript=transcript, entity=target)
    if source.pk == target.pk:
        raise ReviewError("Pick two different groups to merge.")
    if source.label != target.label:
        raise ReviewError(f"Cannot merge a {source.label} group into a {target.label} group.")
    spans = _lock_spans(Span.objects.filter(transcript=transcript, entity=source))
    targets = _lock_spans(Span.objects.filter(transcript=transcript, entity=target))
    _check_group_versions(groups={source.ref: spans, target.ref: targets}, versions=versions)
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
    *,
    transcript: Transcript,
    entity: Entity | int | str,
    spans: Iterable[Span | int],
    actor,
    versions: dict[int, int] | None = None,
) -> Entity:
    """Move the given mentions of ``entity`` into a new reference group (another person).

    ``versions`` (``{span id: version}``) raises ``SpanConflict`` when a moved mention
    changed since the page showed it."""
    _check_edit(transcript=transcript, actor=actor)
    entity = _entity(transcript=transcript, entity=entity)
    ids = [s.pk if isinstance(s, Span) else int(s) for s in spans]
    moving = _lock_spans(Span.objects.filter(transcript=transcript, entity=entity, pk__in=ids))
    if not moving:
        raise ReviewError("Choose mentions of this group to split off.")
    if versions is not None:
        changed = [s for s in moving if versions.get(s.pk) != s.version]
        if changed:
            raise SpanConflict(
                "This span was changed since you loaded it; the view shows its current state.",
                spans=changed,
            )
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


@transaction.atomic
def entity_split_form(
    *,
    transcript: Transcript,
    entity: Entity | int | str,
    form: str,
    actor,
    versions: dict[str, str] | None = None,
) -> Entity:
    """Split every mention of ``entity`` spelled ``form`` (case-insensitive) into a new
    group at once: a whole spelling variant that is another person (one audit event).
    ``versions`` (``{ref: group version}``) raises ``SpanConflict`` when the group changed
    since the page showed it."""
    _check_edit(transcript=transcript, actor=actor)
    entity = _entity(transcript=transcript, entity=entity)
    _check_group_versions(
        groups={entity.ref: _lock_spans(Span.objects.filter(transcript=transcript, entity=entity))},
        versions=versions,
    )
    text = transcript.text
    folded = form.strip().casefold()
    ids = [
        pk
        for pk, start, end in Span.objects.filter(entity=entity)
        .exclude(status=Span.Status.REJECTED)
        .values_list("pk", "start", "end")
        if text[start:end].casefold() == folded
    ]
    if not ids:
        raise ReviewError(f"{entity.ref} has no mention spelled “{form}”.")
    return entity_split(transcript=transcript, entity=entity, spans=ids, actor=actor)
