"""Cleaning rules applied to every detection before merging. Django-free.

- trailing punctuation and surrounding spaces trimmed;
- allow-listed terms (``Board of Parole Hearings``, ``Commissioner``) dropped;
- PERSON split into name parts (titles and possessives left out: ``Mr. Quill's`` →
  ``Quill``), since stored PERSON spans are name parts;
- DATE without a digit, month, weekday, decade or spoken year dropped (``today's``),
  and DATE that is really an age (``the age of 19``) dropped (AGE covers it);
- TIME without a clock, hour word or time of day dropped (``Good morning``);
- stutters dropped (``I-I-I``, ``th-th-that``).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable

from engine.detectors.base import Detection
from engine.detectors.decisions import (
    DROPPED,
    LOWER_AGREED,
    POSSIBLE_MISS,
    SPAN,
    Decision,
    possible_miss_label,
    statistical_member,
)
from engine.detectors.given import is_given_name_term
from engine.detectors.names import TITLES, is_given_name, person_name_parts
from engine.detectors.not_names import person_shape_rule
from engine.detectors.ordinary import ORDINARY_ZIPF, is_ordinary
from engine.detectors.public import ROLE_WORDS, is_title_or_role, public_terms
from engine.detectors.recognizers.base import ocr_digits

_TRAIL = re.compile(r"[\s,;:!?\"'“”‘’()\[\]{}…—–-]+$")
_LEAD = re.compile(r"^[\s,;:!?\"'“”‘’()\[\]{}…—–-]+")
_NEXT_SENTENCE_I = re.compile(r"\.[ \t]+I$")
_PRONOUN_GOES_ON = re.compile(r"(?:['’](?:m|ve|d|ll))?[ \t]+[a-z]")
_DOTTED_ABBR = re.compile(r"(?:\b[a-zA-Z]\.){2,}$|\b(?:Jr|Sr|St|Mt|Ft|Dr|Inc|Co|Corp|Ltd)\.$")

MONTH_RE = r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
_DATE_OK = re.compile(
    rf"\d|\b(?:{MONTH_RE})\b|\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b|"
    r"\b(?:twenties|thirties|forties|fifties|sixties|seventies|eighties|nineties)\b|"
    r"\b(?:nineteen|two thousand|twenty)[- ]\w+|\b(?:first|second|third|\w+teenth|\w+tieth|\w+th) of\b",
    re.IGNORECASE,
)
_DATE_AGE = re.compile(r"\bage\b|\byears? old\b|\byear-old\b", re.IGNORECASE)
_DURATION = re.compile(
    r"^(?:about |around |almost |over |nearly |some |approximately |another |the (?:past|last|next) )?"
    r"(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\w+teen|\w+ty(?:[- ]\w+)?|several|few|a few|many|couple(?: of)?|a couple(?: of)?)"
    r"(?: and a half)? (?:years?|months?|weeks?|days?|decades?)(?: (?:ago|old|later|earlier|prior|before|after))?$",
    re.IGNORECASE,
)
# A bare number, or a list or range of them ("45", "10, 15", "10 to 15"), with nothing that
# makes it a date or a time: a count, an amount, a duration in minutes (issue 29).
_BARE_NUMBERS = re.compile(
    r"^(?:about |around |maybe |approximately |like )?\d{1,2}"
    r"(?:(?:,| to| or| and|-|–)\s?\d{1,2})*$",
    re.IGNORECASE,
)
_SHORT_DURATION = re.compile(
    r"^(?:about |around |maybe |approximately |another |like |a good |over |under )?"
    r"(?:\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|fifteen|twenty|thirty|"
    r"forty(?:-five)?|sixty|ninety|a few|a couple(?: of)?|several)"
    r"(?:(?:,| to| or| and|-|–)\s?(?:\d{1,3}|\w+))*"
    r"(?: and a half)? (?:minutes?|mins?|hours?|hrs?|seconds?|secs?)$",
    re.IGNORECASE,
)
# not_names rules that also judge one part of a longer find (initials stay parts)
_PART_SHAPE_RULES = frozenset({"sentence-start-word", "acronym-plural", "determiner-before"})
_NAMED = frozenset({"PERSON", "ORGANIZATION", "LOCATION", "NRP"})
# a day's ordinal, OCR look-alikes of digits read (``ocr_digits``): "l5th", "2lst", "3Oth"
_OCR_ORDINAL = re.compile(r"^(?:[12]?\d|3[01])(?:st|nd|rd|th)$")
# military time in words: "twenty-one thirty hours", "oh six hundred", "fourteen hundred"
_SPOKEN_MILITARY = (
    r"\b(?:hundred|(?:twenty|thirty|forty|fifty)(?:-\w+)?|ten|fifteen|(?:oh|zero)[- ]\w+)"
    r"[ ](?:hours|hrs)\b|\b(?:ten|eleven|twelve|\w+teen|twenty(?:[- ]\w+)?|(?:oh|zero)[- ]\w+)"
    r"[- ]hundred$"
)
# a four-digit clock from 1000 to 1859 (a year's shape too): kept when a pattern's context
# made it a time ("at 1430."), never on a model's word alone
_DAY_CLOCK = re.compile(r"1[0-8][0-5]\d")
_TIME_OK = re.compile(
    rf"{_SPOKEN_MILITARY}|\d|o'clock|o’clock|\bnoon\b|\bmidnight\b|\b[ap]\.?m\b|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b.*\b(?:morning|afternoon|evening|night)\b",
    re.IGNORECASE,
)
# A time needs a clock, an hour with a.m./p.m., o'clock, noon, midnight, "1530 hours" or an
# hour word with a time of day: a case number ("No. 11-393") or "section 3" is no time.
_TIME_STRICT = re.compile(
    r"\d:\d\d|\d\s*[ap]\.?\s?m\b|o'clock|o’clock|\bnoon\b|\bmidnight\b|\b\d{4} ?(?:hours|hrs)\b|"
    rf"^(?:0\d|2[1-3])[0-5]\d$|{_SPOKEN_MILITARY}|"
    r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\d{1,2})\b.*"
    r"\b(?:morning|afternoon|evening|night|[ap]\.m\.)",
    re.IGNORECASE,
)
_STUTTER = re.compile(r"^(\w{1,3})-(?:\1-)*\1\w*$", re.IGNORECASE)
# An address has its shape, written ("x@y.org", "www.", "cdcr.ca.gov") or spoken ("at …
# dot com"): a name followed by its spelling ("Hensley. H-E-N-S-L-E-Y") that the token
# classifier reads as a URL or e-mail has none, and must not win the merge over PERSON.
_SPOKEN_DOMAIN = r"\bdot\s+(?:com|org|net|gov|edu|us|io|info)\b"
_ADDRESS_SHAPE = {
    "EMAIL_ADDRESS": re.compile(rf"@|\bat\b.*{_SPOKEN_DOMAIN}", re.IGNORECASE),
    "URL": re.compile(
        rf"://|\bwww\.|[a-z0-9-]\.(?:[a-z]{{2,}})(?:\b|/)|{_SPOKEN_DOMAIN}", re.IGNORECASE
    ),
}
_ALNUM = re.compile(r"\w")


def normalise_term(term: str) -> str:
    return re.sub(r"\s+", " ", term.strip().lower().replace("’", "'"))


class AllowList:
    """Terms that are never personal data; matched on whole spans, case-insensitive.

    A span equal to a term (or to a term plus a possessive, or a plural ``s``) is
    dropped; so is a span lying inside an occurrence of a multi-word term in the text
    (``Parole`` inside ``Board of Parole Hearings``).
    """

    def __init__(self, terms: Iterable[str] = ()) -> None:
        self.terms = {normalise_term(t) for t in terms if t and t.strip()}
        multi = sorted((t for t in self.terms if " " in t), key=len, reverse=True)
        alternatives = [r"\s+".join(re.escape(w) for w in t.split(" ")) for t in multi]
        self._multi = (
            re.compile("|".join(rf"(?<!\w)(?:{a})(?!\w)" for a in alternatives), re.IGNORECASE)
            if alternatives
            else None
        )
        self._regions_for: tuple[str, list[tuple[int, int]], list[int], list[int]] | None = None
        # span text -> whether it is a term: a hearing asks about the same few thousand
        # values ~17,000 times (every member's every detection); bounded below
        self._seen: dict[str, bool] = {}

    def protecting(self, names: Iterable[str]) -> AllowList:
        """A copy without the terms that are a name this transcript gives (one word, or
        only such words: ``Calvin Quill``; ``engine.detectors.given``: keys by
        ``name_key``); phrases (``Good morning``) stay and keep matching in context."""
        keys = set(names)
        if not keys:
            return self
        kept = [t for t in self.terms if not is_given_name_term(t, keys)]
        return self if len(kept) == len(self.terms) else AllowList(kept)

    def __contains__(self, text: str) -> bool:
        known = self._seen.get(text)
        if known is None:
            key = normalise_term(text)
            key = re.sub(r"^the ", "", key)
            known = key in self.terms or re.sub(r"'s?$|s$", "", key) in self.terms
            if len(self._seen) >= 100_000:
                self._seen.clear()
            self._seen[text] = known
        return known

    def regions(self, text: str) -> list[tuple[int, int]]:
        """Where multi-word terms occur in ``text`` (cached for the last text), in order
        and without overlaps (one left-to-right scan)."""
        return self._indexed(text)[0]

    def _indexed(self, text: str) -> tuple[list[tuple[int, int]], list[int], list[int]]:
        if self._multi is None:
            return [], [], []
        # Keyed by the text object itself (kept referenced): an id() could be reused.
        if self._regions_for is None or self._regions_for[0] is not text:
            found = [m.span() for m in self._multi.finditer(text)]
            self._regions_for = (text, found, [s for s, _ in found], [e for _, e in found])
        return self._regions_for[1:]

    def overlaps_term(self, text: str, start: int, end: int) -> bool:
        """Whether a multi-word term occurs inside or across ``text[start:end]``."""
        regions, _starts, ends = self._indexed(text)
        # the first occurrence ending after ``start`` is the only candidate (sorted, disjoint)
        i = bisect.bisect_right(ends, start)
        return i < len(regions) and regions[i][0] < end

    def allows(self, text: str, start: int, end: int) -> bool:
        if text[start:end] in self:
            return True
        regions, starts, _ends = self._indexed(text)
        # the last occurrence starting at or before ``start`` is the only one that can hold it
        i = bisect.bisect_right(starts, start) - 1
        return i >= 0 and end <= regions[i][1]


def trim(text: str, d: Detection) -> Detection | None:
    start, end = d.start, d.end
    segment = text[start:end]
    lead = _LEAD.match(segment)
    if (
        lead
        and not re.match(r"['’]\d", segment[lead.end() - 1 : lead.end() + 1])
        and not (d.label == "PHONE_NUMBER" and segment[lead.end() - 1 : lead.end()] == "(")
    ):
        start += lead.end()
    if d.label in _DETERMINED:
        det = _DETERMINER.match(text, start, end)
        if det and det.end() < end:
            start = det.end()
    segment = text[start:end]
    pronoun = _NEXT_SENTENCE_I.search(segment)
    if pronoun and _PRONOUN_GOES_ON.match(text, end):
        # "on Facility D. I work nights": the next sentence's "I", not an initial
        end = start + pronoun.start()
        segment = text[start:end]
    if segment.endswith(".") and not _DOTTED_ABBR.search(segment):
        segment = segment.rstrip(".")
        end = start + len(segment)
    trail = _TRAIL.search(segment)
    if trail and d.label not in {"HEIGHT"}:  # 6'2" keeps its marks
        end = start + trail.start()
    if d.label == "HEIGHT":
        end = start + len(text[start:end].rstrip(" ,;:!?."))
    if end <= start or not _ALNUM.search(text[start:end]):
        return None
    if (start, end) == (d.start, d.end):
        return d
    return d.moved(start, end)


_DETERMINED = frozenset({"ORGANIZATION", "LOCATION", "NRP", "DATE", "TIME"})
_DETERMINER = re.compile(
    r"(?:the|a|an|about|around|approximately|roughly|nearly|almost|at|on|in|by|since|until|till|"
    r"from|to|of|this|that|last|next|early|late|sometime|some time in)\s+",
    re.IGNORECASE,
)
_RECOGNIZERS: dict[str, object] = {}
_TITLED = re.compile(
    r"^(?:Mr|Mrs|Ms|Dr|Officer|Deputy|Sergeant|Sgt|Lieutenant|Lt|Captain|Capt|Detective|Det|"
    r"Chaplain|Warden|Counselor|Agent|Judge|Reverend|Rev|Pastor|Father|Sister|Brother|Nurse|"
    r"Correctional Officer)\.? [A-Z][\w'-]+(?: [A-Z][\w'-]+)?$"
)


def _refine(text: str, d: Detection) -> list[Detection]:
    """DATE/TIME spans: the exact expressions the hearing recognizers find inside them
    (``Friday, September 18, 2020`` → ``Friday`` + ``September 18, 2020``; ``about
    12:30 p.m. Good`` → ``12:30 p.m.``); the span itself when they find none."""
    if not _RECOGNIZERS:
        from engine.detectors.patterns import HearingDateRecognizer, HearingTimeRecognizer

        _RECOGNIZERS["DATE"] = HearingDateRecognizer()
        _RECOGNIZERS["TIME"] = HearingTimeRecognizer()
    inner = []
    segment = text[d.start : d.end]
    for label in ("DATE", "TIME"):
        for f in _RECOGNIZERS[label].find_all(segment):
            inner.append(d.moved(d.start + f.start, d.start + f.end, label))
    if not inner:
        return [d]
    return inner


_FULL_NAME = re.compile(r"^([A-Z][a-z]+) [A-Z][a-z]+(?:-[A-Z][a-z]+)?$")
_NOT_SURNAME = frozenset(
    "Street Avenue Road Lane Drive Court Way Place Boulevard County City Park Beach Valley "
    "Hills Heights Springs Lake River Center Hospital School College University Prison Jail "
    "Department Church Bank Company Group Program Programs Club Foundation".split()
)


def _looks_like_full_name(value: str, d: Detection) -> bool:
    """``Amber Martinez`` tagged ORG/LOC by a statistical model: a known first name and a
    second capitalised word that is no place or body head, and not a known place."""
    if not (_statistical(d) or d.detector == "transformer"):
        return False
    if value.isupper():  # "MATTHEW MORALES" in a page footer
        value = value.title()
    match = _FULL_NAME.match(value)
    if not match or value.split(" ")[1] in _NOT_SURNAME:
        return False
    if not is_given_name(match.group(1)):
        return False
    from engine.detectors.patterns import is_known_place

    return not is_known_place(value)


def _lone_given_name(value: str, d: Detection) -> bool:
    """One word a statistical model calls a body or a place that is a given name and no
    English word or known place ("Debbie stayed to fight the fire"): a person."""
    if not (_statistical(d) or d.detector == "transformer"):
        return False
    if not re.fullmatch(r"[A-Z][a-z]+", value) or is_ordinary(value):
        return False
    if not is_given_name(value):
        return False
    from engine.detectors.patterns import is_known_place

    return not is_known_place(value)


# Words that only look like names at a sentence start: "Last name Williams", "Good luck";
# the labels of a certification page ("Signed:", "Dated:").
_NOT_NAME_HERE = re.compile(
    r"(?:Last|First|Middle|Maiden|Full)(?= names?\b)|Good(?= (?:luck|morning|afternoon|evening|"
    r"night|job|day)\b)|(?:Thank|Thanks)(?= you\b)|(?:Signed|Dated|Certified|Subscribed)(?=:)"
)
# A named place, body or group needs a word that is not a function word ("I'm a").
_CONTRACTION = frozenset({"'m", "'s", "'re", "'ve", "'ll", "'d", "n't", "’m", "’s", "’re"})
_STOP_WORDS: set[str] = set()
# NER labels never run across a line break (one utterance, or one cover-page field, a line)
_ONE_LINE = frozenset({"PERSON", "LOCATION", "ORGANIZATION", "NRP", "DATE", "TIME", "AGE"})


def _only_function_words(value: str, allowed: Iterable[str] = ()) -> bool:
    """Whether ``value`` holds nothing but function words (and ``allowed`` words)."""
    if not _STOP_WORDS:
        from spacy.lang.en.stop_words import STOP_WORDS

        _STOP_WORDS.update(STOP_WORDS)
    words = re.findall(r"\w+|['’]\w+", value.lower())
    return bool(words) and all(w in _STOP_WORDS or w in _CONTRACTION or w in allowed for w in words)


# Labels dropped inside a public term (public.py); a CDCR number or a phone never is one.
_PUBLIC_CHECKED = frozenset({"PERSON", "ORGANIZATION", "LOCATION", "NRP", "DATE", "TIME", "AGE"})


def _known_place(value: str) -> bool:
    from engine.detectors.patterns import is_known_place

    return is_known_place(value)


def _LOWER_OK(d: Detection) -> bool:  # noqa: N802 - reads as a rule
    """Detectors that may propose a name in lower case: copies of a known name
    (propagation, the safety net) and a word after an honorific (``Mr. pellegrino``)."""
    return d.detector in {"propagation", "safety_net"} or d.explanation in {
        "honorific",
        "SpeakerTagRecognizer",
    }


# After an honorific a lower-case word is a name unless it is an everyday word (Zipf 4+:
# "Mr. young" stays a slip of the adjective's case, "Mr. griffiths" is a surname).
_HONORIFIC_LOWER_ZIPF = 4.0


def _lower_name_zipf(d: Detection) -> float:
    if d.explanation in {"honorific", "SpeakerTagRecognizer", "same lower-case name"}:
        return _HONORIFIC_LOWER_ZIPF
    return ORDINARY_ZIPF


_AFTER_HONORIFIC = re.compile(r"\b(?:Mr|Mrs|Ms|Mx|Dr|MR|MRS|MS|DR)\.?[ \t]+$")


def _surname_after_honorific(text: str, start: int, part: str, d: Detection) -> bool:
    """A role word right after an honorific that the honorific rule called a surname."""
    from engine.detectors.names import TITLES
    from engine.detectors.ordinary import is_listed_name

    after = bool(_AFTER_HONORIFIC.search(text, max(0, start - 6), start))
    if part in _SHORT_SURNAME_WORDS and after:
        return True  # "Mr. An", "Ms. To": a surname, whoever found it (issue 30)
    return (
        d.explanation in {"honorific", "SpeakerTagRecognizer"}
        and part.lower() not in TITLES
        and is_listed_name(part)
        and after
    )


# Two-letter surnames that are also function words of the role list (public.ROLE_WORDS),
# in title case right after an honorific: "Mr. An" (Korean, Vietnamese), "Ms. To".
_SHORT_SURNAME_WORDS = frozenset({"An", "To", "By"})


def _statistical(d: Detection) -> bool:
    """A statistical NER model's guess (spaCy, directly or through Presidio)."""
    return d.detector == "spacy" or (
        d.detector == "presidio" and d.explanation == "SpacyRecognizer"
    )


