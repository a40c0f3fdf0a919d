"""Workers that annotate while a review benchmark runs (``bench_review --session
--busy-workers K``: web requests must not queue behind annotation).

``busy_workers`` starts ``bench_corpus`` (K real ``db_worker`` processes annotating
generated hearings) on a PostgreSQL database of its own, in a session of its own as a
deployment's worker units are, waits until K annotation jobs are running, and stops it all
afterwards (``bench_corpus`` deletes its rows). ``BusyWorkers.report`` says how much CPU the
workers took while the benchmark ran and how many jobs were still annotating at its end, so
that a figure is never reported from workers that had finished or not begun.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.core.management.base import CommandError

from annotations.benchmarks.corpus import _cpu_s

HEARINGS = 40  # enough hearings to keep two workers annotating for several minutes
START_TIMEOUT_S = 600


def _worker_pids(corpus_pid: int) -> list[int]:
    """The ``db_worker`` processes of one ``bench_corpus`` (their ids name its pid)."""
    mark = f"bench-{corpus_pid}-".encode()
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        if b"db_worker" in cmdline and mark in cmdline:
            pids.append(int(entry))
    return pids


def _cpu_seconds(pids: list[int]) -> float:
    return sum(_cpu_s(pid) or 0.0 for pid in pids)


class BusyWorkers:
    def __init__(self, proc: subprocess.Popen, database_url: str, count: int):
        self.proc = proc
        self.database_url = database_url
        self.count = count
        self.pids: list[int] = []
        self._cpu = 0.0
        self._since = 0.0

    def annotating(self) -> int:
        import psycopg

        with psycopg.connect(self.database_url, connect_timeout=5) as conn:
            row = conn.execute(
                "SELECT count(*) FROM transcripts_job WHERE kind = 'annotate' "
                "AND status = 'running'"
            ).fetchone()
        return int(row[0])

    def wait_annotating(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            if self.proc.poll() is not None:
                raise CommandError(f"bench_corpus stopped early (exit {self.proc.returncode})")
            try:
                if self.annotating() >= self.count:
                    break
            except Exception:  # noqa: BLE001 - tables not there yet
                pass
            if time.monotonic() > deadline:
                raise CommandError(f"{self.count} annotation jobs did not start in time")
            time.sleep(1)
        self.pids = _worker_pids(self.proc.pid)
        self._cpu = _cpu_seconds(self.pids)
        self._since = time.monotonic()

    def report(self) -> dict:
        """CPU the workers took since they started annotating (in cores), their niceness
        and scheduling groups, and the annotation jobs running now."""
        wall = time.monotonic() - self._since
        groups = []
        for pid in self.pids:
            try:
                groups.append(Path(f"/proc/{pid}/autogroup").read_text().strip())
            except OSError:
                continue
        nice = []
        for pid in self.pids:
            try:
                nice.append(os.getpriority(os.PRIO_PROCESS, pid))
            except OSError:
                continue
        return {
            "workers": self.count,
            "cores_used": round((_cpu_seconds(self.pids) - self._cpu) / wall, 2),
            "annotating_at_end": self.annotating(),
            "niceness": nice,
            "groups": groups,
            "load_avg": [round(x, 2) for x in os.getloadavg()],
        }


def ensure_database(database_url: str) -> bool:
    """Create the benchmark's PostgreSQL database where the server has none of that name
    (a fresh machine); returns whether it did. A server that cannot be reached is a clear
    error, not a traceback from the first migration."""
    import psycopg
    from psycopg import sql
    from psycopg.conninfo import conninfo_to_dict, make_conninfo

    try:
        params = conninfo_to_dict(database_url)
    except psycopg.ProgrammingError as exc:
        raise CommandError(f"--busy-database: not a PostgreSQL URL ({exc})") from None
    name = params.get("dbname") or ""
    if not name:
        raise CommandError("--busy-database names no database (…/anonbench at its end)")
    where = f"{params.get('host', 'localhost')}:{params.get('port', 5432)}"
    try:
        with psycopg.connect(database_url, connect_timeout=5):
            return False
    except psycopg.OperationalError as exc:
        if "does not exist" not in str(exc):
            raise CommandError(
                f"--busy-database: PostgreSQL at {where} cannot be reached; start it, or "
                "give another URL (--busy-database or BUSY_DATABASE_URL)"
            ) from None
    maintenance = make_conninfo(database_url, dbname="postgres")
    try:
        with psycopg.connect(maintenance, autocommit=True, connect_timeout=5) as conn:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    except psycopg.Error as exc:
        raise CommandError(
            f"--busy-database: database {name!r} does not exist at {where} and could not be "
            f"created ({type(exc).__name__}); create it, or give another URL"
        ) from None
    return True


@contextmanager
def busy_workers(count: int, database_url: str):
    if not database_url.startswith(("postgres://", "postgresql://")):
        raise CommandError(
            "--busy-database takes a PostgreSQL URL (the workers and the benchmark's "
            "corpus write it from several processes), e.g. postgres://postgres@127.0.0.1/anonbench"
        )
    manage = str(Path(settings.BASE_DIR) / "manage.py")
    env = {**os.environ, "DATABASE_URL": database_url}
    ensure_database(database_url)
    migrated = subprocess.run(
        [sys.executable, manage, "migrate", "--noinput", "-v", "0"],
        env=env, capture_output=True, text=True,
    )  # fmt: skip
    if migrated.returncode:
        tail = migrated.stderr.strip().splitlines()[-1:] or ["(no output)"]
        raise CommandError(f"--busy-database: migrating it failed: {tail[0]}")
    log = (Path(settings.BASE_DIR) / "var" / "busy_workers.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, manage, "bench_corpus", "--n", str(HEARINGS), "--workers", str(count)],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # apart from the web server, as a worker unit is
    )
    busy = BusyWorkers(proc, database_url, count)
    try:
        busy.wait_annotating()
        yield busy
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)  # bench_corpus stops its workers and cleans up
            try:
                proc.wait(timeout=120)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                for pid in _worker_pids(proc.pid):
                    os.kill(pid, signal.SIGKILL)
        log.close()
