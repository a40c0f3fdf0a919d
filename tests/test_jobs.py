from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import make_transcript
from transcripts.models import Job
from transcripts.services import jobs


def test_job_lifecycle_records_progress_and_result(db):
    job = jobs.job_create(kind=Job.Kind.ANNOTATE)
    jobs.job_start(job_id=job.pk)
    jobs.job_progress(job_id=job.pk, progress=140, message="half")
    job.refresh_from_db()
    assert (job.status, job.progress, job.message) == (Job.Status.RUNNING, 100, "half")
    jobs.job_finish(job_id=job.pk, result={"spans": 3})
    job.refresh_from_db()
    assert job.status == Job.Status.DONE and job.result == {"spans": 3} and not job.is_active


def test_stale_running_job_is_marked_failed_in_words(db):
    job = jobs.job_create(kind=Job.Kind.IMPORT)
    jobs.job_start(job_id=job.pk)
    Job.objects.filter(pk=job.pk).update(heartbeat_at=timezone.now() - timedelta(hours=1))
    assert jobs.jobs_fail_stale() == 1
    job.refresh_from_db()
    assert job.status == Job.Status.FAILED and "worker stopped" in job.error.lower()


def test_job_status_polls_while_active_and_stops_when_done(client, annotator):
    t = make_transcript(assignees=[annotator])
    job = jobs.job_create(kind=Job.Kind.ANNOTATE, transcript=t)
    client.force_login(annotator)
    url = reverse("transcripts:job-status", args=[job.pk])
    active = client.get(url, headers={"HX-Request": "true"})
    assert active.status_code == 200 and b'hx-trigger="every 1s"' in active.content
    jobs.job_fail(job_id=job.pk, error="The PDF has no text layer; it needs OCR.")
    done = client.get(url, headers={"HX-Request": "true"})
    assert done.status_code == 286
    assert b"needs OCR" in done.content and b"hx-trigger" not in done.content


def test_job_on_someone_elses_transcript_is_hidden(client, annotator, other_annotator):
    t = make_transcript(assignees=[other_annotator])
    job = jobs.job_create(kind=Job.Kind.ANNOTATE, transcript=t)
    client.force_login(annotator)
    assert client.get(reverse("transcripts:job-status", args=[job.pk])).status_code == 404


def test_lead_can_watch_a_job_another_lead_started(client, lead):
    from tests.factories import make_user

    other_lead = make_user("lead2", role="lead")
    job = jobs.job_create(kind=Job.Kind.TRAIN, user=other_lead)
    client.force_login(lead)
    assert client.get(reverse("transcripts:job-status", args=[job.pk])).status_code == 200


def test_killed_annotation_worker_fails_the_job_and_frees_the_transcript(client, lead):
    from transcripts.models import Transcript

    t = make_transcript(state=Transcript.State.ANNOTATING)
    job = jobs.job_create(kind=Job.Kind.ANNOTATE, transcript=t)
    jobs.job_start(job_id=job.pk)
    Job.objects.filter(pk=job.pk).update(heartbeat_at=timezone.now() - timedelta(minutes=11))
    client.force_login(lead)
    # The transcript list repairs what a dead worker left behind before it lists anything.
    assert client.get(reverse("transcripts:list")).status_code == 200
    job.refresh_from_db()
    t.refresh_from_db()
    assert job.status == Job.Status.FAILED and "start it again" in job.error.lower()
    assert t.state == Transcript.State.FAILED and "worker" in t.state_reason


def test_killed_import_worker_drops_the_staged_bytes_and_keeps_fresh_jobs(db):
    from transcripts.models import StagedUpload

    dead = jobs.job_create(kind=Job.Kind.IMPORT)
    jobs.job_start(job_id=dead.pk)
    StagedUpload.objects.create(job=dead, index=0, original_name="a.pdf", data=b"%PDF", size=4)
    Job.objects.filter(pk=dead.pk).update(heartbeat_at=timezone.now() - timedelta(hours=1))
    alive = jobs.job_create(kind=Job.Kind.IMPORT)
    jobs.job_start(job_id=alive.pk)
    StagedUpload.objects.create(job=alive, index=0, original_name="b.pdf", data=b"%PDF", size=4)
    assert jobs.jobs_fail_stale() == 1
    assert jobs.jobs_fail_stale() == 0
    assert list(StagedUpload.objects.values_list("job_id", flat=True)) == [alive.pk]
    alive.refresh_from_db()
    assert alive.status == Job.Status.RUNNING


