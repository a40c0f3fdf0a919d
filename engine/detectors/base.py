"""The detector interface (Presidio-style): a small result type and an abstract detector.

Offsets are characters into ``Document.text``, end exclusive.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar

from engine.spans import TextSpan


@dataclass(frozen=True, slots=True, order=True)
class Detection(TextSpan):
    """A detector's proposal: the span, its score and its provenance (detector, reason,
    original). Compares and orders on (start, end, label, score, detector)."""

    score: float = 1.0
    detector: str = ""
    # The reason, in words, for reviewers: pattern name, matched cover-page field, ...
    # (``reason`` in the stored provenance, ``engine.spans.Source``)
    explanation: str = field(default="", compare=False)
    # For a copy (propagation's repeats and misspellings): the text it copies.
    original: str = field(default="", compare=False)
    # The decision table's rows that made it what it is, where a row did more than keep
    # it (``titled-person``, ``military-clock``; engine.detectors.rules): ``rule`` in the
    # stored provenance, so a reviewer sees why a body's span became a person
    rule: str = field(default="", compare=False)

    def overlaps(self, other: Detection) -> bool:
        return self.start < other.end and other.start < self.end

    def contains(self, other: Detection) -> bool:
        return self.start <= other.start and other.end <= self.end

    @property
    def length(self) -> int:
        return self.end - self.start

    def moved(self, start: int, end: int, label: str | None = None) -> Detection:
        """The same detection (detector, score, reason, original) at other offsets."""
        # the constructor, not dataclasses.replace (several times slower): the cleaning
        # moves about 9,000 finds of a 15,000-word hearing
        return Detection(
            start,
            end,
            label or self.label,
            self.score,
            self.detector,
            self.explanation,
            self.original,
            self.rule,
        )


@dataclass(slots=True)
class Document:
    """What detectors read: the canonical text and what the import knows about it."""

    text: str
    metadata: dict[str, Any] = field(default_factory=dict)  # cover page (DESIGN.md keys)
    # Shared, lazily computed artefacts (the spaCy Doc, ...), keyed by producer name,
    # so one parse per transcript serves every detector.
    artifacts: dict[str, Any] = field(default_factory=dict)


class Detector(ABC):
    """A pluggable detector, configured by ``settings.DETECTORS`` as
    ``{"NAME": "dotted.path.Class", "OPTIONS": {...}}``.

    ``load()`` loads heavy resources (models) once per process; ``detect()`` must be
    safe to call many times. Subclasses declare ``name`` and the ``labels`` they emit.
    """

    name: ClassVar[str] = ""
    labels: ClassVar[frozenset[str]] = frozenset()
    # True for a detector that spends its time in native code releasing the GIL (an ONNX
    # model) and reads nothing the others write: the ensemble may run it in a thread of
    # its own beside the others (``Ensemble(parallel=True)``).
    runs_apart: ClassVar[bool] = False

    def __init__(self, **options: Any) -> None:
        self.options = options
        self._loaded = False

    def load(self) -> None:
        """Load models and resources; idempotent."""
        self._loaded = True

    def ensure_loaded(self) -> None:
        if not self._loaded:
            self.load()
            self._loaded = True

    def prepare(self, document: Document) -> None:
        """Called for every member before any runs on ``document``: a member that reads
        the shared spaCy parse registers there what it wants computed in it
        (``engine.detectors.heads``). Default: nothing."""
        return None

    @abstractmethod
    def detect(self, document: Document) -> list[Detection]:
        """Return the detections in ``document`` (any order, overlaps allowed)."""
