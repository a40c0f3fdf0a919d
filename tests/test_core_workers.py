"""Worker liveness: a heartbeat independent of progress, a sweep that fails
only jobs whose worker is gone, and workers below the web server's CPU priority."""

import os
import subprocess
import sys
import time
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from anonreview.core import workers
from anonreview.core.models import WorkerProcess
from tests.conftest import REPO
from tests.factories import make_transcript
from transcripts.models import Job, Transcript
from transcripts.services import jobs


def _running_job(*, key: str, kind=Job.Kind.ANNOTATE, transcript=None) -> Job:
    job = jobs.job_create(kind=kind, transcript=transcript)
    jobs.job_start(job_id=job.pk)
    # Its last progress an hour ago: one long stage (a detector, a big PDF page).
    Job.objects.filter(pk=job.pk).update(
        worker=key, heartbeat_at=timezone.now() - timedelta(hours=1)
    )
    return job


@pytest.fixture
def registered(db):
    row = workers.worker_register(worker_id="w-test")
    yield row
    workers.worker_unregister()


def test_a_long_stage_without_progress_is_not_swept_while_its_worker_beats(registered):
    t = make_transcript(state=Transcript.State.ANNOTATING)
    job = _running_job(key=registered.key, transcript=t)
    assert jobs.jobs_fail_stale() == 0
    assert jobs.jobs_fail_stale(older_than=timedelta(minutes=1)) == 0
    job.refresh_from_db()
    t.refresh_from_db()
    assert job.status == Job.Status.RUNNING and t.state == Transcript.State.ANNOTATING


def test_the_job_of_a_worker_not_seen_for_a_minute_is_failed(registered):
    t = make_transcript(state=Transcript.State.ANNOTATING)
    job = _running_job(key=registered.key, transcript=t)
    WorkerProcess.objects.filter(pk=registered.pk).update(
        seen_at=timezone.now() - timedelta(seconds=90)
    )
    assert jobs.jobs_fail_stale() == 1
    job.refresh_from_db()
    t.refresh_from_db()
    assert job.status == Job.Status.FAILED and job.message == "Worker stopped"
    assert t.state == Transcript.State.FAILED


def test_a_restarted_worker_fails_what_its_dead_predecessor_was_running_at_once(registered):
    job = _running_job(key=registered.key)
    workers.worker_register(worker_id="w-test")  # the supervisor started it again
    assert jobs.jobs_fail_stale() == 1
    job.refresh_from_db()
    assert job.status == Job.Status.FAILED and "worker stopped" in job.error.lower()


def test_the_sweep_of_a_batchs_only_file_ends_the_batch(registered, lead):
    batch = jobs.job_create(kind=Job.Kind.IMPORT, user=lead, message="1 file(s) waiting")
    child = jobs.job_create(kind=Job.Kind.IMPORT, user=lead, batch=batch, result={"path": "a.txt"})
    jobs.job_start(job_id=child.pk)
    Job.objects.filter(pk=child.pk).update(worker="gone@host:1:1")
    assert jobs.jobs_fail_stale() == 1
    batch.refresh_from_db()
    assert batch.status == Job.Status.DONE  # no longer "Queued" forever
    assert batch.result["files"][0]["path"] == "a.txt"
    assert "worker stopped" in batch.result["files"][0]["error"].lower()


def test_in_process_jobs_keep_the_progress_rule(db):
    job = jobs.job_create(kind=Job.Kind.ANNOTATE)
    jobs.job_start(job_id=job.pk)  # not in a worker: no liveness key
    assert Job.objects.get(pk=job.pk).worker == ""
    Job.objects.filter(pk=job.pk).update(heartbeat_at=timezone.now() - timedelta(minutes=5))
    assert jobs.jobs_fail_stale() == 0
    Job.objects.filter(pk=job.pk).update(heartbeat_at=timezone.now() - timedelta(minutes=11))
    assert jobs.jobs_fail_stale() == 1


