"""Queueing the dashboard's computation (the dashboard's button, and after an
approval). The work itself is ``measurements.dashboard_recompute_job`` (what
``annotations.tasks`` imports); this module imports the tasks, so that the services
and the tasks import each other in one direction only.

Recomputes coalesce: while one is queued and not started, a new request returns that
one (it reads every approval made until it starts), so six approvals in a row queue one
recompute, not six of 3–5 minutes each ahead of a retraining."""

from __future__ import annotations

from django.db import transaction

from annotations.services.measurements import DASHBOARD_MARK
from transcripts.models import Job
from transcripts.services import jobs


def dashboard_queued() -> Job | None:
    """The dashboard recompute queued and not started yet, if any."""
    return (
        Job.objects.filter(
            kind=Job.Kind.EVALUATE, status=Job.Status.QUEUED, result__kind=DASHBOARD_MARK
        )
        .order_by("pk")
        .first()
    )


def dashboard_enqueue(*, user, rerun: bool = True) -> Job:
    """Queue a recompute, or return the one already queued (with ``rerun``, only one
    queued with ``rerun`` too: re-running the detectors is more than scoring)."""
    from annotations.tasks import dashboard_recompute_task

    with transaction.atomic():
        queued = dashboard_queued()
        if queued is not None and (not rerun or queued.result.get("rerun", True)):
            return queued
        job = jobs.job_create(kind=Job.Kind.EVALUATE, user=user, message="Queued: dashboard")
        Job.objects.filter(pk=job.pk).update(
            result={"kind": DASHBOARD_MARK, "pending": True, "rerun": rerun}
        )
        jobs.job_enqueue(job=job, task=dashboard_recompute_task, rerun=rerun)
    return job
