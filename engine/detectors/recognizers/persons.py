"""Persons named by their context: titles, relations, verbs, their own spelling."""

from __future__ import annotations

import re

from engine.detectors.names import TITLES, is_given_name
from engine.detectors.recognizers.base import MONTHS, WEEKDAYS, RegexRecognizer, _c
from engine.detectors.recognizers.capitals import (
    CALENDAR as _CALENDAR,
)
from engine.detectors.recognizers.capitals import (
    caps_full_names,
    caps_given_names,
    footer_names,
)
from engine.detectors.recognizers.nrp import _NRP_WORD

# --- persons named by their context (PERSON) -----------------------------------------

_NAME = r"[A-Z][a-z]+(?:['’-][A-Z][a-z]+)?"
_TITLE_WORDS = (
    r"(?:Mr|Mrs|Ms|Dr|Officer|officer|Sergeant|sergeant|Sgt|Lieutenant|Lt|Captain|Capt|"
    r"Detective|detective|Det|Deputy|Agent|Chaplain|Warden|Counselor|Judge|Reverend|Rev|"
    r"Pastor|Nurse|Doctor|Professor|Correctional Officer|correctional officer)"
)
# a period only after an abbreviation ("Sgt. Vance"): "tell the officer. Fine." ends a sentence
_TITLED_NAME = _c(
    rf"\b(?:{_TITLE_WORDS}|(?:Mr|Mrs|Ms|Dr|Sgt|Lt|Capt|Det|Rev)\.) (?P<span>{_NAME}(?: {_NAME})?)(?![\w-])"
)
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
# "my name is Quentin Marsh", "I'm Dora Varga", "the name is Bo": what a person says
# their name is (the words may be English words: "Summer Day")
_NAME_IS = _c(
    rf"\b(?i:my name is|my name's|name is|her name is|his name is|their name is|"
    rf"my last name is|my first name is|the name is|i am called|they call me) "
    rf"(?P<span>{_NAME}(?: [A-Z]\.)?(?: {_NAME})?)(?![\w'’-])"
)
# a word followed by its spelling in spaced letters: "Marsh, M A R S H"
_SPELLED_AFTER_SPACED = _c(
    r"(?<![\w-])(?P<span>[A-Z][A-Za-z'’]+)[.,:;]?[ ]"
    r"(?:(?:that's|that is|spelled|it's)[,:]?[ ])?(?P<letters>[A-Z](?:,?[ ][A-Z]){1,24})(?![\w-])"
)
_NOT_NAME = frozenset(
    """the a an and but or so then my his her our their your this that these those i we he
    she they it yes no okay well sir ma'am last first middle good thank thanks hello mister
    god lord""".split()
)


class PersonContextRecognizer(RegexRecognizer):
    """Names that their context makes names: a title (``Officer Gates``), a relation
    (``my celly, Marcus``), a person's verb (``Amber visits``, given names only), the
    name's own spelling after it (``Mendez. M-E-N-D-E-Z``, ``Bo, B O``), or what a speaker
    says their name is (``my name is Summer Day``)."""

    ENTITY = "PERSON"
    PATTERNS = (
        ("titled-name", _TITLED_NAME, 0.85),
        ("relation-name", _KIN_NAME, 0.85),
        ("person-verb", _PERSON_VERB, 0.85),
        ("spelled-after", _SPELLED_AFTER, 0.95),
        ("spelled-after", _SPELLED_AFTER_SPACED, 0.95),
        ("name-is", _NAME_IS, 0.9),
    )

    def accept(self, text: str, match: re.Match, name: str = "") -> bool:
        value = match.group("span")
        first = value.split(" ", 1)[0]
        if (
            name == "titled-name"
            and first in _PRONOUN_SURNAMES
            and _HONORIFIC_ABBR.match(match.group(0))
        ):
            return not re.match(r" and so\b", text[match.end() : match.end() + 8])
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


