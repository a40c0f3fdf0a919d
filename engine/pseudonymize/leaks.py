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
most likely the common word, but a lead sees it. So are the texts of spans still only
suggested (``Needle.unreviewed``): a release replaces reviewed spans only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from engine.detectors.names import TITLES, person_name_parts
from engine.labels import DIRECT_IDENTIFIERS
from engine.pseudonymize.dates import MONTHS
from engine.pseudonymize.keys import cdcr_key, spelled_letters
from engine.pseudonymize.subtypes import rule_subtype

TAG = re.compile(r"\[[A-Z][A-Z_]*(?:_\d+)?\]")
CONTEXT = 30
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
    unreviewed: bool = False  # from a still-suggested span: reported, never blocking
    coarse: bool = False  # a state or country: identifies no one; reported, never blocking


@dataclass(frozen=True, slots=True)
class Leak:
    kind: str
    label: str
    start: int  # position in the output text
    end: int
    text: str  # what was found (sensitive: show to leads only)
    context: str
    blocking: bool = True

    def to_json(self) -> dict:
        return {
            "kind": self.kind,
            "label": self.label,
            "start": self.start,
            "end": self.end,
            "text": self.text,
            "context": self.context,
            "blocking": self.blocking,
        }


def _literal(text: str) -> str:
    words = text.split()
    return r"\s+".join(re.escape(w) for w in words)


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
            out.append(Needle(_literal(text), "span", label))
        return out
    if label == "PERSON":
        parts = [text[s:e] for s, e in person_name_parts(text, 0, len(text))]
        if len(parts) > 1:
            out.append(Needle(_literal(text), "span", label, name_like=True))
        for part in parts or [text]:
            out.extend(name_part_needles(part, label))
        return out
    if label == "SPELLED_NAME":
        letters = spelled_letters(text)
        out.append(Needle(_literal(text), "span", label))
        if len(letters) >= 2:
            out.append(Needle(re.escape(letters), "spelled", label, name_like=True))
            out.append(Needle(_spelled_pattern(letters), "spelled", label))
        return out
    if label == "CDCR_ID":
        key = cdcr_key(text)
        out.append(Needle(_literal(text), "span", label))
        if len(key) >= 3:
            out.append(Needle(_id_pattern(key), "id", label))
        digits = re.sub(r"\D", "", key)
        if len(digits) >= 4:
            out.append(Needle(_id_pattern(digits), "id", label))
        return out
    # "California" marked in "Madera, California" is still named elsewhere ("parole to
    # California"): a state or country narrows nothing down in a corpus of California
    # hearings, so such a repeat is reported, not blocking.
    coarse = label == "LOCATION" and rule_subtype(label, text) in ("STATE", "COUNTRY")
    out.append(Needle(_literal(text), "span", label, coarse=coarse))
    return out


def name_part_needles(part: str, label: str = "PERSON", kind: str = "name_part") -> list[Needle]:
    part = part.strip().rstrip(".")
    if len(part) < 2 or part.lower() in TITLES:
        return []
    needles = [Needle(re.escape(part), kind, label, name_like=True)]
    letters = spelled_letters(part)
    if len(letters) >= 2:
        needles.append(Needle(r"[\s.\-]+".join(re.escape(c) for c in letters), "spelled", label))
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
        out.append(Needle(_literal(str(metadata["institution"])), "cover", "ORGANIZATION"))
    location = str(metadata.get("location") or metadata.get("city") or "")
    city = location.split(",")[0].strip()
    if len(city) >= 3 and rule_subtype("LOCATION", city) not in ("STATE", "COUNTRY"):
        # The hearing's city ("Ione" of "Ione, California"), capitalised: where the
        # institution is, which with the date narrows the hearing down to one person.
        out.append(Needle(_literal(city), "cover", "LOCATION", name_like=True))
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


def find_leaks(
    output: str,
    needles: Iterable[Needle],
    *,
    allow: Iterable[str] = (),
    replaced: Iterable[tuple[int, int]] = (),
) -> list[Leak]:
    """Every occurrence of a needle in ``output`` outside our tags, sorted by position.

    ``replaced``: output ranges that are replacements (``Replacement.out_start/out_end``);
    a surrogate that happens to equal another original (a shifted year) is not a leak.
    """
    tag_spans = [(m.start(), m.end()) for m in TAG.finditer(output)]
    tag_spans += [(s, e) for s, e in replaced if e > s]
    allowed = {a.casefold() for a in allow}

    def inside_tag(s: int, e: int) -> bool:
        return any(ts <= s and e <= te for ts, te in tag_spans)

    seen: dict[tuple[int, int], Leak] = {}
    patterns: dict[str, Needle] = {}
    for needle in needles:
        patterns.setdefault(needle.pattern, needle)
    for pattern, needle in patterns.items():
        regex = re.compile(rf"(?<![\w])(?:{pattern})(?![\w])", re.IGNORECASE)
        for m in regex.finditer(output):
            s, e = m.start(), m.end()
            found = m.group(0)
            if inside_tag(s, e) or found.casefold() in allowed:
                continue
            blocking = (
                (needle.kind == "cover" or needle.label in DIRECT_IDENTIFIERS)
                and not (needle.name_like and found.islower())
                and not needle.unreviewed
                and not needle.coarse
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
    # Drop a leak inside a longer one (the name part inside the full name).
    leaks = sorted(seen.values(), key=lambda x: (x.start, -(x.end - x.start)))
    out: list[Leak] = []
    for leak in leaks:
        if out and leak.start < out[-1].end and leak.end <= out[-1].end:
            continue
        out.append(leak)
    return out
