"""Learning from the reviewers in the background (issue 30): the domain model
(``engine.learning.domain``, spaCy on the CPU) retrained on the shipped recipe's data
plus the approved gold, made active only when it is not worse than the active one on
held-out gold, and rolled back in one click.

- **Which model the ensemble reads**: the active ``TrainedModel`` of kind ``domain``
  (at most one, a database constraint), else the model shipped in the repository.
  ``active_domain_dir`` is read once per annotation job (one small query);
  ``annotations.services.annotation`` keeps one loaded detector per model directory.
- **Held-out gold**: one approved transcript in five, chosen by its id
  (``is_held_out``: every fifth id), never trains any model, so that every model is compared on gold it
  has not seen. While no approved transcript is held out, the recipe's own held-out
  hearings (generated) are the comparison, and the page says so.
- **Not worse**: the new model's exact micro F1 on that gold, rounded to three decimals,
  is at least the active model's (measured in the same run on the same documents).
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
import queue
import shutil
import threading
import time
from pathlib import Path

from django.db import DatabaseError, transaction
from django.utils import timezone

from annotations.models import TrainedModel
from annotations.services.learning import (
    LearningError,
    _failure_words,
    gold_transcripts,
    models_dir,
)
from anonreview.core.audit import audit_record
from engine.gold import GoldDoc
from engine.progress import Cancelled, Progress
from transcripts.services import jobs

logger = logging.getLogger(__name__)

DOMAIN = TrainedModel.Kind.DOMAIN
HELD_OUT_ONE_IN = 5
PARTIAL = ".partial"
PRIORITY = 19  # the training thread's niceness: it yields to the web server and annotation


def training_niceness() -> int:
    """The niceness the training thread lowers itself to: ``settings.LEARNING_TRAINING_NICE``
    (default 19, the lowest priority). The tests keep their own priority (0): a thread at 19
    beside busy processes at 0 gets almost no CPU, and a tiny training took minutes."""
    from django.conf import settings

    return int(getattr(settings, "LEARNING_TRAINING_NICE", PRIORITY))


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
        recipe_docs=getattr(trainer, "recipe_docs", None) or _generated_recipe_docs,
        shipped=str(detector.SHIPPED_MODEL),
    )


def _generated_recipe_docs() -> tuple[list[GoldDoc], list[GoldDoc]]:
    """The recipe's generated hearings: the shipped model's recipe
    (``engine.learning.domain_recipe``: its seeds, families and words), sized by
    ``settings.LEARNING_RECIPE`` (``hearings``, ``dev``, ``words``); or, where that names
    ``seeds``, those bph hearings (one in five held out)."""
    from django.conf import settings

    from engine.learning import domain_recipe

    recipe = dict(getattr(settings, "LEARNING_RECIPE", {}) or {})
    if recipe.get("seeds"):
        from engine.synthetic import generate_hearing

        words = int(recipe.get("words") or 3000)
        docs = [generate_hearing(int(seed), words=words).gold for seed in recipe["seeds"]]
        n_dev = max(1, len(docs) // 5) if len(docs) > 1 else 0
        return docs[: len(docs) - n_dev], docs[len(docs) - n_dev :]
    return domain_recipe.recipe_docs(
        hearings=int(recipe.get("hearings") or domain_recipe.HEARINGS),
        dev=int(recipe.get("dev") or domain_recipe.DEV_HEARINGS),
        words=int(recipe.get("words") or domain_recipe.WORDS),
    )


def recipe_docs() -> tuple[list[GoldDoc], list[GoldDoc]]:
    """The shipped recipe's training and held-out documents (generated hearings)."""
    train, dev = _domain().recipe_docs()
    return list(train), list(dev)


def domain_config(*, out_dir: str, seed: int, start_from: str | None = None):
    """The shipped model's recipe (its ``training.json``: batch size, epochs, time limit,
    ...), started from ``start_from`` (the active model's, else the shipped model's:
    trained on our domain already): its head, on the base's frozen vectors, or its
    fine-tuned ``tok2vec`` for a model of the older kind; then
    ``settings.LEARNING_DOMAIN_OPTIONS`` (any ``DomainConfig`` field, e.g.
    ``{"max_seconds": 300}``) over both."""
    import dataclasses

    from django.conf import settings

    domain = _domain()
    fields = {f.name for f in dataclasses.fields(domain.DomainConfig)}
    recipe: dict = {}
    try:
        from engine.learning.domain import read_training

        shipped = read_training(domain.shipped)
        recipe = {k: v for k, v in (shipped.get("recipe") or {}).items() if k in fields}
        recipe.pop("labels", None)  # every label the gold holds
        start = start_from or domain.shipped
        if recipe.get("frozen", False):
            # the base's frozen ner vectors (what the shared parse computes); the head
            # starts from the active model's (the shipped one's) where the labels match
            recipe["head_from"] = start
        else:  # a model of the older kind: its tok2vec, fine-tuned again
            recipe["frozen"] = False
            if Path(start, "tok2vec").is_dir():
                recipe["base"] = start
    except (OSError, ValueError, ImportError, AttributeError):
        pass
    options = dict(getattr(settings, "LEARNING_DOMAIN_OPTIONS", {}) or {})
    merged = {**recipe, **options, "out_dir": out_dir, "seed": seed}
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


