"""Django-free pseudonymization: spans in, pseudonymized text and a replacement map out.

    >>> out = pseudonymize("John Doe met Mr. Doe.", [SpanInput(0, 4, "PERSON"),
    ...     SpanInput(5, 8, "PERSON"), SpanInput(17, 20, "PERSON")])
    >>> out.text
    '[PERSON_1] [PERSON_2] met Mr. [PERSON_2].'

Strategies: ``tags`` (the paper's categorical tags, the default), ``surrogate``
(realistic replacements, consistent per entity, deterministic per seed), ``mask``
(``█████``) and ``redact`` (the mention is removed). Offsets are characters, end
exclusive; ``Replacement.out_start``/``out_end`` locate each replacement in the output.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from engine.detectors.names import person_name_parts
from engine.pseudonymize.dates import date_tags
from engine.pseudonymize.keys import fold
from engine.pseudonymize.refs import RefAssigner, assign_refs
from engine.spans import TextSpan

STRATEGIES = ("tags", "surrogate", "mask", "redact")
MASK = "█████"
# Labels whose tag carries no counter (the paper's categorical tags).
UNCOUNTED = {"TIME": "[TIME]", "AGE": "[AGE]"}

__all__ = [
    "MASK",
    "STRATEGIES",
    "PseudonymizedText",
    "Replacement",
    "SpanInput",
    "pseudonymize",
    "resolve_overlaps",
    "tag_for",
]


@dataclass(frozen=True, slots=True)
class SpanInput(TextSpan):
    """A mention to replace: ``text[start:end]`` with its label.

    ``ref`` (``PERSON_2``) and ``key`` (normalised original) come from the reference
    group when known; otherwise they are computed from the text. ``span_id`` is handed
    back in each :class:`Replacement` (the database id for the review page).
    """

    ref: str | None = None
    key: str | None = None
    span_id: int | str | None = None


@dataclass(frozen=True, slots=True)
class Replacement:
    span_id: int | str | None
    start: int
    end: int
    out_start: int
    out_end: int
    ref: str
    replacement: str
    label: str = ""
    key: str = ""


@dataclass(slots=True)
class PseudonymizedText:
    text: str
    replacements: list[Replacement] = field(default_factory=list)

    def by_span_id(self) -> dict:
        """``{span_id: replacement text}``; a PERSON span split into parts joins them."""
        out: dict = {}
        for r in self.replacements:
            out[r.span_id] = (
                out[r.span_id] + " " + r.replacement if r.span_id in out else r.replacement
            )
        return out


def resolve_overlaps(spans: list[SpanInput]) -> list[SpanInput]:
    """Drop spans that overlap an earlier, longer one (start order, longest first)."""
    kept: list[SpanInput] = []
    last_end = -1
    for span in sorted(spans, key=lambda s: (s.start, -(s.end - s.start))):
        if span.end <= span.start:
            continue
        if span.start < last_end:
            continue
        kept.append(span)
        last_end = span.end
    return kept


def expand_person_parts(text: str, spans: list[SpanInput]) -> list[SpanInput]:
    """Split multi-part PERSON spans into name parts; titles and ``'s`` stay as text."""
    out: list[SpanInput] = []
    for span in spans:
        if span.label != "PERSON":
            out.append(span)
            continue
        parts = person_name_parts(text, span.start, span.end)
        if len(parts) == 1 and parts[0] == (span.start, span.end):
            out.append(span)
        elif not parts:
            out.append(span)
        else:
            single = len(parts) == 1
            for s, e in parts:
                out.append(
                    SpanInput(
                        s,
                        e,
                        "PERSON",
                        span.ref if single else None,
                        span.key if single else None,
                        span.span_id,
                    )
                )
    return out


def tag_for(label: str, ref: str, mention: str) -> str:
    """The paper's tag for one mention (``[PERSON_2]``, ``[MONTH] [DAY], [YEAR]``, ``[AGE]``)."""
    if label == "DATE":
        return date_tags(mention)
    if label in UNCOUNTED:
        return UNCOUNTED[label]
    return f"[{ref}]"


def pseudonymize(
    text: str,
    spans: list[SpanInput],
    *,
    strategy: str = "tags",
    seed: int | str | None = None,
    assigner: RefAssigner | None = None,
    avoid: Iterable[str] = (),
) -> PseudonymizedText:
    """Replace every span of ``text`` according to ``strategy`` (see module docstring).

    Overlapping spans: the longer (then the earlier) wins. PERSON spans holding a whole
    name are split into name parts, each its own ref. ``seed`` makes ``surrogate`` output
    reproducible; ``assigner`` carries refs across documents (corpus scope); ``avoid``
    lists words no surrogate may be (cover-page names that are not spans).
    """
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}")
    spans = expand_person_parts(text, resolve_overlaps(list(spans)))
    spans = resolve_overlaps(spans)
    keyed = assign_refs(
        [(s.start, s.end, s.label, s.ref, s.key) for s in spans], text, assigner=assigner
    )
    surrogates = None
    if strategy == "surrogate":
        from engine.pseudonymize.surrogates import SurrogateMaker

        surrogates = SurrogateMaker(seed=seed, text=text)
        surrogates.originals.update(fold(word) for word in avoid)
        surrogates.prepare(
            [(s.start, s.end, s.label, k.key, k.ref) for s, k in zip(spans, keyed, strict=True)]
        )
    pieces: list[str] = []
    replacements: list[Replacement] = []
    pos = 0
    out_len = 0
    for span, k in zip(spans, keyed, strict=True):
        mention = text[span.start : span.end]
        if strategy == "tags":
            new = tag_for(span.label, k.ref, mention)
        elif strategy == "mask":
            new = MASK
        elif strategy == "redact":
            new = ""
        else:
            new = surrogates.surrogate(span.label, k.key, k.ref, mention)
        between = text[pos : span.start]
        pieces.append(between)
        out_len += len(between)
        pieces.append(new)
        replacements.append(
            Replacement(
                span.span_id,
                span.start,
                span.end,
                out_len,
                out_len + len(new),
                k.ref,
                new,
                span.label,
                k.key,
            )
        )
        out_len += len(new)
        pos = span.end
    pieces.append(text[pos:])
    return PseudonymizedText("".join(pieces), replacements)


def key_from_replacements(text: str, result: PseudonymizedText) -> dict[str, dict]:
    """The key (original → pseudonym per entity): ``{ref: {label, pseudonym, originals}}``.

    Sensitive: it re-identifies. Never put it in a release.
    """
    key: dict[str, dict] = {}
    for r in result.replacements:
        entry = key.setdefault(
            r.ref, {"label": r.label, "pseudonym": r.replacement, "originals": []}
        )
        original = text[r.start : r.end]
        if original not in entry["originals"]:
            entry["originals"].append(original)
    return key
