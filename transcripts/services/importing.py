"""Import transcripts (HackSoft service): parse, de-duplicate, store, assign, annotate.

``transcript_import`` imports one file atomically: the Transcript, its Utterances,
the original file and the audit row are written together or not at all. The
automatic annotation (the hook ``annotations`` registers, ``transcripts.hooks``) is
queued afterwards, so a failure to queue it never undoes the import (it is reported
instead, on the outcome or on the annotation Job).

``transcripts_import_batch`` imports many files (from paths, folders, zips or
uploads); each file is its own transaction and a bad file never stops the rest.
Upload jobs live beside it: ``upload_staging`` (the request stages the files and
queues their Jobs) and ``import_jobs`` (the worker imports them and ends the batch);
a transcript's title comes from ``titles``.
Nothing here logs transcript text or names (file names can hold names, too).
"""

import hashlib
import logging
from collections.abc import Callable, Iterable
from pathlib import PurePosixPath

from django.conf import settings
from django.core.files.base import ContentFile
from django.db import DatabaseError, IntegrityError, transaction

from anonreview.core.audit import audit_record
from engine.importing import parse_file
from engine.importing.errors import Duplicate, ImportRejected
from engine.importing.sources import (
    IMPORTABLE,
    SourceFile,
    iter_bytes,
    iter_paths,
    too_large,
)
from transcripts.models import Transcript, Utterance
from transcripts.services.import_outcome import ImportOutcome
from transcripts.services.jobs import JobStopped
from transcripts.services.titles import transcript_title

logger = logging.getLogger(__name__)

ProgressFn = Callable[[int, int], None]


def ocr_page_limit() -> int:
    """The most pages of a scanned PDF read by OCR (``OCR_MAX_PAGES``, read at call time)."""
    return int(getattr(settings, "OCR_MAX_PAGES", 500))


def import_limits() -> dict:
    """Size caps from settings (read at call time, never at import time)."""
    max_bytes = int(getattr(settings, "IMPORT_MAX_FILE_BYTES", 50 * 1024 * 1024))
    return {
        "max_bytes": max_bytes,
        "max_members": int(getattr(settings, "IMPORT_MAX_ZIP_MEMBERS", 500)),
        "max_total": int(getattr(settings, "IMPORT_MAX_ZIP_BYTES", 4 * max_bytes)),
    }


_EXTENSIONS = frozenset({*IMPORTABLE, ".zip"})


def file_label(index: int, name: str) -> str:
    """How jobs name an uploaded file: its place in the upload and its type, not its name."""
    suffix = PurePosixPath(name.replace("\\", "/")).suffix.lower()
    kind = f" ({suffix})" if suffix in _EXTENSIONS else ""
    return f"file {index + 1}{kind}"


def sha256_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def safe_file_name(name: str) -> str:
    return PurePosixPath(name.replace("\\", "/")).name[:255] or "upload"


def _duplicate(sha: str) -> Duplicate | None:
    existing = Transcript.objects.filter(sha256=sha).values_list("pk", flat=True).first()
    if existing is None:
        return None
    error = Duplicate(f"Already imported as transcript {existing} (same file, sha256 {sha[:12]}…).")
    error.transcript_id = existing
    return error


