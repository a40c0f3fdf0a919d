"""Training from the approved transcripts: services, background job, model history and page."""

import pytest
from django.urls import reverse

from annotations.models import Span, TrainedModel
from annotations.services import learning
from anonreview.core.models import AuditEvent
from tests.factories import make_transcript
from tests.learning_support import hearings, tiny_model_dir
from transcripts.models import Job, Transcript

SEEDS = (41, 42, 43)


@pytest.fixture
def learning_settings(settings, tmp_path):
    settings.LEARNING_MODELS_DIR = tmp_path / "trained_models"
    settings.LEARNING_BASE_MODEL = str(tiny_model_dir())
    settings.LEARNING_TRAIN_OPTIONS = {
        "threads": 1,
        "max_length": 128,
        "stride": 32,
        "batch_size": 4,
        "max_steps_per_epoch": 3,
    }
    return settings


def approved_transcripts(n=3):
    """Approved transcripts whose reviewed spans are the synthetic gold."""
    made = []
    for doc in hearings(SEEDS[:n]):
        t = make_transcript(doc.text, state=Transcript.State.APPROVED)
        for i, s in enumerate(doc.spans):
            status = Span.Status.ACCEPTED if i % 2 else Span.Status.ADDED
            Span.objects.create(
                transcript=t, start=s.start, end=s.end, label=s.label, status=status
            )
        made.append(t)
    return made


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


def test_training_cannot_start_without_approved_transcripts(db, lead, settings, tmp_path):
    settings.LEARNING_MODELS_DIR = tmp_path
    with pytest.raises(learning.LearningError, match="No approved transcripts"):
        learning.trained_model_start(user=lead)
    assert not TrainedModel.objects.exists()


@pytest.mark.slow
def test_lead_trains_a_detector_in_a_background_job_and_the_history_records_it(
    db, lead, learning_settings, django_capture_on_commit_callbacks
):
    approved_transcripts()
    with django_capture_on_commit_callbacks(execute=True):
        model = learning.trained_model_start(user=lead, epochs=2, seed=5)

    model.refresh_from_db()
    job = Job.objects.get(pk=model.job_id)
    assert job.kind == Job.Kind.TRAIN and job.status == Job.Status.DONE, job.error
    assert job.progress == 100 and job.result["trained_model"] == model.pk
    assert model.status == TrainedModel.Status.READY
    assert model.trained_at is not None and model.training_seconds > 0
    assert (model.train_documents, model.heldout_documents) == (2, 1)
    assert model.best_epoch in (1, 2) and len(model.history) == 2
    assert {"exact", "token"} == set(model.metrics["overall"])
    assert set(model.metrics["labels"]) <= set(model.labels)
    assert model.f1 is not None
    # The model directory is complete and `current` points at it.
    path = learning_settings.LEARNING_MODELS_DIR / f"model-{model.pk}"
    assert model.path == str(path) and (path / "training.json").is_file()
    assert learning.current_model_dir().resolve() == path.resolve()
    events = list(AuditEvent.objects.values_list("event_type", flat=True).order_by("id"))
    assert events == ["detector_training_queued", "detector_trained"]

    # One training at a time.
    Job.objects.filter(pk=job.pk).update(status=Job.Status.RUNNING)
    with pytest.raises(learning.LearningError, match="already"):
        learning.trained_model_start(user=lead)


@pytest.mark.slow
def test_a_failed_training_is_recorded_with_its_error(
    db, lead, settings, tmp_path, django_capture_on_commit_callbacks
):
    settings.LEARNING_MODELS_DIR = tmp_path / "models"
    settings.LEARNING_BASE_MODEL = str(tmp_path / "no-such-model")
    approved_transcripts(1)
    with django_capture_on_commit_callbacks(execute=True):
        model = learning.trained_model_start(user=lead, epochs=1)
    model.refresh_from_db()
    job = Job.objects.get(pk=model.job_id)
    assert model.status == TrainedModel.Status.FAILED and "not a model directory" in model.error
    assert job.status == Job.Status.FAILED and "Training failed" in job.error
    assert "detector_training_failed" in AuditEvent.objects.values_list("event_type", flat=True)


def test_learning_page_is_for_leads_only(client, annotator):
    client.force_login(annotator)
    assert client.get(reverse("annotations:learning")).status_code == 403


def test_learning_page_explains_that_approved_transcripts_are_needed(client, lead):
    client.force_login(lead)
    response = client.get(reverse("annotations:learning"))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="gold-count">0<' in html and 'id="no-models"' in html
    assert 'id="train-start"' in html and "disabled" in html.split('id="train-start"')[1][:40]
    response = client.post(reverse("annotations:learning"), {"epochs": "1"}, follow=True)
    assert "No approved transcripts yet" in response.content.decode()


@pytest.mark.slow
def test_lead_starts_training_on_the_page_and_sees_progress_and_history(
    client, lead, learning_settings, django_capture_on_commit_callbacks
):
    approved_transcripts()
    client.force_login(lead)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("annotations:learning"), {"epochs": "1", "seed": "3"})
    assert response.status_code == 302
    model = TrainedModel.objects.get()
    assert model.status == TrainedModel.Status.READY and model.created_by == lead
    html = client.get(reverse("annotations:learning")).content.decode()
    assert f'data-model-id="{model.pk}" data-status="ready"' in html
    assert f'data-job-id="{model.job_id}"' in html and 'data-status="done"' in html  # job bar
    assert 'id="latest-figures"' in html and 'data-row="overall"' in html
    # The htmx history partial renders the table alone.
    partial = client.get(
        reverse("annotations:learning") + "?partial=history", HTTP_HX_REQUEST="true"
    ).content.decode()
    assert partial.lstrip().startswith('<section id="model-history"')
    assert "<html" not in partial


def test_a_training_job_swept_as_dead_fails_its_model_row(db, lead):
    # Issue 23: the row stayed "training" after its job had failed.
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
