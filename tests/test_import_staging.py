"""Upload jobs stage their files in the database (workers need only the database) and
the staged bytes are deleted when the job ends, after success and after failure."""

import os

import pytest
from django.conf import settings as django_settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from transcripts.models import Job, StagedUpload, Transcript
from transcripts.services.upload_staging import import_job_enqueue
from transcripts.tasks import import_files_task

SPEECH = b"PRESIDING COMMISSIONER ALDEN: Good morning.\nATTORNEY VANCE: Good morning.\n"
LIGHT_DETECTORS = [{"NAME": "engine.detectors.propagation.PropagationDetector", "OPTIONS": {}}]


@pytest.fixture
def db_tasks(settings):
    settings.DETECTORS = LIGHT_DETECTORS
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


def _media_files() -> set[str]:
    root = django_settings.MEDIA_ROOT
    return {
        os.path.relpath(os.path.join(d, f), root) for d, _, files in os.walk(root) for f in files
    }


def _enqueue(lead, django_capture_on_commit_callbacks, *files) -> tuple[Job, dict]:
    """Queue an upload; returns its batch Job and the one queued task's kwargs."""
    with django_capture_on_commit_callbacks(execute=True):
        batch = import_job_enqueue(uploads=list(files), user=lead)
    queued = DBTaskResult.objects.get()
    assert queued.task_path == "transcripts.tasks.import_files_task"
    return batch, queued.args_kwargs["kwargs"]


def _run_queued(capture) -> list[str]:
    """Run every queued task once, as db_workers would (the ones they queue too)."""
    from importlib import import_module

    ran = []
    done: set = set()
    while todo := [t for t in DBTaskResult.objects.order_by("enqueued_at") if t.pk not in done]:
        for queued in todo:
            done.add(queued.pk)
            module, name = queued.task_path.rsplit(".", 1)
            with capture(execute=True):  # each task commits: its on_commit enqueues run
                getattr(import_module(module), name).func(**queued.args_kwargs["kwargs"])
            ran.append(queued.task_path)
    return ran


def _staged_files() -> set[str]:
    return set(os.listdir(django_settings.UPLOAD_STAGING_DIR))


def test_upload_is_staged_on_disk_and_imported_from_there(
    lead, db_tasks, django_capture_on_commit_callbacks
):
    # Streamed to the staging directory, not read into memory nor written into
    # the database inside the request (a 180 MB zip timed out at 1.7 GB).
    before = _media_files()
    job, kwargs = _enqueue(
        lead,
        django_capture_on_commit_callbacks,
        SimpleUploadedFile("plain.txt", SPEECH, content_type="text/plain"),
        SimpleUploadedFile("empty.txt", b"", content_type="text/plain"),
    )
    assert _media_files() == before
    staged = StagedUpload.objects.get(job__batch=job)
    assert bytes(staged.data) == b"" and staged.size == len(SPEECH)
    assert staged.path in _staged_files() and staged.read() == SPEECH
    assert staged.original_name == "plain.txt"
    job.refresh_from_db()
    assert job.status == Job.Status.QUEUED and not Transcript.objects.exists()

    import_files_task.func(**kwargs)  # what a db_worker runs

    job.refresh_from_db()
    assert job.status == Job.Status.DONE
    assert [f["ok"] for f in job.result["files"]] == [True, False]
    transcript = Transcript.objects.get()
    assert "Good morning." in transcript.text
    assert not StagedUpload.objects.exists()
    assert staged.path not in _staged_files()  # the file went with its row


def test_a_temporary_upload_file_is_moved_not_read(lead, db_tasks, tmp_path, monkeypatch):
    from django.core.files.uploadedfile import TemporaryUploadedFile

    upload = TemporaryUploadedFile("big.txt", "text/plain", len(SPEECH), None)
    upload.write(SPEECH)
    upload.seek(0)
    monkeypatch.setattr(type(upload), "chunks", lambda *a, **k: pytest.fail("read"))
    batch = import_job_enqueue(uploads=[upload], user=lead)
    staged = StagedUpload.objects.get(job__batch=batch)
    assert staged.read() == SPEECH and staged.size == len(SPEECH)


