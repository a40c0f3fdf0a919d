"""A transcript's life, as an explicit table of allowed transitions.

    imported → annotating → ready → in_review → submitted → approved → released
                  ↘ failed            ↖ returned ↙ (lead, with a comment)

``transcript_transition`` is the only writer of ``Transcript.state``: it checks the
source state and the actor's role, bumps the version, and writes the AuditEvent in
the same transaction. Extra preconditions (every span decided, leak check passed)
are checked by the services that call it: submit here, approve and release in
``annotations.services.workflow`` (they need the leak check and the release build,
and ``transcripts`` never imports ``annotations``).
"""

from dataclasses import dataclass

from django.db import transaction

from anonreview import roles
from anonreview.core.audit import audit_record
from transcripts.models import Transcript

S = Transcript.State

SYSTEM = "system"  # background jobs (import, annotation)
ASSIGNEE = "assignee"  # an annotator assigned to the transcript (or a lead)
LEAD = "lead"


@dataclass(frozen=True)
class Transition:
    source: str
    target: str
    who: frozenset[str]


def _t(source, target, *who) -> Transition:
    return Transition(source, target, frozenset(who))


TRANSITIONS: tuple[Transition, ...] = (
    _t(S.IMPORTED, S.ANNOTATING, SYSTEM, LEAD),
    _t(S.ANNOTATING, S.READY, SYSTEM),
    _t(S.ANNOTATING, S.FAILED, SYSTEM),
    _t(S.IMPORTED, S.FAILED, SYSTEM),
    _t(S.FAILED, S.ANNOTATING, SYSTEM, LEAD),
    _t(S.READY, S.ANNOTATING, SYSTEM, LEAD),
    _t(S.READY, S.IN_REVIEW, ASSIGNEE, LEAD),
    _t(S.IN_REVIEW, S.SUBMITTED, ASSIGNEE, LEAD),
    _t(S.SUBMITTED, S.APPROVED, LEAD),
    _t(S.SUBMITTED, S.RETURNED, LEAD),
    _t(S.APPROVED, S.RETURNED, LEAD),
    _t(S.RETURNED, S.IN_REVIEW, ASSIGNEE, LEAD),
    _t(S.APPROVED, S.RELEASED, LEAD),
)
ALLOWED: dict[tuple[str, str], frozenset[str]] = {(t.source, t.target): t.who for t in TRANSITIONS}

# States in which annotators may change spans (leads may always, until approval).
EDITABLE_STATES = frozenset({S.READY, S.IN_REVIEW})
READ_ONLY_STATES = frozenset({S.APPROVED, S.RELEASED})


class TransitionError(Exception):
    """The transition is not allowed from this state or for this actor."""


def actor_kinds(*, transcript: Transcript, actor) -> set[str]:
    if actor is None:
        return {SYSTEM}
    kinds = set()
    if roles.is_lead(actor):
        kinds |= {LEAD, ASSIGNEE}
    if roles.is_annotator(actor) and transcript.assignees.filter(pk=actor.pk).exists():
        kinds.add(ASSIGNEE)  # the role as well as the assignment
    return kinds


def transition_allowed(*, transcript: Transcript, target: str, actor) -> bool:
    who = ALLOWED.get((transcript.state, target))
    return bool(who) and bool(who & actor_kinds(transcript=transcript, actor=actor))


def allowed_targets(*, transcript: Transcript, actor) -> list[str]:
    return [
        t.target
        for t in TRANSITIONS
        if t.source == transcript.state
        and transition_allowed(transcript=transcript, target=t.target, actor=actor)
    ]


