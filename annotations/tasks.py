"""Background tasks of the annotations app. Thin: take ids, call a service."""

from django_tasks import task

from annotations.services import annotation, learning, measurements


@task()
def annotate_transcript_task(*, job_id: int, transcript_id: int) -> None:
    annotation.transcript_annotate_job(job_id=job_id, transcript_id=transcript_id)


@task()
def dashboard_recompute_task(*, job_id: int, rerun: bool = True) -> None:
    measurements.dashboard_recompute_job(job_id=job_id, rerun=rerun)


@task()
def train_detector_task(*, job_id: int, trained_model_id: int) -> None:
    learning.trained_model_train_job(job_id=job_id, trained_model_id=trained_model_id)
