"""The domain member's place in the vote: agreed finds vote, lone finds are possible misses."""

import re

import pytest

from engine.detectors.base import Detection, Detector, Document
from engine.detectors.decisions import POSSIBLE_MISS
from engine.detectors.domain import SHIPPED_MODEL, DomainDetector
from engine.detectors.ensemble import Ensemble
from engine.detectors.safety_net import Candidate, SafetyNetDetector, alone_finds

TEXT = "On May 3, 2019 Lena Hollis said that we drove up to Riverton in the van.\n"
LENA = (TEXT.index("Lena Hollis"), TEXT.index("Lena Hollis") + len("Lena Hollis"))
TOWN = (TEXT.index("Riverton"), TEXT.index("Riverton") + len("Riverton"))
DAY = (3, 3 + len("May 3, 2019"))


class Other(Detector):
    name = "other"
    labels = frozenset({"PERSON", "DATE"})

    def detect(self, document):
        return [Detection(*LENA, "PERSON", 0.85, self.name), Detection(*DAY, "DATE", 0.85, "other")]


VAN = (TEXT.index("van"), TEXT.index("van") + 3)
SAID = (LENA[0], TEXT.index(" said") + len(" said"))


class Learned(Detector):
    """Stands in for the domain model's output (its real model is tested elsewhere)."""

    name = "domain"
    labels = frozenset({"PERSON", "LOCATION", "AGE", "PHONE_NUMBER"})
    second_opinion = True

    def __init__(self, extra=(), **options):
        super().__init__(**options)
        self.extra = list(extra)

    def detect(self, document):
        return [
            Detection(*LENA, "PERSON", 0.8, self.name),
            Detection(*TOWN, "LOCATION", 0.8, self.name),
            Detection(*DAY, "AGE", 0.8, self.name),  # a structured label another member denies
            Detection(*VAN, "PHONE_NUMBER", 0.8, self.name),  # a lone structured guess
            *self.extra,
        ]


def run(*detectors):
    return Ensemble(detectors).run(Document(TEXT * 60))  # 60 lines: room in the budget


def test_a_domain_find_that_another_member_agrees_with_joins_the_vote():
    result = run(Other(), Learned(), SafetyNetDetector())
    lena = [s for s in result.spans if LENA[0] <= s.start < s.end <= LENA[1]]  # name parts
    assert len(lena) == 2
    assert all(s.label == "PERSON" and set(s.sources) >= {"other", "domain"} for s in lena)


def test_a_domain_only_find_becomes_a_possible_miss_with_its_label():
    result = run(Other(), Learned(), SafetyNetDetector())
    town = [s for s in result.spans if (s.start, s.end) == TOWN]
    assert town and town[0].detectors == ["safety_net"]
    assert town[0].label == "LOCATION" and town[0].reasons["safety_net"] == "domain-only"
    decided = [d for d in result.decisions if d.detector == "domain" and d.start == TOWN[0]]
    assert decided and decided[0].outcome == POSSIBLE_MISS
    assert decided[0].rule == "no-second-opinion"


def test_a_domain_structured_label_does_not_join_another_members_other_label():
    result = run(Other(), Learned(), SafetyNetDetector())
    day = [s for s in result.spans if (s.start, s.end) == DAY]
    assert day and day[0].label == "DATE" and "domain" not in day[0].sources


def test_a_domain_find_never_moves_another_members_boundary_or_label():
    longer = Detection(*SAID, "LOCATION", 0.8, "domain")  # "Lena Hollis said" as a place
    result = run(Other(), Learned(extra=[longer]), SafetyNetDetector())
    lena = [s for s in result.spans if LENA[0] <= s.start < s.end <= SAID[1]]
    assert [(s.start, s.end, s.label) for s in lena] == [
        (LENA[0], LENA[0] + 4, "PERSON"),
        (LENA[0] + 5, LENA[1], "PERSON"),
    ]
    dropped = [d for d in result.decisions if d.detector == "domain" and d.label == "LOCATION"]
    assert {(d.start, d.outcome, d.rule) for d in dropped if d.start == SAID[0]} == {
        (SAID[0], "dropped", "second-opinion-disagrees")
    }


def test_a_lone_structured_guess_or_one_not_written_as_a_name_is_no_possible_miss():
    that = (TEXT.index("that we"), TEXT.index("that we") + len("that we"))
    result = run(Other(), Learned(extra=[Detection(*that, "PERSON", 0.8, "domain")]))
    for start, end in (VAN, that):
        assert not [s for s in result.spans if (s.start, s.end) == (start, end)]
        decided = [d for d in result.decisions if d.detector == "domain" and d.start == start]
        assert decided and {d.outcome for d in decided} == {"dropped"}
    assert {d.rule for d in result.decisions if d.start == VAN[0]} == {"second-opinion-alone-shape"}


def test_without_the_safety_net_a_domain_only_find_is_no_span():
    result = run(Other(), Learned())
    assert not [s for s in result.spans if (s.start, s.end) == TOWN]


def test_lone_finds_fill_only_what_the_possible_miss_budget_leaves():
    text = "word " * 1000  # 1,000 words: 5 possible misses at most
    found = [Detection(0, 4, "PERSON", 0.9, "other")]
    alone = [Detection(10 * i, 10 * i + 4, "LOCATION", 0.8, "domain") for i in range(1, 9)]
    alone.append(Detection(1, 3, "PERSON", 0.8, "domain"))  # covered by a span
    taken = [Candidate(500, 504, "honorific"), Candidate(600, 604, "speaker-tag")]
    out = [c for c in alone_finds(text, found, taken, alone) if c.reason == "domain-only"]
    assert [c.start for c in out] == [10, 20, 30]


