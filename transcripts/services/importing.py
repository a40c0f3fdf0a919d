"""Import transcripts (HackSoft service): parse, de-duplicate, store, assign, annotate.

``transcript_import`` imports one file atomically: the Transcript, its Utterances,
the original file and the audit row are written together or not at all. The
automatic annotation (the hook ``annotations`` registers, ``transcripts.hooks``) is
queued afterwards, so a failure to queue it never undoes the import (it is reported
instead, on the outcome or on the annotation Job).

``transcripts_import_batch`` imports many files (from paths, folders, zips or
uploads); each file is its own transaction and a bad file never stops the rest.
Nothing here logs transcript text or names (file names can hold names, too).
"""

import hashlib
import logging
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import PurePosixPath

from django.conf import settings
from django.core.files.base import ContentFile
from django.db import DatabaseError, IntegrityError, transaction

from anonreview.core.audit import audit_record
from engine.importing import ParsedTranscript, parse_file
from engine.importing.errors import Duplicate, ImportRejected
from engine.importing.sources import SourceFile, iter_bytes, iter_paths, too_large
from transcripts.models import Transcript, Utterance
from transcripts.services.jobs import JobStopped

logger = logging.getLogger(__name__)

ProgressFn = Callable[[int, int], None]


def import_limits() -> dict:
    """Size caps from settings (read at call time, never at import time)."""
    max_bytes = int(getattr(settings, "IMPORT_MAX_FILE_BYTES", 50 * 1024 * 1024))
    return {
        "max_bytes": max_bytes,
        "max_members": int(getattr(settings, "IMPORT_MAX_ZIP_MEMBERS", 500)),
        "max_total": int(getattr(settings, "IMPORT_MAX_ZIP_BYTES", 4 * max_bytes)),
    }


@dataclass
class ImportOutcome:
    """What happened to one file of a batch (shown in the page, the command and job results)."""

    path: str
    ok: bool
    error: str = ""
    code: str = ""
    metadata: dict = field(default_factory=dict)
    utterances: int = 0
    pages: int = 0
    transcript_id: int | None = None
    duplicate_of: int | None = None
    annotation_job_id: int | None = None
    annotation_error: str = ""
    notices: list[str] = field(default_factory=list)
    layout: dict = field(default_factory=dict)
    text: str | None = None

    def to_json(self, *, with_text: bool = False) -> dict:
        data = asdict(self)
        if not with_text:
            data.pop("text")
        return data

    def stored(self, label: str) -> dict:
        """What a job's result keeps (issue 20): ids and counts, no personal data — the
        file is ``label`` (``file 2 (.pdf)``), never its upload name (``Surname-ID-date``),
        and no cover metadata (names, CDCR number, next of kin live in the transcript)."""
        data = self.to_json()
        data.pop("metadata")
        data["path"] = label
        return data


_EXTENSIONS = frozenset({".pdf", ".txt", ".text", ".zip"})


def file_label(index: int, name: str) -> str:
    """How jobs name an uploaded file: its place in the upload and its type, not its name."""
    suffix = PurePosixPath(name.replace("\\", "/")).suffix.lower()
    kind = f" ({suffix})" if suffix in _EXTENSIONS else ""
    return f"file {index + 1}{kind}"


def sha256_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _title(parsed: ParsedTranscript, sha: str) -> str:
    """A title without names: the hearing date and a short content hash."""
    when = parsed.metadata.get("hearing_date") or "undated"
    return f"Hearing {when} · {sha[:8]}"


