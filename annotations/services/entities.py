"""Reference groups: give every non-rejected span of a transcript its ``Entity``.

``entities_assign`` is idempotent and cheap (three queries plus two bulk writes, however
many spans): call it after annotation and after every review action that adds or
relabels spans. Spans that already have an entity keep it (a reviewer's merge or split
is never undone); the others join the entity of their normalised key
(:mod:`engine.pseudonymize.keys`) or a new one with the next ref in order of first
occurrence. A mention proposed by the ``propagation`` detector joins the group of the
original it was propagated from (its provenance names the original), so misspelled
repeats share a pseudonym.
"""

from __future__ import annotations

from django.conf import settings
from django.db import connection, transaction

from annotations.models import Entity, Span
from anonreview.core.audit import audit_record
from engine.pseudonymize import tag_for
from engine.pseudonymize.keys import closest_name, entity_key
from engine.pseudonymize.refs import _REF, RefAssigner, assign_refs
from engine.spans import provenance_original
from transcripts.models import Transcript


def pseudonym_scope() -> str:
    """``transcript`` (default) or ``corpus`` (settings.PSEUDONYM_SCOPE)."""
    return getattr(settings, "PSEUDONYM_SCOPE", "transcript")


def propagation_original(provenance: list | None) -> str | None:
    """The original text a propagated mention copies (its provenance's ``original``)."""
    return provenance_original(provenance, "propagation")


def _is_propagated(provenance: list | None) -> bool:
    return any(
        isinstance(item, dict) and item.get("detector") == "propagation"
        for item in provenance or []
    )


def _prefix_of(ref: str) -> str:
    match = _REF.match(ref)
    return match.group("prefix") if match else ref


def _known_from(entities) -> dict[tuple[str, str], str]:
    """``(prefix, key) → ref`` from ``(ref, key)`` pairs, first one wins."""
    known: dict[tuple[str, str], str] = {}
    for ref, key in entities:
        if not key:
            continue
        if ref.startswith("SPELLED_NAME_"):
            known.setdefault(("PERSON", key), ref.removeprefix("SPELLED_NAME_"))
        else:
            known.setdefault((_prefix_of(ref), key), ref)
    return known


def _highest_numbers(refs, counters: dict[str, int]) -> None:
    """``counters[prefix]`` = the highest number in use (what ``RefAssigner.reserve`` does
    one ref at a time)."""
    for ref in refs:
        match = _REF.match(ref or "")
        if match:
            prefix, n = match.group("prefix"), int(match.group("n"))
            if n > counters.get(prefix, 0):
                counters[prefix] = n


def ref_assigner_for(*, transcript: Transcript) -> RefAssigner:
    """A ref assigner that knows the transcript's entities (and the corpus's, by setting).

    Reads ``(ref, key)`` pairs, not model instances, and reserves the numbers in use in
    one pass: a review action that needs a new group (a relabel, an add) pays this for
    every group of the transcript (about 500 on a 15,000-word hearing).
    """
    from annotations.services.subtypes import configured_classifier

    # The model's ordering (label, id), as before: the first group of a key wins.
    own = list(Entity.objects.filter(transcript=transcript).values_list("ref", "key"))
    known = _known_from(own)
    counters: dict[str, int] = {}
    if pseudonym_scope() == "corpus":
        others = list(
            Entity.objects.exclude(transcript=transcript).order_by("id").values_list("ref", "key")
        )
        for ref_key, ref in _known_from(others).items():
            known.setdefault(ref_key, ref)
        _highest_numbers((ref for ref, _key in others), counters)
    _highest_numbers((ref for ref, _key in own), counters)
    return RefAssigner(known=known, counters=counters, classifier=configured_classifier())


