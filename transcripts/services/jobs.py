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
import threading
import time
from collections.abc import Callable
from datetime import timedelta

from django.db import DatabaseError, transaction
from django.utils import timezone

from engine.progress import Cancelled, Progress
from transcripts.models import Job
from transcripts.services.import_outcome import ImportOutcome

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


class JobStopped(Cancelled):
    """Raised into a running task when its Job was failed or cancelled meanwhile (the
    stale sweep, the Cancel button): the work stops instead of finishing a job that the
    pages already show as ended."""


ACTIVE = (Job.Status.QUEUED, Job.Status.RUNNING)


def job_start(*, job_id: int, message: str = "Running") -> Job:
    """Mark the job running in this process (its worker's liveness key recorded).

    Compare-and-set: only a queued (or running, when the same task starts again) job
    starts; one failed or cancelled before a worker took it raises ``JobStopped``.
    """
    from anonreview.core.workers import current_worker_key

    now = timezone.now()
    started = Job.objects.filter(pk=job_id, status__in=ACTIVE).update(
        status=Job.Status.RUNNING,
        message=message[:255],
        heartbeat_at=now,
        updated_at=now,
        worker=current_worker_key(),
    )
    if not started:
        raise JobStopped(f"job {job_id} is no longer queued")
    return Job.objects.get(pk=job_id)


def job_progress(*, job_id: int, progress: int, message: str = "") -> None:
    """Move the progress bar of a running job; raises ``JobStopped`` when the job was
    failed or cancelled meanwhile (so a progress report is also a cancellation point)."""
    now = timezone.now()
    fields = {"progress": max(0, min(100, int(progress))), "heartbeat_at": now, "updated_at": now}
    if message:
        fields["message"] = message[:255]
    if not Job.objects.filter(pk=job_id, status__in=ACTIVE).update(**fields):
        if Job.objects.filter(pk=job_id).exists():
            raise JobStopped(f"job {job_id} was stopped")


def job_check(*, job_id: int, lock: bool = False) -> None:
    """Raise ``JobStopped`` unless the job is still queued or running. With ``lock``
    (inside a transaction) the row stays locked until it commits: a sweep or a cancel
    waits for that commit, so the work it guards and the job's end cannot cross."""
    rows = Job.objects.filter(pk=job_id, status__in=ACTIVE)
    if lock:
        rows = rows.select_for_update()
    if not list(rows.values_list("pk", flat=True)[:1]):
        raise JobStopped(f"job {job_id} was stopped")


def job_stopped(*, job_id: int) -> bool:
    """Whether the job has ended (done, failed, cancelled) while its work may still run;
    a job this connection cannot see (not committed yet) has not."""
    status = Job.objects.filter(pk=job_id).values_list("status", flat=True).first()
    return status is not None and status not in ACTIVE


class JobReporter:
    """A job's ``ProgressFn`` (``engine.progress``): it moves the job's progress bar and
    is the job's **cancellation point** (docs/workers.md).

    ``report(Progress(...))`` and ``report.check()`` (``engine.progress.checkpoint``) are
    cheap enough for any loop: the job's row is read (or its bar written) at most once
    every ``every`` seconds; in between a call costs a clock read. Once the job was
    cancelled or failed meanwhile, every call, from any thread, raises ``JobStopped``
    (an ``engine.progress.Cancelled``). The thread that made the reporter (the task's)
    writes the bar; other threads (a detector running beside the others) only read the
    job's state, each on its own connection, closed again at once."""

    every = 1.0

    def __init__(self, job_id: int, *, every: float | None = None):
        self.job_id = job_id
        if every is not None:
            self.every = every
        self.owner = threading.get_ident()
        self._stopped = threading.Event()
        self._lock = threading.Lock()
        self._last = float("-inf")
        self._pending: Progress | None = None

    def __call__(self, progress: Progress) -> None:
        if threading.get_ident() == self.owner:
            self._pending = progress
        self._tick()

    def check(self) -> None:
        self._tick()

    @property
    def stopped(self) -> bool:
        return self._stopped.is_set()

    def _tick(self) -> None:
        if self._stopped.is_set():
            raise JobStopped(f"job {self.job_id} was stopped")
        now = time.monotonic()
        owner = threading.get_ident() == self.owner
        with self._lock:
            if now - self._last < self.every:
                return
            self._last = now
            pending = None
            if owner:  # the latest report not written yet (only the task's thread writes)
                pending, self._pending = self._pending, None
        if owner:
            try:
                if pending is not None:
                    job_progress(
                        job_id=self.job_id, progress=pending.percent, message=pending.message
                    )
                elif job_stopped(job_id=self.job_id):
                    raise JobStopped(f"job {self.job_id} was stopped")
            except JobStopped:
                self._stopped.set()
                raise
            return
        from anonreview.core.workers import db_connections_reset

        try:
            stopped = job_stopped(job_id=self.job_id)
        except DatabaseError:  # this thread's read failed; the next check reads again
            stopped = False
        finally:
            db_connections_reset()  # this thread's connection, not the task's
        if stopped:
            self._stopped.set()
            raise JobStopped(f"job {self.job_id} was stopped")


