"""The review cycle's services: start review, submit, approve (leak check), return,
release. Real database rows, real leak check and release build."""

import io
import json
import zipfile

import pytest

from annotations.models import Span
from annotations.services import workflow as wf
from anonreview.core.models import AuditEvent
from tests.factories import make_transcript, make_user
from transcripts.models import Transcript

S = Transcript.State
TEXT = "PRESIDING COMMISSIONER ALDEN: Good morning, Mr. Quill.\nINMATE QUILL: Good morning.\n"


def add_span(t, word, label="PERSON", status=Span.Status.ACCEPTED, nth=0, provenance=None):
    start = -1
    for _ in range(nth + 1):
        start = t.text.find(word, start + 1)
    assert start >= 0, word
    return Span.objects.create(
        transcript=t,
        start=start,
        end=start + len(word),
        label=label,
        status=status,
        provenance=[{"detector": "cover_page", "score": 1.0}] if provenance is None else provenance,
    )


def fully_annotated(state=S.SUBMITTED, assignees=()):
    t = make_transcript(TEXT, state=state, assignees=assignees)
    add_span(t, "ALDEN")
    add_span(t, "Quill")
    add_span(t, "QUILL")
    return t


def test_start_review_moves_ready_to_in_review_for_the_assignee(annotator):
    t = make_transcript(TEXT, state=S.READY, assignees=[annotator])
    wf.transcript_start_review(transcript=t, actor=annotator)
    assert t.state == S.IN_REVIEW
    assert Transcript.objects.get(pk=t.pk).state == S.IN_REVIEW


def test_submit_is_refused_while_a_suggestion_is_undecided(annotator):
    t = make_transcript(TEXT, state=S.IN_REVIEW, assignees=[annotator])
    add_span(t, "ALDEN", status=Span.Status.SUGGESTED)
    add_span(t, "Quill", status=Span.Status.SUGGESTED)
    add_span(t, "QUILL")
    with pytest.raises(wf.UndecidedSpansError, match="2 suggestions are still undecided") as exc:
        wf.transcript_submit(transcript=t, actor=annotator)
    assert exc.value.count == 2
    assert Transcript.objects.get(pk=t.pk).state == S.IN_REVIEW


def test_submit_succeeds_once_every_span_is_decided(annotator):
    t = make_transcript(TEXT, state=S.IN_REVIEW, assignees=[annotator])
    add_span(t, "Good", status=Span.Status.REJECTED)
    add_span(t, "ALDEN")
    add_span(t, "Quill")
    add_span(t, "QUILL")  # the speaker tag's name: the leak check at submit needs it
    wf.transcript_submit(transcript=t, actor=annotator)
    assert Transcript.objects.get(pk=t.pk).state == S.SUBMITTED
    event = AuditEvent.objects.filter(transcript=t, event_type="transcript.transition").latest("id")
    assert event.actor == annotator and event.after["state"] == S.SUBMITTED


def test_unassigned_annotator_cannot_submit(annotator, other_annotator):
    t = make_transcript(TEXT, state=S.IN_REVIEW, assignees=[annotator])
    with pytest.raises(wf.TransitionError, match="not allowed"):
        wf.transcript_submit(transcript=t, actor=other_annotator)


def test_lead_approves_when_the_leak_check_passes(annotator, lead):
    t = fully_annotated(assignees=[annotator])
    wf.transcript_approve(transcript=t, actor=lead)
    assert Transcript.objects.get(pk=t.pk).state == S.APPROVED
    assert AuditEvent.objects.filter(transcript=t, actor=lead, after__state=S.APPROVED).exists()


def test_approval_is_refused_with_each_leak_listed(annotator, lead):
    t = make_transcript(TEXT, state=S.SUBMITTED, assignees=[annotator])
    add_span(t, "ALDEN")
    add_span(t, "Quill")  # "QUILL" in the speaker tag stays readable
    with pytest.raises(wf.LeakCheckFailed) as exc:
        wf.transcript_approve(transcript=t, actor=lead)
    assert [leak.text.lower() for leak in exc.value.leaks] == ["quill"]
    assert Transcript.objects.get(pk=t.pk).state == S.SUBMITTED
    refusal = AuditEvent.objects.get(transcript=t, event_type="transcript.approve_refused")
    assert refusal.after == {"leaks": 1}  # the count only, never the text


def test_annotator_cannot_approve(annotator):
    t = fully_annotated(assignees=[annotator])
    with pytest.raises(wf.TransitionError, match="Only leads"):
        wf.transcript_approve(transcript=t, actor=annotator)


def test_lead_cannot_approve_a_transcript_they_annotated(lead):
    t = fully_annotated(assignees=[lead])
    with pytest.raises(wf.TransitionError, match="another lead must approve"):
        wf.transcript_approve(transcript=t, actor=lead)
    other = make_transcript(TEXT, state=S.SUBMITTED)
    span = add_span(other, "ALDEN")
    span.reviewer = lead
    span.save()
    with pytest.raises(wf.TransitionError, match="another lead must approve"):
        wf.transcript_approve(transcript=other, actor=lead)