# Pronouns and function words that are surnames (Chinese He, Korean An and So), which
# only an abbreviated honorific makes names ("Ms. He took the notes"; "Mr. So and so" is
# nobody)
_PRONOUN_SURNAMES = frozenset({"He", "So", "An"})
_HONORIFIC_ABBR = re.compile(r"(?:Mr|Mrs|Ms|Dr|Miss)\.? ")
_ROLE_WORDS = frozenset(
    "District Attorney Commissioner General Public Defender Sheriff Chief County State Board "
    "Panel Hearing Hearings Parole Court Superior Presiding".split()
)


# --- speaker tags and forms of address (PERSON) ----------------------------------------

# A speaker tag: the start of a line, words in capitals (periods, apostrophes, numbers),
# then a colon ("PRESIDING COMMISSIONER ALDEN:", "MR. LONG:", "JUROR NO. 5:").
SPEAKER_TAG = re.compile(r"(?m)^[ \t]*(?P<tag>[A-Z][A-Z0-9.'’ -]{0,60}?)[ \t]*:(?=\s)")
_TAG_WORD = re.compile(r"[A-Z][A-Z'’-]*[A-Z]|[A-Z]")


def _role(word: str) -> bool:
    from engine.detectors.given import ROLE_WORDS as TAG_ROLE_WORDS
    from engine.detectors.public import ROLE_WORDS

    key = word.lower().rstrip(".").replace("’", "'")
    if key.endswith("'s"):
        key = key[:-2]
    # both lists: a hearing's roles (videographer, monitor, facilitator) and a court's
    return key in ROLE_WORDS or key in TITLES or key in TAG_ROLE_WORDS


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
    from engine.detectors.role_names import FUNCTION_WORDS, NAME_HONORIFICS

    out = []
    for match in SPEAKER_TAG.finditer(text):
        start = match.start("tag")
        previous = ""  # "honorific", "mister", "title", "name" or "" (a role word or the start)
        for w in _TAG_WORD.finditer(match.group("tag")):
            word = w.group(0)
            key = word.lower().replace("’", "'")
            if key.rstrip(".") in NAME_HONORIFICS:
                previous = "mister" if key.rstrip(".") in {"mr", "mister"} else "honorific"
                continue
            if _role(word):
                bare = key.rstrip(".")
                if previous == "name" and bare not in FUNCTION_WORDS:
                    # GEORGE FOREMAN (MR. JUDGE: the honorific rule's, below)
                    out.append((start + w.start(), start + w.end()))
                    continue
                previous = "title" if bare in _BEFORE_NAME else ""
                continue
            if len(word) < 2 or key in _CALENDAR:
                previous = ""
                continue
            if not is_ordinary(word) or previous in {"title", "name", "honorific", "mister"}:
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


def _surname_after_honorific(words: list[str]) -> bool:
    """``Ms. Cross``: a role word that is also a common surname (curated name lists, no
    title) is the surname after an honorific, unless another role word follows (``Mr.
    Vice President``)."""
    from engine.detectors.names import TITLES
    from engine.detectors.ordinary import is_listed_name

    word = words[0]
    if not word[:1].isupper() or word.lower() in TITLES or not is_listed_name(word):
        return False
    return not (len(words) > 1 and _role(words[1]))


def role_surname_here(text: str, start: int, end: int) -> bool:
    """A role word the text makes a surname here (``MR. JUDGE``, ``Ms. Justice``), not a
    role of address after ``Mr.`` (``Mr. Foreman``: the grand jury's foreman)."""
    from engine.detectors.role_names import role_surname_here as named

    return named(text, start, end)


def line_names(text: str):
    from engine.detectors.role_names import line_names as names

    return names(text)


