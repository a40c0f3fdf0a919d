"""Cover page → metadata (DESIGN.md keys). Django-free.

Keys: incarcerated_person, cdcr_number, institution, location ("City, California"),
hearing_date (ISO), hearing_time (HH:MM, 24 h), participants [{name, role}],
transcriber. A key the cover does not give is None ([] for participants).
"""

import re
from datetime import date

from engine import vocab
from engine.importing.capitals import nice_case
from engine.importing.court import parse_court_caption

METADATA_KEYS = (
    "incarcerated_person",
    "cdcr_number",
    "institution",
    "location",
    "hearing_date",
    "hearing_time",
    "participants",
    "transcriber",
)
MONTHS = {m.lower(): i for i, m in enumerate(vocab.MONTHS, start=1)}
_CDCR = re.compile(r"\bCDCR?\s*(?:Number|No\.?|#)?\s*:?\s*([A-Z]{1,2}[- ]?\d{4,6})\b", re.I)
_DATE_WORDS = re.compile(r"\b(" + "|".join(MONTHS) + r")\s+(\d{1,2}),?\s+(\d{4})\b", re.I)
_DATE_NUM = re.compile(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b")
_TIME = re.compile(r"\b(\d{1,2}):(\d{2})\s*([AP])\.?\s*M\b\.?", re.I)
_CITY = re.compile(r"^([A-Za-z][A-Za-z .'\-]*?),\s*(?:CALIFORNIA|California|CA)\.?$")
# Institution and city on one line, maybe with the date after them (older covers).
_INSTITUTION_CITY = re.compile(
    r"^(?P<inst>.*?\b(?:PRISON|FACILITY|INSTITUTION(?: FOR (?:MEN|WOMEN))?|COLONY|CENTER|"
    r"HOSPITAL|CAMP))\s+(?P<city>[A-Z][A-Za-z .'\-]*?),\s*(?:CALIFORNIA|California|CA)\b",
    re.I,
)
_CITY_INSTITUTION = re.compile(
    r"^(?P<city>[A-Z][A-Za-z .'\-]*?),\s*(?:CALIFORNIA|California|CA)\b[.,]?\s+"
    r"(?P<inst>.*?\b(?:PRISON|FACILITY|INSTITUTION(?: FOR (?:MEN|WOMEN))?|COLONY|CENTER|"
    r"HOSPITAL|CAMP))\b",
    re.I,
)
# "NAME, Role" — several on one line when the cover's columns were read across.
_NAME_ROLE = re.compile(
    r"([A-Z][A-Z.'’\-]*(?:\s+[A-Z][A-Z.'’\-]*){0,4}),\s+"
    r"((?:[A-Z][a-z'’]+|for|of|the|to|and|Inc\.?)(?:\s+(?:[A-Z][a-z'’.]+|for|of|the|to|and))*)"
)
# "Name, Company Inc." as the last line of older covers: the transcriber.
_COMPANY_LINE = re.compile(
    r"^([A-Z][A-Za-z.'’\- ]+?),\s+(.*\b(?:Inc\.?|LLC|Transcription|Transcribing|Reporting|"
    r"Reporters|Transcripts?)\b.*)$"
)
# A "NAME, Role" line of the board's lists (not an address, a firm or "NAME, ESQ.").
_PERSON_ROLE = re.compile(
    r"^[A-Z][A-Za-z.'’\- ]+,\s+(?!(?:ESQ|JR|SR|CSR|III|II)\b)[A-Za-z][A-Za-z'’ ]*$"
)
_BRACKETS = re.compile(r"\)\s*\(|(?<!\()\)|_{3,}|\*{3,}|(?:(?<=\s)|^)[*:](?=\s|$)|^-(?: -)+ ?x?$")
_INSTITUTION = re.compile(
    r"PRISON|FACILITY|INSTITUTION|CORRECTIONAL|CONSERVATION CENTER|REHABILITATION CENTER|"
    r"STATE HOSPITAL|MEDICAL CENTER|HEALTH CARE",
    re.I,
)
_SECTION = re.compile(r"^(PANEL PRESENT|OTHERS PRESENT|ALSO PRESENT|APPEARANCES)\s*:?$", re.I)
_TRANSCRIBED = re.compile(r"^Transcribed\s+by\s*:?\s*(.*)$", re.I)
_HEARING_OF = re.compile(r"Hearing\s+of\s*:?\s*(.*)$", re.I)
_NOT_NAMES = {"UNIDENTIFIED", "UNKNOWN", "NONE", "N/A"}
_INCARCERATED_ROLE = re.compile(r"incarcerated|inmate|prisoner", re.I)


def empty_metadata() -> dict:
    return {key: ([] if key == "participants" else None) for key in METADATA_KEYS}


def parse_date(text: str) -> str | None:
    m = _DATE_WORDS.search(text)
    try:
        if m:
            return date(int(m.group(3)), MONTHS[m.group(1).lower()], int(m.group(2))).isoformat()
        m = _DATE_NUM.search(text)
        if m:
            return date(int(m.group(3)), int(m.group(1)), int(m.group(2))).isoformat()
    except ValueError:
        return None
    return None


def parse_time(text: str) -> str | None:
    m = _TIME.search(text)
    if not m:
        return None
    hour, minute = int(m.group(1)) % 12, int(m.group(2))
    if m.group(3).upper() == "P":
        hour += 12
    if minute > 59:
        return None
    return f"{hour:02d}:{minute:02d}"


def parse_cover(lines: list[str]) -> dict:
    """Metadata from the cover page's lines (already whitespace-collapsed).

    Bracketed captions (``)`` / ``)(`` columns, underscores) are read without their
    brackets; the court's name and case number come from ``court.parse_court_caption``.
    """
    lines = [" ".join(_BRACKETS.sub(" ", line).split()) for line in lines]
    lines = [line for line in lines if line]
    meta = _parse_board_cover(lines)
    court = parse_court_caption(lines)
    for key, value in court.items():
        if key == "participants":
            known = {p["name"] for p in meta["participants"]}
            meta["participants"].extend(p for p in value if p["name"] not in known)
        elif meta.get(key) in (None, "", []):
            meta[key] = value
    return meta


def _participants(line: str) -> list[dict]:
    out = []
    for name, role in _NAME_ROLE.findall(line):
        if name.upper() not in _NOT_NAMES and not _COMPANY_LINE.match(f"{name}, {role}"):
            out.append({"name": nice_case(name.strip()), "role": role.strip()})
    return out


def _parse_board_cover(lines: list[str]) -> dict:
    meta = empty_metadata()
    text = "\n".join(lines)
    if m := _CDCR.search(text):
        meta["cdcr_number"] = re.sub(r"[- ]", "", m.group(1)).upper()
    meta["hearing_date"] = parse_date(text)
    meta["hearing_time"] = parse_time(text)

    # Participants: "NAME, Role" lines under PANEL PRESENT / OTHERS PRESENT.
    in_list = False
    for i, line in enumerate(lines):
        if _SECTION.match(line):
            in_list = True
            continue
        if m := _TRANSCRIBED.match(line):
            in_list = False
            name = m.group(1).strip() or (lines[i + 1] if i + 1 < len(lines) else "")
            meta["transcriber"] = nice_case(name.strip()) or None
            continue
        if in_list and "," in line:
            found = _participants(line)
            if len(found) > 1:
                meta["participants"].extend(found)
                continue
            name, role = (part.strip() for part in line.split(",", 1))
            if (
                _PERSON_ROLE.match(line)
                and name.upper() not in _NOT_NAMES
                and not _COMPANY_LINE.match(line)
            ):
                meta["participants"].append({"name": nice_case(name), "role": role})
    if meta["transcriber"] is None:
        for line in reversed(lines):
            if (m := _COMPANY_LINE.match(line)) and not _CITY.match(line):
                meta["transcriber"] = nice_case(m.group(1).strip())
                break

    # The block "Hearing of: / NAME / INSTITUTION / CITY, CALIFORNIA / DATE / TIME".
    block_start = None
    for i, line in enumerate(lines):
        if m := _HEARING_OF.search(line):
            rest = _CDCR.sub("", m.group(1)).strip(" :")
            rest = rest if any(c.isalpha() for c in rest) else ""
            if rest:
                meta["incarcerated_person"] = nice_case(rest)
                block_start = i + 1
            else:
                for j in range(i + 1, min(i + 3, len(lines))):
                    if not _CDCR.search(lines[j]) and any(c.isalpha() for c in lines[j]):
                        meta["incarcerated_person"] = nice_case(lines[j])
                        block_start = j + 1
                        break
            break
    if meta["incarcerated_person"] is None:
        for p in meta["participants"]:
            if _INCARCERATED_ROLE.search(p["role"]):
                meta["incarcerated_person"] = p["name"]
                break

    search_from = block_start or 0
    for i in range(search_from, len(lines)):
        if m := _CITY.match(lines[i]):
            meta["location"] = nice_case(lines[i])
            before = lines[i - 1] if i - 1 >= search_from else ""
            after = lines[i + 1] if i + 1 < len(lines) else ""
            if before and not _CDCR.search(before) and not _INSTITUTION.search(after):
                meta["institution"] = nice_case(before)
            elif _INSTITUTION.search(after) and "," not in after:
                meta["institution"] = nice_case(after)
            break
        if m := (_INSTITUTION_CITY.match(lines[i]) or _CITY_INSTITUTION.match(lines[i])):
            city = m.group("city").strip()
            meta["location"] = nice_case(
                f"{city}, CALIFORNIA" if city.isupper() else f"{city}, California"
            )
            meta["institution"] = nice_case(m.group("inst").strip())
            break
    if meta["institution"] is None:
        for line in lines[search_from:]:
            if _INSTITUTION.search(line) and "," not in line and not _CDCR.search(line):
                meta["institution"] = nice_case(line)
                break
    return meta
