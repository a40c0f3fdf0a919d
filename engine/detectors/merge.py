"""Merging the detectors' proposals into one set of non-overlapping spans. Django-free.

The paper's rules, made order-independent:

1. exact duplicates (same start and end) become one span; every contributing detector
   and its score is kept in the provenance. Its label: a *structured* label (from a
   pattern: e-mail, phone, spelled name, CDCR number, ...) when any detector proposed
   one, else the label with the highest summed score (ties: ``LABEL_PRIORITY``);
2. then spans are taken in a fixed rank order — structured labels first, then longer
   before shorter, then more detectors, higher score, earlier start, label — so
   *same start → longer* and *same end → longer* hold: the shorter span is absorbed
   into the longer one (its detectors join the provenance);
3. a *partial overlap* is split: the higher-ranked span is kept whole and the other
   keeps only its part outside it (when that part is a whole word or more).

The result depends only on the set of detections, never on the order detectors
finished in.
"""

from __future__ import annotations

import bisect
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from engine.detectors.base import Detection
from engine.detectors.features import only_function_and_role_words
from engine.spans import Source

STRUCTURED = (
    "SPELLED_OUT_ITEM",
    "SPELLED_NAME",
    "EMAIL_ADDRESS",
    "URL",
    "PHONE_NUMBER",
    "CDCR_ID",
    "OTHER_ID",
    "HEIGHT",
    "AGE",
    "TIME",
)
LABEL_PRIORITY = (*STRUCTURED, "DATE", "PERSON", "LOCATION", "ORGANIZATION", "NRP")
_PRIORITY = {label: i for i, label in enumerate(LABEL_PRIORITY)}
_STRUCTURED = frozenset(STRUCTURED)
_WORDCHAR = re.compile(r"\w")


@dataclass(slots=True)
class MergedSpan:
    """A merged span: offsets into the text (end exclusive), label, provenance."""

    start: int
    end: int
    label: str
    # detector → (score, label it proposed)
    sources: dict[str, tuple[float, str]] = field(default_factory=dict)
    # label → {model: best score}: independent support (Presidio's NER is spaCy's)
    votes: dict[str, dict[str, float]] = field(default_factory=dict)
    # detector → the original a copy was made from (propagation's misspelled repeats)
    originals: dict[str, str] = field(default_factory=dict)
    # detector → its reason in words (a recognizer's or pattern's name, a cover field)
    reasons: dict[str, str] = field(default_factory=dict)
    # detector → the decision table's rows that relabelled or kept its find (Detection.rule)
    rules: dict[str, str] = field(default_factory=dict)

    def support(self, label: str | None = None) -> int:
        """Independent detectors for the label (propagation only copies others)."""
        return len([m for m in self.votes.get(label or self.label, {}) if m != "propagation"])

    @property
    def score(self) -> float:
        same = [s for s, label in self.sources.values() if label == self.label]
        return round(max(same or [s for s, _ in self.sources.values()] or [0.0]), 4)

    @property
    def detectors(self) -> list[str]:
        return sorted(self.sources)

    @property
    def provenance(self) -> list[dict]:
        """Structured provenance (``engine.spans.Source``): ``[{"detector", "score",
        "reason", "original", "label"}]``, empty fields left out."""
        items = []
        for name in sorted(self.sources):
            score, label = self.sources[name]
            source = Source(
                detector=name,
                score=score,
                reason=self.reasons.get(name, ""),
                original=self.originals.get(name, ""),
                label=label if label != self.label else "",
                rule=self.rules.get(name, ""),
            )
            items.append(source.to_json())
        return items

    def absorb(self, other: MergedSpan) -> None:
        for name, original in other.originals.items():
            self.originals.setdefault(name, original)
        for name, reason in other.reasons.items():
            self.reasons.setdefault(name, reason)
        for name, rule in other.rules.items():
            self.rules.setdefault(name, rule)
        for label, models in other.votes.items():
            mine_votes = self.votes.setdefault(label, {})
            for model, score in models.items():
                mine_votes[model] = max(score, mine_votes.get(model, 0.0))
        for name, (score, label) in other.sources.items():
            mine = self.sources.get(name)
            if (
                mine is None
                or (mine[1] != self.label and label == self.label)
                or (mine[1] == label and score > mine[0])
            ):
                self.sources[name] = (score, label)

    def as_detection(self) -> Detection:
        return Detection(self.start, self.end, self.label, self.score, "+".join(self.detectors))


