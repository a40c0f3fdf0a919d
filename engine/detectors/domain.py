"""The learned domain model as an ensemble member (``domain``). Django-free.

A spaCy ``tok2vec`` + ``ner`` pipeline trained on generated hearings by
``engine.learning.domain.train_domain`` (``manage.py train_detector``); the model that
command built ships in ``engine/models/domain/`` and is the default. The model is loaded
once per process (per resolved directory: a retrained model in another directory is a
new load).

Its place in the vote (``second_opinion``; ``engine.detectors.ensemble.second_opinions``):
a domain find *joins the vote* only inside another member's span of the same label (after
cleaning); one that overlaps another member's span otherwise is dropped; a find no other
member touched becomes a **possible miss** for the reviewer through the safety net when it
is a person or place written as a name (within its budget), never a span on its own. Its
detections go through the same ``clean`` step as every member's, so public terms,
boilerplate and the allow-list hold for it too. docs/detection.md, docs/learning.md.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any, ClassVar

from engine.detectors.base import Detection, Detector, Document
from engine.labels import LABELS
from engine.progress import PROGRESS, watching

SHIPPED_MODEL = Path(__file__).resolve().parent.parent / "models" / "domain"
SCORE = 0.8  # below spaCy's 0.85: alone against one other member, the other's label wins
_MODELS: dict[str, Any] = {}
_LOCK = threading.Lock()


def load_domain_model(model_dir: str | Path) -> Any:
    """The spaCy pipeline in ``model_dir``, loaded at most once per process."""
    key = os.path.realpath(model_dir)
    nlp = _MODELS.get(key)
    if nlp is not None:
        return nlp
    with _LOCK:
        nlp = _MODELS.get(key)
        if nlp is None:
            import spacy

            if not (Path(key) / "config.cfg").is_file():
                raise OSError(f"no domain model in {key}")
            nlp = spacy.load(key)
            _MODELS[key] = nlp
    return nlp


def unload_domain_model(model_dir: str | Path) -> None:
    """Let go of the pipeline loaded from ``model_dir`` (a model scored and refused, or one
    no longer active): the process keeps only the models its detectors use."""
    with _LOCK:
        _MODELS.pop(os.path.realpath(model_dir), None)


class DomainDetector(Detector):
    """OPTIONS: ``model_dir`` (default: the shipped ``engine/models/domain``), ``score``
    (default 0.8), ``labels`` (only emit these), ``second_opinion`` (default true; false
    makes it a full voter, as when it stands in for another member), ``apart`` (run in a
    thread of its own beside the others when the ensemble runs in parallel; default true:
    measured 1.6 against 1.9-2.1 × a spaCy pass in ``bench_annotate``)."""

    name: ClassVar[str] = "domain"
    labels: ClassVar[frozenset[str]] = frozenset(LABELS)
    # Its finds need a second opinion (another member's overlapping span) to become
    # spans; the rest are possible misses (engine.detectors.ensemble).
    second_opinion: ClassVar[bool] = True

    def __init__(self, model_dir: str | Path | None = None, **options: Any) -> None:
        super().__init__(**options)
        self.model_dir = str(model_dir or options.get("model_dir") or SHIPPED_MODEL)
        self.score = float(options.get("score", SCORE))
        wanted = options.get("labels")
        self.only = frozenset(wanted) if wanted else None
        self.second_opinion = bool(options.get("second_opinion", True))
        # spaCy's matrix products and parser loop release the GIL: in a thread of its own
        # beside Presidio (``Ensemble(parallel=True)``) when ``apart`` (docs/speed.md)
        self.runs_apart = bool(options.get("apart", True))
        self.nlp: Any = None

    def load(self) -> None:
        self.nlp = load_domain_model(self.model_dir)
        self._loaded = True

    def detect(self, document: Document) -> list[Detection]:
        self.ensure_loaded()
        from engine.learning.domain import predict

        with watching(document.artifacts.get(PROGRESS)):  # predict's cancellation points
            found = predict(self.nlp, document.text)
        return [
            Detection(start, end, label, self.score, self.name, explanation="domain model")
            for start, end, label in found
            if label in LABELS and (self.only is None or label in self.only)
        ]
