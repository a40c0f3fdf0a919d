"""The leak check: does any original identifier still occur in the output? Django-free.

Needles: every span's text, each PERSON name part, the spelled forms of names
(``D-O-E``, ``D O E``, ``D.O.E.``), the letters a spelled name spells, a CDCR number
in any spacing (``V12345``, ``V 1 2 3 4 5``) and its digits, and the cover-page
names, CDCR number, institution and hearing date. Matching is case-insensitive and
word-bounded; matches inside our own tags (``[DAY]``, ``[PERSON_2]``) are ignored.

Only leaks of direct identifiers (``engine.labels.DIRECT_IDENTIFIERS``) and of the
cover page block a release; the others (an ORGANIZATION, an AGE, a state or country named
again) are reported with ``blocking=False``. A name part that occurs only in lower case (``rose`` for the surname
``Rose``) is reported with ``blocking=False`` too: transcribers capitalise names, so it is
most likely the common word, but a lead sees it. The texts of spans still only suggested
(``Needle.unreviewed``, reported as kind ``suggested``) block like any other (an
undecided suggestion is not replaced, so its text would be released in clear).

Name-shaped text that no accepted span covers is found too: every name part
of a speaker tag (``INCARCERATED PERSON QUILLFEATHER:``; roles and titles such as
``PRESIDING COMMISSIONER`` or ``THE COURT`` are not names), the cover page's person names
in any case (``quillfeather`` blocks too), the capitalised word after a title or
honorific (``Mr. Quillfeather``, ``Commissioner Alden``) and the detection core's
*possible misses* still undecided (spans whose provenance names the ``safety_net``
detector). Each blocks a release; :func:`source_offset` maps a leak back to the
canonical text so that the review page can show the place.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from engine.alternation import phrase, phrases
from engine.detectors.given import (  # noqa: F401 (ROLE_WORDS: re-exported)
    _HONORIFIC,
    _POSSESSIVE_END,
    _TAG_WORD,
    ROLE_WORDS,
    everyday_word_here,
    is_given_name_term,
    is_role_word,
)
from engine.detectors.names import TITLES, is_given_name, person_name_parts
from engine.detectors.ordinary import is_ordinary
from engine.detectors.public import ROLE_WORDS as PUBLIC_ROLE_WORDS
from engine.detectors.public import PublicTerms
from engine.detectors.role_names import (
    ADDRESS_ROLES,
    FUNCTION_WORDS,
    NAME_HONORIFICS,
    line_names,
    role_word_named_here,
    strong_given_name,
    tag_name_words,
)
from engine.labels import DIRECT_IDENTIFIERS
from engine.pseudonymize.dates import MONTHS
from engine.pseudonymize.keys import cdcr_key, spelled_letters
from engine.pseudonymize.partial_tags import partial_tag_leaks
from engine.pseudonymize.subtypes import rule_subtype

TAG = re.compile(r"\[[A-Z][A-Z_]*(?:_\d+)?\]")
CONTEXT = 30
# The detector whose undecided suggestions ("possible misses") block a release.
SAFETY_NET = "safety_net"
POSSIBLE_MISS = "possible_miss"
SPEAKER_TAG = "speaker_tag"
HONORIFIC = "honorific"
SWORN = "sworn"  # the name of an examination or swearing-in line
BESIDE_NAME = "beside_name"  # a word left in clear beside a person's tag
# Labels whose mention text is only a leak when it carries a number (``May`` is a verb,
# ``last year`` identifies nobody).
NUMERIC_ONLY = frozenset({"DATE", "TIME", "AGE", "HEIGHT"})


@dataclass(frozen=True, slots=True)
class Needle:
    """A string (or pattern) that must not occur in the output."""

    pattern: str  # a regular expression (already escaped where literal)
    kind: str  # span | name_part | spelled | id | cover (a Leak from an unreviewed one: suggested)
    label: str
    name_like: bool = False  # lower-case occurrences are non-blocking
    unreviewed: bool = False  # from a still-suggested span: reported as "suggested"; blocks
    coarse: bool = False  # a state or country: identifies no one; reported, never blocking
    # a role word that this transcript makes a name ("MR. JUDGE", "GEORGE FOREMAN"): found
    # only where it stands as a name (role_names.role_word_named_here), never as the role
    role: bool = False


@dataclass(frozen=True, slots=True)
class Leak:
    kind: str
    label: str
    start: int  # position in the output text
    end: int
    text: str  # what was found (sensitive: show to leads only)
    context: str
    blocking: bool = True
    # Where the found text is in the canonical (original) text, when known.
    source_start: int | None = None
    source_end: int | None = None

    def to_json(self) -> dict:
        return {
            "kind": self.kind,
            "label": self.label,
            "start": self.start,
            "end": self.end,
            "text": self.text,
            "context": self.context,
            "blocking": self.blocking,
            "source_start": self.source_start,
            "source_end": self.source_end,
        }


def _spelled_pattern(letters: str) -> str:
    return r"[\s.\-]+".join(re.escape(c) for c in letters)


def _id_pattern(key: str) -> str:
    return r"[\s\-]*".join(re.escape(c) for c in key)


def span_needles(text: str, label: str) -> list[Needle]:
    """Needles for one mention of ``label`` with original ``text``."""
    text = text.strip()
    if len(text) < 2:
        return []
    out: list[Needle] = []
    if label in NUMERIC_ONLY:
        if any(c.isdigit() for c in text):
            out.append(Needle(phrase(text), "span", label))
        return out
    if label == "PERSON":
        parts = [text[s:e] for s, e in person_name_parts(text, 0, len(text))]
        if len(parts) > 1:
            out.append(Needle(phrase(text), "span", label, name_like=True))
        for part in parts or [text]:
            out.extend(name_part_needles(part, label))
        return out
    if label == "SPELLED_NAME":
        letters = spelled_letters(text)
        out.append(Needle(phrase(text), "span", label))
        if len(letters) >= 2:
            out.append(Needle(re.escape(letters), "spelled", label, name_like=True))
            out.append(Needle(_spelled_pattern(letters), "spelled", label))
        return out
    if label == "CDCR_ID":
        key = cdcr_key(text)
        out.append(Needle(phrase(text), "span", label))
        if len(key) >= 3:
            out.append(Needle(_id_pattern(key), "id", label))
        digits = re.sub(r"\D", "", key)
        if len(digits) >= 4:
            out.append(Needle(_id_pattern(digits), "id", label))
        return out
    # "California" marked in "Madera, California" is still named elsewhere ("parole to
    # California"): a state or country narrows nothing down in a corpus of California
    # hearings, so such a repeat is reported, not blocking. So is a place or body named by
    # a common noun in lower case ("near the church", "at the market"): the noun elsewhere
    # identifies nothing.
    coarse = (label == "LOCATION" and rule_subtype(label, text) in ("STATE", "COUNTRY")) or (
        text.islower() and all(is_ordinary(w) for w in text.split())
    )
    # A place or body named by ordinary words ("Market" and "Church", two streets): the
    # words in lower case elsewhere are the common nouns ("the market"), reported only.
    ordinary = all(is_ordinary(w) for w in re.findall(r"[^\W\d_]+", text)) and any(
        c.isalpha() for c in text
    )
    out.append(Needle(phrase(text), "span", label, name_like=ordinary, coarse=coarse))
    return out


def name_part_needles(part: str, label: str = "PERSON", kind: str = "name_part") -> list[Needle]:
    part = part.strip().rstrip(".")
    key = part.lower()
    if len(part) < 2 or key in NAME_HONORIFICS or key in FUNCTION_WORDS:
        return []
    role = key in TITLES or is_role_word(part) or key in PUBLIC_ROLE_WORDS
    needles = [Needle(re.escape(part), kind, label, name_like=True, role=role)]
    letters = spelled_letters(part)
    if len(letters) >= 3:
        needles.append(Needle(r"[\s.\-]+".join(re.escape(c) for c in letters), "spelled", label))
    elif len(letters) == 2:
        # a two-letter name ("Ma", "Ng") spelled with a dash only: "M A" is "I'm a" too
        needles.append(Needle(r"-".join(re.escape(c) for c in letters), "spelled", label))
    return needles


def cover_needles(metadata: dict) -> list[Needle]:
    """Needles for the cover page: names, CDCR number, institution, city, hearing date."""
    out: list[Needle] = []
    names = []
    if metadata.get("incarcerated_person"):
        names.append(str(metadata["incarcerated_person"]))
    for participant in metadata.get("participants") or []:
        name = participant.get("name") if isinstance(participant, dict) else participant
        if name:
            names.append(str(name))
    if metadata.get("transcriber"):
        names.append(str(metadata["transcriber"]))
    for name in names:
        # "SURNAME, Given" and "Given Surname" alike.
        cleaned = name.replace(",", " ")
        for s, e in person_name_parts(cleaned, 0, len(cleaned)):
            out.extend(name_part_needles(cleaned[s:e], "PERSON", "cover"))
    if metadata.get("cdcr_number"):
        key = cdcr_key(str(metadata["cdcr_number"]))
        if len(key) >= 3:
            out.append(Needle(_id_pattern(key), "cover", "CDCR_ID"))
    if metadata.get("institution"):
        out.append(Needle(phrase(str(metadata["institution"])), "cover", "ORGANIZATION"))
    location = str(metadata.get("location") or metadata.get("city") or "")
    city = location.split(",")[0].strip()
    if len(city) >= 3 and rule_subtype("LOCATION", city) not in ("STATE", "COUNTRY"):
        # The hearing's city ("Ione" of "Ione, California"), capitalised: where the
        # institution is, which with the date narrows the hearing down to one person.
        out.append(Needle(phrase(city), "cover", "LOCATION", name_like=True))
    hearing = metadata.get("hearing_date")
    if hearing:
        try:
            day = date.fromisoformat(str(hearing)[:10])
        except ValueError:
            day = None
        if day:
            month = MONTHS[day.month - 1].capitalize()
            forms = [
                rf"{month}\s+{day.day}(?:st|nd|rd|th)?,?\s+{day.year}",
                rf"0?{day.month}[/.-]0?{day.day}[/.-](?:{day.year}|{day.year % 100:02d})",
                re.escape(day.isoformat()),
            ]
            out.extend(Needle(f, "cover", "DATE") for f in forms)
    return out


def speaker_tag_needles(speaker: str, address_names: Iterable[str] = ()) -> list[Needle]:
    """Needles for every name part of a speaker tag (``INCARCERATED PERSON QUILLFEATHER``
    → ``QUILLFEATHER``, ``MR. JUDGE`` → ``JUDGE``, ``GEORGE FOREMAN`` → both); a tag of
    roles only (``THE COURT SECURITY OFFICER``) names nobody (``role_names``)."""
    out: list[Needle] = []
    for _s, _e, word in tag_name_words(speaker, address_names):
        out.extend(name_part_needles(word, "PERSON", SPEAKER_TAG))
    return out


def honorific_needles(text: str, address_names: Iterable[str] = ()) -> list[Needle]:
    """Needles for each capitalised word after a title or honorific (``Mr. Quillfeather``,
    ``Commissioner Alden``), once per distinct word. A role word is one only right after
    an honorific (``MR. JUDGE``, ``Ms. Justice``), not before a name (``Mr. Justice
    Kennedy``), and a role of address after ``Mr.`` (``Mr. Foreman``) only when in
    ``address_names`` (the transcript names someone so in another way)."""
    out: list[Needle] = []
    seen: set[str] = set()
    named = {w.casefold() for w in address_names}
    for match in _HONORIFIC.finditer(text):
        word = _POSSESSIVE_END.sub("", match.group(1))
        key = word.casefold()
        if key in seen:
            continue
        title = match.group(0).split()[0].rstrip(".").lower()
        if match.group(0)[:1].islower() and title not in NAME_HONORIFICS | {"sgt", "lt", "det"}:
            # a title written as a lower-case word ("the doctor Republican", "his sister
            # Hope"): only a given name or a word no English text uses is a name after it,
            # as given.honorific_names reads it
            if is_ordinary(word) and not is_given_name(word):
                continue
        if is_role_word(word) or key in TITLES or key in PUBLIC_ROLE_WORDS:
            if title not in NAME_HONORIFICS or key in FUNCTION_WORDS:
                continue
            if title in ("mr", "mister") and key in ADDRESS_ROLES and key not in named:
                continue  # "Mr. Foreman" addressing the grand jury's foreman
            if not role_word_named_here(text, match.start(1), match.start(1) + len(word)):
                continue  # "Mr. Justice Kennedy"
        seen.add(key)
        out.extend(name_part_needles(word, "PERSON", HONORIFIC))
    return out


def line_needles(text: str, address_names: Iterable[str] = ()) -> list[Needle]:
    """Needles for the names of examination and swearing-in lines (``BY MS. SPEAKER:``,
    ``GEORGE FOREMAN, having been first duly sworn``), once per distinct word."""
    words = {w.casefold(): w for _s, _e, w in line_names(text, address_names)}
    return [n for w in words.values() for n in name_part_needles(w, "PERSON", SWORN)]


def beside_name_needles(output: str, replacements: Iterable, source: str) -> list[Needle]:
    """A capitalised word left in clear right after a person's tag whose original is a
    given name (``[PERSON_4] Young`` of "Daniel Young"), or a given name right before a
    person's tag (``Daniel [PERSON_5]``): the other part of that person's name.
    ``replacements``: the pseudonymization's (``label``, ``start``, ``end``, ``out_start``,
    ``out_end``); ``source``: the canonical text they point into."""
    from engine.detectors.names import is_given_name

    out: list[Needle] = []
    seen: set[str] = set()
    for r in replacements:
        if getattr(r, "label", "") != "PERSON":
            continue
        after = _BESIDE_AFTER.match(output, r.out_end)
        original = source[r.start : r.end]
        if after and is_given_name(original) and _beside_word(after.group(1)):
            seen.add(after.group(1))
        line_start = output.rfind("\n", 0, r.out_start) + 1
        before = _BESIDE_BEFORE.search(output, line_start, r.out_start)
        if before and strong_given_name(before.group(1)):
            seen.add(before.group(1))
    for word in seen:
        out.extend(name_part_needles(word, "PERSON", BESIDE_NAME))
    return out


_BESIDE_AFTER = re.compile(r"[ \t]+([A-Z][a-z]+(?:['’-][A-Z][a-z]+)?|[A-Z]{2,})(?![\w'’-])")
_BESIDE_BEFORE = re.compile(r"(?<![\w'’.-])([A-Z][a-z]+|[A-Z]{2,})[ \t]+$")


def _beside_word(word: str) -> bool:
    """A word after a given name that can be its surname: no function word, role,
    month or weekday ("[PERSON_1] Monday", "[PERSON_1] I", "[PERSON_2] The")."""
    key = word.lower()
    return not (
        len(key) < 2
        or key in FUNCTION_WORDS
        or key in _CALENDAR_WORDS
        or key in {"i", "he", "she", "we", "they", "you", "it", "yes", "okay"}
    )


_CALENDAR_WORDS = frozenset(
    m.lower()
    for m in (*MONTHS, "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
)


def name_needles(
    text: str, metadata: dict, speakers: Iterable[str], scan: str | None = None
) -> list[Needle]:
    """The needles of the people a transcript names whether or not anyone annotated them:
    its cover page, speaker tags, examination and swearing-in lines and honorifics (read
    in ``scan``, default ``text``: one part of a long transcript in reading mode)."""
    from engine.detectors.given import cover_names
    from engine.detectors.role_names import role_names

    speakers = set(speakers)
    scan = text if scan is None else scan
    address = role_names(scan, speakers, cover_names(metadata or {}))
    needles = cover_needles(metadata or {})
    for speaker in sorted(speakers):
        needles.extend(speaker_tag_needles(speaker, address))
    needles.extend(honorific_needles(scan, address))
    needles.extend(line_needles(scan, address))
    return needles


def is_possible_miss(provenance) -> bool:
    """Whether a span's provenance names the safety-net detector (dicts or objects with a
    ``detector`` attribute alike)."""
    for item in provenance or ():
        name = item.get("detector") if isinstance(item, dict) else getattr(item, "detector", "")
        if name == SAFETY_NET:
            return True
    return False


def possible_miss_needles(text: str, label: str) -> list[Needle]:
    """Needles for an undecided possible miss: its text blocks in any case."""
    text = text.strip()
    if len(text) < 2:
        return []
    return [Needle(phrase(text), POSSIBLE_MISS, label)]


def source_offset(position: int, replacements: Iterable) -> int:
    """The canonical-text offset of output ``position``, given the replacements
    (``start``, ``end``, ``out_start``, ``out_end``): text between them is copied."""
    items = sorted(replacements, key=lambda r: r.out_start)
    starts = [r.out_start for r in items]
    i = bisect_right(starts, position) - 1
    if i < 0:
        return position
    r = items[i]
    if position < r.out_end:  # inside a replacement: its source start
        return r.start
    return r.end + (position - r.out_end)


def _allowed(output: str, allow: Iterable[str], protect: Iterable[str]):
    """(one-word terms that may hide a found text, ``inside_phrase(start, end)``)."""
    protected = set(protect)
    terms = {" ".join(a.split()) for a in allow if a and a.strip()}
    terms = {t for t in terms if not is_given_name_term(t, protected)}
    words = {t.casefold() for t in terms if " " not in t}
    lowered = output.lower()
    multi = sorted(
        # only the phrases whose every word occurs at all (a cheap test before the scan)
        (t for t in terms if " " in t and all(w.lower() in lowered for w in t.split())),
        key=len,
        reverse=True,
    )
    if not multi:
        return words, lambda s, e: False
    regex = re.compile(rf"(?<!\w)(?:{phrases(multi)})(?!\w)", re.IGNORECASE)
    regions = [m.span() for m in regex.finditer(output)]
    starts = [r[0] for r in regions]

    def inside_phrase(s: int, e: int) -> bool:
        i = bisect_right(starts, s) - 1
        return i >= 0 and e <= regions[i][1]

    return words, inside_phrase


# A match ends at a word's end, and not before a contraction's tail: "don" is no leak in
# "don't", but "Don's" (a possessive) is.
_WORD_END = r"(?![\w])(?!['’](?!s\b)[^\W\d_])"
_PLAIN_WORD = re.compile(r"[A-Za-z0-9]+")
_WORDS = re.compile(rf"(?<!\w)\w+{_WORD_END}")


_SPELLED_SEP = r"[\s.\-]+"
# A run of single letters with separators (``Q-U-I-L-L``, ``D O E``): what a spelled
# needle can match lies inside one of these.
_SPELLED_RUN = re.compile(r"(?<!\w)[^\W\d_](?:[\s.\-]+[^\W\d_](?!\w))+")


def _unescape(piece: str) -> str | None:
    """``piece`` as the literal ``re.escape`` made it from, or ``None`` if it is more."""
    literal = re.sub(r"\\(.)", r"\1", piece, flags=re.DOTALL)
    return literal if re.escape(literal) == piece else None


def _prefilter(pattern: str, lowered: str, spelled: str):
    """Whether ``pattern`` cannot match (a cheap test before a scan of the output): a
    literal pattern (words joined by ``\\s+``) needs its longest word in the lower-cased
    output; a spelled one (letters joined by separators) needs its letters in a run of
    spelled letters. Anything else is scanned."""
    pieces = pattern.split(_SPELLED_SEP)
    if len(pieces) > 1:
        letters = [_unescape(p) for p in pieces]
        if all(x is not None and len(x) == 1 and x.isascii() for x in letters):
            return "".join(letters).lower() not in spelled
        return False
    words = [_unescape(p) for p in pattern.split(r"\s+")]
    if all(w is not None for w in words):
        longest = max(words, key=len).lower()
        return longest.isascii() and longest not in lowered
    return False


def _word_index(output: str) -> dict[str, list[tuple[int, int]]]:
    """Where each whole word of ``output`` is, by lower case (contraction heads left out,
    as :data:`_WORD_END` does)."""
    index: dict[str, list[tuple[int, int]]] = {}
    for m in _WORDS.finditer(output):
        index.setdefault(m.group(0).lower(), []).append(m.span())
    return index


def find_leaks(
    output: str,
    needles: Iterable[Needle],
    *,
    allow: Iterable[str] = (),
    replaced: Iterable[tuple[int, int]] = (),
    protect: Iterable[str] = (),
) -> list[Leak]:
    """Every occurrence of a needle in ``output`` outside our tags, sorted by position.

    ``allow``: allow-list terms. A one-word term hides a found text equal to it; a phrase
    (``Good morning``) hides what lies inside its occurrences, in context. A term that
    holds a name the transcript gives (``protect``: keys of
    :func:`engine.detectors.given.given_names`) hides nothing: the bare name, ``Mr.
    Good``, or a phrase containing it (``Moreno was``).

    ``replaced``: output ranges that are replacements (``Replacement.out_start/out_end``);
    a surrogate that happens to equal another original (a shifted year) is not a leak.
    """
    tag_spans = sorted([(m.start(), m.end()) for m in TAG.finditer(output)])
    tag_spans = sorted([*tag_spans, *((s, e) for s, e in replaced if e > s)])
    tag_starts = [s for s, _e in tag_spans]
    reach, furthest = [], -1  # the furthest end of the tags starting at or before each
    for _s, e in tag_spans:
        furthest = max(furthest, e)
        reach.append(furthest)
    allowed, phrases = _allowed(output, allow, protect)
    line_terms: dict[int, PublicTerms] = {}  # the public terms of each line asked about

    def inside_court(s: int, e: int) -> bool:
        """Inside the name of a court or a title of the Crown ("the Court of Appeal for
        Ontario", "Her Majesty the Queen"): public terms, released as they stand,
        whatever else the transcript calls Ontario. Read on the match's line(s), not the
        whole output (0.3 s on a 15,000-word hearing); a court's name cut by a
        line break is then no court here: the place is reported, never hidden."""
        return public_kind(s, e) == "court"

    def public_kind(s: int, e: int) -> str | None:
        """The kind of public term (``public.PublicTerms``) holding ``[s, e)`` on its line."""
        start = output.rfind("\n", 0, s) + 1
        if start not in line_terms:
            end = output.find("\n", e)
            line_terms[start] = PublicTerms(output[start : len(output) if end < 0 else end])
        return line_terms[start].inside(s - start, e - start)

    def inside_tag(s: int, e: int) -> bool:
        i = bisect_right(tag_starts, s) - 1
        return i >= 0 and reach[i] >= e

    seen: dict[tuple[int, int], Leak] = {}
    patterns: dict[str, Needle] = {}
    for needle in needles:
        patterns.setdefault(needle.pattern, needle)
    words = None  # the output's words by lower case, built on first use
    lowered = spelled = None  # the lower-cased output and its spelled runs, likewise
    for pattern, needle in patterns.items():
        if _PLAIN_WORD.fullmatch(pattern):
            # A plain ASCII word (most name parts): looked up among the output's words
            # instead of a scan of the whole output per needle (speed).
            if words is None:
                words = _word_index(output)
            matches = words.get(pattern.lower(), ())
        else:
            if lowered is None:
                lowered = output.lower()
                spelled = "|".join(
                    "".join(c for c in m.group(0) if c.isalpha()).lower()
                    for m in _SPELLED_RUN.finditer(output)
                )
            if _prefilter(pattern, lowered, spelled):
                continue
            regex = re.compile(rf"(?<![\w])(?:{pattern}){_WORD_END}", re.IGNORECASE)
            matches = [m.span() for m in regex.finditer(output)]
        for s, e in matches:
            found = output[s:e]
            if inside_tag(s, e) or found.casefold() in allowed or phrases(s, e):
                continue
            if inside_court(s, e):
                continue
            if needle.role and not role_word_named_here(output, s, e):
                continue  # "the judge", "Judge Alden", "THE FOREPERSON" where Mr. Judge testified
            # A cover page's person names block in any case, unless the lower
            # case is an everyday word ("a fair trial" where Mr. Fair is counsel); other
            # name-like needles found only in lower case are most likely the common word.
            any_case = (
                needle.kind == "cover"
                and needle.label == "PERSON"
                and not (found.islower() and is_ordinary(found))
            )
            blocking = (
                (needle.kind in ("cover", POSSIBLE_MISS) or needle.label in DIRECT_IDENTIFIERS)
                and not (needle.name_like and found.islower() and not any_case)
                and not needle.coarse
                # a name that is an everyday word, opening a sentence as that word ("May I
                # say", "Long before that" where Ms. May testified), or inside a term of the
                # domain lexicon ("Long-Term Offender Program"): reported, not blocking
                and not (
                    needle.label == "PERSON"
                    and needle.kind != POSSIBLE_MISS
                    and (everyday_word_here(output, s, e) or public_kind(s, e) == "lexicon")
                )
            )
            leak = Leak(
                "suggested" if needle.unreviewed else needle.kind,
                needle.label,
                s,
                e,
                found,
                output[max(0, s - CONTEXT) : e + CONTEXT].replace("\n", " "),
                blocking,
            )
            previous = seen.get((s, e))
            if previous is None or (leak.blocking and not previous.blocking):
                seen[(s, e)] = leak
    # What a partly tagged date, time or age leaves in clear ("14 [MONTH] [YEAR]").
    for s, e, label, kind in partial_tag_leaks(output):
        if not inside_tag(s, e):
            context = output[max(0, s - CONTEXT) : e + CONTEXT].replace("\n", " ")
            blocking = label in DIRECT_IDENTIFIERS
            seen.setdefault((s, e), Leak(kind, label, s, e, output[s:e], context, blocking))
    # Drop a leak inside a longer one (the name part inside the full name).
    leaks = sorted(seen.values(), key=lambda x: (x.start, -(x.end - x.start)))
    out: list[Leak] = []
    for leak in leaks:
        if out and leak.start < out[-1].end and leak.end <= out[-1].end:
            continue
        out.append(leak)
    return out
