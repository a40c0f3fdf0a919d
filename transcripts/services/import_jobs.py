"""Upload jobs, the worker's side (run by ``transcripts.tasks.import_files_task``):
import each staged file of a Job and delete the staged bytes (the upload's batch ends
with its last file: ``jobs.import_batch_refresh``). The request's side (staging, queueing) is
``transcripts.services.upload_staging``."""

from engine.progress import Progress
from transcripts.services.importing import (
    ImportOutcome,
    sources_from_bytes,
    transcripts_import_batch,
)


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
    reporter = jobs.job_reporter(job_id=job_id)
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
            # every page (OCR: every page rendered, too) is a cancellation point; the
            # reporter writes the bar at most once a second (docs/workers.md)
            reporter(
                Progress(
                    n + done / max(1, pages),
                    total,
                    f"File {n + 1} of {len(files)}: page {done} of {pages}",
                )
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
