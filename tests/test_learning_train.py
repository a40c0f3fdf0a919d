"""Training pipeline end to end on a tiny model (engine.learning.train, inference, detector)."""

import json
from collections import Counter

import pytest

from engine.detectors.base import Detection, Document
from engine.gold import GoldDoc, GoldSpan
from engine.learning.train import (
    TrainConfig,
    class_weights,
    labels_in,
    split_by_document,
    train,
)
from tests.learning_support import hearings, tiny_model_dir

SEEDS = (21, 22, 23, 24, 25)


def tiny_config(out, **overrides) -> TrainConfig:
    settings = dict(
        out_dir=str(out),
        base_model=str(tiny_model_dir()),
        epochs=2,
        batch_size=4,
        learning_rate=5e-3,
        max_length=128,
        stride=32,
        max_steps_per_epoch=6,
        seed=7,
        threads=1,
    )
    settings.update(overrides)
    return TrainConfig(**settings)


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """One tiny training run shared by the tests of this module."""
    out = tmp_path_factory.mktemp("trained")
    events = []
    result = train(
        list(hearings(SEEDS)), tiny_config(out), progress=lambda p: events.append(p.detail)
    )
    return out, result, events


def test_split_is_by_whole_document_and_the_same_for_a_seed():
    docs = [GoldDoc(f"d{i}", f"text {i}") for i in range(10)]
    train_a, val_a = split_by_document(docs, val_fraction=0.2, seed=1)
    train_b, val_b = split_by_document(list(reversed(docs)), val_fraction=0.2, seed=1)
    assert [d.id for d in val_a] == [d.id for d in val_b] and len(val_a) == 2
    assert {d.id for d in train_a} | {d.id for d in val_a} == {d.id for d in docs}
    assert not {d.id for d in train_a} & {d.id for d in val_a}
    assert split_by_document(docs[:1], val_fraction=0.2, seed=1) == (docs[:1], [])


def test_balanced_class_weights_follow_the_heuristic():
    counts = Counter({0: 90, 1: 9, 2: 1})  # O, B-X, I-X
    weights = class_weights(counts, 5, "balanced")
    assert weights[:3] == pytest.approx([100 / (3 * 90), 100 / (3 * 9), 100 / (3 * 1)])
    assert weights[3:] == [1.0, 1.0]  # tags never seen
    assert class_weights(counts, 3, "sqrt")[2] == pytest.approx((100 / 3) ** 0.5)
    assert class_weights(counts, 3, "none") == [1.0, 1.0, 1.0]


def test_labels_default_to_those_in_the_gold_in_canonical_order():
    doc = GoldDoc("d", "x" * 20, [GoldSpan(0, 2, "DATE"), GoldSpan(3, 5, "PERSON")])
    assert labels_in([doc]) == ["PERSON", "DATE"]


@pytest.mark.slow
def test_training_runs_end_to_end_and_saves_the_best_epoch_with_metrics_and_label_map(trained):
    out, result, events = trained
    assert (out / "config.json").is_file() and (out / "model.safetensors").is_file()
    assert (out / "tokenizer.json").is_file()
    info = json.loads((out / "training.json").read_text())
    config = json.loads((out / "config.json").read_text())
    tags = info["tags"]
    assert tags[0] == "O" and len(tags) == 1 + 2 * len(info["labels"])
    assert [config["id2label"][str(i)] for i in range(len(tags))] == tags
    assert set(info["labels"]) == {s.label for d in hearings(SEEDS) for s in d.spans}
    # Split by document: 4 train, 1 held out, disjoint.
    assert len(info["train_ids"]) == 4 and len(info["val_ids"]) == 1
    assert not set(info["train_ids"]) & set(info["val_ids"])
    # Per-epoch evaluation with per-label P/R/F1.
    assert [h["epoch"] for h in info["history"]] == [1, 2]
    for record in info["history"]:
        assert set(record["overall"]) == {"exact", "token"}
        for figures in record["labels"].values():
            assert {"p", "r", "f1"} <= set(figures["exact"])
    assert info["best_epoch"] == result.best_epoch in (1, 2)
    best = info["history"][result.best_epoch - 1]
    assert info["best"]["overall"] == best["overall"]
    # Progress reports epoch and loss.
    losses = [e["loss"] for e in events if e["phase"] == "train"]
    assert len(losses) == 12 and all(loss > 0 for loss in losses)
    assert [e["epoch"] for e in events if e["phase"] == "epoch"] == [1, 2]


@pytest.mark.slow
def test_training_is_deterministic_for_a_seed(trained, tmp_path):
    _out, first, _events = trained
    again = train(list(hearings(SEEDS)), tiny_config(tmp_path / "again"))
    assert [h["train_loss"] for h in again.history] == pytest.approx(
        [h["train_loss"] for h in first.history], rel=1e-6
    )
    assert [h["overall"] for h in again.history] == [h["overall"] for h in first.history]


@pytest.mark.slow
def test_early_stopping_stops_after_patience_epochs_without_improvement(tmp_path):
    # A learning rate of zero never improves on epoch 1: stop after 1 + patience epochs.
    result = train(
        list(hearings(SEEDS[:3])),
        tiny_config(tmp_path / "m", epochs=6, patience=1, learning_rate=0.0, max_steps_per_epoch=1),
    )
    assert result.stopped_early
    assert [h["epoch"] for h in result.history] == [1, 2]
    assert result.best_epoch == 1


@pytest.mark.slow
def test_trained_detector_returns_spans_in_character_offsets(trained):
    from engine.learning.detector import TrainedTransformerDetector, load_tagger
    from engine.learning.encoding import word_starts

    out, result, _events = trained
    doc = hearings((31,))[0]  # not seen in training
    detector = TrainedTransformerDetector(model_dir=str(out), min_score=0.0)
    detections = detector.detect(Document(doc.text))
    assert detections, "the trained model proposes spans"
    tagger = load_tagger(str(out))
    encoded, windows = tagger.windows(doc.text)
    assert len(windows) > 1  # a long text is tagged in several windows
    starts = word_starts(doc.text, encoded.offsets)
    word_edges = {encoded.offsets[i][0] for i, s in enumerate(starts) if s}
    for d in detections:
        assert isinstance(d, Detection) and d.detector == "trained"
        assert 0 <= d.start < d.end <= len(doc.text)
        mention = doc.text[d.start : d.end]
        assert mention == mention.strip() and mention  # characters of the text, no padding
        assert d.start in word_edges  # spans begin at a word, never inside one
        assert d.label in result.labels and 0.0 <= d.score <= 1.0
    # Loaded once per process: the same tagger object serves every detector instance.
    other = TrainedTransformerDetector(model_dir=str(out))
    other.ensure_loaded()
    assert other._tagger is tagger is detector._tagger
    # A higher threshold keeps a subset.
    strict = TrainedTransformerDetector(model_dir=str(out), min_score=0.9).detect(
        Document(doc.text)
    )
    assert set(strict) <= set(detections)


def test_detector_requires_a_model_dir():
    from engine.learning.detector import TrainedTransformerDetector

    with pytest.raises(ValueError, match="model_dir"):
        TrainedTransformerDetector()
