"""Cleaning: every member's finds, trimmed and decided, before the merge. Django-free.

``clean`` trims each find (surrounding spaces and punctuation, a determiner before a
place, body or date, the next sentence's ``I``), computes the candidate's features once
(``engine.detectors.features``) and lets the decision table (``engine.detectors.rules``)
decide it: kept (PERSON as name parts), relabelled, cut into pieces decided in turn, or
dropped by a named rule, a possible miss where its context makes it a name or a place.
One ``Decision`` per candidate records the row that decided it.

``AllowList`` holds the terms that are never personal data.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from dataclasses import replace

from engine.alternation import phrases
from engine.detectors.base import Detection
from engine.detectors.decisions import (
    DROPPED,
    POSSIBLE_MISS,
    SPAN,
    Decision,
    possible_miss_label,
)
from engine.detectors.features import Context, Features
from engine.detectors.given import is_given_name_term
from engine.detectors.public import public_terms
from engine.detectors.rules import (
    DROP,
    KEEP,
    MAYBE_MISS,
    PARTS,
    PLAIN_KEEP,
    RELABEL,
    SPLIT,
    decide,
)

_TRAIL = re.compile(r"[\s,;:!?\"'“”‘’()\[\]{}…—–-]+$")
_LEAD = re.compile(r"^[\s,;:!?\"'“”‘’()\[\]{}…—–-]+")
_NEXT_SENTENCE_I = re.compile(r"\.[ \t]+I$")
_PRONOUN_GOES_ON = re.compile(r"(?:['’](?:m|ve|d|ll))?[ \t]+[a-z]")
_DOTTED_ABBR = re.compile(r"(?:\b[a-zA-Z]\.){2,}$|\b(?:Jr|Sr|St|Mt|Ft|Dr|Inc|Co|Corp|Ltd)\.$")

_ALNUM = re.compile(r"\w")


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


def trim(text: str, d: Detection) -> Detection | None:
    start, end = d.start, d.end
    segment = text[start:end]
    lead = _LEAD.match(segment)
    if (
        lead
        and not re.match(r"['’]\d", segment[lead.end() - 1 : lead.end() + 1])
        and not (d.label == "PHONE_NUMBER" and segment[lead.end() - 1 : lead.end()] == "(")
    ):
        start += lead.end()
    if d.label in _DETERMINED:
        det = _DETERMINER.match(text, start, end)
        if det and det.end() < end:
            start = det.end()
    segment = text[start:end]
    pronoun = _NEXT_SENTENCE_I.search(segment)
    if pronoun and _PRONOUN_GOES_ON.match(text, end):
        # "on Facility D. I work nights": the next sentence's "I", not an initial
        end = start + pronoun.start()
        segment = text[start:end]
    if segment.endswith(".") and not _DOTTED_ABBR.search(segment):
        segment = segment.rstrip(".")
        end = start + len(segment)
    trail = _TRAIL.search(segment)
    if trail and d.label not in {"HEIGHT"}:  # 6'2" keeps its marks
        end = start + trail.start()
    if d.label == "HEIGHT":
        end = start + len(text[start:end].rstrip(" ,;:!?."))
    if end <= start or not _ALNUM.search(text[start:end]):
        return None
    if (start, end) == (d.start, d.end):
        return d
    return d.moved(start, end)


_DETERMINED = frozenset({"ORGANIZATION", "LOCATION", "NRP", "DATE", "TIME"})
_DETERMINER = re.compile(
    r"(?:the|a|an|about|around|approximately|roughly|nearly|almost|at|on|in|by|since|until|till|"
    r"from|to|of|this|that|last|next|early|late|sometime|some time in)\s+",
    re.IGNORECASE,
)


def clean(
    text: str,
    detections: Iterable[Detection],
    allow: AllowList | None = None,
    decisions: list[Decision] | None = None,
) -> list[Detection]:
    """Decide every find with the decision table; returns the kept detections (PERSON
    ones as name parts), in text order.

    ``decisions``, when given, receives one ``Decision`` per candidate (each piece of a
    find the table cuts): ``span``, or ``dropped``/``possible_miss`` with the rule that
    dropped it (``engine.detectors.decisions``)."""
    ctx = Context(text, allow or AllowList(), public_terms(text))
    out: list[Detection] = []
    record = decisions is not None

    def drop(d: Detection, rule: str) -> None:
        if record:
            # a model's find dropped for its shape, that its context makes a name or a
            # place: the safety net shows it (decisions.possible_miss_label)
            miss = possible_miss_label(
                text, d.start, d.end, d.label, d.detector, d.explanation, rule
            )
            decisions.append(
                Decision(
                    d.detector,
                    d.start,
                    d.end,
                    miss or d.label,
                    POSSIBLE_MISS if miss else DROPPED,
                    rule,
                    d.explanation,
                )
            )

    def keep(d: Detection) -> None:
        out.append(d)
        if record:
            decisions.append(Decision(d.detector, d.start, d.end, d.label, SPAN, "", d.explanation))

    def settle(f: Features, start: int = 0, via: tuple[str, ...] = ()) -> None:
        """Decide ``f`` from row ``start`` of the table on (``via``: the rows that
        relabelled it on the way)."""
        while True:
            i, rule = decide(f, start)
            if rule.outcome == RELABEL:
                # the rows below decide the relabelled candidate
                f = Features(ctx, f.raw, rule.then(f), f.whole, f.expressions_cut)
                start, via = i + 1, (*via, rule.name)
                continue
            if rule.outcome == KEEP:
                rows = via if rule.name in PLAIN_KEEP else (*via, rule.name)
                keep(replace(f.d, rule=" → ".join(rows)) if rows else f.d)
            elif rule.outcome in (DROP, MAYBE_MISS):
                drop(f.d if f.d is not None else f.raw, rule.decision)
            elif rule.outcome == SPLIT:
                # pieces are trimmed and decided from the top
                cut = f.expressions_cut or rule.name == "date-time-expressions"
                pending.extend((piece, cut) for piece in rule.then(f))
            elif rule.outcome == PARTS:
                for part in rule.then(f):
                    settle(Features(ctx, f.raw, part, f.d), via=via)
            return

    pending = [(d, False) for d in detections]
    while pending:
        raw, cut = pending.pop()
        settle(Features(ctx, raw, trim(text, raw), None, cut))
    out.sort(key=lambda x: (x.start, x.end, x.label, x.detector))
    return out


def clean_members(
    text: str, found: dict[str, list[Detection]], allow: AllowList | None = None
) -> dict[str, tuple[list[Detection], list[Decision], Exception | None]]:
    """Decide a stage's finds, member by member in ``found``'s order: ``{member: (kept,
    decisions, error)}``; a member whose finds fail to be decided has its error (the
    others' are kept)."""
    out: dict[str, tuple[list[Detection], list[Decision], Exception | None]] = {}
    for name, raw in found.items():
        decided: list[Decision] = []
        try:
            out[name] = (clean(text, raw, allow, decided), decided, None)
        except Exception as exc:  # noqa: BLE001 - reported as the member's error
            out[name] = ([], [], exc)
    return out
