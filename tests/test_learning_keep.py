"""The model of which proposals a reviewer keeps (engine.learning.keep): it learns a
rejection pattern from decisions, saves deterministically with a checksum, and its advice
never demotes a name the transcript gives or two members agree on."""

import json

import pytest

from engine.learning import keep

TEXT = (
    "MR. ALDEN: The Board met in Chess club. Chess was fun.\n"
    "MR. ALDEN: Ms. Okafor called. Okafor is my sponsor.\n"
)


def _vector(text, word, label="PERSON", members=("spacy",), nth=0):
    start = -1
    for _ in range(nth + 1):
        start = text.index(word, start + 1)
    provenance = [{"detector": m, "score": 0.8} for m in members]
    ctx = keep.context_for(text)
    return keep.proposal_vector(ctx, start, start + len(word), label, provenance), provenance


def _toy_model():
    """Reviewers rejected spaCy's ordinary-word persons and kept its unusual names (a
    light penalty: two words that differ in a few features, and a model sure enough to
    demote, ``keep.DEMOTE_AT``)."""
    vectors, kept = [], []
    for _ in range(12):
        v, _p = _vector(TEXT, "Chess")
        vectors.append(v)
        kept.append(False)
        v, _p = _vector(TEXT, "Okafor", nth=1)
        vectors.append(v)
        kept.append(True)
    return keep.train(vectors, kept, l2=0.001)


def test_the_model_learns_a_toy_rejection_pattern():
    model = _toy_model()
    chess, _ = _vector(TEXT, "Chess", nth=1)
    okafor, _ = _vector(TEXT, "Okafor")
    assert model.p_reject(chess) > 0.85
    assert model.p_reject(okafor) < 0.15
    assert model.counts == {"examples": 24, "rejected": 12, "kept": 12}


def test_the_saved_model_is_deterministic_and_checked():
    raw = _toy_model().to_json()
    assert raw == _toy_model().to_json()
    body = json.loads(raw)
    assert body["features"] == list(keep.FEATURES) and len(body["checksum"]) == 64
    again = keep.KeepModel.from_json(raw)
    v, _ = _vector(TEXT, "Chess")
    assert again.p_reject(v) == pytest.approx(_toy_model().p_reject(v))
    body["weights"][0] += 1.0
    with pytest.raises(ValueError, match="checksum"):
        keep.KeepModel.from_json(json.dumps(body))


def test_a_rejected_looking_proposal_is_demoted_with_its_reason():
    model = _toy_model()
    v, provenance = _vector(TEXT, "Chess", nth=1)
    advice = keep.advise(
        model, v, label="PERSON", provenance=provenance, given=False, possible_miss=False
    )
    assert advice.action == "demote"
    assert advice.reason == "rejected in 100% of 12 similar proposals"


def test_a_given_name_or_two_members_are_never_demoted():
    model = _toy_model()
    v, provenance = _vector(TEXT, "Chess", nth=1)
    given = keep.advise(
        model, v, label="PERSON", provenance=provenance, given=True, possible_miss=False
    )
    assert given.action == ""
    both = [{"detector": "spacy", "score": 0.8}, {"detector": "transformer", "score": 0.9}]
    two = keep.advise(model, v, label="PERSON", provenance=both, given=False, possible_miss=False)
    assert two.action == ""


def test_few_similar_examples_give_no_advice():
    vectors = [_vector(TEXT, "Chess")[0]] * 3
    model = keep.train(vectors, [False] * 3)
    v, provenance = _vector(TEXT, "Chess", nth=1)
    advice = keep.advise(
        model, v, label="PERSON", provenance=provenance, given=False, possible_miss=False
    )
    assert advice.action == "" and advice.similar == 3


def test_a_possible_miss_reviewers_keep_is_promoted():
    net = [{"detector": "safety_net", "score": 0.3, "reason": "name-shaped"}]
    ctx = keep.context_for(TEXT)
    start = TEXT.index("Okafor", TEXT.index("Okafor") + 1)
    v = keep.proposal_vector(ctx, start, start + 6, "PERSON", net)
    model = keep.train(
        [v] * 12 + [_vector(TEXT, "Chess", members=())[0]] * 2, [True] * 12 + [False] * 2
    )
    advice = keep.advise(model, v, label="PERSON", provenance=net, given=False, possible_miss=True)
    assert advice.action == "promote"
    assert advice.reason == "kept in 100% of 12 similar proposals"


