"""Leads assign one or two annotators; the second works on a copy (double annotation)."""

import pytest

from annotations.services import review
from annotations.services import workflow as wf
from anonreview.core.models import AuditEvent
from tests.factories import make_suggestion, make_transcript, make_user
from transcripts.models import Transcript
from transcripts.services.assignment import AssignmentError, transcript_assign

S = Transcript.State
TEXT = "PRESIDING COMMISSIONER ALDEN: Good morning, Mr. Quill.\nINMATE QUILL: I live in Fresno.\n"


def machine_span(t, word, label="PERSON", detector="cover"):
    start = t.text.index(word)
    return make_suggestion(t, start, start + len(word), label, detectors=[detector])


def test_lead_assigns_one_annotator(lead, annotator):
    t = make_transcript(TEXT)
    transcript_assign(transcript=t, annotators=[annotator], actor=lead)
    assert list(t.assignees.all()) == [annotator]
    assert not Transcript.objects.filter(double_of=t).exists()
    event = AuditEvent.objects.get(transcript=t, event_type="transcript.assign")
    assert event.after["assignees"] == [annotator.username] and event.actor == lead


def test_reassigning_replaces_the_first_annotator(lead, annotator, other_annotator):
    t = make_transcript(TEXT, assignees=[annotator])
    transcript_assign(transcript=t, annotators=[other_annotator], actor=lead)
    assert list(t.assignees.all()) == [other_annotator]


def test_second_annotator_gets_a_copy_with_the_machine_suggestions_only(
    lead, annotator, other_annotator
):
    t = make_transcript(TEXT, state=S.IN_REVIEW, assignees=[annotator])
    alden = machine_span(t, "ALDEN")
    machine_span(t, "Quill")
    fresno = machine_span(t, "Fresno", label="PERSON", detector="spacy")
    # The first annotator has already worked: accepted, relabelled, added.
    review.span_accept(span=alden, actor=annotator)
    review.span_relabel(span=fresno, actor=annotator, label="LOCATION")
    review.span_add(
        transcript=t,
        actor=annotator,
        start=t.text.index("QUILL"),
        end=t.text.index("QUILL") + 5,
        label="PERSON",
    )

    transcript_assign(transcript=t, annotators=[annotator, other_annotator], actor=lead)

    copy = Transcript.objects.get(double_of=t)
    assert copy.text == t.text and copy.state == S.READY
    assert list(copy.assignees.all()) == [other_annotator]
    assert copy.utterances.count() == t.utterances.count()
    spans = list(copy.spans.order_by("start"))
    # Three machine proposals, in the shape the machine proposed (Fresno as PERSON),
    # all undecided; the first annotator's added span is not copied.
    assert [(copy.text[s.start : s.end], s.label, s.status) for s in spans] == [
        ("ALDEN", "PERSON", "suggested"),
        ("Quill", "PERSON", "suggested"),
        ("Fresno", "PERSON", "suggested"),
    ]
    assert all(s.entity_id for s in spans)
    assert spans[2].provenance == [{"detector": "spacy", "score": 0.9}]
    # Each annotator sees only their own transcript.
    assert list(Transcript.objects.visible_to(other_annotator)) == [copy]
    assert list(Transcript.objects.visible_to(annotator)) == [t]


def test_assigning_the_same_pair_again_does_not_copy_twice(lead, annotator, other_annotator):
    t = make_transcript(TEXT, assignees=[annotator])
    transcript_assign(transcript=t, annotators=[annotator, other_annotator], actor=lead)
    transcript_assign(transcript=t, annotators=[annotator, other_annotator], actor=lead)
    assert Transcript.objects.filter(double_of=t).count() == 1


def test_only_leads_assign(annotator, other_annotator):
    t = make_transcript(TEXT)
    with pytest.raises(AssignmentError, match="Only leads"):
        transcript_assign(transcript=t, annotators=[other_annotator], actor=annotator)


def test_assignment_needs_one_or_two_annotators(lead, annotator, other_annotator):
    t = make_transcript(TEXT)
    third = make_user("ann3")
    with pytest.raises(AssignmentError, match="one annotator, or two"):
        transcript_assign(transcript=t, annotators=[], actor=lead)
    with pytest.raises(AssignmentError, match="one annotator, or two"):
        transcript_assign(transcript=t, annotators=[annotator, other_annotator, third], actor=lead)


def test_approved_transcripts_are_read_only_for_assignment(lead, annotator):
    t = make_transcript(TEXT, state=S.APPROVED)
    with pytest.raises(AssignmentError, match="read-only"):
        transcript_assign(transcript=t, annotators=[annotator], actor=lead)


def test_no_second_annotator_before_the_automatic_annotation_is_done(
    lead, annotator, other_annotator
):
    t = make_transcript(TEXT, state=S.ANNOTATING)
    with pytest.raises(AssignmentError, match="automatic annotation is done"):
        transcript_assign(transcript=t, annotators=[annotator, other_annotator], actor=lead)
    transcript_assign(transcript=t, annotators=[annotator], actor=lead)  # one is fine


def test_copies_are_never_approved_nor_assigned(lead, annotator, other_annotator):
    t = make_transcript(TEXT, assignees=[annotator])
    transcript_assign(transcript=t, annotators=[annotator, other_annotator], actor=lead)
    copy = Transcript.objects.get(double_of=t)
    wf.transcript_start_review(transcript=copy, actor=other_annotator)
    wf.transcript_submit(transcript=copy, actor=other_annotator)
    second_lead = make_user("lead2", role="lead")
    with pytest.raises(wf.TransitionError, match="second annotation"):
        wf.transcript_approve(transcript=copy, actor=second_lead)
    with pytest.raises(AssignmentError, match="original transcript"):
        transcript_assign(transcript=copy, annotators=[annotator], actor=lead)


def test_the_second_annotator_may_not_approve_the_original(annotator, other_annotator, lead):
    second_lead = make_user("lead2", role="lead")
    t = make_transcript(TEXT, state=S.READY, assignees=[annotator])
    transcript_assign(transcript=t, annotators=[annotator, second_lead], actor=lead)
    t.state = S.SUBMITTED
    t.save()
    with pytest.raises(wf.TransitionError, match="another lead must approve"):
        wf.transcript_approve(transcript=t, actor=second_lead)
