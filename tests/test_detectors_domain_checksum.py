"""The domain model's files are checked against the SHA-256 recorded at its training
before it loads: a tampered model is refused, and the ensemble runs without the member
and says so (engine/detectors/domain.py)."""

import json
import shutil

import pytest
from django.urls import reverse

from engine.detectors.base import Document
from engine.detectors.domain import (
    SHIPPED_MODEL,
    DomainDetector,
    ModelChecksumError,
    load_domain_model,
    verify_domain_model,
)
from engine.detectors.ensemble import Ensemble
from engine.detectors.patterns import PatternDetector
from engine.learning.domain import read_training
from tests.factories import make_transcript
from transcripts.models import Job
from transcripts.services import jobs

TEXT = (
    "PRESIDING COMMISSIONER ALDEN: Good morning. Today is May 3, 2019, at 9:05 a.m., "
    "CDCR number AB1234.\nINMATE QUILL: Good morning.\n"
)


@pytest.fixture
def tampered(tmp_path):
    """A copy of the shipped model whose tok2vec weights were zeroed (same size)."""
    model = tmp_path / "domain-copy"
    shutil.copytree(SHIPPED_MODEL, model)
    weights = model / "tok2vec" / "model"
    weights.write_bytes(bytes(weights.stat().st_size))
    return model


def test_the_shipped_model_matches_its_recorded_sha256():
    assert verify_domain_model(SHIPPED_MODEL) == read_training(SHIPPED_MODEL)["checksum_sha256"]


def test_a_model_with_zeroed_weights_is_refused_at_load_with_a_sentence(tampered):
    with pytest.raises(ModelChecksumError) as refused:
        load_domain_model(tampered)
    message = str(refused.value)
    assert message.startswith("The domain model 'domain-copy' does not match its recorded SHA-256")
    assert str(tampered.parent) not in message  # the directory's name, not its path
    with pytest.raises(ModelChecksumError):
        DomainDetector(model_dir=tampered).ensure_loaded()


def test_a_model_without_a_recorded_sha256_is_refused(tmp_path):
    model = tmp_path / "unrecorded"
    shutil.copytree(SHIPPED_MODEL, model)
    record = json.loads((model / "training.json").read_text())
    del record["checksum_sha256"]
    (model / "training.json").write_text(json.dumps(record))
    with pytest.raises(ModelChecksumError, match="has no recorded SHA-256"):
        load_domain_model(model)


def test_the_ensemble_with_a_tampered_domain_model_annotates_without_it_and_says_so(
    tampered, caplog
):
    ensemble = Ensemble([PatternDetector(), DomainDetector(model_dir=tampered)])
    failed = ensemble.load_safely()
    assert failed == {"domain": "ModelChecksumError"}
    result = ensemble.run(Document(TEXT))
    assert result.spans  # the other member's spans
    assert "domain" not in result.by_detector and "patterns" in result.by_detector
    assert result.errors["domain"].startswith("ModelChecksumError: The domain model")
    # the log names the member and the error's kind only
    warnings = [r.getMessage() for r in caplog.records if "domain" in r.getMessage()]
    assert warnings and all(w == "detector domain failed: ModelChecksumError" for w in warnings)


def test_the_transcript_page_and_the_learning_page_show_the_refused_model(
    tampered, settings, client, lead
):
    from annotations.services.annotation import transcript_annotate_job

    settings.DETECTORS = [
        {"NAME": "engine.detectors.patterns.PatternDetector", "OPTIONS": {}},
        {"NAME": "engine.detectors.domain.DomainDetector", "OPTIONS": {"model_dir": str(tampered)}},
    ]
    transcript = make_transcript(TEXT, state="imported")
    job = jobs.job_create(kind=Job.Kind.ANNOTATE, transcript=transcript)
    transcript_annotate_job(job_id=job.pk, transcript_id=transcript.pk)
    job.refresh_from_db()
    assert job.status == Job.Status.DONE and job.result["errors"]["domain"].startswith(
        "ModelChecksumError"
    )
    assert job.error.startswith("The domain detector failed (ModelChecksumError: The domain")
    assert transcript.spans.exists()

    client.force_login(lead)
    page = client.get(reverse("annotations:detail", args=[transcript.pk])).content.decode()
    assert 'id="annotation-job"' in page and "The domain detector failed" in page
    learning = client.get(reverse("annotations:learning")).content.decode()
    assert 'id="domain-refused"' in learning
    assert "does not match its recorded SHA-256" in learning


def test_the_learning_page_says_the_shipped_model_matches(settings, client, lead):
    settings.DETECTORS = [{"NAME": "engine.detectors.domain.DomainDetector", "OPTIONS": {}}]
    client.force_login(lead)
    learning = client.get(reverse("annotations:learning")).content.decode()
    assert 'id="domain-checksum"' in learning and 'id="domain-refused"' not in learning
