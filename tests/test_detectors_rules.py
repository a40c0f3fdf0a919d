"""The decision table (engine/detectors/rules.py), row by row: a candidate's features →
the row that decides it and its outcome."""

import pytest

from engine.detectors.allow import AllowList
from engine.detectors.base import Detection
from engine.detectors.clean import clean
from engine.detectors.decisions import SOFT_RULES
from engine.detectors.extent import trim
from engine.detectors.features import Context, Features
from engine.detectors.public import public_terms
from engine.detectors.rules import KEEP, MAYBE_MISS, RULES, decide

SPACY = ("spacy", "")
COVER = ("cover", "")
PATTERN = ("presidio", "HearingTimeRecognizer")


def _features(text, target, label, member=SPACY, allow=(), whole=None):
    """Features of ``target`` (its first occurrence in ``text``; inside ``whole`` for a
    name part of a PERSON find), as ``clean`` computes them."""
    ctx = Context(text, AllowList(allow), public_terms(text))
    if whole is not None:
        ws = text.index(whole)
        w = Detection(ws, ws + len(whole), "PERSON", 0.8, *member)
        s = text.index(target, ws)
        return Features(ctx, w, w.moved(s, s + len(target)), w)
    s = text.index(target)
    raw = Detection(s, s + len(target), label, 0.8, *member)
    return Features(ctx, raw, trim(text, raw))