def test_the_models_own_marks_are_not_members():
    demoted = [
        {"detector": "spacy", "score": 0.8},
        {"detector": "safety_net", "score": 0.9, "reason": keep.KEEP_REASON},
    ]
    assert [i["detector"] for i in keep.members_of(demoted)] == ["spacy"]
    promoted = [{"detector": keep.KEEP_DETECTOR, "score": 0.9, "original": "safety_net:x"}]
    assert [i["detector"] for i in keep.members_of(promoted)] == ["safety_net"]


# a caption's state after its town, rejected in two approved hearings; the same state in
# running text after a town, kept
CAPTION = "SAN QUENTIN, CALIFORNIA, in the matter of\nMR. ALDEN: I lived in Fresno, California.\n"


def _words_rows(text, word, label, kept, nth=0, document="a", members=("spacy",)):
    start = -1
    for _ in range(nth + 1):
        start = text.index(word, start + 1)
    v, _p = _vector(text, word, label=label, members=members, nth=nth)
    return v, kept, (document, keep.proposal_words(text, start, start + len(word), label))


def _words_model(rows):
    return keep.train(
        [v for v, _k, _w in rows], [k for _v, k, _w in rows], words=[w for _v, _k, w in rows]
    )


def _advise_on(model, text, word, label="LOCATION", nth=0, members=("spacy",), given=False):
    start = -1
    for _ in range(nth + 1):
        start = text.index(word, start + 1)
    v, provenance = _vector(text, word, label=label, members=members, nth=nth)
    return keep.advise(
        model,
        v,
        label=label,
        provenance=provenance,
        given=given,
        possible_miss=False,
        words=keep.proposal_words(text, start, start + len(word), label),
    )


def test_the_same_words_rejected_in_two_hearings_are_demoted_with_their_reason():
    rows = [_words_rows(CAPTION, "CALIFORNIA", "LOCATION", False, document=d) for d in "ab"]
    rows += [_words_rows(CAPTION, "Fresno", "LOCATION", True, document=d) for d in "ab"]
    model = _words_model(rows)
    advice = _advise_on(model, CAPTION, "CALIFORNIA")
    assert advice.action == "demote"
    assert advice.reason == (
        "the same words rejected in 2 of 2 earlier decisions in this context (2 hearings)"
    )
    elsewhere = _advise_on(model, "MR. ALDEN: We drove to CALIFORNIA and back.\n", "CALIFORNIA")
    assert elsewhere.action == "demote"
    assert elsewhere.reason == "the same words rejected in 2 of 2 earlier decisions (2 hearings)"


def test_the_same_words_rejected_in_one_hearing_only_give_no_advice():
    rows = [_words_rows(CAPTION, "CALIFORNIA", "LOCATION", False, document="a")] * 3
    rows += [_words_rows(CAPTION, "Fresno", "LOCATION", True, document=d) for d in "ab"]
    assert _advise_on(_words_model(rows), CAPTION, "CALIFORNIA").action == ""


def test_where_the_same_words_were_kept_elsewhere_their_context_decides():
    rows = []
    for d in "ab":
        rows.append(_words_rows(CAPTION, "CALIFORNIA", "LOCATION", False, document=d))
        rows.append(_words_rows(CAPTION, "California", "LOCATION", True, document=d))
    model = _words_model(rows)
    caption = _advise_on(model, CAPTION, "CALIFORNIA")
    assert caption.action == "demote"
    assert caption.reason.endswith("in this context (2 hearings)")
    assert _advise_on(model, CAPTION, "California").action == ""


def test_the_same_words_never_demote_a_name_the_transcript_gives():
    text = "MR. ALDEN: Rose came. Rose left.\n"
    rows = [_words_rows(text, "Rose", "PERSON", False, document=d) for d in "abc"]
    model = _words_model(rows)
    assert _advise_on(model, text, "Rose", label="PERSON").action == "demote"
    assert _advise_on(model, text, "Rose", label="PERSON", given=True).action == ""


def test_the_saved_model_holds_no_words_in_clear():
    rows = [_words_rows(CAPTION, "CALIFORNIA", "LOCATION", False, document=d) for d in "ab"]
    rows += [_words_rows(CAPTION, "Fresno", "LOCATION", True, document=d) for d in "ab"]
    raw = _words_model(rows).to_json()
    assert "california" not in raw.lower() and "fresno" not in raw.lower()
    again = keep.KeepModel.from_json(raw)
    assert _advise_on(again, CAPTION, "CALIFORNIA").action == "demote"
