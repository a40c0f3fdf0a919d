"""Kinds that still leaked on transcripts nobody here had seen, written into
every layout family with their gold. Django-free.

``unseen_exchange(ask, answer, rng)`` writes a short exchange through two callables (a
question and its answer: ``g.say("pc", …)`` / ``g.say("ip", …)`` in a board hearing,
``exam.q`` / ``exam.a`` in a question-and-answer volume, one counsel's turns in an
appellate argument), each kind in a phrasing drawn from several, so that a detector learns
the context rather than one sentence. Hard-case tags:

* ``word_given_name_caps`` — a given name that is an everyday word (``Hope``, ``Will``),
  given once with its surname, then alone in capitals in several frames (``HOPE said…``,
  ``Was HOPE there?``, ``me and HOPE``, ``HOPE's car``);
* ``short_surname_alone`` — two- and three-letter surnames after an honorific or a rank
  (``Mr. Yu``, ``Officer Ng``, ``Detective Lam``), then alone (``Yu told me``);
* ``town_in_speech_frame`` — a made-up town (another locale's surname) and a small town
  that is an everyday word (``Harmony``), after verbs of movement and residence in
  several frames (``we drove up to``, ``a place up in``, ``we ended up in``);
* ``word_street_alone`` — a street named by an everyday word alone or at a corner
  (``on Prospect, near the school``, ``the corner of Market and Church``);
* ``ocr_day_alone`` — an ordinal day alone as OCR reads it (``the 2lst``, ``the l5th``);
* ``military_time_bare`` — a military time with and without ``hours``, chained, or in
  words (``at 2130, maybe 2145``, ``twenty-one thirty hours``);
* ``country_of_origin`` — a country of birth or origin (``born in Moldova``, ``came here
  from Eritrea``, ``a citizen of Belarus``);
* ``county_police`` — a police force named by its county (``the Tarrant County Police``:
  one ORGANIZATION, no lone ``Police``);
* ``sentence_start_word`` — no span: a sentence opening with a word that is a witness's
  surname elsewhere (``May I…``, ``Long before that…``), which is no name there.

The exchange ends with the kinds of ``clear_kinds.py`` (dotted clocks, day-first dates,
ages around a number, signatures, meeting places, function-word and East Asian names,
video links) and of ``bodies.py`` (employers named whole, a company that reads like a
town, towns named by surnames).

Every person, town and street is made up (Faker, seeded; everyday words); countries and
counties are public places.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from faker import Faker

from engine.labels import ORGANIZATION

from .marks import D, L, P, T
from .model import m

Say = Callable[[str], None]

# Given names that are everyday English words (general knowledge of English).
WORD_GIVEN_NAMES = (
    "Hope", "Joy", "Grace", "Faith", "Summer", "April", "Rose", "Dawn", "Autumn", "Destiny",
    "Will", "Mark", "Bill", "Art", "Guy", "Chase", "Hunter", "Drew", "Sunny", "Honey",
)  # fmt: skip
# Two- and three-letter surnames (Chinese, Korean, Vietnamese romanisations).
SHORT_SURNAMES = (
    "Yu", "Ng", "Wu", "Li", "Ho", "Ma", "Le", "Lo", "Ly", "Vu", "Do", "Ha", "Oh", "Ko",
    "Lam", "Ong", "Tan", "Kim", "Ahn", "Cho", "Woo", "Lau", "Yoo", "Pak", "Loh", "Sun",
)  # fmt: skip
_RANKS = ("Mr.", "Ms.", "Mrs.", "Dr.", "Officer", "Detective", "Sergeant", "Deputy")
# Small towns whose names are everyday English words (general knowledge of US place names).
WORD_TOWNS = (
    "Harmony", "Energy", "Liberty", "Commerce", "Paradise", "Friendship", "Pleasant",
    "Welcome", "Bountiful", "Fairplay", "Plenty",
)  # fmt: skip
WORD_STREETS = ("Prospect", "Market", "Church", "Water", "Union", "Liberty", "Commerce", "Hope")
COUNTRIES = (
    "Moldova", "Eritrea", "Laos", "Belarus", "Honduras", "Guatemala", "El Salvador", "Jordan",
    "Chad", "Samoa", "Tonga", "Nepal", "Armenia", "Albania", "Somalia", "Haiti", "Bhutan",
)  # fmt: skip
COUNTIES = ("Tarrant", "Harlow", "Ellison", "Bexley", "Marlow", "Caddo", "Pender", "Lamar")
# Surnames that are everyday words opening a sentence elsewhere (a modal, an adverb).
SENTENCE_WORDS = (
    ("May", "May I say one more thing about that night?"),
    ("Long", "Long before that, we had stopped talking."),
    ("Young", "Young people were there, mostly."),
    ("Rich", "Rich people lived up on the hill."),
)

_TOWN_FRAMES = (
    "We drove up to {t} to see my aunt.",
    "After that we headed out to {t}.",
    "My brother stays over in {t} now.",
    "We stopped in {t} for gas.",
    "My uncle had a place up in {t}.",
    "Back in {t} we had nothing.",
    "We ended up in {t} for a while.",
    "We were living in {t} then.",
    "A guy from {t} helped us out.",
    "She moved out to {t} after the trial.",
)
_NAME_FRAMES = (
    "{N} said it was over.",
    "Was {N} there? No. {N} came later.",
    "I saw {N} at the house the next day.",
    "Me and {N} went to the store.",
    "{N}'s car was parked outside.",
    "I went with {N} to the bank.",
    "{N} told me everything.",
    "Did you see {N}? I did not.",
)
_COUNTRY_FRAMES = (
    "I was born in {c}.",
    "My parents came here from {c} when I was small.",
    "He is originally from {c}.",
    "She is a citizen of {c}.",
    "They deported him back to {c}.",
    "My family is from {c}.",
    "He grew up in {c}.",
)


def _made_up(rng: random.Random) -> str:
    """A made-up name no gazetteer holds: another locale's surname that is no English word."""
    from .hard_cases import _town

    other = Faker(rng.choice(("de_DE", "it_IT", "nl_NL", "pl_PL", "cs_CZ")))
    other.seed_instance(rng.randrange(1 << 30))
    return _town(other)


