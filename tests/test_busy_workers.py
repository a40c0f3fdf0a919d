"""``bench_review --session --busy-workers``: the workers that annotate meanwhile."""

import os
import subprocess
import sys

import pytest
from django.core.management.base import CommandError

from annotations.benchmarks import busy_workers as bw


def test_busy_workers_refuse_a_database_several_processes_cannot_share():
    with pytest.raises(CommandError, match="PostgreSQL URL"):
        with bw.busy_workers(2, "sqlite:///var/db.sqlite3"):
            pass


def test_a_corpus_workers_are_found_by_the_id_that_names_its_pid():
    # The child says it runs (its line comes once Python runs its code, i.e. after the
    # exec): before that, /proc/<pid>/cmdline is still the parent's (failed once under load).
    child = subprocess.Popen(
        [sys.executable, "-c", "import time; print('up', flush=True); time.sleep(30)",
         "db_worker", "--worker-id", f"bench-{os.getpid()}-2-0"],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert child.stdout.readline().strip() == "up"
        assert bw._worker_pids(os.getpid()) == [child.pid]
        assert bw._worker_pids(os.getpid() + 1_000_000) == []
        assert bw._cpu_seconds([os.getpid()]) > 0
    finally:
        child.kill()
        child.wait()


SERVER = "postgres://postgres@127.0.0.1:5432"


def _server_up() -> bool:
    import psycopg

    try:
        psycopg.connect(SERVER + "/postgres", connect_timeout=3).close()
        return True
    except psycopg.Error:
        return False


@pytest.mark.skipif(not _server_up(), reason="needs PostgreSQL at 127.0.0.1:5432")
def test_the_benchmarks_database_is_created_on_a_fresh_server_and_kept_after():
    # A fresh machine has no "anonbench": the first run failed with a migration traceback.
    import psycopg

    name = f"anonbench_t{os.getpid()}"
    try:
        assert bw.ensure_database(f"{SERVER}/{name}") is True
        assert bw.ensure_database(f"{SERVER}/{name}") is False  # there now
    finally:
        with psycopg.connect(SERVER + "/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')


def test_a_server_that_cannot_be_reached_is_a_clear_error():
    with pytest.raises(CommandError, match="cannot be reached"):
        bw.ensure_database("postgres://postgres@127.0.0.1:1/anonbench")
    with pytest.raises(CommandError, match="names no database"):
        bw.ensure_database("postgres://postgres@127.0.0.1:1")
