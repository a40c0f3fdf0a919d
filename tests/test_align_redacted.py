"""Gold spans from clear/redacted pairs (engine.learning.align, align_redacted command)."""

import json

import pytest
from django.core.management import call_command

from engine.gold import read_jsonl
from engine.learning.align import align, gold_from_pair, marker_label

CLEAR = (
    "PRESIDING COMMISSIONER ALDEN: Good morning, Mr. John Quill. You were born on May 13, 1970 "
    "in Fresno.\n"
    "INCARCERATED PERSON QUILL: Yes, Q-U-I-L-L. My number is V12345.\n"
    "PRESIDING COMMISSIONER ALDEN: The weather is nice today."
)


def spans_text(clear, result):
    return [(clear[s.start : s.end], s.label) for s in result.spans]


def test_tags_give_labelled_spans_and_date_parts_merge():
    redacted = (
        "PRESIDING COMMISSIONER [PERSON_1]: Good morning, Mr. [PERSON_2] [PERSON_3]. You were "
        "born on [MONTH] [DAY], [YEAR] in [CITY_1].\n"
        "INCARCERATED PERSON [PERSON_3]: Yes, [SPELLED_NAME_PERSON_3]. My number is [ID_1].\n"
        "PRESIDING COMMISSIONER [PERSON_1]: The weather is nice today."
    )
    result = align(CLEAR, redacted)
    assert spans_text(CLEAR, result) == [
        ("ALDEN", "PERSON"),
        ("John", "PERSON"),
        ("Quill", "PERSON"),
        ("May 13, 1970", "DATE"),
        ("Fresno", "LOCATION"),
        ("QUILL", "PERSON"),
        ("Q-U-I-L-L", "SPELLED_NAME"),
        ("V12345", "CDCR_ID"),
        ("ALDEN", "PERSON"),
    ]
    assert result.unaligned == []
    assert result.markers == result.aligned_markers == 11


def test_untyped_markers_take_the_shape_label_or_the_default():
    redacted = CLEAR.replace("ALDEN", "OMISSIS").replace("John Quill", "[REDACTED]")
    redacted = redacted.replace("V12345", "XXXX").replace("Fresno", "█████")
    result = align(CLEAR, redacted, default_label="PERSON")
    found = spans_text(CLEAR, result)
    assert ("John Quill", "PERSON") in found  # one marker for two words: one span
    assert ("V12345", "CDCR_ID") in found  # guessed from its shape
    assert ("Fresno", "PERSON") in found  # no telling shape: the default label
    assert found.count(("ALDEN", "PERSON")) == 2
    assert align(CLEAR, redacted, default_label="LOCATION").spans[2].label == "LOCATION"


def test_unaligned_regions_are_reported_with_offsets_on_both_sides():
    redacted = (
        "PRESIDING COMMISSIONER [PERSON_1]: Good morning, Mr. [PERSON_2]. You were born on "
        "[DATE] in [CITY_1].\n"
        "INCARCERATED PERSON [PERSON_2]: Yes. My number is [ID_1] [ID_2].\n"
        "PRESIDING COMMISSIONER [PERSON_1]: The weather is lovely now. Thank you."
    )
    result = align(CLEAR, redacted)
    kinds = {u.kind for u in result.unaligned}
    regions = {
        u.kind: (CLEAR[u.clear_start : u.clear_end], redacted[u.redacted_start : u.redacted_end])
        for u in result.unaligned
    }
    assert regions["substituted"] == ("nice today", "lovely now")
    assert regions["clear_only"][0] == ", Q-U-I-L-L"  # text the redacted copy dropped
    assert regions["redacted_only"][1] == "Thank you."  # text only the redacted copy has
    assert regions["empty_marker"][1] == "[ID_2]"  # a marker with nothing left to stand for
    assert kinds == {"substituted", "clear_only", "redacted_only", "empty_marker"}
    # The rest still aligns.
    assert ("May 13, 1970", "DATE") in spans_text(CLEAR, result)
    assert ("John Quill", "PERSON") in spans_text(CLEAR, result)
    assert result.aligned_markers == result.markers - 1