@transaction.atomic
def transcript_transition(
    *, transcript: Transcript, target: str, actor=None, reason: str = "", extra: dict | None = None
) -> Transcript:
    """Move ``transcript`` to ``target``; ``actor=None`` means the system (a job).

    Locks the row, re-reads the state, checks the table and the actor, writes the
    audit row (``extra``: more for its ``after``, e.g. the approval's review summary:
    counts and ids only). Raises ``TransitionError`` with a message fit for users.
    """
    locked = Transcript.objects.select_for_update().get(pk=transcript.pk)
    source = locked.state
    if (source, target) not in ALLOWED:
        raise TransitionError(
            f"A transcript that is {S(source).label.lower()} cannot become {S(target).label.lower()}."
        )
    if not transition_allowed(transcript=locked, target=target, actor=actor):
        raise TransitionError("You are not allowed to make this change.")
    locked.state = target
    locked.state_reason = reason
    locked.version += 1
    locked.save(update_fields=["state", "state_reason", "version", "updated_at"])
    audit_record(
        actor=actor,
        event_type="transcript.transition",
        transcript=locked,
        before={"state": source},
        after={"state": target, "reason": reason, **(extra or {})},
    )
    transcript.state, transcript.state_reason, transcript.version = target, reason, locked.version
    return locked


# --- The review cycle (services the views call) ----------------------------------


class UndecidedSpansError(TransitionError):
    """Submit, approval, release or an export was refused: some suggestions are still
    undecided (the release rule). ``count``, the first one's id and its ``url`` on the
    review page go with it."""

    def __init__(self, count: int, *, first_span_id: int | None = None, url: str = "",
                 doing: str = "submitting"):  # fmt: skip
        self.count = count
        self.first_span_id = first_span_id
        self.url = url
        noun = "suggestion is" if count == 1 else "suggestions are"
        where = f" The first: {url}" if url else ""
        super().__init__(
            f"{count} {noun} still undecided: accept or reject every span before {doing}.{where}"
        )


def undecided_spans(transcript: Transcript) -> tuple[int, int | None]:
    """(how many spans of ``transcript`` are undecided, the id of the first in the text)."""
    pending = transcript.spans.filter(status="suggested")
    count = pending.count()
    first = pending.order_by("start", "pk").values_list("pk", flat=True).first() if count else None
    return count, first


def undecided_check(transcript: Transcript, *, doing: str) -> None:
    """Raise ``UndecidedSpansError`` (count, link to the first) unless every span of
    ``transcript`` is decided: the release rule's first half, for every path out."""
    count, first = undecided_spans(transcript)
    if count:
        from django.urls import reverse  # by name: ``transcripts`` imports no ``annotations``

        url = f"{reverse('annotations:review', args=[transcript.pk])}?span={first}"
        raise UndecidedSpansError(count, first_span_id=first, url=url, doing=doing)


def _lock(transcript: Transcript) -> Transcript:
    return Transcript.objects.select_for_update().get(pk=transcript.pk)


def _sync(transcript: Transcript, locked: Transcript) -> Transcript:
    transcript.state, transcript.state_reason, transcript.version = (
        locked.state,
        locked.state_reason,
        locked.version,
    )
    return transcript


@transaction.atomic
def transcript_start_review(*, transcript: Transcript, actor) -> Transcript:
    """ready (or returned) → in review, by an assignee or a lead."""
    locked = _lock(transcript)
    target = S.IN_REVIEW
    locked = transcript_transition(transcript=locked, target=target, actor=actor)
    return _sync(transcript, locked)


@transaction.atomic
def transcript_submit(*, transcript: Transcript, actor) -> Transcript:
    """in review → submitted; every span must be decided (none left ``suggested``).

    ``annotations.services.workflow.transcript_submit`` runs the leak check first (the
    views call that one)."""
    locked = _lock(transcript)
    if (locked.state, S.SUBMITTED) in ALLOWED and transition_allowed(
        transcript=locked, target=S.SUBMITTED, actor=actor
    ):
        undecided_check(locked, doing="submitting")
    locked = transcript_transition(transcript=locked, target=S.SUBMITTED, actor=actor)
    return _sync(transcript, locked)


@transaction.atomic
def transcript_return(*, transcript: Transcript, actor, comment: str) -> Transcript:
    """submitted/approved → returned to the annotator, with a comment (required)."""
    comment = (comment or "").strip()
    if not comment:
        raise TransitionError(
            "Say what needs fixing: a comment is required to return a transcript."
        )
    locked = _lock(transcript)
    locked = transcript_transition(
        transcript=locked, target=S.RETURNED, actor=actor, reason=comment
    )
    return _sync(transcript, locked)
