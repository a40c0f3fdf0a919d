"""Spans as light rows (``SpanRow``) and the reviewer's filters.

One query loads every span of the transcript as plain rows (``review_span_rows``) from
which the entity list, the progress counter and the navigation queue are computed in
Python, so no query runs per span; an action's answer reads only the rows it draws
(``review_answer_rows``). Offsets are characters into ``Transcript.text``, end exclusive.
"""

from bisect import bisect_right
from dataclasses import dataclass

from django.db.models import Q

from annotations.models import Span
from engine.labels import LABELS, SPELLED_NAME
from transcripts.models import Transcript, Utterance

UNDECIDED = Span.Status.SUGGESTED


@dataclass(frozen=True)
class ReviewFilters:
    """What the reviewer narrowed the view to (query parameters of the page)."""

    undecided: bool = False
    label: str = ""
    detector: str = ""
    order: str = "position"  # or "score": lowest score first
    q: str = ""

    @classmethod
    def from_params(cls, params) -> "ReviewFilters":
        label = params.get("label", "")
        return cls(
            undecided=params.get("undecided") in {"1", "on", "true"},
            label=label if label in LABELS else "",
            detector=params.get("detector", "")[:64],
            order="score" if params.get("order") == "score" else "position",
            q=params.get("q", "").strip()[:100],
        )

    @property
    def active(self) -> bool:
        return bool(
            self.undecided or self.label or self.detector or self.q or self.order != "position"
        )

    def as_query(self) -> str:
        from urllib.parse import urlencode

        params = {
            "undecided": "1" if self.undecided else "",
            "label": self.label,
            "detector": self.detector,
            "order": "score" if self.order == "score" else "",
            "q": self.q,
        }
        return urlencode({k: v for k, v in params.items() if v})


@dataclass(slots=True)
class SpanRow:
    """One span as the page needs it (no model instance, no per-span query)."""

    id: int
    start: int
    end: int
    label: str
    status: str
    score: float
    provenance: list | None  # None until loaded (``review_fill_provenance``)
    version: int
    entity_id: int | None
    ref: str
    text: str
    page: int = 0
    flagged: bool = False

    @property
    def detectors(self) -> list[str]:
        return [p.get("detector", "") for p in self.provenance or [] if isinstance(p, dict)]

    @property
    def decided(self) -> bool:
        return self.status != UNDECIDED

    def provenance_text(self) -> str:
        parts = []
        for item in self.provenance or []:
            if not isinstance(item, dict):
                continue
            score = item.get("score")
            name = item.get("detector", "?")
            parts.append(f"{name} {score:.2f}" if isinstance(score, int | float) else name)
        return ", ".join(parts) or "no detector"

    def matches(self, filters: ReviewFilters) -> bool:
        if filters.undecided and self.decided:
            return False
        if filters.label and self.label != filters.label:
            return False
        if filters.detector and filters.detector not in self.detectors:
            return False
        return not (filters.q and filters.q.casefold() not in self.text.casefold())


# --- spans ------------------------------------------------------------------------


def review_span_rows(
    *,
    transcript: Transcript,
    provenance: bool = False,
    where: Q | None = None,
    pages: list[dict] | None = None,
) -> list[SpanRow]:
    """Every span of the transcript (or those ``where`` selects) as rows, in text order,
    with its page (two queries).

    Provenance (JSON) is loaded only with ``provenance=True``; otherwise call
    ``review_fill_provenance`` for the few rows a response renders.
    """
    text = transcript.text
    fields = [
        "id",
        "start",
        "end",
        "label",
        "status",
        "score",
        "version",
        "entity_id",
        "entity__ref",
        "flagged",
    ]
    if provenance:
        fields.append("provenance")
    rows = [
        SpanRow(
            id=r[0],
            start=r[1],
            end=r[2],
            label=r[3],
            status=r[4],
            score=r[5],
            version=r[6],
            entity_id=r[7],
            ref=r[8] or "",
            text=text[r[1] : r[2]],
            flagged=r[9],
            provenance=r[10] if provenance else None,
        )  # fmt: skip
        for r in Span.objects.filter(transcript=transcript)
        .filter(where if where is not None else Q())
        .order_by("start", "-end", "id")
        .values_list(*fields)
    ]
    if pages is not None:  # pages follow the text: a page's first start is enough
        bounds = sorted((p["first"], p["page"]) for p in pages)
    else:
        bounds = list(
            Utterance.objects.filter(transcript=transcript)
            .order_by("start")
            .values_list("start", "page")
        )
    i = 0
    for row in rows:
        while i + 1 < len(bounds) and bounds[i + 1][0] <= row.start:
            i += 1
        row.page = bounds[i][1] if bounds else 0
    return rows


