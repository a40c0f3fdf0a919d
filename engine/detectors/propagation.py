"""Document-level propagation: what is found once is marked everywhere. Django-free.

A name part, CDCR number or place found anywhere in a transcript (by the other
detectors, after cleaning and merging) is proposed at every other occurrence, with
its own provenance (``propagation``) so a reviewer can tell it apart. Misspelled
repeats of name parts (``Stevenson`` / ``Stevenston``) are found by edit distance
(1 for parts of 5+ letters, 2 for 9+) or by equal Metaphone codes with edit distance
2, among capitalised words only. A name that is no ordinary English word
(``ordinary.is_ordinary``: frequency and name gazetteers, never "the transcript also
writes it in lower case") is proposed in every case variant (``pellegrino``,
``Pellegrino``, ``PELLEGRINO``); one that is also an English word (``Young``) where it
is capitalised in mid-sentence. The ensemble runs this detector after the others and
gives it their merged spans in ``document.artifacts["detections"]``.
"""

from __future__ import annotations

import re
from typing import ClassVar

from engine import vocab
from engine.detectors.base import Detection, Detector, Document
from engine.detectors.cover import COMMON_WORDS, find_word
from engine.detectors.names import TITLES
from engine.detectors.ordinary import is_ordinary
from engine.detectors.public import is_title_or_role
from engine.detectors.recognizers.locations import is_known_place
from engine.spelling import is_misspelling

PROPAGATED = ("PERSON", "CDCR_ID", "LOCATION")
_CAPWORD = re.compile(r"(?<![\w-])[A-Z][A-Za-z'’]*[a-zA-Z](?:-[A-Z][a-z]+)?(?![\w-])")
_NEVER = frozenset(
    [w.lower() for w in (*vocab.MONTHS, *vocab.WEEKDAYS)]
    + """okay yes yeah no sir madam mister ma'am state county city court board parole
    hearing hearings panel commissioner deputy presiding inmate attorney district
    prison""".split()
)


_SENTENCE_END = re.compile(r"(?:^|[.!?:;\n\"“(—-]|\.\.\.)\s*$")
_ABBREVIATION = re.compile(r"\b(?:Mr|Mrs|Ms|Mx|Dr|St|Jr|Sr|MR|MRS|MS|DR)\.\s*$")


def _mid_sentence(text: str, start: int) -> bool:
    """Whether a word at ``start`` follows other words of its sentence (its capital is
    the writer's choice, not the sentence's)."""
    before = text[max(0, start - 8) : start]
    if _ABBREVIATION.search(before):
        return True  # "Mr. Young": the period ends an abbreviation, not a sentence
    return not _SENTENCE_END.search(before[-4:])


def _well_supported(d: Detection, votes: dict | None) -> bool:
    """A name that is also an English word ("Young", "Landscaping" by one model) is copied
    only when the cover page or a hand-written rule names it, or two independent models
    agree (Presidio's NER is spaCy's: one model)."""
    if votes is None:  # detections without their merge record: the detector names
        parts = set(d.detector.split("+"))
        return "cover" in parts or "patterns" in parts or len(parts & _MODELS) >= 2
    return "cover" in votes or "pattern" in votes or len(set(votes) & _MODELS) >= 2


_MODELS = frozenset({"spacy", "transformer", "presidio"})


def _norm_id(value: str) -> str:
    return re.sub(r"[^0-9a-z]", "", value.lower())


