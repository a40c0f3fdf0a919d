"""What ``bench_corpus`` reads and removes in the database (its own rows only).

A corpus benchmark imports generated hearings through the real path (an upload job,
then one annotation job per transcript, worked by ``db_worker`` processes) and removes
them afterwards: ``benchmark_stages`` reads the stage timings from the task rows,
``benchmark_transcripts_delete`` deletes the benchmark's transcripts, jobs, task rows
and stored originals, with one audit row saying so.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from django.db import transaction

from annotations.models import Span
from anonreview.core.audit import audit_record
from anonreview.core.models import AuditEvent
from transcripts.models import Job, Transcript

logger = logging.getLogger(__name__)

FINISHED = (Job.Status.DONE, Job.Status.FAILED, Job.Status.CANCELLED)


@dataclass
class Stages:
    """Seconds read from the task rows of one benchmark run."""

    done: bool
    wall_s: float | None = None
    import_s: float | None = None
    annotate_s: float | None = None
    transcripts: int = 0
    annotated: int = 0
    failed: int = 0
    suggestions: int = 0
    # one row per job: {"worker", "kind" ("import"/"annotate"), "start_s", "end_s"},
    # seconds from the upload's enqueueing (for each worker's busy/idle timeline)
    timeline: list[dict] = field(default_factory=list)


def _task_rows(task_ids: list[str]):
    from django_tasks_db.models import DBTaskResult

    return list(
        DBTaskResult.objects.filter(id__in=[t for t in task_ids if t]).values(
            "id", "enqueued_at", "started_at", "finished_at", "worker_ids"
        )
    )


def _seconds(row) -> float:
    return (row["finished_at"] - row["started_at"]).total_seconds()


def benchmark_stages(*, import_job_id: int) -> Stages:
    """Where the run of the upload ``import_job_id`` stands, with its timings once done.

    ``wall_s``: from the upload's enqueueing to the last annotation's end; ``import_s``:
    the import jobs' run times added up (one job per file, or one for a whole upload
    queued before uploads were split); ``annotate_s``: the annotation jobs' run times
    added up.
    """
    job = Job.objects.get(pk=import_job_id)
    if job.status not in FINISHED:
        return Stages(done=False)
    ids = [r.get("transcript_id") for r in (job.result or {}).get("files", [])]
    ids = [i for i in ids if i]
    annotation_jobs = list(
        Job.objects.filter(transcript_id__in=ids, kind=Job.Kind.ANNOTATE).values(
            "status", "task_result_id", "transcript_id"
        )
    )
    if len(annotation_jobs) < len(ids) or any(j["status"] not in FINISHED for j in annotation_jobs):
        return Stages(done=False, transcripts=len(ids))
    import_ids = [job.task_result_id] if job.task_result_id else []
    import_ids += [
        t for t in Job.objects.filter(batch=job).values_list("task_result_id", flat=True)
    ]
    import_rows = _task_rows(import_ids)
    annotate_rows = _task_rows([j["task_result_id"] for j in annotation_jobs])
    if not import_rows or any(r["finished_at"] is None for r in import_rows + annotate_rows):
        return Stages(done=False, transcripts=len(ids))
    last = max(r["finished_at"] for r in import_rows + annotate_rows)
    first = min(r["enqueued_at"] for r in import_rows)
    timeline = sorted(
        (
            {
                "worker": (r["worker_ids"] or ["?"])[-1],
                "kind": kind,
                "start_s": round((r["started_at"] - first).total_seconds(), 3),
                "end_s": round((r["finished_at"] - first).total_seconds(), 3),
            }
            for kind, rows in (("import", import_rows), ("annotate", annotate_rows))
            for r in rows
            if r["started_at"] is not None
        ),
        key=lambda row: (row["worker"], row["start_s"]),
    )
    return Stages(
        done=True,
        wall_s=(last - first).total_seconds(),
        import_s=sum(_seconds(r) for r in import_rows),
        annotate_s=sum(_seconds(r) for r in annotate_rows),
        transcripts=len(ids),
        annotated=Transcript.objects.filter(pk__in=ids, state=Transcript.State.READY).count(),
        failed=sum(1 for j in annotation_jobs if j["status"] == Job.Status.FAILED),
        suggestions=Span.objects.filter(transcript_id__in=ids).count(),
        timeline=timeline,
    )


def benchmark_transcript_ids(*, import_job_id: int) -> list[int]:
    job = Job.objects.filter(pk=import_job_id).first()
    files = (job.result or {}).get("files", []) if job else []
    return [r["transcript_id"] for r in files if r.get("transcript_id")]


@transaction.atomic
def benchmark_transcripts_delete(*, import_job_ids: list[int], transcript_ids: list[int]) -> int:
    """Delete a benchmark's transcripts (with their spans, entities, jobs), its upload
    jobs and their task rows; returns how many transcripts went. One audit row records
    the removal; the benchmark transcripts' own audit rows go with them."""
    from django_tasks_db.models import DBTaskResult

    from transcripts.models import StagedUpload

    jobs = (
        Job.objects.filter(pk__in=import_job_ids)
        | Job.objects.filter(batch_id__in=import_job_ids)
        | Job.objects.filter(transcript_id__in=transcript_ids)
    )
    task_ids = [t for t in jobs.values_list("task_result_id", flat=True) if t]
    transcripts = list(Transcript.objects.filter(pk__in=transcript_ids))
    stored = [t.original_file.name for t in transcripts if t.original_file]
    AuditEvent.objects.filter(transcript_id__in=transcript_ids).delete()
    StagedUpload.objects.filter(job_id__in=import_job_ids).delete()
    StagedUpload.objects.filter(job__batch_id__in=import_job_ids).delete()
    jobs.delete()
    DBTaskResult.objects.filter(id__in=task_ids).delete()
    count = len(transcripts)
    for transcript in transcripts:
        transcript.delete()
    if stored:
        from transcripts.storage import originals_storage

        storage = originals_storage()
        for name in stored:
            try:
                storage.delete(name)
            except OSError:
                logger.warning("a benchmark original could not be removed")
    audit_record(
        actor=None,
        event_type="benchmark.cleanup",
        after={"transcripts": count, "upload_jobs": len(import_job_ids)},
    )
    return count


def benchmark_duplicates(*, sha256s: list[str]) -> list[int]:
    """Transcripts already holding one of the benchmark's files (by content hash)."""
    return list(Transcript.objects.filter(sha256__in=sha256s).values_list("pk", flat=True))
