"""The review cycle's lead steps: approval (after the leak check) and release.

They live here, not in ``transcripts.services.workflow``, because they need the leak
check and the release build; the state table and ``transcript_transition`` stay in
``transcripts`` (which never imports ``annotations``). The other steps of the cycle
(start review, submit, return) and the table's names are re-exported, so views and
commands use one module for the whole cycle.
"""

import logging

from django.db import transaction

from annotations.services.allowlist import IN_REVIEW_EVENT as ALLOWLIST_IN_REVIEW
from annotations.services.export import release_build
from annotations.services.leaks import LeakError, leak_check
from annotations.summary import review_summary
from anonreview import roles
from anonreview.core.audit import audit_record
from anonreview.core.models import AuditEvent
from transcripts.models import Transcript
from transcripts.services.workflow import (
    ALLOWED,
    EDITABLE_STATES,
    READ_ONLY_STATES,
    TransitionError,
    UndecidedSpansError,
    _lock,
    _sync,
    allowed_targets,
    transcript_return,
    transcript_start_review,
    transcript_transition,
    transition_allowed,
    undecided_check,
)
from transcripts.services.workflow import transcript_submit as _transcript_submit

__all__ = [
    "EDITABLE_STATES",
    "READ_ONLY_STATES",
    "LeakCheckFailed",
    "SubmitLeaksFound",
    "TransitionError",
    "UndecidedSpansError",
    "allowed_targets",
    "approval_refusal",
    "own_annotators",
    "transcript_approve",
    "transcript_release",
    "transcript_return",
    "transcript_start_review",
    "transcript_submit",
]

S = Transcript.State


class LeakCheckFailed(TransitionError):
    """Approval was refused: the leak check found identifiers in the output."""

    def __init__(self, leaks: list):
        self.leaks = list(leaks)
        noun = "leak" if len(self.leaks) == 1 else "leaks"
        super().__init__(
            f"The leak check found {len(self.leaks)} {noun}; the transcript was not approved."
        )


class SubmitLeaksFound(LeakCheckFailed):
    """Submit was refused: the leak check found identifiers no span covers."""

    def __init__(self, leaks: list):
        super().__init__(leaks)
        noun = "place" if len(self.leaks) == 1 else "places"
        self.args = (
            f"The leak check found {len(self.leaks)} {noun} where a name or identifier would "
            "be released; add a span for each (or, where it is no identifier at that place, "
            "mark it “not a leak here” with a reason), then submit again.",
        )

    def __str__(self) -> str:
        return self.args[0]


def own_annotators(*, transcript: Transcript) -> set[int]:
    """User ids that annotated this transcript: its assignees, the assignees of its
    second-annotation copies, everyone who decided one of its spans, everyone with any
    ``review.*`` audit event on it (delete and undo included: a deleted span leaves no
    reviewer behind), whoever added an allow-list term its text holds while it was in
    review (``annotations.services.allowlist``) and whoever submitted it."""
    return set(_own_work(transcript=transcript))


def _own_work(*, transcript: Transcript) -> dict[int, list[str]]:
    """{user id: why they count as having worked on ``transcript``}: a few queries over
    the audit rows, the spans and the assignments, whatever the transcript's size."""
    from annotations.services.review import EVENT_PREFIX

    why: dict[int, list[str]] = {}

    def note(ids, reason: str) -> None:
        for pk in ids:
            if pk is not None and reason not in why.setdefault(pk, []):
                why[pk].append(reason)

    events = AuditEvent.objects.filter(transcript=transcript, actor__isnull=False)
    actions: dict[int, set[str]] = {}
    for actor_id, kind in (
        events.filter(event_type__startswith=EVENT_PREFIX)
        .values_list("actor", "event_type")
        .distinct()
    ):
        actions.setdefault(actor_id, set()).add(kind.removeprefix(EVENT_PREFIX).replace("_", " "))
    for actor_id, kinds in actions.items():
        note([actor_id], f"you made review changes on it ({', '.join(sorted(kinds))})")
    note(
        events.filter(event_type=ALLOWLIST_IN_REVIEW).values_list("actor", flat=True).distinct(),
        "you added an allow-list term found in its text while it was in review",
    )
    submitted = events.filter(event_type="transcript.transition", after__state=S.SUBMITTED)
    note(submitted.values_list("actor", flat=True).distinct(), "you submitted it")
    note(transcript.spans.exclude(reviewer=None).values_list("reviewer", flat=True).distinct(),
         "you decided some of its spans")  # fmt: skip
    note(transcript.assignees.values_list("pk", flat=True), "you are assigned to annotate it")
    note(
        Transcript.objects.filter(double_of=transcript).values_list("assignees", flat=True),
        "you annotate its second copy",
    )
    return why


def approval_refusal(*, transcript: Transcript, actor) -> str | None:
    """The four-eyes rule: why ``actor`` may not approve ``transcript`` (or ``None``).
    Whoever changed, decided or submitted it cannot approve it; the refusal says why."""
    reasons = _own_work(transcript=transcript).get(getattr(actor, "pk", None))
    if reasons:
        return (
            f"You cannot approve this transcript: {' and '.join(reasons)}; "
            "another lead must approve it."
        )
    return None


