"""The names a transcript gives, and an allow-list that never hides them, nor a
phrase holding such a name."""

import pytest

from engine.detectors.allow import AllowList
from engine.detectors.base import Detection, Document
from engine.detectors.clean import clean
from engine.detectors.cover import CoverPageDetector
from engine.detectors.ensemble import Ensemble
from engine.detectors.given import given_names
from engine.detectors.propagation import PropagationDetector
from engine.pseudonymize.leaks import cover_needles, find_leaks, name_part_needles

# Made-up names: the facilitator Jonathon Good, the incarcerated person Calvin Quill.
TEXT = (
    "PRESIDING COMMISSIONER ALDEN: Good morning. Mr. Good, spell your name.\n"
    "FACILITATOR GOOD: G-O-O-D. Good to be here.\n"
    "INMATE QUILL: Good morning, Commissioner.\n"
)
META = {
    "incarcerated_person": "QUILL, Calvin",
    "participants": [{"name": "Jonathon Good", "role": "facilitator"}],
}


def test_given_names_come_from_the_cover_page_tags_spellings_and_honorifics():
    assert given_names(TEXT, META) == {"calvin", "quill", "jonathon", "good", "alden"}
    assert "good" in given_names("A: Mr. Good said so.\n")  # an honorific alone
    assert "good" in given_names("A: It is spelled G-O-O-D.\n")  # a spelling alone
    assert "good" in given_names("MS. GOOD: Yes.\n")  # a speaker tag alone
    assert given_names("A: Good morning to you all.\n") == frozenset()


def test_a_one_word_term_that_is_a_given_name_no_longer_allows_it():
    allow = AllowList(["Good", "Good morning", "Board of Parole Hearings"]).protecting(
        given_names(TEXT, META)
    )
    assert "Good" not in allow
    first = TEXT.index("Good")  # "Good morning" holds the name Good: it hides nothing here
    assert not allow.allows(TEXT, first, first + 4)
    assert allow.terms == {"board of parole hearings"}
    honorific = TEXT.index("Mr. Good") + 4
    assert not allow.allows(TEXT, honorific, honorific + 4)


def test_clean_keeps_the_surname_an_allow_listed_word_would_have_dropped():
    at = TEXT.index("Mr. Good") + 4
    detection = Detection(at, at + 4, "PERSON", 0.9, "spacy")
    assert clean(TEXT, [detection], AllowList(["Good"])) == []  # the defect, without names
    allow = AllowList(["Good"]).protecting(given_names(TEXT, META))
    assert [(d.start, d.end) for d in clean(TEXT, [detection], allow)] == [(at, at + 4)]


def test_the_reproduction_the_same_hearing_imported_again_has_good_suggested():
    """A lead allow-listed "Good" for "Good morning"; imported again, the surname Good
    (cover page, "Mr. Good", the tag and the spelling) is still suggested."""
    ensemble = Ensemble([CoverPageDetector(), PropagationDetector()], allow_list=["Good"])
    spans = ensemble.run(Document(TEXT, META)).spans
    found = {(s.start, s.end) for s in spans if s.label == "PERSON"}
    at = TEXT.index("Mr. Good") + 4
    assert (at, at + 4) in found


def test_the_leak_check_reports_a_given_name_despite_a_one_word_term():
    output = "Mr. Good, spell your name."
    needles = name_part_needles("Good")
    assert find_leaks(output, needles, allow=["Good"]) == []  # the defect, unprotected
    leaks = find_leaks(output, needles, allow=["Good"], protect={"good"})
    assert [leak.text for leak in leaks] == ["Good"]


def test_an_allow_listed_phrase_hides_the_words_inside_it_only_in_context():
    """Where "Good" is no name the transcript gives, "Good morning" hides it in the phrase."""
    output = "Good morning. Mr. Good, spell your name. Good to be here."
    needles = name_part_needles("Good")
    leaks = find_leaks(output, needles, allow=["Good morning"], protect={"quill"})
    assert [output[leak.start : leak.end + 5] for leak in leaks] == ["Good, spe", "Good to b"]


def test_a_phrase_holding_a_given_name_hides_it_nowhere():
    """A lead allow-listed "Moreno was" after Submit listed "Mr. Moreno was
    received" (the incarcerated person, on the cover page); the phrase silenced the leak.
    A term holding a name this transcript gives hides nothing here, in detection and in
    the leak check; elsewhere it is an ordinary phrase."""
    text = "PRESIDING COMMISSIONER ALDEN: Mr. Moreno was received in 2011.\n"
    meta = {"incarcerated_person": "MORENO, Rafael"}
    names = given_names(text, meta)
    at = text.index("Moreno")
    assert not AllowList(["Moreno was"]).protecting(names).allows(text, at, at + 6)
    assert AllowList(["Moreno was"]).allows(text, at, at + 6)  # the defect, without names
    output = "PRESIDING COMMISSIONER [PERSON_1]: Mr. Moreno was received in 2011.\n"
    needles = cover_needles(meta)
    assert find_leaks(output, needles, allow=["Moreno was"]) == []  # the defect
    leaks = find_leaks(output, needles, allow=["Moreno was"], protect=names)
    assert [(leak.text, leak.blocking) for leak in leaks] == [("Moreno", True)]
    for term in ("was received by Moreno", "Moreno's", "Mr. Moreno was", "MORENO WAS"):
        leaks = find_leaks(output, needles, allow=[term], protect=names)
        assert [leak.text for leak in leaks] == ["Moreno"], term
    # The ensemble still suggests the name despite the phrase.
    ensemble = Ensemble([CoverPageDetector(), PropagationDetector()], allow_list=["Moreno was"])
    spans = ensemble.run(Document(text, meta)).spans
    assert (at, at + 6) in {(s.start, s.end) for s in spans if s.label == "PERSON"}