def job_reporter(*, job_id: int) -> JobReporter:
    """The ``ProgressFn`` of a job: its progress bar and its cancellation point
    (``JobReporter``)."""
    return JobReporter(job_id)


def job_finish(*, job_id: int, message: str = "Done", result: dict | None = None) -> bool:
    """End the job as done. Compare-and-set: a job that was failed (the sweep, a
    cancel) stays failed; returns whether this call ended it."""
    now = timezone.now()
    return bool(
        Job.objects.filter(pk=job_id, status__in=ACTIVE).update(
            status=Job.Status.DONE,
            progress=100,
            message=message[:255],
            result=result or {},
            heartbeat_at=now,
            updated_at=now,
        )
    )


def job_fail(*, job_id: int, error: str, message: str = "Failed") -> bool:
    """Record a failure in words. ``error`` is shown to users: no personal data.

    Compare-and-set: only a queued or running job fails; the first reason given stays
    (a job failed by the sweep, then by its task's own handler, keeps the sweep's).
    Returns whether this call failed it."""
    now = timezone.now()
    logger.warning("job %s failed", job_id)  # the error in words may quote a file name
    return bool(
        Job.objects.filter(pk=job_id, status__in=ACTIVE).update(
            status=Job.Status.FAILED,
            message=message[:255],
            error=error,
            heartbeat_at=now,
            updated_at=now,
        )
    )


def _job_end_orphaned(
    job: Job, *, message: str, error: str, status: str = Job.Status.FAILED
) -> None:
    """End ``job`` (locked, running) as ``status`` (failed or cancelled) and repair what
    its task would have cleaned up:
    an upload's staged bytes are deleted (files imported before stay imported, each
    import being one transaction); an annotating transcript becomes ``failed`` (a lead
    re-runs it from its page; its reviewed spans were never touched, since spans are
    replaced in one transaction at the end)."""
    from transcripts.models import StagedUpload, Transcript

    job.status = status
    job.message = message[:255]
    job.error = error
    job.updated_at = timezone.now()
    job.save(update_fields=["status", "message", "error", "updated_at"])
    if job.kind == Job.Kind.IMPORT:
        StagedUpload.objects.filter(job=job).delete()
    transcript = job.transcript
    if transcript is not None and transcript.state == Transcript.State.ANNOTATING:
        from transcripts.services.workflow import transcript_transition

        transcript_transition(
            transcript=transcript,
            target=Transcript.State.FAILED,
            reason=f"The annotation job stopped ({message.lower()}); run it again.",
        )


def import_batch_refresh(*, job_id: int) -> None:
    """End the batch of ``job_id`` (a file's Job, or the batch itself) once all its files
    are done: its result lists every file's outcome in upload order. Idempotent; the
    batch row is locked so that two workers finishing together end it once."""
    job = Job.objects.filter(pk=job_id).only("id", "batch_id").first()
    if job is None:
        return
    batch_id = job.batch_id or job.pk
    with transaction.atomic():
        batch = Job.objects.select_for_update().filter(pk=batch_id).first()
        if batch is None or not batch.is_active:
            return
        children = list(Job.objects.filter(batch_id=batch_id).order_by("id"))
        if not children or any(c.is_active for c in children):
            return
        files: list[dict] = []
        for child in children:
            got = (child.result or {}).get("files")
            if got:
                files.extend(got)
            else:  # the file's Job failed (not queued, or the worker stopped)
                files.append(
                    ImportOutcome(
                        path=(child.result or {}).get("path", f"job {child.pk}"),
                        ok=False,
                        code="failed",
                        error=child.error or "The import of this file stopped; upload it again.",
                    ).to_json()
                )
        imported = sum(1 for f in files if f.get("ok"))
        message = f"Imported {imported} of {len(files)} file(s)"
        not_queued = sum(1 for f in files if f.get("annotation_error"))
        if not_queued:
            message += f"; annotation not queued for {not_queued}"
        job_finish(job_id=batch_id, message=message, result={"files": files})


