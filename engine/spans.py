"""Spans and their provenance: the one vocabulary the engine's span types share.

Every span in the engine is "(start, end, label)": character offsets into a text, end
exclusive, and one of ``engine.labels.LABELS``. ``TextSpan`` is the plain one (gold
spans are ``TextSpan``\\ s); the richer types (``Detection``, ``MergedSpan``, the
pseudonymizer's ``SpanInput`` and ``Replacement``, a leak) have the same three
attributes, so anything that only needs the shape takes a ``SpanLike``.

Provenance is structured: a list of ``Source`` entries, stored as dicts
``{"detector", "score", "reason", "original", "label"}`` (empty fields left out):

- ``detector``: the detector's name (``"human"`` for a reviewer's own span);
- ``score``: its confidence;
- ``reason``: why, in its words (a recognizer's or pattern's name, a cover-page field);
- ``original``: for a copy (propagation's repeats and misspellings), the text it copies;
- ``label``: only where this detector proposed another label than the span's.

Nothing is parsed back out of free text: a detector that copies says what it copies in
``original``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol


class SpanLike(Protocol):
    start: int
    end: int
    label: str


@dataclass(frozen=True, slots=True, order=True)
class TextSpan:
    """A labelled span of a text: offsets (end exclusive) and a label."""

    start: int
    end: int
    label: str

    def to_json(self) -> dict:
        return {"start": self.start, "end": self.end, "label": self.label}


@dataclass(slots=True)
class Prediction:
    """A span scored against gold: its shape, the detectors credited with it (names or
    stored provenance dicts), and where known its reference group and score."""

    start: int
    end: int
    label: str
    detectors: list = field(default_factory=list)
    entity: int | None = None
    score: float = 0.0


def shape(span: SpanLike) -> tuple[int, int, str]:
    """``(start, end, label)`` of any span."""
    return (int(span.start), int(span.end), str(span.label))


@dataclass(frozen=True, slots=True)
class Source:
    """One provenance entry: who proposed a span, how sure, why, and what it copies."""

    detector: str
    score: float = 1.0
    reason: str = ""
    original: str = ""
    label: str = ""  # only where this detector proposed a different label
    rule: str = ""  # the decision table's rows that relabelled or kept it (rules.py)

    def to_json(self) -> dict:
        data: dict = {"detector": self.detector, "score": round(float(self.score), 4)}
        for key in ("reason", "original", "label", "rule"):
            value = getattr(self, key)
            if value:
                data[key] = value
        return data

    @classmethod
    def from_json(cls, data: dict) -> Source:
        return cls(
            detector=str(data.get("detector", "")),
            score=float(data.get("score", 0.0) or 0.0),
            reason=str(data.get("reason", "") or ""),
            original=str(data.get("original", "") or ""),
            label=str(data.get("label", "") or ""),
            rule=str(data.get("rule", "") or ""),
        )


def provenance_detectors(provenance: Iterable[dict] | None) -> list[str]:
    """The detector names of a stored provenance list, in order, without repeats."""
    return list(dict.fromkeys(str(item.get("detector", "")) for item in provenance or []))


def provenance_original(provenance: Iterable[dict] | None, detector: str) -> str | None:
    """What ``detector``'s entry says its span copies (``original``), if anything."""
    for item in provenance or []:
        if item.get("detector") == detector and item.get("original"):
            return str(item["original"])
    return None