@pytest.mark.django_db(transaction=True)
def test_the_heartbeat_thread_beats_while_the_job_reports_nothing():
    row = workers.worker_register(worker_id="w-beat")
    try:
        job = _running_job(key=row.key)
        stale = timezone.now() - timedelta(seconds=50)
        WorkerProcess.objects.filter(pk=row.pk).update(seen_at=stale)
        beat = workers.Heartbeat(row.key, interval=0.05)
        beat.start()
        # The "job" (this thread) reports nothing meanwhile; wait for beats, not for a time
        # (at most a limit that holds on a busy machine).
        deadline = time.monotonic() + 120
        while beat.beats < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        beat.stop()
        beat.join(timeout=60)
        assert beat.beats >= 3
        row.refresh_from_db()
        assert row.seen_at > stale + timedelta(seconds=40)  # the beats moved it on
        time.sleep(0.1)
        assert jobs.jobs_fail_stale(older_than=timedelta(seconds=30)) == 0
        assert Job.objects.get(pk=job.pk).status == Job.Status.RUNNING
    finally:
        workers.worker_unregister()


@pytest.mark.django_db(transaction=True)
def test_the_heartbeat_survives_a_terminated_connection():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: SQLite has no connection to terminate")
    row = workers.worker_register(worker_id="w-pg-beat")
    beat = workers.Heartbeat(row.key, interval=0.1)
    try:
        beat.start()
        time.sleep(0.5)
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            assert cursor.fetchone()[0] >= 1  # the heartbeat's own connection
        before = beat.beats
        time.sleep(1.0)
        assert beat.is_alive()
        assert beat.failures >= 1 and beat.beats > before
    finally:
        beat.stop()
        beat.join(timeout=5)
        workers.worker_unregister()


def test_workers_alive_count_sees_live_workers_only(registered):
    assert workers.workers_alive_count() == 1
    WorkerProcess.objects.filter(pk=registered.pk).update(
        seen_at=timezone.now() - timedelta(minutes=5)
    )
    assert workers.workers_alive_count() == 0