def test_fail_stale_jobs_command_reports_the_count(db):
    from io import StringIO

    from django.core.management import call_command

    job = jobs.job_create(kind=Job.Kind.ANNOTATE)
    jobs.job_start(job_id=job.pk)
    Job.objects.filter(pk=job.pk).update(heartbeat_at=timezone.now() - timedelta(minutes=3))
    out = StringIO()
    call_command("fail_stale_jobs", "--minutes", "2", stdout=out)
    assert "1 stale job(s)" in out.getvalue()


# --- A job's state is compare-and-set; cancel; a lost connection ---------


def test_a_failed_job_cannot_become_done(db):
    import pytest

    job = jobs.job_create(kind=Job.Kind.IMPORT)
    jobs.job_start(job_id=job.pk)
    assert jobs.job_fail(job_id=job.pk, error="The worker stopped before finishing this job.")
    assert not jobs.job_finish(job_id=job.pk, message="Imported 1 of 1 file(s)")
    assert not jobs.job_fail(job_id=job.pk, error="a second reason")
    with pytest.raises(jobs.JobStopped):
        jobs.job_progress(job_id=job.pk, progress=50)
    job.refresh_from_db()
    assert (job.status, job.error) == (
        Job.Status.FAILED,
        "The worker stopped before finishing this job.",
    )


def _staged_import_job(lead, name="late.txt"):
    from transcripts.models import StagedUpload

    job = jobs.job_create(kind=Job.Kind.IMPORT, user=lead, result={"path": name})
    StagedUpload.objects.create(job=job, index=0, original_name=name, data=SPEECH, size=len(SPEECH))
    return job, {"job_id": job.pk, "files": [{"path": name, "staged": 0}], "user_id": lead.pk}


SPEECH = b"PRESIDING COMMISSIONER ALDEN: Good morning.\nATTORNEY VANCE: Good morning.\n"


def test_an_import_failed_by_the_sweep_meanwhile_leaves_no_transcript_and_stays_failed(
    lead, monkeypatch
):
    from transcripts.models import StagedUpload, Transcript
    from transcripts.services import importing
    from transcripts.tasks import import_files_task

    job, kwargs = _staged_import_job(lead)
    real_parse = importing.parse_file

    def parse_then_swept(name, data, **kw):
        parsed = real_parse(name, data, **kw)
        # The sweep took the worker for dead while it parsed.
        Job.objects.filter(pk=job.pk).update(heartbeat_at=timezone.now() - timedelta(hours=1))
        assert jobs.jobs_fail_stale() == 1
        return parsed

    monkeypatch.setattr(importing, "parse_file", parse_then_swept)
    import_files_task.func(**kwargs)
    job.refresh_from_db()
    assert job.status == Job.Status.FAILED and job.message == "Worker stopped"
    assert not Transcript.objects.exists()  # rolled back at the commit's guard
    assert not StagedUpload.objects.exists()


def test_a_lead_cancels_a_running_import_from_the_page_and_its_worker_stops(client, lead):
    import pytest

    from anonreview.core.models import AuditEvent

    job, _ = _staged_import_job(lead)
    jobs.job_start(job_id=job.pk)
    client.force_login(lead)
    page = client.get(reverse("transcripts:job-status", args=[job.pk]))
    assert b"job-cancel" in page.content
    response = client.post(
        reverse("transcripts:job-cancel", args=[job.pk]), headers={"HX-Request": "true"}
    )
    assert response.status_code == 200 and b"Cancelled" in response.content
    job.refresh_from_db()
    assert job.status == Job.Status.CANCELLED and job.message == "Cancelled"
    assert AuditEvent.objects.filter(event_type="job.cancel", after__job=job.pk).exists()
    with pytest.raises(jobs.JobStopped):  # the worker's next progress report
        jobs.job_progress(job_id=job.pk, progress=40)


