"""A candidate's extent: a member's find without what surrounds a name. Django-free.

``trim`` takes off the spaces and punctuation around a find, a determiner or preposition
before a place, body, group, date or time (``the Folsom``, ``about 3 p.m.``), the next
sentence's ``I`` after a full stop, and a closing full stop that ends no abbreviation. The
decision table (``engine.detectors.rules``) decides the trimmed candidate; None when
nothing but punctuation is left.
"""

from __future__ import annotations

import re

from engine.detectors.base import Detection

_TRAIL = re.compile(r"[\s,;:!?\"'“”‘’()\[\]{}…—–-]+$")
_LEAD = re.compile(r"^[\s,;:!?\"'“”‘’()\[\]{}…—–-]+")
_NEXT_SENTENCE_I = re.compile(r"\.[ \t]+I$")
_PRONOUN_GOES_ON = re.compile(r"(?:['’](?:m|ve|d|ll))?[ \t]+[a-z]")
_DOTTED_ABBR = re.compile(r"(?:\b[a-zA-Z]\.){2,}$|\b(?:Jr|Sr|St|Mt|Ft|Dr|Inc|Co|Corp|Ltd)\.$")

_ALNUM = re.compile(r"\w")
# what opens a line of testimony, never a body's, place's or date's first words: a
# speaker label in capitals ("BRIANNA BARNES: ", "THE COURT: ") or a question or answer
# mark ("A. ", "Q "). spaCy read "BRIANNA BARNES: Water" as one organisation, and once the
# label's words became name parts the answer's first word was left an ORGANIZATION: cut
# here, a generated deposition's false proposals fell from 68 to 18. The name-shape rule
# reads a line without it too (``recognizers.name_shapes``).
LINE_OPENING = re.compile(r"^(?:[QA]\.?[ \t]+|[A-Z][A-Z.'’ -]{0,40}:[ \t]+)", re.MULTILINE)


def trim(text: str, d: Detection) -> Detection | None:
    start, end = d.start, d.end
    segment = text[start:end]
    lead = _LEAD.match(segment)
    if (
        lead
        and not re.match(r"['’]\d", segment[lead.end() - 1 : lead.end() + 1])
        and not (d.label == "PHONE_NUMBER" and segment[lead.end() - 1 : lead.end()] == "(")
    ):
        start += lead.end()
    if d.label != "PERSON":  # a PERSON find is cut into name parts, each decided alone
        opening = LINE_OPENING.match(text, start, end)
        if opening and opening.end() < end:
            start = opening.end()
    if d.label in _DETERMINED:
        det = _DETERMINER.match(text, start, end)
        if det and det.end() < end:
            start = det.end()
    segment = text[start:end]
    pronoun = _NEXT_SENTENCE_I.search(segment)
    if pronoun and _PRONOUN_GOES_ON.match(text, end):
        # "on Facility D. I work nights": the next sentence's "I", not an initial
        end = start + pronoun.start()
        segment = text[start:end]
    if segment.endswith(".") and not _DOTTED_ABBR.search(segment):
        segment = segment.rstrip(".")
        end = start + len(segment)
    trail = _TRAIL.search(segment)
    if trail and d.label not in {"HEIGHT"}:  # 6'2" keeps its marks
        end = start + trail.start()
    if d.label == "HEIGHT":
        end = start + len(text[start:end].rstrip(" ,;:!?."))
    if end <= start or not _ALNUM.search(text[start:end]):
        return None
    if (start, end) == (d.start, d.end):
        return d
    return d.moved(start, end)


_DETERMINED = frozenset({"ORGANIZATION", "LOCATION", "NRP", "DATE", "TIME"})
_DETERMINER = re.compile(
    r"(?:the|a|an|about|around|approximately|roughly|nearly|almost|at|on|in|by|since|until|till|"
    r"from|to|of|this|that|last|next|early|late|sometime|some time in)\s+",
    re.IGNORECASE,
)
