"""Exports: the release (pseudonymized texts), the key (restricted) and gold data.

The release gate: a release (text or zip, any strategy) and its key exist only for
*approved* or *released* transcripts, never for a double-annotation copy
(:func:`release_refusal`; every release and key service checks it and raises
:class:`NotReleasable` with a sentence). Gold data leaves under the same rule, checked in
the services themselves (:func:`gold_check`), so no entry point (the Export page,
``export_gold``, a script) can ask for more: approved or released originals only, and on
explicit request the submitted second annotations of such originals, flagged in each
document's ``meta``.

Gold documents are built in :mod:`annotations.services.gold` (read only) and the
datasheet in :mod:`annotations.services.datasheet`; this module imports both, neither
imports it.

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

from annotations.services.datasheet import datasheet_readme, gold_datasheet
from annotations.services.gold import (
    GOLD_EXTENSIONS,
    GOLD_FORMATS,
    gold_doc,
    gold_docs,
    gold_serialize,
)
from annotations.services.leaks import LeakError, blocking_leaks, leak_check
from annotations.services.pseudonymization import transcript_pseudonymize
from anonreview.core.audit import audit_record
from engine.datasheet import check_seed, split_groups
from engine.gold import GoldDoc
from engine.pseudonymize import key_from_replacements
from transcripts.models import Transcript
from transcripts.services.workflow import UndecidedSpansError, undecided_check

RELEASABLE_STATES = frozenset({Transcript.State.APPROVED, Transcript.State.RELEASED})
# What a gold export may be asked for (``export_gold --state``, the page's state).
GOLD_STATE_CHOICES = ("approved", "released", "releasable")
# A second annotation's gold leaves (on request) once its annotator submitted it; copies
# are never approved (docs/workflow.md), the other two states are there for safety.
COPY_GOLD_STATES = frozenset(
    {Transcript.State.SUBMITTED, Transcript.State.APPROVED, Transcript.State.RELEASED}
)
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


def gold_refusal(transcript: Transcript) -> str | None:
    """Why ``transcript``'s gold data may not leave now, or ``None`` when it may: an
    approved or released original, or (exported only on request) a second annotation its
    annotator submitted, of an approved or released original."""
    state = Transcript.State(transcript.state).label.lower()
    if transcript.double_of_id:
        original = Transcript.objects.only("state").get(pk=transcript.double_of_id)
        if original.state not in RELEASABLE_STATES:
            of = Transcript.State(original.state).label.lower()
            return (
                f"Transcript {transcript.pk} is a second annotation of transcript "
                f"{original.pk}, which is {of}: a second annotation's gold data leaves only "
                "with an approved or released original."
            )
        if transcript.state not in COPY_GOLD_STATES:
            return (
                f"Transcript {transcript.pk} is a second annotation still {state}: its gold "
                "data leaves only once its annotator has submitted it."
            )
        return None
    if transcript.state not in RELEASABLE_STATES:
        return (
            f"Transcript {transcript.pk} is {state}: gold data is exported only of approved "
            "or released transcripts (and, on request, of their submitted second annotations)."
        )
    return None


def gold_check(transcripts: Iterable[Transcript]) -> None:
    """The release rule for gold data, whoever calls (page, ``export_gold``, a script):
    raise :class:`NotReleasable` unless every transcript may leave (:func:`gold_refusal`,
    on its state read afresh) and none has an undecided span."""
    for transcript in transcripts:
        fresh = Transcript.objects.only("state", "double_of").get(pk=transcript.pk)
        transcript.state, transcript.double_of_id = fresh.state, fresh.double_of_id
        refusal = gold_refusal(transcript)
        if refusal:
            raise NotReleasable(refusal)
        undecided = undecided_refusal(transcript)
        if undecided:
            raise undecided


def gold_states(state: str) -> frozenset[str]:
    """The states a gold export of ``state`` reads (one of :data:`GOLD_STATE_CHOICES`);
    anything else raises :class:`NotReleasable` with a sentence."""
    if state == "releasable":
        return RELEASABLE_STATES
    if state in RELEASABLE_STATES:
        return frozenset({state})
    shown = Transcript.State(state).label.lower() if state in Transcript.State.values else state
    raise NotReleasable(
        f"Gold data is exported only of approved or released transcripts; {shown!r} "
        f"transcripts have not been approved. Choose one of {', '.join(GOLD_STATE_CHOICES)}."
    )


def gold_transcripts(
    *, queryset=None, state: str = Transcript.State.APPROVED, include_copies: bool = False
) -> list[Transcript]:
    """The transcripts a gold export reads: the originals of ``queryset`` in ``state``
    (``approved``, ``released`` or ``releasable`` for both; any other state raises
    :class:`NotReleasable`), and with ``include_copies`` the submitted second annotations
    of those originals, in id order."""
    states = gold_states(state)
    queryset = Transcript.objects.all() if queryset is None else queryset
    originals = list(queryset.filter(state__in=states, double_of__isnull=True).order_by("pk"))
    if not include_copies:
        return originals
    copies = Transcript.objects.filter(
        double_of__in=[t.pk for t in originals], state__in=COPY_GOLD_STATES
    )
    return sorted([*originals, *copies], key=lambda t: t.pk)


def _gold_audit(transcripts: list[Transcript], actor, after: dict, per: dict | None = None):
    for transcript in transcripts:
        extra = (per or {}).get(transcript.pk, {})
        if transcript.double_of_id:
            extra = {**extra, "double_of": transcript.double_of_id}
        audit_record(
            actor=actor, event_type="gold_exported", transcript=transcript, after={**after, **extra}
        )


@transaction.atomic
def gold_export(
    *, transcripts: Iterable[Transcript], fmt: str, actor, name_parts: bool = False
) -> bytes:
    """Gold data of ``transcripts`` in ``fmt`` (jsonl, spacy, conll, svala), audited;
    whole mentions unless ``name_parts``. Raises :class:`NotReleasable` unless every one
    may leave (:func:`gold_check`: approved or released, or a submitted second annotation
    of such a transcript, with no undecided span). ``actor``: the user, or for a command
    run outside the app the name of whoever ran it (``anonreview.core.audit``)."""
    if fmt not in GOLD_FORMATS:
        raise ValueError(f"unknown gold format {fmt!r}; choose one of {', '.join(GOLD_FORMATS)}")
    transcripts = list(transcripts)
    gold_check(transcripts)
    data = gold_serialize(gold_docs(transcripts=transcripts, name_parts=name_parts), fmt)
    _gold_audit(transcripts, actor, {"format": fmt, "name_parts": name_parts})
    return data


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
    """Gold data split by transcript into train/dev/test (seeded; ``seed`` a whole number,
    0 ≤ seed < 2**32, else ``ValueError`` with a sentence), with ``datasheet.json`` and
    ``README.md``: the members of the folder or zip, as ``(name, bytes)``. The same rule
    as :func:`gold_export`."""
    if fmt not in GOLD_FORMATS:
        raise ValueError(f"unknown gold format {fmt!r}; choose one of {', '.join(GOLD_FORMATS)}")
    seed = check_seed(seed)
    transcripts = list(transcripts)
    gold_check(transcripts)
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
    readme = datasheet_readme(sheet, ext)
    if fmt == "hf":  # the dataset card: splits and label names for `datasets`
        from engine.pseudonymize.hf import card_yaml

        readme = card_yaml(list(parts), ext) + readme
    members.append(("README.md", readme.encode("utf-8")))
    if fmt == "spacy":  # what `spacy train config.cfg` reads in this folder, as it is
        from engine.learning.spacy_config import spacy_train_config

        members.append(("config.cfg", spacy_train_config().encode("utf-8")))
    per = {t.pk: {"split": part_of[group[t.pk]]} for t in transcripts}
    _gold_audit(transcripts, actor, {"format": fmt, "name_parts": name_parts, "seed": seed}, per)
    return members


def gold_zip(members: list[tuple[str, bytes]]) -> bytes:
    """The members of a split gold export as one zip (fixed member times)."""
    return _zip(members)
