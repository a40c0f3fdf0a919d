"""Dates and times."""

from __future__ import annotations

import re

from engine.detectors.recognizers.base import (
    _MONTHS_ANY_CASE,
    _WEEKDAYS_ANY_CASE,
    DAY_NUM,
    MONTHS,
    NUM_WORD,
    ORDINAL_WORDS,
    SPOKEN_YEAR,
    YEAR,
    Found,
    RegexRecognizer,
    _c,
    ocr_digits,
)

# --- DATE ---------------------------------------------------------------------------

# a day written before its month (14 October, 3rd and 4th June): digits, so "May" after
# a count ("page 3 May I") is read by ``accept``
_DAY_FIRST = r"(?:(?:[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)? (?:and|or|to|&) )?(?:[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?"

_DATE_PATTERNS: tuple[tuple[str, re.Pattern, float], ...] = (
    (
        "numeric",
        _c(
            r"(?<![\w/.-])(?:0?[1-9]|1[0-2])[/.-](?:0?[1-9]|[12]\d|3[01])[/.-](?:\d{4}|\d{2})(?![\w/-])"
        ),
        0.9,
    ),
    ("iso", _c(r"(?<![\w-])(?:19|20)\d\d-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])(?![\w-])"), 0.9),
    # May 13, 2012 / May 13th / May of 2012 / May 2012 / Sept. 3rd, 1998; and day-first,
    # whole (14 October 2003, 3rd June, 3rd and 4th June): the day is part of the date, so
    # the release reads "[DAY] [MONTH] [YEAR]", never "14 [MONTH] [YEAR]"
    (
        "month-day-year",
        _c(
            rf"(?:(?<![\w$£€#/.,-]){_DAY_FIRST} )?\b(?:{_MONTHS_ANY_CASE})\.?(?: (?:the )?(?:{DAY_NUM}|{ORDINAL_WORDS})\b)?(?:,? (?:of )?(?:{YEAR}|'\d\d|{SPOKEN_YEAR})\b)?",
        ),
        0.85,
    ),
    # the 13th of May (, 2012); the 3rd and 4th of June (one date)
    (
        "day-of-month",
        _c(
            rf"\b(?:the )?(?:(?:{DAY_NUM}|{ORDINAL_WORDS}) (?:and|or|to|&) (?:the )?)?"
            rf"(?:{DAY_NUM}|{ORDINAL_WORDS}) (?:day )?of (?:{MONTHS})\b(?:,? {YEAR}\b)?",
            re.I,
        ),
        0.85,
    ),
    ("weekday", _c(rf"\b(?:{_WEEKDAYS_ANY_CASE})s?\b"), 0.8),
    # decades: the 1990s, the '90s, the 90s, the nineties, the eighties
    ("decade", _c(r"(?<![\w'])(?:1[89]\d0|20[0-2]0)'?s\b|(?<!\w)['’]\d0'?s\b"), 0.85),
    (
        "decade-words",
        _c(
            r"\b(?<=the )(?:early |mid |late |mid-)?(?:twenties|thirties|forties|fifties|sixties|seventies|eighties|nineties)\b(?! (?:years|of age))",
            re.I,
        ),
        0.6,
    ),
    (
        "back-in-year",
        _c(
            r"\b(?:back in|in|since|of|until|till|around|by|from|during|before|after) (?P<span>['’]\d\d)(?![\w'’])",
            re.I,
        ),
        0.85,
    ),
    ("year", _c(rf"(?<![\w$#.,/-])(?P<span>{YEAR})(?![\w%/-]|,\d|\.\d)"), 0.6),
    # a day alone, as an answer: "It was the 9th.", "on the 21st, or the 22nd"
    (
        "day-alone",
        _c(
            r"\b(?i:on|was|is|by|until|till|since|before|after|from|it's|around|about|no|not|or|"
            r"and|maybe|like|yes|say|said),? the "
            r"(?P<span>(?:[12]?\d|3[01])(?:st|nd|rd|th))(?=[ ]?[.?!,;]|[ ]?$|[ ](?:or|and)\b)",
            re.M,
        ),
        0.85,
    ),
    # ... or the whole answer: "A.  The 21st.", "Q.  The 3rd?", "THE WITNESS: The l2th."
    (
        "day-answer",
        _c(
            r"(?:^|[.?!][ ]+)[ \t]*(?:(?:A|Q)\.?[ \t]+|[A-Z][A-Z.'’ -]{0,40}:[ \t]+)?(?i:the )?"
            r"(?P<span>(?:[12]?\d|3[01])(?:st|nd|rd|th))(?=[ ]?[.?!]|[ ]?$)",
            re.M,
        ),
        0.85,
    ),
    (
        "spoken-year",
        _c(
            rf"\b(?:in|since|of|until|till|around|by|from|during|year) (?P<span>{SPOKEN_YEAR})\b",
            re.I,
        ),
        0.7,
    ),
)
_MAY_MARCH = re.compile(r"^(?:May|March|Mar|MAY|MARCH)\.?$")


