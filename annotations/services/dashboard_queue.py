"""Queueing the dashboard's computation (the dashboard's button, and after an
approval). The work itself is ``measurements.dashboard_recompute_job`` (what
``annotations.tasks`` imports); this module imports the tasks, so that the services
and the tasks import each other in one direction only (issue 28, finding 14)."""

from __future__ import annotations

from django.db import transaction

from annotations.services.measurements import DASHBOARD_MARK
from transcripts.models import Job
from transcripts.services import jobs


def dashboard_enqueue(*, user, rerun: bool = True) -> Job:
    from annotations.tasks import dashboard_recompute_task

    with transaction.atomic():
        job = jobs.job_create(kind=Job.Kind.EVALUATE, user=user, message="Queued: dashboard")
        Job.objects.filter(pk=job.pk).update(result={"kind": DASHBOARD_MARK, "pending": True})
        jobs.job_enqueue(job=job, task=dashboard_recompute_task, rerun=rerun)
    return job
