"""The generator's exchange of the kinds unseen transcripts leaked (``engine.synthetic.unseen``): in
every layout family, with gold; and the detectors (patterns, spaCy, the cover page,
propagation, the safety net) give each of its identifiers a span, and the sentence that
opens with a witness's surname as an everyday word none."""

import re

import pytest

from engine.detectors.base import Document
from engine.labels import DATE, LOCATION, ORGANIZATION, PERSON, TIME
from engine.synthetic import generate_hearing
from engine.synthetic.families import family_document

KINDS = {
    "word_given_name_caps": PERSON,
    "short_surname_alone": PERSON,
    "town_in_speech_frame": LOCATION,
    "word_street_alone": LOCATION,
    "ocr_day_alone": DATE,
    "military_time_bare": TIME,
    "country_of_origin": LOCATION,
    "county_police": ORGANIZATION,
}
FAMILIES = ("bph", "bph2009", "federal", "appellate", "grand_jury", "deposition")


def document(family: str, seed: int):
    if family == "bph":
        h = generate_hearing(seed, words=1500)
        return h.gold, h.hard_cases, h.metadata
    doc = family_document(seed, family, words=1500)
    return doc.gold, doc.hard_cases, doc.metadata


@pytest.mark.parametrize("family", FAMILIES)
def test_every_layout_family_writes_each_unseen_kind_with_its_gold(family):
    gold, hard, _ = document(family, 30)
    spans = {(s.start, s.end): s.label for s in gold.spans}
    for kind, label in KINDS.items():
        assert hard.get(kind), (family, kind)
        for start, end in hard[kind]:
            assert spans.get((start, end)) == label, (family, kind, gold.text[start:end])
    (start, end), *_ = hard["sentence_start_word"]
    assert not any(s < end and start < e for s, e in spans), gold.text[start:end]


def test_the_exchange_draws_its_phrasing_from_several():
    texts = set()
    for seed in range(8):
        gold, hard, _ = document("grand_jury", seed)
        start, end = hard["town_in_speech_frame"][0]
        line_start = gold.text.rfind("\n", 0, start) + 1
        texts.add(re.sub(r"\b[A-Z][a-z]+\b", "X", gold.text[line_start:start]))
    assert len(texts) >= 3


@pytest.mark.slow
@pytest.mark.parametrize(("family", "seed"), [("grand_jury", 31), ("federal", 42), ("bph", 53)])
def test_each_unseen_identifier_is_a_span_and_the_everyday_word_is_left_alone(
    spacy_rules_ensemble, family, seed
):
    gold, hard, metadata = document(family, seed)
    text = gold.text
    result = spacy_rules_ensemble.run(Document(text, metadata if family == "bph" else {}))
    confident = [s for s in result.spans if set(s.sources) != {"safety_net"}]
    for kind in KINDS:
        for start, end in hard[kind]:
            for word in re.finditer(r"\w+", text[start:end]):
                s, e = start + word.start(), start + word.end()
                assert any(x.start <= s and e <= x.end for x in confident), (kind, word[0])
    for start, end in hard["sentence_start_word"]:
        first = re.match(r"\w+", text[start:end])
        assert not any(x.start < start + first.end() and start < x.end for x in result.spans), text[
            start:end
        ]
