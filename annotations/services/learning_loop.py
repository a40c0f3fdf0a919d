"""Learning from the reviewers in the background: the domain model
(``engine.learning.domain``, spaCy on the CPU) retrained on the shipped recipe's data
plus the approved gold, made active only when it beats the active one on held-out gold
it was not selected on by more than the figure's noise, and rolled back in one click.

- **Which model the ensemble reads**: the active ``TrainedModel`` of kind ``domain``
  (at most one, a database constraint), else the model shipped in the repository.
  ``active_domain_dir`` is read once per annotation job (one small query);
  ``annotations.services.annotation`` keeps one loaded detector per model directory.
- **Held-out gold** (``learning_gate``): one approved transcript in five, chosen by its
  id, never trains any model. The held-out documents form two disjoint sets: the
  *selection* set picks the trainer's best epoch, the *gate* set decides activation
  (generated hearings of other seeds, and the other half of the held-out approved
  transcripts), so a retraining that starts from the active model is not judged on the
  documents it was selected on.
- **The gate** (``engine.learning.gate.gate_decide``): activation needs a strict
  improvement of exact micro F1 on the gate set whose bootstrap interval over documents
  lies above 0, a minimum number of gold mentions, and no group worse; a tie keeps the
  active model.
- **One training at a time**: a database constraint (``trained_model_one_training``) allows
  one queued or training row; ``learning_queue.retrain_start`` refuses a second in words.
- **Stops when asked**: the training thread runs ``watching`` a callback whose check
  raises once the job was cancelled; the data preparation, every batch and every
  scoring pass call it, and the worker waits at most ``JOIN_S`` for the thread.
- **No half-written model**: training writes ``model-<id>.partial/``; only a model that
  finished and was scored is renamed to ``model-<id>/`` (one rename). A cancelled,
  failed or interrupted run removes its partial directory and ends ``failed`` with its
  reason; a killed worker's run is ended by the stale-job sweep
  (``learning.trained_models_fail_for_job``) and its partial directory removed by the
  next run.

The queue side (``retrain_start``, retraining after approvals) is
``annotations.services.learning_queue``; the task is ``annotations.tasks``.
"""

from __future__ import annotations

import logging
import os
import shutil
import time
from pathlib import Path

from django.db import DatabaseError, transaction
from django.utils import timezone

from annotations.models import TrainedModel
from annotations.services import learning_gate
from annotations.services.learning import (
    LearningError,
    _failure_words,
    models_dir,
)
from annotations.services.learning_gate import approved_sets, is_held_out  # noqa: F401 (API)
from annotations.services.learning_thread import JOIN_S, training_niceness  # noqa: F401 (API)
from annotations.services.learning_thread import niced as _niced
from annotations.services.learning_thread import reporter as _reporter
from anonreview.core.audit import audit_record
from engine.gold import GoldDoc
from engine.progress import Cancelled, checkpoint, watching
from transcripts.services import jobs

logger = logging.getLogger(__name__)

DOMAIN = TrainedModel.Kind.DOMAIN
PARTIAL = ".partial"


# --- the engine's domain trainer (engine.learning.domain, engine.detectors.domain) -----


def _domain():
    """The engine's trainer and detector as one namespace (a test stands in for it)."""
    from types import SimpleNamespace

    from engine.detectors import domain as detector
    from engine.learning import domain as trainer

    return SimpleNamespace(
        DomainConfig=trainer.DomainConfig,
        train_domain=trainer.train_domain,
        DomainDetector=detector.DomainDetector,
        recipe_docs=_generated_recipe_docs,
        shipped=str(detector.SHIPPED_MODEL),
    )


