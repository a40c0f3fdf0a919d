"""The transcript cut into windows of a few pages, their utterances and the replacements
drawn in them (the page loads windows lazily)."""

from bisect import bisect_left
from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Count, Max, Min

from annotations.models import Span
from annotations.selectors.rows import SpanRow
from transcripts.models import Transcript, Utterance

WINDOW_PAGES = 3  # pages per lazily loaded window


@dataclass
class Window:
    index: int
    pages: list[int]
    chars: int
    utterances: int

    @property
    def first_page(self) -> int:
        return self.pages[0] if self.pages else 0

    @property
    def last_page(self) -> int:
        return self.pages[-1] if self.pages else 0

    @property
    def estimated_height(self) -> int:
        """Pixels the placeholder reserves before the window loads (fitted on the
        15,000-word benchmark in a 1440-px window: real/estimate 1.07–1.26 at 25.5 px,
        so 29.3 px a line; the page then rescales the rest from the windows it loaded)."""
        return max(120, int((self.chars / 62 + self.utterances * 0.5) * 29.3))


def review_pages(*, transcript: Transcript) -> list[dict]:
    """Per page: ``page``, ``n`` utterances, ``first`` start and ``last`` end (one
    aggregate query; windows, span pages and minimap cells are computed from it)."""
    return list(
        Utterance.objects.filter(transcript=transcript)
        .values("page")
        .annotate(n=Count("id"), first=Min("start"), last=Max("end"))
        .order_by("page")
    )


def review_windows(
    *, transcript: Transcript, pages_per_window: int = WINDOW_PAGES, pages: list[dict] | None = None
) -> list[Window]:
    """The transcript cut into windows of a few pages (one aggregate query, none with
    ``pages`` from ``review_pages``)."""
    if pages is None:
        pages = review_pages(transcript=transcript)
    windows = []
    for i in range(0, len(pages), pages_per_window):
        chunk = pages[i : i + pages_per_window]
        windows.append(
            Window(
                index=len(windows),
                pages=[p["page"] for p in chunk],
                chars=sum(p["last"] - p["first"] for p in chunk),
                utterances=sum(p["n"] for p in chunk),
            )
        )
    return windows


def review_window_of_page(*, windows: list[Window], page: int) -> int:
    for window in windows:
        if page in window.pages:
            return window.index
    return 0


def review_utterances(
    *,
    transcript: Transcript,
    pages: list[int] | None = None,
    indices: list[int] | None = None,
    containing=None,
) -> list[Utterance]:
    """Utterances in text order; of ``pages``, ``indices``, and/or those ``containing``
    one of the given offsets (an empty utterance contains its start)."""
    queryset = Utterance.objects.filter(transcript=transcript).defer("transcript")
    if pages is not None:
        queryset = queryset.filter(page__in=pages)
    if indices is not None:
        queryset = queryset.filter(index__in=indices)
    found = list(queryset.order_by("index"))
    if containing is None:
        return found
    # In Python, not one ``Q`` per offset: the query stays the same size however many
    # offsets an action touched.
    offsets = sorted(set(containing))

    def contains(u: Utterance) -> bool:
        i = bisect_left(offsets, u.start)
        return i < len(offsets) and (offsets[i] < u.end or offsets[i] == u.start)

    return [u for u in found if contains(u)]


def review_replacements(
    *, transcript: Transcript, rows: list[SpanRow]
) -> dict[int, tuple[int, int, str]]:
    """Span id → ``(start, end, replacement)`` for the given spans, tags strategy.

    Runs the pseudonymization core (``engine.pseudonymize.pseudonymize``, the same
    code ``transcript_pseudonymize`` runs) on just these spans with the refs of their
    reference groups, so that rendering a window or an action's lines costs milliseconds,
    not a pass over the whole transcript. Rejected spans are not replaced. A span
    replaced in several pieces (a date → ``[MONTH] [DAY], [YEAR]``) keeps the original
    text between its pieces.
    """
    from engine.pseudonymize import SpanInput, pseudonymize
    from engine.pseudonymize.refs import RefAssigner

    inputs = [
        SpanInput(r.start, r.end, r.label, ref=r.ref or None, span_id=r.id)
        for r in rows
        if r.status != Span.Status.REJECTED
    ]
    if not inputs:
        return {}
    result = pseudonymize(transcript.text, inputs, strategy="tags", assigner=RefAssigner())
    pieces: dict[int, list] = defaultdict(list)
    for r in result.replacements:
        if r.span_id is not None:
            pieces[r.span_id].append(r)
    text = transcript.text
    out = {}
    for span_id, reps in pieces.items():
        reps.sort(key=lambda r: r.start)
        start, pos, parts = reps[0].start, reps[0].start, []
        for r in reps:
            if r.start < pos:
                continue
            parts.append(text[pos : r.start])
            parts.append(r.replacement)
            pos = r.end
        out[span_id] = (start, pos, "".join(parts))
    return out