def _spans_set_entities(spans: list[Span]) -> None:
    """Write each span's ``entity`` in one statement. On PostgreSQL the pairs travel as two
    arrays joined by id: ``bulk_update``'s ``CASE id WHEN … `` over every span of a hearing
    (about 1,600) cost 0.7 s a hearing, most of it the database testing each row against
    every branch (docs/speed.md). Elsewhere (SQLite) ``bulk_update`` in batches."""
    if not spans:
        return
    if connection.vendor == "postgresql":
        table = connection.ops.quote_name(Span._meta.db_table)
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {table} AS s SET entity_id = v.entity_id "  # noqa: S608 (our table name)
                "FROM unnest(%s::bigint[], %s::bigint[]) AS v(id, entity_id) WHERE s.id = v.id",
                [[s.pk for s in spans], [s.entity_id for s in spans]],
            )
        return
    Span.objects.bulk_update(spans, ["entity"], batch_size=500)


@transaction.atomic
def entities_assign(*, transcript: Transcript, spans: list[Span] | None = None) -> None:
    """Give each non-rejected span of ``transcript`` without an entity its reference group.

    With ``spans`` (a reviewer's new or relabelled spans) only those are keyed, against the
    transcript's existing groups: a review action costs one query on the groups instead of
    a pass over every span of the transcript.
    """
    text = transcript.text
    if spans is None:
        spans = list(
            Span.objects.filter(transcript=transcript)
            .exclude(status=Span.Status.REJECTED)
            .select_related("entity")
            .only("id", "start", "end", "label", "provenance", "entity__ref", "entity__key")
            .order_by("start", "end", "id")
        )
        if not spans or all(span.entity_id for span in spans):
            return
        # PERSON keys of mentions not proposed by propagation: what a misspelling may copy.
        named = {
            entity_key("PERSON", text[s.start : s.end])
            for s in spans
            if s.label == "PERSON" and not _is_propagated(s.provenance)
        }
    else:
        spans = sorted(
            (s for s in spans if s.entity_id is None and s.status != Span.Status.REJECTED),
            key=lambda s: (s.start, s.end, s.pk),
        )
        if not spans:
            return
        named = set()  # the transcript's names are its groups' keys (below)
    assigner = ref_assigner_for(transcript=transcript)
    originals = {k for (prefix, k) in assigner.known if prefix == "PERSON"} | named
    mentions = []
    for span in spans:
        if span.entity_id:
            mentions.append((span.start, span.end, span.label, span.entity.ref, span.entity.key))
            continue
        original = propagation_original(span.provenance)
        key = entity_key(span.label, original) if original else None
        if key is None and span.label == "PERSON" and _is_propagated(span.provenance):
            key = closest_name(entity_key("PERSON", text[span.start : span.end]), originals)
        mentions.append((span.start, span.end, span.label, None, key))
    keyed = assign_refs(mentions, text, assigner=assigner)

    wanted = {k.ref for span, k in zip(spans, keyed, strict=True) if not span.entity_id}
    entities = {e.ref: e for e in Entity.objects.filter(transcript=transcript, ref__in=wanted)}
    new_entities: dict[str, Entity] = {}
    for span, k in zip(spans, keyed, strict=True):
        if span.entity_id or k.ref in entities or k.ref in new_entities:
            continue
        new_entities[k.ref] = Entity(
            transcript=transcript,
            label=span.label,
            ref=k.ref,
            key=k.key,
            pseudonym=tag_for(span.label, k.ref, text[span.start : span.end]),
        )
    if new_entities:
        created = Entity.objects.bulk_create(list(new_entities.values()))
        # bulk_create sets pks on PostgreSQL and SQLite >= 3.35; re-read only without them.
        if all(e.pk for e in created):
            entities.update({e.ref: e for e in created})
        else:
            entities = {
                e.ref: e for e in Entity.objects.filter(transcript=transcript, ref__in=wanted)
            }
    changed = []
    for span, k in zip(spans, keyed, strict=True):
        if span.entity_id:
            continue
        span.entity = entities[k.ref]
        changed.append(span)
    _spans_set_entities(changed)
    audit_record(
        actor=None,
        event_type="entities_assigned",
        transcript=transcript,
        after={"spans": len(changed), "entities_created": len(new_entities)},
    )