def test_cancelling_an_upload_cancels_its_files_and_ends_the_batch(client, lead):
    batch = jobs.job_create(kind=Job.Kind.IMPORT, user=lead, message="2 file(s) waiting")
    files = [
        jobs.job_create(kind=Job.Kind.IMPORT, user=lead, batch=batch, result={"path": p})
        for p in ("a.txt", "b.txt")
    ]
    client.force_login(lead)
    client.post(reverse("transcripts:job-cancel", args=[batch.pk]), {"next": "/import/"})
    batch.refresh_from_db()
    assert batch.status == Job.Status.DONE
    assert [f["path"] for f in batch.result["files"]] == ["a.txt", "b.txt"]
    assert all("Cancelled" in f["error"] for f in batch.result["files"])
    assert all(Job.objects.get(pk=f.pk).status == Job.Status.CANCELLED for f in files)


def test_only_leads_cancel_jobs(client, annotator):
    t = make_transcript(assignees=[annotator])
    job = jobs.job_create(kind=Job.Kind.ANNOTATE, transcript=t)
    client.force_login(annotator)
    assert client.post(reverse("transcripts:job-cancel", args=[job.pk])).status_code == 403
    job.refresh_from_db()
    assert job.status == Job.Status.QUEUED


def test_a_queued_job_says_when_no_worker_is_alive(client, lead, settings):
    from anonreview.core import workers

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    job = jobs.job_create(kind=Job.Kind.IMPORT, user=lead)
    client.force_login(lead)
    url = reverse("transcripts:job-status", args=[job.pk])
    assert b"No worker is running" in client.get(url).content
    workers.worker_register(worker_id="w-page")
    try:
        assert b"No worker is running" not in client.get(url).content
    finally:
        workers.worker_unregister()


@pytest.mark.django_db(transaction=True)
def test_an_annotation_whose_connection_dies_fails_in_words_and_frees_its_transcript(
    monkeypatch,
):
    from django.db import connection

    from annotations.services import annotation
    from annotations.tasks import annotate_transcript_task
    from transcripts.models import Transcript
    from transcripts.services.workflow import transcript_transition

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: SQLite has no connection to terminate")
    t = make_transcript(state=Transcript.State.IMPORTED)
    job = jobs.job_create(kind=Job.Kind.ANNOTATE, transcript=t)

    def annotate_then_lose_the_connection(*, transcript, job_id=None, ensemble=None):
        transcript_transition(
            transcript=transcript, target=Transcript.State.ANNOTATING, reason="automatic"
        )
        with connection.cursor() as cursor:  # really terminated, by the server
            cursor.execute("SELECT pg_terminate_backend(pg_backend_pid())")

    monkeypatch.setattr(
        annotation, "ensemble_build", lambda: type("E", (), {"load_safely": lambda self: None})()
    )
    monkeypatch.setattr(annotation, "transcript_annotate", annotate_then_lose_the_connection)
    with pytest.raises(Exception) as raised:
        annotate_transcript_task.func(job_id=job.pk, transcript_id=t.pk)
    from anonreview.core.workers import is_connection_error

    assert is_connection_error(raised.value)
    job.refresh_from_db()  # on a fresh connection: the worker goes on
    t.refresh_from_db()
    assert job.status == Job.Status.FAILED and job.message == "Database connection lost"
    assert "database connection was lost" in job.error
    assert t.state == Transcript.State.FAILED


def test_a_grace_of_zero_is_zero_not_the_default(db):
    """``fail_stale_jobs --minutes 0`` meant the default minute (a zero timedelta is false)."""
    from anonreview.core import workers
    from anonreview.core.models import WorkerProcess

    row = workers.worker_register(worker_id="w-zero")
    try:
        job = jobs.job_create(kind=Job.Kind.IMPORT)
        Job.objects.filter(pk=job.pk).update(status=Job.Status.RUNNING, worker=row.key)
        seen = timezone.now() - timedelta(seconds=5)
        WorkerProcess.objects.filter(pk=row.pk).update(seen_at=seen)
        assert jobs.jobs_fail_stale() == 0  # within the default minute
        assert jobs.jobs_fail_stale(older_than=timedelta(0)) == 1
    finally:
        workers.worker_unregister()
