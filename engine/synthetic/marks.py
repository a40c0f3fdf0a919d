"""Short mark helpers (one per label) and the Person type. Django-free."""

from __future__ import annotations

from dataclasses import dataclass

from engine.labels import (
    AGE,
    DATE,
    LOCATION,
    NRP,
    ORGANIZATION,
    PERSON,
    SPELLED_NAME,
    SPELLED_OUT_ITEM,
    TIME,
)

from . import vocab
from .model import m


@dataclass(slots=True)
class Person:
    first: str
    last: str
    gender: str  # "M" | "F"

    @property
    def full(self) -> str:
        return f"{self.first} {self.last}"

    @property
    def title(self) -> str:
        return "Mr." if self.gender == "M" else "Ms."

    @property
    def pronoun(self) -> str:
        return "he" if self.gender == "M" else "she"

    @property
    def possessive(self) -> str:
        return "his" if self.gender == "M" else "her"

    @property
    def object(self) -> str:
        return "him" if self.gender == "M" else "her"

    def rel(self, male: str, female: str) -> str:
        return male if self.gender == "M" else female


def P(text: str, tag: str | None = None) -> str:  # noqa: N802 - one-letter mark helpers
    return m(PERSON, text, tag)


def L(text: str, tag: str | None = None) -> str:  # noqa: N802
    return m(LOCATION, text, tag)


def O(text: str) -> str:  # noqa: N802, E743
    return m(ORGANIZATION, text)


def D(text: str, tag: str | None = None) -> str:  # noqa: N802
    return m(DATE, text, tag)


def T(text: str, tag: str | None = None) -> str:  # noqa: N802
    return m(TIME, text, tag)


def A(text: str, tag: str | None = None) -> str:  # noqa: N802
    return m(AGE, text, tag)


def N(text: str) -> str:  # noqa: N802
    return m(NRP, text)


def spelled(word: str) -> str:
    return m(SPELLED_NAME, "-".join(word.upper()), "spelled_name")


def phonetic(word: str) -> str:
    letters = [c for c in word.upper() if c.isalpha()]
    return m(
        SPELLED_OUT_ITEM,
        ", ".join(f"{c} as in {vocab.PHONETIC[c]}" for c in letters),
        "phonetic_spelling",
    )


def stutter(word: str) -> str:
    return m("", word, "stutter")