def _after_orphaned(jobs_ended: list[Job]) -> None:
    """What ends with a job, outside its lock: an upload's batch ends with its last
    file (a batch whose only file was swept no longer stays "Queued"); the apps' own
    rows follow (``hooks.job_failed``: a trained model no longer stays "training")."""
    from transcripts.hooks import hooks

    for job in jobs_ended:
        if job.kind == Job.Kind.IMPORT and job.batch_id:
            import_batch_refresh(job_id=job.pk)
        if hooks.job_failed is not None:
            hooks.job_failed(job=job)


def job_fail_orphaned(
    *, job_id: int, message: str, error: str, status: str = Job.Status.FAILED
) -> bool:
    """Fail (or cancel: ``status``) one job whose task cannot end it itself (its
    database connection died under it, a lead cancelled it), repairing its transcript
    and staged files as the sweep does; no-op unless the job is still queued or running.
    Returns whether it ended it."""
    with transaction.atomic():
        job = (
            Job.objects.select_for_update(of=("self",))
            .filter(pk=job_id, status__in=ACTIVE)
            .select_related("transcript")
            .defer("transcript__text")
            .first()
        )
        if job is None:
            return False
        _job_end_orphaned(job, message=message, error=error, status=status)
    _after_orphaned([job])
    return True


CANCELLED = "Cancelled from the page; start it again when wanted."


def job_cancel(*, job_id: int, user) -> int:
    """Cancel a queued or running job (an upload's batch: every file still waiting or
    importing): it ends ``cancelled`` at once. Its work stops at its next check (its
    ``JobReporter``: within about a second in every long loop, docs/workers.md) or, for
    an import, at the latest just before its transaction commits (nothing of a cancelled
    file is kept); an annotating transcript becomes ``failed`` (re-run it from its page).
    Returns how many jobs were cancelled (0: it had already ended). Audited
    (``job.cancel``, ids only)."""
    from anonreview.core.audit import audit_record

    job = Job.objects.filter(pk=job_id).only("id", "kind", "transcript_id").first()
    if job is None:
        return 0
    # An upload's files first: the last one ends the batch with every file's outcome.
    targets = list(
        Job.objects.filter(batch_id=job.pk, status__in=ACTIVE).values_list("pk", flat=True)
    ) + [job.pk]
    cancelled = [
        pk
        for pk in targets
        if job_fail_orphaned(
            job_id=pk, message="Cancelled", error=CANCELLED, status=Job.Status.CANCELLED
        )
    ]
    if cancelled:
        with transaction.atomic():
            audit_record(
                actor=user,
                event_type="job.cancel",
                transcript=job.transcript if job.transcript_id else None,
                after={"job": job.pk, "kind": job.kind, "cancelled": cancelled},
            )
    return len(cancelled)


