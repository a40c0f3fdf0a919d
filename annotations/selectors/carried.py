"""Decisions that carry: a surface form the reviewers rejected or relabelled in approved
transcripts is proposed the same way in a new one, with its provenance ("rejected in 4
approved hearings"), and stays the decision of that transcript's reviewer. The
annotation records it on the span as a proposal (``annotations.services.annotation_carried``:
the span stays undecided); the form table shows it on the form's row (``form_carried``)
with one input to confirm it, for the form or for every carried proposal of the label
(``annotations.services.review.carried``).

A decision carries when the reviewers of at least ``CARRY_MIN`` approved hearings made
it for the form (case-folded, as the table groups forms) proposed with that label, and
those are at least ``CARRY_SHARE`` of the approved hearings where the machine proposed
it: a form kept as often as rejected carries nothing. Each hearing counts once (its
mentions' most frequent outcome). Double-annotation copies are left out. A hearing
whose reviewer confirmed the carried proposal counts apart ("confirmed in N more"): it
agrees with the decision (it counts in the share) but followed it rather than made it,
so it never makes a decision start to carry; a reviewer who decided otherwise counts as
a hearing that kept the form.

**By context** where the form's votes are mixed: the same form may be decided one way
in one context and the other way in another ("California" kept after a town, "Represa,
California.", and rejected in "any family outside California?"). Each mention also
votes under a context key: the form plus a coarse signature of its surroundings in the
transcript text (``context_of``): what precedes it (the previous word, lower-cased, or
the sign right before it, or the line start) and the class of what follows (a comma, a
full stop or question mark, a line end, a number, a word, another sign). The same
``CARRY_MIN`` and ``CARRY_SHARE`` rules decide per context key, and a context decision
applies only where the form-level one does not (``carried_for``); its ``why`` says the
context ('rejected in 3 approved hearings after "outside", before "." "?" "!"').
``settings.CARRIED_CONTEXT = False`` turns the context keys off.

A carried rejection is never proposed for a form the transcript gives as a name
(``engine.detectors.named_here``), so "Good" rejected in many hearings as "Good
morning" is not offered for rejection where the facilitator is Jonathon Good.
"""

from __future__ import annotations

import re
import threading
from collections import Counter, defaultdict
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Count, F, IntegerField, Max, Value
from django.db.models.functions import Greatest, Least, Substr

from annotations.models import Span
from engine.mentions import normalize_form
from transcripts.models import Transcript

CARRY_MIN = 2  # approved hearings with the same decision before it carries
CARRY_SHARE = 0.75  # of the approved hearings where the form was proposed with the label
GOLD_STATES = (Transcript.State.APPROVED, Transcript.State.RELEASED)
KEEP = "keep"
REJECT = "reject"
RELABEL = "relabel"
CARRIED = "carried"  # the provenance entry's "detector" of a carried decision
STOOD = "stood:"  # the outcome prefix of a hearing that followed a carried proposal
CONTEXT_BEFORE = 32  # characters before a mention read for its context (the previous word)
CONTEXT_AFTER = 8  # characters after it (the class of what follows)
LINE_START = "^"  # the context's "previous word" at the start of a line
NUMBER = "#"  # ... where it is a number (any)
# what follows a mention, coarsely: its class and how a provenance says it
FOLLOWS = {
    "comma": 'before ","',
    "stop": 'before "." "?" "!"',
    "line": "at a line end",
    "digit": "before a number",
    "word": "before a word",
    "other": "before a sign",
}
_LAST_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*$")


