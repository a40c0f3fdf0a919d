"""``manage.py measure``: the dashboard's figures on the command line."""

import io
import json

from django.core.management import call_command

from annotations.services import measurements
from tests.factories import make_suggestion, make_transcript
from transcripts.models import Transcript


def approved_transcript():
    t = make_transcript("ALDEN: Mr. Quill lives here.\n", state=Transcript.State.APPROVED)
    for word, status, score in (
        ("ALDEN", "accepted", 1.0),
        ("Quill", "accepted", 1.0),
        ("lives", "rejected", 0.7),  # proposed on its own (not cut from "Quill lives")
    ):
        start = t.text.index(word)
        make_suggestion(t, start, start + len(word), "PERSON", score=score, status=status)
    return t


def test_measure_counts_whole_mentions_and_gives_name_parts_as_a_labelled_second_figure(db):
    # Tables 3 and 6 counted PERSON as name parts while evaluate, the datasheet and
    # agreement count whole mentions.
    t = make_transcript("ALDEN: Shannon Perry met Ann.\n", state=Transcript.State.APPROVED)
    for word in ("Shannon", "Perry"):  # one proposed name, stored as its two parts
        start = t.text.index(word)
        make_suggestion(t, start, start + len(word), "PERSON", status="accepted")
    out = io.StringIO()
    call_command("measure", "--no-ablation", "--json", stdout=out)
    snapshot = json.loads(out.getvalue())
    assert snapshot["mentions"] == "whole"
    assert snapshot["table3"]["overall"]["exact"]["tp"] == 1
    assert snapshot["corpus"]["entities"] == 1
    assert snapshot["table3_name_parts"]["overall"]["exact"]["tp"] == 2
    assert snapshot["corpus_name_parts"] == {"entities": 2, "labels": {"PERSON": 2}}
    text = io.StringIO()
    call_command("measure", "--no-ablation", stdout=text, stderr=io.StringIO())
    assert "Counted as name parts (the paper's tags): exact F1 1.000 over 2 gold spans" in (
        text.getvalue()
    )


def test_measure_prints_the_snapshot_as_json_and_saves_it(db):
    approved_transcript()
    out = io.StringIO()
    call_command("measure", "--no-ablation", "--json", "--save", stdout=out)
    snapshot = json.loads(out.getvalue())
    assert snapshot["table3"]["overall"]["exact"]["tp"] == 2
    assert snapshot["table3"]["overall"]["exact"]["fp"] == 1
    assert snapshot["table8"]["available"] is False
    assert measurements.dashboard_latest().result["table3"] == snapshot["table3"]


def test_measure_prints_readable_tables(db):
    approved_transcript()
    out = io.StringIO()
    call_command("measure", "--no-ablation", stdout=out, stderr=io.StringIO())
    text = out.getvalue()
    assert "Table 3" in text and "overall\texact\t0.667\t1.000\t0.800\t2\t1\t0" in text
    assert "not available" in text


def test_measure_prints_decisions_by_kind_time_on_task_and_agreement_references(db, annotator):
    from annotations.services import review
    from annotations.services import workflow as wf

    t = make_transcript("ALDEN: Mr. Quill met Ann.\n", assignees=[annotator])
    spans = []
    for word in ("met", "Quill", "Ann"):
        start = t.text.index(word)
        spans.append(make_suggestion(t, start, start + len(word), "PERSON", detectors=["spacy"]))
    start = t.text.index("ALDEN")
    make_suggestion(t, start, start + 5, "PERSON", detectors=["cover"], status="accepted")
    wf.transcript_start_review(transcript=t, actor=annotator)
    review.span_reject(span=spans[0], actor=annotator)
    review.spans_accept_all(transcript=t, actor=annotator, label="PERSON")
    wf.transcript_submit(transcript=t, actor=annotator)
    out = io.StringIO()
    call_command("measure", "--no-ablation", stdout=out, stderr=io.StringIO())
    text = out.getvalue()
    effort = text.split("Reviewer effort")[1]
    header, _all, row = effort.strip().splitlines()[:3]
    cells = dict(zip(header.split("\t"), row.split("\t"), strict=True))
    assert (cells["one_by_one_actions"], cells["one_by_one_spans"]) == ("1", "1")
    assert (cells["label_actions"], cells["label_spans"]) == ("1", "2")
    assert cells["spans_decided"] == "3" and "active_seconds" in cells
    assert "fleiss_kappa" in text and "reference: SweLL" in text
