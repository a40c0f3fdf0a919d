"""``bench_review --session --busy-workers``: the workers that annotate meanwhile."""

import os
import subprocess
import sys

import pytest
from django.core.management.base import CommandError

from annotations.management import busy_workers as bw


def test_busy_workers_refuse_a_database_several_processes_cannot_share():
    with pytest.raises(CommandError, match="PostgreSQL URL"):
        with bw.busy_workers(2, "sqlite:///var/db.sqlite3"):
            pass


def test_a_corpus_workers_are_found_by_the_id_that_names_its_pid():
    child = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(30)", "db_worker", "--worker-id",
         f"bench-{os.getpid()}-2-0"],
    )  # fmt: skip
    try:
        assert bw._worker_pids(os.getpid()) == [child.pid]
        assert bw._worker_pids(os.getpid() + 1_000_000) == []
        assert bw._cpu_seconds([os.getpid()]) > 0
    finally:
        child.kill()
        child.wait()
