"""Name parts of PERSON mentions. Django-free.

Spans stored in the database for PERSON are *name parts*: the paper's tags give each
part its own reference (``John Doe`` → ``[PERSON_1] [PERSON_2]``; ``Doe`` alone →
``[PERSON_2]``), so one stored span = one part = one reference group. Detectors may
propose whole names; ``person_name_parts`` splits them before they are persisted.
"""

import re

from engine.detectors.name_words import _GENDER as _GENDER
from engine.detectors.name_words import TITLES as TITLES
from engine.detectors.name_words import WORD_GIVEN_NAMES as WORD_GIVEN_NAMES
from engine.detectors.name_words import is_given_name as is_given_name

_PART = re.compile(r"[^\W\d_](?:[^\W_]|['’`-](?=[^\W\d_]))*", re.UNICODE)
_POSSESSIVE = re.compile(r"['’]s?$", re.IGNORECASE)


def person_name_parts(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Split ``text[start:end]`` into name parts (character offsets into ``text``).

    Titles and honorifics (``Mr.``, ``Commissioner``, ``Jr.``) and a trailing possessive
    (``'s``) are left out, except a title that the text makes a surname (``Mr. Judge``,
    ``Carla Justice``: ``engine.detectors.role_names``); initials (``J.``) are kept as
    parts without their period.
    Hyphenated surnames stay one part (``Smith-Jones``).
    """
    parts = []
    for match in _PART.finditer(text, start, end):
        s, e = match.start(), match.end()
        word = text[s:e]
        possessive = _POSSESSIVE.search(word)
        if possessive and e - s > 2:
            e -= len(possessive.group(0))
            word = text[s:e]
        if not word:
            continue
        key = word.lower().rstrip(".")
        if key in TITLES and (key in _SUFFIXES or not _title_named_here(text, s, e)):
            continue
        parts.append((s, e))
    return parts


# Titles after a name that are never a surname ("John Quill Jr.", "Ann Alden, Esq.").
_SUFFIXES = frozenset({"jr", "sr", "ii", "iii", "iv", "esq"})


def _title_named_here(text: str, start: int, end: int) -> bool:
    """A title word that the text makes a surname: after an honorific or a given name
    (``Mr. Judge``, ``Carla Justice``), not before a name (``Mr. Justice Kennedy``)."""
    from engine.detectors.role_names import role_word_named_here

    return role_word_named_here(text, start, end)


def stored_pieces(text: str, start: int, end: int, label: str) -> list[tuple[int, int]]:
    """How a span is stored (the one rule, applied at persistence): a PERSON mention as
    its name parts (none when it holds only titles), any other label whole."""
    if label == "PERSON":
        return person_name_parts(text, start, end)
    return [(start, end)]
