"""``manage.py db_worker`` survives a database that drops its connections.

On PostgreSQL (``DATABASE_URL=postgres://...``): a real worker process runs against the
test database, its connections are really terminated with ``pg_terminate_backend`` (not
mocked), and it then takes and finishes the next job. Skipped on SQLite, which has no
connection to lose.
"""

import os
import signal
import subprocess
import sys
import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection

from anonreview.core.models import WorkerProcess
from tests.conftest import REPO
from transcripts.models import Job, Transcript
from transcripts.services.upload_staging import import_job_enqueue

pytestmark = pytest.mark.django_db(transaction=True)

SPEECH = b"PRESIDING COMMISSIONER ALDEN: Good morning.\nATTORNEY VANCE: Good morning.\n"


def _postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL=postgres://...): SQLite has no connection")


def _wait(predicate, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = predicate()
        if got:
            return got
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def _terminate_other_backends() -> int:
    """Terminate every connection to the test database but this test's own."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return cursor.fetchone()[0]


@pytest.fixture
def worker_process(settings):
    """Start a real ``db_worker`` (one task, then it exits) on the test database."""
    db = connection.settings_dict
    env = {k: v for k, v in os.environ.items() if k not in {"DJANGO_SETTINGS_MODULE"}}
    env.update(
        DJANGO_SETTINGS_MODULE="anonreview.settings",
        DATABASE_URL=(
            f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST'] or '127.0.0.1'}:"
            f"{db['PORT'] or 5432}/{db['NAME']}"
        ),
        # Persistent connections, as a deployment has them: the poll's connection is
        # the one terminated (with 0 Django would reconnect at every poll anyway).
        DB_CONN_MAX_AGE="600",
        TASKS_BACKEND="django_tasks_db.DatabaseBackend",
        WORKER_HEARTBEAT_SECONDS="0.5",
        SECRET_KEY="test-only-" + "w" * 50,
        DEBUG="0",
        HTTPS="0",
        LOG_LEVEL="INFO",
        UPLOAD_STAGING_DIR=str(settings.UPLOAD_STAGING_DIR),  # where uploads wait
    )
    process = subprocess.Popen(
        [
            sys.executable,
            str(REPO / "manage.py"),
            "db_worker",
            "--no-reload",
            "--no-startup-delay",
            "--interval",
            "0.2",
            "--max-tasks",
            "1",
            "--worker-id",
            "pg-test-1",
        ],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    yield process
    if process.poll() is None:
        process.send_signal(signal.SIGKILL)
    process.wait(timeout=10)


def test_worker_survives_terminated_connections_and_finishes_the_next_job(
    worker_process, lead, settings
):
    _postgres_only()
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    row = _wait(
        lambda: WorkerProcess.objects.filter(worker_id="pg-test-1", stopped_at=None).first(),
        60,
        "the worker's liveness row",
    )
    first_seen = row.seen_at
    time.sleep(1.0)  # a few polls: the worker holds its connections now
    assert worker_process.poll() is None
    terminated = _terminate_other_backends()
    time.sleep(1.0)
    terminated += _terminate_other_backends()  # and again, after it reconnected
    assert terminated >= 2  # the poll's connection and the heartbeat's, at least
    time.sleep(1.0)
    assert worker_process.poll() is None, worker_process.stdout.read()[-3000:]

    batch = import_job_enqueue(
        uploads=[SimpleUploadedFile("after.txt", SPEECH, content_type="text/plain")],
        user=lead,
    )
    file_job = Job.objects.get(batch=batch)
    _wait(
        lambda: Job.objects.filter(pk=file_job.pk, status=Job.Status.DONE).exists(),
        90,
        "the next job to be done",
    )
    assert worker_process.wait(timeout=30) == 0  # --max-tasks 1: it exits cleanly
    output = worker_process.stdout.read()
    assert "connection lost" in output or "heartbeat failed" in output
    assert Transcript.objects.count() == 1
    file_job.refresh_from_db()
    assert file_job.worker.startswith("pg-test-1@")
    row.refresh_from_db()
    assert row.seen_at > first_seen  # the heartbeat went on after the terminations
    assert row.stopped_at is not None  # and the clean exit was recorded


def test_a_worker_crash_is_logged_through_the_privacy_formatter(monkeypatch, settings, caplog):
    # Tracebacks went to stderr raw, exception messages (names) included.
    import logging
    import threading

    from django.core.management import call_command

    from anonreview.core.management.commands import db_worker
    from anonreview.logs import PrivacyFormatter

    settings.WORKER_NICE = 0  # this test process keeps its priority
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    monkeypatch.setattr(threading, "excepthook", threading.excepthook)

    secret = "".join(["Qu", "ill"])  # not in the source line the traceback quotes

    def crash(self):
        raise RuntimeError(f"{secret} Vance's hearing")

    monkeypatch.setattr(db_worker.Worker, "poll_once", crash)
    with caplog.at_level(logging.CRITICAL, logger="anonreview.worker"):
        with pytest.raises(SystemExit) as stopped:
            call_command("db_worker", "--no-reload", "--no-startup-delay", "--worker-id", "c-1")
    assert stopped.value.code == 1  # for the supervisor to restart it
    [record] = [r for r in caplog.records if r.exc_info]
    formatter = next(
        h.formatter
        for h in logging.getLogger().handlers
        if isinstance(h.formatter, PrivacyFormatter)
    )
    written = formatter.format(record)
    assert "RuntimeError: <message withheld>" in written and "Quill" not in written
    assert WorkerProcess.objects.get(worker_id="c-1").stopped_at is not None


@pytest.mark.django_db
def test_a_failed_tasks_stored_traceback_has_no_exception_message(monkeypatch, settings):
    # The library stored the whole traceback, exception message (names) included.
    from django_tasks_db.models import DBTaskResult

    from annotations.services import measurements
    from annotations.tasks import dashboard_recompute_task
    from anonreview.core.management.commands import db_worker
    from transcripts.services import jobs

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    secret = "".join(["Qu", "ill"])

    def broken(**kwargs):
        raise RuntimeError(f"{secret} was in the text")

    monkeypatch.setattr(measurements, "dashboard_recompute_job", broken)
    job = jobs.job_create(kind=Job.Kind.EVALUATE)
    queued = DBTaskResult.objects.get(pk=dashboard_recompute_task.enqueue(job_id=job.pk).id)
    worker = db_worker.Worker(
        queue_names=["default"],
        interval=0,
        batch=True,
        backend_name="default",
        startup_delay=False,
        max_tasks=None,
        worker_id="t-priv",
        excluded_queue_names=[],
    )
    worker.run_task(queued)
    queued.refresh_from_db()
    assert queued.status == "FAILED"
    assert "RuntimeError: <message withheld>" in queued.traceback
    assert secret not in queued.traceback
    job.refresh_from_db()
    assert (
        job.status == Job.Status.FAILED and "RuntimeError" in job.error and secret not in job.error
    )


@pytest.mark.parametrize(
    "group, shown",
    [("/autogroup-7 nice 10\n", "/autogroup-7 nice 10"), ("", "none (a CPU cgroup")],
    ids=["autogroup", "cgroup"],
)
def test_the_workers_start_line_names_its_scheduling_group_or_none(
    group, shown, monkeypatch, settings, caplog, tmp_path
):
    # In a container (CI) /proc/self/autogroup exists but reads empty: the line says so
    # rather than name a group that does not decide anything.
    import logging

    from django.core.management import call_command

    from anonreview.core import workers
    from anonreview.core.management.commands import db_worker

    settings.WORKER_NICE = 0
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    fake = tmp_path / "autogroup"
    fake.write_text(group)
    monkeypatch.setattr(workers, "AUTOGROUP", str(fake))

    def stop(self):
        raise KeyboardInterrupt

    monkeypatch.setattr(db_worker.Worker, "poll_once", stop)
    with caplog.at_level(logging.INFO, logger="anonreview.worker"):
        try:
            call_command("db_worker", "--no-reload", "--no-startup-delay", "--worker-id", "g-1")
        except (SystemExit, KeyboardInterrupt):
            pass
    [line] = [r.getMessage() for r in caplog.records if "scheduling group" in r.getMessage()]
    assert f"scheduling group {shown}" in line
