"""Who may change a transcript's spans, and the errors review actions raise."""

from collections.abc import Iterable

from django.db import transaction

from annotations.models import Span
from anonreview import roles
from transcripts.models import Transcript
from transcripts.services.workflow import (
    EDITABLE_STATES,
    READ_ONLY_STATES,
    transcript_start_review,
)

S = Transcript.State
# States in which leads (not only assignees) may still change spans: never once submitted
# (the release rule, docs/workflow.md: a lead who wants a change returns it first).
LEAD_EDITABLE_STATES = frozenset(EDITABLE_STATES | {S.RETURNED})
# Actions that are no span edit (a flag or a note for the lead): allowed on a submitted
# transcript too, by its assignees and leads.
NOTE_ACTIONS = frozenset({"flag"})


class ReviewError(Exception):
    """An action that cannot be done (message fit for users)."""


class ReviewPermissionError(ReviewError):
    """The actor may not change this transcript's spans (now)."""


class SpanConflict(ReviewError):
    """Someone changed the span since the page showed it (stale ``version``)."""

    def __init__(self, message: str, *, spans: Iterable[Span] = ()):
        super().__init__(message)
        self.spans = list(spans)


def review_edit_refusal(*, transcript: Transcript, user, action: str = "") -> str | None:
    """Why ``user`` may not change spans of ``transcript`` now, or ``None`` if they may.

    The one rule for every span action (present and future, bulk or not): nobody changes
    spans of a submitted, approved or released transcript. ``action`` names the action;
    only a note (``NOTE_ACTIONS``: a flag) is allowed on a submitted transcript."""
    if not getattr(user, "is_authenticated", False):
        return "Log in to review."
    lead = roles.is_lead(user)
    assignee = lead or (
        roles.is_annotator(user) and transcript.assignees.filter(pk=user.pk).exists()
    )
    if not assignee:
        return "Only the transcript's assignees, leads and admins can change its spans."
    if transcript.state in READ_ONLY_STATES:
        return f"This transcript is {transcript.get_state_display().lower()} and read-only."
    if transcript.state == S.SUBMITTED:
        if action in NOTE_ACTIONS:
            return None
        # What was submitted is what the lead approves.
        return (
            "This transcript is submitted: its spans are frozen for approval. "
            "A lead who wants a change returns it first (and then cannot approve it)."
        )
    if lead and transcript.state in LEAD_EDITABLE_STATES:
        return None
    if transcript.state == S.RETURNED:
        return "This transcript was returned: resume the review to change it again."
    if transcript.state not in EDITABLE_STATES:
        return f"A transcript that is {transcript.get_state_display().lower()} cannot be changed."
    return None


def _lock_transcript(transcript_id: int) -> str:
    """Lock the transcript's row and return its state. Every review action locks the
    transcript first, then its spans: one order, so two actions never deadlock, and
    the ready → in review step happens once (PostgreSQL; SQLite's IMMEDIATE
    transactions already run one writer at a time)."""
    return (
        Transcript.objects.select_for_update().values_list("state", flat=True).get(pk=transcript_id)
    )


def _check_edit(*, transcript: Transcript, actor, action: str = "") -> Transcript:
    """The central guard every review action calls first: locks the transcript's row,
    re-reads its state and raises ``ReviewPermissionError`` unless ``actor`` may change
    its spans now (``review_edit_refusal``); a ready transcript moves to in review."""
    transcript.state = _lock_transcript(transcript.pk)
    refusal = review_edit_refusal(transcript=transcript, user=actor, action=action)
    if refusal:
        raise ReviewPermissionError(refusal)
    if transcript.state == S.READY:
        transcript_start_review(transcript=transcript, actor=actor)
    return transcript


@transaction.atomic
def review_resume(*, transcript: Transcript, actor) -> Transcript:
    """An assignee resumes a returned transcript (returned → in review)."""
    if transcript.state != S.RETURNED:
        raise ReviewError("Only a returned transcript can be resumed.")
    return transcript_start_review(transcript=transcript, actor=actor)
