"""Employers and towns by name (``engine.synthetic.bodies``) through the ensemble with the
real spaCy model: a firm of two surnames is one ORGANIZATION at every mention, a company
that reads like a town is an ORGANIZATION everywhere, and a town named by a surname is a
LOCATION, wherever the generator's families write them."""

import pytest

from engine.detectors.base import Document
from engine.labels import LOCATION, ORGANIZATION
from engine.synthetic import generate_hearing
from engine.synthetic.families import family_document

KINDS = {
    "employer_whole": ORGANIZATION,
    "employer_appositive": ORGANIZATION,
    "company_named_often": ORGANIZATION,
    "town_as_surname": LOCATION,
}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("family", "seed"), [("federal", 3741), ("grand_jury", 3742), ("bph", 3743)]
)
def test_each_employer_company_and_town_is_one_span_with_its_kind(
    spacy_rules_ensemble, family, seed
):
    if family == "bph":
        h = generate_hearing(seed, words=1500)
        text, hard, metadata = h.gold.text, h.hard_cases, h.metadata
    else:
        doc = family_document(seed, family, words=1500)
        text, hard, metadata = doc.gold.text, doc.hard_cases, {}
    result = spacy_rules_ensemble.run(Document(text, metadata))
    spans = {(s.start, s.end): s.label for s in result.spans}
    wrong = [
        (kind, text[start:end], spans.get((start, end)))
        for kind, label in KINDS.items()
        for start, end in hard[kind]
        if spans.get((start, end)) != label
    ]
    assert not wrong