def is_held_out(transcript_id: int) -> bool:
    """Whether an approved transcript is held out of every training: every fifth id
    (stable whatever is approved later; the fifth approval of a new installation is the
    first held out)."""
    return transcript_id % HELD_OUT_ONE_IN == 0


def approved_split() -> tuple[list[GoldDoc], list[GoldDoc]]:
    """(training, held-out) gold of the approved transcripts, whole mentions,
    double-annotation copies excluded (``learning.gold_transcripts``)."""
    from annotations.services.export import gold_docs

    transcripts = list(gold_transcripts())
    held = [t for t in transcripts if is_held_out(t.pk)]
    train = [t for t in transcripts if not is_held_out(t.pk)]
    return gold_docs(transcripts=train), gold_docs(transcripts=held)


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


def domain_score(model_dir: str | None, docs: list[GoldDoc]) -> dict:
    """The domain model alone on ``docs``: exact and token P/R/F1 (``evaluate``'s)."""
    from engine.detectors.base import Document
    from engine.evaluation import evaluate_documents

    detector = domain_detector(model_dir)
    preds = {doc.id: list(detector.detect(Document(doc.text, {}))) for doc in docs}
    scored = evaluate_documents(docs, preds)
    return {"overall": scored["overall"], "labels": scored["labels"], "documents": len(docs)}


def _f1(figures: dict) -> float:
    return round(float(figures["overall"]["exact"]["f1"]), 3)


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


def _clock(seconds: float) -> str:
    seconds = int(max(0, seconds))
    return f"{seconds // 60}:{seconds % 60:02d}"


def _reporter(job_id: int, started: float):
    """The trainer's progress → the job's bar (5-90 %) with elapsed time and ETA, at most
    once a second; a cancelled job raises ``JobStopped`` here (the cancellation point)."""
    last = [0.0]

    def report(progress: Progress) -> None:
        now = time.monotonic()
        if now - last[0] < 1.0 and progress.fraction < 1.0:
            return
        last[0] = now
        elapsed = now - started
        fraction = progress.fraction
        eta = (
            f" · about {_clock(elapsed * (1 - fraction) / fraction)} left"
            if fraction > 0.02
            else ""
        )
        words = progress.message or "Training"
        if "elapsed" not in words:  # the trainer's own line says it already
            words = f"{words} · {_clock(elapsed)} elapsed{eta}"
        jobs.job_progress(job_id=job_id, progress=5 + int(85 * fraction), message=words)

    return report


