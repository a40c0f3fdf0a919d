"""Reviewer effort. Django-free: the service passes one record per reviewed transcript.

* actions per 1,000 tokens: review actions (span and entity decisions, each audit row
  written by a person, transitions excluded) per 1,000 tokens of text;
* share of suggestions accepted unchanged: machine suggestions that ended ``accepted``
  with the start, end and label the machine proposed, over all machine suggestions;
* added spans per label: spans reviewers added (what the machine missed);
* time in review: seconds between entering and leaving ``in_review``, summed over
  every review round of the transcript.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime

from engine.evaluation.metrics import _label_sort


@dataclass(slots=True)
class ReviewRecord:
    transcript_id: int
    tokens: int
    actions: int
    suggestions: int  # machine suggestions (spans with detector provenance)
    accepted_unchanged: int
    added_by_label: dict[str, int] = field(default_factory=dict)
    review_seconds: float = 0.0
    title: str = ""
    submitted_at: str = ""  # ISO time of the last submission ("" if never submitted)


def per_1000(count: float, tokens: int) -> float | None:
    return 1000.0 * count / tokens if tokens else None


def review_seconds(
    transitions: Iterable[tuple[datetime, str, str]], *, state: str = "in_review"
) -> float:
    """Seconds spent in ``state`` from ``(when, source, target)`` transitions, summed
    over rounds (a round still open is not counted)."""
    total = 0.0
    entered: datetime | None = None
    for when, _source, target in sorted(transitions, key=lambda t: t[0]):
        if target == state:
            entered = entered or when
        elif entered is not None:
            total += (when - entered).total_seconds()
            entered = None
    return total


def effort_summary(records: Sequence[ReviewRecord]) -> dict:
    tokens = sum(r.tokens for r in records)
    actions = sum(r.actions for r in records)
    suggestions = sum(r.suggestions for r in records)
    unchanged = sum(r.accepted_unchanged for r in records)
    added: Counter[str] = Counter()
    for r in records:
        added.update(r.added_by_label)
    seconds = [r.review_seconds for r in records if r.review_seconds]
    return {
        "transcripts": len(records),
        "tokens": tokens,
        "actions": actions,
        "actions_per_1000_tokens": per_1000(actions, tokens),
        "suggestions": suggestions,
        "accepted_unchanged": unchanged,
        "accepted_unchanged_share": unchanged / suggestions if suggestions else None,
        "added_total": sum(added.values()),
        "added_per_label": {label: added[label] for label in _label_sort(added)},
        "review_seconds_total": sum(seconds),
        "review_seconds_mean": sum(seconds) / len(seconds) if seconds else None,
        "per_transcript": [
            {
                "transcript": r.transcript_id,
                "title": r.title,
                "tokens": r.tokens,
                "actions": r.actions,
                "actions_per_1000_tokens": per_1000(r.actions, r.tokens),
                "suggestions": r.suggestions,
                "accepted_unchanged": r.accepted_unchanged,
                "accepted_unchanged_share": r.accepted_unchanged / r.suggestions
                if r.suggestions
                else None,
                "added": sum(r.added_by_label.values()),
                "review_seconds": r.review_seconds,
                "submitted_at": r.submitted_at,
            }
            for r in records
        ],
    }


def actions_per_day(moments: Iterable[datetime | date]) -> list[tuple[str, int]]:
    """Count of actions per calendar day (ISO dates, ascending), days without
    actions between the first and the last included as 0."""
    days = Counter((m.date() if isinstance(m, datetime) else m) for m in moments)
    if not days:
        return []
    first, last = min(days), max(days)
    out = []
    day = first
    while day <= last:
        out.append((day.isoformat(), days.get(day, 0)))
        day = date.fromordinal(day.toordinal() + 1)
    return out