def _original(d: Detection) -> dict[str, str]:
    return {d.detector: d.original} if d.original else {}


def _reason(d: Detection) -> dict[str, str]:
    return {d.detector: d.explanation} if d.explanation else {}


def _rule(d: Detection) -> dict[str, str]:
    return {d.detector: d.rule} if d.rule else {}


def model_of(d: Detection) -> str:
    """The model behind a detection: Presidio's NER results are spaCy's, not a second vote."""
    if d.detector == "presidio" and d.explanation == "SpacyRecognizer":
        return "spacy"
    if d.explanation in _PATTERN_RECOGNIZERS:
        return "pattern"  # an address or institution pattern: as strong as a structured label
    return d.detector


def _choose_label(items: list[Detection]) -> str:
    structured = sorted({d.label for d in items if d.label in _STRUCTURED}, key=_PRIORITY.get)
    if structured:
        return structured[0]
    decisive = sorted(
        {d.label for d in items if d.score >= DECISIVE_SCORE and model_of(d) == "pattern"},
        key=lambda label: (-max(d.score for d in items if d.label == label), _PRIORITY[label]),
    )
    if decisive:
        return decisive[0]
    best: dict[tuple[str, str], float] = {}
    own = [d for d in items if d.detector != "propagation"]
    for d in own or items:  # propagation copies a label; it does not vote
        key = (d.label, model_of(d))
        best[key] = max(d.score, best.get(key, 0.0))
    totals: dict[str, float] = defaultdict(float)
    for (label, _model), score in best.items():
        totals[label] += score
    return min(
        totals, key=lambda label: (-round(totals[label], 6), _PRIORITY.get(label, 99), label)
    )


_NAMED = frozenset({"PERSON", "LOCATION", "ORGANIZATION", "NRP"})
_PATTERN_RECOGNIZERS = frozenset(
    {
        "PlaceRecognizer",
        "gazetteer-place",
        "AddressRecognizer",
        "OrganizationRecognizer",
        "street-address",
        "street-name",
        "on-street",
        "street-address-wide",
        "suite",
        "po-box",
        "city-state-zip",
        "city-state",
        "zip-code",
        "SpeakerTagRecognizer",
        "speaker-tag",
        "honorific",
        "institution-head",
        "cdcr-institution",
        "employer",
        "employer-firm",
        "business-named",
        "job-at",
        "same-body",
        "CountyRecognizer",
        "county",
        "PersonContextRecognizer",
        "titled-name",
        "relation-name",
        "person-verb",
        "spelled-after",
        "PartyNameRecognizer",
        "title-run",
        "party-name",
        "case-party",
        "nickname",
        "coordinated-name",
        "named-surname",
        "caps-name",
        "footer-name",
        "place-after-verb",
        "place-named",
        "place-out-past",
        "place-then",
        "town-state",
        "numbered-ordinal-street",
        "numbered-street-before-city",
        "flat-building",
        "postcode",
        "street-runs",
        "corner",
        "NrpRecognizer",
        "nrp-term",
        "nrp-context",
        # hotels and venues (a company), the street after them, signatures, function-word
        # surnames and East Asian names (recognizers/venues.py, name_shapes.py)
        "VenueRecognizer",
        "hotel-chain",
        "venue",
        "VenueStreetRecognizer",
        "venue-street",
        "venue-ordinal-street",
        "NameShapeRecognizer",
        "signature",
        "signature-alone",
        "given-function-surname",
        "east-asian-name",
    }
)
# A hand-written rule with its context ("on 8881 Daniel Unions", "Officer Gates",
# "Tulare County", "a job at Kennedy-Martin") outweighs the statistical models' vote
# on the same words; a weaker rule (a place that is also a given name) only votes.
DECISIVE_SCORE = 0.85


def _rank(span: MergedSpan) -> tuple:
    same = [s for s, label in span.sources.values() if label == span.label]
    patterned = span.label in _STRUCTURED or "pattern" in span.votes.get(span.label, {})
    tier = 0 if patterned else 1
    return (
        tier,
        # among named entities, independent support before length: "Logan" "Mckee" as
        # PERSON by three detectors beat "Logan Mckee" as LOCATION by spaCy alone
        # (only PERSON counts its support; other named spans count as one, so a longer
        # "San Bernardino High School" still beats "San Bernardino")
        -(span.support() if span.label == "PERSON" else 1) if tier and span.label in _NAMED else 0,
        -(span.end - span.start),
        -len(same),
        -max(same or [0.0]),
        span.start,
        _PRIORITY.get(span.label, 99),
        span.label,
    )


