"""The decision table: what becomes of every candidate, one ordered table of named rules.
Django-free.

A candidate (a member's find, trimmed) is decided by the first row of ``RULES`` whose
``when`` holds over its ``Features`` (``engine.detectors.features``: each fact computed
once). A row's outcome is one of:

* ``keep`` — the candidate reaches the merge as a span;
* ``drop`` — it is dropped, and the decision names the row's rule;
* ``maybe-miss`` — dropped for its shape, but where its context makes it a name or a place
  (``decisions.possible_miss_label``) the safety net shows it as a possible miss;
* ``relabel`` — it takes another label (and, for a person in a body's span, loses the
  numbers after the name); the rows below it decide the relabelled candidate;
* ``split`` — it is cut into pieces that are decided from the top, each trimmed again;
* ``parts`` — a PERSON find is cut into name parts, each decided by the ``part`` rows.

Rows with ``part=True`` decide one name part of a PERSON find; the others decide a whole
candidate. Order matters only where two rows could both hold: the first decides.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from engine.detectors.base import Detection
from engine.detectors.features import (
    ADDRESS_SHAPE,
    BARE_NUMBERS,
    CAPS_FUNCTION_WORDS,
    DATE_AGE,
    DATE_ANCHOR,
    DAY_CLOCK,
    DURATION,
    SHORT_DURATION,
    TIME_STRICT,
    TIME_WORDS,
    Features,
)
from engine.detectors.names import TITLES

KEEP, DROP, MAYBE_MISS, RELABEL, SPLIT, PARTS = (
    "keep",
    "drop",
    "maybe-miss",
    "relabel",
    "split",
    "parts",
)

NAMED = frozenset({"PERSON", "ORGANIZATION", "LOCATION", "NRP"})
BODY_OR_PLACE = frozenset({"ORGANIZATION", "LOCATION"})
# NER labels never run across a line break (one utterance, or one cover-page field, a line)
ONE_LINE = frozenset({"PERSON", "LOCATION", "ORGANIZATION", "NRP", "DATE", "TIME", "AGE"})
# Labels dropped inside a public term; a CDCR number or a phone never is one.
PUBLIC_CHECKED = ONE_LINE


@dataclass(frozen=True)
class Rule:
    name: str  # the row's name, unique in the table
    outcome: str
    when: Callable[[Features], bool]
    reason: str
    labels: frozenset[str] | None = None  # the labels it decides (None: every label)
    part: bool = False  # decides a name part of a PERSON find
    # relabel: the new candidate; split: the pieces
    then: Callable[[Features], Detection | list[Detection]] | None = None
    rule: str = ""  # the decision's rule name where it is not the row's (``decision``)

    @property
    def decision(self) -> str:
        """The rule name a decision records (what a reviewer and ``trace`` see)."""
        return self.rule or self.name

    def holds(self, f: Features) -> bool:
        if self.part != f.part:
            return False
        if self.labels is not None and (f.d is None or f.label not in self.labels):
            return False
        return self.when(f)


def _lines(f: Features) -> list[Detection]:
    d = f.d
    return [
        d.moved(d.start + m.start(), d.start + m.end()) for m in re.finditer(r"[^\n]+", f.value)
    ]


def _as_person(f: Features) -> Detection:
    return f.d.moved(f.d.start, f.d.start + len(f.name_before_numbers), "PERSON")


def _shape(rule: str) -> Callable[[Features], bool]:
    return lambda f: f.learned and f.shape_rule == rule


def _part_shape(rule: str) -> Callable[[Features], bool]:
    return lambda f: f.learned and f.part_of_longer and f.shape_rule == rule


_DATE, _TIME, _DATE_TIME = frozenset({"DATE"}), frozenset({"TIME"}), frozenset({"DATE", "TIME"})
_PERSON = frozenset({"PERSON"})
_BODY_PLACE_GROUP = frozenset({"ORGANIZATION", "LOCATION", "NRP"})
# the shape of a clock with a dot (10.15, 5.45/6.15-ish): the time recognizer gave it
# only in a context that says when (at, about, a.m./p.m., a range)
DOTTED_CLOCK = re.compile(r"\(?\d{1,2}\.[0-5]\d\b")

RULES: tuple[Rule, ...] = (
    # --- the candidate's extent ------------------------------------------------------
    Rule("no-word", DROP, lambda f: f.d is None, "only spaces and punctuation"),
    Rule(
        "word-piece", DROP, lambda f: f.cuts_word, "a token classifier's piece of a word (godfat)"
    ),
    Rule(
        "one-line",
        SPLIT,
        lambda f: f.multi_line,
        "a name, place or date never runs across a line: decided line by line",
        labels=ONE_LINE,
        then=_lines,
    ),
    Rule(
        "no-address-shape",
        DROP,
        lambda f: not f.address_shaped,
        "a URL or e-mail address without an address's shape (a name and its spelling)",
        labels=frozenset(ADDRESS_SHAPE),
    ),
    Rule(
        "date-time-expressions",
        SPLIT,
        lambda f: not f.expressions_cut and f.expressions != [f.d],
        "a DATE/TIME span is the expressions the hearing recognizers find in it",
        labels=_DATE_TIME,
        then=lambda f: f.expressions,
    ),
    # --- another label ------------------------------------------------------------------
    Rule(
        "ocr-ordinal-day",
        RELABEL,
        lambda f: f.ocr_ordinal,
        "a day's ordinal with OCR look-alikes of digits (the l5th) is a date",
        labels=NAMED,
        then=lambda f: f.d.moved(f.d.start, f.d.end, "DATE"),
    ),
    Rule(
        "titled-person",
        RELABEL,
        lambda f: f.titled,
        "a title and a name (Officer Cantu) is a person, not a body",
        labels=BODY_OR_PLACE,
        then=_as_person,
    ),
    Rule(
        "full-name-person",
        RELABEL,
        lambda f: f.model_or_classifier and f.full_name,
        "a model's body or place that is a given name and a surname (Amber Martinez)",
        labels=BODY_OR_PLACE,
        then=_as_person,
    ),
    Rule(
        "given-name-person",
        RELABEL,
        lambda f: f.model_or_classifier and f.lone_given_name,
        "a model's body or place that is a given name and no English word (Debbie)",
        labels=BODY_OR_PLACE,
        then=_as_person,
    ),
    Rule(
        "placed-town",
        RELABEL,
        lambda f: f.spacy_guess and f.capital_word and f.placed,
        "a model's body after a verb of residence and a preposition (living in Energy)",
        labels=frozenset({"ORGANIZATION"}),
        then=lambda f: f.d.moved(f.d.start, f.d.end, "LOCATION"),
    ),
    # --- public words -------------------------------------------------------------------
    Rule(
        "public-term",
        DROP,
        lambda f: bool(f.public_kind),
        "inside a public term (Supreme Court, Penal Code section 3041)",
        labels=PUBLIC_CHECKED,
    ),
    Rule(
        "public-term-only-public",
        DROP,
        lambda f: f.only_public,
        "a public term with only function words, numbers or a state beside it",
        labels=BODY_OR_PLACE,
        rule="public-term",
    ),
    Rule(
        "title-or-role",
        DROP,
        lambda f: f.title_or_role and not (f.label == "PERSON" and f.surname_after_honorific),
        "only titles, roles and forms of address (Chief Justice, ESQ., MR.)",
        labels=NAMED,
    ),
    Rule(
        "caps-boilerplate",
        MAYBE_MISS,
        lambda f: f.model_or_classifier and f.caps_boilerplate and f.all_words_ordinary,
        "a model's English words in boilerplate printed in capitals (MODIFY)",
        labels=ONE_LINE,
    ),
    # --- a model's one-word person (not_names.py) ------------------------------------------
    Rule(
        "single-letter",
        DROP,
        _shape("single-letter"),
        "one letter alone is no name",
        labels=_PERSON,
    ),
    Rule(
        "acronym-plural",
        DROP,
        _shape("acronym-plural"),
        "an acronym's plural (MRIs)",
        labels=_PERSON,
    ),
    Rule(
        "determiner-before",
        DROP,
        _shape("determiner-before"),
        "an English word after an article (the Tahoe): a name takes none",
        labels=_PERSON,
    ),
    Rule(
        "sentence-start-word",
        MAYBE_MISS,
        _shape("sentence-start-word"),
        "an English word capitalised only because it opens a sentence or a line",
        labels=_PERSON,
    ),
    Rule(
        "name-parts",
        PARTS,
        lambda f: True,
        "a person is stored as name parts (titles and possessives left out)",
        labels=_PERSON,
        then=lambda f: f.name_parts,
    ),
    # --- one name part of a person ------------------------------------------------------
    Rule(
        "part-single-letter",
        DROP,
        lambda f: (len(f.value) < 2 and not f.value.isupper()) or f.value == "I",
        "a lower-case letter or the pronoun I is no name part",
        part=True,
        rule="single-letter",
    ),
    Rule(
        "part-lower-case",
        DROP,
        lambda f: (
            f.value.islower()
            and not f.models_agree_lower
            and not (f.lower_case_allowed and not f.ordinary_for_lower_case)
        ),
        "names are capitalised, except a known name's slip that is no English word",
        part=True,
        rule="lower-case",
    ),
    Rule(
        "part-allow-list",
        DROP,
        lambda f: f.allow_listed,
        "an allow-listed term",
        part=True,
        rule="allow-list",
    ),
    Rule(
        "part-title",
        DROP,
        lambda f: f.value.lower() in TITLES and not f.surname_after_honorific,
        "a title (Commissioner, Jr.)",
        part=True,
        rule="title-or-role",
    ),
    Rule(
        "part-stutter",
        DROP,
        lambda f: f.stutter,
        "a stutter (th-th-that)",
        part=True,
        rule="stutter",
    ),
    Rule(
        "part-public-term",
        DROP,
        lambda f: bool(f.public_kind),
        "inside a public term",
        part=True,
        rule="public-term",
    ),
    Rule(
        "part-title-or-role",
        DROP,
        lambda f: f.title_or_role and not (f.surname_after_honorific or f.surname_after_given_name),
        "a role word (Mr. Chief Justice); Ms. Cross and Helen An keep their surnames",
        part=True,
        rule="title-or-role",
    ),
    Rule(
        "part-not-a-name-here",
        DROP,
        lambda f: f.not_a_name_here,
        "Last name, Good luck, Signed:",
        part=True,
        rule="not-a-name-here",
    ),
    Rule(
        "part-function-word",
        DROP,
        lambda f: (
            f.value.isupper() and f.value.lower() in CAPS_FUNCTION_WORDS and not f.after_honorific
        ),
        "a function word in a line in capitals (OGINDAN AT SAN QUENTIN)",
        part=True,
        rule="function-word",
    ),
    Rule(
        "part-sentence-start-word",
        MAYBE_MISS,
        _part_shape("sentence-start-word"),
        "a model's longer find's part that only a sentence start capitalised",
        part=True,
        rule="sentence-start-word",
    ),
    Rule(
        "part-acronym-plural",
        DROP,
        _part_shape("acronym-plural"),
        "a model's longer find's part that is an acronym's plural",
        part=True,
        rule="acronym-plural",
    ),
    Rule(
        "part-determiner-before",
        DROP,
        _part_shape("determiner-before"),
        "a model's longer find's part that is an English word after an article",
        part=True,
        rule="determiner-before",
    ),
    Rule("name-part", KEEP, lambda f: True, "a name part", part=True),
    # --- any other label ----------------------------------------------------------------
    Rule("allow-list", DROP, lambda f: f.allow_listed, "an allow-listed term"),
    Rule(
        "date-no-anchor",
        DROP,
        lambda f: not DATE_ANCHOR.search(f.read_value),
        "no digit, month, weekday, decade or spoken year (today's)",
        labels=_DATE,
    ),
    Rule(
        "section-number",
        DROP,
        lambda f: f.section_number,
        "a paragraph's or a section's number (paragraph 2.45): a reference",
        labels=_DATE_TIME,
    ),
    Rule(
        "year-in-identifier",
        DROP,
        lambda f: f.year_in_identifier,
        "a year inside a case number (2017-GJ-384): the number, no date",
        labels=_DATE,
    ),
    Rule(
        "bare-number",
        DROP,
        lambda f: bool(BARE_NUMBERS.match(f.read_value)),
        "a bare number or a list of them (45; 10, 15): a count",
        labels=_DATE_TIME,
    ),
    Rule(
        "minutes-duration",
        DROP,
        lambda f: bool(SHORT_DURATION.match(f.read_value)),
        "minutes or hours (10, 15 minutes): how long, not when",
        labels=_DATE_TIME,
    ),
    Rule(
        "date-is-age",
        DROP,
        lambda f: bool(DATE_AGE.search(f.read_value)),
        "an age (the age of 19): AGE covers it",
        labels=_DATE,
    ),
    Rule(
        "date-is-duration",
        DROP,
        lambda f: bool(DURATION.match(f.read_value)),
        "a duration (two years ago)",
        labels=_DATE,
    ),
    Rule(
        "date-number-only",
        DROP,
        lambda f: f.number_only,
        "a house number, a count or a form's number, not a year",
        labels=_DATE,
    ),
    Rule(
        "military-clock",
        KEEP,
        lambda f: bool(DAY_CLOCK.fullmatch(f.read_value)) and not f.learned,
        "a pattern's four-digit clock in its context (at 1430.)",
        labels=_TIME,
    ),
    Rule(
        "dotted-clock",
        KEEP,
        lambda f: (
            f.member.explanation.startswith("dotted-")
            or (
                f.member.explanation == "HearingTimeRecognizer"
                and bool(DOTTED_CLOCK.match(f.value))
            )
        ),
        "a pattern's dotted clock in its context (at 3.40, 5.45/6.15-ish)",
        labels=_TIME,
    ),
    Rule(
        "time-no-clock",
        DROP,
        lambda f: not TIME_WORDS.search(f.read_value) or not TIME_STRICT.search(f.read_value),
        "no clock, hour word with a time of day, noon or midnight (Good morning)",
        labels=_TIME,
    ),
    Rule("stutter", DROP, lambda f: f.stutter, "a stutter (I-I-I)", labels=_BODY_PLACE_GROUP),
    Rule(
        "short-lower-case",
        DROP,
        lambda f: f.value.islower() and len(f.value) < 4,
        "a short lower-case word",
        labels=_BODY_PLACE_GROUP,
    ),
    Rule(
        "venue-street",
        KEEP,
        lambda f: f.member.explanation in ("venue-street", "VenueStreetRecognizer"),
        "the street a pattern read after a venue (the Hilton on Fifth)",
        labels=_BODY_PLACE_GROUP,
    ),
    Rule(
        "function-words",
        MAYBE_MISS,
        lambda f: f.function_words_only,
        "only function words (I'm a)",
        labels=_BODY_PLACE_GROUP,
    ),
    Rule(
        "function-and-domain-words",
        DROP,
        lambda f: f.spacy_guess and f.function_and_domain_words_only,
        "a model's function and allow-listed words (UNLESS THE BOARD)",
        labels=_BODY_PLACE_GROUP,
    ),
    Rule(
        "function-and-role-words",
        DROP,
        lambda f: f.spacy_guess and f.function_and_role_words_only,
        "a model's function words and roles (I'm a Commissioner)",
        labels=frozenset({"ORGANIZATION"}),
    ),
    Rule(
        "lower-case",
        DROP,
        lambda f: not f.has_capital,
        "places and bodies are capitalised (robbery)",
        labels=BODY_OR_PLACE,
    ),
    Rule(
        "allow-list-phrase",
        DROP,
        lambda f: f.allow_phrase_across,
        "an allow-listed phrase inside or across it",
        labels=_BODY_PLACE_GROUP,
    ),
    Rule(
        "ordinary-word-body",
        MAYBE_MISS,
        lambda f: (
            f.spacy_guess
            and f.capital_word
            and f.ordinary
            and not (f.label == "LOCATION" and (f.known_place or f.placed))
        ),
        "a model's capitalised English word (Chess is ...) is no body's or place's name",
        labels=BODY_OR_PLACE,
    ),
    Rule("kept", KEEP, lambda f: True, "no rule drops it"),
)


# rows that keep what no other row decided: a span's provenance names only the others
PLAIN_KEEP = frozenset({"kept", "name-part"})


def _rows_for(part: bool, label: str | None) -> tuple[int, ...]:
    """The indices of the rows that may decide a candidate of ``label`` (a name part or
    not; None: nothing was left after trimming), in table order."""
    return tuple(
        i
        for i, r in enumerate(RULES)
        if r.part == part and (r.labels is None or (label is not None and label in r.labels))
    )


# the rows each kind of candidate reads: a candidate is checked against its own rows only
_ROWS: dict[tuple[bool, str | None], tuple[int, ...]] = {}


def decide(f: Features, start: int = 0) -> tuple[int, Rule]:
    """The first row from ``start`` on that holds for ``f``: (its index, the row)."""
    key = (f.part, f.d.label if f.d is not None else None)
    rows = _ROWS.get(key)
    if rows is None:
        rows = _ROWS[key] = _rows_for(*key)
    for i in rows:
        if i >= start and RULES[i].when(f):
            return i, RULES[i]
    raise AssertionError("the table ends with a row that always holds")