def _niced(work, progress):
    """Run ``work(relay)`` in a thread of its own at the lowest CPU priority (Linux: a
    niceness belongs to a thread, and only this thread is lowered). Its progress reports
    are handed to ``progress`` here, in the calling thread (which holds the database
    connection); when ``progress`` raises (a cancelled job), the training thread stops at
    its next report and that exception is raised here. The thread's own exception is
    raised here too."""
    reports: queue.SimpleQueue = queue.SimpleQueue()
    stop = threading.Event()
    box: dict = {}

    def relay(report: Progress) -> None:
        if stop.is_set():
            raise Cancelled("the job was stopped")
        reports.put(report)

    niceness = training_niceness()

    def run() -> None:
        try:
            if hasattr(os, "setpriority"):
                try:
                    tid = threading.get_native_id()
                    if os.getpriority(os.PRIO_PROCESS, tid) < niceness:
                        os.setpriority(os.PRIO_PROCESS, tid, niceness)
                except OSError:
                    pass
            box["result"] = work(relay)
        except BaseException as exc:  # handed to the caller
            box["error"] = exc

    thread = threading.Thread(target=run, name="domain-training", daemon=True)
    thread.start()
    stopped: BaseException | None = None
    while thread.is_alive() or not reports.empty():
        try:
            report = reports.get(timeout=0.2)
        except queue.Empty:
            continue
        if stopped is None and progress is not None:
            try:
                progress(report)
            except BaseException as exc:  # noqa: BLE001 (a cancel, or the caller's error)
                stopped = exc
                stop.set()
    thread.join()
    if stopped is not None:
        raise stopped
    if "error" in box:
        raise box["error"]
    return box["result"]


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
    """Train ``model`` (a row of kind ``domain``) now, in this process, score it and the
    active model on the held-out gold, keep it only when it finished, and activate it when
    it is not worse. Any stop (an error, a cancel, Ctrl-C) fails the row with its reason
    and removes what was written; the exception is raised again."""
    user = model.created_by
    partial = _partial(model)
    try:
        partial_dirs_remove()
        recipe_train, recipe_dev = recipe_docs()
        approved_train, approved_held = approved_split()
        # Both models are compared on the approved held-out gold and on the recipe's
        # held-out hearings (every layout family in turn): not worse on either.
        groups = {"approved": approved_held, "generated": recipe_dev}
        groups = {name: docs for name, docs in groups.items() if docs}
        held_what = "+".join(groups) or "none"
        train = recipe_train + approved_train
        active_now = active_model()
        config = domain_config(
            out_dir=str(partial),
            seed=model.seed,
            start_from=active_now.path if active_now else None,
        )
        result = _niced(
            lambda relay: domain_train(train, recipe_dev, config=config, progress=relay),
            progress,
        )
        if job_id is not None:
            jobs.job_progress(job_id=job_id, progress=92, message="Scoring on held-out gold")
        trained_dir = str(getattr(result, "model_dir", "") or partial)
        new = _scores(trained_dir, groups)
        _forget(trained_dir)
        active = active_model()
        try:
            base = _scores(active.path if active else None, groups)
        except OSError:  # no model to compare with (none shipped in this checkout)
            base = {"overall": {"exact": {"f1": 0.0}}, "labels": {}, "missing": True, "groups": {}}
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
    return trained_model_finish_domain(
        model=model,
        result=result,
        new=new,
        base=base,
        base_model=active,
        held_what=held_what,
        train_documents=len(approved_train),
        user=user,
    )


def _scores(model_dir: str | None, groups: dict[str, list[GoldDoc]]) -> dict:
    """Figures on every held-out document, with each group's own (``groups``: F1 and
    documents per group)."""
    docs = [doc for group in groups.values() for doc in group]
    figures = domain_score(model_dir, docs)
    figures["groups"] = {}
    for name, group in groups.items():
        alone = domain_score(model_dir, group) if len(groups) > 1 else figures
        figures["groups"][name] = {"f1": _f1(alone), "documents": len(group)}
    return figures


def _not_worse(new: dict, base: dict) -> bool:
    """Not worse on each group of held-out gold (rounded to three decimals)."""
    if base.get("missing"):
        return True
    return all(
        figures["f1"] >= base["groups"].get(name, {}).get("f1", 0.0)
        for name, figures in new["groups"].items()
    )


def _group_words(new: dict, base: dict) -> str:
    names = {"approved": "held-out approved transcript", "generated": "held-out generated hearing"}
    parts = []
    for name, figures in new["groups"].items():
        n = figures["documents"]
        other = base.get("groups", {}).get(name, {}).get("f1")
        against = f" against {other:.3f}" if other is not None else ""
        parts.append(f"{figures['f1']:.3f}{against} on {n} {names[name]}{'s' if n != 1 else ''}")
    return "; ".join(parts)


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
    *, model, result, new, base, base_model, held_what, train_documents, user=None
) -> TrainedModel:
    """Record a finished retraining and activate it when not worse (one transaction)."""
    model.refresh_from_db()
    model.status = TrainedModel.Status.READY
    model.metrics = {**new, "held_out": held_what}
    model.baseline = {
        **base,
        "model": base_model.pk if base_model else None,
        "held_out": held_what,
    }
    model.train_documents = train_documents
    model.heldout_documents = new["documents"]
    model.history = list(getattr(result, "history", []) or [])[:200]
    model.training_seconds = float(getattr(result, "training_s", 0.0) or 0.0)
    model.trained_at = timezone.now()
    model.error = ""
    was = f"model {base_model.pk}" if base_model else "the shipped model"
    better = _not_worse(new, base)
    model.decision = (
        f"{'Activated' if better else 'Not activated'}: F1 {_group_words(new, base)} "
        f"(the active one: {was})"
    )[:300]
    model.save()
    audit_record(
        actor=user,
        event_type="detector_trained",
        after={"trained_model": model.pk, "exact_f1": _f1(new), "baseline_f1": _f1(base)},
    )
    if better:
        model = trained_model_activate(model=model, user=user, reason="not worse on held-out gold")
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
