"""Where a word stands as a name, as court reporters write names. Django-free.

Court transcripts name people with words that are also roles or everyday words: a
witness sworn as "GEORGE FOREMAN", counsel "MR. JUDGE" or "Ms. Justice", an examiner
"BY MS. SPEAKER:", counsel on the cover "Mr. Fair" who also speaks of "a fair trial".
A word list alone fails both ways: it skips the role words that the transcript makes
names, and it reads a role-only tag ("THE COURT SECURITY OFFICER") or an ordinary word in
lower case as a name. So the transcript's own writing decides:

* a speaker tag, an examination line (``BY MR. JUDGE:``) or a swearing-in line (``GEORGE
  FOREMAN, having been first duly sworn``) names a person with the words after an
  honorific (``MR.``, ``MS.``), after a title that takes a name (``COMMISSIONER ALDEN``),
  after a given name (``GEORGE FOREMAN``), and with any word that is no ordinary English
  word; an ordinary word before a role noun is its modifier (``COURT SECURITY OFFICER``,
  ``COURTROOM DEPUTY``), so a tag of roles and modifiers names nobody
  (:func:`tag_name_words`);
* a role word is a name where it stands as one (:func:`role_word_named_here`): right
  after an honorific (``MR. JUDGE``, ``Ms. Justice``), after a given name or a person's
  tag (``Carla Justice``, ``[PERSON_3] Justice``), or before the swearing-in words; never as the title before a name (``Mr. Justice
  Kennedy``, ``Judge Alden``) nor in lower case.

``Mr.`` before a role of address (``Mr. Foreman``, ``Mr. Chairman``, ``Mr. President``)
is how a speaker addresses the grand jury's foreman or a chair: such a word is a name
only where the transcript also names someone with it in another way
(:func:`role_names`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from engine.detectors.name_words import SPEAKER_TAG, TITLES, is_given_name, is_role_word

# Honorifics that stand before a surname: after one, even a role word is a surname.
NAME_HONORIFICS = frozenset("mr mrs ms mx dr miss mister".split())
# Roles that "Mr." makes a form of address ("Mr. Foreman", "Mr. Chairman").
ADDRESS_ROLES = frozenset(
    """foreman foreperson forewoman chairman chairwoman chairperson chair president speaker
    secretary mayor governor senator clerk bailiff marshal sheriff commissioner""".split()
)
# Words of a tag that are never a name part, whatever stands before them.
FUNCTION_WORDS = frozenset(
    """the a an and or for by of to on in at as with from all both no nos number q jr sr ii
    iii iv esq esquire""".split()
)
# Roles and titles after which a name follows in a tag ("COMMISSIONER ALDEN", "JUROR
# YOUNG", "INCARCERATED PERSON HALL").
BEFORE_NAME = TITLES | frozenset(
    """person kin inmate prisoner juror witness interpreter defendant plaintiff petitioner
    respondent appellant appellee senator secretary chairman chairwoman officer deputy
    commissioner bailiff clerk reporter counsel attorney foreman foreperson""".split()
)
_WORD = re.compile(r"[^\W\d_]+(?:['’.-][^\W\d_]+)*\.?")
_POSSESSIVE = re.compile(r"['’]s$", re.IGNORECASE)
# "GEORGE FOREMAN, having been first duly sworn", "WILLIAM SULLIVAN, called as a witness"
SWORN = re.compile(
    r"(?m)^[ \t]*(?P<name>[A-Z][\w'’.-]*(?:[ \t]+[A-Z][\w'’.-]*){0,4}),?[ \t]+(?:called as a "
    r"witness|(?:having been|being|after being|was)[ \t]+(?:first[ \t]+)?(?:duly[ \t]+)?"
    r"(?:sworn|affirmed))"
)
# An examination line: "BY MR. JUDGE:" (a line of its own, or before the first question)
EXAMINATION = re.compile(r"(?m)^[ \t]*BY[ \t]+(?P<name>[A-Z][A-Z.'’ -]{1,60}?)[ \t]*:")
_CALENDAR = frozenset(
    """january february march april may june july august september october november
    december monday tuesday wednesday thursday friday saturday sunday""".split()
)


def _role(key: str) -> bool:
    from engine.detectors.public import ROLE_WORDS

    return is_role_word(key) or key in ROLE_WORDS


def _key(word: str) -> str:
    return _POSSESSIVE.sub("", word).rstrip(".").lower().replace("’", "'")


def strong_given_name(word: str) -> bool:
    """A given name that is no everyday word (``George``, ``Carla``; not ``Rose``)."""
    from engine.detectors.ordinary import is_ordinary

    key = _key(word)
    return (
        len(key) > 1
        and key not in FUNCTION_WORDS
        and not _role(key)
        and is_given_name(key)
        and not is_ordinary(key.title())
    )


def tag_name_words(tag: str, address_names: Iterable[str] = ()) -> list[tuple[int, int, str]]:
    """The words of a speaker tag (or of the name of an examination or swearing-in line)
    that name a person: ``(start, end, word)`` in ``tag``. ``MR. JUDGE`` → JUDGE, ``GEORGE
    FOREMAN`` → GEORGE and FOREMAN, ``PRESIDING COMMISSIONER ALDEN`` → ALDEN; ``THE COURT
    SECURITY OFFICER``, ``THE COURTROOM DEPUTY``, ``JUROR NO. 5`` → nothing.
    ``address_names``: role words of address (``foreman``) named elsewhere in the
    transcript, a name after ``MR.`` too."""
    from engine.detectors.ordinary import is_ordinary

    named = {_key(w) for w in address_names}
    out: list[tuple[int, int, str]] = []
    state = ""  # "honorific", "mister", "title", "name" or "" (the start, a role, a modifier)
    words = _WORD.finditer(tag)
    for match in words:
        word = _POSSESSIVE.sub("", match.group(0)).rstrip(".")
        key = _key(word)
        end = match.start() + len(word)
        if key in NAME_HONORIFICS:
            state = "mister" if key in {"mr", "mister"} else "honorific"
            continue
        if len(key) < 2 or key in FUNCTION_WORDS or key in _CALENDAR:
            state = ""
            continue
        if state == "mister" and key in ADDRESS_ROLES and key not in named:
            state = ""  # "MR. FOREMAN" addressing the foreman
            continue
        if state in {"honorific", "mister"}:
            out.append((match.start(), end, word))
            state = "name"
            continue
        if _role(key):
            if state == "name":
                out.append((match.start(), end, word))  # "GEORGE FOREMAN", "CARLA JUSTICE"
                continue
            state = "title" if key in BEFORE_NAME else ""
            continue
        if not is_ordinary(word) or state in {"title", "name"}:
            out.append((match.start(), end, word))
            state = "name"
        else:
            state = ""  # an ordinary word before a role noun: "SECURITY" of "COURT SECURITY"
    return out


def line_names(text: str, address_names: Iterable[str] = ()) -> list[tuple[int, int, str]]:
    """Name words of the examination (``BY MS. SPEAKER:``) and swearing-in (``GEORGE
    FOREMAN, having been first duly sworn``) lines of ``text``: ``(start, end, word)``."""
    out = []
    for regex in (EXAMINATION, SWORN):
        for match in regex.finditer(text):
            base = match.start("name")
            out.extend(
                (base + s, base + e, w)
                for s, e, w in tag_name_words(match.group("name"), address_names)
            )
    return sorted(out)


def role_names(text: str, speakers: Iterable[str] = (), metadata_names: Iterable[str] = ()):
    """The role words (lower case) this transcript makes names other than by ``Mr.``
    before a role of address: in speaker tags, examination and swearing-in lines, after
    a given name or an honorific other than ``Mr.``, on the cover (``metadata_names``)."""
    found = {_key(w) for w in metadata_names if _role(_key(w))}
    for speaker in speakers:
        found |= {_key(w) for _s, _e, w in tag_name_words(speaker) if _role(_key(w))}
    found |= {_key(w) for _s, _e, w in line_names(text) if _role(_key(w))}
    for match in _ROLE_AFTER.finditer(text):
        word, previous = match.group("word"), match.group("previous")
        key = _key(word)
        if key in found or not _role(key) or not role_word_named_here(text, *match.span("word")):
            continue
        if _key(previous) in NAME_HONORIFICS - {"mr", "mister"} or strong_given_name(previous):
            found.add(key)  # "Ms. Justice", "Carla Justice"
    return found


# a capitalised word after an honorific or a capitalised word (candidates for the test)
_ROLE_AFTER = re.compile(
    r"(?P<previous>(?i:\b(?:mrs|ms|mx|dr|miss)\b)\.?|\b[A-Z][a-z]+|\b[A-Z]{2,})[ \t]+"
    r"(?=(?P<word>[A-Z][A-Za-z]+)\b)"
)
_BEFORE_WORD = re.compile(r"([^\W\d_][\w'’.-]*|\[[A-Z_]+_\d+\])[ \t]+$")
_FOLLOWING = re.compile(r"[ \t]+([A-Z][\w'’-]*)")
_SWORN_AFTER = re.compile(
    r",?[ \t]+(?:called as a witness|(?:having been|being|was)[ \t]+(?:first[ \t]+)?"
    r"(?:duly[ \t]+)?(?:sworn|affirmed))"
)


def role_word_named_here(text: str, start: int, end: int) -> bool:
    """Whether the role word at ``[start, end)`` of ``text`` stands as a name here: in
    capitals or title case, right after an honorific, a given name or a person's tag, or
    before the swearing-in words; never as a title before a name (``Mr.
    Justice Kennedy``, ``Judge Alden``) nor in lower case."""
    word = text[start:end]
    key = _key(word)
    if not word[:1].isupper() or len(key) < 2 or key in FUNCTION_WORDS:
        return False  # "A." of "DIANE A. TIRADO" is an initial
    line_start = text.rfind("\n", 0, start) + 1
    before = _BEFORE_WORD.search(text, line_start, start)
    following = _FOLLOWING.match(text, end)
    if (
        key in TITLES
        and following
        and following.group(1) != "I"
        and not _role(_key(following.group(1)))
    ):
        return False  # the title before a name: "Justice Kennedy", "Ms. Justice Alden"
    if (
        following
        and _role(_key(following.group(1)))
        and _key(following.group(1)) not in FUNCTION_WORDS
    ):
        return False  # a role of two words: "Mr. Chief Justice", "Mr. Vice President"
    if _SWORN_AFTER.match(text, end):
        return True
    if before is None:
        return False
    previous = before.group(1)
    pkey = _key(previous)
    if pkey in NAME_HONORIFICS:
        return True
    if previous.startswith("[PERSON_"):
        return True
    return previous[:1].isupper() and strong_given_name(previous)


_MISTER = re.compile(r"(?i)\b(?:mr|mister)\.?[ \t]+$")


def role_surname_here(text: str, start: int, end: int) -> bool:
    """:func:`role_word_named_here`, except a role of address after ``Mr.`` (``Mr.
    Foreman``): what detection proposes without reading the whole transcript."""
    if not role_word_named_here(text, start, end):
        return False
    key = _key(text[start:end])
    if key in ADDRESS_ROLES and _MISTER.search(text, max(0, start - 8), start):
        return key in address_names_in(text)  # "Mr. Foreman" where George Foreman was sworn
    return True


_LAST: list = []  # [(text, role names)]: the last text asked about


def address_names_in(text: str) -> frozenset[str]:
    """:func:`role_names` of ``text`` with its ``TAG:`` line starts as speakers, computed
    once per text (detection asks at every role word after ``Mr.``)."""
    if _LAST and _LAST[0][0] is text:
        return _LAST[0][1]
    names = frozenset(role_names(text, {m.group(1) for m in SPEAKER_TAG.finditer(text)}))
    _LAST[:] = [(text, names)]
    return names


def role_surnames_beside_given_names(text: str) -> list[tuple[int, int]]:
    """Role words right after a given name that is no everyday word (``Carla Justice``,
    ``George Foreman``): ``(start, end)``."""
    out = []
    for match in _ROLE_AFTER.finditer(text):
        key = _key(match.group("word"))
        if _role(key) and key not in FUNCTION_WORDS and strong_given_name(match.group("previous")):
            s, e = match.span("word")
            if role_word_named_here(text, s, e):
                out.append((s, e))
    return out
