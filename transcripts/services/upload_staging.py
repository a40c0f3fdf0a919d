"""Upload jobs, the request's side: stage the uploaded files and queue one import Job
per file under one batch Job. The worker's side (import a staged file, end the batch)
is ``transcripts.services.import_jobs``; the import itself ``importing``."""

from collections.abc import Iterable

from django.db import transaction

from engine.importing.sources import too_large
from transcripts.services.import_outcome import ImportOutcome
from transcripts.services.importing import file_label, import_limits, safe_file_name
from transcripts.services.jobs import import_batch_refresh


def import_job_enqueue(*, uploads: Iterable, user, assignees: Iterable = ()):
    """Stage uploaded files and queue one import Job per file, under one batch Job.

    Returns the batch Job: the upload page shows it (its progress is its files', its
    result every file's outcome once all are done, see ``import_batch_refresh``). One Job
    per file lets every worker take a file: with one Job for the whole upload, one worker
    imported every file in turn while the others waited.

    ``uploads``: objects with ``.name``, ``.size`` and ``.chunks()`` (Django's
    UploadedFile). Files over the size limit or empty are refused here, without
    being stored; their Job ends at once with the reason in words. Accepted files are
    moved (or streamed) to the staging directory, never read into memory, and a
    ``StagedUpload`` row names each in the same transaction as its Job: the request
    answers in seconds at the size limits, and the worker reads the file.
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
                name = safe_file_name(upload.name or f"file-{i + 1}")
                label = file_label(i, name)  # jobs and task arguments name no file
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
