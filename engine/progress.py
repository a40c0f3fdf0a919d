"""One progress type for long work (detection, the dashboard, training) and its jobs.

Work reports ``Progress(done, total, message, detail)`` to a ``ProgressFn``; a job turns
it into its progress bar (``transcripts.services.jobs.job_reporter``), a command into a
line. ``part`` maps a sub-task's progress into its share of the whole.

A progress callback is also where work is **cancelled** (docs/workers.md): a job's
callback raises ``Cancelled`` once its job was cancelled. Every long loop therefore calls
its callback at least every second or so: ``report(Progress(...))`` where it knows how far
it is, ``checkpoint(report)`` where it does not (a callback may have a ``check()``
method, which a job's has: it reads the job's state at most once a second, so both are
cheap enough for any loop), ``checkpoint()`` in code that is not handed the callback
(it uses the one its thread is ``watching``). Code that catches exceptions broadly lets
``Cancelled`` through.

``CpuBudget`` is a time budget for long work counted in CPU seconds of the process, with
a much larger wall-clock cap: work at a low priority beside busy processes gets little
CPU per second, and a wall-clock budget stopped a retraining after 2 of its 30 epochs
(35 CPU-seconds in 8 minutes at niceness 19).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import MappingProxyType


@dataclass(frozen=True, slots=True)
class Progress:
    done: float
    total: float
    message: str = ""
    # What the work wants to tell besides (training: epoch, loss, F1, ...).
    detail: Mapping = field(default_factory=lambda: MappingProxyType({}))

    @property
    def fraction(self) -> float:
        if not self.total:
            return 1.0
        return min(1.0, max(0.0, self.done / self.total))

    @property
    def percent(self) -> int:
        return int(100 * self.fraction)


ProgressFn = Callable[[Progress], None]


class Cancelled(Exception):  # noqa: N818 (a stop, not an error)
    """Raised by a progress callback to stop the work (a cancelled or failed job).

    Work that catches exceptions broadly (a PDF reader falling back to another) lets
    this one through, so that a cancellation is never mistaken for a damaged input."""


# Where a detector finds the run's progress callback: ``document.artifacts[PROGRESS]``
# (the ensemble's caller puts it there), so that its loops can call ``checkpoint``.
PROGRESS = "progress"


_watched = threading.local()
_WATCHED = object()


@contextmanager
def watching(report: ProgressFn | None):
    """Make ``report`` this thread's callback for ``checkpoint()`` without an argument,
    for code that is not handed one (a Presidio recognizer's loop, called by Presidio)."""
    before = getattr(_watched, "report", None)
    _watched.report = report
    try:
        yield report
    finally:
        _watched.report = before


def checkpoint(report: ProgressFn | None | object = _WATCHED) -> None:
    """A cancellation point for a loop with nothing new to report: calls the callback's
    ``check()`` when it has one (a job's raises ``Cancelled`` once the job was
    cancelled), and does nothing otherwise. Without an argument: the callback this
    thread is ``watching`` (none: nothing). Safe from any thread."""
    if report is _WATCHED:
        report = getattr(_watched, "report", None)
    check = getattr(report, "check", None)
    if check is not None:
        check()


def part(report: ProgressFn | None, start: float, end: float) -> ProgressFn | None:
    """Report a sub-task's progress as the share ``start``..``end`` (fractions of 1)
    of the whole: ``part(report, 0.4, 0.95)`` for the ablation of the dashboard. The
    share keeps the callback's ``check`` (``checkpoint``)."""
    if report is None:
        return None

    def inner(progress: Progress) -> None:
        done = start + (end - start) * progress.fraction
        report(Progress(done, 1.0, progress.message, progress.detail))

    inner.check = lambda: checkpoint(report)
    return inner


# the clocks ``CpuBudget`` reads (module attributes, so that a test can move one)
_cpu_clock = time.process_time
_wall_clock = time.monotonic


class CpuBudget:
    """A budget of ``cpu_seconds`` of CPU time used by this process (every thread of it:
    ``time.process_time``, which counts no time spent waiting for a core), with a
    wall-clock safety cap of ``wall_seconds`` (0: none). Started when made."""

    def __init__(self, cpu_seconds: float, wall_seconds: float = 0.0):
        self.cpu_seconds = float(cpu_seconds)
        self.wall_seconds = float(wall_seconds)
        self._cpu0 = _cpu_clock()
        self._wall0 = _wall_clock()

    def cpu_used(self) -> float:
        return _cpu_clock() - self._cpu0

    def wall_used(self) -> float:
        return _wall_clock() - self._wall0

    def spent(self) -> str:
        """``"time"`` once the CPU budget is used, ``"wall"`` once the wall-clock cap is
        reached, else ``""``."""
        if self.cpu_used() >= self.cpu_seconds:
            return "time"
        if self.wall_seconds and self.wall_used() >= self.wall_seconds:
            return "wall"
        return ""
