"""The retraining's thread and its job: the training runs in a thread of its own at a
low CPU priority (``niced``), the calling thread (which holds the database connection)
writes its progress to the job (``reporter``) and checks the job between reports, and a
cancelled job stops the thread at its next ``checkpoint()`` (every chunk of the data
preparation, every batch, every scoring batch). Before, the thread was stopped only at
its next progress report, and the data preparation reports nothing for minutes: a
cancelled job's worker stayed blocked there over 6 minutes."""

from __future__ import annotations

import logging
import os
import queue
import threading
import time

from engine.progress import Cancelled, Progress, watching
from transcripts.services import jobs

logger = logging.getLogger(__name__)

PRIORITY = 19  # the training thread's niceness: it yields to the web server and annotation
JOIN_S = 30.0  # how long a stopped job waits for its training thread before it returns


def training_niceness() -> int:
    """The niceness the training thread lowers itself to: ``settings.LEARNING_TRAINING_NICE``
    (default 19, the lowest priority). The tests keep their own priority (0): a thread at 19
    beside busy processes at 0 gets almost no CPU, and a tiny training took minutes."""
    from django.conf import settings

    return int(getattr(settings, "LEARNING_TRAINING_NICE", PRIORITY))


def _clock(seconds: float) -> str:
    seconds = int(max(0, seconds))
    return f"{seconds // 60}:{seconds % 60:02d}"


def reporter(job_id: int, started: float):
    """The trainer's progress → the job's bar (5-90 %) with elapsed time and ETA, at most
    once a second; a cancelled job raises ``JobStopped`` here (the cancellation point).
    Its ``check()`` (``engine.progress.checkpoint``) reads the job's state at most once a
    second, for the stretches that report nothing (the data preparation, the scoring)."""
    last = [0.0]
    checked = [float("-inf")]

    def report(progress: Progress) -> None:
        now = time.monotonic()
        if now - last[0] < 1.0 and progress.fraction < 1.0:
            return
        last[0] = checked[0] = now
        elapsed = now - started
        fraction = progress.fraction
        eta = (
            f" · about {_clock(elapsed * (1 - fraction) / fraction)} left"
            if fraction > 0.02
            else ""
        )
        words = progress.message or "Training"
        if "elapsed" not in words:  # the trainer's own line says it already
            words = f"{words} · {_clock(elapsed)} elapsed{eta}"
        jobs.job_progress(job_id=job_id, progress=5 + int(85 * fraction), message=words)

    def check() -> None:
        now = time.monotonic()
        if now - checked[0] >= 1.0:
            checked[0] = now
            jobs.job_check(job_id=job_id)

    report.check = check
    return report


class _Relay:
    """The training thread's callback: hands reports to the calling thread and raises
    ``Cancelled`` at the thread's next report or ``checkpoint()`` once ``stop`` is set."""

    def __init__(self, reports: queue.SimpleQueue, stop: threading.Event):
        self.reports, self.stop = reports, stop

    def check(self) -> None:
        if self.stop.is_set():
            raise Cancelled("the job was stopped")

    def __call__(self, report: Progress) -> None:
        self.check()
        self.reports.put(report)


def niced(work, progress):
    """Run ``work(relay)`` in a thread of its own at the lowest CPU priority (Linux: a
    niceness belongs to a thread, and only this thread is lowered). Its progress reports
    are handed to ``progress`` here, in the calling thread (which holds the database
    connection); between reports the calling thread calls ``progress.check()`` (when it
    has one) every 0.2 s. When either raises (a cancelled job), the training thread stops
    at its next report or ``checkpoint()`` (it runs ``watching`` the relay: every chunk of
    the data preparation, every batch, every scoring batch) and that exception is raised
    here; the caller waits at most ``JOIN_S`` for it. The thread's own exception is raised
    here too."""
    reports: queue.SimpleQueue = queue.SimpleQueue()
    stop = threading.Event()
    box: dict = {}
    relay = _Relay(reports, stop)
    niceness = training_niceness()

    def run() -> None:
        try:
            if hasattr(os, "setpriority"):
                try:
                    tid = threading.get_native_id()
                    if os.getpriority(os.PRIO_PROCESS, tid) < niceness:
                        os.setpriority(os.PRIO_PROCESS, tid, niceness)
                except OSError:
                    pass
            with watching(relay):
                box["result"] = work(relay)
        except BaseException as exc:  # handed to the caller
            box["error"] = exc

    thread = threading.Thread(target=run, name="domain-training", daemon=True)
    thread.start()
    stopped: BaseException | None = None
    check = getattr(progress, "check", None)
    while stopped is None and (thread.is_alive() or not reports.empty()):
        try:
            report = reports.get(timeout=0.2)
        except queue.Empty:
            report = None
        if progress is None:
            continue
        try:
            if report is not None:
                progress(report)
            elif check is not None:
                check()
        except BaseException as exc:  # noqa: BLE001 (a cancel, or the caller's error)
            stopped = exc
            stop.set()
    thread.join(timeout=JOIN_S if stopped is not None else None)
    if stopped is not None:
        if thread.is_alive():
            logger.warning("the training thread had not stopped %.0f s after the job", JOIN_S)
        raise stopped
    if "error" in box:
        raise box["error"]
    return box["result"]
