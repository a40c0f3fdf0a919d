"""The corpus benchmark's harness (``python manage.py bench_corpus``, which documents
its figures): K real ``db_worker`` processes started, watched and stopped, a generated
corpus pushed through the real upload path, each worker's busy and idle time."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management.base import CommandError

from anonreview.core.workers import die_with_parent

CORPUS = 334  # hearings in the paper's corpus
WORKER_START_TIMEOUT = 600
RUN_TIMEOUT = 3600
# How often an idle worker asks for a job (db_worker's --interval): the same as `make run`'s
# workers, so the benchmark measures what a deployment runs. A worker that finds a job takes
# the next at once; the interval only delays the first job of the run (and a worker that ran
# dry), by up to 0.2 s.
POLL_INTERVAL = "0.2"
CHECK_EVERY = 1.0  # seconds between this command's own looks at the run's progress


def require_no_pending_migrations() -> None:
    """The workers write every table: a half-migrated database fails mid-run."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    if executor.migration_plan(executor.loader.graph.leaf_nodes()):
        raise CommandError(
            "The database has migrations not yet applied: run `python manage.py migrate` first."
        )


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - macOS
        return os.cpu_count() or 1


def threads_per_worker(k: int) -> int:
    """The threads each of ``k`` workers gets: ANONREVIEW_THREADS (the threads of the whole
    run, when set) or the cores, divided by the workers, never below one."""
    total = int(os.environ.get("ANONREVIEW_THREADS") or 0) or _cores()
    return max(1, total // k)


def _peak_rss_mb(pid: int) -> float | None:
    """The process's peak resident memory (Linux's VmHWM), in MB."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        return None
    return None


def _cpu_s(pid: int) -> float | None:
    """CPU seconds (user + system, all threads) the process has used so far (Linux)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _worker_summary(timeline: list[dict], wall_s: float, worker_id: str) -> dict:
    """One worker's busy/idle seconds in a run, from its jobs' rows: ``busy_s`` (its jobs'
    run times), ``idle_s`` = wall − busy, split into ``start_s`` (before its first job),
    ``gaps_s`` (between its jobs: polling, waiting for work) and ``tail_s`` (after its
    last job, while another worker finished); ``jobs`` its job kinds in order
    (I = import, A = annotation)."""
    rows = sorted((r for r in timeline if r["worker"] == worker_id), key=lambda r: r["start_s"])
    if not rows:
        return {
            "busy_s": 0.0,
            "idle_s": round(wall_s, 3),
            "start_s": None,
            "gaps_s": 0.0,
            "tail_s": round(wall_s, 3),
            "jobs": "",
        }
    busy = sum(r["end_s"] - r["start_s"] for r in rows)
    first, last = rows[0]["start_s"], max(r["end_s"] for r in rows)
    return {
        "busy_s": round(busy, 3),
        "idle_s": round(wall_s - busy, 3),
        "start_s": round(first, 3),
        "gaps_s": round(last - first - busy, 3),
        "tail_s": round(wall_s - last, 3),
        "jobs": "".join("I" if r["kind"] == "import" else "A" for r in rows),
    }


def run_corpus_bench(
    *, n: int, words: int, counts: list[int], seed: int, timeline: bool, say
) -> dict:
    """Generate ``n`` hearing PDFs, push them through upload, import and annotation jobs
    once per worker count of ``counts``, and return the report (see
    ``bench_corpus``); ``say`` writes progress lines."""
    from annotations.services.benchmark import benchmark_duplicates
    from engine.synthetic import generate_hearing
    from engine.synthetic.pdf import render_pdf_bytes
    from transcripts.services.importing import sha256_of

    say(f"Generating {n} hearing PDF(s) of about {words} words...")
    hearings = [generate_hearing(seed + i, words=words) for i in range(n)]
    files = [(f"bench-{h.id}.pdf", render_pdf_bytes(h)) for h in hearings]
    taken = benchmark_duplicates(sha256s=[sha256_of(data) for _name, data in files])
    if taken:
        raise CommandError(
            f"{len(taken)} of the benchmark's hearings are already imported (transcript "
            f"{', '.join(f'#{t}' for t in taken[:5])}), perhaps by an interrupted "
            "benchmark: delete them or choose another --seed."
        )
    prepare_models()
    spacy_s = spacy_pass(hearings[0].text)
    runs = []
    peaks: list[float] = []
    for k in counts:
        say(f"{k} worker(s): starting...")
        run, worker_peaks = run_with_workers(k, files, timeline=timeline)
        peaks.extend(p for p in worker_peaks if p is not None)
        runs.append(run)
        say(
            f"{k} worker(s): {run['wall_s']} s for {n} ({run['per_transcript_s']} s each; "
            f"{run['annotated']} annotated)"
        )
    first, last = min(runs, key=lambda r: r["workers"]), max(runs, key=lambda r: r["workers"])
    report = {
        "n": n,
        "words_per_transcript": round(sum(h.word_count for h in hearings) / n),
        "spacy_sm_s": round(spacy_s, 3),
        "runs": runs,
        "speedup": round(first["wall_s"] / last["wall_s"], 2) if last["wall_s"] else None,
        "projected_334_min": round(CORPUS * last["per_transcript_s"] / 60, 1),
        "peak_rss_mb_per_worker": max(peaks) if peaks else None,
        "per_transcript_vs_spacy": round(last["per_transcript_s"] / spacy_s, 3)
        if spacy_s
        else None,
        "database": settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1],
        "cores": _cores(),
    }
    return report


