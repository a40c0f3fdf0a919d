"""The trained token classifier as an ensemble detector. Django-free.

Register it in ``settings.DETECTORS``::

    {"NAME": "engine.learning.detector.TrainedTransformerDetector",
     "OPTIONS": {"model_dir": "/path/to/trained_models/current", "min_score": 0.5}}

``model_dir`` is a directory written by ``train_detector`` (or the training page);
``trained_models/current`` is a link the training service moves to the newest model
that finished. The model is loaded once per process and shared by every detector
instance that names the same directory; when the link moves to a new model, the next
``detect`` loads the new one (the resolved path is the cache key).
"""

from __future__ import annotations

import os
import threading
from typing import Any, ClassVar

from engine.detectors.base import Detection, Detector, Document
from engine.labels import LABELS

_CACHE: dict[tuple[str, str | None, int], Any] = {}
_LOCK = threading.Lock()


def load_tagger(model_dir: str, *, device: str | None = None, batch_size: int = 8):
    """The :class:`~engine.learning.inference.TokenTagger` for ``model_dir``,
    loaded at most once per process (per resolved path, device and batch size)."""
    from engine.learning.inference import TokenTagger

    key = (os.path.realpath(model_dir), device, int(batch_size))
    with _LOCK:
        tagger = _CACHE.get(key)
        if tagger is None:
            # Keep one model per directory name: drop taggers of older targets.
            for old in [k for k in _CACHE if k[1:] == key[1:]]:
                del _CACHE[old]
            tagger = TokenTagger.from_dir(key[0], batch_size=batch_size, device=device)
            _CACHE[key] = tagger
    return tagger


class TrainedTransformerDetector(Detector):
    """Spans from a token classifier fine-tuned on the reviewers' gold data.

    OPTIONS: ``model_dir`` (required), ``min_score`` (drop spans whose mean word
    probability is below it; default 0.5), ``batch_size`` (windows per forward pass;
    default 8), ``device`` (default: cuda when present), ``labels`` (only emit these),
    ``threads`` (torch CPU threads for this process, set on load; default: torch's).
    """

    name: ClassVar[str] = "trained"
    labels: ClassVar[frozenset[str]] = frozenset(LABELS)

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        model_dir = options.get("model_dir") or ""
        if not model_dir:
            raise ValueError(
                "TrainedTransformerDetector needs OPTIONS['model_dir'] (a trained model directory)."
            )
        self.model_dir = str(model_dir)
        self.min_score = float(options.get("min_score", 0.5))
        self.batch_size = int(options.get("batch_size", 8))
        self.device = options.get("device") or None
        wanted = options.get("labels")
        self.only = frozenset(wanted) if wanted else None
        self.threads = int(options.get("threads") or 0)
        self._tagger = None

    def load(self) -> None:
        if self.threads:
            import torch

            torch.set_num_threads(self.threads)
        self._tagger = load_tagger(self.model_dir, device=self.device, batch_size=self.batch_size)
        self._loaded = True

    def detect(self, document: Document) -> list[Detection]:
        self.ensure_loaded()
        # A moved ``current`` link means a newer model: pick it up (cached per path).
        tagger = load_tagger(self.model_dir, device=self.device, batch_size=self.batch_size)
        self._tagger = tagger
        detections = []
        for span in tagger.predict(document.text):
            if span.score < self.min_score:
                continue
            if self.only is not None and span.label not in self.only:
                continue
            detections.append(
                Detection(
                    span.start,
                    span.end,
                    span.label,
                    round(float(span.score), 4),
                    detector=self.name,
                    explanation="trained token classifier",
                )
            )
        return detections
