"""Spelled names (``D-O-E``) and spelled-out items (``V as in Victor``)."""

from __future__ import annotations

import re

from engine.detectors.recognizers.base import RegexRecognizer, _c

# --- SPELLED_NAME -------------------------------------------------------------------

# Single letters joined by dashes; a dash may be followed by a line break (a spelled
# name split across transcript lines is re-joined). Never followed by more letters
# (stutters such as "th-th-that" or "b-b-but").
_SPELLED = _c(r"(?<![\w-])[A-Za-z](?:-[ \t]*\n?[ \t]*[A-Za-z]){1,24}(?![\w'’]|-[ \t]*\n?[ \t]*\w)")
_SPELLED_SPACED = _c(r"(?<![\w-])[A-Z](?:[ .][A-Z]){2,24}(?![\w'’])")


class SpelledNameRecognizer(RegexRecognizer):
    """``D-O-E``, ``M-c-K-E-N-Z-I-E``, also split over lines: ``Q-U-\\nI-L-L``."""

    ENTITY = "SPELLED_NAME"
    PATTERNS = (("letters-with-dashes", _SPELLED, 0.9),)

    def accept(self, text: str, match: re.Match, name: str = "") -> bool:
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


# --- SPELLED_OUT_ITEM ---------------------------------------------------------------

_AS_IN = r"[A-Za-z],? as in [A-Z](?:[a-z]+|-[a-z]+)(?:-[a-z]+)?"
_SPELLED_OUT = _c(rf"(?<!\w){_AS_IN}(?:(?:,| and|, and)? {_AS_IN})*")


class SpelledOutItemRecognizer(RegexRecognizer):
    """``V as in Victor, E as in Edward``."""

    ENTITY = "SPELLED_OUT_ITEM"
    PATTERNS = (("letter-as-in-word", _SPELLED_OUT, 0.9),)