class PropagationDetector(Detector):
    """Options: ``fuzzy`` (default true), ``min_length`` (default 3), ``score`` (0.7)."""

    name: ClassVar[str] = "propagation"
    labels: ClassVar[frozenset[str]] = frozenset(PROPAGATED)
    needs_detections: ClassVar[bool] = True

    def detect(self, document: Document) -> list[Detection]:
        text = document.text
        found = document.artifacts.get("detections") or []
        votes = {
            (m.start, m.end): m.votes.get("PERSON", {})
            for m in document.artifacts.get("merged") or []
        }
        allow = document.artifacts.get("allow_list")
        fuzzy = bool(self.options.get("fuzzy", True))
        min_len = int(self.options.get("min_length", 3))
        score = float(self.options.get("score", 0.7))
        out: list[Detection] = []
        names: dict[str, str] = {}  # lower → original
        places: set[str] = set()
        ids: set[str] = set()
        for d in found:
            label = d.label
            value = text[d.start : d.end]
            if label == "PERSON":
                key = value.lower()
                if (
                    len(value) >= min_len
                    and (value[:1].isupper() or not is_ordinary(key))
                    and key not in TITLES
                    and key not in _NEVER
                    and not is_title_or_role(value)
                    and (not is_ordinary(key) or _well_supported(d, votes.get((d.start, d.end))))
                ):
                    names.setdefault(key, value)
            elif label == "LOCATION":
                if (
                    len(value) >= 3
                    and value[:1].isupper()
                    and value.lower() not in _NEVER
                    and (not is_ordinary(value) or is_known_place(value))
                ):
                    places.add(value)
            elif label == "CDCR_ID":
                ids.add(value)
        plain: dict[str, str] = {}  # names that are no English word: every case variant
        for key, value in sorted(names.items()):
            if allow is not None and value in allow:
                continue
            if not is_ordinary(key):
                plain[key] = value
                continue
            # also an English word ("Young", "Long"): capitalised in mid-sentence only
            for s, e in find_word(text, value, capitalised=True):
                if text[s:e][1:].islower() and _mid_sentence(text, s):
                    out.append(Detection(s, e, "PERSON", score, self.name, explanation="same name"))
        if plain:
            # one pass for all of them ("pellegrino", "Pellegrino", "PELLEGRINO")
            alternatives = "|".join(re.escape(v) for v in sorted(plain, key=len, reverse=True))
            # a name glued to a number ("Breyer16:17" in a word index) is still the name
            pattern = re.compile(
                rf"(?<![^\W\d_])(?<!-)(?:{alternatives})(?![^\W\d_]|-\w)", re.IGNORECASE
            )
            for match in pattern.finditer(text):
                out.append(
                    Detection(
                        match.start(),
                        match.end(),
                        "PERSON",
                        score,
                        self.name,
                        explanation="same name",
                    )
                )
        for place in sorted(places):
            if allow is not None and place in allow:
                continue
            for s, e in find_word(text, place, ignore_case=False):
                out.append(Detection(s, e, "LOCATION", score, self.name, explanation="same place"))
        if ids:
            wanted = {_norm_id(v) for v in ids}
            for v in sorted(ids):
                for s, e in find_word(text, v):
                    out.append(Detection(s, e, "CDCR_ID", score, self.name, explanation="same ID"))
            # the same number written differently ("V 12345" / "V-12345")
            for m in re.finditer(r"(?<![\w-])[A-Z]{1,2}[ -]?\d{4,6}(?![\w-])", text):
                if _norm_id(m.group(0)) in wanted:
                    out.append(
                        Detection(
                            m.start(), m.end(), "CDCR_ID", score, self.name, explanation="same ID"
                        )
                    )
        if fuzzy and names:
            out.extend(self._misspellings(text, names, score * 0.9, allow))
        return out

    def _misspellings(self, text, names, score, allow) -> list[Detection]:
        candidates: dict[str, list[tuple[int, int]]] = {}
        for m in _CAPWORD.finditer(text):
            word = m.group(0)
            key = word.lower()
            if (
                key in names
                or word.isupper()  # headers in capitals ("DECISION PAGE 1"): exact repeats only
                or len(word) < 4
                or key in COMMON_WORDS
                or key in _NEVER
                or key in TITLES
                or is_ordinary(key)
            ):
                continue
            candidates.setdefault(word, []).append(m.span())
        targets = [n for n in names if len(n) >= 5]
        out = []
        for word, spans in candidates.items():
            if allow is not None and word in allow:
                continue
            lw = word.lower()
            for name in targets:
                if is_misspelling(lw, name):
                    for s, e in spans:
                        out.append(
                            Detection(
                                s,
                                e,
                                "PERSON",
                                score,
                                self.name,
                                explanation="misspelled repeat",
                                original=name,
                            )
                        )
                    break
        return out
