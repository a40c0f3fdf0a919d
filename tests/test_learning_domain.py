"""engine.learning.domain: the spaCy domain model trained on the CPU, written atomically."""

import json
from pathlib import Path

import pytest

from engine.detectors.base import Document
from engine.detectors.domain import SHIPPED_MODEL, DomainDetector, shared_base
from engine.detectors.heads import tok2vec_sha256
from engine.detectors.nlp import load_spacy
from engine.gold import GoldDoc, GoldSpan
from engine.learning import domain, domain_recipe
from engine.learning.biluo import tag_labels
from engine.learning.domain import DomainConfig, chunks, train_domain, weights_checksum
from engine.progress import Cancelled
from tests.learning_support import hearings

# A tiny run: two short hearings, a few epochs on one thread.
TINY = {"max_epochs": 6, "max_seconds": 120, "batch_size": 2, "chunk_chars": 800}


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory):
    train, dev = list(hearings((51, 52))), list(hearings((61,)))
    reports = []
    out = tmp_path_factory.mktemp("domain") / "model"
    result = train_domain(
        train,
        dev,
        config=DomainConfig(out_dir=str(out), seed=3, **TINY),
        progress=reports.append,
        meta={"seeds": [51, 52]},
    )
    return result, reports, train


@pytest.mark.slow
def test_training_on_a_tiny_generated_set_gives_a_loadable_model_whose_detector_finds_spans(
    tiny_model,
):
    result, reports, train = tiny_model
    model_dir = Path(result.model_dir)
    info = json.loads((model_dir / "training.json").read_text())
    assert info["checksum_sha256"] == weights_checksum(model_dir)
    assert info["seed"] == 3 and info["data"]["seeds"] == [51, 52]
    assert info["data"]["train_documents"] == 2 and info["data"]["spans"] > 50
    assert "PERSON" in info["labels"] and info["pretrained_tok2vec"] == domain.DEFAULT_BASE
    # trained on the base's ner vectors, frozen: the shared parse may run its head
    assert info["shared_tok2vec"]["sha256"] == tok2vec_sha256(load_spacy(domain.DEFAULT_BASE))
    assert shared_base(model_dir) == domain.DEFAULT_BASE
    assert result.history and result.training_s > 0 and result.best_epoch >= 1
    assert set(result.figures["overall"]) == {"exact", "token"}
    # progress: a line with the elapsed time and an estimate, then each epoch's figure
    lines = [r.message for r in reports]
    assert any("elapsed" in m and "ETA" in m for m in lines)
    assert any(m.startswith("epoch 1 done: held-out exact F1") for m in lines)
    # a new process-wide load of that directory finds spans on a document it learnt from
    found = DomainDetector(model_dir).detect(Document(train[0].text))
    assert found and all(d.detector == "domain" for d in found)
    gold = {(s.start, s.end, s.label) for s in train[0].spans}
    assert {(d.start, d.end, d.label) for d in found} & gold


@pytest.mark.slow
def test_the_same_seed_trains_the_same_weights(tmp_path):
    docs = list(hearings((51,)))
    config = {"seed": 5, "max_epochs": 1, "max_seconds": 60, "chunk_chars": 800}
    a = train_domain(docs, [], config=DomainConfig(out_dir=str(tmp_path / "a"), **config))
    b = train_domain(docs, [], config=DomainConfig(out_dir=str(tmp_path / "b"), **config))
    assert weights_checksum(a.model_dir) == weights_checksum(b.model_dir)


@pytest.mark.slow
def test_a_retraining_starts_its_head_from_the_model_it_names(tiny_model):
    import spacy

    from engine.learning.biluo import HEAD, head_component

    result, _reports, train = tiny_model
    labels = domain.read_training(result.model_dir)["labels"]
    tokenizer = spacy.load(domain.DEFAULT_BASE, exclude=domain._BASE_PIPES)
    config = DomainConfig()
    examples, _ = domain._examples(tokenizer, train, labels, 800)
    examples = domain.training_examples(examples, config)

    def head_weights(nlp):
        name, head = head_component(nlp)
        assert name == HEAD  # the default head: a BILUO tagger
        return head.model.to_bytes()

    fresh = head_weights(domain.build_pipeline(config, labels, examples))
    warm = domain.build_pipeline(DomainConfig(head_from=result.model_dir), labels, examples)
    trained = head_weights(spacy.load(result.model_dir))
    assert head_weights(warm) == trained
    assert trained != fresh
    # another label set: the head starts fresh (the shapes would not match)
    few, _ = domain._examples(tokenizer, train, labels[:2], 800)
    few = domain.training_examples(few, config)
    other = domain.build_pipeline(DomainConfig(head_from=result.model_dir), labels[:2], few)
    assert tuple(head_component(other)[1].labels) == tuple(tag_labels(labels[:2]))
    assert head_weights(other) != trained


@pytest.mark.slow
def test_a_retraining_cut_short_never_keeps_a_head_worse_than_its_start(tiny_model, tmp_path):
    result, _reports, train = tiny_model
    dev = list(hearings((61,)))
    config = DomainConfig(
        out_dir=str(tmp_path / "m"), head_from=result.model_dir, max_epochs=1, max_seconds=0
    )
    again = train_domain(train, dev, config=config)
    start = again.history[0]
    assert start["epoch"] == 0 and start["f1"] > 0  # the named head, scored before training
    assert again.figures["overall"]["exact"]["f1"] >= start["f1"]
    assert again.best_epoch in (0, 1)


