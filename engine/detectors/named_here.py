"""The forms a transcript gives as a name *here*, where a decision carried from other
transcripts must never hide them. Django-free.

A form rejected as "no name" in approved hearings ("Rose" the flower, "Young" the
adjective, "Grace" the word) is a name in a hearing that says so. A carried rejection is
never proposed for a form that this transcript gives as a name in any of these ways
(:func:`forms_named_here`), each one a way the reviewers' own reading finds a name:

- **given**: a name of the cover page or of a speaker tag, a spelled-out word, the
  capitalised word after an honorific (``engine.detectors.given``);
- **beside a name**: the form stands next to another person-name mention that is proposed
  or accepted ("Daniel Young … Young runs", "Martin King; King filed"), or is a word of a
  multi-word person mention: a surname beside its given name is one name;
- **introduced**: it follows a kinship or role noun that introduces a person ("my wife
  Rose", "my cousin Guy", "my sponsor is Daniel Young", "the victim's sister, Faith";
  ``INTRODUCING_NOUNS``), capitalised;
- **members**: two or more independent members of the ensemble propose it as a person at
  one of its mentions (learned models count once each: Presidio's NER is spaCy's;
  propagation only copies others; ``engine.detectors.decisions.learned_model``).

Measured on three approved hearings rejecting Rose, Guy, Young and King and a fourth that
named people so: without these rules every one of the eight mentions arrived rejected
and two were released in clear.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

PERSON = "PERSON"

# Nouns that introduce a person when a possessive stands before them ("my wife Rose",
# "his sponsor is Daniel Young", "the victim's sister, Faith"): kinship, then the roles
# people hold in each other's lives. Lower case; one list for every rule that needs it.
INTRODUCING_NOUNS = frozenset(
    """
    wife husband spouse partner fiance fiancee fiancé fiancée girlfriend boyfriend ex
    ex-wife ex-husband son daughter child kid baby mother father mom mum dad mama papa
    parent stepmother stepfather stepmom stepdad stepson stepdaughter stepbrother
    stepsister brother sister sibling twin cousin aunt auntie uncle nephew niece
    grandmother grandfather grandma grandpa granny grandson granddaughter grandchild
    godmother godfather godson goddaughter mother-in-law father-in-law brother-in-law
    sister-in-law son-in-law daughter-in-law
    friend buddy pal roommate neighbor neighbour cellmate cellie celly bunkie coworker
    co-worker colleague boss employer supervisor manager sponsor mentor lawyer attorney
    counselor counsellor therapist psychologist psychiatrist doctor pastor priest chaplain
    minister rabbi imam teacher coach caseworker advocate landlord landlady tenant
    codefendant co-defendant accomplice crime-partner homeboy homegirl homie
    """.split()
)
# Who a noun belongs to: a possessive pronoun or a name's or noun's possessive.
_OWNER = r"(?:my|his|her|our|their|your|[^\W\d_]+['’]s)"
_NOUN = r"([^\W\d_]+(?:-[^\W\d_]+)*)"
# ... then, before the form: a comma, "is"/"was"/"named"/"called", up to two capitalised
# words of the name or an initial ("my sponsor is Daniel J. Young": Young).
_INTRODUCED = re.compile(
    rf"(?i:\b{_OWNER})[ \t]+(?i:{_NOUN})[ \t]*,?"
    r"(?:[ \t]+(?i:is|was|named|called|,))?[ \t]*,?[ \t]+"
    r"(?:[A-Z](?:[^\W\d_]*(?:['’-][^\W\d_]+)*|\.)[ \t]+){0,2}$"
)
INTRODUCED_WINDOW = 80  # characters before a mention read for the introducing noun
# Between two mentions that make one name: spaces, a hyphen, no line break.
_BESIDE = re.compile(r"[ \t]{1,3}|[ \t]*-[ \t]*")
# Members that add no vote of their own: copies of others, the safety net, decisions.
_NOT_MEMBERS = frozenset({"propagation", "safety_net", "carried", "human", "review.occurrence"})


@dataclass(frozen=True)
class Mention:
    """A proposed or decided mention of the transcript (offsets into its text, end
    exclusive); ``rejected``: a reviewer said it is no name."""

    start: int
    end: int
    label: str
    provenance: tuple = ()
    rejected: bool = False


def form_key(form: str) -> str:
    """How forms are compared: case-folded, inner whitespace collapsed (the form table's
    key)."""
    return " ".join(form.split()).casefold()


def person_members(provenance: Iterable, label: str) -> set[str]:
    """The independent members that proposed a mention of ``label`` as a person: learned
    models once each (Presidio's NER is spaCy's), hand-written rules by their detector;
    propagation, the safety net and decisions left out."""
    from engine.detectors.decisions import learned_model

    out = set()
    for item in provenance or ():
        if not isinstance(item, dict):
            continue
        detector = str(item.get("detector") or "")
        if not detector or detector in _NOT_MEMBERS:
            continue
        if (item.get("label") or label) != PERSON:
            continue
        out.add(learned_model(detector, str(item.get("reason") or "")) or detector)
    return out


def introducing_noun(text: str, start: int) -> str:
    """The kinship or role noun that introduces the capitalised word at ``start`` as a
    person ("my wife Rose" → ``wife``), or ``""``."""
    if not text[start : start + 1].isupper():
        return ""
    before = text[max(0, start - INTRODUCED_WINDOW) : start]
    before = before[before.rfind("\n") + 1 :]
    match = _INTRODUCED.search(before)
    if match is None:
        return ""
    noun = match.group(1).lower()
    return noun if noun in INTRODUCING_NOUNS else ""


def forms_named_here(
    text: str, mentions: Iterable[Mention], *, names: Iterable[str] = ()
) -> dict[str, str]:
    """``{form key: why}``: the forms of ``mentions`` that this transcript gives as a name
    (see the module docstring). ``names``: the name words it gives
    (``engine.detectors.given.given_names``)."""
    from engine.detectors.given import is_given_name_term

    names = frozenset(names)
    mentions = sorted(mentions, key=lambda m: (m.start, m.end))
    named: dict[str, str] = {}

    def note(key: str, why: str) -> None:
        named.setdefault(key, why)

    people = [m for m in mentions if m.label == PERSON and not m.rejected]
    for m in mentions:
        form = text[m.start : m.end]
        key = form_key(form)
        if names and is_given_name_term(form, names):
            note(key, "a name the transcript gives")
        noun = introducing_noun(text, m.start)
        if noun:
            note(key, f'introduced as a person ("{noun}")')
        if m.label == PERSON and len(person_members(m.provenance, m.label)) >= 2:
            note(key, "proposed as a person by two or more members")
    for i, m in enumerate(people):
        form = text[m.start : m.end]
        if len(form.split()) > 1:  # a whole name: each of its words is a name part here
            for word in form.split():
                note(form_key(word.strip(",.;:")), "a part of a name")
        if i + 1 < len(people):
            n = people[i + 1]
            if _BESIDE.fullmatch(text[m.end : n.start]):
                note(form_key(form), "beside a name")
                note(form_key(text[n.start : n.end]), "beside a name")
    return named