def _line_pieces(text: str, d: Detection) -> list[Detection]:
    pieces = []
    for m in re.finditer(r"[^\n]+", text[d.start : d.end]):
        pieces.append(d.moved(d.start + m.start(), d.start + m.end()))
    return pieces


_TRAILING_NUMBERS = re.compile(r"(?:\s+\S*\d\S*)+$")


def _same_kind(a: str, b: str) -> bool:
    """Two characters of one word: both letters or both digits. A word glued to a number
    ("Breyer16:17" in a PDF's word index) is two words."""
    return (a.isalpha() and b.isalpha()) or (a.isdigit() and b.isdigit())


def _cuts_word(text: str, start: int, end: int) -> bool:
    return (start > 0 and _same_kind(text[start - 1], text[start])) or (
        end < len(text) and _same_kind(text[end - 1], text[end])
    )


def clean(
    text: str,
    detections: Iterable[Detection],
    allow: AllowList | None = None,
    decisions: list[Decision] | None = None,
) -> list[Detection]:
    """Apply the cleaning rules; returns new detections (PERSON ones as name parts).

    ``decisions``, when given, receives one ``Decision`` per candidate (each piece of a
    candidate a rule cuts): ``span``, or ``dropped`` with the named rule that dropped it
    (``engine.detectors.decisions``)."""
    allow = allow or AllowList()
    public = public_terms(text)
    out: list[Detection] = []
    record = decisions is not None

    def drop(d: Detection, rule: str, start: int | None = None, end: int | None = None) -> None:
        if record:
            s, e = (d.start, d.end) if start is None else (start, end)
            # a model's find dropped for its shape, that its context makes a name or a
            # place: the safety net shows it (decisions.possible_miss_label)
            miss = possible_miss_label(text, s, e, d.label, d.detector, d.explanation, rule)
            decisions.append(
                Decision(
                    d.detector,
                    s,
                    e,
                    miss or d.label,
                    POSSIBLE_MISS if miss else DROPPED,
                    rule,
                    d.explanation,
                )
            )

    def keep(d: Detection) -> None:
        out.append(d)
        if record:
            decisions.append(Decision(d.detector, d.start, d.end, d.label, SPAN, "", d.explanation))

    # (detection, already refined): a DATE/TIME span is cut into its expressions once
    pending = [(d, False) for d in detections]
    while pending:
        raw, refined_already = pending.pop()
        d = trim(text, raw)
        if d is None:
            drop(raw, "no-word")  # only spaces and punctuation
            continue
        if _cuts_word(text, d.start, d.end):
            drop(d, "word-piece")  # word pieces of a token classifier ("godfat")
            continue
        value = text[d.start : d.end]
        if d.label in _ONE_LINE and "\n" in value:
            # "PLEASANT VALLEY STATE PRISON\nCOALINGA": decided line by line
            pending.extend((piece, refined_already) for piece in _line_pieces(text, d))
            continue
        if d.label in _ADDRESS_SHAPE and not _ADDRESS_SHAPE[d.label].search(value):
            drop(d, "no-address-shape")  # a URL or e-mail without an address's shape
            continue
        if d.label in {"DATE", "TIME"} and not refined_already:
            refined = _refine(text, d)
            if refined != [d]:
                # decided expression by expression
                pending.extend((r, True) for r in refined)
                continue
        if d.label in _NAMED and _OCR_ORDINAL.match(ocr_digits(value)):
            d = d.moved(d.start, d.end, "DATE")  # "the l5th" a model read as a body: a day
        if d.label in {"ORGANIZATION", "LOCATION"}:
            # "MATTHEW MORALES P85939" in a page footer: the name, then a number
            name = _TRAILING_NUMBERS.sub("", value)
            if _TITLED.match(name) or _looks_like_full_name(name, d) or _lone_given_name(name, d):
                # "Officer Cantu", "Chaplain Myers", "Amber Martinez": a person, not a body
                d = d.moved(d.start, d.start + len(name), "PERSON")
            elif (
                d.label == "ORGANIZATION"
                and _statistical(d)
                and re.fullmatch(r"[A-Z][a-z]+", value)
                and _placed(text, d, value)
            ):
                d = d.moved(d.start, d.end, "LOCATION")  # "we were living in Energy": a town
        if d.label in _PUBLIC_CHECKED and public.inside(d.start, d.end):
            drop(d, "public-term")  # "Supreme Court", "Penal Code section 3041"
            continue
        if d.label in {"ORGANIZATION", "LOCATION"} and public.holds_only_public(d.start, d.end):
            drop(d, "public-term")  # "the Texas National Guard", "Congress of the United States"
            continue
        if (
            d.label in {"PERSON", "ORGANIZATION", "LOCATION", "NRP"}
            and is_title_or_role(value)
            and not (d.label == "PERSON" and _surname_after_honorific(text, d.start, value, d))
        ):
            drop(d, "title-or-role")  # "Chief Justice", "ESQ.", "MR." as a place
            continue
        if (
            d.label in _ONE_LINE
            and (_statistical(d) or d.detector == "transformer")
            and public.in_caps_boilerplate(d.start, d.end)
            and all(is_ordinary(w) for w in re.findall(r"[A-Za-z][\w'’]*", value))
        ):
            drop(d, "caps-boilerplate")  # "MODIFY" in the decision's boilerplate in capitals
            continue
        if d.label == "PERSON" and statistical_member(d.detector, d.explanation):
            rule = person_shape_rule(text, d.start, d.end)
            if rule:
                drop(d, rule)  # "Traffic was bad", "the Tahoe", "MRIs", "B" (not_names.py)
                continue
        if d.label == "PERSON":
            model = statistical_member(d.detector, d.explanation)
            for s, e in person_name_parts(text, d.start, d.end):
                rule = _person_part_rule(text, s, e, d, allow, public)
                if not rule and model and (s, e) != (d.start, d.end):
                    # a part of a model's longer find ("OKAFOR: Case" across a tag)
                    rule = person_shape_rule(text, s, e)
                    rule = rule if rule in _PART_SHAPE_RULES else None
                if rule:
                    drop(d, rule, s, e)
                else:
                    keep(d.moved(s, e, "PERSON"))
            continue
        if allow.allows(text, d.start, d.end):
            drop(d, "allow-list")
            continue
        rule = _value_rule(text, d, value, allow)
        if rule:
            drop(d, rule)
            continue
        keep(d)
    out.sort(key=lambda x: (x.start, x.end, x.label, x.detector))
    return out


