"""Background task that recomputes the measurement dashboard. Thin: calls the service."""

from django_tasks import task

from annotations.services import measurements


@task()
def dashboard_recompute_task(*, job_id: int, rerun: bool = True) -> None:
    measurements.dashboard_recompute_job(job_id=job_id, rerun=rerun)