class HearingDateRecognizer(RegexRecognizer):
    """Dates in formats, ordinals, weekdays, months, years and decades; OCR look-alikes of
    digits are read as digits for matching (``September lOth``, ``l998``)."""

    ENTITY = "DATE"
    PATTERNS = _DATE_PATTERNS

    def find_all(self, text: str) -> list[Found]:
        return super().find_all(ocr_digits(text))

    def accept(self, text: str, match: re.Match, name: str = "") -> bool:
        value = match.group(0)
        if name == "month-day-year" and value[:1].isdigit():
            # "3 May" after a count ("page 3 May I ask"): an ambiguous month after a bare
            # number is a date only with an ordinal or a year
            month = re.search(r"[A-Za-z]{3,}\.?(?=[ ,]|$)", value[value.index(" ") :])
            if (
                month
                and _MAY_MARCH.match(month.group(0))
                and not re.search(r"\d(?:st|nd|rd|th)\b|\d{4}|'\d\d", value)
            ):
                before = text[max(0, match.start() - 8) : match.start()].lower()
                return bool(re.search(r"\b(?:on|of|from|until|till|by|since)\s$", before))
            return True
        if _MAY_MARCH.match(value):
            # "May I ...", "march", "March" alone: only with a preposition before it
            before = text[max(0, match.start() - 12) : match.start()].lower()
            return bool(
                re.search(
                    r"\b(?:in|of|since|until|till|last|next|this|early|late|mid|by|from|through|during)\s$",
                    before,
                )
            )
        if name == "year":  # bare year: not a count, not part of an ID/number
            before = text[max(0, match.start() - 12) : match.start()].lower()
            after = text[match.end() : match.end() + 14].lower()
            if re.search(r"\$\s*$|#\s*$|\bnumber\s*$|\bbox\s*$|\bcase\s*$|\broom\s*$", before):
                return False
            if re.match(
                r"\s*(?:dollars|hours|people|pounds|miles|calories|feet|words|times|inmates|pages|square)\b",
                after,
            ):
                return False
        return True


# --- TIME ---------------------------------------------------------------------------

