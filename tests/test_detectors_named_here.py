"""The forms a transcript gives as a name here (``engine.detectors.named_here``), where a
carried rejection is never proposed: one row per way a transcript names a person."""

import re

import pytest

from engine.detectors.given import given_names
from engine.detectors.named_here import (
    INTRODUCING_NOUNS,
    Mention,
    form_key,
    forms_named_here,
    introducing_noun,
    person_members,
)

ONE = ({"detector": "spacy", "score": 0.8},)


def mentions(text: str, words: dict[str, tuple]) -> list[Mention]:
    """A PERSON mention at every occurrence of each word, with that word's provenance."""
    return [
        Mention(m.start(), m.end(), "PERSON", provenance)
        for word, provenance in words.items()
        for m in re.finditer(rf"\b{re.escape(word)}\b", text)
    ]


@pytest.mark.parametrize(
    ("text", "words", "form", "why"),
    [
        # beside a proposed given name: the surname, and its other mentions too
        ("He knew Daniel Young. Young runs it.", ("Daniel", "Young"), "young",
         "beside a name"),
        ("He hired Martin King; King filed.", ("Martin", "King"), "king", "beside a name"),
        ("The victim was with Grace Holloway that night.", ("Grace", "Holloway"), "grace",
         "beside a name"),
        # after a kinship or role noun that introduces a person
        ("My wife Rose came. Rose works nights.", ("Rose",), "rose",
         'introduced as a person ("wife")'),
        ("My cousin Guy drives.", ("Guy",), "guy", 'introduced as a person ("cousin")'),
        ("my sponsor is Young, he says.", ("Young",), "young",
         'introduced as a person ("sponsor")'),
        ("My lawyer is Martin J. King.", ("King",), "king", 'introduced as a person ("lawyer")'),
        ("The victim's sister, Faith, spoke.", ("Faith",), "faith",
         'introduced as a person ("sister")'),
        ("his friend named Hope called.", ("Hope",), "hope", 'introduced as a person ("friend")'),
    ],
)  # fmt: skip
def test_a_form_the_transcript_gives_as_a_name_is_named_here(text, words, form, why):
    found = forms_named_here(text, mentions(text, dict.fromkeys(words, ONE)))
    assert found.get(form) == why


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("We rose early. Rose petals.", ("Rose",)),  # no person around it
        ("My wife rose early.", ("rose",)),  # lower case after the noun: the verb
        ("The guy at the store.", ("guy",)),
        ("Young people came. King size bed.", ("Young", "King")),  # not beside each other
        ("My car Camry broke.", ("Camry",)),  # a noun that introduces no person
        ("My wife left. Rose was later.", ("Rose",)),  # another sentence
        ("Grace\nHolloway", ("Grace", "Holloway")),  # a line break between them
    ],
)
def test_an_ordinary_word_is_not_named_here(text, words):
    assert forms_named_here(text, mentions(text, dict.fromkeys(words, ONE))) == {}


def test_a_rejected_mention_makes_no_name_beside_it():
    text = "Good Morning everyone."
    found = [
        Mention(0, 4, "PERSON", ONE),
        Mention(5, 12, "PERSON", ONE, rejected=True),
    ]
    assert forms_named_here(text, found) == {}


def test_a_word_of_a_whole_person_mention_is_a_name_part_here():
    text = "Daniel Young testified. Young left."
    found = forms_named_here(text, [Mention(0, 12, "PERSON", ONE), Mention(24, 29, "PERSON")])
    assert found["young"] == "a part of a name" and found["daniel"] == "a part of a name"


@pytest.mark.parametrize(
    ("provenance", "members"),
    [
        ([{"detector": "spacy"}, {"detector": "transformer"}], {"spacy", "transformer"}),
        # Presidio's NER is spaCy's: one model, one vote
        ([{"detector": "spacy"}, {"detector": "presidio", "reason": "SpacyRecognizer"}],
         {"spacy"}),
        # propagation copies others; the carried step and the safety net are no members
        ([{"detector": "propagation"}, {"detector": "carried"}, {"detector": "safety_net"},
          {"detector": "domain"}], {"domain"}),
        # a member that proposed another label votes for that one
        ([{"detector": "spacy", "label": "LOCATION"}, {"detector": "domain"}], {"domain"}),
        ([{"detector": "cover"}, {"detector": "domain"}], {"cover", "domain"}),
    ],
)  # fmt: skip
def test_independent_members_count_each_model_once(provenance, members):
    assert person_members(provenance, "PERSON") == members


def test_a_form_two_members_propose_as_a_person_is_named_here():
    text = "The victim was with Grace that night. Grace left."
    two = ({"detector": "spacy"}, {"detector": "transformer"})
    assert forms_named_here(text, mentions(text, {"Grace": two})) == {
        "grace": "proposed as a person by two or more members"
    }
    one_model = ({"detector": "spacy"}, {"detector": "presidio", "reason": "SpacyRecognizer"})
    assert forms_named_here(text, mentions(text, {"Grace": one_model})) == {}


@pytest.mark.parametrize(
    ("text", "metadata"),
    [
        ("INMATE HOPE: Good morning.\nALDEN: Hope, sit down.", {}),  # a speaker tag
        ("ALDEN: Hope, sit down.", {"incarcerated_person": "Tom Hope"}),  # the cover
        ("ALDEN: Ms. Hope, sit down.", {}),  # an honorific
        ("ALDEN: Spell it. A: H-O-P-E. Hope.", {}),  # a spelling
    ],
)
def test_the_names_the_transcript_gives_are_named_here(text, metadata):
    names = given_names(text, metadata)
    found = forms_named_here(text, mentions(text, {"Hope": ONE}), names=names)
    assert found == {"hope": "a name the transcript gives"}


def test_the_introducing_nouns_are_one_lower_case_list():
    assert {"wife", "cousin", "sponsor", "lawyer", "sister"} <= INTRODUCING_NOUNS
    assert all(noun == noun.lower() for noun in INTRODUCING_NOUNS)
    assert introducing_noun("my wife Rose", 8) == "wife"
    assert introducing_noun("my wife rose", 8) == ""


def test_form_keys_fold_case_and_spaces():
    assert form_key("Daniel  Young") == "daniel young" == form_key("DANIEL YOUNG")
