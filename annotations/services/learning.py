"""Trained detectors' records and the transformer's training.

Writes go through the ``trained_model_*`` services (audited); the training itself
(minutes to hours) runs outside any transaction, in the ``train_detector`` command. The
domain model's retraining in the background is ``learning_loop`` (the work)
and ``learning_queue`` (queueing it); this module keeps what they share: the models
directory, the gold transcripts, the one-training-at-a-time check and the closing of
rows whose job ended.

Gold from the database = the accepted and added spans of approved (and released)
transcripts, second-annotator copies excluded (they repeat a text: a copy on each side
of the held-out split would inflate the figures).
"""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from annotations.models import TrainedModel
from anonreview.core.audit import audit_record
from anonreview.logs import failure_words
from engine.gold import GoldDoc
from engine.progress import Progress
from transcripts.models import Job, Transcript
from transcripts.services import jobs

logger = logging.getLogger(__name__)

SOURCE_APPROVED = "approved"
SOURCE_GOLD_FILE = "gold-file"
GOLD_STATES = (Transcript.State.APPROVED, Transcript.State.RELEASED)
CURRENT_LINK = "current"


class LearningError(ValueError):
    """Training cannot start; the message says why, in words."""


ALREADY = "A training is already queued or running; wait for it to end or cancel it."


def _failure_words(exc: BaseException) -> str:
    """A failed training in words: the message of our own exceptions (paths and settings,
    no transcript text), any other exception by its type only."""
    from engine.learning.hf import ModelDirError  # loaded already when they were raised
    from engine.learning.train import TrainingError

    return failure_words(exc, worded=(LearningError, ModelDirError, TrainingError))


# --- reads -----------------------------------------------------------------


def models_dir() -> Path:
    """Where trained models live (``settings.LEARNING_MODELS_DIR``; default ``var/trained_models``)."""
    configured = getattr(settings, "LEARNING_MODELS_DIR", None)
    return Path(configured) if configured else Path(settings.BASE_DIR) / "var" / "trained_models"


def base_model_dir() -> str | None:
    """The configured base model directory (``settings.LEARNING_BASE_MODEL``), or None
    for the packaged MiniLM default."""
    return getattr(settings, "LEARNING_BASE_MODEL", "") or None


def gold_transcripts():
    return Transcript.objects.filter(state__in=GOLD_STATES, double_of__isnull=True).order_by("pk")


def learning_gold_from_approved() -> list[GoldDoc]:
    """Gold documents from approved and released transcripts (accepted + added spans)."""
    from annotations.services.export import gold_docs

    # Name parts, as the detectors store PERSON (the training data as before whole
    # mentions became the export's default).
    return gold_docs(transcripts=gold_transcripts(), name_parts=True)


def trained_model_list(*, limit: int = 50):
    return TrainedModel.objects.select_related("created_by", "job")[:limit]


def training_job_active() -> Job | None:
    """The training job queued or running now, if any (one at a time)."""
    return (
        Job.objects.filter(kind=Job.Kind.TRAIN, status__in=[Job.Status.QUEUED, Job.Status.RUNNING])
        .order_by("-created_at")
        .first()
    )


def training_job_latest() -> Job | None:
    return Job.objects.filter(kind=Job.Kind.TRAIN).order_by("-created_at").first()


def current_model_dir() -> Path:
    """The link ``trained_models/current`` (point a detector's ``model_dir`` at it)."""
    return models_dir() / CURRENT_LINK


# --- writes ----------------------------------------------------------------


def _config(*, out_dir: str, epochs: int, labels, seed: int, base_model: str | None, **extra):
    from engine.learning.train import TrainConfig

    return TrainConfig(
        out_dir=out_dir,
        base_model=base_model,
        labels=tuple(labels) if labels else None,
        epochs=epochs,
        seed=seed,
        **extra,
    )