def role_surnames_beside_given_names(text: str):
    from engine.detectors.role_names import role_surnames_beside_given_names as beside

    return beside(text)


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
            if words[0].lower() in _NOT_AFTER_HONORIFIC:
                continue  # "Mr. and Mrs. Okafor"
            if (
                _role(words[0])
                and not _surname_after_honorific(words)
                and not role_surname_here(
                    text, match.start("span"), match.start("span") + len(words[0])
                )
            ):
                continue  # "Mr. Chief Justice", "Madam Chair"; not "MR. JUDGE", "Ms. Justice"
            if words[0] == "Miss" or (len(words[0]) < 2):
                continue
            s = match.start("span")
            if len(words) > 1 and _role(words[1]):
                words = words[:1]
            e = s + len(" ".join(words))
            found.setdefault((s, e), Found(s, e, self.ENTITY, 0.9, "honorific"))
        # role words the transcript makes surnames: "GEORGE FOREMAN, having been first duly
        # sworn", "BY MS. SPEAKER:", "Carla Justice" (role_names)
        for s, e, _word in line_names(text):
            found.setdefault((s, e), Found(s, e, self.ENTITY, 0.9, "sworn"))
        for s, e in role_surnames_beside_given_names(text):
            found.setdefault((s, e), Found(s, e, self.ENTITY, 0.9, "honorific"))
        from engine.detectors.ordinary import is_ordinary

        for match in _TITLE_NAME.finditer(text):
            value = match.group("span")
            if _role(value) or is_ordinary(value):
                continue
            s, e = match.span("span")
            found.setdefault((s, e), Found(s, e, self.ENTITY, 0.9, "honorific"))
        return sorted(found.values(), key=lambda f: (f.start, f.end))


# --- names that their neighbours make names (PERSON) -------------------------------------

# A run of name words in title case or capitals, with initials: "Dora K. Okonkwo",
# "DORA K. OKONKWO", "Varga-Lind"
_RUN_WORD = r"(?:[A-Z](?:[a-z'’]+[A-Z])?[a-z'’]+|[A-Z]{2,}(?:['’][A-Z]+)?)(?:-[A-Z][A-Za-z'’]+)?"
_RUN = re.compile(rf"{_RUN_WORD}(?:[ ](?:[A-Z]\.|{_RUN_WORD})){{0,3}}(?![\w'’-])")
_RUN_PART = re.compile(rf"[A-Z]\.|{_RUN_WORD}")
_FUNCTION = frozenset(
    """a an the and or of in on at to for by with from as is was be are were it its this that
    these those he she they we you i my his her our their your who which on behalf see also
    not no yes""".split()
)
# peerage and abbreviated titles, in title case or capitals ("Lord Varga", "GEN. OKONKWO",
# "Sen. Quill", "Hon. Alden")
_TITLE_FORMS = ("Lord", "Lady", "Sir", "Dame", "Baron", "Baroness") + tuple(
    f"{t}\\."
    for t in (
        "Gen",
        "Sen",
        "Rep",
        "Gov",
        "Hon",
        "Atty",
        "Lt",
        "Sgt",
        "Capt",
        "Det",
        "Insp",
        "Supt",
        "Col",
        "Maj",
        "Cpl",
        "Adm",
        "Cmdr",
        "Prof",
        "Rev",
    )
)
_TITLE_RUN = re.compile(
    r"(?<![\w'’-])(?:" + "|".join(f"{t}|{t.upper()}" for t in _TITLE_FORMS) + r")[ \t]+(?=[A-Z])"
)
# a party or participant named by its role: "the appellants Quill and Dora Varga",
# "Juror Okonkwo", "petitioner Alden"
_PARTY_ROLE = re.compile(
    r"(?<![\w'’-])(?i:appellants?|appellees?|petitioners?|respondents?|defendants?|plaintiffs?|"
    r"claimants?|complainants?|movants?|jurors?|witness|venireperson|decedent|victims?|"
    r"trustees?|executors?|executrix|administrators?|guardians?|beneficiar(?:y|ies)|debtors?|"
    r"creditors?|receivers?)"
    r",?[ ](?=[A-Z])"
)
# case citations: "Varga v. Okonkwo", "Quill versus Alden", "In re Alden"
_CASE = re.compile(r"[ ](?:v\.|vs\.|versus)[ ](?=[A-Z])|(?<![\w-])In re[ ](?=[A-Z])")
# a nickname in quotes between two name words: Dorian "Dodo" Varga
_NICKNAME = re.compile(
    r"(?<![\w'’-])(?P<a>[A-Z][a-z]+(?:-[A-Z][a-z]+)?)[ ][\"“'‘](?P<b>[A-Z][a-z]+)[\"”'’][ ]"
    r"(?P<c>[A-Z][a-z]+(?:-[A-Z][a-z]+)?)(?![\w'’-])"
)
# a surname after a given name and a nickname is any word rarer than this (Zipf; "nicholls"
# 3.1, "said" 6.3, "and" 7.5): the frame leaves little else to say there
NICKNAME_SURNAME_ZIPF = 4.5
# what makes a party a firm or a body, not a person
_ORG_HEAD = frozenset(
    """inc corp corporation co company companies llc llp ltd lp plc foundation association
    bank group partners holdings trust university college school hospital church district
    county city state states people commonwealth department board agency commission
    office bureau government union services systems technologies international""".split()
)
_NOT_A_NAME = frozenset("god jesus christ allah lord".split())