def _person_part_rule(
    text: str, s: int, e: int, d: Detection, allow: AllowList, public
) -> str | None:
    """The rule that drops one name part of a PERSON find, or None."""
    part = text[s:e]
    if (len(part) < 2 and not part.isupper()) or part == "I":
        return "single-letter"
    if (
        part.islower()
        and d.explanation != LOWER_AGREED
        and not (_LOWER_OK(d) and not is_ordinary(part, _lower_name_zipf(d)))
    ):
        # names are capitalised ("godfather" is not one), except a known name's lower-case
        # slip ("Mr. pellegrino") that is no English word (after an honorific, no everyday
        # word: "Mr. griffiths")
        return "lower-case"
    if allow.allows(text, s, e):
        return "allow-list"
    if part.lower() in TITLES:
        return "title-or-role"
    if _STUTTER.match(part):
        return "stutter"
    if public.inside(s, e):
        return "public-term"
    if is_title_or_role(part) and not _surname_after_honorific(text, s, part, d):
        return "title-or-role"  # "Ms. Cross" keeps its surname; "Mr. Chief Justice" no name
    if _NOT_NAME_HERE.match(text, s):
        return "not-a-name-here"  # "Last name", "Good luck", "Signed:"
    if (
        part.isupper()
        and part.lower() in _CAPS_FUNCTION_WORDS
        and not _AFTER_HONORIFIC.search(text, max(0, s - 6), s)
    ):
        return "function-word"  # "SIGNED BY SEN. MORAYO OGINDAN AT SAN QUENTIN"
    return None


