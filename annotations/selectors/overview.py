"""The progress counter and the per-page minimap (from the rows, or as SQL aggregates for
an action's answer)."""

from dataclasses import dataclass

from django.db.models import Count, Q

from annotations.models import Span
from annotations.selectors.rows import UNDECIDED, SpanRow
from annotations.selectors.windows import review_pages
from transcripts.models import Transcript


@dataclass
class Progress:
    decided: int
    total: int

    @property
    def percent(self) -> int:
        return round(100 * self.decided / self.total) if self.total else 100


@dataclass
class MinimapCell:
    page: int
    undecided: int
    total: int


def review_progress(*, rows: list[SpanRow]) -> Progress:
    return Progress(decided=sum(1 for r in rows if r.decided), total=len(rows))


def review_progress_counts(*, transcript: Transcript) -> Progress:
    """``review_progress`` of every span, as one SQL aggregate (no pass over the rows)."""
    counts = Span.objects.filter(transcript=transcript).aggregate(
        total=Count("id"), decided=Count("id", filter=~Q(status=UNDECIDED))
    )
    return Progress(decided=counts["decided"], total=counts["total"])


def review_minimap_cells(
    *, transcript: Transcript, pages, page_rows: list[dict] | None = None
) -> list[MinimapCell]:
    """``review_minimap``'s cells of ``pages`` only, as one SQL aggregate: a span is on
    the page of the last utterance starting at or before it (as in ``review_span_rows``).
    ``page_rows``: ``review_pages`` if the caller has it."""
    pages = sorted(set(pages))
    if not pages:
        return []
    if page_rows is None:
        page_rows = review_pages(transcript=transcript)
    firsts = sorted(((p["page"], p["first"]) for p in page_rows), key=lambda pf: pf[1])
    ranges = {}
    for i, (page, first) in enumerate(firsts):
        low = first if i else 0  # spans before the first utterance count on its page
        high = firsts[i + 1][1] if i + 1 < len(firsts) else None
        ranges[page] = Q(start__gte=low) & (Q(start__lt=high) if high is not None else Q())
    wanted = [p for p in pages if p in ranges]
    aggregates = {}
    for p in wanted:
        aggregates[f"t{p}"] = Count("id", filter=ranges[p])
        aggregates[f"u{p}"] = Count("id", filter=ranges[p] & Q(status=UNDECIDED))
    counts = Span.objects.filter(transcript=transcript).aggregate(**aggregates) if wanted else {}
    return [
        MinimapCell(page=p, undecided=counts.get(f"u{p}", 0), total=counts.get(f"t{p}", 0))
        for p in pages
    ]


def review_minimap(*, rows: list[SpanRow], pages: int) -> list[MinimapCell]:
    """Per page: spans still undecided and all spans (the overview beside the panes)."""
    last = max([pages, *(r.page for r in rows)], default=0)
    cells = {p: MinimapCell(page=p, undecided=0, total=0) for p in range(1, last + 1)}
    for row in rows:
        cell = cells.setdefault(row.page, MinimapCell(page=row.page, undecided=0, total=0))
        cell.total += 1
        cell.undecided += 0 if row.decided else 1
    return [cells[p] for p in sorted(cells)]