def _safe_name(name: str) -> str:
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
    parsed = parse_file(name, data, on_page=on_page)
    assignees = [a for a in assignees if a is not None]
    safe_name = _safe_name(name)
    suffix = PurePosixPath(safe_name).suffix.lower() or (
        ".pdf" if parsed.source_format == "pdf" else ".txt"
    )
    stored_name = None
    try:
        with transaction.atomic():
            transcript = Transcript.objects.create(
                title=_title(parsed, sha),
                text=parsed.text,
                metadata=parsed.metadata,
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
        parsed = parse_file(source.name, data, on_page=on_page)
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


# --- Upload jobs --------------------------------------------------------------


def import_job_enqueue(*, uploads: Iterable, user, assignees: Iterable = ()):
    """Stage uploaded files and queue one import Job per file, under one batch Job.

    Returns the batch Job: the upload page shows it (its progress is its files', its
    result every file's outcome once all are done, see ``import_batch_refresh``). One Job
    per file lets every worker take a file: with one Job for the whole upload, one worker
    imported every file in turn while the others waited (issue 16).

    ``uploads``: objects with ``.name``, ``.size`` and ``.chunks()`` (Django's
    UploadedFile). Files over the size limit or empty are refused here, without
    being stored; their Job ends at once with the reason in words. Accepted files are
    moved (or streamed) to the staging directory, never read into memory, and a
    ``StagedUpload`` row names each in the same transaction as its Job: the request
    answers in seconds at the size limits (issue 23), and the worker reads the file.
    """
    from django.utils.crypto import get_random_string

    from transcripts.models import Job, StagedUpload
    from transcripts.services import jobs
    from transcripts.storage import staging_path, staging_store
    from transcripts.tasks import import_files_task

    limits = import_limits()
    uploads = list(uploads)
    assignees = [a for a in assignees if a is not None]
    user_id = user.pk if getattr(user, "is_authenticated", False) else None
    staged_names: list[str] = []
    try:
        with transaction.atomic():
            batch = jobs.job_create(
                kind=Job.Kind.IMPORT, user=user, message=f"{len(uploads)} file(s) waiting"
            )
            for i, upload in enumerate(uploads):
                name = _safe_name(upload.name or f"file-{i + 1}")
                label = file_label(i, name)  # jobs and task arguments name no file (issue 20)
                file_job = jobs.job_create(
                    kind=Job.Kind.IMPORT,
                    user=user,
                    batch=batch,
                    message=f"{label}: waiting",
                    result={"path": label},
                )
                limit = (
                    limits["max_total"] if name.lower().endswith(".zip") else limits["max_bytes"]
                )
                refused = None
                size = 0
                stage_name = f"job{file_job.pk}-{get_random_string(12)}"
                if upload.size > limit:
                    err = too_large(upload.size, limit)
                    refused = {"path": name, "error": err.message, "code": err.code}
                elif upload.size == 0:
                    refused = {"path": name, "error": "The file is empty.", "code": "empty"}
                else:
                    staged_names.append(stage_name)
                    size = staging_store(upload, name=stage_name)
                    if size > limit:  # the declared size can be wrong
                        err = too_large(size, limit)
                        refused = {"path": name, "error": err.message, "code": err.code}
                        staging_path(stage_name).unlink(missing_ok=True)
                if refused is not None:
                    outcome = ImportOutcome(
                        path=name, ok=False, error=refused["error"], code=refused["code"]
                    )
                    jobs.job_finish(
                        job_id=file_job.pk,
                        message=f"{label}: not imported",
                        result={"files": [outcome.stored(label)]},
                    )
                    continue
                StagedUpload.objects.create(
                    job=file_job, index=0, original_name=name, path=stage_name, size=size
                )
                jobs.job_enqueue(
                    job=file_job,
                    task=import_files_task,
                    files=[{"path": label, "staged": 0}],
                    user_id=user_id,
                    assignee_ids=[a.pk for a in assignees],
                )
            # After the enqueues (on_commit runs in order): a batch whose files were all
            # refused, or could not be queued, ends here; otherwise its last file ends it.
            transaction.on_commit(lambda: import_batch_refresh(job_id=batch.pk))
    except BaseException:
        for stage_name in staged_names:  # nothing names them any more
            staging_path(stage_name).unlink(missing_ok=True)
        raise
    return batch


def import_batch_refresh(*, job_id: int) -> None:
    """End the batch of ``job_id`` (a file's Job, or the batch itself) once all its files
    are done: its result lists every file's outcome in upload order. Idempotent; the
    batch row is locked so that two workers finishing together end it once."""
    from transcripts.models import Job
    from transcripts.services import jobs

    job = Job.objects.filter(pk=job_id).only("id", "batch_id").first()
    if job is None:
        return
    batch_id = job.batch_id or job.pk
    with transaction.atomic():
        batch = Job.objects.select_for_update().filter(pk=batch_id).first()
        if batch is None or not batch.is_active:
            return
        children = list(Job.objects.filter(batch_id=batch_id).order_by("id"))
        if not children or any(c.is_active for c in children):
            return
        files: list[dict] = []
        for child in children:
            got = (child.result or {}).get("files")
            if got:
                files.extend(got)
            else:  # the file's Job failed (not queued, or the worker stopped)
                files.append(
                    ImportOutcome(
                        path=(child.result or {}).get("path", f"job {child.pk}"),
                        ok=False,
                        code="failed",
                        error=child.error or "The import of this file stopped; upload it again.",
                    ).to_json()
                )
        imported = sum(1 for f in files if f.get("ok"))
        message = f"Imported {imported} of {len(files)} file(s)"
        not_queued = sum(1 for f in files if f.get("annotation_error"))
        if not_queued:
            message += f"; annotation not queued for {not_queued}"
        jobs.job_finish(job_id=batch_id, message=message, result={"files": files})


def transcripts_import_job(
    *, job_id: int, files: list[dict], user_id: int | None, assignee_ids: list[int]
) -> None:
    """Run an upload job: import each staged file, report progress, store the results.

    The files are read from the job's ``StagedUpload`` rows; ``staged_uploads_delete``
    removes them afterwards (the task does, also on failure).
    """
    from django.contrib.auth import get_user_model

    from transcripts.models import StagedUpload
    from transcripts.services import jobs

    User = get_user_model()
    user = User.objects.filter(pk=user_id).first() if user_id else None
    assignees = list(User.objects.filter(pk__in=assignee_ids))
    jobs.job_start(job_id=job_id, message=f"Importing {len(files)} file(s)")
    results: list[dict] = []
    total = max(1, len(files))
    for n, f in enumerate(files):
        if f.get("error"):
            results.append(
                ImportOutcome(
                    path=f["path"], ok=False, error=f["error"], code=f.get("code", "")
                ).stored(f["path"])
            )
            continue
        staged = StagedUpload.objects.filter(job_id=job_id, index=f["staged"]).first()
        if staged is None:
            results.append(
                ImportOutcome(
                    path=f["path"],
                    ok=False,
                    code="missing",
                    error="The uploaded file is no longer staged; upload it again.",
                ).stored(f["path"])
            )
            continue
        try:
            data = staged.read()
        except OSError:
            results.append(
                ImportOutcome(
                    path=f["path"],
                    ok=False,
                    code="missing",
                    error=(
                        "The uploaded file is not in the staging directory (a worker on "
                        "another machine needs it mounted: docs/workers.md); upload it again."
                    ),
                ).stored(f["path"])
            )
            continue
        name = staged.original_name or f["path"]  # the transcript keeps it, jobs do not
        del staged

        def on_page(_i, done, pages, n=n):
            if done % 5 == 0 or done == pages:
                jobs.job_progress(
                    job_id=job_id,
                    progress=int(100 * (n + done / max(1, pages)) / total),
                    message=f"File {n + 1} of {len(files)}: page {done} of {pages}",
                )

        outcomes = transcripts_import_batch(
            sources=sources_from_bytes(name, data),
            user=user,
            assignees=assignees,
            on_page=on_page,
            guard=lambda: jobs.job_check(job_id=job_id, lock=True),
        )
        if not outcomes:  # an archive with nothing in it: say so, by its label
            outcomes = [
                ImportOutcome(
                    path=f["path"],
                    ok=False,
                    code="empty",
                    error="The archive is empty: it holds no PDF or text file to import.",
                )
            ]
        results.extend(
            o.stored(f["path"] if len(outcomes) == 1 else f"{f['path']}, member {k + 1}")
            for k, o in enumerate(outcomes)
        )
        jobs.job_progress(
            job_id=job_id,
            progress=int(100 * (n + 1) / total),
            message=f"File {n + 1} of {len(files)} done",
        )
    imported = sum(1 for r in results if r["ok"])
    message = f"Imported {imported} of {len(results)} file(s)"
    not_queued = sum(1 for r in results if r.get("annotation_error"))
    if not_queued:
        message += f"; annotation not queued for {not_queued}"
    jobs.job_finish(job_id=job_id, message=message, result={"files": results})


def staged_uploads_delete(*, job_id: int) -> int:
    """Delete the staged bytes of an upload job (returns how many rows went)."""
    from transcripts.models import StagedUpload

    deleted, _ = StagedUpload.objects.filter(job_id=job_id).delete()
    return deleted
