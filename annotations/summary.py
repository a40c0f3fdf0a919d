"""Selector: what the reviewers did to a transcript, against what the machine proposed —
the approval screen's summary (DESIGN.md "The release rule").

:func:`review_summary` reads, whatever the transcript's size, a fixed number of queries:
one pass over the spans joined with their proposals, one aggregate over the proposals
nobody kept (deleted), one pass over the transcript's audit rows (bulk vs one by one, who
did what, time spent, allow-list terms added while it was in review), the exceptions
("not a leak here"), the flags, and one leak check (the non-blocking findings, named).
:meth:`ReviewSummary.audit_record` is what the approval stores: counts and ids, no text.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import timedelta

from django.urls import reverse

from annotations.models import LeakException, Proposal, Span
from anonreview.core.models import AuditEvent
from transcripts.models import Transcript, Utterance

EVENT_PREFIX = "review."
UNDO_EVENT = "review.undo"
SCRIPTED = "review.scripted"  # load_demo --reviewed: a script, not a person
BULK_TYPES = frozenset({"review.accept_all", SCRIPTED})
REVIEWER_DETECTORS = frozenset({"human", "review.occurrence"})
# A gap longer than this between two actions of one person is a pause, not review time.
IDLE = timedelta(minutes=5)
# Decision categories, in the order the screen shows them.
CATEGORIES = (
    ("accepted", "Accepted as proposed"),
    ("rejected", "Rejected"),
    ("relabelled", "Relabelled"),
    ("resized", "Resized"),
    ("added", "Added"),
    ("replaced", "Replaced by a wider span"),
    ("deleted", "Deleted"),
    ("undecided", "Undecided"),
)
# How a non-blocking finding of the leak check is named for the lead.
FINDING_NAMES = {
    "not_a_leak": "Marked “not a leak here”",
    "lowercase": "A name part found only in lower case (most likely the common word)",
    "coarse": "A state or country named again",
    "indirect": "An indirect identifier named again (organisation, age, …)",
}
# How the changes view names each kind of change.
CHANGE_NAMES = {"replaced": "replaced by a wider span"}


class _Wider:
    """Whether a wider kept span covers an extent: a proposal with no span left whose
    place a wider span took over (an add over it swallows the spans inside) was
    replaced, not deleted. Built once from the kept spans' extents; each question is two
    bisections over prefix maxima of their ends."""

    def __init__(self, kept: list[tuple[int, int]]):
        kept.sort()
        self.starts = [s for s, _e in kept]
        self.reach = []
        furthest = -1
        for _s, e in kept:
            furthest = max(furthest, e)
            self.reach.append(furthest)

    def covers(self, start: int, end: int) -> bool:
        i = bisect_right(self.starts, start)  # spans starting at or before ``start``
        j = bisect_left(self.starts, start)  # spans starting before it
        return bool(i and self.reach[i - 1] > end) or bool(j and self.reach[j - 1] >= end)


@dataclass
class Form:
    """A surface form (rejected or added) with how often and where first."""

    text: str
    count: int
    label: str
    url: str
    # a rejected form whose rejection was proposed from approved hearings and confirmed
    # by this transcript's reviewer: the proposal's words ("rejected in 4 approved
    # hearings"; ``annotations.services.annotation_carried``)
    carried: str = ""


@dataclass
class Actor:
    username: str
    user_id: int | None
    actions: Counter = field(default_factory=Counter)
    one_by_one: int = 0  # spans decided by single actions
    bulk: int = 0  # spans decided by bulk actions
    seconds: float = 0.0
    first: object = None
    last: object = None

    @property
    def total(self) -> int:
        return sum(self.actions.values())

    @property
    def action_list(self) -> list[tuple[str, int]]:
        return sorted(self.actions.items())

    @property
    def minutes(self) -> float:
        return round(self.seconds / 60, 1)


@dataclass
class ReviewSummary:
    transcript_id: int
    proposed: int = 0
    counts: dict = field(default_factory=dict)  # category -> {label: n}
    # a form rejected at two or more mentions; a single rejected span is no form decision
    # and is listed apart
    rejected_forms: list[Form] = field(default_factory=list)
    rejected_spans: list[Form] = field(default_factory=list)
    added_forms: list[Form] = field(default_factory=list)
    bulk: Counter = field(default_factory=Counter)  # bulk action -> spans
    bulk_events: Counter = field(default_factory=Counter)  # bulk action -> actions
    one_by_one: int = 0
    undone: int = 0
    exceptions: list[dict] = field(default_factory=list)
    allowlist_added: list[dict] = field(default_factory=list)
    flags: list[dict] = field(default_factory=list)
    findings: Counter = field(default_factory=Counter)  # non-blocking, by name
    blocking: int = 0
    actors: list[Actor] = field(default_factory=list)

    @property
    def labels(self) -> list[str]:
        seen = {label for per in self.counts.values() for label in per}
        return sorted(seen)

    @property
    def table(self) -> list[dict]:
        """Rows per category: its name, total and count per label (for the template)."""
        labels = self.labels
        return [
            {
                "key": key,
                "name": name,
                "total": sum(self.counts.get(key, {}).values()),
                "cells": [self.counts.get(key, {}).get(label, 0) for label in labels],
            }
            for key, name in CATEGORIES
        ]

    @property
    def by_label(self) -> list[tuple[str, list[int]]]:
        """(label, count per category) rows: labels down, categories across."""
        return [
            (label, [self.counts.get(key, {}).get(label, 0) for key, _name in CATEGORIES])
            for label in self.labels
        ]

    @property
    def bulk_total(self) -> int:
        return sum(self.bulk.values())

    # Lists for templates (a Counter answers 0 to ``.items`` looked up as a key).
    @property
    def bulk_list(self) -> list[tuple[str, int, int]]:
        return [(name, n, self.bulk_events[name]) for name, n in sorted(self.bulk.items())]

    @property
    def finding_list(self) -> list[tuple[str, int]]:
        return sorted(self.findings.items())

    def audit_record(self) -> dict:
        """What the approval stores in its audit row: counts and ids, never text."""
        return {
            "proposed": self.proposed,
            "decisions": {k: dict(sorted(v.items())) for k, v in self.counts.items() if v},
            "rejected_forms": len(self.rejected_forms),
            "rejected_spans": len(self.rejected_spans),
            "added_forms": len(self.added_forms),
            "bulk": dict(self.bulk),
            "one_by_one": self.one_by_one,
            "undone": self.undone,
            "exceptions": [e["id"] for e in self.exceptions],
            "allowlist_added": [a["id"] for a in self.allowlist_added],
            "flags": [f["span"] for f in self.flags],
            "nonblocking": dict(self.findings),
            "actors": [
                {
                    "user": a.user_id,
                    "actions": sum(a.actions.values()),
                    "one_by_one": a.one_by_one,
                    "bulk": a.bulk,
                    "seconds": round(a.seconds),
                }
                for a in self.actors
            ],
        }


def _spans_of(event_type: str, before: dict, after: dict) -> int:
    """How many spans one review action decided or changed."""
    ids = {s.get("id") for s in (after or {}).get("spans") or []}
    ids |= {s.get("id") for s in (before or {}).get("spans") or []}
    return len(ids)


def _is_bulk(event_type: str, after: dict) -> bool:
    return event_type in BULK_TYPES or "bulk" in (after or {})


def _bulk_name(event_type: str, after: dict) -> str:
    action = event_type.removeprefix(EVENT_PREFIX)
    if event_type == SCRIPTED:
        return "the scripted demo reviewer"
    if event_type == "review.accept_all":
        return f"accept all of a {'label' if 'label' in after else 'group'}"
    return f"{action.replace('_', ' ')} ({after.get('bulk')})"


def _carried_why(provenance) -> str:
    """A carried proposal's words, if one was made for this span."""
    for item in provenance or []:
        if isinstance(item, dict) and item.get("detector") == "carried":
            return str(item.get("why") or "carried")
    return ""


