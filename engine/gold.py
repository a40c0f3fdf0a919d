"""Gold data in JSON Lines (DESIGN.md): read, validate, write. Django-free.

One document per line::

    {"id": "...", "text": "...", "spans": [{"start": 0, "end": 4, "label": "PERSON"}],
     "ignore": [{"start": 0, "end": 9}], "meta": {...}}

Offsets are characters into ``text``, end exclusive. ``ignore`` regions count
neither for nor against a prediction.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from engine.labels import LABELS
from engine.spans import SpanLike, TextSpan, shape


class GoldFormatError(ValueError):
    """A gold file line is not valid; the message names the line."""


# A gold span is the engine's plain span: (start, end, label).
GoldSpan = TextSpan


@dataclass(slots=True)
class GoldDoc:
    id: str
    text: str
    spans: list[SpanLike] = field(default_factory=list)
    ignore: list[tuple[int, int]] = field(default_factory=list)
    meta: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        data = {
            "id": self.id,
            "text": self.text,
            "spans": [TextSpan(*shape(s)).to_json() for s in sorted(self.spans, key=shape)],
            "meta": self.meta,
        }
        if self.ignore:
            data["ignore"] = [{"start": s, "end": e} for s, e in self.ignore]
        return data


def parse_doc(data: dict, *, where: str = "document", strict_labels: bool = False) -> GoldDoc:
    try:
        text = data["text"]
        doc_id = str(data.get("id", ""))
        spans = []
        for item in data.get("spans", []):
            start, end, label = int(item["start"]), int(item["end"]), str(item["label"])
            if not 0 <= start < end <= len(text):
                raise GoldFormatError(f"{where}: span {start}-{end} lies outside the text")
            if strict_labels and label not in LABELS:
                raise GoldFormatError(f"{where}: unknown label {label!r}")
            spans.append(GoldSpan(start, end, label))
        ignore = [(int(i["start"]), int(i["end"])) for i in data.get("ignore", [])]
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, GoldFormatError):
            raise
        raise GoldFormatError(f"{where}: {exc.__class__.__name__}: {exc}") from exc
    if not isinstance(text, str):
        raise GoldFormatError(f"{where}: text must be a string")
    return GoldDoc(doc_id, text, sorted(spans), ignore, dict(data.get("meta") or {}))


def iter_jsonl(path: str | Path) -> Iterator[GoldDoc]:
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
            except json.JSONDecodeError as exc:
                raise GoldFormatError(f"{path}:{number}: not JSON ({exc.msg})") from exc
            yield parse_doc(data, where=f"{path}:{number}")


def read_jsonl(path: str | Path) -> list[GoldDoc]:
    return list(iter_jsonl(path))


def write_jsonl(docs: Iterable[GoldDoc], path: str | Path) -> int:
    count = 0
    with open(path, "w", encoding="utf-8") as fh:
        for doc in docs:
            fh.write(json.dumps(doc.to_json(), ensure_ascii=False) + "\n")
            count += 1
    return count