def test_approve_needs_a_submitted_transcript(annotator, lead):
    t = fully_annotated(state=S.IN_REVIEW, assignees=[annotator])
    with pytest.raises(wf.TransitionError, match="cannot become approved"):
        wf.transcript_approve(transcript=t, actor=lead)


def test_return_needs_a_comment_and_sends_it_back_to_the_annotator(annotator, lead):
    t = fully_annotated(assignees=[annotator])
    with pytest.raises(wf.TransitionError, match="comment is required"):
        wf.transcript_return(transcript=t, actor=lead, comment="  ")
    wf.transcript_return(transcript=t, actor=lead, comment="Check the speaker tags.")
    t.refresh_from_db()
    assert t.state == S.RETURNED and t.state_reason == "Check the speaker tags."
    wf.transcript_start_review(transcript=t, actor=annotator)
    assert Transcript.objects.get(pk=t.pk).state == S.IN_REVIEW


def test_release_builds_the_zip_and_marks_the_transcripts_released(annotator, lead):
    t = fully_annotated(state=S.APPROVED, assignees=[annotator])
    data = wf.transcript_release(transcripts=[t], actor=lead)
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        names = zf.namelist()
        released = zf.read(f"transcript-{t.pk}.txt").decode()
        manifest = json.loads(zf.read("manifest.json"))
    assert "manifest.json" in names and manifest["files"][0]["name"] == f"transcript-{t.pk}.txt"
    assert "Quill" not in released and "QUILL" not in released and "ALDEN" not in released
    assert Transcript.objects.get(pk=t.pk).state == S.RELEASED


def test_release_refuses_transcripts_that_are_not_approved(annotator, lead):
    approved = fully_annotated(state=S.APPROVED, assignees=[annotator])
    submitted = fully_annotated(state=S.SUBMITTED, assignees=[annotator])
    with pytest.raises(wf.TransitionError, match="only approved transcripts"):
        wf.transcript_release(transcripts=[approved, submitted], actor=lead)
    assert Transcript.objects.get(pk=approved.pk).state == S.APPROVED


def test_release_with_a_leak_releases_nothing(annotator, lead):
    t = make_transcript(TEXT, state=S.APPROVED, assignees=[annotator])
    add_span(t, "Quill")
    with pytest.raises(wf.LeakCheckFailed):
        wf.transcript_release(transcripts=[t], actor=lead)
    assert Transcript.objects.get(pk=t.pk).state == S.APPROVED


def test_annotator_cannot_release(annotator):
    t = fully_annotated(state=S.APPROVED, assignees=[annotator])
    with pytest.raises(wf.TransitionError, match="Only leads"):
        wf.transcript_release(transcripts=[t], actor=annotator)


def test_a_second_lead_may_approve_what_the_first_lead_annotated(lead):
    other_lead = make_user("lead2", role="lead")
    t = fully_annotated(assignees=[lead])
    wf.transcript_approve(transcript=t, actor=other_lead)
    assert Transcript.objects.get(pk=t.pk).state == S.APPROVED


def test_submit_is_refused_when_the_leak_check_finds_a_name_nobody_annotated(annotator):
    t = make_transcript(TEXT, state=S.IN_REVIEW, assignees=[annotator])
    add_span(t, "ALDEN")
    add_span(t, "Quill")  # the speaker tag's QUILL is left unannotated
    with pytest.raises(wf.SubmitLeaksFound) as excinfo:
        wf.transcript_submit(transcript=t, actor=annotator)
    assert [leak.text for leak in excinfo.value.leaks] == ["QUILL"]
    assert "add a span for each" in str(excinfo.value)
    assert Transcript.objects.get(pk=t.pk).state == S.IN_REVIEW


def test_submit_is_refused_when_the_leak_check_cannot_run(annotator, monkeypatch):
    t = make_transcript(TEXT, state=S.IN_REVIEW, assignees=[annotator])
    for word in ("ALDEN", "Quill", "QUILL"):
        add_span(t, word)

    def broken(**kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(wf, "leak_check", broken)
    with pytest.raises(wf.TransitionError, match="could not run"):
        wf.transcript_submit(transcript=t, actor=annotator)
    assert Transcript.objects.get(pk=t.pk).state == S.IN_REVIEW


def test_a_second_annotation_copy_is_submitted_without_the_leak_check(
    lead, annotator, other_annotator
):
    from transcripts.services.assignment import transcript_assign

    t = make_transcript(TEXT, assignees=[annotator])
    transcript_assign(transcript=t, annotators=[annotator, other_annotator], actor=lead)
    copy = Transcript.objects.get(double_of=t)
    wf.transcript_start_review(transcript=copy, actor=other_annotator)
    wf.transcript_submit(transcript=copy, actor=other_annotator)
    assert Transcript.objects.get(pk=copy.pk).state == S.SUBMITTED
