"""The annotation service and job: state, progress, persisted spans, failures, command."""

import gc

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.core.management import CommandError, call_command

from annotations.models import Proposal, Span
from annotations.services import annotation, annotation_queue
from anonreview.core.models import AuditEvent
from engine.detectors.base import Detection, Detector, Document
from tests.factories import make_transcript
from transcripts.models import Job, Transcript

pytestmark = pytest.mark.django_db

TEXT = (
    "PRESIDING COMMISSIONER ALDEN: Good morning, Mr. Quill. Your number is V12345.\n"
    "INMATE QUILL: Good morning. Quill, Q-U-I-L-L. I lived in Fresno.\n"
    "PRESIDING COMMISSIONER ALDEN: Thank you, Mr. Quil.\n"
)
META = {
    "incarcerated_person": "Thomas Quill",
    "cdcr_number": "V12345",
    "participants": [{"name": "Ann Alden", "role": "Presiding Commissioner"}],
}


class ExplodingDetector(Detector):
    """A detector whose model is broken (the error names no personal data)."""

    name = "exploding"

    def detect(self, document: Document) -> list[Detection]:
        raise RuntimeError("model file is corrupt")


class CityDetector(Detector):
    """Marks every 'Fresno' (a stand-in for a second real detector)."""

    name = "city"

    def detect(self, document: Document) -> list[Detection]:
        start = document.text.find("Fresno")
        return [Detection(start, start + 6, "LOCATION", 0.9, self.name)] if start >= 0 else []


LIGHT = [
    {"NAME": "engine.detectors.patterns.PatternDetector", "OPTIONS": {}},
    {"NAME": "engine.detectors.cover.CoverPageDetector", "OPTIONS": {}},
    {"NAME": "tests.test_annotation_service.CityDetector", "OPTIONS": {}},
    {"NAME": "engine.detectors.propagation.PropagationDetector", "OPTIONS": {}},
]


@pytest.fixture
def light(settings):
    settings.DETECTORS = LIGHT
    return settings


def texts(transcript, **filters):
    return sorted(
        (transcript.text[s.start : s.end], s.label)
        for s in Span.objects.filter(transcript=transcript, **filters)
    )


def test_job_annotates_an_imported_transcript_through_the_queue(
    light, lead, django_capture_on_commit_callbacks
):
    transcript = make_transcript(TEXT, state=Transcript.State.IMPORTED, metadata=META)
    with django_capture_on_commit_callbacks(execute=True):
        job = annotation_queue.annotation_enqueue(transcript=transcript, user=lead)
    # immediate backend in tests: the task ran on commit
    job.refresh_from_db()
    transcript.refresh_from_db()
    assert job.status == Job.Status.DONE, job.error
    assert job.progress == 100
    assert transcript.state == Transcript.State.READY
    found = texts(transcript)
    assert ("QUILL", "PERSON") in found  # inside the speaker tag
    assert ("ALDEN", "PERSON") in found
    assert ("V12345", "CDCR_ID") in found
    assert ("Q-U-I-L-L", "SPELLED_NAME") in found
    assert ("Fresno", "LOCATION") in found
    assert ("Quil", "PERSON") in found  # misspelled repeat, by propagation
    quil = Span.objects.get(transcript=transcript, start=TEXT.index("Quil."))
    # the misspelled repeat is propagation's; "Mr. Quil" is also a titled name (patterns)
    assert {"detector": "propagation", "score": 0.7, "reason": "same name"} in quil.provenance
    assert all(
        s.status == Span.Status.SUGGESTED for s in Span.objects.filter(transcript=transcript)
    )
    assert job.result["detectors"]["cover"] > 0
    states = list(
        AuditEvent.objects.filter(transcript=transcript, event_type="transcript.transition")
        .order_by("id")
        .values_list("after__state", flat=True)
    )
    assert states == ["annotating", "ready"]


def test_person_spans_are_stored_as_name_parts_with_every_detector_in_provenance(light):
    transcript = make_transcript(TEXT, state=Transcript.State.IMPORTED, metadata=META)
    annotation.transcript_annotate(transcript=transcript)
    span = Span.objects.get(transcript=transcript, start=TEXT.index("Quill."))
    assert (span.label, transcript.text[span.start : span.end]) == ("PERSON", "Quill")
    # "Mr. Quill": the patterns' titled-name rule finds it too
    assert {p["detector"] for p in span.provenance} == {"cover", "patterns", "propagation"}
    assert span.score == 1.0
    assert Span.objects.filter(transcript=transcript, label="PERSON").exclude(entity=None).exists()