# What is left of a body, place or group between two kept names is no name: a single
# letter, a citation's "v."/"versus", a conjunction ("Varga v. Okonkwo" as one ORGANIZATION
# once both parties are PERSON spans)
_PIECE_LABELS = frozenset({"ORGANIZATION", "LOCATION", "NRP"})
_NO_NAME_PIECE = re.compile(r"(?i:[a-z]\.?|vs?\.?|versus|and|or|of|the|&)")


def _no_name_piece(value: str) -> bool:
    """A piece left of a body's, place's or group's find that names nothing: a letter, a
    connective, or only function words and roles ("I'm a Commissioner" once the spelled
    name before it took "K-E-N-T.")."""
    return bool(_NO_NAME_PIECE.fullmatch(value)) or only_function_and_role_words(value)


def _word_piece(text: str, start: int, end: int) -> tuple[int, int] | None:
    """Trim a leftover piece to whole words; ``None`` when nothing word-like remains."""
    while start < end and not _WORDCHAR.match(text[start]):
        start += 1
    while end > start and not _WORDCHAR.match(text[end - 1]):
        end -= 1
    if end <= start:
        return None
    # a piece must not cut a word in two
    if start > 0 and _WORDCHAR.match(text[start - 1]):
        return None
    if end < len(text) and _WORDCHAR.match(text[end]):
        return None
    return start, end


def merge(detections: Iterable[Detection], text: str | None = None) -> list[MergedSpan]:
    """Merge ``detections`` (any order, overlaps allowed) into non-overlapping spans.

    ``text`` lets split pieces be trimmed to whole words; without it a partially
    overlapping lower-ranked span is dropped instead of split.
    """
    groups: dict[tuple[int, int], list[Detection]] = defaultdict(list)
    for d in detections:
        if d.end > d.start:
            groups[(d.start, d.end)].append(d)
    candidates = []
    for (start, end), items in groups.items():
        items.sort(key=lambda d: (d.detector, d.label, -d.score))
        span = MergedSpan(start, end, _choose_label(items))
        for d in items:
            span.absorb(
                MergedSpan(
                    start,
                    end,
                    d.label,
                    {d.detector: (d.score, d.label)},
                    {d.label: {model_of(d): d.score}},
                    _original(d),
                    _reason(d),
                    _rule(d),
                )
            )
        candidates.append(span)
    candidates.sort(key=_rank)

    kept: list[MergedSpan] = []  # sorted by start, pairwise disjoint
    starts: list[int] = []
    queue = list(candidates)
    i = 0
    while i < len(queue):
        span = queue[i]
        i += 1
        lo = bisect.bisect_right(starts, span.start) - 1
        lo = max(lo, 0)
        overlapping = []
        j = lo
        while j < len(kept) and kept[j].start < span.end:
            if kept[j].end > span.start:
                overlapping.append(kept[j])
            j += 1
        if not overlapping:
            pos = bisect.bisect_left(starts, span.start)
            kept.insert(pos, span)
            starts.insert(pos, span.start)
            continue
        # contained in one kept span → absorbed (same start/end → longer)
        holder = next((k for k in overlapping if k.start <= span.start and span.end <= k.end), None)
        if holder is not None:
            holder.absorb(span)
            continue
        # partial overlap → split: keep the parts outside the kept spans
        for k in overlapping:
            if k.label == span.label:
                k.absorb(span)
        if text is None:
            continue
        cursor = span.start
        pieces = []
        for k in sorted(overlapping, key=lambda k: k.start):
            if k.start > cursor:
                pieces.append((cursor, k.start))
            cursor = max(cursor, k.end)
        if cursor < span.end:
            pieces.append((cursor, span.end))
        for s, e in pieces:
            piece = _word_piece(text, s, e)
            if piece is None:
                continue
            if span.label in _PIECE_LABELS and _no_name_piece(text[piece[0] : piece[1]]):
                continue  # "v" of "Varga v. Okonkwo", "K" of "DORA K. OKONKWO"
            new = MergedSpan(
                piece[0],
                piece[1],
                span.label,
                dict(span.sources),
                {k: dict(v) for k, v in span.votes.items()},
                dict(span.originals),
                dict(span.reasons),
                dict(span.rules),
            )
            # re-rank the piece among what is left (it is shorter now)
            rest = queue[i:]
            bisect.insort(rest, new, key=_rank)
            queue[i:] = rest
    return kept
