"""Named institutions and employers (ORGANIZATION)."""

from __future__ import annotations

import re

from engine.detectors.names import is_given_name
from engine.detectors.recognizers.base import Found, RegexRecognizer, _c
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
    "Associates|Partners|Enterprises|Industries|Police|Constabulary|Police Force|"
    "Marshal's Office|Marshal’s Office|Sheriff's Department|Sheriff’s Office"
)
# A police force named by its place is one body ("Tarrant County Police", like "Tulare
# County Sheriff's Office"); one named only by its kind or jurisdiction is a public term
# ("the State Police", "Campus Police": public.py), and a sentence's first word is no place
# ("Then Police came").
_QA_MARK = re.compile(r"[QA]\.?[ \t]+")
_FORCE_HEADS = frozenset({"Police", "Constabulary", "Police Force"})
_DETERMINERS = frozenset("The A An This That My His Her Our Their Your".split())
_GENERIC_FORCE = frozenset(
    "The A An This That My His Her Our Their Your Then When So And But Call Called City County "
    "State Military Campus Transit Capitol Border Secret Tribal Metro Metropolitan Local "
    "Federal National Park Port Airport School University Railroad Harbor Highway Royal "
    "Mounted Provincial Regional Municipal Village Town Township Reserve Auxiliary".split()
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

# A name the speech makes a business: by an appositive or a copula with a kind of business
# after it ("Tolliver Nash, the law office downtown", "Ardenvale is a trucking outfit"); the
# kind ends its noun phrase ("Fresno is a company town", "Dana Whitcombe, the office
# manager" are not). A sentence's opening word or a pronoun is no name ("This is a business").
_BUSINESS = (
    r"company|firm|outfit|office|agency|store|shop|business|distributor|dealership|"
    r"restaurant|chain|plant|factory|warehouse|bank|brokerage|manufacturer|supplier|"
    r"wholesaler|bakery|garage|salon|cafe|diner|lab|laboratory|studio|corporation|"
    r"franchise|cannery|mill|program|programme|shelter"
)
_NOT_FIRST = (
    r"(?!(?:The|A|An|This|That|These|Those|It|He|She|They|We|I|You|So|Then|And|But|Yes|No|"
    r"Well|Now|Our|My|His|Her|Their|Your|There|Here|What|Which|Who|Where|Why|How)\b)"
)
_BUSINESS_NAMED = _c(
    rf"(?<![\w'’.-]){_NOT_FIRST}(?P<span>{_CAPWORDS})(?:,[ ](?:the|a|an)|[ ](?:is|was)[ ](?:a|an|the))"
    rf"[ ](?:[a-z-]+[ ]){{0,2}}?(?:{_BUSINESS})(?=[ ](?:in|on|at|downtown|that|which|for|with|"
    r"near|out|over|up|down|across|by|where|off)\b|[.,;:!?)]|$)",
    re.M,
)
# A job held at a named place makes it an employer: "I'm a dispatcher at Ardenwood", "she
# was the office manager at Coleman Pryor"; the last word before "at" names a job ("the
# only one at", "a guest at Johnson's house" do not).
_JOB = (
    r"[a-z-]*(?:er|or|ist|ian|man|woman|person)|mechanic|clerk|cook|nurse|guard|chef|aide|"
    r"agent|tech|temp|intern|cashier|secretary|janitor|attendant|analyst|accountant|partner|"
    r"associate|apprentice|waitress|hostess|student|resident"
)
_JOB_AT = _c(
    r"\b(?i:I'm|I’m|I am|I was|I've been|he's|she's|he is|she is|he was|she was|"
    r"worked as|works as|work as|working as|hired as|job as)[ ](?:a|an|the)[ ]"
    rf"(?:[a-z-]+[ ]){{0,2}}?(?:{_JOB})[ ]at[ ](?P<span>{_CAPWORDS})(?![\w'’-])"
)


def _cdcr_institutions() -> re.Pattern:
    """California's state prisons by their full names (``engine.vocab.CALIFORNIA_PRISONS``,
    CDCR's public list), as written in running text or in capitals (a cover page, a stamp
    read out: ``AT IRONWOOD STATE PRISON BLYTHE``); never in lower case, never by an
    acronym (``CAL``, ``CEN`` are words)."""
    from engine.vocab import CALIFORNIA_PRISONS

    names = sorted({p.name for p in CALIFORNIA_PRISONS}, key=len, reverse=True)
    body = "|".join(re.escape(n) for name in names for n in (name, name.upper()))
    return re.compile(rf"(?<![\w'’-])(?:{body})(?![\w-])")


class OrganizationRecognizer(RegexRecognizer):
    """Named institutions: ``San Bernardino High School``, ``Tulare County Jail``; a
    California state prison by its name also in capitals (``IRONWOOD STATE PRISON``)."""

    ENTITY = "ORGANIZATION"
    PATTERNS = (
        ("cdcr-institution", _cdcr_institutions(), 0.95),
        ("institution-head", _ORG, 0.95),
        ("employer", _EMPLOYED_AT, 0.9),
        ("employer-firm", _EMPLOYER_FIRM, 0.9),
        ("business-named", _BUSINESS_NAMED, 0.9),
        ("job-at", _JOB_AT, 0.9),
    )

    def find_all(self, text: str) -> list[Found]:
        # a question or answer mark at a line's start is no part of a name ("Q. The
        # Tarrant County Police?" → "The Tarrant County Police", whose "The" the
        # cleaning drops)
        out = []
        for f in super().find_all(text):
            mark = _QA_MARK.match(text, f.start, f.end)
            if mark and (f.start == 0 or text[f.start - 1] == "\n"):
                f = Found(mark.end(), f.end, f.label, f.score, f.pattern)
            out.append(f)
        return out

    def accept(self, text: str, match: re.Match, name: str = "") -> bool:
        if name == "cdcr-institution":
            return True
        value = match.group(0)
        if name == "institution-head" and re.fullmatch(r"[A-Z][a-z]+ House", value):
            # "accepted to Marks House" is a programme; "my sponsor is Steven House" a person
            before = text[max(0, match.start() - 8) : match.start()].lower()
            return bool(re.search(r"\b(?:at|to|in|into|from)\s$", before)) or not is_given_name(
                value.split(" ")[0]
            )
        if name != "institution-head":
            value = match.group("span").rstrip(".")
            if name == "job-at" and re.search(r"['’]s$", value):
                return False  # "a guest at Johnson's house": a person's
            return value.split(" ", 1)[0] not in _NOT_STREET_START and not (
                " " not in value and is_known_place(value)
            )
        words = match.group(0).split(" ")
        head = next(
            (h for h in ("Police Force", "Police", "Constabulary") if value.endswith(" " + h)), None
        )
        if head in _FORCE_HEADS:
            named = words[: -len(head.split(" "))]
            while named and (named[0].rstrip(".") in _DETERMINERS or len(named[0]) <= 2):
                # "the Tarrant County Police": the cleaning drops "The"; "A. The State
                # Police" opens an answer
                named = named[1:]
            return (
                bool(named)
                and named[0] not in _GENERIC_FORCE - {"City", "County"}
                and any(w not in _GENERIC_FORCE for w in named)
            )
        first = words[0]
        # "The Police Department" alone is generic; the cleaning drops a leading "The"
        return (
            first
            not in {"The", "A", "An", "This", "That", "My", "His", "Her", "Our", "Their", "Your"}
            or match.group(0).count(" ") >= 2
        )
