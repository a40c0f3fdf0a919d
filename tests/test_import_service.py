"""transcript_import: atomic, de-duplicated by sha256, stores the original, assigns,
audits, and queues the automatic annotation without letting it undo the import."""

import hashlib

import pytest
from django.db import transaction

from anonreview.core.models import AuditEvent
from tests.factories import make_user
from transcripts.models import Job, Transcript, Utterance
from transcripts.services import importing
from transcripts.services.importing import transcript_import

TEXT = (
    "PROCEEDINGS\n"
    "PRESIDING COMMISSIONER ALDEN: Good morning. Please spell your last name.\n"
    "INCARCERATED PERSON QUILL: Quill, Q-U-\n"
    "I-L-L.\n"
)


def test_import_creates_transcript_utterances_original_and_audit(db, lead, annotator):
    t = transcript_import(name="hearing.txt", data=TEXT.encode(), user=lead, assignees=[annotator])
    t.refresh_from_db()
    assert t.text.split("\n")[-1] == "INCARCERATED PERSON QUILL: Quill, Q-U-I-L-L."
    assert t.sha256 == hashlib.sha256(TEXT.encode()).hexdigest()
    assert t.source_format == "txt" and t.state == Transcript.State.IMPORTED
    assert t.created_by == lead and list(t.assignees.all()) == [annotator]
    with t.original_file.open("rb") as fh:
        assert fh.read() == TEXT.encode()
    assert "Quill" not in t.title and "hearing" not in t.original_file.name
    lines = t.text.split("\n")
    utterances = list(t.utterances.order_by("index"))
    assert [u.text for u in utterances] == lines
    assert [u.speaker for u in utterances] == [
        "",
        "PRESIDING COMMISSIONER ALDEN",
        "INCARCERATED PERSON QUILL",
    ]
    audit = AuditEvent.objects.get(event_type="transcript.import", transcript=t)
    assert audit.actor == lead and audit.after["utterances"] == 3
    assert audit.after["assignees"] == [annotator.get_username()]


LIGHT_DETECTORS = [{"NAME": "engine.detectors.propagation.PropagationDetector", "OPTIONS": {}}]


def test_import_queues_annotation_which_runs_after_commit(
    db, lead, settings, django_capture_on_commit_callbacks
):
    settings.DETECTORS = LIGHT_DETECTORS  # no model loading in this test
    with django_capture_on_commit_callbacks(execute=True):
        t = transcript_import(name="h.txt", data=TEXT.encode(), user=lead)
        assert Job.objects.get(pk=t.annotation_job.pk).status == Job.Status.QUEUED
    assert t.annotation_error == ""
    job = Job.objects.get(pk=t.annotation_job.pk)
    assert job.kind == Job.Kind.ANNOTATE and job.transcript_id == t.pk
    assert not job.is_active  # the immediate backend ran it once the import committed
    assert Transcript.objects.filter(pk=t.pk).exists()


def test_import_stays_committed_when_the_annotation_task_fails(
    db, lead, settings, django_capture_on_commit_callbacks
):
    settings.DETECTORS = [{"NAME": "engine.detectors.nowhere.Missing", "OPTIONS": {}}]
    with django_capture_on_commit_callbacks(execute=True):
        t = transcript_import(name="h.txt", data=TEXT.encode(), user=lead)
    t.refresh_from_db()
    assert t.utterances.count() == 3
    job = Job.objects.get(pk=t.annotation_job.pk)
    assert job.status == Job.Status.FAILED and job.error  # the failure, in words


# A tasks backend that really refuses the annotation task: its only queue is another
# one, so ``task.enqueue`` raises ``InvalidTaskError`` (a real misconfiguration, no mock).
REFUSING_TASKS = {
    "default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["elsewhere"]}
}


def test_refused_annotation_task_is_reported_on_the_outcome_and_the_import_kept(
    transactional_db, lead, settings
):
    # No transaction around the batch (as in the worker and the command): the enqueue
    # runs right after the import commits, and its refusal is read back here.
    settings.TASKS = REFUSING_TASKS
    [outcome] = importing.transcripts_import_batch(
        sources=importing.sources_from_bytes("h.txt", TEXT.encode()), user=lead
    )
    assert outcome.ok and outcome.transcript_id
    assert "could not be queued" in outcome.annotation_error
    assert "InvalidTaskError" in outcome.annotation_error
    t = Transcript.objects.get(pk=outcome.transcript_id)
    assert t.utterances.count() == 3
    job = Job.objects.get(pk=outcome.annotation_job_id)
    assert job.status == Job.Status.FAILED and "could not be queued" in job.error


