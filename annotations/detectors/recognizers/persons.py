"""Persons named by their context: titles, relations, verbs, their own spelling."""

from __future__ import annotations

import re

from annotations.detectors.names import TITLES, is_given_name
from annotations.detectors.recognizers.base import MONTHS, WEEKDAYS, RegexRecognizer, _c
from annotations.detectors.recognizers.nrp import _NRP_WORD

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
