"""The training thread: it runs at the configured niceness, a cancel stops it inside
its data preparation (which reports nothing for minutes), and its budget is CPU time, so
a training starved of CPU still finishes its epochs."""

from __future__ import annotations

import os
from types import SimpleNamespace

import pytest

from annotations.services import learning_loop
from engine.progress import Progress


@pytest.mark.skipif(not hasattr(os, "getpriority"), reason="no thread priorities here")
def test_the_training_thread_lowers_itself_to_the_configured_niceness(settings):
    base = os.getpriority(os.PRIO_PROCESS, 0)
    settings.LEARNING_TRAINING_NICE = min(base + 3, 19)
    seen = []

    def work(report):
        import threading

        seen.append(os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))
        report(Progress(1, 1, "done"))
        return "trained"

    reports = []
    assert learning_loop._niced(work, reports.append) == "trained"
    assert seen == [min(base + 3, 19)] and len(reports) == 1
    # the caller's own priority is untouched
    assert os.getpriority(os.PRIO_PROCESS, 0) == base


def test_a_cancel_stops_the_training_thread_inside_its_data_preparation(db):
    # The data preparation reports nothing for minutes; it only calls checkpoint() (as
    # domain_data's loop does per chunk). The job's check raises once it was cancelled:
    # the thread must stop there, and the call return.
    import threading

    from engine.progress import Cancelled, checkpoint

    cancelled = threading.Event()
    in_prep = threading.Event()
    turns = {"after_cancel": 0}

    def prepare(report):
        in_prep.set()
        for _ in range(200_000):  # a limit for a broken cancel, not a speed assertion
            checkpoint()
            if cancelled.is_set():
                turns["after_cancel"] += 1
            cancelled.wait(0.001)
        return "prepared"  # never reached when the cancel works

    class JobCallback:
        def __call__(self, progress):
            pass

        def check(self):
            if in_prep.is_set():
                cancelled.set()
                raise Cancelled("the job was cancelled")

    with pytest.raises(Cancelled):
        learning_loop._niced(prepare, JobCallback())
    assert cancelled.is_set() and turns["after_cancel"] <= 1


@pytest.mark.slow
def test_a_training_whose_wall_clock_runs_past_its_budget_still_finishes_its_epochs(
    monkeypatch, tmp_path
):
    # The budget is CPU time: a training starved of CPU (here: a wall clock that jumps
    # 600 s at every reading) finishes its epochs as long as it has used less CPU time
    # than its budget.
    domain = pytest.importorskip("engine.learning.domain")
    from engine.synthetic import generate_hearing

    real = domain.time
    clock = {"t": real.monotonic()}

    def jumping() -> float:
        clock["t"] += 600.0
        return clock["t"]

    monkeypatch.setattr(domain, "time", SimpleNamespace(monotonic=jumping))
    train = [generate_hearing(7101, words=300).gold]
    dev = [generate_hearing(7102, words=300).gold]
    config = domain.DomainConfig(
        out_dir=str(tmp_path / "m"), max_epochs=2, max_seconds=540, swap_share=0.0
    )
    result = domain.train_domain(train, dev, config=config)
    record = domain.read_training(result.model_dir)
    assert record["stopped_by"] == "epochs"
    assert [h["epoch"] for h in record["history"]] == [1, 2]
    assert record["epochs"] == 2 and record["cpu_s"] < 540
