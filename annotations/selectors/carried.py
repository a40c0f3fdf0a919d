"""Decisions that carry (issue 30): a surface form the reviewers rejected or relabelled in
approved transcripts is proposed the same way in a new one, with its provenance
("rejected in 4 approved hearings"), and stays the reviewer's decision: the form table
offers it as the first choice (``form_carried``), nothing is decided for them.

A decision carries when the reviewers of at least ``CARRY_MIN`` approved hearings made
it for the form (case-folded, as the table groups forms) proposed with that label, and
those are at least ``CARRY_SHARE`` of the approved hearings where the machine proposed
it: a form kept as often as rejected carries nothing. Each hearing counts once (its
mentions' most frequent outcome). Double-annotation copies are left out.

A carried decision never applies to a name the transcript itself gives (its cover page,
its speaker tags, a spelled-out word, the word after an honorific): the allow-list's
rule (``engine.detectors.given``), so "Good" rejected in many hearings as "Good
morning" is not offered for rejection where the facilitator is Jonathon Good.
"""

from __future__ import annotations

import threading
from collections import Counter, defaultdict
from dataclasses import dataclass

from django.db.models import Count, F, Max
from django.db.models.functions import Substr

from annotations.models import Span
from annotations.services.review.bulk import normalize_form
from transcripts.models import Transcript

CARRY_MIN = 2  # approved hearings with the same decision before it carries
CARRY_SHARE = 0.75  # of the approved hearings where the form was proposed with the label
GOLD_STATES = (Transcript.State.APPROVED, Transcript.State.RELEASED)
KEEP = "keep"
REJECT = "reject"


@dataclass(frozen=True)
class Carried:
    decision: str  # "reject" or "relabel"
    label: str  # the label it goes to (relabel) or had (reject)
    hearings: int  # approved hearings that decided so
    of: int  # approved hearings where the machine proposed the form with this label

    @property
    def why(self) -> str:
        done = "rejected" if self.decision == REJECT else f"relabelled as {self.label}"
        plural = "s" if self.hearings != 1 else ""
        return f"{done} in {self.hearings} approved hearing{plural}"


def _outcome(proposed: str, label: str, status: str) -> str:
    if status == Span.Status.REJECTED:
        return REJECT
    return f"relabel:{label}" if label != proposed else KEEP


def _compute() -> dict[tuple[str, str], Carried]:
    rows = (
        Span.objects.filter(
            transcript__state__in=GOLD_STATES,
            transcript__double_of__isnull=True,
            proposal__isnull=False,
            status__in=[Span.Status.ACCEPTED, Span.Status.REJECTED],
        )
        # the form's text, cut by the database (no transcript text is read here)
        .annotate(form=Substr("transcript__text", F("start") + 1, F("end") - F("start")))
        .values_list("transcript_id", "proposal__label", "label", "status", "form")
        .iterator(chunk_size=2000)
    )
    per_hearing: dict[tuple[str, str], dict[int, Counter]] = defaultdict(
        lambda: defaultdict(Counter)
    )
    for transcript_id, proposed, label, status, form in rows:
        key = (proposed, normalize_form(form or ""))
        per_hearing[key][transcript_id][_outcome(proposed, label, status)] += 1
    carried: dict[tuple[str, str], Carried] = {}
    for key, hearings in per_hearing.items():
        votes = Counter(outcomes.most_common(1)[0][0] for outcomes in hearings.values())
        outcome, n = votes.most_common(1)[0]
        if outcome == KEEP or n < CARRY_MIN or n < CARRY_SHARE * len(hearings):
            continue
        if outcome == REJECT:
            carried[key] = Carried(REJECT, key[0], n, len(hearings))
        else:
            carried[key] = Carried("relabel", outcome.split(":", 1)[1], n, len(hearings))
    return carried


_cache: dict[tuple, dict] = {}
_lock = threading.Lock()


def _stamp() -> tuple:
    """Changes whenever a transcript is approved (or leaves approval; an approved one is
    read-only): one aggregate query."""
    gold = Transcript.objects.filter(state__in=GOLD_STATES).aggregate(
        n=Count("pk"), last=Max("updated_at"), top=Max("pk")
    )
    return (gold["n"], gold["last"], gold["top"])


def carried_decisions() -> dict[tuple[str, str], Carried]:
    """``{(label, form key): Carried}`` from the approved transcripts, computed once per
    approval (a module cache keyed by the latest transition)."""
    stamp = _stamp()
    with _lock:
        hit = _cache.get(stamp)
        if hit is not None:
            return hit
    carried = _compute()
    with _lock:
        _cache.clear()
        _cache[stamp] = carried
    return carried


def form_carried(*, transcript: Transcript, table: dict) -> None:
    """Mark each undecided form of ``table`` (``review_form_table``) with the decision
    that carries for it, unless the transcript gives the form as a name: a carried
    relabel becomes the row's relabel (its first choice, key ``r``), a carried rejection
    the row's suggested answer (key ``x``); the reviewer still decides."""
    carried = carried_decisions()
    if not carried:
        return
    from engine.detectors.given import given_names, is_given_name_term

    names = None
    for label, forms in table.items():
        for form in forms:
            if not form.open:
                continue
            decision = carried.get((label, form.key))
            if decision is None:
                continue
            if names is None:
                speakers = transcript.utterances.values_list("speaker", flat=True).distinct()
                names = set(
                    given_names(transcript.text, transcript.metadata or {}, speakers=speakers)
                )
            if names and is_given_name_term(form.form, names):
                continue  # a name this transcript gives is never hidden by the corpus
            form.carried = decision.decision
            form.carried_why = decision.why
            if decision.decision == "relabel":
                form.alternative = decision.label
                form.alternative_habit = False  # this form's own record: always shown
                form.alternative_why = decision.why
