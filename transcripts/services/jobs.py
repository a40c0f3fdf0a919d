"""Job bookkeeping shared by every background task.

A ``Job`` row is what the UI shows (status, progress bar, error in words); the
task itself runs through Django's tasks API. Pattern (HackSoft): the service
creates the Job and enqueues the task in ``transaction.on_commit`` so a worker
never sees a Job whose transaction has not committed; the task takes ids only.

    job = job_create(kind=Job.Kind.ANNOTATE, transcript=t, user=request.user)
    job_enqueue(job=job, task=annotate_transcript_task, transcript_id=t.pk)

Inside the task: ``job_start``, ``job_progress`` (cheap, throttled), then
``job_finish`` or ``job_fail``. Messages must not contain personal data.
"""

import logging
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from engine.progress import Progress, ProgressFn
from transcripts.models import Job

logger = logging.getLogger(__name__)

STALE_AFTER = timedelta(minutes=10)


def job_create(
    *, kind: str, transcript=None, user=None, message: str = "Queued", batch=None, result=None
) -> Job:
    return Job.objects.create(
        kind=kind,
        transcript=transcript,
        created_by=user if getattr(user, "is_authenticated", False) else None,
        message=message[:255],
        batch=batch,
        result=result or {},
    )


def job_enqueue(*, job: Job, task, **kwargs) -> Job:
    """Enqueue ``task(job_id=job.pk, **kwargs)`` once the current transaction commits.

    The enqueue runs in ``on_commit``, after the caller's transaction (and its error
    handling) has finished, so a failure to queue is handled here, where it happens:
    the Job is marked failed with the reason in words (the page and the caller read
    it from the row), and the exception never escapes into the commit of whoever
    held the transaction (which would report their committed work as lost).
    """

    def _enqueue() -> None:
        try:
            result = task.enqueue(job_id=job.pk, **kwargs)
        except Exception as exc:  # the tasks backend refused the job
            logger.warning("job %s could not be queued: %s", job.pk, type(exc).__name__)
            job_fail(
                job_id=job.pk,
                message="Not queued",
                error=(
                    f"The job could not be queued ({type(exc).__name__}); "
                    "check the task queue and start it again."
                ),
            )
            return
        # The immediate backend has already run the task (and updated the row).
        Job.objects.filter(pk=job.pk).update(task_result_id=str(result.id)[:64])

    transaction.on_commit(_enqueue)
    return job


def job_not_queued(job: Job) -> str:
    """The reason ``job`` could not be queued (from its row), or "" when it was."""
    row = Job.objects.filter(pk=job.pk).values("status", "message", "error").first()
    if row and row["status"] == Job.Status.FAILED and row["message"] == "Not queued":
        return row["error"]
    return ""


def job_start(*, job_id: int, message: str = "Running") -> Job:
    now = timezone.now()
    Job.objects.filter(pk=job_id).update(
        status=Job.Status.RUNNING, message=message, heartbeat_at=now, updated_at=now
    )
    return Job.objects.get(pk=job_id)


def job_progress(*, job_id: int, progress: int, message: str = "") -> None:
    now = timezone.now()
    fields = {"progress": max(0, min(100, int(progress))), "heartbeat_at": now, "updated_at": now}
    if message:
        fields["message"] = message[:255]
    Job.objects.filter(pk=job_id).update(**fields)


def job_reporter(*, job_id: int) -> ProgressFn:
    """A ``ProgressFn`` (``engine.progress``) that moves the job's progress bar."""

    def report(progress: Progress) -> None:
        job_progress(job_id=job_id, progress=progress.percent, message=progress.message)

    return report


def job_finish(*, job_id: int, message: str = "Done", result: dict | None = None) -> None:
    now = timezone.now()
    Job.objects.filter(pk=job_id).update(
        status=Job.Status.DONE,
        progress=100,
        message=message[:255],
        result=result or {},
        heartbeat_at=now,
        updated_at=now,
    )


def job_fail(*, job_id: int, error: str, message: str = "Failed") -> None:
    """Record a failure in words. ``error`` is shown to users: no personal data."""
    now = timezone.now()
    logger.warning("job %s failed", job_id)  # the error in words may quote a file name
    Job.objects.filter(pk=job_id).update(
        status=Job.Status.FAILED,
        message=message[:255],
        error=error,
        heartbeat_at=now,
        updated_at=now,
    )


def jobs_fail_stale(*, older_than: timedelta = STALE_AFTER) -> int:
    """Fail running jobs whose worker stopped reporting (killed mid-job); returns how many.

    A worker that dies mid-job leaves its Job ``running`` and its transcript
    ``annotating`` forever; this repairs both so that nothing waits on a dead process and
    the work can be started again: the transcript becomes ``failed`` (a lead or the
    ``annotate`` command re-runs it; its reviewed spans were never touched, since spans
    are replaced in one transaction at the end), and an upload's staged bytes are
    deleted (the task's own clean-up never ran; files imported before the crash stay
    imported, each import being one transaction). Called by the job views on every poll
    and by ``manage.py fail_stale_jobs``.
    """
    from transcripts.models import StagedUpload, Transcript

    cutoff = timezone.now() - older_than
    stale = Job.objects.filter(status=Job.Status.RUNNING, heartbeat_at__lt=cutoff)
    stale_ids = list(stale.values_list("pk", flat=True))
    if not stale_ids:
        return 0
    now = timezone.now()
    failed = 0
    with transaction.atomic():
        jobs = list(
            Job.objects.select_for_update(of=("self",))
            .filter(pk__in=stale_ids, status=Job.Status.RUNNING, heartbeat_at__lt=cutoff)
            .select_related("transcript")
            .defer("transcript__text")
        )
        for job in jobs:
            job.status = Job.Status.FAILED
            job.message = "Worker stopped"
            job.error = "The worker stopped before finishing this job (killed or restarted). " + (
                "Files imported before that stay imported; upload the rest again."
                if job.kind == Job.Kind.IMPORT
                else "Start it again."
            )
            job.updated_at = now
            job.save(update_fields=["status", "message", "error", "updated_at"])
            failed += 1
            if job.kind == Job.Kind.IMPORT:
                StagedUpload.objects.filter(job=job).delete()
            transcript = job.transcript
            if transcript is not None and transcript.state == Transcript.State.ANNOTATING:
                from transcripts.services.workflow import transcript_transition

                transcript_transition(
                    transcript=transcript,
                    target=Transcript.State.FAILED,
                    reason="The annotation job stopped (worker killed or restarted); run it again.",
                )
        logger.warning("failed %d stale job(s)", failed)
    return failed