def _name_words(
    text: str, start: int, *, first_any: bool, places: str = "any"
) -> list[tuple[int, int]]:
    """The name words of the run of capitalised words at ``start`` (initials left out):
    the first word whatever it is when ``first_any`` (a title or a case citation makes it a
    name), else only when it is a given name, a gazetteer name or no ordinary English word;
    later words while they are one of those. Nothing when the run names a firm or a body,
    or a known place (``places="any"``: a US city, state or country, unless it is one given
    name or surname; ``"regions"``: a state or country only)."""
    from engine.detectors.ordinary import in_name_gazetteer, is_name_word, is_ordinary
    from engine.detectors.public import is_title_or_role
    from engine.detectors.recognizers.locations import is_known_place, is_state_or_country

    match = _RUN.match(text, start)
    if not match:
        return []
    parts = [(m.start(), m.end()) for m in _RUN_PART.finditer(text, match.start(), match.end())]
    words = [text[s:e] for s, e in parts]
    keys = [w.lower().rstrip(".'’").removesuffix("'s").removesuffix("’s") for w in words]
    place = is_known_place if places == "any" else is_state_or_country
    if any(k in _ORG_HEAD for k in keys):
        return []
    if place(" ".join(words).title()) and not (
        len(words) == 1 and places == "any" and (is_given_name(words[0]) or is_name_word(keys[0]))
    ):
        return []  # a place, unless a lone given name or surname after a role ("Austin")
    out: list[tuple[int, int]] = []
    for (s, e), word, key in zip(parts, words, keys, strict=True):
        if len(key) < 2:  # an initial
            if out:
                continue
            break
        if key in _FUNCTION or key in _NOT_A_NAME or is_title_or_role(word) or key in _CALENDAR:
            break
        if word.endswith(("'s", "’s")):
            e -= 2
        if not out:
            if not (first_any or not is_ordinary(key) or is_given_name(word) or is_name_word(key)):
                break
        elif (
            is_ordinary(key)
            and not is_name_word(key)
            and not is_given_name(word)
            and not in_name_gazetteer(key)
        ):
            break  # a surname that is also a word ("Kin Lo", "Summer Day") stays in the run
        out.append((s, e))
        if text[e : e + 2] in {"'s", "’s"} or word.endswith(("'s", "’s")):
            break  # "Varga's motion"
    return out


_WORD_BEFORE = re.compile(r"(?<![\w'’.-])([A-Z][A-Za-z'’-]+)[ ]$")


def _case_party_before(text: str, end: int) -> list[tuple[int, int]]:
    """The party before `` v. ``: the word right before it whatever it is (a surname:
    ``Baker v. ...``) and up to two given names or non-English words before that."""
    from engine.detectors.ordinary import is_ordinary
    from engine.detectors.public import public_terms
    from engine.detectors.recognizers.locations import is_state_or_country

    before = re.search(r"((?:[A-Z][a-z]+ ){0,2}[A-Z][a-z]+)$", text[max(0, end - 40) : end])
    if before and any(
        is_state_or_country(" ".join(before.group(1).split(" ")[-n:])) for n in (1, 2, 3)
    ):
        return []  # "New Mexico v. ...": a state is a party, not a person
    out: list[tuple[int, int]] = []
    pos = end + 1  # keep the space before "v."
    while len(out) < 3:
        m = _WORD_BEFORE.search(text, max(0, pos - 40), pos)
        if not m:
            break
        s, word = m.start(1), m.group(1)
        if out and is_ordinary(word) and not is_given_name(word):
            break
        if public_terms(text).inside(s, m.end(1)):
            break  # "Department of Labor v. ...": a public body is the party
        names = _name_words(text, s, first_any=not out, places="regions")
        if not names or names[0][0] != s:
            break
        out.insert(0, names[0])
        pos = s
    return out


