"""``bench_corpus`` on a tiny configuration: the real path with a real ``db_worker``.

Runs the command in a subprocess on a fresh SQLite file (the workers it starts must
share the database with it, which pytest's in-memory test database cannot). Checks the
JSON's shape, that the hearing was really imported and annotated, and that the
benchmark removed its rows; never the speed.
"""

import json
import os
import sqlite3
import subprocess
import sys

import pytest

from tests.conftest import REPO

pytestmark = pytest.mark.slow


def manage(*args, env, timeout=240):
    return subprocess.run(
        [sys.executable, str(REPO / "manage.py"), *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.fixture
def file_db_env(tmp_path):
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "TASKS_BACKEND", "DJANGO_SETTINGS_MODULE"}
    }
    env.update(
        DJANGO_SETTINGS_MODULE="anonreview.settings",
        DATABASE_URL=f"sqlite:///{tmp_path / 'bench.sqlite3'}",
        LOG_LEVEL="WARNING",
    )
    done = manage("migrate", "--noinput", "-v0", env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    return env, tmp_path / "bench.sqlite3"


def test_bench_corpus_annotates_through_real_workers_and_cleans_up(file_db_env):
    env, db = file_db_env
    done = manage("bench_corpus", "--n", "1", "--words", "800", "--workers", "1", "--json", env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert {
        "n",
        "words_per_transcript",
        "spacy_sm_s",
        "runs",
        "speedup",
        "projected_334_min",
        "peak_rss_mb_per_worker",
    } <= set(report)
    assert report["n"] == 1 and report["words_per_transcript"] >= 800
    (run,) = report["runs"]
    assert {"workers", "wall_s", "per_transcript_s", "import_s", "annotate_s"} <= set(run)
    assert run["workers"] == 1
    assert run["annotated"] == 1 and run["suggestions"] > 0  # really annotated
    assert 0 < run["import_s"] < run["wall_s"] and 0 < run["annotate_s"] < run["wall_s"]
    assert report["peak_rss_mb_per_worker"] > 0
    (worker,) = run["per_worker"]  # one worker: its import, then its annotation
    assert worker["jobs"] == "IA" and worker["tail_s"] == 0 and worker["cpu_s"] > 0
    assert worker["busy_s"] + worker["idle_s"] == pytest.approx(run["wall_s"], abs=0.01)
    with sqlite3.connect(db) as con:  # the benchmark's rows are gone
        assert con.execute("select count(*) from transcripts_transcript").fetchone() == (0,)
        assert con.execute("select count(*) from transcripts_job").fetchone() == (0,)
        assert con.execute("select count(*) from annotations_span").fetchone() == (0,)


def test_bench_corpus_refuses_bad_worker_counts(file_db_env):
    env, _db = file_db_env
    done = manage("bench_corpus", "--workers", "0", env=env, timeout=60)
    assert done.returncode != 0
    assert "--workers" in done.stderr and "Traceback" not in done.stderr


def test_bench_corpus_asks_for_migrate_on_a_half_migrated_database(file_db_env):
    env, _db = file_db_env
    done = manage("migrate", "annotations", "0001", "--noinput", "-v0", env=env)
    assert done.returncode == 0, done.stderr[-1500:]
    done = manage("bench_corpus", "--n", "1", "--words", "800", env=env, timeout=60)
    assert done.returncode != 0
    assert "migrate" in done.stderr and "Traceback" not in done.stderr


def test_worker_summary_splits_idle_time_into_start_gaps_and_tail():
    from annotations.benchmarks.corpus import _worker_summary

    timeline = [
        {"worker": "a", "kind": "import", "start_s": 0.1, "end_s": 1.0},
        {"worker": "b", "kind": "import", "start_s": 0.2, "end_s": 1.1},
        {"worker": "a", "kind": "annotate", "start_s": 1.5, "end_s": 5.0},
        {"worker": "b", "kind": "annotate", "start_s": 1.1, "end_s": 6.0},
    ]
    a = _worker_summary(timeline, 6.0, "a")
    assert a["jobs"] == "IA" and a["busy_s"] == pytest.approx(4.4)
    assert (a["start_s"], a["gaps_s"], a["tail_s"]) == pytest.approx((0.1, 0.5, 1.0))
    assert a["idle_s"] == pytest.approx(a["start_s"] + a["gaps_s"] + a["tail_s"])
    assert _worker_summary(timeline, 6.0, "b")["tail_s"] == 0
    idle = _worker_summary(timeline, 6.0, "c")  # a worker that got no job
    assert idle["jobs"] == "" and idle["tail_s"] == 6.0


def test_threads_per_worker_divide_the_cores_or_the_runs_thread_setting(monkeypatch):
    from annotations.benchmarks import corpus as bench_corpus

    monkeypatch.setattr(bench_corpus, "_cores", lambda: 2)
    monkeypatch.delenv("ANONREVIEW_THREADS", raising=False)
    assert [bench_corpus.threads_per_worker(k) for k in (1, 2, 3)] == [2, 1, 1]
    monkeypatch.setenv("ANONREVIEW_THREADS", "1")
    assert [bench_corpus.threads_per_worker(k) for k in (1, 2)] == [1, 1]
    monkeypatch.setenv("ANONREVIEW_THREADS", "8")
    assert [bench_corpus.threads_per_worker(k) for k in (1, 2)] == [8, 4]
