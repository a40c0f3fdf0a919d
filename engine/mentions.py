"""Gold mentions as researchers expect them: whole names, no stray punctuation. Django-free.

Stored PERSON spans are *name parts* (``engine.detectors.names``): the paper's tags give
each part its own reference, so ``Shannon Perry`` is stored as ``Shannon`` and ``Perry``.
Standard NER corpora (OntoNotes, CoNLL-2003, GUM) and the synthetic generator's gold mark
the whole name as one mention. :func:`join_name_parts` rebuilds those mentions: adjacent
PERSON spans separated only by spaces, by a hyphen, or by the full stop of an initial
(``John J. Doe``) are one mention. Titles stay outside (they are never name parts), and
so does anything else between two names (``John, Mary``; ``Mr. Doe Ms. Roe``).

A span never ends (or starts) on punctuation that is not part of the item:
:func:`trim_span` drops a sentence's full stop after a spelled name (``P-E-R-R-Y.``), a
trailing comma or colon, and whitespace; it keeps the stops that belong to the item
(``9:45 a.m.``, ``U.S.``, ``Acme Inc.``, an initial ``J.`` inside a name).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace

from engine.spans import Prediction, SpanLike, TextSpan, shape

PERSON = "PERSON"

_SPACES = re.compile(r"[ \t]+")
_INITIAL_STOP = re.compile(r"\.[ \t]*")
# Abbreviations whose full stop is part of the item when a span ends on them.
_ABBREVIATIONS = frozenset(
    {
        "inc", "co", "corp", "ltd", "llc", "bros", "dept", "univ", "assn",
        "jr", "sr", "st", "ave", "blvd", "rd", "dr", "ln", "ct", "hwy", "mt", "ft", "no",
        "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
        "mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun",
    }
)  # fmt: skip
_ALWAYS_TRIM = ",;:!?"
_OPENERS = {")": "(", "]": "[", "}": "{"}


def normalize_form(text: str) -> str:
    """The key of a surface form: case-folded, inner whitespace collapsed ("Um", "um" and
    "UM" are one form in the review's form table and in decisions that carry)."""
    return " ".join(text.split()).casefold()


def name_gap_joins(text: str, left: tuple[int, int], right: tuple[int, int]) -> bool:
    """Whether two PERSON name parts (``left`` before ``right``) are one name as written."""
    gap = text[left[1] : right[0]]
    if _SPACES.fullmatch(gap) or gap == "-":
        return True
    # an initial's full stop: "J. Doe", "J.R."
    return right[0] - left[1] <= 3 and left[1] - left[0] == 1 and bool(_INITIAL_STOP.fullmatch(gap))


def name_groups(text: str, spans: Sequence[SpanLike]) -> list[list[int]]:
    """Indexes of ``spans`` grouped into mentions (sorted by start): adjacent PERSON name
    parts that :func:`name_gap_joins` are one group, every other span its own."""
    order = sorted(range(len(spans)), key=lambda i: (spans[i].start, spans[i].end))
    groups: list[list[int]] = []
    for i in order:
        span = spans[i]
        if groups and span.label == PERSON:
            last = spans[groups[-1][-1]]
            if (
                last.label == PERSON
                and last.end <= span.start
                and name_gap_joins(text, (last.start, last.end), (span.start, span.end))
            ):
                groups[-1].append(i)
                continue
        groups.append([i])
    return groups


def join_name_parts(text: str, spans: Iterable[SpanLike]) -> list[TextSpan]:
    """Whole mentions: name parts of one written name joined into one PERSON span."""
    spans = list(spans)
    out = []
    for group in name_groups(text, spans):
        first, last = spans[group[0]], spans[group[-1]]
        out.append(TextSpan(int(first.start), int(last.end), str(first.label)))
    return out


def _detector_name(detector) -> str:
    return detector["detector"] if isinstance(detector, dict) else str(detector)


def join_predictions(
    text: str, spans: Iterable[Prediction], *, machine: bool = True
) -> list[Prediction]:
    """Whole mentions of predictions: the name parts of one written name joined into one
    PERSON prediction, as the review page shows adjacent same-label parts, whatever member
    proposed each part (``Kyle`` from one detector and ``Lewis`` from another are one
    mention the reviewer accepts once). ``machine``: only parts written as names join (a
    lower-case word proposed beside a name, ``Quill`` ``lives``, is a separate false
    proposal, not part of the name); a reviewer's spans (gold) join as
    :func:`join_name_parts` joins them. The detectors of the parts are credited to the whole; the first part
    keeps its reference group and score. ``evaluate`` and the dashboard's Table 3 both
    score whole mentions this way, so their figures agree."""
    spans = sorted(spans, key=lambda p: (p.start, p.end))
    out: list[Prediction] = []
    for span in spans:
        last = out[-1] if out else None
        if (
            last is not None
            and span.label == last.label == PERSON
            and last.end <= span.start
            and (
                not machine
                or (text[last.start : last.start + 1].isupper() and text[span.start].isupper())
            )
            and name_gap_joins(text, (last.start, last.end), (span.start, span.end))
        ):
            joined = replace(last, end=span.end, detectors=list(last.detectors))
            names = {_detector_name(d) for d in joined.detectors}
            for d in span.detectors:
                if _detector_name(d) not in names:
                    joined.detectors.append(d)
                    names.add(_detector_name(d))
            out[-1] = joined
            continue
        out.append(replace(span, detectors=list(span.detectors or [])))
    return out


def _last_word(item: str) -> str:
    return re.split(r"[\s\-–/]", item)[-1]


def trim_span(text: str, start: int, end: int) -> tuple[int, int]:
    """``(start, end)`` without surrounding whitespace and without punctuation that is not
    part of the item (see the module docstring); the span is returned unchanged when
    trimming would leave nothing."""
    s, e = start, end
    while True:
        before = (s, e)
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        if s < e and text[s] in _ALWAYS_TRIM + ".":
            s += 1
        if e > s and text[e - 1] in _ALWAYS_TRIM:
            e -= 1
        elif e > s and text[e - 1] in _OPENERS and _OPENERS[text[e - 1]] not in text[s:e]:
            e -= 1
        elif e > s + 1 and text[e - 1] == ".":
            word = _last_word(text[s : e - 1])
            keep = (
                "." in word  # a.m., U.S.
                or word.lower() in _ABBREVIATIONS
                or (len(word) == 1 and word.isupper() and "-" not in text[s:e] and s < e - 2)
            )
            if not keep:
                e -= 1
        if (s, e) == before:
            break
    return (s, e) if s < e else (start, end)


def trim_spans(text: str, spans: Iterable[SpanLike]) -> list[TextSpan]:
    """:func:`trim_span` on each span (labels kept; duplicates after trimming once)."""
    out = {TextSpan(*trim_span(text, *shape(span)[:2]), str(span.label)) for span in spans}
    return sorted(out)
