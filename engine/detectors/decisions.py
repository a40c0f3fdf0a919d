"""One explicit decision per candidate. Django-free.

Every candidate a member proposes ends in exactly one of three places:

* ``span`` — it reaches the merge (alone or beside other members' finds of the same words);
* ``possible_miss`` — a cleaning rule would drop it, but it is name- or place-shaped in
  its context: the safety net shows it to the reviewer (``reason`` ``dropped-find``),
  within its budget;
* ``dropped`` — a *named* rule of ``clean.py`` dropped it (``rule``: ``public-term``,
  ``ordinary-word-body``, ``date-no-anchor``, ...).

A candidate that a rule cuts into pieces (a span across a line break, a DATE/TIME span cut
into its expressions, a PERSON cut into name parts) is decided piece by piece; each piece
keeps the member's name. The decisions are structured data (``Decision``) in
``EnsembleResult.decisions``; ``evaluate`` and ``leak_report`` read them to say, for a
mention left in clear, which member found it and which rule dropped it (``trace``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass

SPAN = "span"
POSSIBLE_MISS = "possible_miss"
DROPPED = "dropped"


@dataclass(frozen=True, slots=True)
class Decision:
    detector: str
    start: int
    end: int
    label: str
    outcome: str  # span | possible_miss | dropped
    rule: str = ""  # the named rule that dropped it (or kept it as a possible miss)
    reason: str = ""  # the member's own reason (recognizer name), when it gave one

    def as_dict(self) -> dict:
        return {k: v for k, v in asdict(self).items() if v != ""}


# Rules that drop a statistical member's guess for its *shape* (an ordinary word, a
# function word, a word at a line start): where the context says the words are a name or
# a place, the find is shown as a possible miss instead.
SOFT_RULES = frozenset(
    {
        "ordinary-word-body",
        "caps-boilerplate",
        "sentence-start-word",
        "function-words",
    }
)
_STATISTICAL = frozenset({"spacy", "transformer", "domain"})


# A propagation proposal's reason: a lower-case word every learned model called a person,
# that the transcript gives capitalised as a name (propagation._models_lower_case); the
# cleaning's lower-case rule lets it through.
LOWER_AGREED = "lower-case name the models agree on"


# Every learned model of the ensemble (Presidio's NER is spaCy's: one model).
LEARNED_MODELS = _STATISTICAL


def learned_model(detector: str, reason: str) -> str | None:
    """The learned model behind a find (``spacy`` for Presidio's NER), or None for a
    hand-written rule."""
    if detector == "presidio" and reason == "SpacyRecognizer":
        return "spacy"
    return detector if detector in _STATISTICAL else None


def statistical_member(detector: str, reason: str) -> bool:
    """A learned model's guess (spaCy, directly or through Presidio; the token classifier;
    a learned domain member), not a hand-written rule."""
    return learned_model(detector, reason) is not None


# What makes a word a name or a place *in its context* (general English: a verb of
# speech or movement after a subject name, a locative preposition after a verb of motion
# or residence, an honorific before it).
_NAME_BEFORE_VERB = re.compile(
    r"^[ \t]*(?:[ \t]+(?:said|says|told|tells|asked|asks|called|calls|wrote|testified|stated|"
    r"came|went|left|knew|saw|lived|lives|worked|drove|wanted|replied|answered|yelled|"
    r"screamed|whispered)\b)"
)
_HONORIFIC_BEFORE = re.compile(r"\b(?:Mr|Mrs|Ms|Mx|Dr|Miss|MR|MRS|MS|DR|MISS)\.?[ \t]+$")
_PLACE_BEFORE = re.compile(
    r"\b(?:lived?|lives|living|moved|drove|driving|went|go|going|came|come|coming|born|"
    r"raised|grew up|stayed|headed|back|up|down|over|out|visit(?:ed|ing)?|from)"
    r"(?:[ \t]+(?:up|down|over|out|back|here|there))?[ \t]+(?:in|to|at|from|into|near)[ \t]+$",
    re.IGNORECASE,
)


# a street named alone: "lived on Commerce", "On Commerce, near the school"
_STREET_BEFORE = re.compile(r"(?<![\w'’])(?i:on|off|onto|along|down)[ \t]+$")


def in_context(text: str, start: int, end: int, label: str) -> bool:
    """Whether ``text[start:end]``, which a statistical member named, is name- or
    place-shaped where it stands: capitalised (or in capitals), not only function words,
    and a context word that wants a person (an honorific before it, a verb of speech after
    it) or a place (a verb of motion or residence and a locative preposition before it)."""
    value = text[start:end]
    if not value[:1].isupper() or not re.search(r"[A-Za-z]{2}", value):
        return False
    before = text[max(0, start - 40) : start]
    after = text[end : end + 20]
    if label == "PERSON":
        return bool(_HONORIFIC_BEFORE.search(before) or _NAME_BEFORE_VERB.match(after))
    if label in {"LOCATION", "ORGANIZATION"}:
        return bool(_PLACE_BEFORE.search(before) or _STREET_BEFORE.search(before))
    return False


def possible_miss_label(
    text: str, start: int, end: int, label: str, detector: str, reason: str, rule: str
) -> str | None:
    """The label under which a dropped find is shown as a possible miss (PERSON, or
    LOCATION for a place or a body the context puts somewhere), or None when it stays
    dropped: only a statistical member's find, dropped by a rule about its shape
    (``SOFT_RULES``), that its context makes a name or a place (``in_context``)."""
    if rule not in SOFT_RULES or not statistical_member(detector, reason):
        return None
    if label not in {"PERSON", "LOCATION", "ORGANIZATION"}:
        return None
    if not in_context(text, start, end, label):
        return None
    return "PERSON" if label == "PERSON" else "LOCATION"


def trace(
    decisions: Iterable[Decision], start: int, end: int, label: str | None = None
) -> list[dict]:
    """The decisions about candidates overlapping ``[start, end)``: which member found the
    words and what became of its find (``evaluate``/``leak_report`` for a mention in clear)."""
    out = []
    seen = set()
    for d in decisions:
        if d.start < end and start < d.end:
            key = (d.detector, d.start, d.end, d.label, d.outcome, d.rule)
            if key not in seen:
                seen.add(key)
                out.append(d.as_dict())
    out.sort(key=lambda x: (x["start"], x["detector"], x["end"]))
    return out


def why_in_clear(found_by: list[dict]) -> str:
    """In words, why words that a member found are in clear: ``not found`` (no member
    proposed them), ``dropped: spacy/ordinary-word-body, ...``, ``possible miss`` (shown
    to the reviewer, not decided) or ``merge`` (every find reached the merge, which gave
    the words to a longer or higher-ranked span elsewhere)."""
    if not found_by:
        return "not found"
    if any(d["outcome"] == POSSIBLE_MISS for d in found_by):
        return "possible miss"
    dropped = sorted({f"{d['detector']}/{d['rule']}" for d in found_by if d["outcome"] == DROPPED})
    if dropped and not any(d["outcome"] == SPAN for d in found_by):
        return "dropped: " + ", ".join(dropped)
    return "merge" if not dropped else "merge; dropped: " + ", ".join(dropped)


def left_in_clear(
    text: str,
    gold: Iterable,
    predicted: Iterable,
    decisions: Iterable[Decision],
) -> list[dict]:
    """Gold mentions (objects with ``start``, ``end``, ``label``) that no predicted span
    touches, each with the members that found its words and what became of their finds
    (``trace``) and ``why`` in words."""
    spans = sorted((p.start, p.end) for p in predicted)
    decided = list(decisions)
    out = []
    for g in gold:
        if any(s < g.end and g.start < e for s, e in spans):
            continue
        found_by = trace(decided, g.start, g.end)
        out.append(
            {
                "start": g.start,
                "end": g.end,
                "label": g.label,
                "text": text[g.start : g.end],
                "why": why_in_clear(found_by),
                "found_by": found_by,
            }
        )
    return out


# The safety net's budget: at most this many possible misses per 1,000 words.
MISSES_PER_1000_WORDS = 5


def dropped_finds(
    text: str,
    decisions: Iterable[Decision],
    covered: Iterable[tuple[int, int]],
    already: int = 0,
) -> list[tuple[int, int, str]]:
    """``(start, end, label)`` of the dropped finds to show as possible misses: decided
    ``possible_miss``, covered by no span (``covered``), one per place, in text order, within
    what the budget leaves after the ``already`` proposed ones."""
    import bisect
    import math

    budget = math.ceil(MISSES_PER_1000_WORDS * len(text.split()) / 1000) - already
    if budget <= 0:
        return []
    spans = sorted(covered)
    starts = [s for s, _ in spans]
    out: dict[tuple[int, int], str] = {}
    for d in sorted(decisions, key=lambda x: (x.start, x.end)):
        if d.outcome != POSSIBLE_MISS or d.rule not in SOFT_RULES or (d.start, d.end) in out:
            continue  # (a second-opinion member's lone finds reach the net another way)
        i = bisect.bisect_right(starts, d.start)
        near = spans[max(0, i - 3) : i + 3]
        if any(s < d.end and d.start < e for s, e in near):
            continue
        if any(s < d.end and d.start < e for s, e in out):
            continue
        out[(d.start, d.end)] = d.label
        if len(out) >= budget:
            break
    return [(s, e, label) for (s, e), label in out.items()]
