"""Persons named by their context: titles, relations, verbs, their own spelling."""

from __future__ import annotations

import re

from engine.detectors.names import TITLES, is_given_name
from engine.detectors.recognizers.base import MONTHS, WEEKDAYS, RegexRecognizer, _c
from engine.detectors.recognizers.nrp import _NRP_WORD

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


# --- speaker tags and forms of address (PERSON) ----------------------------------------

# A speaker tag: the start of a line, words in capitals (periods, apostrophes, numbers),
# then a colon ("PRESIDING COMMISSIONER ALDEN:", "MR. LONG:", "JUROR NO. 5:").
SPEAKER_TAG = re.compile(r"(?m)^[ \t]*(?P<tag>[A-Z][A-Z0-9.'’ -]{0,60}?)[ \t]*:(?=\s)")
_TAG_WORD = re.compile(r"[A-Z][A-Z'’-]*[A-Z]|[A-Z]")
_CALENDAR = frozenset(
    """january february march april may june july august september october november
    december monday tuesday wednesday thursday friday saturday sunday""".split()
)


def _role(word: str) -> bool:
    from engine.detectors.public import ROLE_WORDS

    key = word.lower().rstrip(".").replace("’", "'")
    if key.endswith("'s"):
        key = key[:-2]
    return key in ROLE_WORDS or key in TITLES


# Titles and roles that a name follows in a tag ("INCARCERATED PERSON BLACK:")
_BEFORE_NAME = TITLES | {
    "person",
    "kin",
    "inmate",
    "prisoner",
    "juror",
    "witness",
    "interpreter",
    "defendant",
    "plaintiff",
    "petitioner",
    "respondent",
    "senator",
    "secretary",
    "chairman",
    "chairwoman",
}


def speaker_tag_names(text: str) -> list[tuple[int, int]]:
    """The name words of every speaker tag. Titles, roles and forms of address (``MR.``,
    ``CHIEF JUSTICE``, ``THE COURT``, ``JUROR``, ``DEPUTY COMMISSIONER``) are not names.
    A word that is no ordinary English word is a name (``MITCHELL:``); an ordinary word
    only right after a title or another name word (``MR. LONG:``, ``PRESIDING COMMISSIONER
    YOUNG:``), so ``COURT SECURITY OFFICER:`` and ``APPEARANCES:`` hold none."""
    from engine.detectors.ordinary import is_ordinary

    out = []
    for match in SPEAKER_TAG.finditer(text):
        start = match.start("tag")
        previous = ""  # "title", "name" or "" (a role word or the start)
        for w in _TAG_WORD.finditer(match.group("tag")):
            word = w.group(0)
            key = word.lower().replace("’", "'")
            if _role(word):
                previous = "title" if key.rstrip(".") in _BEFORE_NAME else ""
                continue
            if len(word) < 2 or key in _CALENDAR:
                previous = ""
                continue
            if not is_ordinary(word) or previous in {"title", "name"}:
                out.append((start + w.start(), start + w.end()))
                previous = "name"
            else:
                previous = ""
    return out


_HONORIFIC_NAME = _c(
    r"\b(?:Mr|Mrs|Ms|Mx|Dr|MR|MRS|MS|DR|Miss|MISS)\.?[ \t]+(?=(?P<span>"
    r"[A-Za-z][A-Za-z'’]*(?:-[A-Za-z][A-Za-z'’]*)?(?:[ ][A-Z][a-z]+(?:-[A-Z][a-z]+)?)?)"
    r"(?![\w'’-]))"
)
# A title before a capitalised word that is no English word: "Justice Sotomayor",
# "General Okafor", "Commissioner Alden", "Senator Quill" (not "General Counsel")
_TITLE_NAME = _c(
    r"\b(?:Justice|General|Judge|Commissioner|Senator|Secretary|Governor|President|"
    r"Representative|Congressman|Congresswoman|Chairman|Chairwoman|Chair|Professor|Doctor|"
    r"Officer|Detective|Sergeant|Lieutenant|Captain|Deputy|Warden|Chaplain|Counselor|Agent)"
    r"[ \t]+(?=(?P<span>[A-Z][a-z]+(?:['’-][A-Z][a-z]+)?)(?![\w'’-]))"
)
_NOT_AFTER_HONORIFIC = frozenset(
    """and or the a an to of in on at for with so but if is was i you he she we they it
    this that yes no okay well then now here there""".split()
)


class SpeakerTagRecognizer(RegexRecognizer):
    """The name part of a speaker tag (``MR. LONG:`` → ``LONG``; ``CHIEF JUSTICE ROBERTS:``
    → ``ROBERTS``) and any word after an honorific, in any case (``Mr. pellegrino``,
    ``Ms. Okafor``, ``MR. LONG``), whatever the statistical models say."""

    ENTITY = "PERSON"

    def find_all(self, text: str):
        from engine.detectors.recognizers.base import Found

        found = {
            (s, e): Found(s, e, self.ENTITY, 0.9, "speaker-tag") for s, e in speaker_tag_names(text)
        }
        for match in _HONORIFIC_NAME.finditer(text):
            value = match.group("span")
            words = value.split(" ")
            if words[0].lower() in _NOT_AFTER_HONORIFIC or _role(words[0]):
                continue  # "Mr. and Mrs. Okafor", "Mr. Chief Justice", "Madam Chair"
            if words[0] == "Miss" or (len(words[0]) < 2):
                continue
            s = match.start("span")
            if len(words) > 1 and _role(words[1]):
                words = words[:1]
            e = s + len(" ".join(words))
            found.setdefault((s, e), Found(s, e, self.ENTITY, 0.9, "honorific"))
        from engine.detectors.ordinary import is_ordinary

        for match in _TITLE_NAME.finditer(text):
            value = match.group("span")
            if _role(value) or is_ordinary(value):
                continue
            s, e = match.span("span")
            found.setdefault((s, e), Found(s, e, self.ENTITY, 0.9, "honorific"))
        return sorted(found.values(), key=lambda f: (f.start, f.end))
