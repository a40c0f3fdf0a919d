"""``manage.py run_workers``: the supervisor ``make run`` uses restarts a killed worker
(workers that died stayed dead, and queued jobs waited for nobody)."""

import os
import signal
import subprocess
import sys
import time

import pytest
from django.db import connection

from anonreview.core.models import WorkerProcess
from tests.conftest import REPO

pytestmark = pytest.mark.django_db(transaction=True)


def _database_url() -> str:
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    return (
        f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST'] or '127.0.0.1'}:"
        f"{db['PORT'] or 5432}/{db['NAME']}"
    )


def _alive(worker_id: str):
    return list(
        WorkerProcess.objects.filter(worker_id=worker_id, stopped_at=None).values_list(
            "pid", flat=True
        )
    )


def _wait(predicate, timeout, what):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if got := predicate():
            return got
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def test_a_killed_worker_is_started_again():
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env.update(
        DJANGO_SETTINGS_MODULE="anonreview.settings",
        DATABASE_URL=_database_url(),
        SECRET_KEY="test-only-" + "s" * 50,
        DEBUG="0",
        HTTPS="0",
        LOG_LEVEL="WARNING",
        WORKER_NICE="0",
    )
    supervisor = subprocess.Popen(
        [
            sys.executable,
            str(REPO / "manage.py"),
            "run_workers",
            "--workers",
            "1",
            "--prefix",
            "sup",
            "--restart-pause",
            "0.5",
        ],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        [first] = _wait(lambda: _alive("sup-1"), 60, "the first worker")
        os.kill(first, signal.SIGKILL)  # as the OOM killer or `kill -9` would
        [second] = _wait(
            lambda: [p for p in _alive("sup-1") if p != first], 60, "the restarted worker"
        )
        assert second != first
        # The restart marked the dead process stopped: its jobs are failed at once.
        assert not WorkerProcess.objects.filter(pid=first, stopped_at=None).exists()
    finally:
        supervisor.send_signal(signal.SIGTERM)
        out, _ = supervisor.communicate(timeout=60)
    assert supervisor.returncode == 0
    assert "restarting" in out
    # SIGTERM reached the worker once: it stopped cleanly and recorded it.
    assert WorkerProcess.objects.get(pid=second).stopped_at is not None


def test_only_the_workers_preload_the_models(monkeypatch):
    # The supervisor is a manage.py process too: it must not load the detectors itself.
    from anonreview.core.management.commands import run_workers

    started = []

    class FakePopen:
        def __init__(self, args, **kwargs):
            started.append((args, kwargs))

    def stop_at_once(self):
        for n in range(1, self.count + 1):
            self.start(f"{self.prefix}-{n}")
        return 0

    monkeypatch.delenv("ANONREVIEW_PRELOAD_DETECTORS", raising=False)
    monkeypatch.setattr(run_workers.subprocess, "Popen", FakePopen)
    monkeypatch.setattr(run_workers.Supervisor, "run", stop_at_once)
    monkeypatch.setattr(run_workers.signal, "signal", lambda *a: None)
    from django.core.management import call_command

    call_command("run_workers", "--workers", "2", "--preload-detectors")
    assert [a[a.index("--worker-id") + 1] for a, _ in started] == ["local-1", "local-2"]
    assert all(kw["env"]["ANONREVIEW_PRELOAD_DETECTORS"] == "1" for _, kw in started)
    assert all(kw["env"]["ANONREVIEW_WORKERS"] == "2" for _, kw in started)
    assert "ANONREVIEW_PRELOAD_DETECTORS" not in os.environ