def _generated_recipe_docs() -> tuple[list[GoldDoc], list[GoldDoc], list[GoldDoc]]:
    """The recipe's generated hearings (training, selection, gate): the shipped model's
    recipe (``engine.learning.domain_recipe``: its seeds, families and words) and its gate
    hearings, sized by ``settings.LEARNING_RECIPE`` (``hearings``, ``dev``, ``gate``,
    ``words``); or, where that names ``seeds``, those bph hearings (the last one in five
    for the gate, the one in five before them for the selection)."""
    from django.conf import settings

    from engine.learning import domain_recipe

    recipe = dict(getattr(settings, "LEARNING_RECIPE", {}) or {})
    if recipe.get("seeds"):
        from engine.synthetic import generate_hearing

        words = int(recipe.get("words") or 3000)
        docs = []
        for seed in recipe["seeds"]:
            checkpoint()
            docs.append(generate_hearing(int(seed), words=words).gold)
        n = max(1, len(docs) // 5) if len(docs) > 2 else 0
        train = docs[: len(docs) - 2 * n] if n else docs
        return train, docs[len(train) : len(train) + n], docs[len(train) + n :]
    words = int(recipe.get("words") or domain_recipe.WORDS)
    train, dev = domain_recipe.recipe_docs(
        hearings=int(recipe.get("hearings") or domain_recipe.HEARINGS),
        dev=int(recipe.get("dev") or domain_recipe.DEV_HEARINGS),
        words=words,
    )
    gate = domain_recipe.gate_docs(int(recipe.get("gate") or domain_recipe.GATE_HEARINGS), words)
    return train, dev, gate


def recipe_docs() -> tuple[list[GoldDoc], list[GoldDoc], list[GoldDoc]]:
    """The shipped recipe's training, selection and gate documents (generated hearings)."""
    train, selection, gate = _domain().recipe_docs()
    return list(train), list(selection), list(gate)


def domain_config(*, out_dir: str, seed: int, start_from: str | None = None):
    """The shipped model's recipe (its ``training.json``: batch size, epochs, time limit,
    ...), started from ``start_from`` (the active model's, else the shipped model's:
    trained on our domain already), every label the gold holds
    (``engine.learning.domain.retrain_config``); then ``settings.LEARNING_DOMAIN_OPTIONS``
    (any ``DomainConfig`` field, e.g. ``{"max_seconds": 300}``) over both. Without a
    readable shipped record, the options alone."""
    import dataclasses

    from django.conf import settings

    domain = _domain()
    options = dict(getattr(settings, "LEARNING_DOMAIN_OPTIONS", {}) or {})
    try:
        from engine.learning.domain import retrain_config

        return retrain_config(
            domain.shipped,
            out_dir=out_dir,
            seed=seed,
            start_from=start_from,
            every_label=True,
            config_class=domain.DomainConfig,
            **options,
        )
    except (OSError, ValueError, ImportError, AttributeError):
        fields = {f.name for f in dataclasses.fields(domain.DomainConfig)}
        merged = {**options, "out_dir": out_dir, "seed": seed}
        return domain.DomainConfig(**{k: v for k, v in merged.items() if k in fields})


def domain_train(train: list[GoldDoc], dev: list[GoldDoc], *, config, progress):
    return _domain().train_domain(train, dev, config=config, progress=progress)


def domain_detector(model_dir: str | None):
    return _domain().DomainDetector(model_dir) if model_dir else _domain().DomainDetector()


def _forget(model_dir: str) -> None:
    """Let go of a model loaded only to be scored (the detector keeps one per path)."""
    try:
        from engine.detectors.domain import unload_domain_model
    except ImportError:  # spaCy missing: nothing was loaded
        return
    unload_domain_model(model_dir)


# --- reads -------------------------------------------------------------------------


def active_model() -> TrainedModel | None:
    return TrainedModel.objects.filter(active=True, kind=DOMAIN).first()


def active_domain_dir() -> str | None:
    """The directory of the domain model the ensemble reads: the active model's, else
    ``None`` (the detector's own default, the shipped model). A database that cannot be
    read (a headless run before ``migrate``) means the shipped model, and so does a
    call while the apps load (a worker's preload reads no database)."""
    from django.apps import apps

    if not apps.ready:
        return None
    try:
        path = (
            TrainedModel.objects.filter(active=True, kind=DOMAIN)
            .values_list("path", flat=True)
            .first()
        )
    except DatabaseError:
        return None
    return path or None


def domain_counts(model_dir: str | None, groups: dict[str, list[GoldDoc]]) -> list:
    """The domain model alone on every document of ``groups``: per-document exact counts
    (``engine.learning.gate.DocCounts``), what the gate reads."""
    from engine.detectors.base import Document

    detector = domain_detector(model_dir)
    return learning_gate.model_counts(lambda doc: detector.detect(Document(doc.text, {})), groups)


# --- activation and rollback -------------------------------------------------------


@transaction.atomic
def trained_model_activate(*, model: TrainedModel, user=None, reason: str = "") -> TrainedModel:
    """Make ``model`` (a ready domain model) the one the ensemble reads."""
    locked = TrainedModel.objects.select_for_update().get(pk=model.pk)
    if locked.kind != DOMAIN or locked.status != TrainedModel.Status.READY:
        raise LearningError("Only a ready domain model can become active.")
    before = active_model()
    TrainedModel.objects.filter(active=True).exclude(pk=locked.pk).update(active=False)
    locked.active = True
    locked.activated_at = timezone.now()
    locked.save(update_fields=["active", "activated_at"])
    audit_record(
        actor=user,
        event_type="detector_activated",
        before={"trained_model": before.pk if before else None},
        after={"trained_model": locked.pk, "reason": reason[:200]},
    )
    return locked


@transaction.atomic
def trained_model_rollback(*, user) -> TrainedModel | None:
    """One click back: the active model steps down and the model active before it
    (the latest activated other ready model) takes its place, else the shipped model.
    Returns the model now active (``None``: the shipped one)."""
    current = TrainedModel.objects.select_for_update().filter(active=True, kind=DOMAIN).first()
    if current is None:
        raise LearningError("The shipped model is active: there is nothing to roll back.")
    previous = (
        TrainedModel.objects.filter(
            kind=DOMAIN,
            status=TrainedModel.Status.READY,
            activated_at__isnull=False,
            activated_at__lt=current.activated_at,
        )
        .exclude(pk=current.pk)
        .order_by("-activated_at", "-pk")
        .first()
    )
    current.active = False
    # Rolled back: it is no longer anyone's "previous" model either.
    current.activated_at = None
    current.save(update_fields=["active", "activated_at"])
    if previous is not None:
        previous.active = True
        previous.save(update_fields=["active"])
    audit_record(
        actor=user,
        event_type="detector_rolled_back",
        before={"trained_model": current.pk},
        after={"trained_model": previous.pk if previous else None},
    )
    return previous


# --- the retraining job --------------------------------------------------------------


def _partial(model: TrainedModel) -> Path:
    return Path(model.path + PARTIAL)


def partial_dirs_remove(*, keep: set[str] | None = None) -> int:
    """Remove half-written model directories left by a killed run (none is running:
    one training at a time). Returns how many."""
    removed = 0
    base = models_dir()
    if not base.is_dir():
        return 0
    # ours (model-N.partial) and the trainer's own temporary directories beside them
    for path in [*base.glob(f"*{PARTIAL}"), *base.glob(f".*{PARTIAL}.tmp-*")]:
        if keep and str(path) in keep:
            continue
        shutil.rmtree(path, ignore_errors=True)
        removed += 1
    return removed


def _stopped_words(exc: BaseException) -> str:
    if isinstance(exc, Cancelled):
        return "Stopped: the job was cancelled or failed meanwhile; nothing was kept."
    if isinstance(exc, KeyboardInterrupt | SystemExit):
        return "Interrupted before the end; nothing was kept."
    return _failure_words(exc)


def domain_retrain(
    *, model: TrainedModel, progress=None, job_id: int | None = None
) -> TrainedModel:
    """Train ``model`` (a row of kind ``domain``) now, in this process, select its best
    epoch on the selection set, run it and the active model on the gate set, keep it only
    when it finished, and activate it when the gate says so (``learning_gate``). Any stop
    (an error, a cancel, Ctrl-C) fails the row with its reason and removes what was
    written; the exception is raised again."""
    user = model.created_by
    partial = _partial(model)
    try:
        with watching(progress):
            partial_dirs_remove()
            recipe_train, recipe_selection, recipe_gate = recipe_docs()
            approved_train, approved_selection, approved_gate = approved_sets()
            groups = {"approved": approved_gate, "generated": recipe_gate}
            groups = {name: docs for name, docs in groups.items() if docs}
            selection = recipe_selection + approved_selection
            train = recipe_train + approved_train
            active_now = active_model()
            config = domain_config(
                out_dir=str(partial),
                seed=model.seed,
                start_from=active_now.path if active_now else None,
            )
        result = _niced(
            lambda relay: domain_train(train, selection, config=config, progress=relay),
            progress,
        )
        with watching(progress):
            if job_id is not None:
                jobs.job_progress(job_id=job_id, progress=92, message="Scoring on the gate set")
            trained_dir = str(getattr(result, "model_dir", "") or partial)
            new = domain_counts(trained_dir, groups)
            _forget(trained_dir)
            active = active_model()
            try:
                base = domain_counts(active.path if active else None, groups)
            except OSError:  # no model to compare with (none shipped in this checkout)
                base = None
            decision = learning_gate.model_gate(new, base)
            if job_id is not None:
                jobs.job_check(job_id=job_id)
        final = Path(model.path)
        if final.exists():
            shutil.rmtree(final)
        os.replace(trained_dir, final)
    except BaseException as exc:
        shutil.rmtree(partial, ignore_errors=True)
        trained_model_fail_domain(model=model, error=_stopped_words(exc), user=user)
        raise
    # the model of which proposals reviewers keep learns from the same approvals (seconds;
    # the next annotation would retrain it otherwise: annotations.services.keep_model)
    from annotations.services.keep_model import keep_model_current

    keep_model_current()
    return trained_model_finish_domain(
        model=model,
        result=result,
        decision=decision,
        groups=groups,
        selection=selection,
        base_model=active,
        train_documents=len(approved_train),
        user=user,
    )


def _training_record(model_dir: str, result) -> dict:
    """What the trainer wrote (``training.json``), else what it returned: the row reads
    its epochs and best epoch from the same place as the file."""
    try:
        from engine.learning.domain import read_training

        record = read_training(model_dir)
    except (OSError, ValueError, ImportError):
        record = {}
    history = list(record.get("history") or getattr(result, "history", []) or [])
    epochs = record.get("epochs")
    if epochs is None:
        epochs = sum(1 for h in history if int(h.get("epoch", 1)) > 0)
    best = record.get("best_epoch", getattr(result, "best_epoch", 0))
    return {"history": history, "epochs": int(epochs or 0), "best_epoch": int(best or 0)}


@transaction.atomic
def trained_model_fail_domain(*, model: TrainedModel, error: str, user=None) -> None:
    TrainedModel.objects.filter(
        pk=model.pk, status__in=[TrainedModel.Status.QUEUED, TrainedModel.Status.TRAINING]
    ).update(status=TrainedModel.Status.FAILED, error=error[:2000])
    audit_record(
        actor=user, event_type="detector_training_failed", after={"trained_model": model.pk}
    )


@transaction.atomic
def trained_model_finish_domain(
    *, model, result, decision, groups, selection, base_model, train_documents, user=None
) -> TrainedModel:
    """Record a finished retraining (both figures with their sizes: the selection set's
    best epoch and the gate's comparison) and activate it when the gate says so (one
    transaction)."""
    model.refresh_from_db()
    record = _training_record(model.path, result)
    gate = decision.as_dict()
    figures = dict(getattr(result, "figures", {}) or {})
    model.status = TrainedModel.Status.READY
    model.metrics = {
        # the gate's figure is the model's F1 (``TrainedModel.f1``)
        "overall": {"exact": {"f1": decision.candidate_f1}},
        "gate": gate,
        "selection": {
            "f1": (figures.get("overall") or {}).get("exact", {}).get("f1"),
            "best_epoch": record["best_epoch"],
            **learning_gate.sizes(selection),
            "overall": figures.get("overall") or {},
        },
        "labels": figures.get("labels") or {},  # the best epoch's, on the selection set
        "held_out": "+".join(groups) or "none",
    }
    model.baseline = {
        "overall": {"exact": {"f1": decision.active_f1}},
        "model": base_model.pk if base_model else None,
        "held_out": "+".join(groups) or "none",
    }
    model.train_documents = train_documents
    model.heldout_documents = decision.documents
    model.epochs = record["epochs"]
    model.best_epoch = record["best_epoch"]
    model.history = record["history"][:200]
    model.training_seconds = float(getattr(result, "training_s", 0.0) or 0.0)
    model.trained_at = timezone.now()
    model.error = ""
    was = f"model {base_model.pk}" if base_model else "the shipped model"
    model.decision = (f"{learning_gate.decision_words(decision, groups)} (the active one: {was})")[
        :300
    ]
    model.save()
    audit_record(
        actor=user,
        event_type="detector_trained",
        after={
            "trained_model": model.pk,
            "exact_f1": decision.candidate_f1,
            "baseline_f1": decision.active_f1,
            "activate": decision.activate,
        },
    )
    if decision.activate:
        model = trained_model_activate(model=model, user=user, reason=decision.reason)
    return model


def domain_retrain_job(*, job_id: int, trained_model_id: int) -> None:
    """The background job (``annotations.tasks.retrain_domain_task``)."""
    jobs.job_start(job_id=job_id, message="Collecting the gold data")
    model = TrainedModel.objects.select_related("created_by").get(pk=trained_model_id)
    TrainedModel.objects.filter(pk=model.pk, status=TrainedModel.Status.QUEUED).update(
        status=TrainedModel.Status.TRAINING
    )
    started = time.monotonic()
    try:
        model = domain_retrain(model=model, progress=_reporter(job_id, started), job_id=job_id)
    except Cancelled:
        raise  # jobs.job_run: the job was ended by whoever stopped it
    except Exception as exc:
        logger.warning("retraining job %s failed: %s", job_id, type(exc).__name__)
        jobs.job_fail(job_id=job_id, error=f"Training failed: {_stopped_words(exc)}")
        return
    jobs.job_finish(
        job_id=job_id,
        message=model.decision[:255],
        result={"trained_model": model.pk, "exact_f1": model.f1, "active": model.active},
    )