def jobs_fail_stale(*, older_than: timedelta | None = None) -> int:
    """Fail running jobs whose worker is gone (killed mid-job); returns how many.

    A job run by a ``db_worker`` carries its process's liveness key; it is failed only
    when that process has not been seen for ``older_than`` (default: the workers'
    ``WORKER_GONE_AFTER_SECONDS``, 60 s; a live worker beats every 10 s from a thread,
    so a long stage without progress is never mistaken for a dead worker), stopped, or
    was replaced by a restarted process. A job run in the process that queued it
    (``annotate --sync``) has only its progress: it is failed after ``older_than``
    (default ``STALE_AFTER``, 10 minutes) without one. django-tasks' own row of each job
    it fails is closed too (``task_results_fail``; ``task_rows_close`` finds those that
    earlier sweeps left). Called by the job pages on every poll and by
    ``manage.py fail_stale_jobs``.
    """
    from anonreview.core.workers import worker_keys_alive

    now = timezone.now()
    running = list(
        Job.objects.filter(status=Job.Status.RUNNING).values_list("pk", "worker", "heartbeat_at")
    )
    if not running:
        return 0
    alive = worker_keys_alive({w for _, w, _ in running if w}, older_than=older_than)
    local_cutoff = now - (STALE_AFTER if older_than is None else older_than)
    stale_ids = [
        pk
        for pk, worker, beat in running
        if (worker and worker not in alive)
        or (not worker and (beat is None or beat < local_cutoff))
    ]
    if not stale_ids:
        return 0
    ended: list[Job] = []
    with transaction.atomic():
        candidates = list(
            Job.objects.select_for_update(of=("self",))
            .filter(pk__in=stale_ids, status=Job.Status.RUNNING)
            .select_related("transcript")
            .defer("transcript__text")
        )
        # Re-checked under the lock: the job may have moved on or been taken again.
        alive = worker_keys_alive({j.worker for j in candidates if j.worker}, older_than=older_than)
        for job in candidates:
            if job.worker in alive or (not job.worker and job.heartbeat_at >= local_cutoff):
                continue
            _job_end_orphaned(
                job,
                message="Worker stopped",
                error="The worker stopped before finishing this job (killed or restarted). "
                + (
                    "Files imported before that stay imported; upload the rest again."
                    if job.kind == Job.Kind.IMPORT
                    else "Start it again."
                ),
            )
            ended.append(job)
        if ended:
            logger.warning("failed %d stale job(s)", len(ended))
    _after_orphaned(ended)
    from anonreview.core.workers import task_results_fail

    task_results_fail([job.task_result_id for job in ended])
    return len(ended)


def task_rows_close(*, older_than: timedelta | None = None) -> int:
    """Close django-tasks' own rows left ``RUNNING`` by a worker that died under them:
    the row of a task whose Job has ended (the sweep failed it, or
    a lead cancelled it) and whose worker process is gone is marked ``FAILED``
    (``anonreview.core.workers.task_results_fail``). A live worker records its task's end
    itself. Reads every running task row: run by ``manage.py fail_stale_jobs``, not on
    every page poll (``jobs_fail_stale`` closes the rows of the jobs it fails by id).
    Returns how many rows it closed."""
    from anonreview.core.workers import task_results_fail, task_results_running, worker_keys_alive

    running = task_results_running()
    if not running:
        return 0
    ended = list(
        Job.objects.filter(task_result_id__in=running)
        .exclude(status__in=ACTIVE)
        .exclude(worker="")
        .values_list("task_result_id", "worker")
    )
    if not ended:
        return 0
    alive = worker_keys_alive({w for _, w in ended}, older_than=older_than)
    closed = task_results_fail([tid for tid, worker in ended if worker not in alive])
    if closed:
        logger.warning("closed %d task row(s) of dead workers", closed)
    return closed


CONNECTION_LOST = (
    "The database connection was lost while this job ran (the database restarted or "
    "dropped it); start it again."
)


def job_run(*, job_id: int, work: Callable[[], None], error: Callable[[Exception], str]) -> None:
    """Run a task's ``work`` for ``job_id`` and end the job truthfully however it ends.

    - ``Cancelled`` (``JobStopped``: the job was cancelled or failed meanwhile): the
      work stopped at its next check (``JobReporter``); whoever stopped it ended the
      job and repaired its transcript and staged files. A ``Cancelled`` raised by the
      work itself with its job still running ends the job ``cancelled`` the same way.
      Nothing is raised: the worker records the task as done and takes the next job.
    - A lost database connection: every later query on it would fail too (the failure
      handlers included, which is how a worker used to die with its job left
      "running"); the connection is reset and the job failed in words, its transcript
      and staged files repaired as the sweep does. The exception is raised again for
      the task's own record.
    - Any other exception: the job fails with ``error(exc)`` and the exception is raised
      again.
    """
    from anonreview.core.workers import db_connections_reset, is_connection_error

    try:
        work()
    except Cancelled:
        logger.info("job %s stopped before its end (cancelled or failed meanwhile)", job_id)
        job_fail_orphaned(
            job_id=job_id, message="Cancelled", error=CANCELLED, status=Job.Status.CANCELLED
        )
    except Exception as exc:
        if is_connection_error(exc):
            logger.warning("job %s lost its database connection", job_id)
            db_connections_reset()
            job_fail_orphaned(
                job_id=job_id, message="Database connection lost", error=CONNECTION_LOST
            )
        else:
            job_fail(job_id=job_id, error=error(exc))
        raise
