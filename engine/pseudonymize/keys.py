"""Normalised keys: two mentions with the same (label, key) are the same entity. Django-free.

``Doe``, ``DOE`` and ``Doe's`` share the PERSON key ``doe``; ``Victor 12345``,
``V12345`` and ``V-1-2-3-4-5`` share the CDCR_ID key ``V12345``; the spelled name
``D-O-E`` has the key ``doe`` and so links to the PERSON ``Doe``.
"""

from __future__ import annotations

import re
import unicodedata

from engine.spelling import closest_misspelled, edit_distance
from engine.vocab import NUMBER_WORDS

# Spoken letters: the NATO alphabet and the police/radio alphabet used in hearings.
SPOKEN_LETTERS: dict[str, str] = {
    **{
        w: w[0].upper()
        for w in (
            "alpha alfa bravo charlie delta echo foxtrot golf hotel india juliet juliett kilo "
            "lima mike november oscar papa quebec romeo sierra tango uniform victor whiskey "
            "xray yankee zulu"
        ).split()
    },
    **{
        w: w[0].upper()
        for w in (
            "adam boy david edward frank george henry ida john king lincoln mary nora ocean "
            "peter queen robert sam tom union william young zebra"
        ).split()
    },
    "x-ray": "X",
}
DIGIT_WORDS: dict[str, str] = {w: str(i) for i, w in enumerate(NUMBER_WORDS[:10])} | {
    "oh": "0",
    "o": "0",
}

_POSSESSIVE = re.compile(r"['’]s?$", re.IGNORECASE)
_NON_WORD = re.compile(r"[^\w]+", re.UNICODE)
_WORD = re.compile(r"[A-Za-z]+(?:-ray)?|\d", re.IGNORECASE)


def fold(text: str) -> str:
    """Case-fold and strip accents: ``Zoë`` → ``zoe``."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def person_key(text: str) -> str:
    """Key of one PERSON name part: case, accents, possessive and punctuation removed."""
    word = _POSSESSIVE.sub("", text.strip().rstrip("."))
    return _NON_WORD.sub("", fold(word))


def spelled_letters(text: str) -> str:
    """The letters a spelled name spells: ``D-O-E`` / ``D O E`` / ``d.o.e.`` → ``doe``."""
    return "".join(c for c in fold(text) if c.isalpha())


def cdcr_key(text: str) -> str:
    """``Victor 12345`` / ``V12345`` / ``v-1-2-3-4-5`` / ``Victor one two three`` → ``V12345``."""
    out = []
    for token in _WORD.findall(text):
        low = token.lower()
        if low in SPOKEN_LETTERS and len(token) > 1:
            out.append(SPOKEN_LETTERS[low])
        elif low in DIGIT_WORDS and len(token) > 1:
            out.append(DIGIT_WORDS[low])
        else:
            out.append(token.upper())
    return "".join(out)


def generic_key(text: str) -> str:
    """Words case-folded, possessive and a leading ``the`` dropped, punctuation collapsed."""
    folded = fold(text).strip()
    folded = re.sub(r"^the\s+", "", folded)
    folded = _POSSESSIVE.sub("", folded)
    return " ".join(_NON_WORD.sub(" ", folded).split())


def digits_key(text: str) -> str:
    digits = "".join(c for c in text if c.isdigit())
    return digits or generic_key(text)


def url_key(text: str) -> str:
    folded = fold(text).strip().rstrip("/")
    folded = re.sub(r"^[a-z]+://", "", folded)
    return re.sub(r"^www\.", "", folded)


def alnum_key(text: str) -> str:
    return "".join(c for c in fold(text) if c.isalnum()).upper()


def entity_key(label: str, text: str) -> str:
    """The normalised key of a mention of ``label`` (see module docstring)."""
    if label == "PERSON":
        return person_key(text)
    if label == "SPELLED_NAME":
        return spelled_letters(text)
    if label == "CDCR_ID":
        return cdcr_key(text)
    if label == "PHONE_NUMBER":
        return digits_key(text)
    if label == "EMAIL_ADDRESS":
        return fold(text).strip()
    if label == "URL":
        return url_key(text)
    if label in {"SPELLED_OUT_ITEM", "OTHER_ID"}:
        return alnum_key(text)
    return generic_key(text)


def edit_distance_at_most_one(a: str, b: str) -> bool:
    """True when ``a`` and ``b`` differ by at most one insertion, deletion or substitution."""
    return a == b or (abs(len(a) - len(b)) <= 1 and edit_distance(a, b) <= 1)


def closest_name(key: str, candidates: set[str]) -> str | None:
    """The one name ``key`` most likely misspells (``engine.spelling``'s rule, the one
    propagation uses); ``None`` for an original itself, no match, or a tie."""
    if not key or key in candidates:
        return None
    return closest_misspelled(key, candidates)
