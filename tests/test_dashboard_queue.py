"""Dashboard recomputes coalesce: while one is queued and not started, another request
returns it (six approvals in a row queue one recompute, not six)."""

from annotations.services import dashboard_queue
from transcripts.models import Job


def _queued() -> int:
    return Job.objects.filter(kind=Job.Kind.EVALUATE, status=Job.Status.QUEUED).count()


def test_six_requests_while_one_is_queued_queue_one_recompute(
    db, lead, settings, django_capture_on_commit_callbacks
):
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}
    with django_capture_on_commit_callbacks(execute=True):
        jobs = [dashboard_queue.dashboard_enqueue(user=lead, rerun=False) for _ in range(6)]
    assert {j.pk for j in jobs} == {jobs[0].pk} and _queued() == 1


def test_a_new_recompute_is_queued_once_the_queued_one_started(
    db, lead, settings, django_capture_on_commit_callbacks
):
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}
    first = dashboard_queue.dashboard_enqueue(user=lead, rerun=False)
    Job.objects.filter(pk=first.pk).update(status=Job.Status.RUNNING)
    second = dashboard_queue.dashboard_enqueue(user=lead, rerun=False)
    assert second.pk != first.pk and _queued() == 1
    # a recompute that re-runs the detectors is not folded into a scoring-only one
    third = dashboard_queue.dashboard_enqueue(user=lead, rerun=True)
    assert third.pk != second.pk
    assert dashboard_queue.dashboard_enqueue(user=lead, rerun=False).pk == second.pk
