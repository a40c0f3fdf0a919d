"""Background tasks for transcripts. Thin: take ids, call a service.

``import_files_task`` imports the file(s) of one import Job (staged as ``StagedUpload``
rows in the database by ``import_job_enqueue``), then deletes the staged rows,
whether the import succeeded or failed, and ends the upload's batch when it was its
last file.
"""

from django_tasks import task

from transcripts.services import importing, jobs


@task()
def import_files_task(
    *,
    job_id: int,
    files: list[dict],
    user_id: int | None = None,
    assignee_ids: list[int] | None = None,
) -> None:
    try:
        importing.transcripts_import_job(
            job_id=job_id, files=files, user_id=user_id, assignee_ids=assignee_ids or []
        )
    except Exception as exc:
        jobs.job_fail(
            job_id=job_id,
            error=(
                f"The import stopped unexpectedly ({type(exc).__name__}). "
                "Files imported before that stay imported; start the rest again."
            ),
        )
        raise
    finally:
        importing.staged_uploads_delete(job_id=job_id)
        importing.import_batch_refresh(job_id=job_id)
