"""Search over the whole canonical text of a transcript, marked or not.

The review page loads its windows lazily, so neither the span filter nor the browser's
find sees words outside the loaded pages, and neither sees a word no span marks. This
reads the text in one pass (a regular expression over ``transcript.text``), the
utterances and the spans once each (two queries, whatever the number of matches), and
says for each match where it is (page, utterance) and which spans cover it ("no span"
when none: an add can be made there).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field

from annotations.models import Span
from transcripts.models import Transcript, Utterance

SEARCH_LIMIT = 200  # matches listed; the rest are counted
MIN_QUERY = 2  # characters: one letter matches most of the text
CONTEXT = 40  # characters of context either side of a match


@dataclass
class SpanHit:
    id: int
    label: str
    status: str


@dataclass
class Match:
    start: int
    end: int
    page: int
    utterance: int  # the utterance's index (the page's anchor ``uo-INDEX``)
    before: str
    text: str
    after: str
    cut_before: bool  # the context starts inside the utterance (shown with "…")
    cut_after: bool
    spans: list[SpanHit] = field(default_factory=list)

    @property
    def covered(self) -> bool:
        """Whether a span that will be replaced (not a rejected one) covers the match."""
        return any(s.status != Span.Status.REJECTED for s in self.spans)


@dataclass
class SearchResult:
    query: str
    whole_word: bool
    matches: list[Match]
    total: int  # every match in the text, listed or not

    @property
    def more(self) -> int:
        return self.total - len(self.matches)

    @property
    def unmarked(self) -> int:
        """Listed matches that no kept span covers."""
        return sum(1 for m in self.matches if not m.covered)


def search_pattern(query: str, *, whole_word: bool) -> re.Pattern | None:
    """The query as a case-insensitive literal (runs of spaces match any run of spaces
    or tabs, as a line wraps); ``whole_word``: not inside a longer word."""
    words = query.split()
    if len("".join(words)) < MIN_QUERY:
        return None
    body = r"[ \t]+".join(re.escape(w) for w in words)
    if whole_word:
        body = rf"(?<![\w@]){body}(?![\w@])"
    return re.compile(body, re.IGNORECASE)


def review_search(
    *, transcript: Transcript, query: str, whole_word: bool = False, limit: int = SEARCH_LIMIT
) -> SearchResult:
    """Every match of ``query`` in the transcript's text, the first ``limit`` listed with
    their place and the spans overlapping them, the rest counted."""
    query = " ".join(query.split())
    pattern = search_pattern(query, whole_word=whole_word)
    if pattern is None:
        return SearchResult(query=query, whole_word=whole_word, matches=[], total=0)
    text = transcript.text
    found: list[tuple[int, int]] = []
    total = 0
    for m in pattern.finditer(text):
        total += 1
        if len(found) < limit:
            found.append((m.start(), m.end()))
    if not found:
        return SearchResult(query=query, whole_word=whole_word, matches=[], total=total)
    lo, hi = found[0][0], found[-1][1]
    utterances = list(
        Utterance.objects.filter(transcript=transcript, end__gte=lo, start__lte=hi)
        .order_by("start")
        .values_list("start", "end", "page", "index")
    )
    spans = list(
        Span.objects.filter(transcript=transcript, start__lt=hi, end__gt=lo)
        .order_by("start", "end")
        .values_list("start", "end", "pk", "label", "status")
    )
    u_starts = [u[0] for u in utterances]
    s_starts = [s[0] for s in spans]
    matches = []
    for start, end in found:
        u = bisect_right(u_starts, start) - 1
        if u < 0 or end > utterances[u][1]:
            continue  # across two utterances: no place to show it, nothing to add
        u_start, u_end, page, index = utterances[u]
        hits = []
        # spans never cross an utterance: those overlapping start inside this one
        for _s_start, s_end, pk, label, status in spans[
            bisect_right(s_starts, u_start - 1) : bisect_right(s_starts, end - 1)
        ]:
            if s_end > start:
                hits.append(SpanHit(id=pk, label=label, status=status))
        matches.append(
            Match(
                start=start, end=end, page=page, utterance=index,
                before=text[max(u_start, start - CONTEXT) : start],
                text=text[start:end],
                after=text[end : min(u_end, end + CONTEXT)],
                cut_before=start - CONTEXT > u_start, cut_after=end + CONTEXT < u_end,
                spans=hits,
            )
        )  # fmt: skip
    return SearchResult(query=query, whole_word=whole_word, matches=matches, total=total)
