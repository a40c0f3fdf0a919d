"""The names a transcript itself gives: its cover page, its speaker tags, the
words spelled out letter by letter and the capitalised word after an honorific. Django-free.

A corpus-wide allow-list must never hide one of these: "Good" or "Good morning" may be
allow-listed, but neither hides anything in a hearing whose facilitator is Jonathon Good,
nor does a phrase such as "Moreno was" in a hearing of Mr. Moreno
(:func:`is_given_name_term`; :meth:`engine.detectors.allow.AllowList.protecting`), and the
leak check keeps reporting it (:func:`engine.pseudonymize.leaks.find_leaks`, ``protect``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping

from engine.detectors.name_words import ROLE_WORDS as ROLE_WORDS
from engine.detectors.name_words import SPEAKER_TAG as _SPEAKER_TAG
from engine.detectors.name_words import TITLES, is_role_word
from engine.detectors.names import person_name_parts

_TAG_WORD = re.compile(r"[^\W\d_]+(?:['’.-][^\W\d_]+)*\.?")
# A title or honorific, then (looked ahead, so that "Deputy Commissioner Alden" yields
# Alden) a capitalised word.
_HONORIFIC = re.compile(
    # Abbreviations take a period ("Mr. Quill"); a full word does not, since "Thank you,
    # Commissioner. I'm ..." ends a sentence.
    r"(?<![\w.])(?:(?i:mr|mrs|ms|mx|dr|sgt|lt|capt|det|rev|prof)\.?|(?i:miss|mister|doctor|"
    r"judge|justice|officer|sergeant|lieutenant|captain|detective|commissioner|reverend|"
    r"professor|father|sister|attorney|counselor))[ \t]+"
    r"(?=([A-Z][^\W\d_]*(?:['’-][^\W\d_]+)*))"
)


# titles written as abbreviations (_HONORIFIC's first group): a name follows them
# whatever their case ("mr. Good")
_ABBREVIATIONS = frozenset("mr mrs ms mx dr sgt lt capt det rev prof".split())


_POSSESSIVE_END = re.compile(r"['’]s$", re.IGNORECASE)
# A word spelled out: "G-O-O-D", "G-o-o-d", "G. O. O. D.", "G O O D" (three letters or more).
_SPELLED = re.compile(
    r"(?<![\w-])(?:[A-Za-z](?:-[ \t]*\n?[ \t]*[A-Za-z]){2,24}(?![\w'’-])"
    r"|[A-Z](?:\.?[ \t][A-Z]){2,24}\.?(?![\w'’]))"
)


def name_key(word: str) -> str:
    """How a name word is compared: case, accents, possessive and edge dots removed."""
    word = _POSSESSIVE_END.sub("", word.strip().strip(".").replace("’", "'"))
    folded = unicodedata.normalize("NFKD", word.casefold())
    return "".join(c for c in folded if not unicodedata.combining(c))


def _name_words(name: str) -> list[str]:
    cleaned = name.replace(",", " ")
    words = [cleaned[s:e] for s, e in person_name_parts(cleaned, 0, len(cleaned))]
    return [w for w in words if len(w.strip(".")) >= 2 and w.lower().strip(".") not in TITLES]


_TERM_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")


def is_given_name_term(term: str, names: set[str] | frozenset[str]) -> bool:
    """Whether an allow-list ``term`` holds a name this transcript gives, titles and roles
    aside: the bare name (``Good``, ``Calvin Quill``), a title with it (``Mr. Good``), or a
    phrase containing it (``Moreno was``; ``Good morning`` in a hearing whose facilitator
    is Jonathon Good). Such a term hides nothing in this transcript: the name
    is suggested and the leak check reports it, and a reviewer who finds the word is no
    name at one place says so there ("not a leak here")."""
    for match in _TERM_WORD.finditer(term):
        word = match.group(0)
        for piece in {word, *word.split("-")}:  # "Jo-Ann": the whole, and each part
            if piece and not is_role_word(piece) and name_key(piece) in names:
                return True
    return False


def cover_names(metadata: Mapping) -> set[str]:
    """Name words of the cover page: the incarcerated person, participants, transcriber."""
    names = [metadata.get("incarcerated_person"), metadata.get("transcriber")]
    for participant in metadata.get("participants") or []:
        names.append(participant.get("name") if isinstance(participant, Mapping) else participant)
    return {name_key(w) for name in names if name for w in _name_words(str(name))}


def speaker_tag_names(speakers: Iterable[str]) -> set[str]:
    """Name words of speaker tags (``INMATE QUILL`` → ``quill``, ``MR. JUDGE`` →
    ``judge``); a tag of roles only names nobody (:func:`tag_name_words`)."""
    from engine.detectors.role_names import tag_name_words

    return {name_key(word) for speaker in speakers for _s, _e, word in tag_name_words(speaker)}


def honorific_names(text: str) -> set[str]:
    """The capitalised word after a title or honorific (``Mr. Good`` → ``good``).

    A title written as a word in lower case (``sister``, ``father``, ``doctor``,
    ``officer``) is an everyday noun first: after it only a given name or a word no
    English text uses is a name (``my sister Hope``, ``the officer Rivera``), not an
    everyday word (``his sister Republican``, ``the doctor Republican``)."""
    from engine.detectors.names import is_given_name
    from engine.detectors.ordinary import is_ordinary

    out = set()
    for match in _HONORIFIC.finditer(text):
        word = _POSSESSIVE_END.sub("", match.group(1))
        if is_role_word(word):
            continue
        title = match.group(0).split()[0]
        if title.islower() and title.rstrip(".") not in _ABBREVIATIONS:
            if is_ordinary(word) and not is_given_name(word):
                continue
        out.add(name_key(word))
    return out


def spelled_names(text: str) -> set[str]:
    """Words spelled out letter by letter (``G-O-O-D`` → ``good``)."""
    out = set()
    for match in _SPELLED.finditer(text):
        letters = "".join(c for c in match.group(0) if c.isalpha())
        if len(set(letters.lower())) >= 2:
            out.add(name_key(letters))
    return out


def given_names(
    text: str, metadata: Mapping | None = None, speakers: Iterable[str] = ()
) -> frozenset[str]:
    """Every name word this transcript gives (keys by :func:`name_key`): cover page,
    speaker tags (``speakers``, and the ``TAG:`` line starts of ``text``), spellings and
    honorifics."""
    tags = {m.group(1) for m in _SPEAKER_TAG.finditer(text)} | set(speakers)
    return frozenset(
        cover_names(metadata or {}) | speaker_tag_names(tags) | honorific_names(text)
        | spelled_names(text)
    )  # fmt: skip


# After a sentence's first word, words that make it the everyday word, not a name: a
# subject pronoun after a modal ("May I", "Will you"), a preposition or an adverb after
# an adverb ("Long before", "Long ago"), a plural after an adjective ("Young people").
EVERYDAY_USE = re.compile(
    r"[ ]+(?:I|I'm|I've|I'll|we|you|he|she|they|it|there|before|after|ago|since|enough|as|"
    r"than|story|term|time|people|folks|kids|men|women|ones)\b"
)
_OPENS_BEFORE = re.compile(r"(?:^|[.?!:;]|--|—)[\s\"“‘'(\[]*$|^[ \t]*(?:[QA]\.?)?[ \t]*$")


def everyday_word_here(text: str, start: int, end: int) -> bool:
    """Whether the title-case word at ``[start, end)``, a name elsewhere (``Ms. May``,
    ``Mr. Long``), is the everyday English word here: it opens a sentence, a line or an
    answer and the next word shows the everyday use (``May I say something?``, ``Long
    before that``: false alarms at Submit otherwise); or, in capitals, it stands in a
    long line set wholly in capitals (``THE BOARD MAY MODIFY THIS DECISION``). Never an
    honorific's word."""
    from engine.detectors.ordinary import is_ordinary

    word = text[start:end]
    line_start = text.rfind("\n", 0, start) + 1
    if word.isupper() and len(word) > 1 and is_ordinary(word.title()):
        # boilerplate set in capitals ("THE BOARD MAY MODIFY THIS DECISION" where Ms. May
        # testified): a long line with no lower-case letter, the word not after a title
        line_end = text.find("\n", end)
        line = text[line_start : len(text) if line_end == -1 else line_end]
        before = text[max(line_start, start - 12) : start]
        return (
            not any(c.islower() for c in line)
            and len(_CAPS_WORD.findall(line)) >= CAPS_LINE_WORDS
            and not re.search(r"\b(?:MR|MRS|MS|DR|MX)\.?\s*$", before)
            and not line.rstrip().endswith(":")
        )
    if not (word[:1].isupper() and word[1:].islower()) or not is_ordinary(word):
        return False
    before = text[max(line_start, start - 12) : start]
    if not _OPENS_BEFORE.search(before) or re.search(r"\b(?:Mr|Mrs|Ms|Dr|Mx)\.\s*$", before):
        return False
    if word.lower() in _INTERJECTIONS and text[end : end + 1] == ",":
        return True  # "Oh, I forgot" where Mr. Oh drives
    if word.lower() in _PRONOUNS_AND_FUNCTION_WORDS:
        return True  # "He had just turned 19", "So I left" where Mr. He and Ms. So testified
    return bool(EVERYDAY_USE.match(text, end))


# pronouns and function words that open a sentence as themselves, whoever bears them as a
# surname (He, So, You, An, To: Chinese, Korean, Vietnamese surnames)
_PRONOUNS_AND_FUNCTION_WORDS = frozenset(
    "he she it we you they so and but or if as at to in on by an do the a me us him her his".split()
)


_CAPS_WORD = re.compile(r"[A-Z][A-Z'’-]*")
CAPS_LINE_WORDS = 8  # words of a line set in capitals that make it boilerplate


# words that open a sentence before a comma as an interjection or a discourse word
_INTERJECTIONS = frozenset("oh ah well so now look listen man hey yes no okay right sure".split())
