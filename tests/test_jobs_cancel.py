"""Cancel stops the work and the sweep closes django-tasks' rows.

A cancelled job's work stops at its next check: its progress callback
(``jobs.JobReporter``) reads the job's state at most once a second and raises
``JobStopped``; long loops call it (``engine.progress.checkpoint``). Here a real
``db_worker`` worker (the project's ``Worker``, in a thread, on the database backend)
runs an annotation whose detector loops until it is cancelled; the next queued job must
then run. Runs on SQLite and PostgreSQL."""

import threading
import time

import pytest

from annotations.models import Span
from engine.detectors.base import Detection, Detector, Document
from engine.progress import PROGRESS, Cancelled, Progress, checkpoint
from tests.factories import make_transcript, make_user
from tests.test_progress import _Stopping
from transcripts.models import Job, Transcript
from transcripts.services import jobs

LOOP_MARK = "LOOPS UNTIL CANCELLED"
STARTED = threading.Event()
SEEN: dict[str, list] = {"stopped": [], "later": []}


class LoopingDetector(Detector):
    """A long loop that only a cancel ends (on a text carrying ``LOOP_MARK``): each turn
    does a little work and calls its cancellation point, as the real detectors' loops do
    (the spaCy parse's batches, the transformer's, propagation's names)."""

    name = "looping"
    labels = frozenset({"PERSON"})

    def detect(self, document: Document) -> list[Detection]:
        if LOOP_MARK not in document.text:
            return []
        progress = document.artifacts.get(PROGRESS)
        STARTED.set()
        deadline = time.monotonic() + 300  # a broken cancel fails the test, never hangs it
        try:
            while time.monotonic() < deadline:
                sum(range(2000))  # work
                checkpoint(progress)
        except Cancelled:
            SEEN["stopped"].append(document.text[:20])
            raise
        return [Detection(0, 5, "PERSON", 0.9, self.name)]


class LaterDetector(Detector):
    """A later stage (it reads the first stage's spans): must never run once cancelled."""

    name = "later"
    labels = frozenset({"PERSON"})
    needs_detections = True

    def detect(self, document: Document) -> list[Detection]:
        SEEN["later"].append(document.text[:20])
        return []


DETECTORS = [
    {"NAME": "tests.test_jobs_cancel.LoopingDetector", "OPTIONS": {}},
    {"NAME": "tests.test_jobs_cancel.LaterDetector", "OPTIONS": {}},
]


def _worker():
    from anonreview.core.management.commands.db_worker import Worker

    return Worker(
        queue_names=["default"],
        interval=0.05,
        batch=True,  # exits once no task is left
        backend_name="default",
        startup_delay=False,
        max_tasks=None,
        worker_id="test-cancel",
        excluded_queue_names=[],
    )


@pytest.mark.django_db(transaction=True)
def test_a_cancelled_annotation_stops_at_its_next_check_and_the_worker_takes_the_next_job(
    settings,
):
    from django_tasks_db.models import DBTaskResult

    from annotations.services.annotation_queue import annotation_enqueue

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    settings.DETECTORS = DETECTORS
    STARTED.clear()
    SEEN["stopped"].clear()
    SEEN["later"].clear()
    lead = make_user("lead-cancel", role="lead")
    looping = make_transcript(f"ATTORNEY VANCE: {LOOP_MARK}.\n", state=Transcript.State.IMPORTED)
    waiting = make_transcript(state=Transcript.State.IMPORTED)
    first = annotation_enqueue(transcript=looping)
    second = annotation_enqueue(transcript=waiting)  # queued behind it

    worker = _worker()
    thread = threading.Thread(target=worker.run, name="test-worker", daemon=True)
    thread.start()
    try:
        assert STARTED.wait(timeout=120), "the worker never started the first job"
        assert jobs.job_cancel(job_id=first.pk, user=lead) == 1
        thread.join(timeout=300)  # a limit for a broken cancel, not a speed assertion
        assert not thread.is_alive(), "the worker never got past the cancelled job"
    finally:
        worker.running = False
        thread.join(timeout=60)

    first.refresh_from_db()
    second.refresh_from_db()
    looping.refresh_from_db()
    waiting.refresh_from_db()
    # the work saw the cancel at its next check; no further stage ran; nothing written
    assert SEEN["stopped"] == [looping.text[:20]]
    assert SEEN["later"] == [waiting.text[:20]]
    assert first.status == Job.Status.CANCELLED and first.message == "Cancelled"
    assert looping.state == Transcript.State.FAILED
    assert not Span.objects.filter(transcript=looping).exists()
    # the next job ran to its end on the same worker
    assert second.status == Job.Status.DONE
    assert waiting.state == Transcript.State.READY
    # django-tasks' rows are closed too: the cancelled task ended, not crashed
    statuses = set(DBTaskResult.objects.values_list("status", flat=True))
    assert statuses == {"SUCCESSFUL"}


