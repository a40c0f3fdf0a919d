"""Background tasks for annotation. Thin: take ids, call a service."""

from django_tasks import task

from annotations.services import annotation


@task()
def annotate_transcript_task(*, job_id: int, transcript_id: int) -> None:
    annotation.transcript_annotate_job(job_id=job_id, transcript_id=transcript_id)
