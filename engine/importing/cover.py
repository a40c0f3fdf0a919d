"""Cover page → metadata (DESIGN.md keys). Django-free.

Keys: incarcerated_person, cdcr_number, institution, location ("City, California"),
hearing_date (ISO), hearing_time (HH:MM, 24 h), participants [{name, role}],
transcriber. A key the cover does not give is None ([] for participants).
"""

import re
from datetime import date

from engine import vocab

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
_CDCR = re.compile(r"\bCDCR\s*(?:Number|No\.?|#)?\s*:?\s*([A-Z]{1,2}[- ]?\d{4,6})\b", re.I)
_DATE_WORDS = re.compile(r"\b(" + "|".join(MONTHS) + r")\s+(\d{1,2}),?\s+(\d{4})\b", re.I)
_DATE_NUM = re.compile(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b")
_TIME = re.compile(r"\b(\d{1,2}):(\d{2})\s*([AP])\.?\s*M\b\.?", re.I)
_CITY = re.compile(r"^([A-Za-z][A-Za-z .'\-]*?),\s*(?:CALIFORNIA|California|CA)\.?$")
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


def nice_case(value: str | None) -> str | None:
    """Covers print names and places in capitals: "MULE CREEK STATE PRISON" →
    "Mule Creek State Prison". Values with lower-case letters are kept as printed."""
    if not value or any(c.islower() for c in value):
        return value
    words = []
    for word in value.split(" "):
        titled = "-".join(part[:1].upper() + part[1:].lower() for part in word.split("-"))
        if "'" in titled and len(titled.split("'", 1)[0]) == 1:  # O'BRIEN → O'Brien
            head, tail = titled.split("'", 1)
            titled = f"{head}'{tail[:1].upper()}{tail[1:]}"
        if word.strip(".,") in {"II", "III", "IV", "VI", "VII", "VIII"}:
            titled = word
        words.append(titled)
    return " ".join(words)


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
    """Metadata from the cover page's lines (already whitespace-collapsed)."""
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
            name, role = (part.strip() for part in line.split(",", 1))
            if name and name.upper() not in _NOT_NAMES:
                meta["participants"].append({"name": nice_case(name), "role": role})

    # The block "Hearing of: / NAME / INSTITUTION / CITY, CALIFORNIA / DATE / TIME".
    block_start = None
    for i, line in enumerate(lines):
        if m := _HEARING_OF.search(line):
            rest = _CDCR.sub("", m.group(1)).strip(" :")
            if rest:
                meta["incarcerated_person"] = nice_case(rest)
                block_start = i + 1
            else:
                for j in range(i + 1, min(i + 3, len(lines))):
                    if not _CDCR.search(lines[j]):
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
            if i - 1 >= search_from and not _CDCR.search(lines[i - 1]):
                meta["institution"] = nice_case(lines[i - 1])
            break
    if meta["institution"] is None:
        for line in lines[search_from:]:
            if _INSTITUTION.search(line) and "," not in line and not _CDCR.search(line):
                meta["institution"] = nice_case(line)
                break
    return meta
