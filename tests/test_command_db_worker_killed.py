"""A ``kill -9``ed worker leaves no task row ``RUNNING``.

On PostgreSQL: a real ``db_worker`` process takes an import job whose staged file is a
named pipe nobody writes (so it is mid-task, deterministically, without sleeps in the
work), is killed with SIGKILL, and the stale sweep then fails our Job **and** marks
django-tasks' own row (``DBTaskResult``) failed. Skipped on SQLite (the worker process
needs the test database by URL)."""

import os
import signal
import subprocess
import sys
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection

from tests.conftest import REPO
from tests.test_command_db_worker import _postgres_only, _wait
from transcripts.models import Job, StagedUpload
from transcripts.services import jobs
from transcripts.services.upload_staging import import_job_enqueue

pytestmark = pytest.mark.django_db(transaction=True)


def _start_worker(settings) -> subprocess.Popen:
    db = connection.settings_dict
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env.update(
        DJANGO_SETTINGS_MODULE="anonreview.settings",
        DATABASE_URL=(
            f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST'] or '127.0.0.1'}:"
            f"{db['PORT'] or 5432}/{db['NAME']}"
        ),
        TASKS_BACKEND="django_tasks_db.DatabaseBackend",
        WORKER_HEARTBEAT_SECONDS="0.5",
        SECRET_KEY="test-only-" + "w" * 50,
        DEBUG="0",
        HTTPS="0",
        UPLOAD_STAGING_DIR=str(settings.UPLOAD_STAGING_DIR),
    )
    return subprocess.Popen(
        [
            sys.executable,
            str(REPO / "manage.py"),
            "db_worker",
            "--no-reload",
            "--no-startup-delay",
            "--interval",
            "0.2",
            "--worker-id",
            "pg-killed-1",
        ],
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def test_a_killed_workers_task_row_is_failed_by_the_sweep(lead, settings):
    _postgres_only()
    from django_tasks_db.models import DBTaskResult

    from anonreview.core.workers import WORKER_GONE
    from transcripts.storage import staging_path

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    batch = import_job_enqueue(
        uploads=[SimpleUploadedFile("hearing.txt", b"ATTORNEY VANCE: Yes.\n")], user=lead
    )
    job = Job.objects.get(batch=batch)
    staged = StagedUpload.objects.get(job=job)
    pipe = staging_path(staged.path)
    pipe.unlink()
    os.mkfifo(pipe)  # the worker's read waits here until it is killed
    worker = _start_worker(settings)
    try:
        _wait(
            lambda: Job.objects.filter(pk=job.pk, status=Job.Status.RUNNING).exists(),
            120,
            "the worker to take the job",
        )
        row = DBTaskResult.objects.get(pk=Job.objects.get(pk=job.pk).task_result_id)
        assert row.status == "RUNNING"
        worker.send_signal(signal.SIGKILL)  # as the OOM killer or `kill -9` would
        worker.wait(timeout=30)
    finally:
        if worker.poll() is None:
            worker.kill()
            worker.wait(timeout=30)
        if pipe.exists():
            pipe.unlink()

    assert jobs.jobs_fail_stale(older_than=timedelta(0)) == 1
    job.refresh_from_db()
    row.refresh_from_db()
    assert job.status == Job.Status.FAILED and job.message == "Worker stopped"
    assert row.status == "FAILED" and row.exception_class_path == WORKER_GONE
    assert row.finished_at is not None
