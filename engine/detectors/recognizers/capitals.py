"""Names written in capitals: a full name in a caption or a signature (``DORA B. TEMBLEY``),
a name before an ID number in a page footer glued to the last sentence, a given name alone in
capitals among lower-case words (``HOPE said``). The person recognizers
(``recognizers.persons.PartyNameRecognizer``) propose what these find. Django-free."""

from __future__ import annotations

import re

from engine.detectors.names import is_given_name

CALENDAR = frozenset(
    """january february march april may june july august september october november
    december monday tuesday wednesday thursday friday saturday sunday""".split()
)


# a full name in capitals: "DORA B. TEMBLEY", "MARCUS OKONKWO" (captions, signatures)
_CAPS_NAME = re.compile(  # a lookahead: "ATTENTION DORA TEMBLEY" is tried at every word
    r"(?<![\w'’.-])(?=(?P<given>[A-Z]{3,})(?:[ ](?P<initial>[A-Z]\.))?[ ]"
    r"(?P<surname>[A-Z]{3,}(?:-[A-Z]{2,})?)(?![\w'’-]|\.[A-Z]))"
)


def caps_full_names(text: str) -> list[tuple[int, int]]:
    """Full names in capitals: a given name (gazetteer) that is no ordinary English word,
    an optional initial, and a surname that is no ordinary English word or a gazetteer
    name — not a title, a role, a month, nor part of a known place (``SAN JUAN CAPISTRANO``)."""
    from engine.detectors.ordinary import is_name_word, is_ordinary
    from engine.detectors.public import is_title_or_role
    from engine.detectors.recognizers.locations import is_known_place

    out: list[tuple[int, int]] = []
    for match in _CAPS_NAME.finditer(text):
        given, surname = match.group("given"), match.group("surname")
        if not is_given_name(given) or is_ordinary(given) or given.lower() in CALENDAR:
            continue
        if is_title_or_role(surname) or surname.lower() in CALENDAR:
            continue
        if is_ordinary(surname) and not is_name_word(surname):
            continue
        before = re.search(r"([A-Z]+ )?$", text[max(0, match.start() - 20) : match.start()])
        window = ((before.group(1) or "") if before else "") + text[
            match.start() : match.end("surname")
        ]
        if any(is_known_place(w.title()) for w in (window, f"{given} {surname}")):
            continue  # "SAN JUAN CAPISTRANO"
        out.append(match.span("given"))
        out.append(match.span("surname"))
    return out


# a name in capitals right before an ID number, as page furniture glued to the last line:
# "... the crime. DORA TEMBLEY B-12345 DECISION PAGE 9"
_FOOTER_NAME = re.compile(
    r"(?<![\w'’.-])(?=(?P<given>[A-Z]{2,})(?:[ ](?P<initial>[A-Z]\.?))?[ ]"
    r"(?P<surname>[A-Z]{2,}(?:-[A-Z]{2,})?)[ ]+[A-Z]{1,2}-?\d{4,6}(?![\w-]))"
)
_ID_WORDS = frozenset(
    "cdc cdcr number no id inmate page decision booking case docket file parole hearing "
    "prison state county".split()
)


def footer_names(text: str) -> list[tuple[int, int]]:
    """A full name in capitals right before an ID number (a decision page's footer glued
    to the last utterance): the given name may be an ordinary word (``ROSE``, ``SUMMER``)
    when it is a known given name, since the number says whose page it is."""
    from engine.detectors.ordinary import in_name_gazetteer, is_name_word, is_ordinary
    from engine.detectors.public import is_title_or_role

    out: list[tuple[int, int]] = []
    for match in _FOOTER_NAME.finditer(text):
        given, surname = match.group("given"), match.group("surname")
        words = (given, surname)
        if any(w.lower() in _ID_WORDS or is_title_or_role(w) for w in words):
            continue
        if surname.lower() in CALENDAR:  # a given name may be a month ("APRIL TEMBLEY")
            continue
        if not (is_given_name(given) or in_name_gazetteer(given) or not is_ordinary(given)):
            continue
        if is_ordinary(surname) and not (
            is_name_word(surname) or in_name_gazetteer(surname) or is_given_name(given)
        ):
            continue  # "SUMMER DAY V12345": a given name and the number make "DAY" a surname
        out.append(match.span("given"))
        out.append(match.span("surname"))
    return out


# one word in capitals, alone among lower-case words: "HOPE said she would call"
# (a possessive after it is fine: "HOPE's car")
_CAPS_ALONE = re.compile(r"(?<![\w'’.-])(?<![A-Z][ ])[A-Z]{3,}(?![\w-]|['’](?![sS]\b)|[ ][A-Z]|:)")
_LOWER_WORD = re.compile(r"\b[a-z]{2,}\b")


def caps_given_names(text: str) -> list[tuple[int, int]]:
    """A given name written alone in capitals in running text (``HOPE said she would
    call``, ``Was JOY there?``): transcribers write a party's name in capitals, and a
    given name that is also an everyday English word (``ordinary.ENGLISH_NAME_WORDS`` and
    gender_guesser's list: ``HOPE``, ``JOY``, ``GRACE``; never ``VIN``, ``MAX``)
    alone in capitals between lower-case words is no heading, no acronym and no speaker
    tag (the line holds 3+ lower-case words; no capitals word beside it; not a month, a
    title, a role or a public term)."""
    from engine.detectors.ordinary import ENGLISH_NAME_WORDS
    from engine.detectors.public import is_title_or_role, public_terms

    out: list[tuple[int, int]] = []
    public = None
    for match in _CAPS_ALONE.finditer(text):
        word = match.group(0)
        if word.lower() in CALENDAR or is_title_or_role(word) or not is_given_name(word):
            continue
        if word.lower() not in ENGLISH_NAME_WORDS:
            continue  # other names in capitals are the safety net's; "VIN", "MAX" acronyms
        line_start = text.rfind("\n", 0, match.start()) + 1
        line_end = text.find("\n", match.end())
        line = text[line_start : line_end if line_end != -1 else len(text)]
        if len(_LOWER_WORD.findall(line)) < 3:
            continue
        public = public or public_terms(text)
        if public.inside(*match.span()):
            continue
        out.append(match.span())
    return out
