"""Pseudonymize a transcript from its spans and reference groups (reads only).

``transcript_pseudonymize`` feeds the Django-free core (:mod:`engine.pseudonymize`)
with the transcript's spans; each ``Replacement.span_id`` is the ``Span`` pk, so the
review page renders its pseudonymized pane from ``result.by_span_id()``.
"""

from __future__ import annotations

from django.conf import settings

from annotations.models import Span
from engine.pseudonymize import PseudonymizedText, SpanInput, pseudonymize
from transcripts.models import Transcript


def transcript_spans_input(*, transcript: Transcript, include_suggested: bool = True) -> list:
    statuses = [Span.Status.ACCEPTED, Span.Status.ADDED]
    if include_suggested:
        statuses.append(Span.Status.SUGGESTED)
    spans = (
        Span.objects.filter(transcript=transcript, status__in=statuses)
        .select_related("entity")
        .only("id", "start", "end", "label", "entity__ref", "entity__key", "entity__pseudonym")
        .order_by("start", "end", "id")
    )
    return [
        SpanInput(
            s.start,
            s.end,
            s.label,
            ref=s.entity.ref if s.entity_id else None,
            key=s.entity.key if s.entity_id else None,
            span_id=s.pk,
        )
        for s in spans
    ]


def transcript_pseudonymize(
    *,
    transcript: Transcript,
    strategy: str = "tags",
    include_suggested: bool = True,
    seed: int | str | None = None,
) -> PseudonymizedText:
    """The pseudonymized text of ``transcript`` and its replacement map.

    ``include_suggested=False`` (releases): only accepted and added spans count.
    Surrogates are deterministic per transcript (seed: ``settings.PSEUDONYM_SEED`` and
    the transcript's sha256; in corpus scope the setting alone) unless ``seed`` is given.
    """
    from annotations.services.entities import ref_assigner_for

    spans = transcript_spans_input(transcript=transcript, include_suggested=include_suggested)
    if seed is None:
        # Corpus scope: one seed for the corpus, so a person keeps one surrogate everywhere.
        from annotations.services.entities import pseudonym_scope

        base = getattr(settings, "PSEUDONYM_SEED", "")
        seed = base if pseudonym_scope() == "corpus" else f"{base}:{transcript.sha256}"
    return pseudonymize(
        transcript.text,
        spans,
        strategy=strategy,
        seed=seed,
        assigner=ref_assigner_for(transcript=transcript),
        avoid=cover_name_parts(transcript.metadata or {}) if strategy == "surrogate" else (),
    )


def cover_name_parts(metadata: dict) -> list[str]:
    """The name parts of every person on the cover page (no surrogate may equal one)."""
    from engine.detectors.names import person_name_parts

    names = [metadata.get("incarcerated_person"), metadata.get("transcriber")]
    names += [
        p.get("name") if isinstance(p, dict) else p for p in metadata.get("participants") or []
    ]
    parts = []
    for name in filter(None, names):
        cleaned = str(name).replace(",", " ")
        parts += [cleaned[s:e] for s, e in person_name_parts(cleaned, 0, len(cleaned))]
    return parts