_CLOCK = r"(?:[01]?\d|2[0-3]):[0-5]\d"
_AMPM = r"(?:[ap]\.? ?m\b\.?)"
_TIME_PATTERNS = (
    ("clock", _c(rf"(?<![\w:.]){_CLOCK}(?: ?{_AMPM}| noon| midnight)?(?![\w:]|\.\d)", re.I), 0.85),
    ("hour-ampm", _c(rf"(?<![\w:.])(?:1[0-2]|0?[1-9]) ?{_AMPM}", re.I), 0.85),
    (
        "oclock",
        _c(
            rf"\b(?:(?:{NUM_WORD}|1[0-2]|[1-9])(?: (?:{NUM_WORD}))?|half past (?:{NUM_WORD})|quarter (?:past|to|of) (?:{NUM_WORD}))(?: o'clock| o’clock)",
            re.I,
        ),
        0.85,
    ),
    ("spoken-ampm", _c(rf"\b(?:{NUM_WORD})(?: (?:{NUM_WORD}))? ?(?:a\.m\.|p\.m\.)", re.I), 0.8),
    ("noon", _c(r"\b(?:noon|midnight|noontime)\b", re.I), 0.7),
    # military time: "1430 hours", "0915 hrs", and a four-digit time with a leading zero
    # after a time preposition ("at 0915"); "2:30p.m." is the clock pattern
    (
        "military-hours",
        _c(r"(?<![\w:.,$#/-])(?:[01]\d|2[0-3])[0-5]\d ?(?:hours|hrs\.?)(?!\w)"),
        0.85,
    ),
    (
        "military-leading-zero",
        _c(
            r"\b(?i:at|approximately|about|around|by|until|till|before|after|since) "
            r"(?P<span>0\d[0-5]\d)(?![\w:/-]|[.,]\d|[ ][A-Z])"
        ),
        0.85,
    ),
    # ... or alone as an answer ("A.  0915."): four digits with a leading zero are no year,
    # no count and no house number
    (
        "military-answer",
        _c(
            r"(?:^|[.?!][ ]+)[ \t]*(?:(?:A|Q)\.?[ \t]+)?(?i:about |around |approximately )?"
            r"(?P<span>0\d[0-5]\d)(?=[ ]?[.?!]?[ \t]*$|[ ]?[.?!][ ])",
            re.M,
        ),
        0.85,
    ),
    # a four-digit clock after a time preposition that no year can be: 2100-2359 ("at
    # 2130", "about 2245"), and 1000-1859 after a word that says when ("at 1430", "until
    # 1600") where a punctuation mark, a conjunction or a time of day follows (a count or a
    # height has its noun after it: "about 1500 people", "at 1200 feet")
    (
        "military-preposition",
        _c(
            r"\b(?i:at|approximately|about|around|by|until|till|before|after|since|between) "
            r"(?P<span>(?:2[1-3][0-5]\d|1[0-8][0-5]\d(?=[ ]?[.?!,;]|[ \t]*$|[ ](?i:or|and|to|"
            r"that|this|when|on|in the|at night|hours|hrs|we|he|she|they|I|you|it)\b)))(?![\w:/-]|[.,]\d|[ ][A-Z])"
            # a count, an amount or a block number is no time ("about 2200 dollars")
            r"(?![ ](?i:dollars|bucks|people|feet|foot|miles|pounds|square|words|times|inmates|"
            r"pages|calories|acres|units|students|members|votes|cases|block|copies|items)\b)",
            re.M,
        ),
        0.85,
    ),
    # military time said in words: "twenty-one thirty hours", "oh six hundred hours",
    # "fourteen hundred", "zero nine fifteen hours"
    (
        "military-words",
        _c(
            r"\b(?i:(?:zero|oh)[- ](?:one|two|three|four|five|six|seven|eight|nine)|ten|eleven|"
            r"twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|"
            r"twenty(?:[- ](?:one|two|three))?)[- ](?i:hundred|(?:zero|oh)[- ](?:one|two|three|"
            r"four|five|six|seven|eight|nine)|ten|fifteen|twenty(?:[- ]\w+)?|thirty(?:[- ]\w+)?|"
            r"forty(?:[- ]\w+)?|fifty(?:[- ]\w+)?)(?:[ ](?i:hours|hrs\.?)|(?<=hundred)(?=[ ]?[.?!,]))"
        ),
        0.85,
    ),
    (
        "in-the-morning",
        _c(
            rf"\b(?:{NUM_WORD}|1[0-2]|[1-9])(?: (?:{NUM_WORD}|[0-5]\d))? (?:in the (?:morning|afternoon|evening)|at night)\b",
            re.I,
        ),
        0.7,
    ),
)


