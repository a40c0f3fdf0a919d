"""Exports: the release (pseudonymized texts), the key (restricted) and gold data.

The release gate: a release (text or zip, any strategy) and its key exist only for
*approved* or *released* transcripts, never for a double-annotation copy
(:func:`release_refusal`; every release and key service checks it and raises
:class:`NotReleasable` with a sentence). Gold data reads approved transcripts by default;
copies join only on explicit request and then say so in each document's ``meta``.

Nothing identifying leaves through the side doors: release members are named
``transcript-<id>.txt`` (never the upload name, which is itself personal data), carry
no cover metadata, and the key is never put in a release zip. Every export writes an
``AuditEvent`` (ids and counts only).
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from collections.abc import Iterable

from django.db import transaction
from django.utils import timezone

from annotations.models import Span
from annotations.services.datasheet import datasheet_readme, gold_datasheet
from annotations.services.leaks import LeakError, blocking_leaks, leak_check
from annotations.services.pseudonymization import transcript_pseudonymize
from anonreview.core.audit import audit_record
from engine.datasheet import split_groups
from engine.gold import GoldDoc, GoldSpan
from engine.mentions import name_groups, trim_span
from engine.pseudonymize import formats as gold_formats
from engine.pseudonymize import key_from_replacements
from transcripts.models import Transcript
from transcripts.services.workflow import UndecidedSpansError, undecided_check

GOLD_FORMATS = ("jsonl", "spacy", "conll", "svala")
RELEASABLE_STATES = frozenset({Transcript.State.APPROVED, Transcript.State.RELEASED})
# Fixed timestamp inside zips: members carry no time of export.
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)


def release_name(transcript: Transcript) -> str:
    """The pseudonymous file name of a transcript in a release."""
    return f"transcript-{transcript.pk}.txt"


class NotReleasable(Exception):
    """A release, key or gold export was asked of a transcript that may not leave (message
    for users; ``url``: where to act, e.g. the first undecided span, or ``""``)."""

    def __init__(self, message: str, *, url: str = "") -> None:
        super().__init__(message)
        self.url = url


def undecided_refusal(transcript: Transcript) -> NotReleasable | None:
    """The release rule's first half for exports: a transcript with any undecided span
    leaves in no form (the count and a link to the first one), or ``None``."""
    try:
        undecided_check(transcript, doing="exporting")
    except UndecidedSpansError as exc:
        return NotReleasable(f"Transcript {transcript.pk}: {exc}", url=exc.url)
    return None


def release_refusal(transcript: Transcript) -> str | None:
    """Why ``transcript`` may not be released now, or ``None`` when it may."""
    if transcript.double_of_id:
        return (
            f"Transcript {transcript.pk} is a second annotation kept for agreement; "
            "it is never released."
        )
    if transcript.state not in RELEASABLE_STATES:
        state = Transcript.State(transcript.state).label.lower()
        return (
            f"Transcript {transcript.pk} is {state}: only approved or released transcripts "
            "can be exported."
        )
    return None


def release_check(transcripts: Iterable[Transcript]) -> None:
    """Raise :class:`NotReleasable` unless every transcript may be released (fresh state)."""
    for transcript in transcripts:
        fresh = Transcript.objects.only("state", "double_of").get(pk=transcript.pk)
        transcript.state, transcript.double_of_id = fresh.state, fresh.double_of_id
        refusal = release_refusal(transcript)
        if refusal:
            raise NotReleasable(refusal)
        undecided = undecided_refusal(transcript)
        if undecided:
            raise undecided


def _zip(members: list[tuple[str, bytes]]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, data in members:
            info = zipfile.ZipInfo(name, date_time=_ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, data)
    return buffer.getvalue()


def release_text(*, transcript: Transcript, strategy: str = "tags") -> str:
    """The release text of one transcript; raises :class:`NotReleasable` unless it is
    approved or released, and :class:`LeakError` on a blocking leak."""
    release_check([transcript])
    result = transcript_pseudonymize(
        transcript=transcript, strategy=strategy, include_suggested=False
    )
    leaks = blocking_leaks(
        leak_check(transcript=transcript, output_text=result.text, replacements=result.replacements)
    )
    if leaks:
        raise LeakError({transcript.pk: leaks})
    return result.text


@transaction.atomic
def release_text_export(*, transcript: Transcript, strategy: str = "tags", actor) -> str:
    """One transcript's release text (leak-checked), audited."""
    text = release_text(transcript=transcript, strategy=strategy)
    audit_record(
        actor=actor,
        event_type="release_exported",
        transcript=transcript,
        after={"strategy": strategy, "file": release_name(transcript), "format": "txt"},
    )
    return text


