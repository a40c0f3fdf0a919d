"""Queueing the automatic annotation: after an import (the hook ``annotations``
registers, ``transcripts.hooks``), by the ``annotate`` command, and a lead's "run it
again" on a failed transcript.

The work itself is ``annotations.services.annotation`` (what ``annotations.tasks``
imports); this module imports the tasks, so that the services and the tasks import
each other in one direction only."""

from __future__ import annotations

from django.db import transaction

from transcripts.models import Job, Transcript
from transcripts.services import jobs


def annotation_enqueue(*, transcript: Transcript, user=None) -> Job:
    """Queue the automatic annotation of ``transcript`` for a worker."""
    from annotations.tasks import annotate_transcript_task

    with transaction.atomic():
        job = jobs.job_create(kind=Job.Kind.ANNOTATE, transcript=transcript, user=user)
        jobs.job_enqueue(job=job, task=annotate_transcript_task, transcript_id=transcript.pk)
    return job


def transcript_annotate_rerun(*, transcript: Transcript, actor) -> Job:
    """A lead runs the automatic annotation of a failed (or never annotated) transcript
    again, from its page: it becomes *annotating* (audited) and its job is queued.
    Reviewed spans are kept (suggestions are replaced in one transaction at the end).
    Raises ``TransitionError`` in words when the state or the actor does not allow it,
    or when an annotation of it is already queued or running."""
    from transcripts.services.workflow import TransitionError, transcript_transition

    S = Transcript.State
    with transaction.atomic():
        locked = Transcript.objects.select_for_update().get(pk=transcript.pk)
        if locked.state not in (S.FAILED, S.IMPORTED):
            raise TransitionError(
                f"Only a failed or newly imported transcript is annotated again from its "
                f"page; this one is {S(locked.state).label.lower()}."
            )
        if Job.objects.filter(
            transcript=locked, kind=Job.Kind.ANNOTATE, status__in=jobs.ACTIVE
        ).exists():
            raise TransitionError("Its automatic annotation is already queued or running.")
        transcript_transition(
            transcript=locked, target=S.ANNOTATING, actor=actor, reason="annotation run again"
        )
        return annotation_enqueue(transcript=locked, user=actor)