@pytest.mark.django_db(transaction=True)
def test_a_job_reporter_stops_the_work_from_any_thread_and_reads_its_job_once_a_second(
    django_assert_max_num_queries,
):
    lead = make_user("lead-reporter", role="lead")
    job = jobs.job_create(kind=Job.Kind.ANNOTATE)
    jobs.job_start(job_id=job.pk)
    report = jobs.job_reporter(job_id=job.pk)
    report(Progress(1, 4, "one"))  # writes the bar
    with django_assert_max_num_queries(0):  # within the second: no query at all
        for n in range(1000):
            report(Progress(1 + n / 1000, 4, "one"))
            checkpoint(report)
    assert Job.objects.get(pk=job.pk).progress == 25

    jobs.job_cancel(job_id=job.pk, user=lead)
    # a detector's thread beside the task's: it reads the job on its own connection
    raised: list[BaseException] = []

    def beside():
        report._last = float("-inf")  # its next check reads the job now
        try:
            checkpoint(report)
        except Cancelled as exc:
            raised.append(exc)

    other = threading.Thread(target=beside)
    other.start()
    other.join(timeout=60)
    assert raised and isinstance(raised[0], jobs.JobStopped)
    assert report.stopped
    with pytest.raises(jobs.JobStopped):  # the task's thread, without a query
        with django_assert_max_num_queries(0):
            report(Progress(2, 4, "two"))
    assert Job.objects.get(pk=job.pk).status == Job.Status.CANCELLED


def test_a_progress_share_keeps_its_callbacks_cancellation_point(db):
    from engine.progress import part

    job = jobs.job_create(kind=Job.Kind.EVALUATE)
    jobs.job_start(job_id=job.pk)
    share = part(jobs.JobReporter(job.pk, every=0), 0.5, 1.0)
    checkpoint(share)  # running: nothing happens
    jobs.job_fail(job_id=job.pk, error="The dashboard computation was stopped.")
    with pytest.raises(jobs.JobStopped):
        checkpoint(share)


def test_a_cancel_raised_by_the_work_itself_ends_the_job_cancelled_not_failed(db):
    t = make_transcript(state=Transcript.State.ANNOTATING)
    job = jobs.job_create(kind=Job.Kind.ANNOTATE, transcript=t)
    jobs.job_start(job_id=job.pk)

    def work():
        raise Cancelled("stopped by the work's own check")

    jobs.job_run(job_id=job.pk, work=work, error=lambda exc: "failed")
    job.refresh_from_db()
    t.refresh_from_db()
    assert job.status == Job.Status.CANCELLED
    assert t.state == Transcript.State.FAILED  # freed for a re-run from its page


# --- django-tasks' own rows ------------------------------------------------


def _running_task_row(settings, job):
    """A task row as a worker leaves it when it is killed mid-task: RUNNING."""
    from django_tasks_db.models import DBTaskResult

    from annotations.tasks import annotate_transcript_task

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    result = annotate_transcript_task.enqueue(job_id=job.pk, transcript_id=job.transcript_id)
    row = DBTaskResult.objects.get(pk=result.id)
    row.claim("local-1")
    Job.objects.filter(pk=job.pk).update(task_result_id=str(result.id))
    return row


def _dead_worker_key() -> str:
    from anonreview.core import workers
    from anonreview.core.models import WorkerProcess

    row = workers.worker_register(worker_id="local-1")
    workers.worker_unregister()  # the process is gone
    WorkerProcess.objects.filter(pk=row.pk).update(stopped_at=None, seen_at="2020-01-01T00:00Z")
    return row.key


def test_the_sweep_closes_the_task_row_a_killed_worker_left_running(db, settings):
    from anonreview.core.workers import WORKER_GONE

    t = make_transcript(state=Transcript.State.ANNOTATING)
    job = jobs.job_create(kind=Job.Kind.ANNOTATE, transcript=t)
    jobs.job_start(job_id=job.pk)
    Job.objects.filter(pk=job.pk).update(worker=_dead_worker_key())
    row = _running_task_row(settings, job)

    assert jobs.jobs_fail_stale() == 1
    job.refresh_from_db()
    row.refresh_from_db()
    assert job.status == Job.Status.FAILED and job.message == "Worker stopped"
    assert row.status == "FAILED" and row.exception_class_path == WORKER_GONE
    assert row.finished_at is not None and row.traceback == ""


