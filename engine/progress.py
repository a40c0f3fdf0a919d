"""One progress type for long work (detection, the dashboard, training) and its jobs.

Work reports ``Progress(done, total, message, detail)`` to a ``ProgressFn``; a job turns
it into its progress bar (``transcripts.services.jobs.job_reporter``), a command into a
line. ``part`` maps a sub-task's progress into its share of the whole.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
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


def part(report: ProgressFn | None, start: float, end: float) -> ProgressFn | None:
    """Report a sub-task's progress as the share ``start``..``end`` (fractions of 1)
    of the whole: ``part(report, 0.4, 0.95)`` for the ablation of the dashboard."""
    if report is None:
        return None

    def inner(progress: Progress) -> None:
        done = start + (end - start) * progress.fraction
        report(Progress(done, 1.0, progress.message, progress.detail))

    return inner
