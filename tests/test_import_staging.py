"""Upload jobs stage their files in the database (workers need only the database) and
the staged bytes are deleted when the job ends, after success and after failure."""

import os

import pytest
from django.conf import settings as django_settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django_tasks_db.models import DBTaskResult

from transcripts.models import Job, StagedUpload, Transcript
from transcripts.services.importing import import_job_enqueue
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
    with django_capture_on_commit_callbacks(execute=True):
        job = import_job_enqueue(uploads=list(files), user=lead)
    queued = DBTaskResult.objects.get()
    assert queued.task_path == "transcripts.tasks.import_files_task"
    return job, queued.args_kwargs["kwargs"]


def test_upload_is_staged_in_the_database_and_imported_from_it(
    lead, db_tasks, django_capture_on_commit_callbacks
):
    before = _media_files()
    job, kwargs = _enqueue(
        lead,
        django_capture_on_commit_callbacks,
        SimpleUploadedFile("plain.txt", SPEECH, content_type="text/plain"),
        SimpleUploadedFile("empty.txt", b"", content_type="text/plain"),
    )
    assert _media_files() == before  # nothing staged on disk
    staged = StagedUpload.objects.get(job=job)
    assert bytes(staged.data) == SPEECH and staged.size == len(SPEECH)
    assert staged.original_name == "plain.txt"
    job.refresh_from_db()
    assert job.status == Job.Status.QUEUED and not Transcript.objects.exists()

    import_files_task.func(**kwargs)  # what a db_worker on any machine runs

    job.refresh_from_db()
    assert job.status == Job.Status.DONE
    assert [f["ok"] for f in job.result["files"]] == [True, False]
    transcript = Transcript.objects.get()
    assert "Good morning." in transcript.text
    assert not StagedUpload.objects.exists()


def test_staged_rows_are_deleted_when_the_job_fails(
    lead, db_tasks, django_capture_on_commit_callbacks, monkeypatch
):
    from transcripts.services import importing

    job, kwargs = _enqueue(
        lead,
        django_capture_on_commit_callbacks,
        SimpleUploadedFile("plain.txt", SPEECH, content_type="text/plain"),
    )
    assert StagedUpload.objects.filter(job=job).count() == 1

    def broken_batch(**_kwargs):
        raise RuntimeError("worker lost its parser")

    monkeypatch.setattr(importing, "transcripts_import_batch", broken_batch)
    with pytest.raises(RuntimeError):
        import_files_task.func(**kwargs)

    job.refresh_from_db()
    assert job.status == Job.Status.FAILED and "RuntimeError" in job.error
    assert not StagedUpload.objects.exists()
    assert not Transcript.objects.exists()


def test_oversized_upload_is_refused_before_staging(
    lead, db_tasks, settings, django_capture_on_commit_callbacks
):
    settings.IMPORT_MAX_FILE_BYTES = 10
    job, kwargs = _enqueue(
        lead,
        django_capture_on_commit_callbacks,
        SimpleUploadedFile("plain.txt", SPEECH, content_type="text/plain"),
    )
    assert not StagedUpload.objects.filter(job=job).exists()
    import_files_task.func(**kwargs)
    job.refresh_from_db()
    assert job.status == Job.Status.DONE
    assert job.result["files"][0]["code"] == "too_large"
