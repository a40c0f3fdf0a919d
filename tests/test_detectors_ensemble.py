"""The ensemble's parallel mode: a ``runs_apart`` detector in a thread of its own."""

import threading

from engine.detectors.base import Detection, Detector, Document
from engine.detectors.ensemble import Ensemble

TEXT = "Ann Lee met Bob Ray in Fresno.\n"


class Named(Detector):
    name = "named"
    labels = frozenset({"PERSON"})

    def detect(self, document):
        self.thread = threading.current_thread().name
        return [Detection(0, 7, "PERSON", 0.9, self.name)]


class Apart(Detector):
    name = "apart"
    labels = frozenset({"PERSON", "LOCATION"})
    runs_apart = True

    def detect(self, document):
        self.thread = threading.current_thread().name
        return [
            Detection(12, 19, "PERSON", 0.9, self.name),
            Detection(23, 29, "LOCATION", 0.8, self.name),
        ]


class Broken(Detector):
    name = "broken"
    runs_apart = True

    def detect(self, document):
        raise RuntimeError("model file missing")


def spans(result):
    return [(s.start, s.end, s.label) for s in result.spans]


def test_parallel_mode_runs_the_apart_detector_in_its_own_thread_with_the_same_spans():
    sequential = Ensemble([Named(), Apart()]).run(Document(TEXT))
    named, apart = Named(), Apart()
    seen = []
    parallel = Ensemble([named, apart], parallel=True).run(
        Document(TEXT), progress=lambda p: seen.append(threading.current_thread().name)
    )
    assert spans(parallel) == spans(sequential)
    assert (23, 29, "LOCATION") in spans(parallel)  # the apart detector's
    assert any(s == 0 and label == "PERSON" for s, _e, label in spans(parallel))
    assert apart.thread != threading.current_thread().name
    assert named.thread == threading.current_thread().name
    assert set(parallel.seconds) == {"named", "apart"}
    # progress (a job's database row) is only ever reported from the calling thread
    assert seen and set(seen) == {threading.current_thread().name}


def test_a_failing_apart_detector_is_reported_and_the_others_kept():
    result = Ensemble([Named(), Broken()], parallel=True).run(Document(TEXT))
    assert spans(result) and all(e <= 7 and label == "PERSON" for _s, e, label in spans(result))
    assert "RuntimeError" in result.errors["broken"]
