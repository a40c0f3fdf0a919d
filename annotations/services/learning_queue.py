"""Queueing the domain model's retraining: a lead's button on the Learning
page, and every ``LEARNING_RETRAIN_EVERY`` approvals (default 5; 0 turns it off).

The work itself is ``annotations.services.learning_loop`` (what ``annotations.tasks``
imports); this module is the only one that imports the tasks, so that the services
and the tasks import each other in one direction only.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import transaction

from annotations.models import TrainedModel
from annotations.services.learning import (
    domain_row_queue,
    gold_transcripts,
    models_dir,
    training_job_active,
)
from anonreview.core.audit import audit_record
from anonreview.core.models import AuditEvent
from transcripts.models import Job, Transcript
from transcripts.services import jobs

logger = logging.getLogger(__name__)

RETRAIN_EVERY = 5


def retrain_every() -> int:
    """Approvals between two automatic retrainings (``settings.LEARNING_RETRAIN_EVERY``)."""
    return max(0, int(getattr(settings, "LEARNING_RETRAIN_EVERY", RETRAIN_EVERY)))


def approvals_since_last_training() -> int:
    """Approvals of originals since the latest domain training was queued (all of them
    when none was)."""
    last = (
        TrainedModel.objects.filter(kind=TrainedModel.Kind.DOMAIN).order_by("-created_at").first()
    )
    events = AuditEvent.objects.filter(
        event_type="transcript.transition",
        after__state=Transcript.State.APPROVED,
        transcript__double_of__isnull=True,
    )
    if last is not None:
        events = events.filter(created_at__gt=last.created_at)
    return events.count()


@transaction.atomic
def retrain_start(*, user, trigger: str = "button", seed: int = 13) -> TrainedModel:
    """Queue a retraining of the domain model on the recipe plus the approved gold.

    One training at a time across every worker (``learning.domain_row_queue``)."""
    model = domain_row_queue(user=user, source="recipe+approved", trigger=trigger, seed=seed)
    model.path = str(models_dir() / f"model-{model.pk}")
    job = jobs.job_create(kind=Job.Kind.TRAIN, user=model.created_by, message="Queued")
    model.job = job
    model.save(update_fields=["path", "job"])
    audit_record(
        actor=model.created_by,
        event_type="detector_training_queued",
        after={
            "trained_model": model.pk,
            "trigger": trigger,
            "transcripts": gold_transcripts().count(),
        },
    )
    from annotations.tasks import retrain_domain_task

    jobs.job_enqueue(job=job, task=retrain_domain_task, trained_model_id=model.pk)
    return model


def retrain_after_approval(*, actor=None) -> TrainedModel | None:
    """After an approval (on commit): queue a retraining when ``retrain_every()``
    approvals were made since the last one and none is running. Never raises: the
    approval stands whatever happens here."""
    every = retrain_every()
    if not every:
        return None
    try:
        if training_job_active() is not None or approvals_since_last_training() < every:
            return None
        return retrain_start(user=actor, trigger="approvals")
    except Exception as exc:
        logger.warning("retraining not queued: %s", type(exc).__name__)
        return None


def register_queue(*, path, user) -> TrainedModel:
    """Register the model at ``path`` (``learning_register``: checked, copied, its checksum
    verified or recorded) and queue its scoring under the gate."""
    from annotations.services.learning_register import model_register_start
    from annotations.tasks import register_model_task

    model = model_register_start(path=path, user=user)
    jobs.job_enqueue(job=model.job, task=register_model_task, trained_model_id=model.pk)
    return model
