"""Heights and ages."""

from __future__ import annotations

import re

from engine.detectors.recognizers.base import NUM_WORD, ORDINAL_WORDS, RegexRecognizer, _c

# --- HEIGHT -------------------------------------------------------------------------

_FEET = r"(?:[4-7]|four|five|six|seven)"
_INCHES = rf"(?:1[01]|[0-9]|{NUM_WORD})"
_HEIGHT_WORDS = _c(
    rf"(?<!\w){_FEET}[- ](?:foot|feet|ft\.?)(?:,? (?:and )?{_INCHES}(?: (?:inches|inch|in\.))?)?(?!\w)",
    re.IGNORECASE,
)
_HEIGHT_MARKS = _c(r"(?<![\w'])[4-7] ?(?:'|’|ft) ?(?:1[01]|[0-9])? ?(?:\"|”|''|in\b)?")
# "about five-seven" / "5-11": only beside a word about size
_HEIGHT_DASHED = _c(
    rf"(?<![\w-])(?:{_FEET})-(?:1[01]|[0-9]|eleven|ten|one|two|three|four|five|six|seven|eight|nine)(?![\w-])",
    re.IGNORECASE,
)
_HEIGHT_CONTEXT = re.compile(
    r"\b(?:tall|taller|short|shorter|height|big|bigger|small|smaller|size|feet|foot|weigh\w*)\b",
    re.I,
)


class HeightRecognizer(RegexRecognizer):
    """``five foot eleven``, ``6'2"``, ``5 feet 10 inches``."""

    ENTITY = "HEIGHT"
    PATTERNS = (
        ("feet-words", _HEIGHT_WORDS, 0.85),
        ("feet-marks", _HEIGHT_MARKS, 0.8),
        ("feet-dashed", _HEIGHT_DASHED, 0.8),
    )

    def accept(self, text: str, match: re.Match, name: str = "") -> bool:
        value = match.group(0)
        if name == "feet-dashed":
            around = text[max(0, match.start() - 50) : match.end() + 30]
            return bool(_HEIGHT_CONTEXT.search(around))
        if "'" in value or "’" in value:
            # 6'2" or 5'11 — require inches or a height context; "I'm" has no digit
            return bool(re.search(r"\d ?['’] ?\d", value)) or bool(
                re.search(
                    r"\b(tall|height|feet)\b",
                    text[max(0, match.start() - 40) : match.end() + 20],
                    re.I,
                )
            )
        return True


# --- AGE ----------------------------------------------------------------------------

_AGE_NUM = rf"(?:1[0-2]\d|[1-9]?\d|{NUM_WORD})"
_AGE_PATTERNS = (
    (
        "age-of",
        _c(rf"\b(?:at|by|from|until|since) (?:the )?age (?:of )?(?P<span>{_AGE_NUM})\b", re.I),
    ),
    (
        "years-old",
        _c(rf"(?<![\w-])(?P<span>{_AGE_NUM})(?:[- ]years?[- ]old|[- ]year[- ]old)\b", re.I),
    ),
    (
        "when-i-was",
        _c(
            rf"\b(?:when|since|till|until) (?:I|he|she|you|they|we) (?:was|were) (?:about |around |only |just )?(?P<span>{_AGE_NUM})\b(?! (?:o'clock|percent|times|minutes|hours|days|weeks|months|of|or|dollars|feet|inches|pounds))",
            re.I,
        ),
    ),
    # "aged 19", "your age, 44,"
    ("aged", _c(rf"\b(?:aged|age),? (?P<span>{_AGE_NUM})\b(?!-\w|[.,]\d)", re.I)),
    (
        "i-am-n",
        _c(
            rf"\b(?:I'm|I am|he's|she's|he is|she is|you're|you are) (?:now |only |just )?(?P<span>{_AGE_NUM})(?: (?:now|today|years)\b|(?=[.;!?]|, (?:and|but|so)\b))",
            re.I,
        ),
    ),
    (
        "pronoun-was-n",
        _c(
            rf"\b(?:I|he|she|you|they|we|who) (?:was|were|is|'s) (?:only |just |about |around |barely )?(?P<span>{_AGE_NUM})(?=[.,;!?]| at the time\b| then\b| and\b| or\b| years\b| when\b)",
            re.I,
        ),
    ),
    ("years-younger", _c(rf"(?<![\w-])(?P<span>{_AGE_NUM}) years? (?:younger|older)\b", re.I)),
    # "a youth offender, only 20 at the time"
    (
        "only-n-at-the-time",
        _c(rf"\b(?:only|just|barely) (?P<span>{_AGE_NUM}) (?:at the time|back then|then)\b", re.I),
    ),
    # an age said around its number: "he had just turned 16 that spring", "turning 18 in
    # June" (a count has its noun after it: "turned 16 pages")
    (
        "turned-n",
        _c(
            rf"\b(?:turn|turns|turned|turning) (?P<span>{_AGE_NUM})"
            r"(?=[.,;!?]|[ \t]*$| (?:and|in|that|the|this|last|when|on|at|before|after|then|"
            r"years?|so|but|or|just|a|an)\b)",
            re.I | re.M,
        ),
    ),
    # "my 40th birthday", "her sixteenth birthday": the ordinal is the age
    (
        "nth-birthday",
        _c(
            rf"(?<![\w-])(?P<span>(?:1[0-2]\d|[1-9]?\d)(?:st|nd|rd|th)|{ORDINAL_WORDS}|"
            r"(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)-(?:first|second|third|"
            r"fourth|fifth|sixth|seventh|eighth|ninth)|(?:twentieth|thirtieth|fortieth|"
            r"fiftieth|sixtieth|seventieth|eightieth|ninetieth)) birthday\b",
            re.I,
        ),
    ),
    # "His friend was nearly 17.", "she is almost 40 now": nearly/almost before a number
    # after a verb of being (not "it was nearly 12": a clock; ``accept``)
    (
        "nearly-n",
        _c(
            rf"\b(?:was|is|were|are|'s|be|being) (?:nearly|almost|not quite|just under|just over"
            rf"|barely|only just) (?P<span>{_AGE_NUM})"
            r"(?=[.,;!?]| (?:at the time|then|now|when|and|or|years?)\b)",
            re.I,
        ),
    ),
    # "drinking at the age of thirteen, and then PCP by 15." — an age named just before
    ("by-n", _c(rf"\b(?:by|at|till|until) (?P<span>{_AGE_NUM})(?=[.,;!?])", re.I)),
)
_AGE_BEFORE = re.compile(r"\bage\b|\byears? old\b|\byear-old\b", re.I)


class AgeRecognizer(RegexRecognizer):
    """``at the age of 19``, ``nineteen years old``, ``when I was 16`` → the number."""

    ENTITY = "AGE"
    PATTERNS = tuple((name, regex, 0.85) for name, regex in _AGE_PATTERNS)

    def accept(self, text: str, match: re.Match, name: str = "") -> bool:
        value = match.group("span").lower()
        if value in {"oh", "zero", "0"}:
            return False
        if name == "nearly-n":
            # "it was nearly 12", "that was almost 20": a clock or a count, not an age
            before = text[max(0, match.start() - 12) : match.start()].lower()
            if re.search(r"\b(?:it|that|this|there|which|what|time|clock)\W*$", before):
                return False
        if name == "by-n":
            # only as the second age of a sentence that already gave one
            before = text[max(0, match.start() - 80) : match.start()]
            before = re.split(r"[.!?\n]", before)[-1]
            return bool(_AGE_BEFORE.search(before))
        return True
