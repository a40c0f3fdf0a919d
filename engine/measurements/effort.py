"""Reviewer effort. Django-free: the service passes one record per reviewed transcript.

* actions per 1,000 tokens: review actions (span and entity decisions, each audit row
  written by a person, transitions excluded) per 1,000 tokens of text;
* share of suggestions accepted unchanged: machine suggestions that ended ``accepted``
  with the start, end and label the machine proposed, over all machine suggestions;
* added spans per label: spans reviewers added (what the machine missed);
* time in review: seconds between entering and leaving ``in_review``, summed over
  every review round of the transcript;
* decisions by kind (:func:`decision_kind`): how many review actions decided spans one
  by one, by surface form, by reference group, by label, by page, and how many spans
  each kind decided — one "Accept 1,157" is one action and 1,157 spans decided by label,
  not 1,157 careful decisions;
* time on task: the seconds between consecutive actions of the review (entering
  ``in_review``, every review action, submitting), gaps longer than
  :data:`IDLE_SECONDS` counted as a break (0), summed per transcript.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime

from engine.evaluation.metrics import _label_sort

# Kinds of review decision, in the order reports show them.
ONE_BY_ONE = "one_by_one"
DECISION_KINDS = (ONE_BY_ONE, "form", "group", "label", "page", "scripted")
# Actions that decide no span: proposing mentions (apply to all), reference-group edits,
# undo, notes.
OTHER_KINDS = ("proposals", "groups", "undo", "other")
IDLE_SECONDS = 300.0

_SINGLE = frozenset({"accept", "reject", "relabel", "resize", "add", "delete"})
_BULK = frozenset({"form", "group", "label", "page"})


def decision_kind(event_type: str, after: dict | None) -> tuple[str, int]:
    """``(kind, spans decided)`` of one review audit row.

    A bulk action says what it decided: ``after["bulk"]`` in ``form``/``group``/
    ``label``/``page`` with ``after["count"]`` (or its span snapshots); the older
    ``review.accept_all`` carries ``label`` or ``entity`` (a reference group) and the
    snapshots of the spans it accepted. ``review.scripted`` is the scripted reviewer
    (its accepted + rejected + added counts). A single-span action decides one span.
    """
    after = after if isinstance(after, dict) else {}
    action = event_type.removeprefix("review.")

    def spans() -> int:
        count = after.get("count")
        if isinstance(count, int):
            return count
        return len(after.get("spans") or [])

    if after.get("bulk") in _BULK:
        return str(after["bulk"]), spans()
    if action == "accept_all":
        return ("label" if "label" in after else "group"), spans()
    if action == "scripted":
        return "scripted", sum(int(after.get(k) or 0) for k in ("accepted", "rejected", "added"))
    if action in _SINGLE:
        return ONE_BY_ONE, 1
    if action == "apply_all":
        return "proposals", 0
    if action in {"merge", "split"} or event_type.startswith("entity"):
        return "groups", 0
    if action == "undo":
        return "undo", 0
    return "other", 0


def decisions_by_kind(rows: Iterable[tuple[str, dict | None]]) -> dict[str, dict[str, int]]:
    """``{kind: {"actions", "spans"}}`` over ``(event_type, after)`` rows, every kind of
    :data:`DECISION_KINDS` and :data:`OTHER_KINDS` present (zeros included)."""
    out = {kind: {"actions": 0, "spans": 0} for kind in DECISION_KINDS + OTHER_KINDS}
    for event_type, after in rows:
        kind, count = decision_kind(event_type, after)
        out[kind]["actions"] += 1
        out[kind]["spans"] += count
    return out


def active_seconds(moments: Iterable[datetime], *, idle: float = IDLE_SECONDS) -> float:
    """Time on task: the sum of gaps between consecutive ``moments`` no longer than
    ``idle`` seconds (a longer gap is a break and counts 0)."""
    ordered = sorted(moments)
    total = 0.0
    for a, b in zip(ordered, ordered[1:], strict=False):
        gap = (b - a).total_seconds()
        if gap <= idle:
            total += gap
    return total


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
    decisions: dict[str, dict[str, int]] = field(default_factory=dict)  # decisions_by_kind
    active_seconds: float = 0.0  # time on task (active_seconds)


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
    decisions = {kind: {"actions": 0, "spans": 0} for kind in DECISION_KINDS + OTHER_KINDS}
    for r in records:
        for kind, counts in r.decisions.items():
            for key in ("actions", "spans"):
                decisions.setdefault(kind, {"actions": 0, "spans": 0})[key] += counts[key]
    active = [r.active_seconds for r in records if r.active_seconds]
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
        "decisions": decisions,
        "spans_decided": sum(decisions[k]["spans"] for k in DECISION_KINDS),
        "spans_one_by_one_share": _share(decisions[ONE_BY_ONE]["spans"], decisions),
        "active_seconds_total": sum(active),
        "active_seconds_mean": sum(active) / len(active) if active else None,
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
                "decisions": r.decisions,
                "spans_decided": sum(
                    r.decisions.get(k, {}).get("spans", 0) for k in DECISION_KINDS
                ),
                "spans_one_by_one_share": _share(
                    r.decisions.get(ONE_BY_ONE, {}).get("spans", 0), r.decisions
                ),
                "active_seconds": r.active_seconds,
                "spans_per_active_minute": 60.0
                * sum(r.decisions.get(k, {}).get("spans", 0) for k in DECISION_KINDS)
                / r.active_seconds
                if r.active_seconds
                else None,
            }
            for r in records
        ],
    }


def _share(part: int, decisions: dict[str, dict[str, int]]) -> float | None:
    total = sum(decisions.get(k, {}).get("spans", 0) for k in DECISION_KINDS)
    return part / total if total else None


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
