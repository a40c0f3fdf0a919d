"""Bring a model back: a spaCy pipeline trained elsewhere is checked, copied, its
checksum verified or recorded, scored under the same gate as a retraining, and activated
only when the gate says so."""

import json
import shutil
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from annotations.models import TrainedModel
from annotations.services.learning import LearningError
from annotations.services.learning_register import model_register_job, model_register_start
from engine.learning.pipeline import export_pipeline

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

SHIPPED = Path(__file__).resolve().parent.parent / "engine" / "models" / "domain"


@pytest.fixture
def gate(settings, tmp_path):
    settings.LEARNING_MODELS_DIR = tmp_path / "trained_models"
    settings.LEARNING_RETRAIN_EVERY = 0
    # five short generated hearings: the last is the gate (learning_loop's recipe by seeds)
    settings.LEARNING_RECIPE = {"seeds": [7101, 7102, 7103, 7104, 7105], "words": 1500}
    settings.LEARNING_GATE = {"min_mentions": 20}


def _register(path, user=None) -> TrainedModel:
    model = model_register_start(path=path, user=user)
    model_register_job(job_id=model.job_id, trained_model_id=model.pk)
    model.refresh_from_db()
    return model


def _tiny_spacy_model(tmp_path: Path) -> Path:
    """A spaCy ``ner`` pipeline trained by ``spacy train`` for a few steps: it knows our
    labels and finds little (worse than the shipped model)."""
    import spacy
    from spacy.tokens import DocBin

    from engine.learning.spacy_config import spacy_train_config
    from engine.synthetic import generate_hearing

    nlp = spacy.blank("en")
    db = DocBin()
    gold = generate_hearing(7190, words=600).gold
    doc = nlp(gold.text)
    doc.ents = [
        doc.char_span(s.start, s.end, s.label)
        for s in gold.spans
        if doc.char_span(s.start, s.end, s.label)
    ]
    db.add(doc)
    folder = tmp_path / "outside"
    folder.mkdir()
    db.to_disk(folder / "train.spacy")
    db.to_disk(folder / "dev.spacy")
    (folder / "config.cfg").write_text(spacy_train_config())
    done = subprocess.run(
        [sys.executable, "-m", "spacy", "train", "config.cfg", "--output", "model",
         "--training.max_steps", "3", "--training.eval_frequency", "3"],
        cwd=folder, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return folder / "model" / "model-last"


def test_a_model_no_better_than_the_active_one_is_registered_but_not_activated(gate, tmp_path):
    outside = export_pipeline(SHIPPED, tmp_path / "exported")  # the same weights: a tie

    model = _register(outside)

    assert model.status == TrainedModel.Status.READY and model.source == "registered"
    assert not model.active
    assert "keep" in model.decision.lower() or "not" in model.decision.lower()
    gate_figures = model.metrics["gate"]
    assert gate_figures["candidate_f1"] == gate_figures["active_f1"]
    # the copy is what the tool reads, with its checksum recorded
    assert Path(model.path).parent == Path(tmp_path / "trained_models")
    assert json.loads((Path(model.path) / "training.json").read_text())["checksum_sha256"]


def test_a_better_model_brought_back_becomes_active(gate, tmp_path):
    worse = _register(_tiny_spacy_model(tmp_path))
    assert worse.status == TrainedModel.Status.READY and not worse.active
    TrainedModel.objects.filter(pk=worse.pk).update(active=True)  # a worse model is active

    better = _register(export_pipeline(SHIPPED, tmp_path / "exported"))

    assert better.active, better.decision
    worse.refresh_from_db()
    assert not worse.active


def test_a_tampered_model_is_refused_with_its_reason(gate, tmp_path):
    outside = tmp_path / "tampered"
    shutil.copytree(SHIPPED, outside)
    weights = outside / "biluo" / "model"
    weights.write_bytes(bytes(len(weights.read_bytes())))  # zeroed weights

    with pytest.raises(LearningError, match="SHA-256"):
        model_register_start(path=outside, user=None)
    assert not TrainedModel.objects.filter(active=True).exists()


def test_a_folder_that_is_no_pipeline_is_refused_with_a_sentence(gate, tmp_path):
    with pytest.raises(LearningError, match="no spaCy pipeline"):
        model_register_start(path=tmp_path, user=None)


def test_the_register_command_reports_the_gates_decision(gate, tmp_path):
    out = StringIO()
    call_command(
        "register_model", str(export_pipeline(SHIPPED, tmp_path / "e")), "--json", stdout=out
    )
    report = json.loads(out.getvalue())
    assert report["active"] is False and "candidate_f1" in report["gate"]
    with pytest.raises(CommandError, match="no spaCy pipeline"):
        call_command("register_model", str(tmp_path / "nothing-here"))


def test_train_detector_refuses_activate_for_the_domain_family_with_the_way_to_register(tmp_path):
    with pytest.raises(CommandError, match="register_model"):
        call_command("train_detector", "--out", str(tmp_path / "m"), "--activate")


def test_train_detector_refuses_a_docbin_given_as_json_lines_with_a_sentence(tmp_path):
    from engine.gold import GoldDoc
    from engine.pseudonymize.formats import to_docbin

    bad = tmp_path / "train.jsonl"
    bad.write_bytes(to_docbin([GoldDoc("a", "WITNESS: Nora Vance.\n", [])]))
    with pytest.raises(CommandError, match="is not text"):
        call_command("train_detector", "--out", str(tmp_path / "m"), "--from-gold", str(bad))


def test_the_learning_page_registers_a_model_folder_for_a_lead_only(
    gate, tmp_path, client, lead, annotator, django_capture_on_commit_callbacks
):
    from django.urls import reverse

    folder = export_pipeline(SHIPPED, tmp_path / "exported")
    client.force_login(annotator)
    assert (
        client.post(reverse("annotations:learning-register"), {"path": str(folder)}).status_code
        == 403
    )

    client.force_login(lead)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("annotations:learning-register"), {"path": str(folder)})
    assert response.status_code == 302
    model = TrainedModel.objects.get(source="registered")
    assert model.status == TrainedModel.Status.READY and model.created_by == lead
    page = client.get(reverse("annotations:learning")).content.decode()
    assert f'data-model-id="{model.pk}"' in page and model.decision[:40] in page

    response = client.post(
        reverse("annotations:learning-register"), {"path": str(tmp_path)}, follow=True
    )
    assert "no spaCy pipeline" in response.content.decode()
