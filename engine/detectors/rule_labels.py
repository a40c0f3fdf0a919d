"""The label a hand-written rule gives a span's words where they stand.

A reviewer's table of surface forms proposes another label for a form ("→ LOCATION") when
a detector dissented; a form the machine labelled with one voice has no dissent to show,
yet its words often say what it is: ``St. Lucie County`` is a county, ``the Westin`` a
hotel, ``We drove up to Roskoth`` a town, ``On Union, near the school`` a street. The
recognizers that say so (``recognizers/``) are the rules that decide a span's label in
the merge when they fire with their context (``merge.DECISIVE_SCORE``); here they are
run on the line of each mention asked about, and a find on exactly its words gives the
label. Django-free.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.detectors.ensemble import freeze_loaded
from engine.detectors.merge import DECISIVE_SCORE
from engine.detectors.recognizers import HEARING_RECOGNIZERS, RegexRecognizer, find_hearing_entities

# Places and bodies: the labels a reviewer confuses most in court material (a town
# proposed as a company, a county as a body, a hotel as a place).
PLACE_AND_BODY = frozenset({"LOCATION", "ORGANIZATION"})

_RECOGNIZERS: dict[frozenset[str], list[RegexRecognizer]] = {}

# A line's readings by its words (and the labels asked): the form table asks about the
# same lines on its page and again after every decision; reading a 24,000-word federal
# transcript's 447 place lines took 0.12 s of each answer. Offsets are the line's own.
LINE_CACHE_MAX = 50_000
_LINES: dict[tuple[frozenset[str], str], dict[tuple[int, int], str]] = {}


def clear_line_cache() -> None:
    _LINES.clear()


def _read_line(line: str, labels: frozenset[str]) -> dict[tuple[int, int], str]:
    key = (labels, line)
    found = _LINES.get(key)
    if found is None:
        if len(_LINES) >= LINE_CACHE_MAX:
            _LINES.clear()
        found = _LINES[key] = {
            (f.start, f.end): f.label
            for f in find_hearing_entities(line, _recognizers(labels))
            if f.score >= DECISIVE_SCORE
        }
    return found


def _recognizers(labels: frozenset[str]) -> list[RegexRecognizer]:
    if labels not in _RECOGNIZERS:
        first = not _RECOGNIZERS
        _RECOGNIZERS[labels] = [cls() for cls in HEARING_RECOGNIZERS if cls.ENTITY in labels]
        if first:
            # The recognizers' word lists, once loaded in a web process, out of the
            # collector's reach (as a worker's models: ``freeze_loaded``): each full
            # collection walked them, 0.09 s of CPU in 2 of 15 form-table answers on a
            # 24,000-word federal transcript (31-36 ms without).
            freeze_loaded()
    return _RECOGNIZERS[labels]


def rule_labels(
    text: str, extents: Iterable[tuple[int, int]], labels: frozenset[str] = PLACE_AND_BODY
) -> dict[tuple[int, int], str]:
    """``{(start, end): label}`` for each extent of ``text`` that a recognizer of one of
    ``labels`` finds exactly, with its context (score ≥ ``DECISIVE_SCORE``), on the
    extent's line. Each line is read once (``_read_line``); extents no rule finds are left
    out."""
    labels = frozenset(labels)
    by_line: dict[int, dict[tuple[int, int], str]] = {}
    out: dict[tuple[int, int], str] = {}
    for start, end in extents:
        line_start = text.rfind("\n", 0, start) + 1
        found = by_line.get(line_start)
        if found is None:
            line_end = text.find("\n", end)
            line_end = len(text) if line_end < 0 else line_end
            found = by_line[line_start] = _read_line(text[line_start:line_end], labels)
        label = found.get((start - line_start, end - line_start))
        if label:
            out[(start, end)] = label
    return out
