"""engine.learning.layout_gain: before and after retraining on approved transcripts of a
layout, scored on held-out ones that neither training nor selection saw."""

import json

import pytest
from django.core.management import CommandError, call_command

from engine.detectors.domain import SHIPPED_MODEL
from engine.gold import GoldDoc
from engine.learning import layout_gain
from engine.learning.domain import read_training, retrain_config
from engine.learning.layout_gain import GainConfig

TINY = GainConfig(
    layout="stt",
    seeds=2,
    approved=3,
    selection=1,
    test=2,
    words=300,
    recipe_hearings=2,
    recipe_words=300,
    variants=("reviews", "generated", "reviews3"),
)


class StandIn:
    """A trainer that remembers what it was given and a scorer whose trained model
    scores by how many approved (non-recipe) documents it was trained on."""

    def __init__(self):
        self.calls = []

    def trainer(self, train, selection, *, model_dir, out_dir, seed, config):
        self.calls.append({"train": [d.id for d in train], "selection": [d.id for d in selection]})
        approved = sum(1 for d in train if "-stt-" in d.id)
        return {"model_dir": f"trained:{approved}", "epochs": config.epochs, "head_started": True}

    def scorer(self, model_dir, docs):
        approved = int(model_dir.split(":")[1]) if model_dir.startswith("trained:") else 0
        mentions = sum(len(d.spans) for d in docs)
        tp = min(mentions, mentions // 2 + approved)
        f1 = tp / mentions
        return {
            "overall": {
                "exact": {"p": f1, "r": f1, "f1": f1, "tp": tp, "fp": 0, "fn": mentions - tp}
            }
        }


def test_run_reports_before_after_and_the_gains_spread_per_variant_as_json():
    stand_in = StandIn()
    result = layout_gain.run(TINY, trainer=stand_in.trainer, scorer=stand_in.scorer)
    again = json.loads(layout_gain.dumps(result))
    assert set(again) == {"config", "seeds", "summary", "seconds"}
    assert [row["seed"] for row in again["seeds"]] == [0, 1]
    for row in again["seeds"]:
        assert set(row["variants"]) == {"reviews", "generated", "reviews3"}
        for v in row["variants"].values():
            assert v["gain"] == pytest.approx(v["after"]["f1"] - row["before"]["f1"], abs=1e-4)
        # the control trains on generated text alone; the weighted one on more reviews
        assert row["variants"]["generated"]["gain"] == 0
        assert row["variants"]["reviews3"]["gain"] > row["variants"]["reviews"]["gain"] > 0
        # each test transcript's figures, summed to the micro figure
        docs = row["before"]["documents"]
        assert [d["id"] for d in docs] == row["sets"]["test"]
        assert sum(d["tp"] for d in docs) == row["before"]["tp"]
        assert {d["shape"] for d in docs} <= {"bracket", "numbered", "otter"}
    summary = again["summary"]["reviews"]
    assert set(summary) >= {"gain_mean", "gain_std", "gain_min", "gain_max", "before_mean"}
    assert summary["gain_min"] <= summary["gain_mean"] <= summary["gain_max"]
    assert set(summary["by_shape"]) == {
        d["shape"] for row in again["seeds"] for d in row["before"]["documents"]
    }


def test_training_selection_and_test_sets_are_disjoint_and_the_test_set_is_never_seen():
    stand_in = StandIn()
    result = layout_gain.run(TINY, trainer=stand_in.trainer, scorer=stand_in.scorer)
    tests = {i for row in result["seeds"] for i in row["sets"]["test"]}
    for row in result["seeds"]:
        sets = row["sets"]
        assert len(sets["approved_train"]) == 2 and len(sets["approved_selection"]) == 1
        train = set(sets["approved_train"]) | set(sets["recipe_train"])
        selection = set(sets["approved_selection"]) | set(sets["recipe_selection"])
        assert not train & selection and not train & tests and not selection & tests
    for call in stand_in.calls:
        assert not set(call["train"]) & tests and not set(call["selection"]) & tests
        assert not set(call["train"]) & set(call["selection"])
        assert any("-stt-" in i for i in call["selection"])  # approved ones select


def test_a_document_in_two_sets_is_refused():
    doc = GoldDoc("a", "SPEAKER 1: hello", [])
    other = GoldDoc("b", "SPEAKER 1: hello", [])
    with pytest.raises(ValueError, match="both"):
        layout_gain.check_disjoint({"train": [doc], "test": [other]})
    layout_gain.check_disjoint({"train": [doc], "test": [GoldDoc("c", "another", [])]})


def test_the_retraining_recipe_starts_from_the_models_head_with_every_label_it_knows():
    config = retrain_config(
        str(SHIPPED_MODEL), out_dir="/tmp/x", seed=2, max_epochs=3, max_seconds=10.0
    )
    record = read_training(SHIPPED_MODEL)
    assert config.head_from == str(SHIPPED_MODEL) and config.frozen
    assert list(config.labels) == record["labels"]
    assert (config.max_epochs, config.max_seconds, config.seed) == (3, 10.0, 2)
    assert config.batch_size == record["recipe"]["batch_size"]


def test_an_unknown_variant_or_layout_is_refused_before_any_training():
    with pytest.raises(ValueError, match="variant"):
        layout_gain.run(GainConfig(variants=("reviews", "more")))
    with pytest.raises(CommandError, match="Unknown layout"):
        call_command("bench_layout_gain", "--layout", "fax")


@pytest.mark.slow
def test_a_short_real_retraining_scores_the_model_before_and_after(tmp_path):
    config = GainConfig(
        layout="stt",
        seeds=1,
        approved=2,
        test=1,
        words=400,
        recipe_hearings=1,
        recipe_words=800,
        epochs=1,
        cpu_seconds=30.0,
        variants=("reviews",),
    )
    row = layout_gain.run(config)["seeds"][0]
    assert row["test_mentions"] > 0
    assert 0 <= row["variants"]["reviews"]["after"]["f1"] <= 1
    assert row["variants"]["reviews"]["training"]["epochs"] == 1