def test_marker_labels_read_tags_and_subtypes():
    assert marker_label("[PERSON_12]", "X") == "PERSON"
    assert marker_label("<LOCATION>", "X") == "LOCATION"
    assert marker_label("[PRISON_1]", "X") == "ORGANIZATION"
    assert marker_label("[DAY_OF_WEEK]", "X") == "DATE"
    assert marker_label("[SPELLED_NAME_PERSON_2]", "X") == "SPELLED_NAME"
    assert marker_label("[REDACTED]", "X") == "X"
    assert marker_label("XXXX", "X") == "X"


@pytest.mark.slow
def test_a_tag_pseudonymized_synthetic_hearing_gives_back_its_gold():
    from engine.evaluation.metrics import evaluate_documents
    from engine.pseudonymize import SpanInput, pseudonymize
    from engine.synthetic import generate_hearing

    hearing = generate_hearing(8, words=2000)
    gold = hearing.gold
    redacted = pseudonymize(
        hearing.text, [SpanInput(s.start, s.end, s.label) for s in gold.spans], strategy="tags"
    ).text
    doc, result = gold_from_pair(gold.id, hearing.text, redacted)
    assert doc.text == hearing.text
    assert result.markers == result.aligned_markers and not result.unaligned
    figures = evaluate_documents([gold], {gold.id: doc.spans})["overall"]["token"]
    assert figures["p"] > 0.98 and figures["r"] > 0.98


def test_align_redacted_command_writes_gold_jsonl_and_reports(tmp_path, capsys):
    clear = tmp_path / "hearing.txt"
    redacted = tmp_path / "hearing.redacted.txt"
    clear.write_text(CLEAR, encoding="utf-8")
    redacted.write_text(CLEAR.replace("Fresno", "[CITY_1]").replace("nice", "XXXX XXXX"))
    out = tmp_path / "gold.jsonl"
    call_command("align_redacted", str(clear), str(redacted), "--out", str(out), "--json")
    report = json.loads(capsys.readouterr().out)
    (doc,) = read_jsonl(out)
    assert doc.id == "hearing" and doc.text == CLEAR
    assert [(CLEAR[s.start : s.end], s.label) for s in doc.spans] == [
        ("Fresno", "LOCATION"),
        ("nice", "PERSON"),
    ]
    assert report["markers"] == 3 and report["aligned_markers"] == 2
    assert report["unaligned"] == [
        {
            "kind": "empty_marker",
            "clear": [len(CLEAR) - 7, len(CLEAR) - 7],
            "redacted": [
                redacted.read_text().index("XXXX XXXX") + 5,
                redacted.read_text().index("XXXX XXXX") + 9,
            ],
        }
    ]
    assert doc.meta["alignment"]["unaligned_regions"] == 1

    call_command("align_redacted", str(clear), str(redacted), "--out", str(out))
    text = capsys.readouterr().out
    assert "2/3 markers aligned" in text and "empty_marker" in text
    assert "Fresno" not in text  # offsets only, never the text


def test_markers_side_by_side_split_their_text_at_its_spaces():
    # A footer glued to the last utterance (kind 6) and tagged part by part:
    # each tag takes one spaced word, not whatever the tie between them gives.
    clear = "which ends with the crime. ROSA MARTINEZ B-12345 11/23/09\nNext line here."
    redacted = "which ends with the crime. [PERSON_1] [PERSON_2] [ID_1] [DATE]\nNext line here."
    doc, result = gold_from_pair("footer", clear, redacted)
    assert [(clear[s.start : s.end], s.label) for s in doc.spans] == [
        ("ROSA", "PERSON"),
        ("MARTINEZ", "PERSON"),
        ("B-12345", "CDCR_ID"),
        ("11/23/09", "DATE"),
    ]