@transaction.atomic
def trained_model_create(
    *,
    path: str,
    source: str,
    epochs: int,
    seed: int,
    labels: list[str] | None = None,
    base_model: str | None = None,
    user=None,
) -> TrainedModel:
    """A history row for a training that starts now in this process (the command).
    One training at a time (the ``trained_model_one_training`` constraint): refused with
    ``LearningError`` while another is queued or training."""
    try:
        with transaction.atomic():
            model = TrainedModel.objects.create(
                status=TrainedModel.Status.TRAINING,
                path=path,
                source=source,
                base_model=base_model or "",
                labels=list(labels or []),
                epochs=epochs,
                seed=seed,
                created_by=user if getattr(user, "is_authenticated", False) else None,
            )
    except IntegrityError:
        raise LearningError(
            "A training is already queued or running; wait for it to end or cancel it."
        ) from None
    # A job of its own, run in this process: its progress is the row's heartbeat, so a
    # killed command's row is ended by the stale-job sweep, never "Training" forever.
    job = jobs.job_create(kind=Job.Kind.TRAIN, user=model.created_by, message="Training (command)")
    Job.objects.filter(pk=job.pk).update(status=Job.Status.RUNNING, heartbeat_at=timezone.now())
    model.job = job
    model.save(update_fields=["job"])
    audit_record(
        actor=user,
        event_type="detector_training_started",
        after={"trained_model": model.pk, "source": source, "epochs": epochs, "seed": seed},
    )
    return model


@transaction.atomic
def trained_model_finish(*, model: TrainedModel, result, user=None) -> TrainedModel:
    """Record a finished training's figures; the model becomes ``ready``."""
    best = result.best_metrics or {}
    model.status = TrainedModel.Status.READY
    model.labels = list(result.labels)
    model.train_documents = result.n_train_docs
    model.heldout_documents = result.n_val_docs
    model.best_epoch = result.best_epoch
    model.metrics = {
        "overall": best.get("overall", {}),
        "labels": best.get("labels", {}),
        "held_out": result.held_out,
        "device": result.device,
    }
    model.history = [
        {
            "epoch": h["epoch"],
            "train_loss": round(h["train_loss"], 5),
            "exact_f1": h["overall"]["exact"]["f1"],
            "token_f1": h["overall"]["token"]["f1"],
        }
        for h in result.history
    ]
    model.training_seconds = result.elapsed_s
    model.trained_at = timezone.now()
    model.error = ""
    model.save()
    audit_record(
        actor=user,
        event_type="detector_trained",
        after={
            "trained_model": model.pk,
            "train_documents": model.train_documents,
            "exact_f1": model.f1,
        },
    )
    return model


@transaction.atomic
def trained_model_fail(*, model: TrainedModel, error: str, user=None) -> TrainedModel:
    model.status = TrainedModel.Status.FAILED
    model.error = error[:2000]
    model.save(update_fields=["status", "error"])
    audit_record(
        actor=user, event_type="detector_training_failed", after={"trained_model": model.pk}
    )
    return model


def current_link_update(*, path: str | Path) -> Path:
    """Point ``trained_models/current`` at ``path`` (atomic rename of a fresh link)."""
    link = current_model_dir()
    link.parent.mkdir(parents=True, exist_ok=True)
    tmp = link.with_name(f".{CURRENT_LINK}-{os.getpid()}")
    if tmp.is_symlink() or tmp.exists():
        tmp.unlink()
    os.symlink(os.path.abspath(path), tmp)
    os.replace(tmp, link)
    return link