def test_fail_stale_jobs_closes_task_rows_that_earlier_sweeps_left_running(db, settings):
    from django.core.management import call_command

    t = make_transcript(state=Transcript.State.FAILED)
    job = jobs.job_create(kind=Job.Kind.ANNOTATE, transcript=t)
    jobs.job_start(job_id=job.pk)
    Job.objects.filter(pk=job.pk).update(worker=_dead_worker_key())
    row = _running_task_row(settings, job)
    jobs.job_fail(job_id=job.pk, error="The worker stopped before finishing this job.")
    # a live worker's task row is its own to close
    alive = jobs.job_create(kind=Job.Kind.ANNOTATE, transcript=make_transcript())
    jobs.job_start(job_id=alive.pk)
    from anonreview.core import workers

    live = workers.worker_register(worker_id="local-2")
    try:
        Job.objects.filter(pk=alive.pk).update(worker=live.key)
        alive_row = _running_task_row(settings, alive)
        jobs.job_fail(job_id=alive.pk, error="Cancelled meanwhile.")
        from io import StringIO

        out = StringIO()
        call_command("fail_stale_jobs", stdout=out)
    finally:
        workers.worker_unregister()
    row.refresh_from_db()
    alive_row.refresh_from_db()
    assert row.status == "FAILED"
    assert alive_row.status == "RUNNING"
    assert "1 task row(s) of dead workers closed" in out.getvalue()


def test_the_sweep_leaves_the_task_rows_of_live_workers_alone(db, settings):
    from anonreview.core import workers

    t = make_transcript(state=Transcript.State.ANNOTATING)
    job = jobs.job_create(kind=Job.Kind.ANNOTATE, transcript=t)
    jobs.job_start(job_id=job.pk)
    live = workers.worker_register(worker_id="local-3")
    try:
        Job.objects.filter(pk=job.pk).update(worker=live.key)
        row = _running_task_row(settings, job)
        assert jobs.jobs_fail_stale() == 0
    finally:
        workers.worker_unregister()
    row.refresh_from_db()
    assert row.status == "RUNNING"


# --- The OCR page loop ------------------------------------------------------------------


def test_a_cancel_during_ocr_stops_before_the_remaining_pages_are_read(monkeypatch):
    """Every rendered page is a cancellation point, and the pages not yet read are
    dropped (the pool used to read every page of the scan before the cancel was seen).
    Tesseract (an external program) is replaced by a recorder; pdfium renders for real."""
    from engine.importing import ocr
    from engine.synthetic import generate_hearing
    from engine.synthetic.pdf import render_pdf_bytes

    data = render_pdf_bytes(generate_hearing(2801, words=3000))
    rendered, read = [], []
    real_render = ocr._render

    def render(pdf, index, scale):
        rendered.append(index)
        return real_render(pdf, index, scale)

    def read_page(png, scale, width):
        read.append(len(png))
        return ocr.OcrPage(lines=[], words=[], low=[])

    def cancelled(done, total):
        raise Cancelled("the import job was cancelled")

    monkeypatch.setattr(ocr, "ocr_available", lambda: True)
    monkeypatch.setattr(ocr, "_render", render)
    monkeypatch.setattr(ocr, "_ocr_image", read_page)
    with pytest.raises(Cancelled):
        ocr.ocr_pdf(data, on_page=cancelled, dpi=30)
    import pypdfium2

    total = len(pypdfium2.PdfDocument(data))
    assert total > 4
    assert rendered == [0]  # the first page's check stopped it
    assert len(read) <= 1


# --- The detectors' loops ---------------------------------------------------------------


def test_the_spacy_parse_and_the_domain_models_prediction_check_every_batch():
    import spacy

    from engine.detectors.nlp import parse
    from engine.learning.domain import predict
    from engine.progress import watching

    nlp = spacy.blank("en")
    text = "ATTORNEY VANCE: Good morning.\n" * 20_000  # 150 batches of 4,000 characters
    stop = _Stopping()
    with pytest.raises(Cancelled):
        parse(nlp, text, progress=stop)
    assert stop.checks == 2
    stop = _Stopping()
    with watching(stop), pytest.raises(Cancelled):
        predict(nlp, text)
    assert stop.checks == 2