def _by_reviewer(provenance) -> bool:
    """Whether a span without a proposal was made by a reviewer (added, or proposed at
    every occurrence by "apply to all"), not by the machine."""
    return any((item or {}).get("detector") in REVIEWER_DETECTORS for item in provenance or [])


def _decisions(summary: ReviewSummary, transcript: Transcript, base: str) -> None:
    text = transcript.text
    counts: dict[str, Counter] = defaultdict(Counter)
    rejected: dict[tuple[str, str], list] = {}
    added: dict[tuple[str, str], list] = {}
    carried: dict[tuple[str, str], str] = {}
    kept: list[tuple[int, int]] = []
    rows = Span.objects.filter(transcript=transcript).values_list(
        "pk", "start", "end", "label", "status", "provenance",
        "proposal_id", "proposal__start", "proposal__end", "proposal__label",
    )  # fmt: skip
    for (
        pk,
        start,
        end,
        label,
        status,
        provenance,
        proposal,
        p_start,
        p_end,
        p_label,
    ) in rows.iterator(chunk_size=2000):
        if status != Span.Status.REJECTED:
            kept.append((start, end))
        if status == Span.Status.SUGGESTED:
            counts["undecided"][label] += 1
        elif status == Span.Status.REJECTED:
            counts["rejected"][p_label or label] += 1
            forms = rejected.setdefault((label, text[start:end]), [0, pk])
            forms[0] += 1
            why = _carried_why(provenance)
            if why:
                carried[(label, text[start:end])] = why
        elif proposal is None and (status == Span.Status.ADDED or _by_reviewer(provenance)):
            counts["added"][label] += 1
            forms = added.setdefault((label, text[start:end]), [0, pk])
            forms[0] += 1
        elif proposal is None:  # a machine suggestion stored before proposals were kept
            counts["accepted"][label] += 1
        else:
            changed = False
            if label != p_label:
                counts["relabelled"][label] += 1
                changed = True
            if (start, end) != (p_start, p_end):
                counts["resized"][label] += 1
                changed = True
            if not changed:
                counts["accepted"][label] += 1
    wider = _Wider(kept)
    for start, end, label in Proposal.objects.filter(
        transcript=transcript, spans__isnull=True
    ).values_list("start", "end", "label"):
        counts["replaced" if wider.covers(start, end) else "deleted"][label] += 1
    summary.proposed = Proposal.objects.filter(transcript=transcript).count()
    summary.counts = {k: dict(v) for k, v in counts.items()}

    def forms(found):
        out = [
            Form(
                text=form, count=n, label=label, url=f"{base}?span={pk}",
                carried=carried.get((label, form), ""),
            )
            for (label, form), (n, pk) in found.items()
        ]  # fmt: skip
        return sorted(out, key=lambda f: (-f.count, f.label, f.text.casefold()))

    rejections = forms(rejected)
    summary.rejected_forms = [f for f in rejections if f.count > 1]
    summary.rejected_spans = [f for f in rejections if f.count == 1]
    summary.added_forms = forms(added)


