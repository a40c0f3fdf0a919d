"""Spelled names (``D-O-E``) and spelled-out items (``V as in Victor``)."""

from __future__ import annotations

import re

from engine.detectors.recognizers.base import Found, RegexRecognizer, _c

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

    def find_all(self, text: str) -> list[Found]:
        """Dashed spellings one after the other across commas (``T-R-I, N-A``: one
        spelling said in two breaths) are one span."""
        return _joined(super().find_all(text), text, _DASHED_JOIN, "letters-with-dashes")

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

_AS_IN = r"[A-Za-z],? as in [A-Za-z](?:[a-z]+|-[a-z]+)(?:-[a-z]+)?"
# items may run over line breaks, and digits read between them ("V as in Victor, 4, K as
# in King") belong to the same item
_SPELLED_OUT = _c(
    rf"(?<!\w){_AS_IN}(?:(?:,| and|, and)?[ \t]*\n?[ \t]*(?:{_AS_IN}|\d(?![\w.,:]\d|\w)))*"
    rf"(?<![ ,])"
)
_ITEM = re.compile(r"([A-Za-z]),? as in ([A-Za-z])")
# What may stand between two items of one spelling: punctuation, "and", a dash, a filler
# ("T as in Tom; R as in Robert -- uh, I as in Ida"), never a word of its own.
_OUT_JOIN = re.compile(
    r"(?:[ \t]*\n?[ \t]*(?:[,;.]|--?|\band\b|\bthen\b|\buh\b|\bum\b|\ber\b))*[ \t]*\n?[ \t]*",
    re.IGNORECASE,
)
# Between two dashed spellings: a comma (and "and"), nothing else.
_DASHED_JOIN = re.compile(r",[ \t]*(?:and[ \t]+)?\n?[ \t]*")


def _joined(found: list[Found], text: str, join: re.Pattern, pattern: str) -> list[Found]:
    """``found`` with neighbours of ``pattern`` whose gap ``join`` matches whole made one."""
    out: list[Found] = []
    for f in found:
        last = out[-1] if out else None
        if (
            last is not None
            and f.pattern == pattern
            and last.pattern == pattern
            and 0 <= f.start - last.end <= 12
            and join.fullmatch(text, last.end, f.start)
        ):
            out[-1] = Found(last.start, f.end, last.label, max(last.score, f.score), pattern)
        else:
            out.append(f)
    return out


class SpelledOutItemRecognizer(RegexRecognizer):
    """``V as in Victor, E as in Edward``; one span for the whole spelling, its items
    separated by commas, semicolons, full stops, dashes or a filler."""

    ENTITY = "SPELLED_OUT_ITEM"
    PATTERNS = (("letter-as-in-word", _SPELLED_OUT, 0.9),)

    def accept(self, text: str, match: re.Match, name: str = "") -> bool:
        # "as in" before a word in lower case spells only with that word's letter
        # ("T as in tom"), not "I, as in me"
        for item in _ITEM.finditer(match.group(0)):
            letter, initial = item.groups()
            if initial.islower() and initial != letter.lower():
                return False
        return True

    def find_all(self, text: str) -> list[Found]:
        return _joined(super().find_all(text), text, _OUT_JOIN, "letter-as-in-word")
