"""Cancel stops a retraining in its data preparation: the real trainer on small
generated hearings, the job cancelled while the training examples are being made. The
task returns (the worker is free), the job ends cancelled, the model row failed, nothing
is kept, and the trainer never got past its data preparation."""

import threading
import time

import pytest
from django.db import connections

from annotations.models import TrainedModel
from annotations.services import learning, learning_queue
from tests.factories import make_user
from transcripts.models import Job
from transcripts.services import jobs


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_cancel_during_the_real_data_preparation_stops_the_training_and_frees_the_worker(
    settings, tmp_path, monkeypatch
):
    domain = pytest.importorskip("engine.learning.domain")
    from engine.learning import domain_data

    settings.LEARNING_MODELS_DIR = tmp_path / "trained_models"
    settings.LEARNING_RECIPE = {"seeds": [7001, 7002, 7003], "words": 3000}
    settings.LEARNING_DOMAIN_OPTIONS = {"chunk_chars": 300, "max_epochs": 1, "max_seconds": 60}
    settings.LEARNING_TRAINING_NICE = 0
    lead = make_user("lead-cancel-prep", role="lead")
    real_chunks = domain_data.chunks
    seen = {"chunks": 0, "cancelled_in": None, "pipeline": 0}

    def slow_chunks(doc, max_chars):
        # the data preparation of a busy machine: each chunk takes a while
        if seen["cancelled_in"] is None:
            seen["cancelled_in"] = threading.current_thread().name
            job_id = TrainedModel.objects.latest("pk").job_id
            assert jobs.job_cancel(job_id=job_id, user=lead) == 1
            connections.close_all()  # this thread's connection
        for piece in real_chunks(doc, max_chars):
            seen["chunks"] += 1
            time.sleep(0.1)
            yield piece

    real_build = domain.build_pipeline

    def build(*args, **kwargs):
        seen["pipeline"] += 1
        return real_build(*args, **kwargs)

    monkeypatch.setattr(domain_data, "chunks", slow_chunks)
    monkeypatch.setattr(domain, "build_pipeline", build)
    # the immediate backend runs the task at commit, here: it returns once stopped
    model = learning_queue.retrain_start(user=lead)
    model.refresh_from_db()
    job = Job.objects.get(pk=model.job_id)
    assert seen["cancelled_in"] == "domain-training"  # cancelled inside the preparation
    assert seen["pipeline"] == 0  # it never got past the preparation
    assert job.status == Job.Status.CANCELLED
    assert model.status == TrainedModel.Status.FAILED
    assert not list(learning.models_dir().glob("model-*"))
