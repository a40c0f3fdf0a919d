"""The background training task. Thin: takes ids, calls the service."""

from django_tasks import task


@task()
def train_detector_task(*, job_id: int, trained_model_id: int) -> None:
    from annotations.services.learning import trained_model_train_job

    trained_model_train_job(job_id=job_id, trained_model_id=trained_model_id)