def _ocr_ordinal(rng: random.Random) -> str:
    day = rng.choice((1, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 30, 31))
    suffix = "th" if 10 <= day <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    text = f"{day}{suffix}"
    i = text.index("1") if "1" in text else text.index("0")
    return text[:i] + ("l" if text[i] == "1" else "O") + text[i + 1 :]


def unseen_exchange(ask: Say, answer: Say, rng: random.Random) -> None:
    """Write the kinds above as a short exchange (see the module's docstring)."""
    given = rng.choice(WORD_GIVEN_NAMES)
    family = _made_up(rng)
    short, short2, short3 = rng.sample(SHORT_SURNAMES, 3)
    rank, rank2 = rng.sample(_RANKS, 2)
    town, word_town = _made_up(rng), rng.choice(WORD_TOWNS)
    street, corner_a, corner_b = rng.sample(WORD_STREETS, 3)
    country = rng.choice(COUNTRIES)
    county = rng.choice(COUNTIES)
    word, opener = rng.choice(SENTENCE_WORDS)
    frames = rng.sample(_NAME_FRAMES, 2)
    caps = given.upper()

    # a given name that is an everyday word, whole once, then alone in capitals
    ask(f"Who is {P(f'{given} {family}')}?")
    answer(
        "My cousin. " + " ".join(f.replace("{N}", P(caps, "word_given_name_caps")) for f in frames)
    )
    # two- and three-letter surnames after a rank, then alone
    ask(f"Did you talk to {rank} {P(short, 'short_surname_alone')}?")
    answer(
        f"Yes. {rank} {P(short)} and {rank2} {P(short2, 'short_surname_alone')} were there. "
        f"{P(short, 'short_surname_alone')} told me to wait, and I spoke with "
        f"{P(short2)} after. Mr. {P(short3, 'short_surname_alone')} came later."
    )
    # towns in speech: a made-up one and an everyday word, in two frames
    town_frames = rng.sample(_TOWN_FRAMES, 2)
    ask("Where did you go after that?")
    answer(
        town_frames[0].format(t=L(town, "town_in_speech_frame"))
        + " "
        + town_frames[1].format(t=L(word_town, "town_in_speech_frame"))
    )
    # a street named by an everyday word, alone and at a corner
    ask("Where did you meet them?")
    answer(
        f"On {L(street, 'word_street_alone')}, near the school. The shop is at the corner of "
        f"{L(corner_a, 'word_street_alone')} and {L(corner_b, 'word_street_alone')}."
    )
    # an OCR'd day alone; military times bare, chained and in words
    hour = rng.randint(21, 23)
    minute, later = rng.choice(((0, 15), (15, 30), (30, 45), (10, 40)))
    ask("What day was it?")
    answer(
        f"It was the {D(_ocr_ordinal(rng), 'ocr_day_alone')}. We left at "
        f"{T(f'{hour}{minute:02d}', 'military_time_bare')}, maybe "
        f"{T(f'{hour}{later:02d}', 'military_time_bare')}, and the log says "
        f"{T(rng.choice(('twenty-one thirty hours', 'twenty-two hundred hours', 'oh six hundred hours', 'twenty-three fifteen hours')), 'military_time_bare')}."
    )
    # a country of origin
    ask("Where is your family from?")
    answer(rng.choice(_COUNTRY_FRAMES).format(c=L(country, "country_of_origin")))
    # a police force named by its county: one body, no lone "Police"
    ask("Who came?")
    answer(f"The {m(ORGANIZATION, f'{county} County Police', 'county_police')} came first.")
    # a witness's surname that opens a sentence as an everyday word (no span there)
    ask(f"Ms. {P(word)}, you were there too?")
    answer(f"Yes. {m('', opener, 'sentence_start_word')}")
    # the kinds left in clear on court and inquiry transcripts (clear_kinds.py), in a
    # stream of their own drawn last (what comes before does not change)
    from .clear_kinds import clear_exchange

    clear_exchange(ask, answer, random.Random(rng.randrange(1 << 30)))


def board(g) -> None:
    """The exchange in a board hearing (``generator._Gen``), the presiding commissioner
    asking and the incarcerated person answering, in a random stream of its own (the
    rest of a seed's hearing does not change)."""
    from . import model

    last = next((line.speaker for line in reversed(g.b.lines) if line.speaker), "")
    if last == model.strip_marks(g.tags["pc"][0]):
        g.say("ip", "Yes.")
    unseen_exchange(
        lambda text: g.say("pc", text),
        lambda text: g.say("ip", text),
        random.Random(g.seed * 7919 + 30),
    )
