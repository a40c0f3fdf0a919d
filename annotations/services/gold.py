"""Gold documents: a transcript's reviewed spans (accepted and added) as
:class:`engine.gold.GoldDoc`, and their serialisations. Reads only.

What may be exported, and the audit of an export, are
:mod:`annotations.services.export`'s (the release rule); the datasheet of a split export
is :mod:`annotations.services.datasheet`'s. Both read documents from here, so the
imports run one way: ``export`` → ``datasheet`` → ``gold``.
"""

from __future__ import annotations

from collections.abc import Iterable

from annotations.models import Span
from engine.gold import GoldDoc, GoldSpan
from engine.mentions import name_groups, trim_span
from engine.pseudonymize import formats as gold_formats
from transcripts.models import Transcript

GOLD_FORMATS = ("jsonl", "spacy", "conll", "svala", "hf")
GOLD_EXTENSIONS = {
    "jsonl": "jsonl",
    "spacy": "spacy",
    "conll": "conll",
    "svala": "json",
    "hf": "jsonl",  # Hugging Face datasets: tokens and ner_tags per utterance
}


def gold_doc(transcript: Transcript, *, name_parts: bool = False) -> GoldDoc:
    """One transcript's gold document: its reviewed (accepted and added) spans.

    Whole mentions by default (``engine.mentions``: a PERSON mention is the whole name as
    written, titles outside); ``name_parts`` keeps the stored name parts (the paper's
    tags). Spans never end on punctuation that is not part of the item. ``meta`` carries
    the transcript id, its pseudonymous title, state and source format, and ``refs``
    (``"start:end:label"`` → reference id; a whole name's part refs space-separated).
    """
    spans = list(
        Span.objects.filter(
            transcript=transcript, status__in=[Span.Status.ACCEPTED, Span.Status.ADDED]
        )
        .select_related("entity")
        .order_by("start", "end")
    )
    text = transcript.text
    trimmed = [GoldSpan(*trim_span(text, span.start, span.end), span.label) for span in spans]
    gold_spans: list[GoldSpan] = []
    seen: set[GoldSpan] = set()
    refs: dict[str, str] = {}
    groups = [[i] for i in range(len(trimmed))]
    if not name_parts:
        groups = name_groups(text, trimmed)
    for group in groups:
        first, last = trimmed[group[0]], trimmed[group[-1]]
        span = GoldSpan(first.start, last.end, first.label)
        if span in seen:
            continue
        seen.add(span)
        gold_spans.append(span)
        part_refs = [spans[i].entity.ref for i in group if spans[i].entity_id]
        if part_refs:
            refs[f"{span.start}:{span.end}:{span.label}"] = " ".join(part_refs)
    meta = {
        "transcript": transcript.pk,
        "title": transcript.title,
        "state": transcript.state,
        "source_format": transcript.source_format,
        "mentions": "name_parts" if name_parts else "whole",
        "refs": refs,
    }
    if transcript.double_of_id:
        # A second annotation for agreement, exported only on request: say so.
        meta.update({"double_annotation_copy": True, "double_of": transcript.double_of_id})
    return GoldDoc(id=f"transcript-{transcript.pk}", text=text, spans=gold_spans, meta=meta)


def gold_docs(*, transcripts: Iterable[Transcript], name_parts: bool = False) -> list[GoldDoc]:
    """Gold documents of ``transcripts`` (:func:`gold_doc`), in the order given."""
    return [gold_doc(transcript, name_parts=name_parts) for transcript in transcripts]


def gold_serialize(docs: list[GoldDoc], fmt: str) -> bytes:
    """``docs`` in one of :data:`GOLD_FORMATS`."""
    if fmt == "jsonl":
        return gold_formats.to_jsonl(docs)
    if fmt == "spacy":
        return gold_formats.to_docbin(docs)
    if fmt == "conll":
        return gold_formats.to_conll(docs)
    if fmt == "svala":
        return gold_formats.to_svala(docs)
    if fmt == "hf":
        from engine.pseudonymize.hf import to_hf

        return to_hf(docs)
    raise ValueError(f"unknown gold format {fmt!r}; choose one of {', '.join(GOLD_FORMATS)}")