def context_of(before: str, after: str) -> tuple[str, str]:
    """A mention's coarse context from the text right ``before`` and ``after`` it (up to
    ``CONTEXT_BEFORE`` and ``CONTEXT_AFTER`` characters): ``(previous, follows)``, where
    ``previous`` is the previous word lower-cased (``#`` for a number), else the sign
    right before the mention, else ``^`` at a line start; and ``follows`` is one of
    ``FOLLOWS``' classes (spaces skipped; a line end before anything else is "line")."""
    b = before.rstrip(" \t")
    if not b or b[-1] in "\r\n":
        previous = LINE_START
    else:
        m = _LAST_WORD.search(b)
        if m is None:
            previous = b[-1]
        else:
            word = m.group().lower()
            previous = NUMBER if word.isdigit() else word
    a = after.lstrip(" \t")
    if not a or a[0] in "\r\n":
        follows = "line"
    elif a[0] == ",":
        follows = "comma"
    elif a[0] in ".?!":
        follows = "stop"
    elif a[0].isdigit():
        follows = "digit"
    elif a[0].isalpha():
        follows = "word"
    else:
        follows = "other"
    return previous, follows


def context_in(text: str, start: int, end: int) -> tuple[str, str]:
    """``context_of`` a mention of ``text`` (the same windows the votes read)."""
    return context_of(text[max(0, start - CONTEXT_BEFORE) : start], text[end : end + CONTEXT_AFTER])


def context_words(context: tuple[str, str]) -> str:
    """How a provenance says a context: 'after "outside", before "." "?" "!"'."""
    previous, follows = context
    if previous == LINE_START:
        at = "at a line start"
    elif previous == NUMBER:
        at = "after a number"
    else:
        at = f'after "{previous}"'
    return f"{at}, {FOLLOWS.get(follows, follows)}"


def context_enabled() -> bool:
    return getattr(settings, "CARRIED_CONTEXT", True)


@dataclass(frozen=True)
class Carried:
    decision: str  # "reject" or "relabel"
    label: str  # the label it goes to (relabel) or had (reject)
    hearings: int  # approved hearings whose reviewers decided so
    of: int  # approved hearings where the machine proposed the form with this label
    stood: int = 0  # of ``of``: hearings whose reviewer confirmed it as carried
    context: tuple[str, str] | None = None  # a context decision's ``context_of``, else None

    @property
    def why(self) -> str:
        done = "rejected" if self.decision == REJECT else f"relabelled as {self.label}"
        plural = "s" if self.hearings != 1 else ""
        where = f" {context_words(self.context)}" if self.context else ""
        more = f", confirmed in {self.stood} more" if self.stood else ""
        return f"{done} in {self.hearings} approved hearing{plural}{where}{more}"

    def provenance(self) -> dict:
        """The provenance entry of a span this decision made (``annotation_carried``)."""
        return {
            "detector": CARRIED,
            "score": 1.0,
            "decision": self.decision,
            "label": self.label,
            "hearings": self.hearings,
            "of": self.of,
            "stood": self.stood,
            **({"context": list(self.context)} if self.context else {}),
            "why": self.why,
        }


def _followed(outcome: str, provenance) -> bool:
    """Whether a span's outcome is the carried decision proposed for it (confirmed, or
    left standing by the earlier step that applied it without a reviewer)."""
    for p in provenance or []:
        if isinstance(p, dict) and p.get("detector") == CARRIED:
            if p.get("decision") == REJECT:
                return outcome == REJECT
            return outcome == f"relabel:{p.get('label')}"
    return False


def _outcome(proposed: str, label: str, status: str) -> str:
    if status == Span.Status.REJECTED:
        return REJECT
    return f"relabel:{label}" if label != proposed else KEEP