def _run_leak_check(transcript: Transcript, *, blocking_only: bool = True) -> list:
    """The blocking leaks of the release text (``annotations.services.leaks``; all of them
    with ``blocking_only=False``). A check that cannot run refuses the submit or approval
    (it never passes by default)."""
    try:
        leaks = leak_check(transcript=transcript)
    except Exception as exc:
        raise TransitionError(
            f"The leak check could not run ({exc.__class__.__name__}); nothing was changed."
        ) from exc
    return [leak for leak in leaks if leak.blocking or not blocking_only]


@transaction.atomic
def transcript_submit(*, transcript: Transcript, actor) -> Transcript:
    """in review → submitted (``transcripts.services.workflow.transcript_submit``: every
    span decided), after the leak check the approval will run: a blocking leak raises
    ``SubmitLeaksFound`` with the list, so the annotator sees it first. A second
    annotation's copy is never released: it is compared, not checked."""
    locked = _lock(transcript)
    if (
        not locked.double_of_id
        and (locked.state, S.SUBMITTED) in ALLOWED
        and transition_allowed(transcript=locked, target=S.SUBMITTED, actor=actor)
        and not locked.spans.filter(status="suggested").exists()
    ):
        leaks = _run_leak_check(locked)
        if leaks:
            raise SubmitLeaksFound(leaks)
    return _transcript_submit(transcript=transcript, actor=actor)


def transcript_approve(*, transcript: Transcript, actor) -> Transcript:
    """submitted → approved, by a lead who did not annotate it, after the leak check.

    Raises ``LeakCheckFailed`` (with ``.leaks``) when the check finds identifiers in the
    pseudonymized output; the refusal is audited (the count only, no text).
    """
    try:
        with transaction.atomic():
            locked = _lock(transcript)
            if locked.double_of_id:
                raise TransitionError(
                    "This is a second annotation for agreement; approve the original transcript instead."
                )
            if not roles.is_lead(actor):
                raise TransitionError("Only leads can approve a transcript.")
            refusal = approval_refusal(transcript=locked, actor=actor)
            if refusal:
                raise TransitionError(refusal)
            if (locked.state, S.APPROVED) not in ALLOWED:
                # Let the table produce its message in words.
                transcript_transition(transcript=locked, target=S.APPROVED, actor=actor)
            undecided_check(locked, doing="approving")
            found = _run_leak_check(locked, blocking_only=False)
            leaks = [leak for leak in found if leak.blocking]
            if leaks:
                raise LeakCheckFailed(leaks)
            # What the lead approved, stored with the approval: counts and ids, no text.
            summary = review_summary(transcript=locked, leaks=found).audit_record()
            locked = transcript_transition(
                transcript=locked, target=S.APPROVED, actor=actor, extra={"summary": summary}
            )
            transaction.on_commit(lambda: _dashboard_after_approval(actor))
            transaction.on_commit(lambda: _learning_after_approval(actor))
    except LeakCheckFailed as exc:
        with transaction.atomic():
            audit_record(
                actor=actor,
                event_type="transcript.approve_refused",
                transcript=transcript,
                before={"state": transcript.state},
                after={"leaks": len(exc.leaks)},
            )
        raise
    return _sync(transcript, locked)


def transcript_release(*, transcripts, actor, strategy: str = "tags") -> bytes:
    """approved → released for each transcript; returns the release zip.

    The release is built by ``annotations.services.export.release_build`` (which runs
    the leak check); the transitions are written only if the build succeeds, all in
    one transaction.
    """
    transcripts = list(transcripts)
    if not transcripts:
        raise TransitionError("Choose at least one approved transcript to release.")
    with transaction.atomic():
        locked = [_lock(t) for t in transcripts]
        for t in locked:
            if t.double_of_id:
                raise TransitionError("A second annotation for agreement cannot be released.")
            if not transition_allowed(transcript=t, target=S.RELEASED, actor=actor):
                if (t.state, S.RELEASED) not in ALLOWED:
                    raise TransitionError(
                        f"Transcript {t.pk} is {S(t.state).label.lower()}: only approved transcripts can be released."
                    )
                raise TransitionError("Only leads can release transcripts.")
            undecided_check(t, doing="releasing")
        try:
            data = release_build(transcripts=locked, strategy=strategy, actor=actor)
        except LeakError as exc:
            leaks = [leak for found in exc.leaks.values() for leak in found]
            raise LeakCheckFailed(leaks) from exc
        for original, t in zip(transcripts, locked, strict=True):
            transcript_transition(
                transcript=t, target=S.RELEASED, actor=actor, reason=f"strategy={strategy}"
            )
            _sync(original, t)
    return data


def _dashboard_after_approval(actor) -> None:
    """After each approval the lead's dashboard is recomputed as a job (stored suggestions
    scored; detectors not re-run), so its figures need no click — a new installation's
    Measurements page shows the approved demo hearing (``load_demo --reviewed``)."""
    from annotations.services import dashboard_queue

    try:
        dashboard_queue.dashboard_enqueue(user=actor, rerun=False)
    except Exception as exc:  # the approval stands; the lead can still press Recompute
        logging.getLogger(__name__).warning(
            "dashboard recompute not queued: %s", exc.__class__.__name__
        )


def _learning_after_approval(actor) -> None:
    """Every ``LEARNING_RETRAIN_EVERY`` approvals the domain model is retrained in a
    worker (docs/learning.md); never raises."""
    from annotations.services.learning_queue import retrain_after_approval

    retrain_after_approval(actor=actor)
