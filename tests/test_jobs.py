from datetime import timedelta

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
