"""Background tasks of the annotations app. Thin: take ids, call a service.

``jobs.job_run`` ends each Job truthfully however the work ends (a lost database
connection included).
"""

from django_tasks import task

from annotations.services import annotation, learning_loop, learning_register, measurements
from transcripts.services import jobs


def _failed(what: str):
    return lambda exc: f"The {what} stopped unexpectedly ({type(exc).__name__}); start it again."


@task()
def annotate_transcript_task(*, job_id: int, transcript_id: int) -> None:
    jobs.job_run(
        job_id=job_id,
        work=lambda: annotation.transcript_annotate_job(job_id=job_id, transcript_id=transcript_id),
        error=_failed("automatic annotation"),
    )


@task()
def dashboard_recompute_task(*, job_id: int, rerun: bool = True) -> None:
    jobs.job_run(
        job_id=job_id,
        work=lambda: measurements.dashboard_recompute_job(job_id=job_id, rerun=rerun),
        error=_failed("dashboard computation"),
    )


@task()
def retrain_domain_task(*, job_id: int, trained_model_id: int) -> None:
    jobs.job_run(
        job_id=job_id,
        work=lambda: learning_loop.domain_retrain_job(
            job_id=job_id, trained_model_id=trained_model_id
        ),
        error=_failed("training"),
    )


@task()
def register_model_task(*, job_id: int, trained_model_id: int) -> None:
    jobs.job_run(
        job_id=job_id,
        work=lambda: learning_register.model_register_job(
            job_id=job_id, trained_model_id=trained_model_id
        ),
        error=_failed("registration"),
    )