# a clock written the British way, with a dot: "10.15 am", "(2.05 pm)"; without a.m./p.m.
# only after a word that says when ("at 3.40", "until 6.15") or as the first of a range
# that ends like a time ("5.45/6.15-ish", "5.45-6.15pm"); never an amount ("$4.50"), a
# section ("paragraph 4.15"), a decimal ("3.5 percent") or a quantity ("at 2.45 metres")
_DOT = r"(?:[01]?\d|2[0-3])\.[0-5]\d"
_NOT_AMOUNT = r"(?<![\w:.$£€#/,-])"
_NOT_QUANTITY = (
    r"(?![\w.,]?\d)(?![ ]?(?i:%|percent|per cent|per\b|points?\b|metres|meters|miles|km\b|kg\b|"
    r"kilo\w*|pounds|dollars|euros|cents|pence|p\b|inches|feet|foot|times\b|million|billion|"
    r"thousand|mg\b|ml\b|litres|liters|grams|ounces|degrees|acres|hectares|seconds|minutes))"
)
_DOTTED_TIME_PATTERNS = (
    ("dotted-ampm", _c(rf"{_NOT_AMOUNT}{_DOT} ?{_AMPM}", re.I), 0.85),
    (
        "dotted-preposition",
        _c(
            r"\b(?i:at|about|around|approximately|approx\.|by|until|till|before|after|since|"
            r"from|between|gone|past|roughly|say|maybe|nearer|closer to|just after|just before)"
            rf"[ ](?P<span>{_DOT}){_NOT_QUANTITY}(?![ ]?(?i:[ap]\.?[ ]?m\b))"
        ),
        0.8,
    ),
    (
        "dotted-range",
        _c(
            rf"{_NOT_AMOUNT}(?P<span>{_DOT})(?=[ ]?(?:/|-|–|to|or)[ ]?{_DOT}"
            rf"(?:-?ish\b|[ ]?{_AMPM}))",
            re.I,
        ),
        0.8,
    ),
)
_TIME_PATTERNS = _TIME_PATTERNS + _DOTTED_TIME_PATTERNS


class HearingTimeRecognizer(RegexRecognizer):
    """``1:30 PM``, ``10 a.m.``, ``one o'clock``, ``noon``."""

    ENTITY = "TIME"
    PATTERNS = _TIME_PATTERNS

    def find_all(self, text: str) -> list[Found]:
        read = ocr_digits(text)
        found = super().find_all(read)
        found = found + _chained_military(read, found)
        return sorted(found + _chained_dotted(read, found), key=lambda f: (f.start, f.end))

    def accept(self, text: str, match: re.Match, name: str = "") -> bool:
        if name == "in-the-morning":
            value = match.group(0).lower()
            # "one in the morning" fine; "one at night" fine; "two in the evening" fine
            return not value.startswith(("one of", "zero"))
        return True


_MILITARY = re.compile(r"(?:[01]\d|2[0-3])[0-5]\d")
# a second clock said right after a military one: "at 2130, maybe 2145", "0915 or 0930"
_CHAINED = re.compile(
    r"(?:[.?!] (?i:or maybe|or|maybe)|,? (?i:or|to|and|maybe|or maybe|until|till)|,|[ ]?-|[ ]?–) ?"
    r"(?P<span>(?:[01]\d|2[0-3])[0-5]\d)(?: ?(?:hours|hrs\.?))?(?![\w:/-]|[.,]\d)"
)


def _chained_military(text: str, found: list[Found]) -> list[Found]:
    """Four-digit clocks that follow a military time found (``At 2130, maybe 2145``)."""
    out: list[Found] = []
    ends = [f.end for f in found if _MILITARY.match(text, f.start)]
    while ends:
        end = ends.pop()
        match = _CHAINED.match(text, end)
        if match:
            start, stop = match.span("span")
            if not any(f.start == start for f in found + out):
                out.append(Found(start, match.end(), "TIME", 0.85, "military-chained"))
                ends.append(match.end())
    return out


_DOTTED = re.compile(_DOT)
# a second dotted clock right after one: "5.45/6.15-ish", "at 3.40 or 3.45", "2.05-2.30"
_CHAINED_DOTTED = re.compile(
    r"(?:[ ]?(?:/|-|–)[ ]?|,? (?i:or|to|and|maybe|or maybe|until|till) )"
    rf"(?P<span>{_DOT}(?: ?{_AMPM})?){_NOT_QUANTITY}",
    re.I,
)


def _chained_dotted(text: str, found: list[Found]) -> list[Found]:
    """Dotted clocks that follow a dotted clock found (``Around 5.45/6.15-ish``)."""
    out: list[Found] = []
    ends = [f.end for f in found if f.label == "TIME" and _DOTTED.match(text, f.start)]
    while ends:
        end = ends.pop()
        match = _CHAINED_DOTTED.match(text, end)
        if match:
            start, stop = match.span("span")
            if not any(f.start == start for f in found + out):
                out.append(Found(start, stop, "TIME", 0.8, "dotted-chained"))
                ends.append(stop)
    return out
