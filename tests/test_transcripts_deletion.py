"""Personal data stays in the transcript, its spans and the key; jobs and audit rows keep
ids; deleting a transcript deletes its personal data everywhere."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django_tasks_db.models import DBTaskResult

from annotations.models import Span
from annotations.services import review as rs
from anonreview.core.models import AuditEvent
from tests.test_import_staging import LIGHT_DETECTORS, _run_queued
from transcripts.models import Job, StagedUpload, StoredFile, Transcript
from transcripts.services.deletion import transcript_delete
from transcripts.services.upload_staging import import_job_enqueue

# A made-up hearing whose upload name is personal data, as real ones are.
UPLOAD_NAME = "Quillfeather-V12345-2024-05-13.txt"
HEARING = (
    b"SUBSEQUENT PAROLE CONSIDERATION HEARING\n"
    b"In the matter of the Life Term Parole Consideration Hearing of:\n"
    b"CALVIN QUILLFEATHER CDCR Number: V12345\n"
    b"PRESIDING COMMISSIONER ALDEN: Good morning, Mr. Quillfeather.\n"
    b"INMATE QUILLFEATHER: Good morning. My sister Dana Quillfeather is here.\n"
)
SECRETS = ("Quillfeather", "QUILLFEATHER", "V12345", "Dana", "Calvin", "CALVIN")


@pytest.fixture
def db_tasks(settings):
    settings.DETECTORS = LIGHT_DETECTORS
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    settings.PSEUDONYMIZE_SUBTYPE_MODEL = "none"


def _everything_but_the_transcript() -> str:
    """Every job, task row, staged file and audit row, as text."""
    rows = [
        *Job.objects.values("message", "error", "result"),
        *DBTaskResult.objects.values("args_kwargs", "return_value", "exception_class_path"),
        *StagedUpload.objects.values("original_name"),
        *AuditEvent.objects.values("event_type", "before", "after"),
    ]
    return json.dumps(rows, default=str)


def _imported(lead, capture) -> Transcript:
    with capture(execute=True):
        import_job_enqueue(
            uploads=[SimpleUploadedFile(UPLOAD_NAME, HEARING, content_type="text/plain")],
            user=lead,
        )
    _run_queued(capture)
    return Transcript.objects.get()


def test_jobs_and_task_arguments_keep_no_file_name_nor_cover_metadata(
    lead, db_tasks, django_capture_on_commit_callbacks
):
    transcript = _imported(lead, django_capture_on_commit_callbacks)
    assert transcript.original_name == UPLOAD_NAME  # the transcript keeps it
    assert "V12345" in json.dumps(transcript.metadata)  # the cover, in the transcript
    stored = _everything_but_the_transcript()
    for secret in (*SECRETS, "Quillfeather-V12345"):
        assert secret not in stored, secret
    batch = Job.objects.get(batch=None, kind=Job.Kind.IMPORT)
    [outcome] = batch.result["files"]
    assert outcome["path"] == "file 1 (.txt)" and outcome["transcript_id"] == transcript.pk


def test_audit_snapshots_keep_no_quoted_name_and_undo_still_restores_it(annotator):
    from tests.factories import make_suggestion, make_transcript

    t = make_transcript("INMATE QUILL: Dana Quill came.\n", state="in_review",
                        assignees=[annotator])  # fmt: skip
    span = make_suggestion(t, 19, 23, "PERSON", detectors=("propagation",))
    provenance = [{"detector": "propagation", "score": 0.9, "original": "Quill"}]
    Span.objects.filter(pk=span.pk).update(provenance=provenance)
    span.proposal.provenance = provenance
    span.proposal.save()
    rs.span_delete(span=span.pk, actor=annotator)
    event = AuditEvent.objects.get(event_type="review.delete")
    assert "Quill" not in json.dumps([event.before, event.after])
    rs.review_undo(transcript=t, actor=annotator)
    assert Span.objects.get(pk=span.pk).provenance == provenance


def test_deleting_a_transcript_removes_its_personal_data_everywhere(
    lead, annotator, db_tasks, django_capture_on_commit_callbacks
):
    transcript = _imported(lead, django_capture_on_commit_callbacks)
    transcript.assignees.add(annotator)
    rs.span_add(transcript=transcript, actor=annotator, label="PERSON",
                start=transcript.text.index("Dana"), end=transcript.text.index("Dana") + 4)  # fmt: skip
    span = Span.objects.filter(transcript=transcript).first()
    rs.span_flag(span=span, actor=annotator, flagged=True, note="Is Dana Quillfeather his sister?")
    # A staged copy left behind by a worker that died, and the original in the storage.
    import_job = Job.objects.exclude(batch=None).get(kind=Job.Kind.IMPORT)
    StagedUpload.objects.create(job=import_job, index=1, original_name=UPLOAD_NAME,
                                data=HEARING, size=len(HEARING))  # fmt: skip
    assert StoredFile.objects.filter(name=transcript.original_file.name).exists()
    assert "Dana Quillfeather" in _everything_but_the_transcript()  # the flag's note

    transcript_delete(transcript=transcript, actor=lead)

    assert not Transcript.objects.exists() and not Span.objects.exists()
    stored = _everything_but_the_transcript()
    for secret in (*SECRETS, UPLOAD_NAME):
        assert secret not in stored, secret
    assert not StoredFile.objects.exists() and not StagedUpload.objects.exists()
    assert AuditEvent.objects.filter(event_type="transcript.deleted").exists()
    assert AuditEvent.objects.filter(event_type="review.add").exists()  # the trail stays