def test_a_phrase_made_only_of_given_names_hides_nothing():
    """An attacker's allow-list entry "Calvin Quill" (the incarcerated person's name) is a
    name, not a phrase: detection and the leak check ignore it in this hearing."""
    names = given_names(TEXT, META)
    allow = AllowList(["Calvin Quill", "Good morning"]).protecting(names)
    output = "Mr. Calvin Quill said good morning."
    assert not allow.allows(output, 4, 10)
    needles = cover_needles(META)
    leaks = find_leaks(output, needles, allow=["Calvin Quill"], protect=names)
    assert [leak.text for leak in leaks] == ["Calvin", "Quill", "good"]
    unprotected = find_leaks(output, needles, allow=["Calvin Quill"])
    assert [leak.text for leak in unprotected] == ["good"]  # the name hidden by the phrase


def test_a_title_with_a_given_name_is_a_name_too():
    """Allow-listing "Mr. Good" would hide the honorific's surname in its own context."""
    names = given_names(TEXT, META)
    output = "Thank you, Mr. Good. Good morning."
    leaks = find_leaks(output, cover_needles(META), allow=["Mr. Good", "Good morning"],
                       protect=names)  # fmt: skip
    assert [(leak.text, leak.start) for leak in leaks] == [("Good", 15), ("Good", 21)]
    allow = AllowList(["Mr. Good", "Commissioner Alden", "Good morning", "Parole"]).protecting(
        names
    )
    assert allow.terms == {"parole"}


@pytest.mark.parametrize(
    "tag", ["THE FOREPERSON", "A GRAND JUROR", "GRAND JUROR", "THE VIDEOGRAPHER", "THE FOREMAN"]
)
def test_the_roles_of_grand_jury_and_deposition_speaker_tags_are_no_names(tag):
    # A generated grand jury volume with every gold mention accepted listed these tags at
    # Submit as names left in clear (11 'not a leak here' clicks per volume).
    from engine.pseudonymize.leaks import speaker_tag_needles

    assert speaker_tag_needles(tag) == []
    patterns = [n.pattern for n in speaker_tag_needles("GRAND JUROR QUILLFEATHER")]
    assert patterns[0] == "QUILLFEATHER" and not any("GRAND" in p.upper() for p in patterns)


def test_a_name_word_opening_a_sentence_before_its_everyday_use_is_the_word():
    from engine.detectors.given import everyday_word_here

    text = "Q. Ms. Long, thanks.\nA. Long before that, we stopped. May I? Long said no.\nLong ago."
    assert everyday_word_here(text, text.index("Long before"), text.index("Long before") + 4)
    assert everyday_word_here(text, text.index("May I"), text.index("May I") + 3)
    assert everyday_word_here(text, text.index("Long ago"), text.index("Long ago") + 4)
    assert not everyday_word_here(text, text.index("Long said"), text.index("Long said") + 4)
    assert not everyday_word_here(text, text.index("Long,"), text.index("Long,") + 4)


def test_an_interjection_before_a_comma_is_the_word_where_mr_oh_testified():
    from engine.detectors.given import everyday_word_here

    text = "Mr. Oh drives. Oh, I forgot. Oh said no."
    assert everyday_word_here(text, text.index("Oh,"), text.index("Oh,") + 2)
    assert not everyday_word_here(text, text.index("Oh said"), text.index("Oh said") + 2)


def test_a_name_that_is_an_everyday_word_in_a_long_line_of_capitals_is_the_word():
    from engine.detectors.given import everyday_word_here

    text = (
        "MS. MAY: I was there.\n"
        "THE BOARD MAY MODIFY THIS DECISION, AND THE GOVERNOR MAY AFFIRM IT.\n"
        "Was MAY there?\n"
        "ATTORNEY MAY:\n"
    )
    boiler = text.index("BOARD MAY") + 6
    assert everyday_word_here(text, boiler, boiler + 3)
    assert not everyday_word_here(text, 4, 7)  # after the title: the name
    asked = text.index("Was MAY") + 4
    assert not everyday_word_here(text, asked, asked + 3)  # running text: the name
    tag = text.index("ATTORNEY MAY") + 9
    assert not everyday_word_here(text, tag, tag + 3)  # a speaker tag


def test_after_a_title_written_as_a_word_in_lower_case_only_a_name_is_a_given_name():
    from engine.detectors.given import honorific_names

    text = (
        "His sister Republican was there, and the doctor Republican. My sister Hope came, "
        "my sister Dorna too, and the officer Rivera. Sister Angelica and Father Good "
        "prayed; mr. Long and Judge May spoke.\n"
    )
    assert honorific_names(text) == {"hope", "dorna", "rivera", "angelica", "good", "long", "may"}
