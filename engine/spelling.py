"""The one misspelling rule (propagation's repeats, the reference groups' fallback).

A word misspells a name when both start with the same letter, their lengths differ by
at most two, and they are at most one edit apart (two from nine letters), or exactly
two edits apart with the same Metaphone code. Levenshtein distance and Metaphone come
from ``jellyfish``. Words are compared as given (callers fold case first).
"""

from __future__ import annotations

import jellyfish


def edit_distance(a: str, b: str) -> int:
    return jellyfish.levenshtein_distance(a, b)


def misspelling_distance(word: str, name: str) -> int | None:
    """The edit distance when ``word`` is a misspelling of ``name`` (see the module
    docstring), else ``None``. A word equal to the name is no misspelling."""
    if not word or not name or word == name or word[0] != name[0]:
        return None
    if abs(len(word) - len(name)) > 2:
        return None
    distance = edit_distance(word, name)
    limit = 2 if len(name) >= 9 else 1
    if distance <= limit:
        return distance
    if distance == 2 and jellyfish.metaphone(word) == jellyfish.metaphone(name):
        return distance
    return None


def is_misspelling(word: str, name: str) -> bool:
    return misspelling_distance(word, name) is not None


def closest_misspelled(word: str, names) -> str | None:
    """The one name ``word`` most likely misspells; ``None`` when none does, or when two
    are equally close (no guess)."""
    scored = sorted(
        (d, name) for name in names if (d := misspelling_distance(word, name)) is not None
    )
    if not scored or (len(scored) > 1 and scored[0][0] == scored[1][0]):
        return None
    return scored[0][1]
