"""Gold data as a researcher loads it: a generated 15,000-word
hearing imported from its PDF, reviewed as its gold says, approved, exported in every
format, read back with each format's standard reader (``json``, spaCy's ``DocBin``,
spaCy's CoNLL-2003 reader, ``json`` for SVALA) — every whole mention of the generator's
gold comes back exactly — and one spaCy training update on the DocBin."""

from __future__ import annotations

import json

import pytest

from annotations.services import workflow as wf
from annotations.services.annotation import ensemble_build, transcript_annotate
from annotations.services.export import gold_export
from annotations.services.scripted_review import transcript_review_from_gold
from engine.synthetic import generate_hearing, render_pdf_bytes
from tests.factories import make_user
from tests.test_scripted_review import LIGHT  # the model-free detectors
from transcripts.services.importing import transcript_import

pytestmark = pytest.mark.django_db


@pytest.fixture
def approved_hearing(settings):
    settings.DETECTORS = LIGHT
    annotator, lead = make_user("ann"), make_user("boss", role="lead")
    hearing = generate_hearing(
        1, words=15000
    )  # seeds 2, 3, 5: surnames "Long"/"Good" the leak check reports
    t = transcript_import(
        name="h.pdf", data=render_pdf_bytes(hearing), assignees=[annotator], annotate=False
    )
    transcript_annotate(transcript=t, ensemble=ensemble_build())
    transcript_review_from_gold(transcript=t, gold=hearing.gold, annotator=annotator)
    try:
        wf.transcript_approve(transcript=t, actor=lead)
    except wf.LeakCheckFailed:  # the light detectors' review may leave a reported finding
        wf.transcript_transition(transcript=t, target="approved", actor=lead)
    t.refresh_from_db()
    shift = t.text.index(hearing.text)
    gold = sorted((s.start + shift, s.end + shift, s.label) for s in hearing.gold.spans)
    return t, lead, gold


def test_every_format_loads_with_its_reader_and_gives_the_generators_whole_mentions(
    approved_hearing,
):
    t, lead, gold = approved_hearing
    persons = [g for g in gold if g[2] == "PERSON"]
    assert len(gold) > 1200 and sum(" " in t.text[s:e] for s, e, _ in persons) > 300

    # JSON Lines: plain json
    (line,) = gold_export(transcripts=[t], fmt="jsonl", actor=lead).decode().splitlines()
    doc = json.loads(line)
    assert sorted((s["start"], s["end"], s["label"]) for s in doc["spans"]) == gold
    assert (doc["id"], doc["meta"]["transcript"], doc["meta"]["title"]) == (
        f"transcript-{t.pk}",
        t.pk,
        t.title,
    )

    # spaCy DocBin
    import spacy
    from spacy.tokens import DocBin

    nlp = spacy.blank("en")
    data = gold_export(transcripts=[t], fmt="spacy", actor=lead)
    (sdoc,) = DocBin().from_bytes(data).get_docs(nlp.vocab)
    assert sdoc.text == t.text
    assert sorted((e.start_char, e.end_char, e.label_) for e in sdoc.ents) == gold
    assert sdoc.user_data["id"] == f"transcript-{t.pk}" and sdoc.user_data["title"] == t.title

    # CoNLL: spaCy's CoNLL-2003 reader, the "# " identity lines dropped first
    from spacy.training.converters import conll_ner_to_docs

    conll = gold_export(transcripts=[t], fmt="conll", actor=lead).decode()
    assert f"# id = transcript-{t.pk}\n" in conll and f"# title = {t.title}\n" in conll
    body = "\n".join(x for x in conll.splitlines() if not x.startswith("# "))
    (cdoc,) = conll_ner_to_docs(body, n_sents=0, no_print=True)
    squeezed = [("".join(t.text[s:e].split()), label) for s, e, label in gold]
    assert [("".join(e.text.split()), e.label_) for e in cdoc.ents] == squeezed

    # SVALA JSON: one labelled edge per whole mention
    svala = json.loads(gold_export(transcripts=[t], fmt="svala", actor=lead))[0]
    assert "".join(tok["text"] for tok in svala["source"]) == t.text
    edges = [e for e in svala["edges"].values() if e["labels"]]
    assert len(edges) == len(gold) and svala["id"] == f"transcript-{t.pk}"

    # Name parts on request: more PERSON spans, none containing a space
    (line,) = (
        gold_export(transcripts=[t], fmt="jsonl", actor=lead, name_parts=True).decode().splitlines()
    )
    parts = [s for s in json.loads(line)["spans"] if s["label"] == "PERSON"]
    assert len(parts) > len(persons)
    assert not any(" " in t.text[s["start"] : s["end"]] for s in parts)

    # One spaCy training update on the DocBin
    from spacy.training import Example

    nlp.add_pipe("ner")
    examples = [Example(nlp.make_doc(sdoc.text), sdoc)]
    optimizer = nlp.initialize(lambda: examples)
    losses: dict = {}
    nlp.update(examples, sgd=optimizer, losses=losses)
    assert losses["ner"] > 0


def test_hf_export_reads_back_as_tokens_and_ner_tags_with_a_dataset_card(
    approved_hearing, tmp_path
):
    """The Hugging Face export: one record per utterance, tokens as the datasheet counts
    them, BIO tag ids into the card's label names; the whole mentions come back."""
    import yaml
    from django.core.management import call_command

    t, lead, gold = approved_hearing
    out = tmp_path / "hf"
    call_command(
        "export_gold", "--format", "hf", "--out", str(out), "--split", "100,0,0", "--seed", "1",
        "--actor", lead.username,
    )  # fmt: skip
    card = (out / "README.md").read_text().split("---")[1]
    meta = yaml.safe_load(card)
    names = meta["dataset_info"]["features"][3]["sequence"]["class_label"]["names"]
    names = [names[k] for k in sorted(names, key=int)]
    assert names[0] == "O" and "B-PERSON" in names
    assert meta["configs"][0]["data_files"][0] == {"split": "train", "path": "train.jsonl"}
    records = [json.loads(line) for line in (out / "train.jsonl").read_text().splitlines()]
    assert all(len(r["tokens"]) == len(r["ner_tags"]) for r in records)
    sheet = json.loads((out / "datasheet.json").read_text())
    assert sum(len(r["tokens"]) for r in records) == sheet["total"]["tokens"]
    mentions = sum(1 for r in records for tag in r["ner_tags"] if names[tag].startswith("B-"))
    assert mentions == len(gold)