def _activity(summary: ReviewSummary, transcript: Transcript) -> None:
    """One pass over the transcript's audit rows: bulk vs one by one, who and how long,
    allow-list terms added while it was in review."""
    actors: dict[str, Actor] = {}
    events = AuditEvent.objects.filter(transcript=transcript).order_by("created_at", "pk")
    undone = set()
    review_from = review_to = None
    rows = list(
        events.values_list(
            "pk", "event_type", "actor_id", "actor_username", "created_at", "before", "after"
        )
    )
    for _pk, kind, _actor, _user, _at, _before, after in rows:
        if kind == UNDO_EVENT and (after or {}).get("undoes"):
            undone.add(int(after["undoes"]))
    for pk, kind, actor_id, username, at, before, after in rows:
        after = after or {}
        if kind == "transcript.transition":
            if after.get("state") == Transcript.State.IN_REVIEW and review_from is None:
                review_from = at
            if after.get("state") == Transcript.State.SUBMITTED:
                review_to = at
            continue
        if not kind.startswith(EVENT_PREFIX) and kind != "review_note.flag":
            continue
        person = actors.setdefault(username or "system", Actor(username or "system", actor_id))
        person.actions[kind.removeprefix(EVENT_PREFIX).removeprefix("review_note.")] += 1
        if person.last is not None:
            person.seconds += min(at - person.last, IDLE).total_seconds()
        person.first = person.first or at
        person.last = at
        if kind == UNDO_EVENT:
            summary.undone += 1
            continue
        if pk in undone or not kind.startswith(EVENT_PREFIX):
            continue
        n = _spans_of(kind, before, after)
        if kind == SCRIPTED:  # the demo's scripted reviewer: counts, no snapshots
            n = sum(v for v in after.values() if isinstance(v, int))
        if _is_bulk(kind, after):
            name = _bulk_name(kind, after)
            summary.bulk[name] += n
            summary.bulk_events[name] += 1
            person.bulk += n
        else:
            summary.one_by_one += n
            person.one_by_one += n
    summary.actors = sorted(actors.values(), key=lambda a: a.first)
    if review_from is not None:
        added = AuditEvent.objects.filter(event_type="allowlist.add", created_at__gte=review_from)
        if review_to is not None:
            added = added.filter(created_at__lte=review_to)
        summary.allowlist_added = [
            {"id": pk, "term": (after or {}).get("term", ""), "by": username}
            for pk, username, after in added.values_list("pk", "actor_username", "after")
        ]