# (row, text, target, label, member, allow, whole of a name part)
CASES = [
    ("no-word", "yes -- no", "--", "ORGANIZATION", SPACY, (), None),
    ("word-piece", "the godfather said", "godfat", "PERSON", ("transformer", ""), (), None),
    (
        "one-line",
        "PLEASANT VALLEY STATE PRISON\nCOALINGA",
        "PLEASANT VALLEY STATE PRISON\nCOALINGA",
        "ORGANIZATION",
        SPACY,
        (),
        None,
    ),
    ("no-address-shape", "Hensley. H-E-N-S-L-E-Y", "Hensley", "URL", ("transformer", ""), (), None),
    (
        "date-time-expressions",
        "on Friday, September 18, 2020 we met",
        "Friday, September 18, 2020",
        "DATE",
        SPACY,
        (),
        None,
    ),
    ("ocr-ordinal-day", "on the l5th we met", "l5th", "ORGANIZATION", SPACY, (), None),
    (
        "titled-person",
        "we met Officer Cantu there",
        "Officer Cantu",
        "ORGANIZATION",
        SPACY,
        (),
        None,
    ),
    (
        "full-name-person",
        "a letter from Amber Martinez came",
        "Amber Martinez",
        "ORGANIZATION",
        SPACY,
        (),
        None,
    ),
    (
        "given-name-person",
        "and Debbie stayed to fight the fire",
        "Debbie",
        "ORGANIZATION",
        SPACY,
        (),
        None,
    ),
    ("placed-town", "we were living in Energy then", "Energy", "ORGANIZATION", SPACY, (), None),
    (
        "public-term",
        "he asked the Supreme Court twice",
        "Supreme Court",
        "ORGANIZATION",
        SPACY,
        (),
        None,
    ),
    (
        "public-term-only-public",
        "Yes.\nRate Congress interview same politics",
        "Rate Congress",
        "ORGANIZATION",
        SPACY,
        (),
        None,
    ),
    (
        "public-term-only-public",
        "he served in the 22 National Guard",
        "22 National Guard",
        "ORGANIZATION",
        SPACY,
        (),
        None,
    ),
    ("title-or-role", "and then ESQ. said", "ESQ.", "ORGANIZATION", ("transformer", ""), (), None),
    (
        "caps-boilerplate",
        "THE BOARD MAY MODIFY THIS DECISION, AND THE GOVERNOR MAY AFFIRM IT.",
        "MODIFY",
        "ORGANIZATION",
        SPACY,
        (),
        None,
    ),
    ("single-letter", "and B said so", "B", "PERSON", SPACY, (), None),
    ("acronym-plural", "and the MRIs showed", "MRIs", "PERSON", SPACY, (), None),
    ("determiner-before", "he drove the Tahoe home", "Tahoe", "PERSON", SPACY, (), None),
    ("sentence-start-word", "Yes.\nTraffic was bad.", "Traffic", "PERSON", SPACY, (), None),
    ("name-parts", "we met Calvin Quill there", "Calvin Quill", "PERSON", COVER, (), None),
    ("part-single-letter", "we met Calvin x Quill", "x", "PERSON", COVER, (), "Calvin x Quill"),
    ("part-lower-case", "it was the godfather", "godfather", "PERSON", SPACY, (), "the godfather"),
    (
        "part-allow-list",
        "we met Parole Quill",
        "Parole",
        "PERSON",
        COVER,
        ("parole",),
        "Parole Quill",
    ),
    (
        "part-title",
        "we met Commissioner Quill",
        "Commissioner",
        "PERSON",
        COVER,
        (),
        "Commissioner Quill",
    ),
    ("part-stutter", "he said Th-th-that", "Th-th-that", "PERSON", COVER, (), "Th-th-that"),
    (
        "part-public-term",
        "he asked the Supreme Court",
        "Supreme",
        "PERSON",
        COVER,
        (),
        "Supreme Court",
    ),
    ("part-title-or-role", "we met Victim Quill", "Victim", "PERSON", COVER, (), "Victim Quill"),
    ("part-not-a-name-here", "we said Good luck to him", "Good", "PERSON", COVER, (), "Good"),
    (
        "part-function-word",
        "SIGNED BY MORAYO OGINDAN AT SAN QUENTIN",
        "AT",
        "PERSON",
        COVER,
        (),
        "OGINDAN AT",
    ),
    (
        "part-sentence-start-word",
        "Yes.\nCorrect said the man",
        "Correct",
        "PERSON",
        SPACY,
        (),
        "Correct said",
    ),
    ("part-acronym-plural", "we saw MRIs Quill", "MRIs", "PERSON", SPACY, (), "MRIs Quill"),
    (
        "part-determiner-before",
        "we saw the Tahoe Quill",
        "Tahoe",
        "PERSON",
        SPACY,
        (),
        "Tahoe Quill",
    ),
    ("name-part", "we met Calvin Quill there", "Quill", "PERSON", COVER, (), "Calvin Quill"),
    # a function word the name-shape rule read as a surname after a given name
    (
        "name-part",
        "A: Helen An from the council",
        "An",
        "PERSON",
        ("presidio", "NameShapeRecognizer"),
        (),
        "Helen An",
    ),
    # the same name found by a model (spaCy's find wins Presidio's tie with the rule's)
    ("name-part", "A: Oliver An from the council", "An", "PERSON", SPACY, (), "Oliver An"),
    (
        "allow-list",
        "he works at Acme today",
        "Acme",
        "ORGANIZATION",
        ("presidio", "x"),
        ("acme",),
        None,
    ),
    ("date-no-anchor", "until today's hearing", "today's", "DATE", SPACY, (), None),
    ("bare-number", "there were 45 of them", "45", "DATE", SPACY, (), None),
    ("minutes-duration", "it took 10 minutes to walk", "10 minutes", "DATE", SPACY, (), None),
    ("date-is-age", "at the age of 19 he left", "age of 19", "DATE", SPACY, (), None),
    ("date-is-duration", "it was 2 years ago now", "2 years ago", "DATE", SPACY, (), None),
    ("date-number-only", "he lived at number 4417 there", "4417", "DATE", SPACY, (), None),
    ("section-number", "it is at paragraph 2.45 of it", "2.45", "DATE", SPACY, (), None),
    ("section-number", "read tab 8.15 again", "8.15", "TIME", SPACY, (), None),
    ("year-in-identifier", "case 2017-GJ-384 was", "2017", "DATE", SPACY, (), None),
    ("military-clock", "we met at 1430. Then", "1430", "TIME", PATTERN, (), None),
    ("dotted-clock", "we met at 3.40 and", "3.40", "TIME", PATTERN, (), None),
    (
        "venue-street",
        "the Hilton on Fifth that day",
        "Fifth",
        "LOCATION",
        ("presidio", "VenueStreetRecognizer"),
        (),
        None,
    ),
    ("time-no-clock", "and Good morning to you", "Good morning", "TIME", SPACY, (), None),
    ("stutter", "and I-I-I said", "I-I-I", "ORGANIZATION", SPACY, (), None),
    ("short-lower-case", "he called the fbi then", "fbi", "ORGANIZATION", SPACY, (), None),
    ("function-words", "well I'm a man", "I'm a", "ORGANIZATION", SPACY, (), None),
    (
        "function-and-domain-words",
        "and UNLESS THE BOARD finds",
        "UNLESS THE BOARD",
        "ORGANIZATION",
        SPACY,
        ("board",),
        None,
    ),
    (
        "function-and-role-words",
        "well I'm a Commissioner here",
        "I'm a Commissioner",
        "ORGANIZATION",
        SPACY,
        (),
        None,
    ),
    ("lower-case", "it was robbery then", "robbery", "ORGANIZATION", SPACY, (), None),
    (
        "allow-list-phrase",
        "at Sunrise Bakery, Open Door and more",
        "Sunrise Bakery, Open Door",
        "ORGANIZATION",
        ("presidio", "x"),
        ("open door",),
        None,
    ),
    ("ordinary-word-body", "and Chess is thinking ahead", "Chess", "ORGANIZATION", SPACY, (), None),
    (
        "kept",
        "he works at Acme Corporation now",
        "Acme Corporation",
        "ORGANIZATION",
        ("presidio", "x"),
        (),
        None,
    ),
]


