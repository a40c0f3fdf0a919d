"""Bring a model back: a spaCy pipeline trained elsewhere goes through the same gate as a
retraining, and becomes the active domain model only when the gate says so.

A researcher trains with ``spacy train`` on the exported config and DocBins (or takes
the exported domain model away and fine-tunes it), then registers the result (the
``register_model`` command, or the Learning page's form). Registration:

1. **reads** the directory as a spaCy pipeline with entity labels of our schema
   (``engine.learning.scoring``: a ``ner`` component, our ``biluo`` tagger head, or an
   exported one), else refuses with a sentence;
2. **copies** it into the models folder (``models_dir()/registered-N``), so a later change
   to the outside folder changes nothing the ensemble reads;
3. **checks its checksum**: a ``training.json`` that records one must match the files
   (``verify_domain_model``: a tampered model is refused); one without a record gets the
   SHA-256 of the copy, recorded with ``source: registered``, and the detector verifies
   it at every load from then on;
4. **scores** it and the active model on the gate documents (the held-out approved
   transcripts and the recipe's gate hearings: disjoint from anything a retraining
   selects on) and decides with ``learning_gate.model_gate``: activated only on a strict
   improvement beyond the bootstrap's noise; a tie keeps the active model.

It is queued as a job like a retraining and counts as one: one at a time across every
worker (the ``trained_model_one_training`` constraint).
"""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from types import SimpleNamespace

from annotations.models import TrainedModel
from annotations.services import learning_gate
from annotations.services.learning import (
    LearningError,
    domain_row_queue,
    models_dir,
)
from annotations.services.learning_loop import (
    _forget,
    _reporter,
    active_model,
    domain_counts,
    recipe_docs,
    trained_model_fail_domain,
    trained_model_finish_domain,
)
from anonreview.core.audit import audit_record
from engine.labels import LABELS
from engine.progress import Cancelled, watching
from transcripts.models import Job
from transcripts.services import jobs

SOURCE = "registered"


def _check(path: Path) -> list[str]:
    """The labels of the pipeline at ``path``; ``LearningError`` with a sentence when it
    is no pipeline of ours to register."""
    from engine.learning.scoring import NotAModel, load_model, model_labels

    try:
        labels = model_labels(load_model(path))
    except NotAModel as exc:
        raise LearningError(f"Not registered: {exc}.") from exc
    unknown = sorted(set(labels) - set(LABELS))
    if not labels or unknown:
        raise LearningError(
            "Not registered: the model's labels are not ours "
            f"({', '.join(unknown) or 'none'}); it must give labels of the schema "
            f"({', '.join(LABELS)})."
        )
    return labels


def _verify_recorded(path: Path) -> None:
    """A model whose ``training.json`` records a SHA-256 must still hash to it."""
    from engine.learning.domain import read_training, weights_checksum

    try:
        recorded = read_training(path).get("checksum_sha256")
    except (OSError, ValueError, AttributeError):
        return
    if recorded and weights_checksum(path) != recorded:
        raise LearningError(
            f"Not registered: the model '{path.name}' does not match the SHA-256 its "
            "training recorded (its files changed after training)."
        )


def _record_checksum(copy: Path) -> str:
    """Verify the copy's recorded SHA-256, or record one (see the module docstring)."""
    from engine.detectors.domain import ModelChecksumError, verify_domain_model
    from engine.learning.domain import read_training, weights_checksum

    try:
        record = read_training(copy)
    except (OSError, ValueError):
        record = {}
    if record.get("checksum_sha256"):
        try:
            return verify_domain_model(copy)
        except ModelChecksumError as exc:
            raise LearningError(f"Not registered: {exc}") from exc
    digest = weights_checksum(copy)
    record.update({"source": SOURCE, "checksum_sha256": digest})
    (copy / "training.json").write_text(json.dumps(record, indent=2), encoding="utf-8")
    return digest


def model_register_start(*, path: str | Path, user) -> TrainedModel:
    """Check and copy the model at ``path`` and create its row and job; the caller runs
    the job (``learning_queue.register_queue`` queues it; the command runs it here)."""
    source = Path(path).expanduser()
    _verify_recorded(source)  # before anything reads the files
    labels = _check(source)
    model = domain_row_queue(user=user, source=SOURCE, trigger="register", labels=labels)
    copy = models_dir() / f"registered-{model.pk}"
    try:
        if copy.exists():
            shutil.rmtree(copy)
        shutil.copytree(source, copy)
        digest = _record_checksum(copy)
    except (LearningError, OSError) as exc:
        shutil.rmtree(copy, ignore_errors=True)
        TrainedModel.objects.filter(pk=model.pk).update(
            status=TrainedModel.Status.FAILED, error=str(exc)[:2000]
        )
        if isinstance(exc, LearningError):
            raise
        raise LearningError(f"Not registered: the model could not be copied ({exc}).") from exc
    job = jobs.job_create(kind=Job.Kind.TRAIN, user=model.created_by, message="Queued")
    model.path, model.base_model, model.job = str(copy), source.name[:500], job
    model.save(update_fields=["path", "base_model", "job"])
    audit_record(
        actor=model.created_by,
        event_type="detector_registered",
        after={"trained_model": model.pk, "labels": labels, "sha256": digest},
    )
    return model


def model_register(*, model: TrainedModel, progress=None, job_id: int | None = None):
    """Score the registered ``model`` and the active one on the gate documents and
    activate it when the gate says so (``trained_model_finish_domain``)."""
    user = model.created_by
    try:
        with watching(progress):
            _, _, recipe_gate = recipe_docs()
            _, _, approved_gate = learning_gate.approved_sets()
            groups = {"approved": approved_gate, "generated": recipe_gate}
            groups = {name: docs for name, docs in groups.items() if docs}
            new = domain_counts(model.path, groups)
            _forget(model.path)
            active = active_model()
            try:
                base = domain_counts(active.path if active else None, groups)
            except OSError:  # no model to compare with (none shipped in this checkout)
                base = None
            decision = learning_gate.model_gate(new, base)
    except BaseException as exc:
        trained_model_fail_domain(model=model, error=f"Scoring stopped: {exc}", user=user)
        raise
    result = SimpleNamespace(figures={}, training_s=0.0, best_epoch=0, history=[])
    return trained_model_finish_domain(
        model=model,
        result=result,
        decision=decision,
        groups=groups,
        selection=[],
        base_model=active,
        train_documents=0,
        user=user,
    )


def model_register_job(*, job_id: int, trained_model_id: int) -> None:
    """The background job (``annotations.tasks.register_model_task``)."""
    jobs.job_start(job_id=job_id, message="Scoring the registered model on the gate set")
    model = TrainedModel.objects.select_related("created_by").get(pk=trained_model_id)
    TrainedModel.objects.filter(pk=model.pk, status=TrainedModel.Status.QUEUED).update(
        status=TrainedModel.Status.TRAINING
    )
    try:
        model = model_register(
            model=model, progress=_reporter(job_id, time.monotonic()), job_id=job_id
        )
    except Cancelled:
        raise
    except Exception as exc:
        jobs.job_fail(job_id=job_id, error=f"Registration failed: {type(exc).__name__}")
        return
    jobs.job_finish(job_id=job_id, message=model.decision[:255])
