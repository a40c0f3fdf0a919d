"""The cover page as a detector: the names, number and places the import already knows.

Every participant's name part (``participants[].name``, ``incarcerated_person``,
``transcriber``), matched case-insensitively at word boundaries, possessives included
(``Quill's`` → ``Quill``), also inside speaker tags (``PRESIDING COMMISSIONER ALDEN:``);
the CDCR number; the institution and the city. Django-free.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any, ClassVar

from engine.detectors.base import Detection, Detector, Document
from engine.detectors.names import TITLES, person_name_parts

# Name parts that are also everyday words match only when capitalised ("Will", "Rose").
COMMON_WORDS = frozenset(
    """a an and the of in on at to for by with from as is was be are were i me my we us our you
    your he him his she her it its they them their this that these those who whom what which
    will may can bill rose mark hope grace faith joy june april august art guy gay ray
    pat sue don bob rob jack jim frank earl king lane love hill wood stone brown white
    black green gray grey long short rich price bell hall ford field fields little small
    new north south east west day days night law best word words case
    """.split()
)


def name_parts(name: str) -> list[str]:
    """The name parts of a full name (titles dropped), e.g. ``Dr. Ann Lee-Park`` →
    ``["Ann", "Lee-Park"]``."""
    return [name[s:e] for s, e in person_name_parts(name, 0, len(name))]


def find_word(
    text: str, word: str, *, ignore_case: bool = True, capitalised: bool = False
) -> Iterator[tuple[int, int]]:
    """Occurrences of ``word`` as a whole word (a possessive after it is left out).

    Lower-case occurrences of everyday words are skipped (``will`` ≠ ``Will``), and all
    lower-case occurrences when ``capitalised``.
    """
    if not word:
        return
    if _PLAIN_WORD.fullmatch(word):
        # one run of word characters: its places come from the text's word index
        common = word.lower() in COMMON_WORDS
        for s, e in _word_index(text).get(word.lower(), ()):
            value = text[s:e]
            if not ignore_case and value != word:
                continue
            if (common or capitalised) and not value[:1].isupper():
                continue
            yield s, e
        return
    flags = re.IGNORECASE if ignore_case else 0
    # not inside a contraction ("Ma" of "Ma'am"); a possessive is fine ("Bo's")
    pattern = re.compile(rf"(?<![\w-]){re.escape(word)}(?![\w]|-\w|['’](?![sS]\b)\w)", flags)
    common = word.lower() in COMMON_WORDS
    for match in pattern.finditer(text):
        if (common or capitalised) and not match.group(0)[:1].isupper():
            continue
        yield match.span()


_PLAIN_WORD = re.compile(r"\w+")
# a run of word characters that ``find_word``'s pattern would take whole: not after a
# hyphen, not before "-x", and not inside a contraction ("Ma" of "Ma'am"; "Bo's" is fine)
_INDEXED = re.compile(r"(?<![\w-])\w+(?![\w]|-\w|['’](?![sS]\b)\w)")
_INDEX: list = []  # [(text, {lower word: [(start, end)]})], the last text only


def _word_index(text: str) -> dict[str, list[tuple[int, int]]]:
    """Where each word of ``text`` stands, by its lower case (built once per text object:
    propagation and the cover page look up a thousand words in one transcript)."""
    if _INDEX and _INDEX[0][0] is text:
        return _INDEX[0][1]
    index: dict[str, list[tuple[int, int]]] = {}
    for match in _INDEXED.finditer(text):
        index.setdefault(match.group(0).lower(), []).append(match.span())
    _INDEX[:] = [(text, index)]
    return index


def _participant_names(metadata: dict[str, Any]) -> Iterable[tuple[str, str]]:
    for key in ("incarcerated_person", "transcriber"):
        value = metadata.get(key)
        if isinstance(value, str) and value.strip():
            yield value, key
    for item in metadata.get("participants") or []:
        if isinstance(item, dict) and isinstance(item.get("name"), str):
            yield item["name"], f"participant:{item.get('role', '')}"
        elif isinstance(item, str):
            yield item, "participant"


_GENERIC_ORG = re.compile(
    r"\b(?:state prison|prison|correctional (?:facility|institution|training facility|center)|"
    r"institution for (?:men|women)|medical facility|rehabilitation center|conservation center|"
    r"facility|center|california|the)\b",
    re.IGNORECASE,
)


class CoverPageDetector(Detector):
    """Marks what the cover page names. Options: ``min_part_length`` (default 2)."""

    name: ClassVar[str] = "cover"
    labels: ClassVar[frozenset[str]] = frozenset({"PERSON", "CDCR_ID", "ORGANIZATION", "LOCATION"})

    def detect(self, document: Document) -> list[Detection]:
        text, meta = document.text, document.metadata or {}
        min_len = int(self.options.get("min_part_length", 2))
        out: list[Detection] = []
        seen_parts: set[str] = set()
        for full_name, field in _participant_names(meta):
            for part in name_parts(full_name):
                key = part.lower().rstrip(".")
                if len(key) < min_len or key in TITLES or key in seen_parts:
                    continue
                seen_parts.add(key)
                for s, e in find_word(text, part.rstrip("."), capitalised=True):
                    out.append(Detection(s, e, "PERSON", 1.0, self.name, explanation=field))
        number = meta.get("cdcr_number")
        if isinstance(number, str) and len(number.strip()) >= 4:
            for s, e in find_word(text, number.strip()):
                out.append(Detection(s, e, "CDCR_ID", 1.0, self.name, explanation="cdcr_number"))
        institution = meta.get("institution")
        if isinstance(institution, str) and institution.strip():
            inst = institution.strip()
            for s, e in find_word(text, inst):
                out.append(
                    Detection(s, e, "ORGANIZATION", 1.0, self.name, explanation="institution")
                )
            # The distinctive part on its own ("Mule Creek" of "Mule Creek State Prison").
            core = _GENERIC_ORG.sub(" ", inst)
            core = re.sub(r"\s+", " ", core).strip(" ,-")
            if core and core != inst and len(core) >= 4 and core.lower() not in COMMON_WORDS:
                # Any capitalisation: the cover page says "Mule Creek", a header "MULE CREEK".
                for s, e in find_word(text, core, capitalised=True):
                    out.append(
                        Detection(s, e, "ORGANIZATION", 0.8, self.name, explanation="institution")
                    )
        for key in ("location", "city"):
            place = meta.get(key)
            if isinstance(place, str) and place.strip():
                # "Ione, California" → each comma-separated part
                for piece in [p.strip() for p in place.split(",") if p.strip()]:
                    if len(piece) < 3:
                        continue
                    # Capitalised in any case ("Ione" on the cover, "IONE" in a
                    # header), never a lower-case common word.
                    for s, e in find_word(text, piece, capitalised=True):
                        out.append(Detection(s, e, "LOCATION", 1.0, self.name, explanation=key))
        return out