# -- steps ------------------------------------------------------------------------


def prepare_models() -> None:
    """Build the derived model files once here, not in K workers at the same time."""
    from engine.detectors.quantize import int8_model
    from engine.detectors.transformer import _model_file, rampart_model_dir

    try:
        int8_model(_model_file(rampart_model_dir()), settings.MODEL_CACHE_DIR)
    except (OSError, ModuleNotFoundError):
        pass  # the workers fall back to the model as shipped
    from annotations.services.subtypes import subtype_encoder_prepare

    subtype_encoder_prepare()  # else the workers run the torch encoder


def spacy_pass(text: str) -> float:
    from engine.detectors.nlp import load_spacy

    nlp = load_spacy(settings.SPACY_MODEL)
    nlp("Warm-up sentence for Dr. Ann Lee in Fresno on May 1, 2020.")
    started = time.perf_counter()
    nlp(text)
    return time.perf_counter() - started


def run_with_workers(
    k: int, files: list[tuple[str, bytes]], *, timeline: bool = False
) -> tuple[dict, list[float | None]]:
    from annotations.services.benchmark import (
        benchmark_stages,
        benchmark_transcript_ids,
        benchmark_transcripts_delete,
    )
    from transcripts.services.upload_staging import import_job_enqueue

    job = None
    with tempfile.TemporaryDirectory(prefix="bench-corpus-") as tmp:
        procs = start_workers(k, Path(tmp))
        cpu_before = [_cpu_s(p.pid) for p in procs]
        try:
            uploads = [SimpleUploadedFile(name, data) for name, data in files]
            job = import_job_enqueue(uploads=uploads, user=None)
            deadline = time.monotonic() + RUN_TIMEOUT
            while True:
                stages = benchmark_stages(import_job_id=job.pk)
                if stages.done:
                    break
                check_alive(procs)
                if time.monotonic() > deadline:
                    raise CommandError(f"the run with {k} worker(s) did not finish in time")
                # Stage times come from the task rows: checking once a second only
                # delays noticing the end, and takes less CPU from the workers.
                time.sleep(CHECK_EVERY)
            peaks = [_peak_rss_mb(p.pid) for p in procs]
            cpu_after = [_cpu_s(p.pid) for p in procs]
        finally:
            stop_workers(procs)
            if job is not None:
                benchmark_transcripts_delete(
                    import_job_ids=[job.pk],
                    transcript_ids=benchmark_transcript_ids(import_job_id=job.pk),
                )
    n = len(files)
    if stages.annotated != n:
        raise CommandError(
            f"with {k} worker(s) only {stages.annotated} of {n} hearings were imported and "
            "annotated; see the jobs' errors with a plain `db_worker`."
        )
    per_worker = []
    for i, proc in enumerate(procs):
        summary = _worker_summary(stages.timeline, stages.wall_s, proc.worker_id)
        if cpu_before[i] is not None and cpu_after[i] is not None:
            summary["cpu_s"] = round(cpu_after[i] - cpu_before[i], 2)
        summary["peak_rss_mb"] = peaks[i]
        per_worker.append(summary)
    run = {
        "workers": k,
        "wall_s": round(stages.wall_s, 3),
        "per_transcript_s": round(stages.wall_s / n, 3),
        "import_s": round(stages.import_s, 3),
        "annotate_s": round(stages.annotate_s, 3),
        "annotated": stages.annotated,
        "suggestions": stages.suggestions,
        "threads_per_worker": threads_per_worker(k),
        "peak_rss_mb": max((p for p in peaks if p is not None), default=None),
        "cpu_s": round(sum(w.get("cpu_s", 0.0) for w in per_worker), 2),
        "tail_s": max(w["tail_s"] for w in per_worker),
        "per_worker": per_worker,
        "load_avg": [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else None,
    }
    if timeline:
        names = {p.worker_id: i for i, p in enumerate(procs)}
        run["timeline"] = [
            {**row, "worker": names.get(row["worker"], row["worker"])}
            for row in sorted(stages.timeline, key=lambda r: r["start_s"])
        ]
    return run, peaks


def start_workers(k: int, tmp: Path) -> list[subprocess.Popen]:
    manage = Path(settings.BASE_DIR) / "manage.py"
    procs = []
    for i in range(k):
        env = dict(os.environ)
        env.update(
            ANONREVIEW_WORKERS=str(k),
            ANONREVIEW_PRELOAD_DETECTORS="1",
            ANONREVIEW_READY_FILE=str(tmp / f"ready-{i}"),
        )
        # The thread variables are set per process from ANONREVIEW_WORKERS.
        for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
            env.pop(var, None)
        if os.environ.get("ANONREVIEW_THREADS"):
            env["ANONREVIEW_THREADS"] = str(threads_per_worker(k))
        log = (tmp / f"worker-{i}.log").open("wb")
        worker_id = f"bench-{os.getpid()}-{k}-{i}"
        procs.append(
            subprocess.Popen(
                [
                    sys.executable,
                    str(manage),
                    "db_worker",
                    "--worker-id",
                    worker_id,
                    "--interval",
                    POLL_INTERVAL,
                    "--no-startup-delay",
                    "--no-reload",
                ],
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                cwd=str(settings.BASE_DIR),
                # as run_workers and a worker unit start them: a session of their own,
                # whose scheduling group the worker lowers (docs/workers.md)
                start_new_session=True,
                preexec_fn=die_with_parent,
            )
        )
        procs[-1].log_path = tmp / f"worker-{i}.log"
        procs[-1].worker_id = worker_id
    deadline = time.monotonic() + WORKER_START_TIMEOUT
    try:
        while not all((tmp / f"ready-{i}").exists() for i in range(k)):
            check_alive(procs)
            if time.monotonic() > deadline:
                raise CommandError("the workers did not load their models in time")
            time.sleep(0.2)
    except BaseException:
        stop_workers(procs)
        raise
    return procs


def check_alive(procs: list[subprocess.Popen]) -> None:
    for proc in procs:
        if proc.poll() is not None:
            tail = proc.log_path.read_text(errors="replace")[-1500:]
            raise CommandError(f"a worker stopped (exit {proc.returncode}):\n{tail}")


def stop_workers(procs: list[subprocess.Popen]) -> None:
    for proc in procs:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
    for proc in procs:
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
