"""The recognizer shape and the shared vocabularies (numbers, months, phonetic alphabets).

Each recognizer declares ``(name, regex, score)`` patterns and an ``accept`` rule;
``find_all`` runs it on a text. Rules of thumb: every pattern is linear-time (no nested
unbounded repeats), compiled once at import. Django-free; imports neither Presidio nor spaCy.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine import vocab
from engine.progress import checkpoint
from engine.spans import TextSpan

# --- vocabularies -------------------------------------------------------------------

NATO = (
    "alfa|alpha|bravo|charlie|delta|echo|foxtrot|golf|hotel|india|juliet|juliett|kilo|lima|"
    "mike|november|oscar|papa|quebec|romeo|sierra|tango|uniform|victor|whiskey|x-ray|xray|"
    "yankee|zulu|"
    # the police (APCO) alphabet, common in California hearings: "Henry Paul 1234"
    "adam|boy|charles|david|edward|frank|george|henry|ida|john|king|lincoln|mary|nora|"
    "ocean|paul|queen|robert|sam|tom|union|william|young|zebra"
)
UNITS = "zero|oh|" + vocab.alternation(vocab.UNIT_WORDS)
TEENS = vocab.alternation(vocab.TEEN_WORDS)
TENS = vocab.alternation(vocab.TENS_WORDS)
# "nineteen", "twenty-one", "twenty one", "forty", "five"
NUM_WORD = (
    rf"(?:(?:{TENS})(?:[- ](?:one|two|three|four|five|six|seven|eight|nine))?|{TEENS}|{UNITS})"
)
MONTHS = vocab.alternation((*vocab.MONTHS, *vocab.MONTH_ABBREVIATIONS))
_AMBIGUOUS_MONTHS = ("March", "May", "August", "Mar")  # also ordinary words or names
MONTHS_SAFE = vocab.alternation(  # month names that are rarely anything else when capitalised
    m for m in (*vocab.MONTHS, *vocab.MONTH_ABBREVIATIONS) if m not in _AMBIGUOUS_MONTHS
)
WEEKDAYS = vocab.alternation(vocab.WEEKDAYS)
# cover pages and headers are often in capitals: "SEPTEMBER 18, 2020", "FRIDAY"
_MONTHS_ANY_CASE = MONTHS + "|" + vocab.alternation(m.upper() for m in vocab.MONTHS)
_WEEKDAYS_ANY_CASE = WEEKDAYS + "|" + WEEKDAYS.upper()
ORDINAL_WORDS = (
    "first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|"
    "thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|"
    "twenty-first|twenty-second|twenty-third|twenty-fourth|twenty-fifth|twenty-sixth|"
    "twenty-seventh|twenty-eighth|twenty-ninth|thirtieth|thirty-first"
)
DAY_NUM = r"(?:[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?"
YEAR = r"(?:1[89]\d\d|20\d\d)"
SPOKEN_YEAR = (
    rf"(?:nineteen[- ](?:{TENS})(?:[- ](?:one|two|three|four|five|six|seven|eight|nine))?"
    rf"|nineteen[- ](?:{TEENS})|nineteen[- ]oh[- ](?:{UNITS})"
    rf"|two thousand(?: and)?(?: (?:{NUM_WORD}))?|twenty[- ](?:{TEENS}|twenty(?:[- ](?:one|two|three|four|five))?))"
)


# OCR look-alikes of digits in a number-shaped token: "l998", "2Oth", "September lOth"
_OCR_TOKEN = re.compile(
    r"(?<![A-Za-z0-9'’])(?:(?=[0-9lIO]*\d)[0-9lIO]{2,4}(?:st|nd|rd|th|s)?|[lI][0-9lIO](?:st|nd|rd|th)"
    r"|(?<=the )l(?:st|th))"
    r"(?![A-Za-z0-9])"
)
_OCR_DIGIT = str.maketrans({"l": "1", "I": "1", "O": "0"})


def ocr_digits(text: str) -> str:
    """``text`` with OCR look-alikes of digits (``l``, ``I``, ``O``) read as digits inside
    number-shaped tokens (``l998`` → ``1998``, ``lOth`` → ``10th``), for matching only: the
    result has the same length, so offsets found in it point into ``text``."""
    if not any(c in text for c in "lIO"):
        return text

    def fix(m: re.Match) -> str:
        token = m.group(0)
        head = re.match(r"[0-9lIO]+", token).group(0)
        return head.translate(_OCR_DIGIT) + token[len(head) :]

    return _OCR_TOKEN.sub(fix, text)


@dataclass(frozen=True, slots=True)
class Found(TextSpan):
    """A recognizer's match: the span, its score and the pattern's name (the
    detection's ``reason``)."""

    score: float
    pattern: str


class RegexRecognizer:
    """A recognizer from ``(name, regex, score)`` triples and an ``accept`` hook.

    A match's group named ``span`` (when present) is the reported span; otherwise the
    whole match.
    """

    ENTITY = ""
    PATTERNS: tuple[tuple[str, re.Pattern, float], ...] = ()

    @property
    def name(self) -> str:
        return type(self).__name__

    def accept(self, text: str, match: re.Match, name: str = "") -> bool:
        return True

    def find_all(self, text: str) -> list[Found]:
        found = []
        for name, regex, score in self.PATTERNS:
            for match in regex.finditer(text):
                checkpoint()  # a job's cancellation point (engine.progress.watching)
                if not self.accept(text, match, name):
                    continue
                if "span" in regex.groupindex and match.group("span") is not None:
                    start, end = match.span("span")
                else:
                    start, end = match.span()
                if end > start:
                    found.append(Found(start, end, self.ENTITY, score, name))
        unique: dict[tuple[int, int], Found] = {}
        for f in found:  # one result per extent: the best-scoring pattern
            if (f.start, f.end) not in unique or f.score > unique[(f.start, f.end)].score:
                unique[(f.start, f.end)] = f
        return sorted(unique.values(), key=lambda f: (f.start, f.end))


def _c(pattern: str, flags: int = 0) -> re.Pattern:
    return re.compile(pattern, flags)
