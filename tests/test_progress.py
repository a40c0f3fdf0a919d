"""One progress type: fractions, percentages and a sub-task's share of the whole."""

import pytest

from engine.progress import Cancelled, Progress, part


def test_progress_gives_a_bounded_fraction_and_percent():
    assert Progress(3, 4, "three of four").percent == 75
    assert Progress(5, 4).fraction == 1.0 and Progress(0, 0).fraction == 1.0


def test_part_maps_a_subtask_into_its_share_and_keeps_message_and_detail():
    seen = []
    report = part(seen.append, 0.40, 0.95)
    report(Progress(1, 2, "Detection 1/2", {"n": 1}))
    report(Progress(2, 2, "Detection 2/2"))
    assert [p.percent for p in seen] == [67, 95]
    assert seen[0].message == "Detection 1/2" and seen[0].detail == {"n": 1}
    assert part(None, 0, 1) is None


class _Stopping:
    """A callback with a cancellation point, as a job's has (``jobs.JobReporter``)."""

    def __init__(self):
        self.checks = 0

    def __call__(self, progress):
        self.check()

    def check(self):
        self.checks += 1
        if self.checks > 1:
            raise Cancelled("cancelled")


def test_checkpoint_calls_the_callbacks_check_and_a_share_keeps_it():
    from engine.progress import checkpoint

    checkpoint(None)  # no job: nothing to check
    checkpoint(lambda progress: None)  # a callback without a check: nothing
    report = _Stopping()
    share = part(report, 0.2, 0.4)
    checkpoint(share)
    with pytest.raises(Cancelled):
        checkpoint(share)


def test_checkpoint_without_a_callback_uses_the_one_its_thread_is_watching():
    import threading

    from engine.progress import checkpoint, watching

    report = _Stopping()
    with watching(report):
        checkpoint()
        other = []  # another thread watches nothing: its checkpoint() does nothing
        thread = threading.Thread(target=lambda: other.append(checkpoint()))
        thread.start()
        thread.join()
        assert other == [None]
        with pytest.raises(Cancelled):
            checkpoint()
    checkpoint()  # watching ended: nothing
    assert report.checks == 2


def test_a_cpu_budget_counts_cpu_time_not_time_spent_waiting(monkeypatch):
    # A training at a low priority on a busy machine waits most of its wall time for a
    # core: that waiting must not use up its budget.
    import engine.progress as progress

    wall = {"t": 0.0}
    cpu = {"t": 0.0}
    monkeypatch.setattr(progress, "_wall_clock", lambda: wall["t"])
    monkeypatch.setattr(progress, "_cpu_clock", lambda: cpu["t"])
    budget = progress.CpuBudget(10.0, wall_seconds=1000.0)
    wall["t"] += 500.0  # waited 500 s for a core, 2 CPU-s of work
    cpu["t"] += 2.0
    assert budget.spent() == "" and budget.cpu_used() == 2.0
    cpu["t"] += 8.0
    assert budget.spent() == "time"


def test_a_cpu_budget_stops_at_its_wall_clock_safety_cap(monkeypatch):
    import engine.progress as progress

    wall = {"t": 0.0}
    monkeypatch.setattr(progress, "_wall_clock", lambda: wall["t"])
    monkeypatch.setattr(progress, "_cpu_clock", lambda: 0.0)
    budget = progress.CpuBudget(10.0, wall_seconds=120.0)
    wall["t"] = 119.0
    assert budget.spent() == ""
    wall["t"] = 120.0
    assert budget.spent() == "wall"


def test_a_cpu_budget_reads_the_processs_cpu_time():
    import time

    from engine.progress import CpuBudget

    budget = CpuBudget(3600.0)
    time.sleep(0.2)  # waiting is not CPU time
    slept = budget.cpu_used()
    n = 0
    while budget.cpu_used() < slept + 0.05:  # work is
        n += sum(range(1000))
    assert slept < 0.15 and budget.cpu_used() >= slept + 0.05