def trained_model_train(
    *,
    model: TrainedModel,
    docs: list[GoldDoc],
    user=None,
    progress=None,
    activate: bool = False,
    **options,
) -> TrainedModel:
    """Train ``model`` on ``docs`` in this process (long: no transaction around it).

    ``options`` are extra :class:`~engine.learning.train.TrainConfig` fields.
    With ``activate``, ``trained_models/current`` then points at the new model.
    """
    from engine.learning.train import train

    # settings.LEARNING_TRAIN_OPTIONS: defaults for any TrainConfig field
    # (e.g. {"batch_size": 32, "threads": 2}); explicit options win.
    defaults = dict(getattr(settings, "LEARNING_TRAIN_OPTIONS", {}) or {})
    options = {**defaults, **{k: v for k, v in options.items() if v is not None}}
    config = _config(
        out_dir=model.path,
        epochs=model.epochs,
        labels=model.labels,
        seed=model.seed,
        base_model=model.base_model or None,
        **options,
    )
    try:
        result = train(docs, config, progress=_with_heartbeat(model, progress))
    except BaseException as exc:  # Ctrl-C too: the row ends failed, with its reason
        words = (
            "Interrupted before the end."
            if isinstance(exc, KeyboardInterrupt | SystemExit)
            else _failure_words(exc)
        )
        trained_model_fail(model=model, error=words, user=user)
        if model.job_id:
            jobs.job_fail(job_id=model.job_id, error=f"Training failed: {words}")
        raise
    model = trained_model_finish(model=model, result=result, user=user)
    if model.job_id:
        jobs.job_finish(job_id=model.job_id, message=f"Model {model.pk} ready")
    if activate:
        current_link_update(path=model.path)
    return model


def _with_heartbeat(model: TrainedModel, progress):
    """``progress`` that also beats the row's job (at most once a second)."""
    if not model.job_id:
        return progress
    last = [0.0]

    def report(event: Progress) -> None:
        if progress is not None:
            progress(event)
        now = time.monotonic()
        if now - last[0] >= 1.0:
            last[0] = now
            jobs.job_progress(
                job_id=model.job_id, progress=event.percent, message=event.message or "Training"
            )

    return report


def trained_models_fail_for_job(*, job) -> int:
    """A training job was failed from outside its task (the stale sweep, a cancel, a
    lost connection): its model row says so instead of "training" forever.
    Registered as ``transcripts.hooks.job_failed``; returns how many rows changed."""
    return TrainedModel.objects.filter(
        job_id=job.pk, status__in=[TrainedModel.Status.QUEUED, TrainedModel.Status.TRAINING]
    ).update(status=TrainedModel.Status.FAILED, error=job.error or job.message)


ORPHANED = "The training stopped before its end (its job ended without it); start it again."


def domain_row_queue(*, user, **fields) -> TrainedModel:
    """A queued domain-model row (a retraining, a registration) inserted under the
    ``trained_model_one_training`` constraint (one row queued or training): of two
    concurrent requests the database lets one in and refuses the other, which raises
    ``LearningError`` with a sentence. Rows whose job already ended are closed first."""
    if training_job_active() is not None:
        raise LearningError(ALREADY)
    trained_models_close_orphans()
    try:
        with transaction.atomic():  # a savepoint: the refusal leaves the caller's transaction
            return TrainedModel.objects.create(
                kind=TrainedModel.Kind.DOMAIN,
                status=TrainedModel.Status.QUEUED,
                epochs=0,
                created_by=user if getattr(user, "is_authenticated", False) else None,
                **fields,
            )
    except IntegrityError:
        raise LearningError(ALREADY) from None


def trained_models_close_orphans() -> int:
    """Rows still "queued" or "training" whose job has ended (or that never had one and
    whose process is gone: ``train_detector`` rows carry a job too) end as failed with
    the job's reason: nothing stays "Training" forever. Returns how many."""
    open_rows = TrainedModel.objects.filter(
        status__in=[TrainedModel.Status.QUEUED, TrainedModel.Status.TRAINING]
    ).exclude(job__status__in=[Job.Status.QUEUED, Job.Status.RUNNING])
    changed = 0
    for row in open_rows.select_related("job"):
        reason = (row.job.error or row.job.message) if row.job else ""
        changed += TrainedModel.objects.filter(
            pk=row.pk, status__in=[TrainedModel.Status.QUEUED, TrainedModel.Status.TRAINING]
        ).update(status=TrainedModel.Status.FAILED, error=reason or ORPHANED)
    return changed