def test_one_failing_detector_is_reported_and_the_others_spans_are_kept(
    settings, django_capture_on_commit_callbacks
):
    settings.DETECTORS = [*LIGHT, {"NAME": "tests.test_annotation_service.ExplodingDetector"}]
    transcript = make_transcript(TEXT, state=Transcript.State.IMPORTED, metadata=META)
    with django_capture_on_commit_callbacks(execute=True):
        job = annotation_queue.annotation_enqueue(transcript=transcript)
    job.refresh_from_db()
    transcript.refresh_from_db()
    assert job.status == Job.Status.DONE
    assert "exploding detector failed" in job.error
    assert "RuntimeError" in job.error
    assert job.result["errors"] == {"exploding": "RuntimeError: model file is corrupt"}
    assert transcript.state == Transcript.State.READY
    assert ("Fresno", "LOCATION") in texts(transcript)
    assert ("V12345", "CDCR_ID") in texts(transcript)


def test_a_run_where_every_detector_fails_leaves_the_transcript_failed_with_the_reason(
    settings, django_capture_on_commit_callbacks
):
    settings.DETECTORS = [{"NAME": "tests.test_annotation_service.ExplodingDetector"}]
    transcript = make_transcript(TEXT, state=Transcript.State.IMPORTED, metadata=META)
    with django_capture_on_commit_callbacks(execute=True):
        job = annotation_queue.annotation_enqueue(transcript=transcript)
    job.refresh_from_db()
    transcript.refresh_from_db()
    assert job.status == Job.Status.FAILED
    assert "every detector failed" in job.error
    assert transcript.state == Transcript.State.FAILED
    assert "every detector failed" in transcript.state_reason
    assert not Span.objects.filter(transcript=transcript).exists()


def test_a_failed_annotation_stores_no_exception_message_that_may_quote_the_text(
    settings, monkeypatch, django_capture_on_commit_callbacks
):
    # A library's message can quote the text it choked on: jobs and transcripts keep the
    # exception's type only (personal data only in the transcript).
    def choke(**kwargs):
        raise KeyError("Calvin Quill")

    monkeypatch.setattr(annotation, "transcript_spans_replace", choke)
    settings.DETECTORS = []
    transcript = make_transcript(TEXT, state=Transcript.State.IMPORTED, metadata=META)
    with django_capture_on_commit_callbacks(execute=True):
        job = annotation_queue.annotation_enqueue(transcript=transcript)
    job.refresh_from_db()
    transcript.refresh_from_db()
    assert job.status == Job.Status.FAILED and "KeyError" in job.error
    assert transcript.state == Transcript.State.FAILED and "KeyError" in transcript.state_reason
    assert "Quill" not in job.error + job.message + transcript.state_reason


def test_reannotation_replaces_suggestions_and_never_touches_reviewed_spans(light, annotator):
    transcript = make_transcript(TEXT, state=Transcript.State.IMPORTED, metadata=META)
    annotation.transcript_annotate(transcript=transcript)
    fresno = Span.objects.get(transcript=transcript, label="LOCATION")
    fresno.status = Span.Status.REJECTED
    fresno.reviewer = annotator
    fresno.save()
    added = Span.objects.create(
        transcript=transcript, start=0, end=10, label="ORGANIZATION", status=Span.Status.ADDED
    )
    stale = Span.objects.create(transcript=transcript, start=30, end=37, label="DATE")  # suggested
    before = Span.objects.filter(transcript=transcript, status="suggested").count()

    annotation.transcript_annotate(transcript=transcript)  # ready → annotating → ready

    fresno.refresh_from_db()
    added.refresh_from_db()
    assert fresno.status == Span.Status.REJECTED and fresno.reviewer == annotator
    assert added.status == Span.Status.ADDED
    assert not Span.objects.filter(pk=stale.pk).exists()
    # no new suggestion where a reviewer decided
    assert not Span.objects.filter(
        transcript=transcript, status="suggested", start=fresno.start
    ).exists()
    assert not Span.objects.filter(transcript=transcript, status="suggested", start__lt=10).exists()
    assert Span.objects.filter(transcript=transcript, status="suggested").count() == before - 1


def test_proposals_are_stored_kept_for_reviewed_spans_and_replaced_with_suggestions(
    light, annotator
):
    transcript = make_transcript(TEXT, state=Transcript.State.IMPORTED, metadata=META)
    annotation.transcript_annotate(transcript=transcript)
    spans = list(Span.objects.filter(transcript=transcript))
    assert spans and all(s.proposal.shape == (s.start, s.end, s.label) for s in spans)
    fresno = next(s for s in spans if s.label == "LOCATION")
    fresno.status, fresno.start = Span.Status.ACCEPTED, fresno.start + 1  # a reviewer's resize
    fresno.save()
    proposed = fresno.proposal.shape
    total = transcript.proposals.count()

    annotation.transcript_annotate(transcript=transcript)

    fresno.refresh_from_db()
    assert fresno.proposal.shape == proposed  # what the machine proposed, not the resize
    assert transcript.proposals.count() == total  # the suggestions' proposals were replaced
    assert Proposal.objects.filter(transcript=transcript, spans__isnull=True).count() == 0