class PartyNameRecognizer(RegexRecognizer):
    """Names that a neighbour makes names, whatever the statistical models say:

    * after a peerage or an abbreviated title, in title case or capitals (``Lord Varga``,
      ``GEN. DORA K. OKONKWO``, ``Sen. Quill``) — ``title-run``;
    * after a party's or participant's role (``the appellants Quill and Dora Varga``,
      ``Juror Okonkwo``; a firm or body is no person: ``the defendant Acme Corp.``) —
      ``party-name``;
    * the parties of a case citation (``Varga v. Okonkwo``, ``Baker versus Alden``,
      ``In re Alden``; not a public body, a firm, a state or a country: ``v. United
      States``, ``v. Oregon``) — ``case-party``;
    * a nickname in quotes between name words (``Dorian "Dodo" Varga``) — ``nickname``;
    * a full name in capitals (``DORA B. TEMBLEY``; ``caps_full_names``) — ``caps-name``;
    * a full name in capitals before an ID number, a page footer glued to the last
      sentence (``ROSA TEMBLEY B-12345 DECISION PAGE 9``; ``footer_names``) — ``footer-name``;
    * a given name alone in capitals among lower-case words (``HOPE said``;
      ``caps_given_names``) — ``caps-given-name``.
    """

    ENTITY = "PERSON"

    def find_all(self, text: str):
        from engine.detectors.ordinary import ORDINARY_ZIPF, is_name_word, is_ordinary
        from engine.detectors.recognizers.base import Found

        found: dict[tuple[int, int], Found] = {}

        def add(spans, reason: str) -> None:
            for s, e in spans:
                found.setdefault((s, e), Found(s, e, self.ENTITY, 0.9, reason))

        for match in _TITLE_RUN.finditer(text):
            # "Gen. X" names whoever follows; "Lord X" only a name ("the Lord Almighty")
            abbreviated = match.group(0).rstrip().endswith(".")
            add(_name_words(text, match.end(), first_any=abbreviated), "title-run")
        for match in _PARTY_ROLE.finditer(text):
            pos = match.end()
            while True:  # "Quill, Alden and Dora Varga"
                names = _name_words(text, pos, first_any=False)
                if not names:
                    break
                add(names, "party-name")
                more = re.match(r",? and |, ", text[names[-1][1] : names[-1][1] + 6])
                if not more:
                    break
                pos = names[-1][1] + more.end()
                if text[pos : pos + 2] in {"'s", "’s"}:
                    break
        for match in _CASE.finditer(text):
            add(_name_words(text, match.end(), first_any=True, places="regions"), "case-party")
            if match.group(0).strip() != "In re":
                add(_case_party_before(text, match.start()), "case-party")
        for match in _NICKNAME.finditer(text):
            a, c = match.group("a"), match.group("c")
            # after a given name and a nickname, only an everyday word is not the surname
            # (Mitchell "Mitm" Nicholls: "nicholls" is as frequent as many English words)
            zipf = NICKNAME_SURNAME_ZIPF if is_given_name(a) else ORDINARY_ZIPF
            surname = not is_ordinary(c, zipf)
            if (not is_ordinary(a) or is_given_name(a)) and (surname or is_name_word(c)):
                add([match.span("a"), match.span("b"), match.span("c")], "nickname")
        add(caps_full_names(text), "caps-name")
        add(footer_names(text), "footer-name")
        add(caps_given_names(text), "caps-given-name")
        return sorted(found.values(), key=lambda f: (f.start, f.end))