def votes_by_level() -> tuple[dict, dict]:
    """``(form votes, context votes)`` over the approved transcripts, one query: form
    votes ``{(label, form key): Counter(outcome: hearings)}``, each hearing's outcome for
    the form (``reject``, ``keep``, ``relabel:LABEL``, or one of them prefixed ``stood:``
    where the reviewer followed a carried proposal); context votes the same per
    ``(label, form key, previous, follows)`` (``context_of``) of the form's mentions."""
    rows = (
        Span.objects.filter(
            transcript__state__in=GOLD_STATES,
            transcript__double_of__isnull=True,
            proposal__isnull=False,
            status__in=[Span.Status.ACCEPTED, Span.Status.REJECTED],
        )
        # the form's text and a few characters either side, cut by the database (no
        # transcript text is read here)
        .annotate(
            form=Substr("transcript__text", F("start") + 1, F("end") - F("start")),
            before=Substr(
                "transcript__text",
                Greatest(
                    F("start") - CONTEXT_BEFORE + 1, Value(1), output_field=IntegerField()
                ),
                Least(F("start"), Value(CONTEXT_BEFORE), output_field=IntegerField()),
            ),
            after=Substr("transcript__text", F("end") + 1, Value(CONTEXT_AFTER)),
        )
        .values_list(
            "transcript_id", "proposal__label", "label", "status", "form", "provenance",
            "before", "after",
        )
        .iterator(chunk_size=2000)
    )  # fmt: skip
    per_form: dict[tuple, dict[int, Counter]] = defaultdict(lambda: defaultdict(Counter))
    per_context: dict[tuple, dict[int, Counter]] = defaultdict(lambda: defaultdict(Counter))
    for transcript_id, proposed, label, status, form, provenance, b, a in rows:
        key = (proposed, normalize_form(form or ""))
        outcome = _outcome(proposed, label, status)
        if outcome != KEEP and _followed(outcome, provenance):
            outcome = STOOD + outcome  # the reviewer followed a carried proposal
        per_form[key][transcript_id][outcome] += 1
        per_context[(*key, *context_of(b or "", a or ""))][transcript_id][outcome] += 1

    def counted(per: dict) -> dict:
        return {
            key: Counter(outcomes.most_common(1)[0][0] for outcomes in hearings.values())
            for key, hearings in per.items()
        }

    return counted(per_form), counted(per_context)


def carried_decision(key: tuple, votes: Counter) -> Carried | None:
    """The decision that carries for a form (``key`` ``(label, form)``) or a form in a
    context (``(label, form, previous, follows)``) with these ``votes``, or None."""
    decided = Counter({k: n for k, n in votes.items() if not k.startswith(STOOD)})
    if not decided:
        return None
    outcome, n = decided.most_common(1)[0]
    stood = votes[STOOD + outcome]
    of = sum(votes.values())
    if outcome == KEEP or n < CARRY_MIN or n + stood < CARRY_SHARE * of:
        return None
    context = tuple(key[2:4]) if len(key) == 4 else None
    if outcome == REJECT:
        return Carried(REJECT, key[0], n, of, stood, context)
    return Carried(RELABEL, outcome.split(":", 1)[1], n, of, stood, context)


def _compute() -> tuple[dict, dict]:
    forms, contexts = votes_by_level()
    decided = []
    for votes in (forms, contexts):
        carried = {}
        for key, counter in votes.items():
            decision = carried_decision(key, counter)
            if decision is not None:
                carried[key] = decision
        decided.append(carried)
    # a context decision only where its form carries nothing (form votes mixed)
    by_context = {k: d for k, d in decided[1].items() if k[:2] not in decided[0]}
    return decided[0], by_context


_cache: dict[tuple, dict] = {}
_lock = threading.Lock()


def _stamp() -> tuple:
    """Changes whenever a transcript is approved (or leaves approval; an approved one is
    read-only): one aggregate query."""
    gold = Transcript.objects.filter(state__in=GOLD_STATES).aggregate(
        n=Count("pk"), last=Max("updated_at"), top=Max("pk")
    )
    return (gold["n"], gold["last"], gold["top"])


def _decisions() -> tuple[dict, dict]:
    """``(form decisions, context decisions)``, computed once per approval (a module
    cache keyed by the latest transition)."""
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


def carried_decisions() -> dict[tuple[str, str], Carried]:
    """``{(label, form key): Carried}`` from the approved transcripts (form level)."""
    return _decisions()[0]


def carried_context_decisions() -> dict[tuple[str, str, str, str], Carried]:
    """``{(label, form key, previous, follows): Carried}``: the context decisions, of
    forms that carry nothing at form level; empty with ``CARRIED_CONTEXT = False``."""
    return _decisions()[1] if context_enabled() else {}


def carried_for(
    label: str, form_key: str, context: tuple[str, str], *, forms: dict, contexts: dict
) -> Carried | None:
    """The decision that carries for one mention: its form's, else its context's."""
    decision = forms.get((label, form_key))
    if decision is None and contexts:
        decision = contexts.get((label, form_key, *context))
    return decision


