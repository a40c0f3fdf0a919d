"""The order of ``j``/``k`` (the navigation queue)."""

from annotations.selectors.rows import ReviewFilters, SpanRow


def review_queue_entry(row: SpanRow) -> list:
    """``[span_id, page, decided, start, score]``: one entry of the ``j``/``k`` queue (the
    page keeps it in order by start, or by score with ``order=score``)."""
    return [row.id, row.page, int(row.decided), row.start, round(row.score, 3)]


def review_queue(*, rows: list[SpanRow], filters: ReviewFilters) -> list[list]:
    """The order of ``j``/``k``: one ``review_queue_entry`` per span the filters keep."""
    kept = [r for r in rows if r.matches(filters)]
    if filters.order == "score":
        kept.sort(key=lambda r: (r.score, r.start))
    return [review_queue_entry(r) for r in kept]
