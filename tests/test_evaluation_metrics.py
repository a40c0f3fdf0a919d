"""Hand-computed cases for the Django-free evaluation core."""

from dataclasses import dataclass, field

import pytest

from engine.evaluation import evaluate_documents, tokenize
from engine.gold import GoldDoc, GoldSpan


@dataclass
class P:
    start: int
    end: int
    label: str
    detector: str = ""
    detectors: list = field(default_factory=list)


TEXT = "Mr. John Doe lives in Fresno since 2001."
#       0123456789012345678901234567890123456789
# tokens: Mr . John Doe lives in Fresno since 2001 .
JOHN, DOE = (4, 8), (9, 12)
FRESNO = (22, 28)
YEAR = (35, 39)


def gold_doc(**kw) -> GoldDoc:
    spans = [
        GoldSpan(*JOHN, "PERSON"),
        GoldSpan(*DOE, "PERSON"),
        GoldSpan(*FRESNO, "LOCATION"),
        GoldSpan(*YEAR, "DATE"),
    ]
    return GoldDoc(id="d1", text=TEXT, spans=spans, **kw)


def test_tokenize_splits_words_and_punctuation():
    assert [TEXT[s:e] for s, e in tokenize(TEXT)] == [
        "Mr",
        ".",
        "John",
        "Doe",
        "lives",
        "in",
        "Fresno",
        "since",
        "2001",
        ".",
    ]


def test_perfect_predictions_score_one_everywhere():
    doc = gold_doc()
    preds = [P(s.start, s.end, s.label) for s in doc.spans]
    result = evaluate_documents([doc], {"d1": preds})
    assert result["overall"]["exact"] == {"p": 1.0, "r": 1.0, "f1": 1.0, "tp": 4, "fp": 0, "fn": 0}
    assert result["overall"]["token"]["tp"] == 4
    assert result["leaked_tokens"] == 0


def test_exact_and_token_counts_on_a_hand_computed_case():
    # Predictions: "John Doe" as one PERSON span (exact: 2 fn + 1 fp; tokens: 2 tp),
    # Fresno as ORGANIZATION (exact fn LOCATION + fp ORGANIZATION; token likewise),
    # "lives" as PERSON (fp both levels); 2001 missed (fn both levels; leaked).
    preds = [P(4, 12, "PERSON"), P(*FRESNO, "ORGANIZATION"), P(13, 18, "PERSON")]
    result = evaluate_documents([gold_doc()], {"d1": preds})

    exact = result["labels"]
    assert exact["PERSON"]["exact"] == {"p": 0.0, "r": 0.0, "f1": 0.0, "tp": 0, "fp": 2, "fn": 2}
    assert exact["LOCATION"]["exact"]["fn"] == 1
    assert exact["ORGANIZATION"]["exact"]["fp"] == 1
    assert exact["DATE"]["exact"]["fn"] == 1
    assert result["overall"]["exact"]["tp"] == 0
    assert result["overall"]["exact"]["fp"] == 3
    assert result["overall"]["exact"]["fn"] == 4

    person_tok = exact["PERSON"]["token"]
    assert (person_tok["tp"], person_tok["fp"], person_tok["fn"]) == (2, 1, 0)
    assert person_tok["p"] == pytest.approx(2 / 3)
    assert person_tok["r"] == 1.0
    assert person_tok["f1"] == pytest.approx(0.8)
    overall_tok = result["overall"]["token"]
    # tp: John, Doe; fp: lives, Fresno(ORG); fn: Fresno(LOC), 2001
    assert (overall_tok["tp"], overall_tok["fp"], overall_tok["fn"]) == (2, 2, 2)
    assert overall_tok["f1"] == pytest.approx(0.5)
    # Only "2001" is a gold token no prediction touches.
    assert result["leaked_tokens"] == 1
    assert result["gold_tokens"] == 4


def test_labels_are_listed_in_scheme_order():
    preds = [P(*FRESNO, "ORGANIZATION")]
    result = evaluate_documents([gold_doc()], {"d1": preds})
    assert list(result["labels"]) == ["PERSON", "LOCATION", "ORGANIZATION", "DATE"]


def test_ignore_regions_count_neither_way():
    text = "ALDEN: Good morning, Quill."
    doc = GoldDoc(id="x", text=text, spans=[GoldSpan(21, 26, "PERSON")], ignore=[(0, 6)])
    # The speaker prefix prediction lies in the ignore region: neither fp nor tp.
    preds = [P(0, 5, "PERSON"), P(21, 26, "PERSON")]
    result = evaluate_documents([doc], {"x": preds})
    assert result["overall"]["exact"] == {"p": 1.0, "r": 1.0, "f1": 1.0, "tp": 1, "fp": 0, "fn": 0}
    assert result["overall"]["token"]["fp"] == 0
    # A gold span inside an ignore region is dropped too.
    doc2 = GoldDoc(id="y", text=text, spans=[GoldSpan(0, 5, "PERSON")], ignore=[(0, 6)])
    result2 = evaluate_documents([doc2], {"y": []})
    assert result2["overall"]["exact"]["fn"] == 0
    assert result2["leaked_tokens"] == 0


def test_a_prediction_overlapping_ignore_and_gold_still_counts():
    text = "ALDEN QUILL: yes."
    doc = GoldDoc(id="z", text=text, spans=[GoldSpan(6, 11, "PERSON")], ignore=[(0, 6)])
    result = evaluate_documents([doc], {"z": [P(0, 11, "PERSON")]})
    assert result["overall"]["exact"]["fp"] == 1
    assert result["overall"]["exact"]["fn"] == 1


