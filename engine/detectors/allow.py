"""The allow-list: terms that are never personal data. Django-free.

Terms come from the database (``annotations.services.allowlist``); a transcript's own
names are taken out of them before its candidates are decided (``protecting``).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable

from engine.alternation import phrases
from engine.detectors.given import is_given_name_term


def normalise_term(term: str) -> str:
    return re.sub(r"\s+", " ", term.strip().lower().replace("’", "'"))


class AllowList:
    """Terms that are never personal data; matched on whole spans, case-insensitive.

    A span equal to a term (or to a term plus a possessive, or a plural ``s``) is
    dropped; so is a span lying inside an occurrence of a multi-word term in the text
    (``Parole`` inside ``Board of Parole Hearings``).
    """

    def __init__(self, terms: Iterable[str] = ()) -> None:
        self.terms = {normalise_term(t) for t in terms if t and t.strip()}
        multi = sorted((t for t in self.terms if " " in t), key=len, reverse=True)
        # one pair of word boundaries around the whole alternation (engine.alternation)
        self._multi = (
            re.compile(rf"(?<!\w)(?:{phrases(multi)})(?!\w)", re.IGNORECASE) if multi else None
        )
        self._regions_for: tuple[str, list[tuple[int, int]], list[int], list[int]] | None = None
        # span text -> whether it is a term: a hearing asks about the same few thousand
        # values ~17,000 times (every member's every detection); bounded below
        self._seen: dict[str, bool] = {}

    def protecting(self, names: Iterable[str]) -> AllowList:
        """A copy without the terms that are a name this transcript gives (one word, or
        only such words: ``Calvin Quill``; ``engine.detectors.given``: keys by
        ``name_key``); phrases (``Good morning``) stay and keep matching in context."""
        keys = set(names)
        if not keys:
            return self
        kept = [t for t in self.terms if not is_given_name_term(t, keys)]
        return self if len(kept) == len(self.terms) else AllowList(kept)

    def __contains__(self, text: str) -> bool:
        known = self._seen.get(text)
        if known is None:
            key = normalise_term(text)
            key = re.sub(r"^the ", "", key)
            known = key in self.terms or re.sub(r"'s?$|s$", "", key) in self.terms
            if len(self._seen) >= 100_000:
                self._seen.clear()
            self._seen[text] = known
        return known

    def regions(self, text: str) -> list[tuple[int, int]]:
        """Where multi-word terms occur in ``text`` (cached for the last text), in order
        and without overlaps (one left-to-right scan)."""
        return self._indexed(text)[0]

    def _indexed(self, text: str) -> tuple[list[tuple[int, int]], list[int], list[int]]:
        if self._multi is None:
            return [], [], []
        # Keyed by the text object itself (kept referenced): an id() could be reused.
        if self._regions_for is None or self._regions_for[0] is not text:
            found = [m.span() for m in self._multi.finditer(text)]
            self._regions_for = (text, found, [s for s, _ in found], [e for _, e in found])
        return self._regions_for[1:]

    def overlaps_term(self, text: str, start: int, end: int) -> bool:
        """Whether a multi-word term occurs inside or across ``text[start:end]``."""
        regions, _starts, ends = self._indexed(text)
        # the first occurrence ending after ``start`` is the only candidate (sorted, disjoint)
        i = bisect.bisect_right(ends, start)
        return i < len(regions) and regions[i][0] < end

    def allows(self, text: str, start: int, end: int) -> bool:
        if text[start:end] in self:
            return True
        regions, starts, _ends = self._indexed(text)
        # the last occurrence starting at or before ``start`` is the only one that can hold it
        i = bisect.bisect_right(starts, start) - 1
        return i >= 0 and end <= regions[i][1]
