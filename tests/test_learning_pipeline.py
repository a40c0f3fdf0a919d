"""The domain model leaves the tool as a standard spaCy pipeline, and a model is scored
on its own (``evaluate --model``), as ``spacy evaluate`` would score it."""

import json
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from engine.gold import write_jsonl
from engine.learning.pipeline import NotADomainModel, export_pipeline
from engine.synthetic import generate_hearing

pytestmark = pytest.mark.slow

SHIPPED = Path(__file__).resolve().parent.parent / "engine" / "models" / "domain"
TEXT = (
    "PRESIDING COMMISSIONER SMITH: Mr. Daniel Young, you were born on May 3, 1971 "
    "in Fresno, California. Your CDCR number is AK2960."
)


def test_an_exported_domain_model_gives_doc_ents_with_plain_spacy_load_in_a_fresh_process(
    tmp_path,
):
    out = export_pipeline(SHIPPED, tmp_path / "domain")
    script = (
        "import json, sys, spacy\n"
        "nlp = spacy.load(sys.argv[1])\n"
        "doc = nlp(sys.argv[2])\n"
        "print(json.dumps([[e.text, e.label_] for e in doc.ents]))\n"
    )
    # a fresh interpreter outside the project folder: only the installed package's
    # entry points tell spaCy what the head and its input layer are
    done = subprocess.run(
        [sys.executable, "-c", script, str(out), TEXT],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    ents = [tuple(e) for e in json.loads(done.stdout.strip().splitlines()[-1])]
    assert ("Daniel Young", "PERSON") in ents
    assert ("AK2960", "CDCR_ID") in ents
    meta = json.loads((out / "meta.json").read_text())
    assert "PERSON" in meta["labels"]["ner"]


def test_export_refuses_a_folder_without_the_tagger_head(tmp_path):
    import spacy

    plain = tmp_path / "plain"
    spacy.blank("en").to_disk(plain)
    with pytest.raises(NotADomainModel):
        export_pipeline(plain, tmp_path / "out")


def test_evaluate_model_scores_the_models_own_entities_as_the_training_report_does(tmp_path):
    from annotations.management.domain_training import score

    hearing = generate_hearing(4242, words=2500)
    gold = tmp_path / "gold.jsonl"
    write_jsonl([hearing.gold], gold)
    out = StringIO()

    call_command("evaluate", "--gold", str(gold), "--model", str(SHIPPED), "--json", stdout=out)

    report = json.loads(out.getvalue())
    training = json.loads((SHIPPED / "training.json").read_text())
    reported = score(str(SHIPPED), [hearing.gold], training["labels"])
    assert report["overall"]["exact"]["f1"] == pytest.approx(
        reported["figures"]["overall"]["exact"]["f1"], abs=0.005
    )
    assert report["overall"]["exact"]["f1"] > 0.8  # the model alone (through the vote: 0.09)
    assert "PERSON" in report["labels_scored"]


def test_evaluate_model_scores_an_exported_pipeline_the_same(tmp_path):
    hearing = generate_hearing(4243, words=1500)
    gold = tmp_path / "gold.jsonl"
    write_jsonl([hearing.gold], gold)
    exported = export_pipeline(SHIPPED, tmp_path / "domain")
    figures = []
    for model in (SHIPPED, exported):
        out = StringIO()
        call_command("evaluate", "--gold", str(gold), "--model", str(model), "--json", stdout=out)
        figures.append(json.loads(out.getvalue())["overall"]["exact"])
    assert figures[0] == figures[1]


def test_evaluate_model_refuses_a_folder_that_is_no_pipeline(tmp_path):
    gold = tmp_path / "gold.jsonl"
    write_jsonl([generate_hearing(1, words=300).gold], gold)
    with pytest.raises(CommandError, match="no spaCy pipeline"):
        call_command("evaluate", "--gold", str(gold), "--model", str(tmp_path))


@pytest.mark.django_db
def test_export_model_command_writes_the_active_or_shipped_model_and_refuses_an_existing_folder(
    tmp_path,
):
    out = StringIO()
    call_command("export_model", "--out", str(tmp_path / "m"), stdout=out)
    assert (tmp_path / "m" / "config.cfg").is_file()
    assert 'factory = "anonreview_biluo"' in (tmp_path / "m" / "config.cfg").read_text()
    with pytest.raises(CommandError, match="exists"):
        call_command("export_model", "--out", str(tmp_path / "m"))


@pytest.mark.django_db
def test_spacy_train_accepts_the_exported_config_and_docbins_as_they_are(tmp_path):
    """A researcher's path: export the split gold with its config, run spaCy's own
    ``spacy train`` in that folder, score the result with ``evaluate --model``."""
    from tests.factories import make_suggestion, make_transcript, make_user

    make_user("boss", role="lead")
    for i, (name, town) in enumerate([("Nora Vance", "Fresno"), ("Ike Ruiz", "Chico")] * 3):
        text = f"WITNESS: My name is {name} and I live in {town}. Case {i}.\n"
        t = make_transcript(text, state="approved")
        for word, label in ((name, "PERSON"), (town, "LOCATION")):
            start = text.index(word)
            make_suggestion(t, start, start + len(word), label, status="accepted")
    out = tmp_path / "export"
    call_command(
        "export_gold",
        "--format",
        "spacy",
        "--out",
        str(out),
        "--split",
        "50,25,25",
        "--seed",
        "3",
        "--actor",
        "boss",
        stdout=StringIO(),
    )
    assert (out / "config.cfg").is_file()

    done = subprocess.run(
        [
            sys.executable, "-m", "spacy", "train", "config.cfg", "--output", "model",
            "--training.max_steps", "4", "--training.eval_frequency", "2",
        ],
        cwd=out, capture_output=True, text=True, timeout=900,
    )  # fmt: skip

    assert done.returncode == 0, done.stderr[-3000:]
    report = StringIO()
    call_command("export_gold", "--format", "jsonl", "--out", str(out / "all.jsonl"),
                 "--actor", "boss", stdout=StringIO())  # fmt: skip
    call_command(
        "evaluate", "--gold", str(out / "all.jsonl"), "--model", str(out / "model" / "model-best"),
        "--json", stdout=report,
    )  # fmt: skip
    scored = json.loads(report.getvalue())
    assert scored["labels_scored"] == ["LOCATION", "PERSON"]
    assert scored["documents"] == 6