@pytest.mark.parametrize(
    "row,text,target,label,member,allow,whole", CASES, ids=[c[0] for c in CASES]
)
def test_each_row_decides_its_candidate(row, text, target, label, member, allow, whole):
    _, rule = decide(_features(text, target, label, member, allow, whole))
    assert rule.name == row


def test_every_row_of_the_table_has_a_case():
    assert {r.name for r in RULES} == {c[0] for c in CASES}


def test_row_names_are_unique_and_each_has_a_reason():
    names = [r.name for r in RULES]
    assert len(names) == len(set(names))
    assert all(r.reason for r in RULES)


def test_the_rows_that_may_show_a_possible_miss_are_the_soft_rules():
    assert {r.decision for r in RULES if r.outcome == MAYBE_MISS} == SOFT_RULES


def test_the_table_ends_with_a_row_that_keeps_whatever_is_left():
    assert RULES[-1].outcome == KEEP and RULES[-1].when(None)


def test_a_relabelled_candidate_is_decided_by_the_rows_below_it():
    text = "we met Officer Cantu there"
    s = text.index("Officer Cantu")
    decisions = []
    kept = clean(text, [Detection(s, s + 13, "ORGANIZATION", 0.8, "spacy")], AllowList(), decisions)
    # titled-person made it a person; name-parts then keeps the surname only
    assert [(text[k.start : k.end], k.label) for k in kept] == [("Cantu", "PERSON")]


def test_a_dropped_name_part_records_the_decisions_rule_name_not_the_rows():
    text = "we met Parole Quill there"
    s = text.index("Parole")
    decisions = []
    whole = Detection(s, s + len("Parole Quill"), "PERSON", 0.8, "cover")
    kept = clean(text, [whole], AllowList(["parole"]), decisions)
    assert [text[k.start : k.end] for k in kept] == ["Quill"]
    assert {(text[d.start : d.end], d.outcome, d.rule) for d in decisions} == {
        ("Parole", "dropped", "allow-list"),  # row part-allow-list
        ("Quill", "span", ""),
    }


def test_a_span_a_row_relabelled_names_the_row_in_its_provenance():
    from engine.detectors.merge import merge

    text = "we met Officer Cantu there"
    s = text.index("Officer Cantu")
    kept = clean(text, [Detection(s, s + 13, "ORGANIZATION", 0.8, "spacy")], AllowList())
    (span,) = merge(kept, text)
    assert span.provenance == [{"detector": "spacy", "score": 0.8, "rule": "titled-person"}]


def test_a_span_no_row_but_the_last_decided_has_no_rule_in_its_provenance():
    from engine.detectors.merge import merge

    text = "he works at Acme Corporation now"
    s = text.index("Acme")
    found = Detection(s, s + 16, "ORGANIZATION", 0.8, "presidio", "x")
    (span,) = merge(clean(text, [found], AllowList()), text)
    assert span.provenance == [{"detector": "presidio", "score": 0.8, "reason": "x"}]