def only_function_and_role_words(value: str) -> bool:
    """Whether ``value`` holds only function words, titles and roles ("I'm a
    Commissioner")."""
    return _only_function_words(value, allowed=_ROLES)


# Function words that no name part is, in a line written in capitals ("OGINDAN AT SAN
# QUENTIN"); "AN", "TO", "BY" are surnames after an honorific (_SHORT_SURNAME_WORDS), and
# no word after an honorific is judged here.
_CAPS_FUNCTION_WORDS = frozenset(
    {"at", "in", "on", "of", "the", "and", "or", "for", "from", "with"}
)
_ROLES = frozenset(TITLES) | ROLE_WORDS


def _placed(text: str, d: Detection, value: str) -> bool:
    """A capitalised everyday word that a model calls a place, where the words before it
    say it is one: a verb of movement or residence and a locative preposition ("we drove
    up to Harmony", "we were living in Energy", "a place up in Liberty"), or where a
    person comes from ("a guy from Energy helped us"). Institutions after such a verb
    ("went to Church", "back in Court") are no town."""
    from engine.detectors.decisions import _PLACE_BEFORE
    from engine.detectors.recognizers.locations import _place_words_ok

    before = text[max(0, d.start - 40) : d.start]
    return bool(_PLACE_BEFORE.search(before) or _ORIGIN_BEFORE.search(before)) and (
        _place_words_ok(value)
    )


