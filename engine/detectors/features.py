"""What the decision table reads about one candidate: its words' lexical facts and its
context, each computed at most once. Django-free.

``Features`` is a frozen record of one candidate (a member's find after trimming, or one
name part of a PERSON find). Each fact is a ``fact`` (a cached property): computed the first
time a rule of the table (``engine.detectors.rules``) asks for it, then kept, so a fact several
rules read (the words' English frequency, the words before the candidate, whether a
statistical model made it) is computed once, and a fact no rule reaches is never computed.

``Context`` holds what is per document: the text, the allow-list and the public terms.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from engine.detectors.base import Detection
from engine.detectors.decisions import LOWER_AGREED, statistical_member
from engine.detectors.names import TITLES, is_given_name, person_name_parts
from engine.detectors.not_names import person_shape_rule
from engine.detectors.ordinary import ORDINARY_ZIPF, is_name_word, is_ordinary
from engine.detectors.public import ROLE_WORDS, PublicTerms, is_title_or_role
from engine.detectors.recognizers.base import ocr_digits

# --- word shapes ------------------------------------------------------------------------

MONTH_RE = (
    r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
)
DATE_ANCHOR = re.compile(
    rf"\d|\b(?:{MONTH_RE})\b|\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b|"
    r"\b(?:twenties|thirties|forties|fifties|sixties|seventies|eighties|nineties)\b|"
    r"\b(?:nineteen|two thousand|twenty)[- ]\w+|\b(?:first|second|third|\w+teenth|\w+tieth|\w+th) of\b",
    re.IGNORECASE,
)
DATE_AGE = re.compile(r"\bage\b|\byears? old\b|\byear-old\b", re.IGNORECASE)
DURATION = re.compile(
    r"^(?:about |around |almost |over |nearly |some |approximately |another |the (?:past|last|next) )?"
    r"(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\w+teen|\w+ty(?:[- ]\w+)?|several|few|a few|many|couple(?: of)?|a couple(?: of)?)"
    r"(?: and a half)? (?:years?|months?|weeks?|days?|decades?)(?: (?:ago|old|later|earlier|prior|before|after))?$",
    re.IGNORECASE,
)
# A bare number, or a list or range of them ("45", "10, 15", "10 to 15"), with nothing that
# makes it a date or a time: a count, an amount, a duration in minutes.
BARE_NUMBERS = re.compile(
    r"^(?:about |around |maybe |approximately |like )?\d{1,2}"
    r"(?:(?:,| to| or| and|-|–)\s?\d{1,2})*$",
    re.IGNORECASE,
)
SHORT_DURATION = re.compile(
    r"^(?:about |around |maybe |approximately |another |like |a good |over |under )?"
    r"(?:\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|fifteen|twenty|thirty|"
    r"forty(?:-five)?|sixty|ninety|a few|a couple(?: of)?|several)"
    r"(?:(?:,| to| or| and|-|–)\s?(?:\d{1,3}|\w+))*"
    r"(?: and a half)? (?:minutes?|mins?|hours?|hrs?|seconds?|secs?)$",
    re.IGNORECASE,
)
_YEAR = re.compile(r"1[89]\d\d|20\d\d")
_DATE_WORD = re.compile(
    rf"\b(?:{MONTH_RE})\b|day\b|\b(?:year|month|week|decade|centur)", re.IGNORECASE
)
# military time in words: "twenty-one thirty hours", "oh six hundred", "fourteen hundred"
_SPOKEN_MILITARY = (
    r"\b(?:hundred|(?:twenty|thirty|forty|fifty)(?:-\w+)?|ten|fifteen|(?:oh|zero)[- ]\w+)"
    r"[ ](?:hours|hrs)\b|\b(?:ten|eleven|twelve|\w+teen|twenty(?:[- ]\w+)?|(?:oh|zero)[- ]\w+)"
    r"[- ]hundred$"
)
# a four-digit clock from 1000 to 1859 (a year's shape too): kept when a pattern's context
# made it a time ("at 1430."), never on a model's word alone
DAY_CLOCK = re.compile(r"1[0-8][0-5]\d")
TIME_WORDS = re.compile(
    rf"{_SPOKEN_MILITARY}|\d|o'clock|o’clock|\bnoon\b|\bmidnight\b|\b[ap]\.?m\b|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b.*\b(?:morning|afternoon|evening|night)\b",
    re.IGNORECASE,
)
# A time needs a clock, an hour with a.m./p.m., o'clock, noon, midnight, "1530 hours" or an
# hour word with a time of day: a case number ("No. 11-393") or "section 3" is no time.
TIME_STRICT = re.compile(
    r"\d:\d\d|\d\s*[ap]\.?\s?m\b|o'clock|o’clock|\bnoon\b|\bmidnight\b|\b\d{4} ?(?:hours|hrs)\b|"
    rf"^(?:0\d|2[1-3])[0-5]\d$|{_SPOKEN_MILITARY}|"
    r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\d{1,2})\b.*"
    r"\b(?:morning|afternoon|evening|night|[ap]\.m\.)",
    re.IGNORECASE,
)
STUTTER = re.compile(r"^(\w{1,3})-(?:\1-)*\1\w*$", re.IGNORECASE)
# An address has its shape, written ("x@y.org", "www.", "cdcr.ca.gov") or spoken ("at …
# dot com"): a name followed by its spelling ("Hensley. H-E-N-S-L-E-Y") that the token
# classifier reads as a URL or e-mail has none, and must not win the merge over PERSON.
_SPOKEN_DOMAIN = r"\bdot\s+(?:com|org|net|gov|edu|us|io|info)\b"
ADDRESS_SHAPE = {
    "EMAIL_ADDRESS": re.compile(rf"@|\bat\b.*{_SPOKEN_DOMAIN}", re.IGNORECASE),
    "URL": re.compile(
        rf"://|\bwww\.|[a-z0-9-]\.(?:[a-z]{{2,}})(?:\b|/)|{_SPOKEN_DOMAIN}", re.IGNORECASE
    ),
}
# a day's ordinal, OCR look-alikes of digits read (``ocr_digits``): "l5th", "2lst", "3Oth"
_OCR_ORDINAL = re.compile(r"^(?:[12]?\d|3[01])(?:st|nd|rd|th)$")
_TRAILING_NUMBERS = re.compile(r"(?:\s+\S*\d\S*)+$")
_TITLED = re.compile(
    r"^(?:Mr|Mrs|Ms|Dr|Officer|Deputy|Sergeant|Sgt|Lieutenant|Lt|Captain|Capt|Detective|Det|"
    r"Chaplain|Warden|Counselor|Agent|Judge|Reverend|Rev|Pastor|Father|Sister|Brother|Nurse|"
    r"Correctional Officer)\.? [A-Z][\w'-]+(?: [A-Z][\w'-]+)?$"
)
_FULL_NAME = re.compile(r"^([A-Z][a-z]+) [A-Z][a-z]+(?:-[A-Z][a-z]+)?$")
_NOT_SURNAME = frozenset(
    "Street Avenue Road Lane Drive Court Way Place Boulevard County City Park Beach Valley "
    "Hills Heights Springs Lake River Center Hospital School College University Prison Jail "
    "Department Church Bank Company Group Program Programs Club Foundation".split()
)
_CAPITAL_WORD = re.compile(r"[A-Z][a-z]+")
_WORDS = re.compile(r"[A-Za-z][\w'’]*")
# Words that only look like names at a sentence start: "Last name Williams", "Good luck";
# the labels of a certification page ("Signed:", "Dated:").
_NOT_NAME_HERE = re.compile(
    r"(?:Last|First|Middle|Maiden|Full)(?= names?\b)|Good(?= (?:luck|morning|afternoon|evening|"
    r"night|job|day)\b)|(?:Thank|Thanks)(?= you\b)|(?:Signed|Dated|Certified|Subscribed)(?=:)"
)
_AFTER_HONORIFIC = re.compile(r"\b(?:Mr|Mrs|Ms|Mx|Dr|MR|MRS|MS|DR)\.?[ \t]+$")
# Two-letter surnames that are also function words of the role list (public.ROLE_WORDS),
# in title case right after an honorific: "Mr. An" (Korean, Vietnamese), "Ms. To".
SHORT_SURNAME_WORDS = frozenset({"An", "To", "By"})
# Function words that no name part is, in a line written in capitals ("OGINDAN AT SAN
# QUENTIN"); "AN", "TO", "BY" are surnames after an honorific (SHORT_SURNAME_WORDS), and
# no word after an honorific is judged here.
CAPS_FUNCTION_WORDS = frozenset({"at", "in", "on", "of", "the", "and", "or", "for", "from", "with"})
ROLES = frozenset(TITLES) | ROLE_WORDS
# A named place, body or group needs a word that is not a function word ("I'm a").
_CONTRACTION = frozenset({"'m", "'s", "'re", "'ve", "'ll", "'d", "n't", "’m", "’s", "’re"})
_STOP_WORDS: set[str] = set()
# After an honorific a lower-case word is a name unless it is an everyday word (Zipf 4+:
# "Mr. young" stays a slip of the adjective's case, "Mr. griffiths" is a surname).
HONORIFIC_LOWER_ZIPF = 4.0
# where a person comes from: "a guy from Energy helped us", "people from Liberty"
_ORIGIN_BEFORE = re.compile(
    r"\b(?:guy|man|men|woman|women|lady|girl|boy|kid|kids|people|family|folks|somebody|"
    r"someone|friend|friends|cousin|cousins|relatives)[ \t]+from[ \t]+$",
    re.IGNORECASE,
)


class fact:  # noqa: N801 - reads as a decorator, like cached_property
    """A fact of a candidate, computed the first time it is read and then kept in the
    instance (``functools.cached_property`` without its lock, which Python 3.11 takes on
    every first read: a third of the table's time on a 15,000-word hearing)."""

    def __init__(self, fn) -> None:
        self.fn = fn
        self.name = fn.__name__
        self.__doc__ = fn.__doc__

    def __set_name__(self, owner, name: str) -> None:
        self.name = name

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.fn(obj)
        return value


def only_function_words(value: str, allowed: Iterable[str] = ()) -> bool:
    """Whether ``value`` holds nothing but function words (and ``allowed`` words)."""
    if not _STOP_WORDS:
        from spacy.lang.en.stop_words import STOP_WORDS

        _STOP_WORDS.update(STOP_WORDS)
    words = re.findall(r"\w+|['’]\w+", value.lower())
    return bool(words) and all(w in _STOP_WORDS or w in _CONTRACTION or w in allowed for w in words)


def only_function_and_role_words(value: str) -> bool:
    """Whether ``value`` holds only function words, titles and roles ("I'm a
    Commissioner")."""
    return only_function_words(value, allowed=ROLES)


def known_place(value: str) -> bool:
    from engine.detectors.patterns import is_known_place

    return is_known_place(value)


def statistical(d: Detection) -> bool:
    """spaCy's NER guess, directly or through Presidio (the token classifier and a
    learned member are ``statistical_member`` too, but not this)."""
    return d.detector == "spacy" or (
        d.detector == "presidio" and d.explanation == "SpacyRecognizer"
    )


def _after_honorific(text: str, start: int) -> bool:
    return bool(_AFTER_HONORIFIC.search(text, max(0, start - 6), start))


def _everyday(word: str) -> bool:
    """An everyday English word that is no name (``Rate``; not ``Garcia``, ``Hope``)."""
    return is_ordinary(word.lower()) and not is_name_word(word.lower())


_SECTION_NUMBER = re.compile(r"\d{1,3}\.\d{1,3}")
_SECTION_WORD = re.compile(
    r"(?i:\b(?:paragraphs?|paras?\.?|sections?|clauses?|rules?|pages?|exhibits?|tabs?|items?|"
    r"chapters?|articles?|figures?|tables?)|[§¶])[ ]?$"
)
_IDENTIFIER_AFTER = re.compile(r"-[A-Z]{1,4}-?\d")


@dataclass(frozen=True)
class Context:
    """What is per document: the text, its allow-list and its public terms."""

    text: str
    allow: object  # clean.AllowList
    public: PublicTerms


@dataclass(frozen=True)
class Features:
    """One candidate: ``d`` (trimmed; None when nothing but punctuation was left), the
    member's find it came from (``raw``), and for a name part the PERSON find it is a part
    of (``whole``). ``expressions_cut`` says a DATE/TIME find was already cut into its
    expressions."""

    ctx: Context
    raw: Detection
    d: Detection | None
    whole: Detection | None = None
    expressions_cut: bool = False

    # --- the candidate --------------------------------------------------------------
    @property
    def label(self) -> str:
        return self.d.label

    @fact
    def value(self) -> str:
        return self.ctx.text[self.d.start : self.d.end]

    @property
    def part(self) -> bool:
        """A name part of a PERSON find (decided by the name-part rows)."""
        return self.whole is not None

    @property
    def member(self) -> Detection:
        """The find whose member and reason speak for this candidate."""
        return self.whole or self.d

    # --- who proposed it -----------------------------------------------------------
    @fact
    def spacy_guess(self) -> bool:
        """spaCy's NER guess (directly or through Presidio)."""
        return statistical(self.member)

    @fact
    def learned(self) -> bool:
        """A learned model's guess (spaCy, the token classifier, a learned member)."""
        return statistical_member(self.member.detector, self.member.explanation)

    @property
    def model_or_classifier(self) -> bool:
        return self.spacy_guess or self.member.detector == "transformer"

    @property
    def lower_case_allowed(self) -> bool:
        """Members that may propose a name in lower case: copies of a known name
        (propagation, the safety net) and a word after an honorific (``Mr. pellegrino``)."""
        m = self.member
        return m.detector in {"propagation", "safety_net"} or m.explanation in {
            "honorific",
            "SpeakerTagRecognizer",
        }

    @property
    def models_agree_lower(self) -> bool:
        return self.member.explanation == LOWER_AGREED

    # --- shape --------------------------------------------------------------------
    @fact
    def cuts_word(self) -> bool:
        """It starts or ends inside a word (a token classifier's piece, ``godfat``); a
        word glued to a number (``Breyer16:17`` in a word index) is two words."""
        text, start, end = self.ctx.text, self.d.start, self.d.end
        return (start > 0 and _same_kind(text[start - 1], text[start])) or (
            end < len(text) and _same_kind(text[end - 1], text[end])
        )

    @property
    def multi_line(self) -> bool:
        return "\n" in self.value

    @property
    def address_shaped(self) -> bool:
        return bool(ADDRESS_SHAPE[self.label].search(self.value))

    @fact
    def expressions(self) -> list[Detection]:
        """The DATE/TIME expressions the hearing recognizers find inside it (``Friday,
        September 18, 2020`` → two), or the candidate itself when they find none."""
        return refine(self.ctx.text, self.d)

    @property
    def ocr_ordinal(self) -> bool:
        """A day's ordinal with OCR look-alikes of digits (``the l5th``)."""
        return bool(_OCR_ORDINAL.match(ocr_digits(self.value)))

    @property
    def section_number(self) -> bool:
        """A number with a dot after the word for a part of a document (``paragraph
        2.45``, ``section 8.15``): a reference, no clock or date."""
        return bool(
            _SECTION_NUMBER.fullmatch(self.value)
            and _SECTION_WORD.search(self.ctx.text, max(0, self.d.start - 16), self.d.start)
        )

    @property
    def year_in_identifier(self) -> bool:
        """A year glued by a hyphen to a docket's letters (``2017-GJ-384``,
        ``2019-CR-00123``): a part of a case number, no date."""
        return bool(_IDENTIFIER_AFTER.match(self.ctx.text, self.d.end))

    @fact
    def name_before_numbers(self) -> str:
        """The words before trailing numbers (``MATTHEW MORALES P85939`` in a footer)."""
        return _TRAILING_NUMBERS.sub("", self.value)

    @property
    def titled(self) -> bool:
        """A title and a name: ``Officer Cantu``, ``Chaplain Myers``."""
        return bool(_TITLED.match(self.name_before_numbers))

    @fact
    def full_name(self) -> bool:
        """A known first name and a second capitalised word that is no place or body
        head, and not a known place (``Amber Martinez``, ``MATTHEW MORALES``)."""
        value = self.name_before_numbers
        if value.isupper():
            value = value.title()
        match = _FULL_NAME.match(value)
        if not match or value.split(" ")[1] in _NOT_SURNAME:
            return False
        return is_given_name(match.group(1)) and not known_place(value)

    @fact
    def lone_given_name(self) -> bool:
        """One word that is a given name and no English word or known place (``Debbie``)."""
        value = self.name_before_numbers
        if not re.fullmatch(r"[A-Z][a-z]+", value) or is_ordinary(value):
            return False
        return is_given_name(value) and not known_place(value)

    @fact
    def capital_word(self) -> bool:
        """One capitalised lower-case word (``Energy``, ``Chess``)."""
        return bool(_CAPITAL_WORD.fullmatch(self.value))

    @fact
    def placed(self) -> bool:
        """The words before say it is a place: a verb of movement or residence and a
        locative preposition (``we were living in Energy``) or where a person comes from
        (``a guy from Energy``); an institution's word is no town (``went to Church``)."""
        from engine.detectors.decisions import _PLACE_BEFORE
        from engine.detectors.recognizers.locations import _place_words_ok

        before = self.ctx.text[max(0, self.d.start - 40) : self.d.start]
        return bool(_PLACE_BEFORE.search(before) or _ORIGIN_BEFORE.search(before)) and (
            _place_words_ok(self.value)
        )

    @fact
    def known_place(self) -> bool:
        return known_place(self.value)

    # --- lexical facts ------------------------------------------------------------
    @fact
    def ordinary(self) -> bool:
        """An ordinary English word by frequency (Zipf ≥ 3.0), not a name."""
        return is_ordinary(self.value)

    @fact
    def all_words_ordinary(self) -> bool:
        return all(is_ordinary(w) for w in _WORDS.findall(self.value))

    @fact
    def title_or_role(self) -> bool:
        """Only titles, roles and forms of address (``Chief Justice``, ``MR.``)."""
        return is_title_or_role(self.value)

    @fact
    def function_words_only(self) -> bool:
        return only_function_words(self.value)

    @fact
    def function_and_domain_words_only(self) -> bool:
        return only_function_words(self.value, allowed=self.ctx.allow.terms)

    @fact
    def function_and_role_words_only(self) -> bool:
        return only_function_and_role_words(self.value)

    @property
    def has_capital(self) -> bool:
        return any(c.isupper() for c in self.value)

    @property
    def stutter(self) -> bool:
        return bool(STUTTER.match(self.value))

    # --- context ------------------------------------------------------------------
    @fact
    def after_honorific(self) -> bool:
        return _after_honorific(self.ctx.text, self.d.start)

    @fact
    def public_kind(self) -> str | None:
        """The kind of public region holding it whole (``Supreme Court``), or None."""
        return self.ctx.public.inside(self.d.start, self.d.end)

    @fact
    def only_public(self) -> bool:
        """A public term and beside it only function words, numbers and a state."""
        return self.ctx.public.holds_only_public(self.d.start, self.d.end, _everyday)

    @fact
    def caps_boilerplate(self) -> bool:
        """Inside a line of boilerplate in capitals (a decision's printed text)."""
        return self.ctx.public.in_caps_boilerplate(self.d.start, self.d.end)

    @fact
    def allow_listed(self) -> bool:
        return self.ctx.allow.allows(self.ctx.text, self.d.start, self.d.end)

    @fact
    def allow_phrase_across(self) -> bool:
        """A multi-word allow-listed term inside or across it."""
        return self.ctx.allow.overlaps_term(self.ctx.text, self.d.start, self.d.end)

    @fact
    def surname_after_honorific(self) -> bool:
        """A role word right after an honorific that is a surname: ``Mr. An`` whoever
        found it; ``Ms. Cross`` when the honorific or speaker-tag rule found it."""
        from engine.detectors.ordinary import is_listed_name

        if self.value in SHORT_SURNAME_WORDS and self.after_honorific:
            return True
        from engine.detectors.role_names import role_surname_here

        if role_surname_here(self.ctx.text, self.d.start, self.d.start + len(self.value)):
            return True  # "MR. JUDGE", "Ms. Justice", "GEORGE FOREMAN" (role_names)
        return (
            self.member.explanation in {"honorific", "SpeakerTagRecognizer"}
            and self.value.lower() not in TITLES
            and is_listed_name(self.value)
            and self.after_honorific
        )

    @fact
    def surname_after_given_name(self) -> bool:
        """A function word that is the last part of a name after a given name, as the
        name-shape rule reads it (``Helen An``, ``Li To``: ``name_shapes``'
        given-function-surname, an East Asian name whole), or a model's find of just such
        a name (``Oliver An``: spaCy's find wins Presidio's tie with the rule's): there
        ``An`` and ``To`` are no role words."""
        from engine.detectors.recognizers.name_shapes import is_given_function_name

        m = self.member
        if self.whole is None or self.d.end != m.end or self.d.start <= m.start:
            return False
        if self.value.lower() in TITLES:
            return False
        return m.explanation in {
            "NameShapeRecognizer",
            "given-function-surname",
            "east-asian-name",
        } or is_given_function_name(self.ctx.text[m.start : m.end])

    @fact
    def shape_rule(self) -> str | None:
        """Why a statistical model's one-word PERSON find is no name where it stands
        (``not_names.person_shape_rule``: ``sentence-start-word``, ``determiner-before``,
        ``acronym-plural``, ``single-letter``), or None."""
        return person_shape_rule(self.ctx.text, self.d.start, self.d.end)

    @fact
    def name_parts(self) -> list[Detection]:
        """A PERSON find's name parts (titles and possessives left out)."""
        d = self.d
        return [
            d.moved(s, e, "PERSON") for s, e in person_name_parts(self.ctx.text, d.start, d.end)
        ]

    # --- name parts -----------------------------------------------------------------
    @property
    def part_of_longer(self) -> bool:
        """A part of a longer find (``OKAFOR: Case`` across a tag), not the find itself."""
        w = self.whole
        return w is not None and (self.d.start, self.d.end) != (w.start, w.end)

    @fact
    def ordinary_for_lower_case(self) -> bool:
        """An ordinary word at the bar a lower-case name must clear: Zipf 4.0 after an
        honorific, in a speaker tag or for a propagated lower-case name; else 3.0."""
        zipf = (
            HONORIFIC_LOWER_ZIPF
            if self.member.explanation
            in {"honorific", "SpeakerTagRecognizer", "same lower-case name"}
            else ORDINARY_ZIPF
        )
        return is_ordinary(self.value, zipf)

    @property
    def not_a_name_here(self) -> bool:
        """``Last name``, ``Good luck``, ``Signed:``."""
        return bool(_NOT_NAME_HERE.match(self.ctx.text, self.d.start))

    # --- a DATE or TIME read with OCR look-alikes of digits -------------------------------
    @fact
    def read_value(self) -> str:
        """``l998``, ``September lOth``, ``the lst`` with their digits (read with the words
        before, which some shapes need)."""
        d = self.d
        return ocr_digits(self.ctx.text[max(0, d.start - 4) : d.end])[-len(self.value) :]

    @fact
    def number_only(self) -> bool:
        """Numbers of three or more digits that are no year, and no date word (``Form
        1073``, a house number)."""
        value = self.read_value
        numbers = re.findall(r"\d+", value)
        return bool(
            numbers
            and all(len(n) >= 3 and not _YEAR.fullmatch(n) for n in numbers)
            and not _DATE_WORD.search(value)
        )


_RECOGNIZERS: dict[str, object] = {}
_REFINED: dict[str, tuple[tuple[int, int, str], ...]] = {}


def refine(text: str, d: Detection) -> list[Detection]:
    """DATE/TIME spans: the exact expressions the hearing recognizers find inside them
    (``Friday, September 18, 2020`` → ``Friday`` + ``September 18, 2020``; ``about
    12:30 p.m. Good`` → ``12:30 p.m.``); the span itself when they find none."""
    if not _RECOGNIZERS:
        from engine.detectors.patterns import HearingDateRecognizer, HearingTimeRecognizer

        _RECOGNIZERS["DATE"] = HearingDateRecognizer()
        _RECOGNIZERS["TIME"] = HearingTimeRecognizer()
    segment = text[d.start : d.end]
    found = _REFINED.get(segment)
    if found is None:
        # a hearing's 900 DATE/TIME candidates are 250 texts ("today" 28 times): each
        # text's expressions are found once (both recognizers read the segment alone)
        found = tuple(
            (f.start, f.end, label)
            for label in ("DATE", "TIME")
            for f in _RECOGNIZERS[label].find_all(segment)
        )
        if len(_REFINED) >= 10_000:
            _REFINED.clear()
        _REFINED[segment] = found
    if not found:
        return [d]
    return [d.moved(d.start + start, d.start + end, label) for start, end, label in found]


def _same_kind(a: str, b: str) -> bool:
    return (a.isalpha() and b.isalpha()) or (a.isdigit() and b.isdigit())