def test_refused_annotation_task_inside_a_caller_transaction_fails_the_job_not_the_import(
    db, lead, settings, django_capture_on_commit_callbacks
):
    # The caller holds a transaction: the enqueue waits for its commit. The refusal
    # used to escape from that commit (and the batch reported "not imported").
    settings.TASKS = REFUSING_TASKS
    with django_capture_on_commit_callbacks(execute=True):
        t = transcript_import(name="h.txt", data=TEXT.encode(), user=lead)
    assert Transcript.objects.filter(pk=t.pk).exists()
    assert t.utterances.count() == 3
    job = Job.objects.get(pk=t.annotation_job.pk)
    assert job.status == Job.Status.FAILED and "InvalidTaskError" in job.error


def test_import_without_a_registered_annotation_hook_queues_nothing_and_says_so(
    db, lead, monkeypatch
):
    from transcripts.hooks import hooks

    monkeypatch.setattr(hooks, "annotation_start", None)
    t = transcript_import(name="h.txt", data=TEXT.encode(), user=lead)
    assert t.annotation_job is None and "no automatic annotation" in t.annotation_error
    assert Transcript.objects.filter(pk=t.pk).exists()


def test_import_is_atomic_when_writing_fails_midway(db, lead, monkeypatch):
    def broken_audit(**kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(importing, "audit_record", broken_audit)
    with pytest.raises(RuntimeError):
        transcript_import(name="h.txt", data=TEXT.encode(), user=lead)
    assert not Transcript.objects.exists()
    assert not AuditEvent.objects.filter(event_type="transcript.import").exists()


def test_transcript_title_holds_no_names(db):
    hearing_text = (
        "In the matter of the Life Term CDCR Number: V12345\nParole Consideration Hearing of:\n"
        "CALVIN QUILL\nMULE CREEK STATE PRISON\nIONE, CALIFORNIA\nMARCH 5, 2024\n1:15 PM\n"
        "\f" + TEXT
    )
    t = transcript_import(name="Quill-V12345.txt", data=hearing_text.encode(), annotate=False)
    assert t.metadata["incarcerated_person"] == "Calvin Quill"
    assert t.metadata["hearing_date"] == "2024-03-05"
    assert "Quill" not in t.title and "V12345" not in t.title
    assert "2024" not in t.title and t.title == f"Hearing · {t.sha256[:8]}"  # no date either


def test_batch_import_assigns_every_file(db):
    user = make_user("reviewer1", role="annotator")
    sources = importing.sources_from_bytes("a.txt", TEXT.encode()) + importing.sources_from_bytes(
        "b.txt", (TEXT + "ATTORNEY VANCE: Thank you.\n").encode()
    )
    with transaction.atomic():
        outcomes = importing.transcripts_import_batch(
            sources=sources, assignees=[user], annotate=False
        )
    assert [o.ok for o in outcomes] == [True, True]
    assert Transcript.objects.filter(assignees=user).count() == 2


# --- The review page of a long text import opens at once -------------------


def _review(client, lead, lines: int):
    """Import a text of ``lines`` lines, open its review page: (transcript, response,
    the page's number of queries)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from transcripts.management.commands.bench_import import text_lines

    t = transcript_import(
        name="long.txt", data=text_lines("prose", lines), user=lead, annotate=False
    )
    client.force_login(lead)
    client.get(reverse("annotations:review", args=[t.pk]))  # warm (not counted)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("annotations:review", args=[t.pk]))
    return t, response, len(queries)


def test_the_review_page_of_a_long_text_without_page_marks_renders_one_window(client, lead):
    # Before: one page of 20,000 lines, rendered whole (200,000 lines: over 80 s).
    t, response, _ = _review(client, lead, 20000)
    assert response.status_code == 200
    assert t.page_count == 800
    assert response.content.count(b'class="utt"') <= 2 * 3 * 25  # both panes, 3 pages


@pytest.mark.slow
def test_the_review_page_of_a_200000_line_text_renders_one_window_in_as_many_queries(client, lead):
    # Was "opens within two seconds": a wall-clock assertion that failed at load 8-10
    # (3.3 s). The time is measured by `manage.py bench_review_size --long-text`; here,
    # the bounded work: one window of lines, and the queries of a short text's page.
    _short, _response, short_queries = _review(client, lead, 2000)
    t, response, queries = _review(client, lead, 200000)
    assert response.status_code == 200 and t.page_count == 1000
    window = Utterance.objects.filter(transcript=t, page__lte=3).count()  # 3 pages
    assert response.content.count(b'class="utt"') == 2 * window < 2 * 1000  # both panes
    assert queries == short_queries