def transcript_import(
    *,
    name: str,
    data: bytes,
    user=None,
    assignees: Iterable = (),
    annotate: bool = True,
    on_page: ProgressFn | None = None,
    guard: Callable[[], None] | None = None,
) -> Transcript:
    """Import one PDF or text file. Raises ``ImportRejected`` (nothing written).

    ``guard()`` runs inside the import's transaction, just before it commits; an
    import job passes one that locks its Job and raises ``JobStopped`` when the job was
    failed or cancelled meanwhile, so that such a job never leaves a transcript.

    The import is one transaction; the annotation is queued after it has committed
    (not inside it: a queue that refuses the task must not be mistaken for a failed
    import). Returns the Transcript with two extra attributes: ``annotation_job`` (the
    annotation Job or None) and ``annotation_error`` (why it could not be queued, or
    ""; when the caller holds a transaction the enqueue waits for its commit, and a
    refusal then shows on the Job).
    """
    limits = import_limits()
    if len(data) > limits["max_bytes"]:
        raise too_large(len(data), limits["max_bytes"])
    sha = sha256_of(data)
    if dup := _duplicate(sha):
        raise dup
    parsed = parse_file(name, data, on_page=on_page, ocr_max_pages=ocr_page_limit())
    assignees = [a for a in assignees if a is not None]
    safe_name = safe_file_name(name)
    suffix = PurePosixPath(safe_name).suffix.lower() or (
        ".pdf" if parsed.source_format == "pdf" else ".txt"
    )
    stored_name = None
    try:
        with transaction.atomic():
            transcript = Transcript.objects.create(
                title=transcript_title(parsed, sha),
                text=parsed.text,
                # the import's notices stay with the transcript: its page shows them
                metadata=(
                    {**parsed.metadata, "import_notices": list(parsed.notices)}
                    if parsed.notices
                    else parsed.metadata
                ),
                source_format=parsed.source_format,
                original_name=safe_name,
                sha256=sha,
                page_count=parsed.page_count,
                created_by=user if getattr(user, "is_authenticated", False) else None,
            )
            transcript.original_file.save(f"{sha[:16]}{suffix}", ContentFile(data), save=True)
            stored_name = transcript.original_file.name
            Utterance.objects.bulk_create(
                Utterance(
                    transcript=transcript,
                    index=u.index,
                    speaker=u.speaker[:255],
                    role=u.role[:64],
                    page=u.page,
                    section=u.section,
                    start=u.start,
                    end=u.end,
                )
                for u in parsed.utterances
            )
            if assignees:
                transcript.assignees.set(assignees)
            audit_record(
                actor=user,
                event_type="transcript.import",
                transcript=transcript,
                after={
                    "sha256": sha,
                    "format": parsed.source_format,
                    "pages": parsed.page_count,
                    "utterances": len(parsed.utterances),
                    "characters": len(parsed.text),
                    "layout": parsed.layout,
                    "assignees": [a.get_username() for a in assignees],
                },
            )
            if guard is not None:
                guard()
    except IntegrityError as exc:
        _delete_stored(stored_name)
        if dup := _duplicate(sha):  # imported by a concurrent request
            raise dup from exc
        raise
    except BaseException:
        _delete_stored(stored_name)
        raise
    transcript.annotation_job = None
    transcript.annotation_error = ""
    transcript.import_notices = list(parsed.notices)
    if annotate:
        transcript.annotation_job, transcript.annotation_error = _enqueue_annotation(
            transcript=transcript, user=user
        )
    return transcript


def _delete_stored(name: str | None) -> None:
    """Remove an original stored outside the database (the database one rolls back)."""
    if name:
        from transcripts.storage import originals_storage

        try:
            originals_storage().delete(name)
        except OSError:
            logger.warning("could not remove a stored original after a failed import")


def _enqueue_annotation(*, transcript: Transcript, user):
    """Queue the automatic annotation (the hook ``annotations`` registers); a failure
    is reported, the import stays.

    Two ways to fail: the hook raises (its Job could not even be created), or the
    tasks backend refuses the task when ``job_enqueue``'s ``on_commit`` runs. The
    latter runs after the import's transaction, outside this function whenever a caller
    holds a transaction; ``job_enqueue`` then marks the Job failed (the upload's job
    panel and the queue show it) instead of raising into the caller's commit. When
    the enqueue has already run here, its failure is read back from the Job row.
    """
    from transcripts.hooks import hooks
    from transcripts.services import jobs

    if hooks.annotation_start is None:
        return None, "Imported; no automatic annotation is installed."
    try:
        with transaction.atomic():
            job = hooks.annotation_start(transcript=transcript, user=user)
    except Exception as exc:  # the Job could not be created: the import stands
        logger.warning(
            "annotation could not be queued for transcript %s: %s",
            transcript.pk,
            type(exc).__name__,
        )
        return (
            None,
            f"Imported, but the automatic annotation could not be queued ({type(exc).__name__}).",
        )
    if reason := jobs.job_not_queued(job):
        return job, f"Imported, but the automatic annotation could not be queued: {reason}"
    return job, ""