def test_a_worker_process_runs_below_the_web_servers_cpu_priority():
    code = (
        "import os, django; os.environ.setdefault('DJANGO_SETTINGS_MODULE', "
        "'anonreview.test_settings'); django.setup(); from anonreview.core import workers; "
        "before = os.nice(0); after = workers.process_lower_priority(); print(before, after)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    before, after = map(int, done.stdout.split()[-2:])
    assert after == min(19, before + 10)
    assert os.nice(0) == before  # the calling process (the "server") is untouched


def test_threads_started_before_the_priority_change_are_lowered_too():
    # Linux nices threads, not processes: a model library's thread started at preload
    # would otherwise keep the web server's priority.
    code = (
        "import os, threading, django; os.environ.setdefault('DJANGO_SETTINGS_MODULE', "
        "'anonreview.test_settings'); django.setup(); from anonreview.core import workers; "
        "tids = []; go = threading.Event()\n"
        "def early():\n    tids.append(threading.get_native_id()); go.wait()\n"
        "t = threading.Thread(target=early); t.start()\n"
        "while not tids: pass\n"
        "after = workers.process_lower_priority()\n"
        "print(after, os.getpriority(os.PRIO_PROCESS, tids[0])); go.set(); t.join()"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    after, early_thread = map(int, done.stdout.split()[-2:])
    assert after > os.nice(0) and early_thread == after


def _autogroup() -> str:
    with open("/proc/self/autogroup") as group:
        return group.read().strip()


def _in_an_autogroup() -> bool:
    # The file exists on every Linux kernel built with autogroup, but reads empty where this
    # process's scheduling group is not a session's (a container's CPU cgroup, the option off
    # at boot): sessions are not groups there and there is nothing to lower.
    try:
        return bool(_autogroup())
    except OSError:
        return False


needs_autogroup = pytest.mark.skipif(
    not _in_an_autogroup(), reason="Linux autogroup scheduling only (this process is in none)"
)

LOWER_AND_REPORT = (
    "import os, django; os.environ.setdefault('DJANGO_SETTINGS_MODULE', "
    "'anonreview.test_settings'); django.setup(); from anonreview.core import workers; "
    "after = workers.process_lower_priority(); "
    "print(after, os.getsid(0) == os.getpid(), workers.session_group())"
)


@needs_autogroup
def test_a_worker_leading_its_session_lowers_that_sessions_group_not_the_servers():
    # With autogroup, sessions share the CPU fairly whatever their processes' niceness: a
    # niced worker in another session than the web server would still take half the cores.
    server_group = _autogroup()
    done = subprocess.run(
        [sys.executable, "-c", LOWER_AND_REPORT], cwd=REPO, capture_output=True, text=True,
        timeout=120, start_new_session=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    after, leader, name, _nice, nice = done.stdout.splitlines()[-1].split()
    assert leader == "True"
    assert nice == after and name != server_group.split()[0]
    assert _autogroup() == server_group  # the caller's ("server's") group is untouched


@needs_autogroup
@pytest.mark.parametrize("group_leader", [False, True], ids=["child", "shell-job"])
def test_a_worker_sharing_its_parents_session_leaves_that_group_alone(group_leader):
    # Lowering the group it shares with a shell or make would lower a web server started
    # from the same shell too; starting a session of its own would hide it from Ctrl-C.
    server_group = _autogroup()
    done = subprocess.run(
        [sys.executable, "-c", LOWER_AND_REPORT], cwd=REPO, capture_output=True, text=True,
        timeout=120, process_group=0 if group_leader else None,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    after, leader, name, _nice, nice = done.stdout.splitlines()[-1].split()
    assert leader == "False"  # still in the caller's session
    assert (name, nice) == tuple(server_group.split()[0::2])
    assert int(after) > os.nice(0)  # its own threads are niced all the same


def test_run_workers_starts_each_worker_in_a_session_of_its_own(tmp_path, monkeypatch):
    from anonreview.core.management.commands.run_workers import Supervisor

    out = tmp_path / "sid"
    supervisor = Supervisor(count=1, prefix="t", worker_args=[], pause=0.1)
    monkeypatch.setattr(
        supervisor,
        "command",
        lambda worker_id: [
            sys.executable, "-c",
            f"import os; open({str(out)!r}, 'w').write(str(os.getsid(0) == os.getpid()))",
        ],
    )  # fmt: skip
    supervisor.start("t-1")
    supervisor.children["t-1"].wait(timeout=60)
    assert out.read_text() == "True"


def test_worker_status_lists_live_workers_and_fails_when_none_is(registered):
    import json
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("worker_status", "--json", stdout=out)
    report = json.loads(out.getvalue())
    assert report["alive"] == 1 and report["workers"][0]["worker_id"] == "w-test"
    WorkerProcess.objects.filter(pk=registered.pk).update(
        seen_at=timezone.now() - timedelta(minutes=5)
    )
    out = StringIO()
    with pytest.raises(SystemExit) as none_alive:
        call_command("worker_status", stdout=out)
    assert none_alive.value.code == 1
    assert "GONE" in out.getvalue() and "0 worker(s) alive." in out.getvalue()


@pytest.mark.parametrize(
    "argv, lowered", [(["manage.py", "db_worker", "--no-reload"], True), (["gunicorn"], False)]
)
def test_a_worker_lowers_its_priority_before_preloading_its_models_a_web_server_never(
    monkeypatch, argv, lowered
):
    from django.apps import apps

    from annotations.services import annotation

    calls = []
    monkeypatch.setenv("ANONREVIEW_PRELOAD_DETECTORS", "1")
    monkeypatch.setattr(sys, "argv", argv)
    monkeypatch.setattr(workers, "process_lower_priority", lambda: calls.append("nice"))
    monkeypatch.setattr(annotation, "detectors_preload", lambda **kw: calls.append("preload"))
    apps.get_app_config("annotations").ready()
    assert calls == (["nice", "preload"] if lowered else ["preload"])