def test_detectors_setting_errors_are_improperly_configured(settings):
    for bad in (
        [{"NAME": "engine.detectors.nope.Missing"}],
        [{"OPTIONS": {}}],
        [{"NAME": "annotations.models.Span"}],
        [{"NAME": "engine.detectors.cover.CoverPageDetector"}] * 2,
        [],
    ):
        settings.DETECTORS = bad
        with pytest.raises(ImproperlyConfigured):
            annotation.detectors_from_settings(bad)


def test_detectors_are_built_once_per_process(light):
    assert annotation.detectors_from_settings() is annotation.detectors_from_settings()


def test_annotate_command_sync_and_queue(light, django_capture_on_commit_callbacks):
    first = make_transcript(TEXT, state=Transcript.State.IMPORTED, metadata=META)
    second = make_transcript(TEXT + "More.\n", state=Transcript.State.IMPORTED, metadata=META)
    from io import StringIO

    out = StringIO()
    call_command("annotate", str(first.pk), "--sync", stdout=out)
    first.refresh_from_db()
    assert first.state == Transcript.State.READY
    assert f"transcript {first.pk}: Done" in out.getvalue()

    out = StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("annotate", "--all", stdout=out)  # queued; the immediate backend runs it
    second.refresh_from_db()
    assert second.state == Transcript.State.READY
    assert "queued" in out.getvalue()
    assert Span.objects.filter(transcript=second).exists()


def test_annotate_command_rejects_bad_arguments(light, transcript):
    with pytest.raises(CommandError):
        call_command("annotate")
    with pytest.raises(CommandError):
        call_command("annotate", "999999")
    transcript.state = Transcript.State.APPROVED
    transcript.save()
    with pytest.raises(CommandError):
        call_command("annotate", str(transcript.pk))


def test_preload_loads_and_warms_the_configured_detectors_then_touches_the_ready_file(
    tmp_path, settings, unfrozen
):
    settings.DETECTORS = [{"NAME": "engine.detectors.cover.CoverPageDetector"}]
    ready = tmp_path / "ready"
    annotation.detectors_preload(ready_file=str(ready))
    assert ready.exists()
    (cover,) = annotation.detectors_from_settings()
    assert cover._loaded


@pytest.fixture
def unfrozen():
    """The preload freezes the process's objects; the test process gets them back."""
    yield
    gc.unfreeze()


def test_preload_puts_the_loaded_models_out_of_the_collectors_reach(tmp_path, settings, unfrozen):
    settings.DETECTORS = [{"NAME": "engine.detectors.cover.CoverPageDetector"}]
    gc.unfreeze()
    annotation.detectors_preload()
    assert gc.get_freeze_count() > 0  # a full collection no longer walks the models


def test_preload_survives_detectors_that_fail(tmp_path, settings, unfrozen):
    settings.DETECTORS = [
        {
            "NAME": "engine.detectors.transformer.TransformerDetector",
            "OPTIONS": {"model_dir": str(tmp_path / "missing")},
        }
    ]
    ready = tmp_path / "ready"
    annotation.detectors_preload(ready_file=str(ready))  # logs, does not raise
    assert ready.exists()


def test_preload_warms_the_subtype_classifier_with_every_subtype(
    tmp_path, settings, monkeypatch, unfrozen
):
    from annotations.services import subtypes
    from engine.pseudonymize.classifier import DESCRIPTIONS

    calls = []

    class Classifier:
        def prefetch(self, items):
            calls.extend(items)

    monkeypatch.setattr(subtypes, "configured_classifier", Classifier)
    settings.DETECTORS = [{"NAME": "engine.detectors.cover.CoverPageDetector"}]
    annotation.detectors_preload(ready_file=str(tmp_path / "ready"))
    ((_label, _mention, candidates),) = calls
    assert set(candidates) == set(DESCRIPTIONS)


def test_preload_survives_a_subtype_classifier_that_fails(
    tmp_path, settings, monkeypatch, unfrozen
):
    from annotations.services import subtypes

    def broken():
        raise OSError("no model")

    monkeypatch.setattr(subtypes, "configured_classifier", broken)
    settings.DETECTORS = [{"NAME": "engine.detectors.cover.CoverPageDetector"}]
    ready = tmp_path / "ready"
    annotation.detectors_preload(ready_file=str(ready))  # logs, does not raise
    assert ready.exists()


@pytest.mark.parametrize(("threads", "expected"), [(1, 1), (2, 1), (4, 3)])
def test_the_transformer_beside_spacy_leaves_one_of_the_workers_threads_to_the_parse(
    settings, tmp_path, threads, expected
):
    settings.DETECTOR_THREADS = threads
    (transformer,) = annotation.detectors_from_settings(
        [
            {
                "NAME": "engine.detectors.transformer.TransformerDetector",
                "OPTIONS": {"model_dir": str(tmp_path / f"threads-{threads}")},
            }
        ]
    )
    assert transformer.options["threads"] == expected
    # it runs beside the parse only when the worker has two threads or more
    assert annotation.ensemble_build(detectors=[transformer], allow_list=[]).parallel is (
        threads >= 2
    )
