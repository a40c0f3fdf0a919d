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
# States in which leads (not only assignees) may still change spans.
LEAD_EDITABLE_STATES = frozenset(EDITABLE_STATES | {S.SUBMITTED, S.RETURNED})


class ReviewError(Exception):
    """An action that cannot be done (message fit for users)."""


class ReviewPermissionError(ReviewError):
    """The actor may not change this transcript's spans (now)."""


class SpanConflict(ReviewError):
    """Someone changed the span since the page showed it (stale ``version``)."""

    def __init__(self, message: str, *, spans: Iterable[Span] = ()):
        super().__init__(message)
        self.spans = list(spans)


def review_edit_refusal(*, transcript: Transcript, user) -> str | None:
    """Why ``user`` may not change spans of ``transcript`` now, or ``None`` if they may."""
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


def _check_edit(*, transcript: Transcript, actor) -> Transcript:
    transcript.state = _lock_transcript(transcript.pk)
    refusal = review_edit_refusal(transcript=transcript, user=actor)
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