def test_direct_identifiers_come_first_in_the_budget():
    text = "word " * 1000
    alone = [Detection(10, 14, "NRP", 0.8, "domain")] + [
        Detection(100 + 10 * i, 104 + 10 * i, "PERSON", 0.8, "domain") for i in range(5)
    ]
    out = alone_finds(text, [], [], alone)
    assert len(out) == 5 and all(c.label == "PERSON" for c in out)


def test_a_lone_find_takes_the_place_of_a_name_shaped_guess_on_its_words():
    text = "word " * 1000
    shaped = [Candidate(10, 14, "name-shaped"), Candidate(20, 24, "honorific")]
    alone = [Detection(10, 14, "LOCATION", 0.8, "domain"), Detection(20, 24, "NRP", 0.8, "domain")]
    out = alone_finds(text, [], shaped, alone, per_1000=2)
    assert [(c.start, c.reason, c.label) for c in out] == [
        (10, "domain-only", "LOCATION"),
        (20, "honorific", "PERSON"),
    ]


@pytest.mark.slow
def test_the_shipped_domain_model_finds_names_and_places():
    detector = DomainDetector()
    assert detector.model_dir == str(SHIPPED_MODEL)
    found = detector.detect(Document(TEXT))
    assert ("PERSON", "Lena Hollis") in {(d.label, TEXT[d.start : d.end]) for d in found}


def test_the_default_ensemble_includes_the_domain_member_with_no_setting_to_edit(db):
    from annotations.services.annotation import DEFAULT_DETECTORS, detectors_from_settings

    members = {d.name: d for d in detectors_from_settings()}
    assert "domain" in members and members["domain"].second_opinion
    assert members["domain"].model_dir == str(SHIPPED_MODEL)
    names = [type(d).__name__ for d in detectors_from_settings(DEFAULT_DETECTORS)]
    assert "DomainDetector" in names


PAIR_TEXT = "THE WITNESS: Shelly Landry and a friend of hers.\nColton English came too.\n"


class Pairs(Detector):
    """The domain model's lone name words (no other member found them)."""

    name = "domain"
    labels = frozenset({"PERSON"})
    second_opinion = True

    def detect(self, document):
        out = []
        for name in ("Shelly Landry", "Colton English"):
            first = PAIR_TEXT.index(name)
            space = name.index(" ")
            out.append(Detection(first, first + space, "PERSON", 0.8, self.name))
            out.append(Detection(first + space + 1, first + len(name), "PERSON", 0.8, self.name))
        return out


def test_a_lone_given_name_and_a_word_no_english_text_uses_join_the_vote():
    result = Ensemble([Other(), Pairs(), SafetyNetDetector()]).run(Document(PAIR_TEXT * 40))
    shelly = PAIR_TEXT.index("Shelly")
    spans = {(s.start, s.end): s for s in result.spans}
    assert spans[(shelly, shelly + 6)].detectors == ["domain"]
    assert spans[(shelly + 7, shelly + 13)].label == "PERSON"
    decided = {d.rule for d in result.decisions if d.start in (shelly, shelly + 7)}
    assert decided == {"second-opinion-given-name"}


def test_a_lone_given_name_before_an_english_word_stays_a_possible_miss():
    result = Ensemble([Other(), Pairs(), SafetyNetDetector()]).run(Document(PAIR_TEXT * 40))
    colton = PAIR_TEXT.index("Colton")
    decided = [d for d in result.decisions if d.detector == "domain" and d.start == colton]
    assert decided and decided[0].outcome == POSSIBLE_MISS
    spans = [s for s in result.spans if s.start == colton]
    assert not spans or spans[0].detectors == ["safety_net"]


AFTER_TEXT = "MR. MANN: Who is Destiny Malatesta?\nA: I know Destiny Window from work.\n"


class NamesFound(Detector):
    """Another member: the given names only."""

    name = "other"
    labels = frozenset({"PERSON"})

    def detect(self, document):
        return [
            Detection(m.start(), m.end(), "PERSON", 0.85, self.name)
            for m in re.finditer(r"Destiny", AFTER_TEXT)
        ]


class Surnames(Detector):
    """The domain model's lone word after each of them."""

    name = "domain"
    labels = frozenset({"PERSON"})
    second_opinion = True

    def detect(self, document):
        return [
            Detection(AFTER_TEXT.index(w), AFTER_TEXT.index(w) + len(w), "PERSON", 0.8, self.name)
            for w in ("Malatesta", "Window")
        ]


def test_a_lone_word_no_english_text_uses_after_another_members_name_joins_the_vote():
    result = Ensemble([NamesFound(), Surnames(), SafetyNetDetector()]).run(Document(AFTER_TEXT))
    start = AFTER_TEXT.index("Malatesta")
    spans = {(s.start, s.end): s for s in result.spans}
    assert spans[(start, start + len("Malatesta"))].label == "PERSON"
    assert "domain" in spans[(start, start + len("Malatesta"))].detectors
    [decision] = [d for d in result.decisions if d.detector == "domain" and d.start == start]
    assert decision.rule == "second-opinion-after-name"
    # an English word after the name stays a possible miss
    window = AFTER_TEXT.index("Window")
    [decision] = [d for d in result.decisions if d.detector == "domain" and d.start == window]
    assert decision.outcome == POSSIBLE_MISS
