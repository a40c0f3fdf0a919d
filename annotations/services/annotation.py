"""Automatic annotation of a transcript (the detector ensemble → suggested spans).

Owned by the detection work (issue 3); the import calls ``annotation_enqueue``.
"""

from django.db import transaction

from transcripts import jobs
from transcripts.models import Job, Transcript


def annotation_enqueue(*, transcript: Transcript, user=None) -> Job:
    """Queue the automatic annotation of ``transcript`` for a worker."""
    from annotations.tasks import annotate_transcript_task

    with transaction.atomic():
        job = jobs.job_create(kind=Job.Kind.ANNOTATE, transcript=transcript, user=user)
        jobs.job_enqueue(job=job, task=annotate_transcript_task, transcript_id=transcript.pk)
    return job


def transcript_annotate_job(*, job_id: int, transcript_id: int) -> None:
    """Run the ensemble for one transcript inside a job (placeholder until issue 3 lands)."""
    raise NotImplementedError("detector ensemble not built yet")
