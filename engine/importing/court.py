"""Court captions → metadata: the court, the case number, the judge, counsel and the
court reporter. Django-free.

Works on cover lines whose caption brackets were already removed (``cover.parse_cover``).
Counsel are read from the appearances: lines naming a person (``MR.``/``MS.`` ..., or a
name in capitals, or ``NAME, ESQ.``) under a ``FOR THE <PARTY>:`` heading; firms,
addresses and cities (digits, ``LLP``, ``&`` ...) are not people.
"""

from __future__ import annotations

import re

from engine.importing.capitals import nice_case

_COURT = re.compile(r"^IN THE ((?:[A-Z][A-Za-z.]* )*COURT\b.*)$", re.I)
_COURT_MORE = re.compile(
    r"^(?:FOR THE|OF THE)\b.*(?:DISTRICT|CIRCUIT|STATE|COUNTY|UNITED STATES)", re.I
)
_CASE_NO = re.compile(
    r"\b(?:(?:CIVIL|CRIMINAL)\s+(?:ACTION|DOCKET|CASE)|CASE|DOCKET|CAUSE)\s*(?:NO\.?|NUMBER|#)\s*:?"
    r"\s*(\d[\w:.\-]*\w|\d)|\bNo\.\s*(\d[\w:.\-]*\w)",
    re.I,
)
_JUDGE = re.compile(
    r"^BEFORE THE HONORABLE\s+(?:(?:CHIEF |DISTRICT |MAGISTRATE )*JUDGE\s+)?(.+)$", re.I
)
_FOR_PARTY = re.compile(r"^(?:APPEARANCES:?\s*)?FOR (?:THE )?([A-Z][A-Za-z' ]+?)\s*:\s*(.*)$", re.I)
_TITLED = re.compile(
    r"^(?:MR|MS|MRS|MISS|DR)\.?\s+[A-Z][A-Za-z.'’\-]*(?:\s+[A-Z][A-Za-z.'’\-]*){0,4}"
)
_CAPS_NAME = re.compile(r"^[A-Z][A-Z.'’\-]*(?:\s+[A-Z][A-Z.'’\-]*){1,4}$")
_ESQ = re.compile(r"^([A-Z][A-Z.'’\-]*(?:\s+[A-Z][A-Z.'’\-]*){1,4}),\s*(?:JR\.,\s*)?ESQ\.?")
_BEHALF = re.compile(r"(?:on behalf of|for)\s+(?:the\s+)?([A-Za-z\- ]+?)\.?$", re.I)
_NOT_PERSON = re.compile(
    r"\d|\b(?:LLP|LLC|L\.L\.P\.|P\.C\.|INC|CORP|CORPORATION|COMPANY|LAW|OFFICES?|FIRM|GROUP|"
    r"DEPARTMENT|STATES|DISTRICT|COURT|DIVISION|JUDGE|CONTINUED|PAGE|TRANSCRIPT|PROCEEDINGS|"
    r"SESSION|TEXAS|CALIFORNIA)\b|&",
    re.I,
)
_REPORTER = re.compile(
    r"^(?:OFFICIAL )?COURT REPORTERS?\s*:\s*(.*)$|^REPORTED BY\s*:\s*(.*)$", re.I
)
_SUFFIX = re.compile(r",?\s*(?:CSR|RPR|CRR|RMR|ESQ\.?)\b.*$")


_SMALL = {"For", "The", "Of", "And", "In"}


def _nice(value: str) -> str:
    words = (nice_case(value) or value).split(" ")
    return " ".join(w.lower() if i and w in _SMALL else w for i, w in enumerate(words))


_MIXED_NAME = re.compile(r"^[A-Z][a-z'’\-]+(?:\s+[A-Z]\.)?(?:\s+[A-Z][a-z'’\-]+){1,3}$")


def _person(text: str, *, mixed_case: bool = False) -> str | None:
    """A person's name, or None. ``mixed_case``: also "Ida Pell" (the reporter's line;
    in counsel lists a mixed-case line is a firm)."""
    text = _SUFFIX.sub("", text.strip().rstrip(",;")).strip()
    if not text or _NOT_PERSON.search(text):
        return None
    if m := _TITLED.match(text):
        return m.group(0).strip()
    if _CAPS_NAME.match(text) or (mixed_case and _MIXED_NAME.match(text)):
        return text
    return None


def parse_court_caption(lines: list[str]) -> dict:
    """``court``, ``case_number``, ``participants`` (judge, counsel), ``transcriber``."""
    out: dict = {}
    for i, line in enumerate(lines):
        if m := _COURT.match(line):
            court = m.group(1)
            if i + 1 < len(lines) and _COURT_MORE.match(lines[i + 1]):
                court = f"{court} {lines[i + 1]}"
            out["court"] = _nice(court.strip())
            break
    text = "\n".join(lines)
    if m := _CASE_NO.search(text):
        out["case_number"] = m.group(1) or m.group(2)
    participants: list[dict] = []
    seen: set[str] = set()

    def add(name: str | None, role: str) -> None:
        if name and name.upper() not in seen:
            seen.add(name.upper())
            participants.append({"name": _nice(name), "role": role})

    party = ""
    reporter = None
    for line in lines:
        if m := _JUDGE.match(line):
            add(_person(m.group(1)), "Judge")
            continue
        if m := _REPORTER.match(line):
            reporter = reporter or _person(m.group(1) or m.group(2) or "", mixed_case=True)
            party = "reporter"
            continue
        if m := _FOR_PARTY.match(line):
            party = " ".join(m.group(1).split()).title()
            line = m.group(2)
        if m := _ESQ.match(line):
            behalf = _BEHALF.search(line)
            role = f"Counsel for {behalf.group(1).strip()}" if behalf else "Counsel"
            add(m.group(1), role)
            continue
        if not party or not line:
            continue
        name = _person(line)
        if party == "reporter":
            reporter = reporter or name
        else:
            add(name, f"Counsel for the {party}")
    if participants:
        out["participants"] = participants
    if reporter:
        out["transcriber"] = _nice(reporter)
    return out
