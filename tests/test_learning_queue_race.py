"""Two leads press "Retrain now" at the same moment: exactly one training is queued, the
other request is refused with a sentence. Two real threads, each with its own database
connection, held right after the "is a training active?" check (a barrier) so that both
pass it before either inserts; the database's one-training constraint decides. Run on
PostgreSQL (``DATABASE_URL=postgres://…``) and SQLite."""

import threading

import pytest
from django.db import connection

from annotations.models import TrainedModel
from annotations.services import learning, learning_queue
from tests.factories import make_user

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_concurrent_retrain_requests_queue_exactly_one_training(
    monkeypatch, settings, tmp_path
):
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}
    settings.LEARNING_MODELS_DIR = tmp_path / "trained_models"
    leads = [make_user(f"lead-race-{i}", role="lead") for i in range(2)]
    both_checked = threading.Barrier(2)
    original = learning_queue.training_job_active

    def check_then_wait():
        found = original()
        try:  # without a lock both get here before either inserts
            both_checked.wait(timeout=1.5)
        except threading.BrokenBarrierError:
            pass
        return found

    monkeypatch.setattr(learning_queue, "training_job_active", check_then_wait)
    start = threading.Barrier(2)
    outcomes: list[str] = ["", ""]

    def press(i: int) -> None:
        try:
            start.wait(timeout=120)
            model = learning_queue.retrain_start(user=leads[i])
            outcomes[i] = f"queued {model.pk}"
        except learning.LearningError as exc:
            outcomes[i] = f"refused: {exc}"
        except Exception as exc:  # anything else is a failure of the test
            outcomes[i] = f"{type(exc).__name__}: {exc}"
        finally:
            connection.close()

    threads = [threading.Thread(target=press, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert sorted(o.split(" ")[0] for o in outcomes) == ["queued", "refused:"], outcomes
    refused = next(o for o in outcomes if o.startswith("refused"))
    assert "already queued or running" in refused
    assert TrainedModel.objects.filter(status=TrainedModel.Status.QUEUED).count() == 1