def _outcome_for_error(source: SourceFile, error: ImportRejected) -> ImportOutcome:
    return ImportOutcome(
        path=source.path,
        ok=False,
        error=error.message,
        code=error.code,
        duplicate_of=getattr(error, "transcript_id", None),
    )


def transcripts_import_batch(
    *,
    sources: Iterable[SourceFile],
    user=None,
    assignees: Iterable = (),
    dry_run: bool = False,
    annotate: bool = True,
    on_file: Callable[[int, ImportOutcome], None] | None = None,
    on_page: Callable[[int, int, int], None] | None = None,
    guard: Callable[[], None] | None = None,
) -> list[ImportOutcome]:
    """Import many files; each its own transaction. Never raises for a bad file.

    ``on_file(i, outcome)`` after each file; ``on_page(i, done, total)`` while a PDF parses.
    With ``dry_run`` nothing is written and each outcome carries the canonical text.
    """
    assignees = list(assignees)
    outcomes: list[ImportOutcome] = []
    for i, source in enumerate(sources):
        page_cb = (lambda done, total, i=i: on_page(i, done, total)) if on_page else None
        if source.error is not None:
            outcome = _outcome_for_error(source, source.error)
        else:
            try:
                outcome = _import_one(
                    source,
                    user=user,
                    assignees=assignees,
                    dry_run=dry_run,
                    annotate=annotate,
                    on_page=page_cb,
                    guard=guard,
                )
            except ImportRejected as exc:
                outcome = _outcome_for_error(source, exc)
            except JobStopped:
                raise  # the job was failed or cancelled: stop the whole batch
            except Exception as exc:
                logger.exception("import of batch file %s failed unexpectedly", i)
                outcome = ImportOutcome(
                    path=source.path,
                    ok=False,
                    code="internal",
                    error=f"Unexpected error while importing ({type(exc).__name__}); the file was not imported.",
                )
        outcomes.append(outcome)
        if on_file:
            on_file(i, outcome)
    return outcomes


def _import_one(
    source: SourceFile, *, user, assignees, dry_run, annotate, on_page, guard=None
) -> ImportOutcome:
    data = source.data or b""
    if dry_run:
        limit = import_limits()["max_bytes"]
        if len(data) > limit:
            raise too_large(len(data), limit)
        parsed = parse_file(source.name, data, on_page=on_page, ocr_max_pages=ocr_page_limit())
        try:
            dup = _duplicate(sha256_of(data))
        except DatabaseError:
            # A dry run needs no database: on a checkout that was never migrated the
            # check for an earlier import of the same file is skipped.
            dup = None
        return ImportOutcome(
            path=source.path,
            ok=True,
            metadata=parsed.metadata,
            utterances=len(parsed.utterances),
            pages=parsed.page_count,
            duplicate_of=getattr(dup, "transcript_id", None),
            error=dup.message if dup else "",
            notices=list(parsed.notices),
            layout=dict(parsed.layout),
            text=parsed.text,
        )
    transcript = transcript_import(
        name=source.name,
        data=data,
        user=user,
        assignees=assignees,
        annotate=annotate,
        on_page=on_page,
        guard=guard,
    )
    return ImportOutcome(
        path=source.path,
        ok=True,
        metadata=transcript.metadata,
        utterances=transcript.utterances.count(),
        pages=transcript.page_count,
        transcript_id=transcript.pk,
        annotation_job_id=transcript.annotation_job.pk if transcript.annotation_job else None,
        annotation_error=transcript.annotation_error,
        notices=list(getattr(transcript, "import_notices", [])),
    )


def sources_from_paths(paths: list[str]) -> list[SourceFile]:
    return list(iter_paths(paths, **import_limits()))


def sources_from_bytes(path: str, data: bytes) -> list[SourceFile]:
    return list(iter_bytes(path, data, **import_limits()))
