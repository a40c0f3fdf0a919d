"""Worker processes that outlive a database hiccup and say that they are alive.

A ``db_worker`` (``anonreview/core/management/commands/db_worker.py``) registers a
``WorkerProcess`` row, lowers its CPU priority below the web server's, and runs a
heartbeat thread that bumps the row's ``seen_at`` every ``WORKER_HEARTBEAT_SECONDS``
(default 10), whatever its job is doing. The job service records the key of the process
that started a job (``current_worker_key``), and the stale sweep fails a running job only
when that process is gone (``worker_keys_alive``). The pages ask ``workers_alive_count``
to say when no worker runs at all.

Connections: a lost database connection (PostgreSQL restarted, ``pg_terminate_backend``,
a proxy's idle timeout) raises ``OperationalError`` or ``InterfaceError`` on the next
query and leaves Django's connection object unusable; ``db_connections_reset`` closes
every connection of the calling thread so that the next query opens a fresh one.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import uuid
from datetime import timedelta

from django.conf import settings
from django.db import DatabaseError, InterfaceError, OperationalError, connections
from django.utils import timezone
from django.utils.crypto import get_random_string

from anonreview.core.models import WorkerProcess

logger = logging.getLogger(__name__)

# Errors of a lost connection (psycopg and sqlite3 both map to these Django classes).
CONNECTION_ERRORS = (OperationalError, InterfaceError)

_current_key: str | None = None
_lowered_to: int | None = None  # the niceness process_lower_priority gave this process


def heartbeat_seconds() -> float:
    return float(getattr(settings, "WORKER_HEARTBEAT_SECONDS", 10))


def gone_after() -> timedelta:
    """How long a worker may go unseen before its jobs count as orphaned."""
    return timedelta(seconds=float(getattr(settings, "WORKER_GONE_AFTER_SECONDS", 60)))


def worker_priority() -> int:
    """The niceness increment of a worker process (``WORKER_NICE``, default 10)."""
    return int(getattr(settings, "WORKER_NICE", 10))


def current_worker_key() -> str:
    """The liveness key of this process when it is a worker, else ``""``."""
    return _current_key or ""


def db_connections_reset() -> None:
    """Close every database connection of this thread, even a broken one; the next
    query reconnects. Never raises."""
    for conn in connections.all(initialized_only=True):
        try:
            conn.close()
        except DatabaseError:
            # Closing a connection the server already dropped can fail too; forget it.
            conn.connection = None
        except Exception:  # pragma: no cover - driver-specific oddities
            conn.connection = None


def is_connection_error(exc: BaseException) -> bool:
    """Whether ``exc`` (or what caused it) is a lost database connection."""
    seen = 0
    while exc is not None and seen < 5:
        if isinstance(exc, CONNECTION_ERRORS):
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


def process_lower_priority(increment: int | None = None) -> int:
    """Lower this process's CPU priority (``os.nice``) so that the web server stays
    responsive while workers run models on the same cores; returns the new niceness.

    On Linux a niceness belongs to a thread: ``os.nice`` lowers the calling thread (and the
    threads it starts later), so the threads started before it (model preloading, thread
    pools of the NLP libraries) are lowered one by one through ``/proc/self/task``."""
    global _lowered_to
    increment = worker_priority() if increment is None else increment
    if increment <= 0 or not hasattr(os, "nice"):
        return os.nice(0) if hasattr(os, "nice") else 0
    if _lowered_to is not None:  # once per process (the preload may have done it)
        _threads_lower_to(_lowered_to)
        return _lowered_to
    niceness = os.nice(increment)
    _threads_lower_to(niceness)
    session_group_lower_to(niceness)
    _lowered_to = niceness
    return niceness


AUTOGROUP = "/proc/self/autogroup"


def session_group_lower_to(niceness: int) -> None:
    """Lower this process's *session* too, where Linux schedules sessions as groups.

    With ``kernel.sched_autogroup_enabled`` (the default of most distributions), the CPU is
    shared fairly between sessions first and by niceness only inside a session: a worker
    niced to 10 in a session of its own (a systemd unit, ``run_workers``' workers, another
    terminal) still took half of the cores from the web server (measured here: two niced
    busy processes in another session made a nice-0 loop 2.6 times slower; with their
    sessions' group lowered, no slower). So a worker that leads its session gives that
    session's group its niceness.

    A worker that does not lead its session (started by hand from a shell, by ``make``)
    shares it with whatever else runs there, a web server started from the same shell
    perhaps: its group is left alone (niceness works inside it), and the worker does not
    start a session of its own either (a Ctrl-C in the terminal would no longer reach it,
    and ``make`` waits for it). ``run_workers`` and ``bench_corpus`` start their workers in
    sessions of their own."""
    if not hasattr(os, "getsid") or os.getsid(0) != os.getpid():
        return
    try:
        with open(AUTOGROUP, "w") as group:
            group.write(str(niceness))
    except OSError:  # no autogroup (another system, or the kernel's option off)
        pass


def session_group() -> str:
    """This process's scheduling group as Linux names it (``/autogroup-85 nice 10``), or
    ``""``: for the worker's start line."""
    try:
        with open(AUTOGROUP) as group:
            return group.read().strip()
    except OSError:
        return ""


def die_with_parent() -> None:
    """Linux: SIGTERM (finish the task, then stop) when the parent process ends, even by
    ``kill -9``, instead of running on unsupervised."""
    try:
        import ctypes
        import signal

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _threads_lower_to(niceness: int) -> None:
    """Give every thread of this process at least ``niceness`` (Linux; elsewhere a no-op)."""
    try:
        tids = [int(t) for t in os.listdir("/proc/self/task")]
    except OSError:
        return
    for tid in tids:
        try:
            if os.getpriority(os.PRIO_PROCESS, tid) < niceness:
                os.setpriority(os.PRIO_PROCESS, tid, niceness)
        except OSError:  # the thread ended meanwhile
            continue


def worker_register(*, worker_id: str) -> WorkerProcess:
    """Record this process as a live worker. Earlier processes under the same worker id
    on this host are marked stopped: ids are unique per pool, so they are dead (the
    supervisor restarted this one), and their running jobs can be failed at once."""
    global _current_key
    now = timezone.now()
    host = socket.gethostname()[:120]
    pid = os.getpid()
    key = f"{worker_id}@{host}:{pid}:{get_random_string(8)}"[:200]
    WorkerProcess.objects.filter(worker_id=worker_id, hostname=host, stopped_at=None).update(
        stopped_at=now
    )
    row = WorkerProcess.objects.create(
        key=key, worker_id=worker_id, hostname=host, pid=pid, started_at=now, seen_at=now
    )
    _current_key = key
    return row


def worker_unregister() -> None:
    """Mark this process stopped (a clean exit); old rows are pruned by later starts."""
    global _current_key
    if _current_key is None:
        return
    key, _current_key = _current_key, None
    try:
        WorkerProcess.objects.filter(key=key).update(stopped_at=timezone.now())
    except DatabaseError:
        logger.warning("worker %s: could not record its stop", key.split("@")[0])
    cutoff = timezone.now() - timedelta(days=7)
    try:
        WorkerProcess.objects.filter(stopped_at__lt=cutoff).delete()
    except DatabaseError:
        pass


def worker_beat(key: str) -> None:
    """One heartbeat: the row's ``seen_at`` is now (recreated if someone deleted it)."""
    now = timezone.now()
    if not WorkerProcess.objects.filter(key=key).update(seen_at=now):
        worker_id, _, rest = key.partition("@")
        host, _, pid = rest.partition(":")
        WorkerProcess.objects.create(
            key=key,
            worker_id=worker_id[:64],
            hostname=host[:120],
            pid=os.getpid(),
            started_at=now,
            seen_at=now,
        )


class Heartbeat(threading.Thread):
    """A daemon thread that beats every ``interval`` seconds, on its own connection.

    It survives a lost connection: the failed beat is logged (the error's type only),
    the connection closed, and the next beat reconnects.
    """

    def __init__(self, key: str, interval: float | None = None):
        super().__init__(name="worker-heartbeat", daemon=True)
        self.key = key
        self.interval = heartbeat_seconds() if interval is None else interval
        self.stopping = threading.Event()
        self.beats = 0
        self.failures = 0

    def run(self) -> None:
        try:
            while not self.stopping.wait(self.interval):
                try:
                    worker_beat(self.key)
                    self.beats += 1
                except Exception as exc:
                    self.failures += 1
                    logger.warning("heartbeat failed (%s); reconnecting", type(exc).__name__)
                    db_connections_reset()
        finally:
            db_connections_reset()

    def stop(self) -> None:
        self.stopping.set()


def worker_keys_alive(keys, *, older_than: timedelta | None = None) -> set[str]:
    """Which of ``keys`` belong to a worker seen within ``older_than`` and not stopped."""
    cutoff = timezone.now() - (gone_after() if older_than is None else older_than)
    return set(
        WorkerProcess.objects.filter(
            key__in=list(keys), stopped_at=None, seen_at__gte=cutoff
        ).values_list("key", flat=True)
    )


WORKER_GONE = "anonreview.core.workers.WorkerGone"


def task_results_fail(task_result_ids) -> int:
    """Close django-tasks' own rows (``DBTaskResult``) of tasks whose worker died under
    them: a ``kill -9`` leaves the row ``RUNNING`` forever, since only the worker that ran
    it records its end. Marked ``FAILED`` with ``WORKER_GONE`` as the exception's class
    and no traceback; rows that are not running are left alone. Returns how many."""
    ids = [i for i in task_result_ids if i]
    if not ids:
        return 0
    try:
        from django_tasks_db.compat import TaskResultStatus
        from django_tasks_db.models import DBTaskResult
    except ImportError:  # pragma: no cover - another tasks backend
        return 0
    valid = []
    for i in ids:
        try:
            valid.append(uuid.UUID(str(i)))
        except ValueError:  # not a database task's id (the immediate backend's)
            continue
    if not valid:
        return 0
    return DBTaskResult.objects.filter(id__in=valid, status=TaskResultStatus.RUNNING).update(
        status=TaskResultStatus.FAILED,
        finished_at=timezone.now(),
        exception_class_path=WORKER_GONE,
        traceback="",
        return_value=None,
    )


def task_results_running() -> list[str]:
    """The ids (dashed UUIDs) of django-tasks' rows that say ``RUNNING``."""
    try:
        from django_tasks_db.compat import TaskResultStatus
        from django_tasks_db.models import DBTaskResult
    except ImportError:  # pragma: no cover - another tasks backend
        return []
    rows = DBTaskResult.objects.filter(status=TaskResultStatus.RUNNING)
    return [str(i) for i in rows.values_list("id", flat=True)]


def workers_alive_count() -> int:
    """How many worker processes are alive now (seen recently, not stopped)."""
    cutoff = timezone.now() - gone_after()
    return WorkerProcess.objects.filter(stopped_at=None, seen_at__gte=cutoff).count()


def workers_expected() -> bool:
    """Whether jobs wait for ``db_worker`` processes (the database tasks backend), as
    opposed to running at once in the process that queued them (tests, immediate)."""
    backend = settings.TASKS.get("default", {}).get("BACKEND", "")
    return backend.startswith("django_tasks_db")
