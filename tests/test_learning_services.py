"""Training from the approved transcripts: gold, page access, the sweep (the loop: test_learning_loop.py)."""

from django.urls import reverse

from annotations.models import Span, TrainedModel
from annotations.services import learning
from tests.factories import make_transcript
from transcripts.models import Job, Transcript


def test_gold_comes_from_reviewed_spans_of_approved_transcripts_only(db):
    approved = make_transcript("Mr. Quill met Ms. Alden in Ione.", state=Transcript.State.APPROVED)
    Span.objects.create(transcript=approved, start=4, end=9, label="PERSON", status="accepted")
    Span.objects.create(transcript=approved, start=18, end=23, label="PERSON", status="added")
    Span.objects.create(transcript=approved, start=27, end=31, label="LOCATION", status="rejected")
    Span.objects.create(transcript=approved, start=0, end=3, label="PERSON", status="suggested")
    copy = make_transcript("Mr. Quill met Ms. Alden in Ione!", state=Transcript.State.APPROVED)
    copy.double_of = approved
    copy.save()
    in_review = make_transcript("Ms. Vance.", state=Transcript.State.IN_REVIEW)
    Span.objects.create(transcript=in_review, start=4, end=9, label="PERSON", status="accepted")

    docs = learning.learning_gold_from_approved()
    assert [d.id for d in docs] == [f"transcript-{approved.pk}"]
    assert [(s.start, s.end, s.label) for s in docs[0].spans] == [
        (4, 9, "PERSON"),
        (18, 23, "PERSON"),
    ]


def test_learning_page_is_for_leads_only(client, annotator):
    client.force_login(annotator)
    assert client.get(reverse("annotations:learning")).status_code == 403


def test_a_training_job_swept_as_dead_fails_its_model_row(db, lead):
    # The row stayed "training" after its job had failed.
    from datetime import timedelta

    from django.utils import timezone

    from transcripts.services import jobs

    job = jobs.job_create(kind=Job.Kind.TRAIN, user=lead)
    jobs.job_start(job_id=job.pk)
    model = TrainedModel.objects.create(
        status=TrainedModel.Status.TRAINING, path="var/trained_models/x", source="approved", job=job
    )
    Job.objects.filter(pk=job.pk).update(heartbeat_at=timezone.now() - timedelta(hours=1))
    assert jobs.jobs_fail_stale() == 1
    model.refresh_from_db()
    assert model.status == TrainedModel.Status.FAILED
    assert "worker stopped" in model.error.lower()
