"""Spelled names (``D-O-E``) and spelled-out items (``V as in Victor``)."""

from __future__ import annotations

import re

from engine.detectors.recognizers.base import RegexRecognizer, _c

# --- SPELLED_NAME -------------------------------------------------------------------

# Single letters joined by dashes; a dash may be followed by a line break (a spelled
# name split across transcript lines is re-joined). Never followed by more letters
# (stutters such as "th-th-that" or "b-b-but").
_SPELLED = _c(r"(?<![\w-])[A-Za-z](?:-[ \t]*\n?[ \t]*[A-Za-z]){1,24}(?![\w'’]|-[ \t]*\n?[ \t]*\w)")
# Letters separated by spaces or commas ("B O", "D, A, Y"): a spelling only where the
# transcript says so — after "spelled"/"spell" or right after the word it spells
_SPELLED_SPACED = _c(r"(?<![\w-])[A-Z](?:(?:, ?|\.? )[A-Z]){1,24}(?![\w'’-])")
_SPELL_CUE = re.compile(
    r"(?:\bspell(?:ed|s|ing)?|\bspelt)(?: (?:it|that|this|your|his|her|their|my|the|last|first|"
    r"name|surname|sir|ma'am|please|for us|for the record|is|as|out))*[ ,:.-]*$",
    re.IGNORECASE,
)
_WORD_BEFORE = re.compile(r"([A-Za-z][A-Za-z'’]*)[\W_]{1,4}$")


class SpelledNameRecognizer(RegexRecognizer):
    """``D-O-E``, ``M-c-K-E-N-Z-I-E``, also split over lines: ``Q-U-\\nI-L-L``; letters
    separated by spaces or commas (``B O``, ``D, A, Y``) after ``spelled`` or right after the
    word they spell."""

    ENTITY = "SPELLED_NAME"
    PATTERNS = (
        ("letters-with-dashes", _SPELLED, 0.9),
        ("letters-with-spaces", _SPELLED_SPACED, 0.9),
    )

    def accept(self, text: str, match: re.Match, name: str = "") -> bool:
        if name == "letters-with-spaces":
            return _spaced_spelling(text, match)
        letters = [c for c in match.group(0) if c.isalpha()]
        if len({c.lower() for c in letters}) < 2:
            return False  # "I-I-I", "a-a"
        if sum(c.islower() for c in letters) > len(letters) // 2 and len(letters) < 3:
            return False  # "s-o" in running lower-case speech is usually a stammer
        # A stutter running into the word it starts: "w-w-we" is excluded by the
        # lookahead; "u-h" style fillers are short and lower case.
        return not (
            len(letters) == 2 and "".join(letters).lower() in {"uh", "um", "hm", "mm", "oh"}
        )


def _spaced_spelling(text: str, match: re.Match) -> bool:
    letters = "".join(c for c in match.group(0) if c.isalpha())
    if len(set(letters)) < 2 and len(letters) < 3:
        return False
    before = text[max(0, match.start() - 60) : match.start()]
    if _SPELL_CUE.search(before):
        return True
    word = _WORD_BEFORE.search(before)  # "Bo, B O": the word it spells, just before
    return bool(word) and word.group(1).upper().replace("'", "").replace("’", "") == letters


# --- SPELLED_OUT_ITEM ---------------------------------------------------------------

_AS_IN = r"[A-Za-z],? as in [A-Z](?:[a-z]+|-[a-z]+)(?:-[a-z]+)?"
# items may run over line breaks, and digits read between them ("V as in Victor, 4, K as
# in King") belong to the same item
_SPELLED_OUT = _c(
    rf"(?<!\w){_AS_IN}(?:(?:,| and|, and)?[ \t]*\n?[ \t]*(?:{_AS_IN}|\d(?![\w.,:]\d|\w)))*"
    rf"(?<![ ,])"
)


class SpelledOutItemRecognizer(RegexRecognizer):
    """``V as in Victor, E as in Edward``."""

    ENTITY = "SPELLED_OUT_ITEM"
    PATTERNS = (("letter-as-in-word", _SPELLED_OUT, 0.9),)
