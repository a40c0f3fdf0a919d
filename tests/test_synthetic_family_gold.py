"""Every layout family writes gold whose offsets are exact in the imported canonical text."""

import json

import pytest
from django.core.management import call_command

from engine.gold import read_jsonl
from engine.importing import parse_pdf, parse_text
from engine.labels import PERSON, TIME
from engine.spans import shape
from engine.synthetic.families import FAMILIES, family_document
from engine.synthetic.family_render import render_pdf, render_text

OTHER = [f for f in FAMILIES if f != "bph"]


def _spans(gold):
    return [(s, e, label, gold.text[s:e]) for s, e, label in map(shape, gold.spans)]


@pytest.mark.parametrize("seed", [2, 11])
@pytest.mark.parametrize("family", OTHER)
def test_family_gold_text_is_the_imported_text_of_its_text_export(family, seed):
    doc = family_document(seed, family, words=900)
    assert doc.gold is not None and doc.gold.spans
    assert parse_text(render_text(doc).encode()).text == doc.gold.text


@pytest.mark.parametrize("family", OTHER)
def test_family_gold_text_is_the_imported_text_of_its_pdf(family):
    # bph2009 before: its certification's "14  8:20 AM" kept the margin number "14" as
    # text start (digits after the number), so the time ran into the date line.
    doc = family_document(4, family, words=900)
    assert parse_pdf(render_pdf(doc)).text == doc.gold.text


def test_a_line_whose_text_starts_with_digits_loses_only_its_margin_number_in_both_readers():
    from engine.importing.parse import parse_pages
    from engine.importing.pdf import plumber_pages

    doc = family_document(6, "bph2009", words=700)
    data = render_pdf(doc)
    assert parse_pages(plumber_pages(data), source_format="pdf").text == doc.gold.text
    assert parse_pdf(data).text == doc.gold.text


@pytest.mark.parametrize("family", ["federal", "appellate"])
def test_family_gold_marks_the_name_in_every_named_speaker_tag(family):
    doc = family_document(6, family, words=900)
    text = doc.gold.text
    persons = {(s, e) for s, e, label, _ in _spans(doc.gold) if label == PERSON}
    start = 0
    tagged = 0
    for line in text.split("\n"):
        speaker, sep, _ = line.partition(": ")
        if sep and speaker.isupper() and speaker != "THE COURT":
            name = speaker.split()[-1]
            end = start + len(speaker)
            assert (end - len(name), end) in persons or (start, end) in persons, speaker
            tagged += 1
        start += len(line) + 1
    assert tagged > 5


def test_federal_gold_holds_each_juror_given_name_and_the_witness_as_persons():
    doc = family_document(7, "federal", words=900)
    surfaces = [t for *_, label, t in _spans(doc.gold) if label == PERSON]
    for speaker, text in doc.turns:
        if speaker.startswith("JUROR "):
            said = text.removeprefix("My name is ").split(".")[0]
            assert said in surfaces and speaker.removeprefix("JUROR ") in surfaces
    witness = next(s for s, _ in doc.turns if not s.startswith(("JUROR", "THE", "MR.", "MS.")))
    assert surfaces.count(witness) >= 2  # the swearing-in line and every answer's tag


def test_appellate_gold_holds_the_submission_time():
    doc = family_document(3, "appellate", words=700)
    times = [t for *_, label, t in _spans(doc.gold) if label == TIME]
    # the submission time last; before it, the record's military times (unseen.py)
    assert times[-1].endswith("a.m.") and times[-1].startswith("11:")
    assert all(t[:1].isdigit() or t.endswith("hours") for t in times[:-1])


def test_bph2009_gold_is_the_hearing_gold_under_its_own_id():
    from engine.synthetic import generate_hearing

    doc = family_document(5, "bph2009", words=900)
    hearing = generate_hearing(5, words=900)
    assert doc.gold.id == "bph2009-00005" and doc.gold.meta["layout"] == "bph2009"
    assert doc.gold.text == hearing.text and list(doc.gold.spans) == list(hearing.gold.spans)


@pytest.mark.parametrize("family", OTHER)
def test_generate_synthetic_writes_gold_for_every_family(family, tmp_path, capsys):
    call_command(
        "generate_synthetic",
        "--layout",
        family,
        "--n",
        "2",
        "--seed",
        "30",
        "--words",
        "600",
        "--out",
        str(tmp_path),
        "--json",
    )
    summary = json.loads(capsys.readouterr().out)
    docs = read_jsonl(tmp_path / "gold.jsonl")
    assert [d.id for d in docs] == [f"{family}-00030", f"{family}-00031"]
    assert summary["gold"] == str(tmp_path / "gold.jsonl")
    for doc, entry in zip(docs, summary["files"], strict=True):
        raw = (tmp_path / f"{doc.id}.txt").read_bytes()
        assert parse_text(raw).text == doc.text
        assert entry["spans"] == len(doc.spans) > 0
        assert doc.meta["layout"] == family and doc.meta["source"] == "synthetic"


@pytest.mark.parametrize("family", ["grand_jury", "deposition"])
@pytest.mark.parametrize("seed", [1, 8])
def test_testimony_family_holds_its_hard_cases_as_gold_of_the_right_label(family, seed):
    import re

    doc = family_document(seed, family, words=1500)
    gold = {(s, e): label for s, e, label, _ in _spans(doc.gold)}
    text = doc.gold.text
    expected = {
        "ocr_day": ("DATE", r"\d*l\d*(?:st|nd|rd|th)"),
        "military_time": ("TIME", r"0\d{3}"),
        "st_county": ("LOCATION", r"St\. [A-Z][a-z]+ County"),
        "two_word_street": (
            "LOCATION",
            r"\d+ [A-Z][a-z]+ [A-Z][a-z]+ (?:Road|Lane|Drive|Court|Way)",
        ),
        "swearing_in": ("PERSON", r"[A-Z]+ [A-Z]+"),
        "examiner_change": ("PERSON", r"[A-Z]+"),
        "word_street": ("LOCATION", r"[A-Z][a-z]+ Street"),
        "short_surname": ("PERSON", r"[A-Z][a-z]{1,2}"),
        "town_in_speech": ("LOCATION", r"[A-Z][a-z]+"),
        "word_given_name": ("PERSON", r"[A-Z]+"),
    }
    for case, (label, surface) in expected.items():
        found = doc.hard_cases[case]
        assert found, case
        for start, end in found:
            assert gold.get((start, end)) == label, case
            assert re.fullmatch(surface, text[start:end]), (case, text[start:end])
    spelled = doc.hard_cases.get("phonetic_spelling") or doc.hard_cases.get("spelled_name")
    assert spelled
    if family == "grand_jury":
        jurors = [text[s:e] for s, e in doc.hard_cases["juror_question"]]
        assert jurors and set(jurors) <= {"A JUROR", "JUROR", "GRAND JUROR", "A GRAND JUROR"}
        assert doc.hard_cases["unnamed_witness"]
        assert "\nQ: " in text and "\nTHE WITNESS: " in text
    else:
        assert doc.hard_cases["answer_after_objection"]


@pytest.mark.parametrize("family", OTHER)
def test_family_gold_spans_are_trimmed_known_labels_that_never_overlap(family):
    from engine.labels import LABELS

    for seed in (0, 13):
        doc = family_document(seed, family, words=1500)
        spans = sorted(_spans(doc.gold))
        for (_, e1, *_), (s2, *_) in zip(spans, spans[1:], strict=False):
            assert e1 <= s2
        for _, _, label, surface in spans:
            assert label in LABELS and surface == surface.strip() and surface
