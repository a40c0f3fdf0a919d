"""``manage.py db_worker``: django-tasks-db's worker, made to survive.

The same command line as the library's (this app comes before ``django_tasks_db`` in
``INSTALLED_APPS``, so its command is the one Django runs), plus:

- the process lowers its CPU priority (``os.nice``, ``WORKER_NICE``, default 10) so
  that the web server answers while workers run models on the same cores;
- it registers a liveness row and beats every ``WORKER_HEARTBEAT_SECONDS`` from a thread
  of its own (``anonreview.core.workers``), whatever its job is doing;
- a lost database connection no longer ends it: while polling, the connection is closed
  and the poll retried after a short back-off; while a task runs, the task's own handler
  fails its job in words after reconnecting (``transcripts.tasks``), and recording the
  task's end is retried once on a fresh connection;
- anything that still escapes is logged through the privacy formatter (frames and the
  exception's type, no message) before the process exits with status 1, for the
  supervisor (``make run``, systemd) to restart it.
"""

import logging
import os
import sys
import threading
import time

from django.db.utils import OperationalError
from django_tasks_db.management.commands import db_worker as library
from django_tasks_db.utils import exclusive_transaction, is_locked_database_exception

from anonreview.core import workers

logger = logging.getLogger("anonreview.worker")


class Worker(library.Worker):
    """The library's worker with a poll loop that reconnects instead of dying."""

    max_backoff = 30.0

    def run(self) -> None:
        logger.info("worker %s: started", self.worker_id)
        failures = 0
        while self.running:
            try:
                ran = self.poll_once()
            except workers.CONNECTION_ERRORS as exc:
                failures += 1
                delay = min(self.max_backoff, max(self.interval, 0.2) * 2 ** min(failures, 8))
                logger.warning(
                    "worker %s: database connection lost while polling (%s); "
                    "reconnecting in %.1f s",
                    self.worker_id,
                    type(exc).__name__,
                    delay,
                )
                workers.db_connections_reset()
                time.sleep(delay)
                continue
            failures = 0
            if ran is None:  # --batch with nothing left, or --max-tasks reached
                return
            if self.running and not ran:
                time.sleep(self.interval)

    def poll_once(self):
        """Claim and run at most one task: True when one ran, False when none was
        ready, None when the worker should exit (batch done, max tasks reached)."""
        from django.db import close_old_connections

        close_old_connections()
        tasks = library.DBTaskResult.objects.ready().filter(backend_name=self.backend_name)
        if not self.process_all_queues:
            tasks = tasks.filter(queue_name__in=self.queue_names)
        if self.excluded_queue_names:
            tasks = tasks.exclude(queue_name__in=self.excluded_queue_names)
        retrieved = True
        with exclusive_transaction(tasks.db):
            try:
                task_result = tasks.get_locked()
                if task_result is not None:
                    task_result.claim(self.worker_id)
            except OperationalError as exc:
                if not is_locked_database_exception(exc):
                    raise
                retrieved, task_result = False, None  # SQLite busy: try again later
        if task_result is not None:
            self.run_task(task_result)
        if self.batch and retrieved and task_result is None:
            logger.info("worker %s: no more tasks; exiting", self.worker_id)
            return None
        if self.max_tasks is not None and self._run_tasks >= self.max_tasks:
            logger.info("worker %s: ran %d task(s); exiting", self.worker_id, self._run_tasks)
            return None
        close_old_connections()
        return task_result is not None

    def run_task(self, db_task_result) -> None:
        _record_failures_privately(db_task_result)
        try:
            super().run_task(db_task_result)
        except workers.CONNECTION_ERRORS as exc:
            # The connection died under the task and the library's record of its end
            # died with it: reconnect and record the failure once more.
            logger.warning(
                "worker %s: task %s lost its database connection (%s)",
                self.worker_id,
                db_task_result.id,
                type(exc).__name__,
            )
            workers.db_connections_reset()
            try:
                db_task_result.set_failed(exc)
            except workers.CONNECTION_ERRORS:
                workers.db_connections_reset()
                raise


def _record_failures_privately(db_task_result) -> None:
    """Store a failed task's traceback as the logs write it: frames and the exception's
    type, not its message (the library stores ``format_exception``, message included,
    and messages can hold names)."""
    from django.utils import timezone
    from django_tasks_db.compat import TaskResultStatus

    from anonreview.logs import PrivacyFormatter

    def set_failed(exc: BaseException) -> None:
        db_task_result.status = TaskResultStatus.FAILED
        db_task_result.finished_at = timezone.now()
        db_task_result.exception_class_path = f"{type(exc).__module__}.{type(exc).__qualname__}"
        db_task_result.traceback = PrivacyFormatter().formatException(
            (type(exc), exc, exc.__traceback__)
        )
        db_task_result.return_value = None
        db_task_result.save(
            update_fields=[
                "status",
                "return_value",
                "finished_at",
                "exception_class_path",
                "traceback",
            ]
        )

    db_task_result.set_failed = set_failed


def _log_uncaught(exc_type, exc, tb) -> None:
    logger.critical("worker crashed", exc_info=(exc_type, exc, tb))


def _log_uncaught_thread(args) -> None:
    logger.critical(
        "worker thread %s crashed",
        getattr(args.thread, "name", "?"),
        exc_info=(args.exc_type, args.exc_value, args.exc_traceback),
    )


class Command(library.Command):
    help = library.Command.help + " (reconnects, beats, runs at a lower CPU priority)"

    def handle(self, *args, worker_id: str, reload: bool, **options) -> None:
        # Tracebacks that would reach stderr raw (exception messages can hold names) go
        # through the logging configuration's privacy formatter instead.
        sys.excepthook = _log_uncaught
        threading.excepthook = _log_uncaught_thread
        niceness = workers.process_lower_priority()
        library.Worker = Worker  # the library's handle() builds the worker by this name
        heartbeat = None
        try:
            row = self._register(worker_id)
            heartbeat = workers.Heartbeat(row.key)
            heartbeat.start()
            logger.info(
                "worker %s: niceness %d, scheduling group %s (%s), heartbeat every %.0f s",
                worker_id,
                niceness,
                workers.session_group() or "none (a CPU cgroup or no autogroup: niceness alone)",
                "own session" if os.getsid(0) == os.getpid() else "shared with its parent's",
                heartbeat.interval,
            )
            super().handle(*args, worker_id=worker_id, reload=reload, **options)
        except SystemExit:
            raise
        except BaseException:
            logger.critical("worker %s stopped on an error", worker_id, exc_info=True)
            raise SystemExit(1) from None
        finally:
            if heartbeat is not None:
                heartbeat.stop()
            workers.db_connections_reset()
            workers.worker_unregister()

    def _register(self, worker_id: str):
        """Register the liveness row, waiting out a database that is not there yet."""
        delay = 1.0
        while True:
            try:
                return workers.worker_register(worker_id=worker_id)
            except workers.CONNECTION_ERRORS as exc:
                logger.warning(
                    "worker %s: database unavailable at start (%s); retrying in %.0f s",
                    worker_id,
                    type(exc).__name__,
                    delay,
                )
                workers.db_connections_reset()
                time.sleep(delay)
                delay = min(30.0, delay * 2)