@transaction.atomic
def release_build(*, transcripts: Iterable[Transcript], strategy: str = "tags", actor) -> bytes:
    """A zip of pseudonymized texts plus ``manifest.json`` (sha256 per file).

    Every transcript is leak-checked first; any blocking leak raises :class:`LeakError`
    (listing each leak per transcript) and nothing is exported.
    """
    transcripts = list(transcripts)
    release_check(transcripts)
    members: list[tuple[str, bytes]] = []
    leaks: dict = {}
    for transcript in transcripts:
        try:
            text = release_text(transcript=transcript, strategy=strategy)
        except LeakError as exc:
            leaks.update(exc.leaks)
            continue
        members.append((release_name(transcript), text.encode("utf-8")))
    if leaks:
        raise LeakError(leaks)
    manifest = {
        "created": timezone.now().date().isoformat(),
        "strategy": strategy,
        "files": [
            {"name": name, "sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}
            for name, data in members
        ],
    }
    members.append(("manifest.json", json.dumps(manifest, indent=2).encode("utf-8")))
    for transcript in transcripts:
        audit_record(
            actor=actor,
            event_type="release_exported",
            transcript=transcript,
            after={"strategy": strategy, "file": release_name(transcript), "format": "zip"},
        )
    return _zip(members)


def transcript_key(*, transcript: Transcript, strategy: str = "tags") -> dict:
    """The key of one transcript: ``{ref: {label, pseudonym, originals}}`` (sensitive)."""
    result = transcript_pseudonymize(
        transcript=transcript, strategy=strategy, include_suggested=False
    )
    return key_from_replacements(transcript.text, result)


@transaction.atomic
def key_build(*, transcripts: Iterable[Transcript], actor, strategy: str = "tags") -> bytes:
    """The key file (JSON) for ``transcripts``: original → pseudonym per entity.

    Re-identifying: only leads may download it (the view checks), only of approved or
    released transcripts, and it is never part of a release zip.
    """
    transcripts = list(transcripts)
    release_check(transcripts)
    out = []
    for transcript in transcripts:
        out.append(
            {
                "transcript": transcript.pk,
                "release_file": release_name(transcript),
                "original_name": transcript.original_name,
                "strategy": strategy,
                "entities": transcript_key(transcript=transcript, strategy=strategy),
            }
        )
        audit_record(
            actor=actor,
            event_type="key_exported",
            transcript=transcript,
            after={"strategy": strategy},
        )
    return json.dumps({"transcripts": out}, ensure_ascii=False, indent=2).encode("utf-8")


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
    raise ValueError(f"unknown gold format {fmt!r}; choose one of {', '.join(GOLD_FORMATS)}")


def gold_transcripts(
    *, queryset=None, state: str = Transcript.State.APPROVED, include_copies: bool = False
) -> list[Transcript]:
    """The transcripts a gold export reads: ``state`` (default approved; ``"releasable"``
    for approved or released; ``"all"`` for every state) of ``queryset``, without
    double-annotation copies unless asked."""
    queryset = Transcript.objects.all() if queryset is None else queryset
    if state == "releasable":
        queryset = queryset.filter(state__in=RELEASABLE_STATES)
    elif state != "all":
        queryset = queryset.filter(state=state)
    if not include_copies:
        queryset = queryset.filter(double_of__isnull=True)
    return list(queryset.order_by("pk"))


def _refuse_undecided(transcripts: list[Transcript]) -> None:
    """Gold is reviewed data: raise :class:`NotReleasable` while any transcript has an
    undecided span."""
    for transcript in transcripts:
        undecided = undecided_refusal(transcript)
        if undecided:
            raise undecided


@transaction.atomic
def gold_export(
    *, transcripts: Iterable[Transcript], fmt: str, actor, name_parts: bool = False
) -> bytes:
    """Gold data of ``transcripts`` in ``fmt`` (jsonl, spacy, conll, svala), audited;
    whole mentions unless ``name_parts``; raises :class:`NotReleasable` while any of them
    has an undecided span."""
    if fmt not in GOLD_FORMATS:
        raise ValueError(f"unknown gold format {fmt!r}; choose one of {', '.join(GOLD_FORMATS)}")
    transcripts = list(transcripts)
    _refuse_undecided(transcripts)
    data = gold_serialize(gold_docs(transcripts=transcripts, name_parts=name_parts), fmt)
    for transcript in transcripts:
        audit_record(
            actor=actor,
            event_type="gold_exported",
            transcript=transcript,
            after={"format": fmt, "name_parts": name_parts},
        )
    return data


GOLD_EXTENSIONS = {"jsonl": "jsonl", "spacy": "spacy", "conll": "conll", "svala": "json"}


@transaction.atomic
def gold_export_split(
    *,
    transcripts: Iterable[Transcript],
    fmt: str,
    actor,
    ratios: tuple[int, int, int],
    seed: int,
    name_parts: bool = False,
) -> list[tuple[str, bytes]]:
    """Gold data split by transcript into train/dev/test (seeded), with ``datasheet.json``
    and ``README.md``: the members of the folder or zip, as ``(name, bytes)``."""
    if fmt not in GOLD_FORMATS:
        raise ValueError(f"unknown gold format {fmt!r}; choose one of {', '.join(GOLD_FORMATS)}")
    transcripts = list(transcripts)
    _refuse_undecided(transcripts)
    docs = {t.pk: gold_doc(t, name_parts=name_parts) for t in transcripts}
    # A double-annotation copy goes where its original goes.
    group = {t.pk: t.double_of_id or t.pk for t in transcripts}
    assigned = split_groups(set(group.values()), ratios, seed)
    part_of = {g: name for name, gs in assigned.items() for g in gs}
    parts: dict[str, list[GoldDoc]] = {name: [] for name in assigned}
    for t in transcripts:
        parts[part_of[group[t.pk]]].append(docs[t.pk])
    ext = GOLD_EXTENSIONS[fmt]
    members = [(f"{name}.{ext}", gold_serialize(part, fmt)) for name, part in parts.items()]
    sheet = gold_datasheet(
        transcripts=transcripts,
        parts=parts,
        fmt=fmt,
        name_parts=name_parts,
        ratios=ratios,
        seed=seed,
    )
    members.append(("datasheet.json", json.dumps(sheet, indent=2).encode("utf-8")))
    members.append(("README.md", datasheet_readme(sheet, ext).encode("utf-8")))
    for t in transcripts:
        audit_record(
            actor=actor,
            event_type="gold_exported",
            transcript=t,
            after={
                "format": fmt,
                "name_parts": name_parts,
                "split": part_of[group[t.pk]],
                "seed": seed,
            },
        )
    return members


def gold_zip(members: list[tuple[str, bytes]]) -> bytes:
    """The members of a split gold export as one zip (fixed member times)."""
    return _zip(members)