# where a person comes from: "a guy from Energy helped us", "people from Liberty"
_ORIGIN_BEFORE = re.compile(
    r"\b(?:guy|man|men|woman|women|lady|girl|boy|kid|kids|people|family|folks|somebody|"
    r"someone|friend|friends|cousin|cousins|relatives)[ \t]+from[ \t]+$",
    re.IGNORECASE,
)


def _value_rule(text: str, d: Detection, value: str, allow: AllowList) -> str | None:
    """The rule that drops a DATE, TIME, place, body or group for its words, or None."""
    if d.label in {"DATE", "TIME"}:
        # "l998", "September lOth", "the lst": OCR look-alikes of digits (read with the
        # words before, which some shapes need)
        value = ocr_digits(text[max(0, d.start - 4) : d.end])[-len(value) :]
    if d.label == "DATE":
        if not _DATE_OK.search(value):
            return "date-no-anchor"  # "today's"
        if _BARE_NUMBERS.match(value):
            return "bare-number"  # "45", "10, 15": a count or a duration, no date
        if _SHORT_DURATION.match(value):
            return "minutes-duration"  # "10, 15 minutes", "an hour and a half"
        if _DATE_AGE.search(value):
            return "date-is-age"  # "the age of 19": AGE covers it
        if _DURATION.match(value):
            return "date-is-duration"  # "two years ago"
        numbers = re.findall(r"\d+", value)
        if (
            numbers
            and all(len(n) >= 3 and not re.fullmatch(r"1[89]\d\d|20\d\d", n) for n in numbers)
            and not re.search(
                rf"\b(?:{MONTH_RE})\b|day\b|\b(?:year|month|week|decade|centur)",
                value,
                re.IGNORECASE,
            )
        ):
            return "date-number-only"  # a house number, a count or "Form 1073", not a year
    elif d.label == "TIME":
        if _BARE_NUMBERS.match(value):
            return "bare-number"
        if _SHORT_DURATION.match(value):
            return "minutes-duration"  # "45 minutes" is how long, not when
        if _DAY_CLOCK.fullmatch(value) and not (
            statistical_member(d.detector, d.explanation) or d.detector == "transformer"
        ):
            return None  # "at 1430." (recognizers/dates.py: military-preposition)
        if not _TIME_OK.search(value) or not _TIME_STRICT.search(value):
            return "time-no-clock"  # "Good morning", "section 3"
    elif d.label in {"ORGANIZATION", "LOCATION", "NRP"}:
        if _STUTTER.match(value):
            return "stutter"
        if value.islower() and len(value) < 4:
            return "short-lower-case"
        if _only_function_words(value):
            return "function-words"  # "I'm a" as ORGANIZATION
        if _statistical(d) and _only_function_words(value, allowed=allow.terms):
            return "function-and-domain-words"  # "UNLESS THE BOARD" in boilerplate
        if d.label == "ORGANIZATION" and _statistical(d) and only_function_and_role_words(value):
            return "function-and-role-words"  # "I'm a Commissioner" as ORGANIZATION
        if d.label != "NRP" and not any(c.isupper() for c in value):
            return "lower-case"  # "robbery", "adolescence": places and bodies are capitalised
        if allow.overlaps_term(text, d.start, d.end):
            return "allow-list-phrase"  # "Denial Management, Celebrate Recovery and ..."
        if (
            d.label in {"ORGANIZATION", "LOCATION"}
            and _statistical(d)
            and re.fullmatch(r"[A-Z][a-z]+", value)
            and is_ordinary(value)
            and not (d.label == "LOCATION" and (_known_place(value) or _placed(text, d, value)))
        ):
            # "Chess is thinking two moves ahead", "Anger is a secondary emotion": a
            # capitalised ordinary English word (by frequency, not a name) is no body's
            # name (NER's guess at a sentence start)
            return "ordinary-word-body"
    return None
