"""Named institutions and employers (ORGANIZATION)."""

from __future__ import annotations

import re

from engine.detectors.names import is_given_name
from engine.detectors.recognizers.base import RegexRecognizer, _c
from engine.detectors.recognizers.locations import _NOT_STREET_START, is_known_place

# --- institutions (ORGANIZATION) ----------------------------------------------------

ORG_HEADS = (
    "High School|Middle School|Junior High(?: School)?|Elementary School|Elementary|Academy|"
    "State Prison|Prison|Police Department|Sheriff's Department|Sheriff’s Department|"
    "Sheriff's Office|County Jail|Jail|Juvenile Hall|Hospital|Medical Center|Clinic|College|"
    "University|Correctional Facility|Correctional Institution|Correctional Center|"
    "Rehabilitation Center|Conservation Camp|Youth Authority|Highway Patrol|Fire Department|"
    "Church|Bank|Probation Department|Recovery Center|Treatment Center|Community Center|"
    "Boys and Girls Club|Foundation|Ministries|Mission|Corporation|Company|Inc\\.?|LLC|"
    "Medical Facility|Health Care Facility|Training Facility|Treatment Facility|Facility|"
    "House|Group Home|Sober Living|Outreach|Mentoring|Ltd\\.?|LLP|and Sons|& Sons|"
    "Associates|Partners|Enterprises|Industries"
)
# a capitalised word; a period only in an abbreviation ("St.", "U.S."), not at a
# sentence end ("... and Caldwell. Keller Ltd" is two names)
_CAPWORD = r"(?:(?:[A-Z]\.){2,}|[A-Z][a-z]?\.|[A-Z][\w'’&-]*)"
_ORG = _c(rf"(?<![\w'’-])(?:{_CAPWORD}[ ]){{1,4}}(?:{ORG_HEADS})(?![\w-])")
# An employer: "he works at Kaiser Permanente", "a job at Kennedy-Martin"; after "from" or
# "with" only a firm's shape ("a job offer from Ross, Quinn and Hicks"), since "a job
# offer from Alicia Rich" names a person.
_CAPWORDS = _CAPWORD + r"(?:(?: (?:of|and|&|de|la|del|the))? " + _CAPWORD + r"){0,4}"
# a firm's legal form after its name is part of it: "Powell Logistics, Inc."
_LEGAL_FORM = r"(?:,? (?:Inc\.|Inc|LLC|L\.L\.C\.|Ltd\.|Ltd|LLP|Corp\.|Co\.|P\.C\.|N\.A\.))?"
_EMPLOYED_AT = _c(
    r"\b(?:(?:job|jobs|work|works|worked|working|employment|position|internship)(?: offer)? at"
    r"|employed (?:at|by)) (?P<span>" + _CAPWORDS + _LEGAL_FORM + r")"
)
_FIRM = (
    r"[A-Z][a-z]+(?:, [A-Z][a-z]+)*,? (?:and|&) [A-Z][a-z]+(?! [A-Z])"
    r"|[A-Z][a-z]+-[A-Z][a-z]+(?! [A-Z])"
)
_EMPLOYER_FIRM = _c(
    r"\b(?:job|jobs|work|works|worked|working|employed|employment|hired|position|internship)"
    r"(?: offer)? (?:at|by|from|with|for) (?P<span>" + _FIRM + r")"
)


class OrganizationRecognizer(RegexRecognizer):
    """Named institutions: ``San Bernardino High School``, ``Tulare County Jail``."""

    ENTITY = "ORGANIZATION"
    PATTERNS = (
        ("institution-head", _ORG, 0.95),
        ("employer", _EMPLOYED_AT, 0.9),
        ("employer-firm", _EMPLOYER_FIRM, 0.9),
    )

    def accept(self, text: str, match: re.Match, name: str = "") -> bool:
        value = match.group(0)
        if name == "institution-head" and re.fullmatch(r"[A-Z][a-z]+ House", value):
            # "accepted to Marks House" is a programme; "my sponsor is Steven House" a person
            before = text[max(0, match.start() - 8) : match.start()].lower()
            return bool(re.search(r"\b(?:at|to|in|into|from)\s$", before)) or not is_given_name(
                value.split(" ")[0]
            )
        if name != "institution-head":
            value = match.group("span").rstrip(".")
            return value.split(" ", 1)[0] not in _NOT_STREET_START and not (
                " " not in value and is_known_place(value)
            )
        first = match.group(0).split(" ", 1)[0]
        # "The Police Department" alone is generic; the cleaning drops a leading "The"
        return (
            first
            not in {"The", "A", "An", "This", "That", "My", "His", "Her", "Our", "Their", "Your"}
            or match.group(0).count(" ") >= 2
        )
