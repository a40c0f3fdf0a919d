"""Background tasks for transcripts. Thin: take ids, call a service.

``import_files_task`` imports the file(s) of one import Job (staged by
``import_job_enqueue``), then deletes the staged files, whether the import succeeded,
failed or was cancelled, and ends the upload's batch when it was its last file.
``jobs.job_run`` ends the Job truthfully however the work ends (a lost database
connection included).
"""

from django_tasks import task

from transcripts.services import import_jobs, jobs


def _import_error(exc: Exception) -> str:
    return (
        f"The import stopped unexpectedly ({type(exc).__name__}). "
        "Files imported before that stay imported; start the rest again."
    )


@task()
def import_files_task(
    *,
    job_id: int,
    files: list[dict],
    user_id: int | None = None,
    assignee_ids: list[int] | None = None,
) -> None:
    try:
        jobs.job_run(
            job_id=job_id,
            work=lambda: import_jobs.transcripts_import_job(
                job_id=job_id, files=files, user_id=user_id, assignee_ids=assignee_ids or []
            ),
            error=_import_error,
        )
    finally:
        import_jobs.staged_uploads_delete(job_id=job_id)
        jobs.import_batch_refresh(job_id=job_id)