def _exceptions_and_flags(summary: ReviewSummary, transcript: Transcript, base: str) -> None:
    text = transcript.text
    reasons = dict(LeakException.Reason.choices)
    exceptions = list(
        LeakException.objects.filter(transcript=transcript).values_list(
            "pk", "start", "end", "reason", "note", "created_by__username"
        )
    )
    bounds = (
        list(
            Utterance.objects.filter(transcript=transcript)
            .order_by("start")
            .values_list("start", "page", "index")
        )
        if exceptions
        else []
    )
    starts = [b[0] for b in bounds]
    for pk, start, end, reason, note, by in exceptions:
        i = bisect_right(starts, start) - 1
        url = f"{base}?page={bounds[i][1]}#uo-{bounds[i][2]}" if i >= 0 else base
        summary.exceptions.append(
            {
                "id": pk, "text": text[start:end], "reason": reasons.get(reason, reason),
                "note": note, "by": by or "", "context": text[max(0, start - 30) : end + 30],
                "url": url,
            }
        )  # fmt: skip
    for pk, start, end, label, note in (
        Span.objects.filter(transcript=transcript, flagged=True)
        .order_by("start")
        .values_list("pk", "start", "end", "label", "lead_note")
    ):
        summary.flags.append(
            {"span": pk, "text": text[start:end], "label": label, "note": note,
             "url": f"{base}?span={pk}"}
        )  # fmt: skip


def _finding_name(leak) -> str:
    if leak.kind == "not_a_leak":
        return FINDING_NAMES["not_a_leak"]
    if leak.text.islower():
        return FINDING_NAMES["lowercase"]
    if leak.label == "LOCATION":
        return FINDING_NAMES["coarse"]
    return FINDING_NAMES["indirect"]


def review_summary(*, transcript: Transcript, leaks: list | None = None) -> ReviewSummary:
    """The summary of ``transcript``'s review for the lead (see the module docstring).
    ``leaks``: the leak check's result when the caller already ran it."""
    if leaks is None:
        from annotations.services.leaks import leak_check

        leaks = leak_check(transcript=transcript)
    base = reverse("annotations:review", args=[transcript.pk])
    summary = ReviewSummary(transcript_id=transcript.pk)
    _decisions(summary, transcript, base)
    _activity(summary, transcript)
    _exceptions_and_flags(summary, transcript, base)
    for leak in leaks:
        if leak.blocking:
            summary.blocking += 1
        else:
            summary.findings[_finding_name(leak)] += 1
    return summary


@dataclass
class Change:
    """One place where the release differs from the machine's proposal."""

    kind: str  # rejected | relabelled | resized | added | replaced | deleted
    start: int
    end: int
    label: str
    proposed: str  # the proposal's label and text ("" for an added span)
    text: str
    before: str
    after: str
    url: str

    @property
    def name(self) -> str:
        return CHANGE_NAMES.get(self.kind, self.kind)


def review_changes(*, transcript: Transcript, context: int = 60) -> list[Change]:
    """Every decision that differs from the machine's proposal, in text order, with its
    context: the curation view of the release against the proposal (one pass over the
    spans, one query for the proposals no span keeps: replaced by a wider span, or deleted)."""
    text = transcript.text
    base = reverse("annotations:review", args=[transcript.pk])
    out: list[Change] = []

    def change(kind, start, end, label, proposed, url):
        out.append(
            Change(
                kind=kind, start=start, end=end, label=label, proposed=proposed,
                text=text[start:end], before=text[max(0, start - context) : start],
                after=text[end : end + context], url=url,
            )
        )  # fmt: skip

    rows = Span.objects.filter(transcript=transcript).values_list(
        "pk", "start", "end", "label", "status", "provenance",
        "proposal_id", "proposal__start", "proposal__end", "proposal__label",
    )  # fmt: skip
    kept: list[tuple[int, int]] = []
    for pk, start, end, label, status, provenance, proposal, p_start, p_end, p_label in rows:
        url = f"{base}?span={pk}"
        if status != Span.Status.REJECTED:
            kept.append((start, end))
        proposed = f"{p_label} “{text[p_start:p_end]}”" if proposal else ""
        if status == Span.Status.REJECTED:
            change("rejected", start, end, label, proposed or label, url)
        elif status == Span.Status.SUGGESTED:
            change("undecided", start, end, label, proposed or label, url)
        elif proposal is None:
            if status == Span.Status.ADDED or _by_reviewer(provenance):
                change("added", start, end, label, "", url)
        elif label != p_label:
            change("relabelled", start, end, label, proposed, url)
        elif (start, end) != (p_start, p_end):
            change("resized", start, end, label, proposed, url)
    wider = _Wider(kept)
    for start, end, label in Proposal.objects.filter(
        transcript=transcript, spans__isnull=True
    ).values_list("start", "end", "label"):
        kind = "replaced" if wider.covers(start, end) else "deleted"
        change(kind, start, end, label, f"{label} “{text[start:end]}”", base)
    return sorted(out, key=lambda c: (c.start, c.end, c.kind))