@pytest.mark.slow
def test_the_frozen_vectors_are_the_bases_before_and_after_training(tiny_model):
    import spacy

    from engine.detectors.heads import ner_tok2vec

    result, _reports, _train = tiny_model
    saved = spacy.load(result.model_dir).get_pipe("tok2vec").model.to_bytes()
    assert saved == ner_tok2vec(load_spacy(domain.DEFAULT_BASE)).to_bytes()


@pytest.mark.slow
def test_a_model_of_the_older_kind_fine_tunes_the_bases_tok2vec(tmp_path):
    docs = list(hearings((51,)))
    config = DomainConfig(out_dir=str(tmp_path / "m"), frozen=False, max_epochs=1, chunk_chars=800)
    result = train_domain(docs, [], config=config)
    info = domain.read_training(result.model_dir)
    assert info["shared_tok2vec"] is None and shared_base(result.model_dir) is None
    assert DomainDetector(result.model_dir).detect(Document(docs[0].text)) is not None


def test_an_exception_from_the_progress_callback_leaves_no_model_directory(tmp_path):
    out = tmp_path / "models" / "domain"
    calls = []

    def cancel(report):
        calls.append(report)
        if report.detail.get("phase") == "train":
            raise Cancelled("cancelled by the lead")

    with pytest.raises(Cancelled):
        train_domain(
            list(hearings((51,))),
            [],
            config=DomainConfig(out_dir=str(out), max_epochs=1, report_every=1),
            progress=cancel,
        )
    assert calls and not out.exists()
    assert not out.parent.exists() or list(out.parent.iterdir()) == []  # no temporary one


def test_an_exception_while_writing_keeps_the_previous_model_whole(tmp_path, monkeypatch):
    out = tmp_path / "domain"
    out.mkdir()
    (out / "config.cfg").write_text("the previous model")

    def broken(nlp, record, out_dir):
        raise OSError("disk full")

    monkeypatch.setattr(domain, "weights_checksum", lambda path: broken(None, None, None))
    with pytest.raises(OSError):
        train_domain(
            list(hearings((51,))),
            [],
            config=DomainConfig(out_dir=str(out), max_epochs=1, max_seconds=30),
        )
    assert (out / "config.cfg").read_text() == "the previous model"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["domain"]


def test_swapping_names_renames_each_person_word_alike_in_its_case_and_moves_the_spans():
    import random

    text = "JUAN SKINNER: Yes. Mr. Skinner said Juan left Fresno.\n"
    at = [
        (0, 12, "PERSON"),
        (text.index("Skinner"), text.index("Skinner") + 7, "PERSON"),
        (text.index("Juan left"), text.index("Juan left") + 4, "PERSON"),
        (text.index("Fresno"), text.index("Fresno") + 6, "LOCATION"),
    ]
    new, moved = domain.swap_names(text, at, random.Random(1), ["Pena", "Cheryl", "Fry"])
    words = [new[s:e] for s, e, _ in moved]
    assert words[0].isupper() and words[0].split()[1].title() == words[1]
    assert words[0].split()[0].title() == words[2] and words[3] == "Fresno"
    assert "Skinner" not in new and "JUAN" not in new and new.startswith(words[0] + ": Yes. Mr. ")
    assert [label for *_, label in moved] == ["PERSON", "PERSON", "PERSON", "LOCATION"]


def test_chunks_end_at_line_breaks_and_never_cut_a_span():
    text = "Ann Lee\nspoke to\nBob\nRay today.\n" * 3
    doc = GoldDoc("d", text, [GoldSpan(17, 28, "PERSON")])  # "Bob\nRay" across a break
    pieces = chunks(doc, 10)
    assert "".join(text[s:e] for s, e in pieces) == text
    assert all(text[e - 1] == "\n" for s, e in pieces)
    assert not any(s < 17 < e < 28 or 17 < s < 28 for s, e in pieces)


def test_the_recipe_seeds_are_disjoint_from_the_evaluation_seeds():
    plan = domain_recipe.recipe_plan()
    seeds = [seed for seed, _ in plan["train"] + plan["dev"]]
    assert len(set(seeds)) == len(seeds) and min(seeds) >= 70000
    assert plan["words"] == 15000 and len(plan["train"]) == 10


def test_the_shipped_model_matches_its_recorded_checksum_and_recipe():
    info = domain.read_training(SHIPPED_MODEL)
    assert info["checksum_sha256"] == weights_checksum(SHIPPED_MODEL)
    assert info["data"]["seeds"] and min(info["data"]["seeds"]) >= 70000
    assert info["pretrained_tok2vec"] == domain.DEFAULT_BASE
    assert info["recipe"]["frozen"] and shared_base(SHIPPED_MODEL) == domain.DEFAULT_BASE
    size = sum(p.stat().st_size for p in SHIPPED_MODEL.rglob("*") if p.is_file())
    assert size <= 50 * 1024 * 1024


@pytest.mark.slow
def test_a_transition_based_head_of_the_older_kind_still_trains_and_reads_the_shared_parse(
    tmp_path,
):
    from engine.detectors.heads import head_spans
    from engine.learning.biluo import NER, head_component

    train = list(hearings((51,)))
    config = DomainConfig(out_dir=str(tmp_path / "ner"), head="ner", max_epochs=1, chunk_chars=800)
    result = train_domain(train, [], config=config)
    assert head_component(spacy_load(result.model_dir))[0] == NER
    detector = DomainDetector(result.model_dir)
    document = Document(train[0].text[:4000])
    detector.prepare(document)
    found = detector.detect(document)
    assert head_spans(document, detector.key) is not None  # ran inside the shared parse
    assert {(d.start, d.end) for d in found} == {
        (s, e) for s, e, _label in domain.predict(detector.nlp, train[0].text[:4000])
    }


def spacy_load(path):
    import spacy

    return spacy.load(path)
