"""Deleting a transcript deletes its personal data everywhere.

Personal data lives in the transcript, its spans and the key; elsewhere only ids. What a
deletion must still reach, because it is not a row that cascades with the transcript:

* its audit rows (and its second-annotation copies'), which stay (who did what, when)
  but lose their ``before``/``after`` (span snapshots, return comments, notes);
* the import jobs that made it: their result entry for it keeps the file's label and
  ``ok`` only, their task rows (arguments) go, and any staged bytes go;
* the task rows of its own jobs (annotation), which cascade as ``Job`` rows;
* its original file in the originals storage.

:func:`transcript_personal_data_erase` runs for every deleted transcript (a
``pre_delete`` receiver, so the admin, a shell or a cascade cannot skip it);
:func:`transcript_delete` is the service a view or command calls.
"""

from __future__ import annotations

from django.db import transaction

from anonreview.core.audit import audit_record
from anonreview.core.models import AuditEvent
from transcripts.models import Job, StagedUpload, Transcript

ERASED = {"erased": True}


def _import_jobs_of(transcript_id: int) -> list[Job]:
    """The import jobs (files and batches) whose result names ``transcript_id``."""
    found = []
    for job in Job.objects.filter(kind=Job.Kind.IMPORT).only("id", "result", "task_result_id"):
        files = (job.result or {}).get("files") or []
        if any(isinstance(f, dict) and f.get("transcript_id") == transcript_id for f in files):
            found.append(job)
    return found


def transcript_personal_data_erase(*, transcript: Transcript) -> dict:
    """Erase what of ``transcript`` lies outside the rows that cascade with it (see the
    module docstring). Returns counts (ids only)."""
    pk = transcript.pk
    audit = AuditEvent.objects.filter(transcript_id=pk).update(before={}, after=ERASED)
    task_ids = [
        t
        for t in Job.objects.filter(transcript_id=pk).values_list("task_result_id", flat=True)
        if t
    ]
    imports = _import_jobs_of(pk)
    for job in imports:
        files = [
            {"path": f.get("path", ""), "ok": f.get("ok", False), "transcript_id": None, **ERASED}
            if isinstance(f, dict) and f.get("transcript_id") == pk
            else f
            for f in job.result.get("files") or []
        ]
        Job.objects.filter(pk=job.pk).update(result={**job.result, "files": files})
        if job.task_result_id:
            task_ids.append(job.task_result_id)
    staged = StagedUpload.objects.filter(job__in=[j.pk for j in imports]).delete()[0]
    tasks = 0
    if task_ids:
        from django_tasks_db.models import DBTaskResult

        tasks = DBTaskResult.objects.filter(id__in=task_ids).delete()[0]
    original = bool(transcript.original_file and transcript.original_file.name)
    if original:
        transcript.original_file.delete(save=False)
    return {"audit": audit, "import_jobs": len(imports), "staged": staged, "tasks": tasks,
            "original": original}  # fmt: skip


def erase_on_delete(sender, instance: Transcript, **kwargs) -> None:
    """``pre_delete`` receiver: every deleted transcript (copies in a cascade too)."""
    transcript_personal_data_erase(transcript=instance)


@transaction.atomic
def transcript_delete(*, transcript: Transcript, actor) -> None:
    """Delete ``transcript`` (its copies, spans, key, jobs) and its personal data
    everywhere; the deletion itself is audited by id."""
    pk = transcript.pk
    transcript.delete()  # the pre_delete receiver erases what does not cascade
    audit_record(actor=actor, event_type="transcript.deleted", after={"transcript": pk})
