import pytest

from anonreview.core.models import AuditEvent
from tests.factories import make_transcript
from transcripts.models import Transcript
from transcripts.services.workflow import TransitionError, allowed_targets, transcript_transition

S = Transcript.State


def test_system_moves_imported_through_annotation_to_ready(db):
    t = make_transcript(state=S.IMPORTED)
    transcript_transition(transcript=t, target=S.ANNOTATING)
    transcript_transition(transcript=t, target=S.READY)
    t.refresh_from_db()
    assert t.state == S.READY and t.version == 3
    events = AuditEvent.objects.filter(transcript=t, event_type="transcript.transition")
    assert [e.after["state"] for e in events.order_by("id")] == [S.ANNOTATING, S.READY]
    assert events.first().actor_username == "system"


def test_transition_from_wrong_state_is_refused_in_words(db):
    t = make_transcript(state=S.IMPORTED)
    with pytest.raises(TransitionError, match="cannot become approved"):
        transcript_transition(transcript=t, target=S.APPROVED)
    t.refresh_from_db()
    assert t.state == S.IMPORTED
    assert not AuditEvent.objects.filter(transcript=t).exists()


def test_annotator_cannot_approve_but_lead_can(annotator, lead):
    t = make_transcript(state=S.SUBMITTED, assignees=[annotator])
    with pytest.raises(TransitionError, match="not allowed"):
        transcript_transition(transcript=t, target=S.APPROVED, actor=annotator)
    transcript_transition(transcript=t, target=S.APPROVED, actor=lead)
    assert t.state == S.APPROVED


def test_unassigned_annotator_cannot_start_review(annotator, other_annotator):
    t = make_transcript(state=S.READY, assignees=[other_annotator])
    assert allowed_targets(transcript=t, actor=annotator) == []
    assert allowed_targets(transcript=t, actor=other_annotator) == [S.IN_REVIEW]