def test_per_detector_scores_each_detector_alone():
    doc = gold_doc()
    preds = [
        P(*JOHN, "PERSON", detectors=[{"detector": "cover", "score": 1.0}, {"detector": "spacy"}]),
        P(*DOE, "PERSON", detectors=["cover"]),
        P(*FRESNO, "LOCATION", detector="spacy"),
        P(13, 18, "PERSON", detector="spacy"),
    ]
    result = evaluate_documents([doc], {"d1": preds})
    cover = result["detectors"]["cover"]["exact"]
    spacy = result["detectors"]["spacy"]["exact"]
    # cover: John, Doe right; Fresno and 2001 missed.
    assert (cover["tp"], cover["fp"], cover["fn"]) == (2, 0, 2)
    assert cover["f1"] == pytest.approx(2 / 3)
    # spacy: John, Fresno right; "lives" wrong; Doe and 2001 missed.
    assert (spacy["tp"], spacy["fp"], spacy["fn"]) == (2, 1, 2)
    assert spacy["p"] == pytest.approx(2 / 3)
    assert spacy["r"] == pytest.approx(0.5)
    assert set(result["detectors"]) == {"cover", "spacy"}


def test_documents_without_predictions_count_as_missed_and_sum_over_documents():
    doc_a = gold_doc()
    doc_b = GoldDoc(id="d2", text="Call 555-0100.", spans=[GoldSpan(5, 13, "PHONE_NUMBER")])
    preds = {"d2": [P(5, 13, "PHONE_NUMBER")]}
    result = evaluate_documents([doc_a, doc_b], preds)
    assert result["overall"]["exact"]["tp"] == 1
    assert result["overall"]["exact"]["fn"] == 4
    assert result["overall"]["exact"]["r"] == pytest.approx(0.2)
    assert result["documents"] == 2
    assert result["leaked_tokens"] == 4


def test_duplicate_predictions_count_once_and_empty_input_is_zero():
    doc = gold_doc()
    preds = [P(*JOHN, "PERSON"), P(*JOHN, "PERSON")]
    result = evaluate_documents([doc], {"d1": preds})
    assert result["overall"]["exact"]["tp"] == 1
    assert result["overall"]["exact"]["fp"] == 0
    empty = evaluate_documents([], {})
    assert empty["overall"]["exact"] == {"p": 0.0, "r": 0.0, "f1": 0.0, "tp": 0, "fp": 0, "fn": 0}
    assert empty["labels"] == {} and empty["detectors"] == {}


def test_name_word_coverage_splits_names_from_roles_and_lists_the_misses():
    from engine.evaluation.metrics import name_word_coverage

    text = "Petitioner Quill met my Lords and Justice Varga, then Okonkwo's clerk and the Zorvans."
    span = lambda value: GoldSpan(text.index(value), text.index(value) + len(value), "PERSON")  # noqa: E731
    doc = GoldDoc(
        id="d",
        text=text,
        spans=[
            span("Petitioner Quill"),
            span("my Lords"),
            span("Justice Varga"),
            span("Okonkwo"),
            span("the Zorvans"),  # a made-up people: a group, not a name
        ],
    )
    at = lambda value, label: P(text.index(value), text.index(value) + len(value), label)  # noqa: E731
    predictions = {"d": [at("Quill", "PERSON"), at("Varga", "LOCATION")]}
    roles = {"petitioner", "lords", "justice"}
    kind = lambda w: "roles" if w.lower() in roles else "groups" if w == "Zorvans" else "names"  # noqa: E731
    out = name_word_coverage([doc], predictions, kind_of=kind)
    # capitalised words: Petitioner, Quill, Lords, Justice, Varga, Okonkwo, Zorvans
    # ("my" and "the" are not)
    assert out["all"]["words"] == 7
    assert out["names"] == {
        "words": 3,  # Quill, Varga, Okonkwo
        "covered": 2,  # Quill (PERSON), Varga (LOCATION)
        "covered_person": 1,
        "coverage": round(2 / 3, 4),
        "person_coverage": round(1 / 3, 4),
    }
    assert out["roles"]["words"] == 3 and out["roles"]["covered"] == 0
    assert out["groups"]["words"] == 1
    missed = {m["word"]: m for m in out["missed"]}
    assert set(missed) == {"Petitioner", "Lords", "Justice", "Varga", "Okonkwo", "Zorvans"}
    assert missed["Varga"]["covered"] == ["LOCATION"] and missed["Varga"]["kind"] == "names"
    assert missed["Lords"]["kind"] == "roles" and "my Lords" in missed["Lords"]["context"]


def test_name_word_coverage_skips_ignore_regions_and_other_labels():
    from engine.evaluation.metrics import name_word_coverage

    text = "QUILL: Ask Varga in Fresno."
    doc = GoldDoc(
        id="d",
        text=text,
        spans=[
            GoldSpan(0, 5, "PERSON"),
            GoldSpan(11, 16, "PERSON"),
            GoldSpan(20, 26, "LOCATION"),
        ],
        ignore=[(0, 6)],
    )
    out = name_word_coverage([doc], {"d": [P(11, 16, "PERSON")]})
    assert out["all"]["words"] == 1 and out["all"]["person_coverage"] == 1.0
    assert out["missed"] == []