# Above these sizes an answer reads every span of the transcript and keeps the ones it
# draws in Python: no query grows with the number of spans, groups or lines an action
# touched (SQLite refuses an expression tree deeper than 1,000).
ANSWER_IDS_MAX = 500
ANSWER_RANGES_MAX = 40


def _utterance_ranges(utterances: list[Utterance]) -> list[tuple[int, int]]:
    """``[start, end)`` ranges of span starts covering ``utterances``, consecutive ones
    (by index) merged; an empty utterance covers its start."""
    ranges: list[tuple[int, int]] = []
    last_index = None
    for u in sorted(utterances, key=lambda u: u.index):
        low, high = u.start, max(u.end, u.start + 1)
        if ranges and last_index is not None and u.index == last_index + 1:
            ranges[-1] = (ranges[-1][0], max(ranges[-1][1], high))
        else:
            ranges.append((low, high))
        last_index = u.index
    return ranges


def review_answer_rows(
    *, transcript: Transcript, spans, entities, utterances: list[Utterance], pages=None
) -> list[SpanRow]:
    """The rows an action's answer draws, not every span: ``spans``, every mention of the
    groups ``entities`` (their entries), every span starting in ``utterances`` (their
    lines, and the neighbours that decide whether a span can be redrawn alone), and the
    spelled names (a group's "spelled ×N").

    A small answer is one query with bounded ``IN`` lists and start ranges; a bulk one
    (more than ``ANSWER_IDS_MAX`` ids or ``ANSWER_RANGES_MAX`` ranges) reads the
    transcript's rows and keeps those in Python."""
    spans, entities = set(spans), set(entities)
    ranges = _utterance_ranges(utterances)
    if len(spans) + len(entities) <= ANSWER_IDS_MAX and len(ranges) <= ANSWER_RANGES_MAX:
        where = Q(pk__in=list(spans)) | Q(entity_id__in=list(entities)) | Q(label=SPELLED_NAME)
        for low, high in ranges:
            where |= Q(start__gte=low, start__lt=high)
        return review_span_rows(transcript=transcript, where=where, pages=pages)
    lows = [low for low, _high in ranges]

    def in_lines(start: int) -> bool:
        i = bisect_right(lows, start) - 1
        return i >= 0 and start < ranges[i][1]

    return [
        r
        for r in review_span_rows(transcript=transcript, pages=pages)
        if r.id in spans or r.entity_id in entities or r.label == SPELLED_NAME or in_lines(r.start)
    ]


def review_fill_provenance(rows: list[SpanRow]) -> None:
    """Load the provenance of ``rows`` that lack it (one query)."""
    missing = {r.id: r for r in rows if r.provenance is None}
    if not missing:
        return
    for span_id, provenance in Span.objects.filter(pk__in=list(missing)).values_list(
        "id", "provenance"
    ):
        missing[span_id].provenance = provenance or []


def review_detectors(*, transcript: Transcript) -> list[str]:
    """The detectors named in the transcript's span provenance (for the filter)."""
    names = set()
    for provenance in Span.objects.filter(transcript=transcript).values_list(
        "provenance", flat=True
    ):
        names.update(p.get("detector", "") for p in provenance or [] if isinstance(p, dict))
    return sorted(n for n in names if n)