def test_staged_rows_are_deleted_when_the_job_fails(
    lead, db_tasks, django_capture_on_commit_callbacks, monkeypatch
):
    from transcripts.services import import_jobs

    job, kwargs = _enqueue(
        lead,
        django_capture_on_commit_callbacks,
        SimpleUploadedFile("plain.txt", SPEECH, content_type="text/plain"),
    )
    assert StagedUpload.objects.filter(job__batch=job).count() == 1

    def broken_batch(**_kwargs):
        raise RuntimeError("worker lost its parser")

    monkeypatch.setattr(import_jobs, "transcripts_import_batch", broken_batch)
    with pytest.raises(RuntimeError):
        import_files_task.func(**kwargs)

    file_job = Job.objects.get(pk=kwargs["job_id"])
    assert file_job.status == Job.Status.FAILED and "RuntimeError" in file_job.error
    job.refresh_from_db()  # the batch ends and names the file and why, in words
    assert job.status == Job.Status.DONE
    [outcome] = job.result["files"]
    assert outcome["path"] == "file 1 (.txt)" and not outcome["ok"]  # no upload name
    assert "stopped unexpectedly" in outcome["error"]
    assert not StagedUpload.objects.exists()
    assert not Transcript.objects.exists()


def test_oversized_upload_is_refused_before_staging(
    lead, db_tasks, settings, django_capture_on_commit_callbacks
):
    settings.IMPORT_MAX_FILE_BYTES = 10
    with django_capture_on_commit_callbacks(execute=True):
        job = import_job_enqueue(
            uploads=[SimpleUploadedFile("plain.txt", SPEECH, content_type="text/plain")],
            user=lead,
        )
    assert not StagedUpload.objects.exists() and not DBTaskResult.objects.exists()
    job.refresh_from_db()  # nothing to import: the batch ended at once
    assert job.status == Job.Status.DONE
    assert job.result["files"][0]["code"] == "too_large"


def test_a_batch_queues_one_import_job_per_file_and_reports_each_outcome(
    client, lead, db_tasks, django_capture_on_commit_callbacks
):
    """Each file of an upload is its own import Job, so that every worker can take one;
    the batch still shows the whole upload, bad files with their reason."""
    with django_capture_on_commit_callbacks(execute=True):
        batch = import_job_enqueue(
            uploads=[
                SimpleUploadedFile("fake.pdf", b"hello, not a pdf", content_type="application/pdf"),
                SimpleUploadedFile("empty.txt", b"", content_type="text/plain"),
                SimpleUploadedFile("plain.txt", SPEECH, content_type="text/plain"),
            ],
            user=lead,
        )
    file_jobs = list(Job.objects.filter(batch=batch).order_by("id"))
    assert len(file_jobs) == 3 and all(j.kind == Job.Kind.IMPORT for j in file_jobs)
    assert DBTaskResult.objects.count() == 2  # the empty file is refused without a task
    assert sorted(j.pk for j in file_jobs if j.staged_uploads.exists()) == sorted(
        t.args_kwargs["kwargs"]["job_id"] for t in DBTaskResult.objects.all()
    )
    batch.refresh_from_db()
    assert batch.is_active  # two files still to import

    client.force_login(lead)
    panel_url = reverse("transcripts:upload-job", args=[batch.pk])
    running = client.get(panel_url, headers={"HX-Request": "true"}).content.decode()
    assert "1 of 3 file(s) done" in running and 'hx-trigger="every 1s"' in running

    ran = _run_queued(django_capture_on_commit_callbacks)
    assert ran.count("transcripts.tasks.import_files_task") == 2
    assert "annotations.tasks.annotate_transcript_task" in ran

    batch.refresh_from_db()
    assert batch.status == Job.Status.DONE and batch.message == "Imported 1 of 3 file(s)"
    outcomes = {f["path"]: f for f in batch.result["files"]}
    # upload order, each file named by its place and type, never its name
    fake, empty, plain = "file 1 (.pdf)", "file 2 (.txt)", "file 3 (.txt)"
    assert list(outcomes) == [fake, empty, plain]
    assert "This is not a PDF" in outcomes[fake]["error"]
    assert outcomes[empty]["error"] == "The file is empty."
    transcript = Transcript.objects.get()
    assert outcomes[plain]["ok"] and outcomes[plain]["transcript_id"] == transcript.pk
    assert transcript.original_name == "plain.txt"  # the transcript keeps it
    annotation = Job.objects.get(kind=Job.Kind.ANNOTATE, transcript=transcript)
    assert annotation.status == Job.Status.DONE
    assert not StagedUpload.objects.exists()

    page = client.get(reverse("transcripts:upload") + f"?job={batch.pk}").content.decode()
    assert "1 of 3 files imported" in page
    assert "This is not a PDF" in page and "The file is empty." in page
    assert page.count('data-ok="false"') == 2 and page.count('data-ok="true"') == 1
    assert f"?job={batch.pk}" in page  # the recent imports list the batch ...
    assert not any(f'?job={j.pk}"' in page for j in file_jobs)  # ... not its files
