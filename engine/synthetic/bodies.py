"""Employers and towns by name, as prospective jurors and witnesses give them: the kinds
whose label a reviewer fixed one form at a time on court transcripts. Django-free.

``bodies_exchange(ask, answer, rng)`` writes a short exchange through two callables (a
question and its answer), each kind in a phrasing drawn from several. Hard-case tags:

* ``employer_whole`` — a firm named by two surnames with no legal form (``Hartley
  Brandt``), given once as an employer (``I work at …``) and then alone several times
  (``been at Hartley Brandt for six years``, ``Hartley Brandt does audits``): one
  ORGANIZATION whole at every mention, never two name parts;
* ``employer_appositive`` — a firm of two surnames after ``works for``, which a person's
  name could fill, made a body by the appositive after it (``Tolliver Nash, the law
  office``) or by a copula (``Tolliver Nash is a law office``);
* ``company_named_often`` — a company named by one made-up word that reads like a town
  (``Ardenwood``), given as a job's place (``a dispatcher at Ardenwood``) and a kind of
  business (``Ardenwood is a trucking outfit``), then alone in several frames: an
  ORGANIZATION at every mention, never a place;
* ``town_as_surname`` — a town named by a surname (``Garrison``, ``Whitfield``) after a
  verb of residence or movement and in a list after it (``we lived in Garrison for a
  while, then Whitfield``, ``out past Sutherland``): a LOCATION, never a person.

Every firm, company and town is made up (Faker, seeded; general knowledge of English
surnames and of how American places are named).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from faker import Faker

from engine.labels import ORGANIZATION

from .marks import L
from .model import m

Say = Callable[[str], None]

# Parts of made-up company names that read like a town (general knowledge of how
# American places are named).
_FIRST = ("Arden", "Thistle", "Marrow", "Copper", "Hollin", "Bramble", "Tamber", "Quill")
_SECOND = ("wood", "field", "ridge", "vale", "haven", "crest", "brook", "stone")
_JOBS = ("a dispatcher", "a driver", "the office manager", "a bookkeeper", "a mechanic")
_TRADES = ("a trucking outfit", "a freight company", "a distributor", "a packing company")
_FIRM_KINDS = ("law office", "accounting firm", "insurance agency", "real estate office")


def _surname(fake: Faker, rng: random.Random, taken: set[str]) -> str:
    """A surname that is no everyday word (``hard_cases._town``), not drawn before."""
    from .hard_cases import _town

    while (name := _town(fake)) in taken:
        pass
    taken.add(name)
    return name


def _a(noun: str) -> str:
    return ("an " if noun[0] in "aeiou" else "a ") + noun


def _company(rng: random.Random) -> str:
    return rng.choice(_FIRST) + rng.choice(_SECOND)


def employers(ask: Say, answer: Say, rng: random.Random, fake: Faker, taken: set[str]) -> None:
    """A firm of two surnames given as an employer and named again alone; a firm after
    ``works for`` that its appositive makes a body."""

    def org(name: str, kind: str) -> str:
        return m(ORGANIZATION, name, kind)

    firm = f"{_surname(fake, rng, taken)} {_surname(fake, rng, taken)}"
    ask("Where do you work?")
    answer(
        rng.choice(
            (
                f"I work at {org(firm, 'employer_whole')}. I've been at "
                f"{org(firm, 'employer_whole')} for six years.",
                f"I'm employed by {org(firm, 'employer_whole')}, going on six years at "
                f"{org(firm, 'employer_whole')} now.",
            )
        )
    )
    ask(f"Does anyone at {org(firm, 'employer_whole')} know the parties?")
    answer(
        f"No. {org(firm, 'employer_whole')} does audits for small businesses, mostly. "
        f"Nobody at {org(firm, 'employer_whole')} would know them."
    )
    other = f"{_surname(fake, rng, taken)} {_surname(fake, rng, taken)}"
    ask("And your spouse?")
    answer(
        rng.choice(
            (
                f"My wife works for {org(other, 'employer_appositive')}, "
                f"the {rng.choice(_FIRM_KINDS)} downtown.",
                f"My husband works for {org(other, 'employer_appositive')}. "
                f"{org(other, 'employer_appositive')} is {_a(rng.choice(_FIRM_KINDS))} "
                "on the square.",
            )
        )
    )


def company(ask: Say, answer: Say, rng: random.Random) -> None:
    """A one-word company that reads like a town, named often."""
    name = _company(rng)

    def org() -> str:
        return m(ORGANIZATION, name, "company_named_often")

    ask("What do you do for a living?")
    answer(
        f"I'm {rng.choice(_JOBS)} at {org()}. {org()} is {rng.choice(_TRADES)}. I've been "
        f"with {org()} for nine years, and {org()} paid for my license."
    )
    ask(f"Anybody you know at {org()} involved in this case?")
    answer(f"No. {org()} only hauls produce. The owner of {org()} retired last year.")


def towns(ask: Say, answer: Say, rng: random.Random, fake: Faker, taken: set[str]) -> None:
    """Towns named by surnames, after a verb of residence or movement and in a list."""
    first, then, past = (_surname(fake, rng, taken) for _ in range(3))
    ask("Where have you lived?")
    answer(
        rng.choice(
            (
                f"We lived in {L(first, 'town_as_surname')} for a while, then "
                f"{L(then, 'town_as_surname')}.",
                f"I grew up in {L(first, 'town_as_surname')} and moved to "
                f"{L(then, 'town_as_surname')} after school.",
            )
        )
        + f" Now we're out past {L(past, 'town_as_surname')}, on the county road."
    )


def bodies_exchange(ask: Say, answer: Say, rng: random.Random) -> None:
    """Write every kind above (see the module's docstring)."""
    fake = Faker("en_US")
    fake.seed_instance(rng.randrange(1 << 30))
    taken: set[str] = set()
    employers(ask, answer, rng, fake, taken)
    company(ask, answer, rng)
    towns(ask, answer, rng, fake, taken)
