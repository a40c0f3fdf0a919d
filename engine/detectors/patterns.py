"""The hearing recognizers as a detector, without Presidio (light set-ups, tests).

The recognizers themselves live in ``engine.detectors.recognizers`` (one module per
label family); the Presidio detector wraps each in a Presidio ``LocalRecognizer``
(``presidio.py``). This module re-exports them under their old names. Django-free.
"""

from __future__ import annotations

from typing import ClassVar

from engine.detectors.base import Detection, Detector, Document
from engine.detectors.recognizers import (  # noqa: F401 - re-exported
    HEARING_RECOGNIZERS,
    AddressRecognizer,
    AgeRecognizer,
    CdcrIdRecognizer,
    CountyRecognizer,
    Found,
    HearingDateRecognizer,
    HearingTimeRecognizer,
    HeightRecognizer,
    NrpRecognizer,
    OrganizationRecognizer,
    PersonContextRecognizer,
    PlaceRecognizer,
    RegexRecognizer,
    SpelledNameRecognizer,
    SpelledOutItemRecognizer,
    find_hearing_entities,
    is_known_place,
)

# --- e-mail with an offline public-suffix list --------------------------------------

_TLD = None


def offline_tldextract():
    """A tldextract extractor on the package's bundled suffix snapshot: no network."""
    global _TLD
    if _TLD is None:
        import tldextract

        extract = tldextract.TLDExtract(
            suffix_list_urls=(), cache_dir=None, fallback_to_snapshot=True
        )
        extract("example.org")  # builds its suffix tree now (0.4 s), not on a first e-mail
        _TLD = extract
    return _TLD


class PatternDetector(Detector):
    """The hearing recognizers alone, without Presidio or spaCy (no models to load).

    Presidio runs the same recognizers; this detector is for light set-ups and tests.
    """

    name: ClassVar[str] = "patterns"
    labels: ClassVar[frozenset[str]] = frozenset(cls.ENTITY for cls in HEARING_RECOGNIZERS)

    def load(self) -> None:
        self.recognizers = [cls() for cls in HEARING_RECOGNIZERS]
        self._loaded = True

    def detect(self, document: Document) -> list[Detection]:
        self.ensure_loaded()
        return [
            Detection(f.start, f.end, f.label, f.score, self.name, explanation=f.pattern)
            for f in find_hearing_entities(document.text, self.recognizers)
        ]