def carried_proposals(transcript: Transcript) -> dict[int, dict]:
    """``{span id: its carried provenance entry}`` of the transcript's undecided spans
    with a carried proposal (one query over its suggested spans' provenance)."""
    out = {}
    rows = Span.objects.filter(transcript=transcript, status=Span.Status.SUGGESTED).values_list(
        "pk", "provenance"
    )
    for pk, provenance in rows:
        entry = carried_proposal(provenance)
        if entry is not None:
            out[pk] = entry
    return out


def carried_proposal(provenance) -> dict | None:
    """The carried decision proposed for a span (its provenance entry), or None."""
    return next(
        (p for p in provenance or [] if isinstance(p, dict) and p.get("detector") == CARRIED),
        None,
    )


def carried_pending(*, transcript: Transcript, label: str, form: str = "") -> int:
    """How many undecided spans of ``label`` (of ``form`` if given) hold a carried
    proposal: what a confirmation would decide (to ask first above the bulk threshold)."""
    key = normalize_form(form) if form else ""
    text = transcript.text
    return sum(
        1
        for start, end, provenance in Span.objects.filter(
            transcript=transcript, label=label, status=Span.Status.SUGGESTED
        ).values_list("start", "end", "provenance")
        if carried_proposal(provenance) is not None
        and (not key or normalize_form(text[start:end]) == key)
    )


def form_carried(*, transcript: Transcript, table: dict) -> None:
    """Mark the forms of ``table`` (``review_form_table``) with what carries for them.

    A form whose undecided mentions hold a carried proposal (``annotation_carried``)
    shows it (``carried_pending``: how many mentions; ``carried_label``: a relabel's
    label) with one input that confirms it. An undecided form with a decision that carries
    but no proposal (a transcript annotated before it carried) shows the decision beside
    it: a carried relabel becomes the row's relabel (key ``r``), a carried rejection the
    row's suggested answer. A carried rejection never for a form the transcript gives as
    a name; the reviewer decides either way."""
    proposals = carried_proposals(transcript)
    for forms in table.values():
        for form in forms:
            entries = [proposals[o.span_id] for o in form.occurrences if o.span_id in proposals]
            if entries:
                form.carried = entries[0].get("decision", "")
                form.carried_why = entries[0].get("why", "")
                form.carried_label = entries[0].get("label", "")
                form.carried_pending = len(entries)
                if form.carried == RELABEL:
                    form.alternative = form.carried_label
                    form.alternative_habit = False
                    form.alternative_why = form.carried_why
    carried = carried_decisions()
    if not carried:
        return
    named = None
    for label, forms in table.items():
        for form in forms:
            if not form.open or form.carried_pending:
                continue
            decision = carried.get((label, form.key))
            if decision is None:
                continue
            if decision.decision == REJECT:
                if named is None:
                    named = named_here(transcript=transcript)
                if form.key in named:
                    continue  # a name this transcript gives is never offered for rejection
            form.carried = decision.decision
            form.carried_why = decision.why
            if decision.decision == RELABEL:
                form.alternative = decision.label
                form.alternative_habit = False  # this form's own record: always shown
                form.alternative_why = decision.why


def named_here(*, transcript: Transcript) -> dict[str, str]:
    """``{form key: why}``: the forms ``transcript`` gives as a name
    (``engine.detectors.named_here.forms_named_here`` over its spans, cover page and
    speaker tags; two queries)."""
    from engine.detectors.given import given_names
    from engine.detectors.named_here import Mention, forms_named_here

    speakers = transcript.utterances.exclude(speaker="").values_list("speaker", flat=True)
    names = given_names(transcript.text, transcript.metadata or {}, speakers=set(speakers))
    mentions = [
        Mention(start, end, label, tuple(provenance or ()), status == Span.Status.REJECTED)
        for start, end, label, status, provenance in Span.objects.filter(
            transcript=transcript
        ).values_list("start", "end", "label", "status", "provenance")
    ]
    return forms_named_here(transcript.text, mentions, names=names)
