"""Public terms: what a transcript names that is no personal data. Django-free.

Public institutions, laws, programmes, assessment instruments, titles and all-capitals
legal boilerplate are kept readable. General shapes, not lists of examples:

* **courts**: ``Supreme Court``, ``United States District Court``, ``Court of Appeal``
  (a court word before ``Court``, or ``Court of Appeal(s)``, also ``... for Ontario``);
  Commonwealth courts and the Crown as a party (``Her Majesty the Queen``, ``the Crown``,
  ``Crown Court``, ``High Court of Justice``, ``King's Bench``, ``Privy Council``);
* **government bodies**: ``Department of Justice``, ``Bureau of Prisons``, ``Office of
  the Inspector General``, ``Division of ...``, ``Congress``, ``the Senate``, and names
  led by ``United States`` / ``U.S.`` / ``Federal`` / ``National`` (``Federal Judicial
  Center``), never a prison, jail, school or police department (those locate a person);
* **legal instruments**: capitalised words ending in ``Act``, ``Code``, ``Amendment``,
  ``Clause``, ``Constitution``, ``Regulations``, ``Rules`` or ``Law`` (``Internal Revenue
  Code``, ``Americans with Disabilities Act``), ``Penal Code section 3041``, ``section
  3041.5``, ``Title 15``, ``Proposition 57``, ``SB 260``, ``42 U.S.C. § 1983``;
* **a prison's yards** by their letter: ``Facility D``, ``B Yard``;
* **case and docket numbers**: ``No. 11-393``, ``Case No. 2:14-cv-00123`` (never a time);
* the **domain lexicon** (``lexicon.py``: CDCR/BPH programmes, forms, instruments);
* **titles and roles** (``Chief Justice``, ``ESQ.``, ``MR.``, ``Deputy Commissioner``);
* **all-capitals boilerplate**: a line of eight or more words in capitals (decision and
  certification paragraphs). Inside it, only words that are not ordinary English are
  candidates for names.
"""

from __future__ import annotations

import bisect
import re

from engine import vocab
from engine.alternation import phrases
from engine.detectors.lexicon import DOMAIN_TERMS
from engine.detectors.name_words import TITLES

# Roles and forms of address of court and hearing transcripts (not names).
ROLE_WORDS = frozenset(
    """
    the a an of and for to by court clerk witness bailiff reporter juror jurors prospective
    venireperson panel panelist member members presiding deputy associate chief justice justices
    judge judges magistrate commissioner commissioners district attorney attorneys general
    solicitor public defender defense counsel incarcerated person inmate prisoner petitioner
    petitioners respondent respondents plaintiff plaintiffs defendant defendants appellant
    appellants appellee appellees victim victim's victims next kin family representative
    support interpreter translator unidentified speaker speakers multiple voice voices male
    female unknown officer officers correctional staff mr mrs ms dr miss mx esq esquire sir madam
    mister ma'am no number audio recording video operator moderator chair chairman chairwoman
    chairperson senator secretary special agent detective sergeant lieutenant captain parole
    agent psychologist doctor nurse warden chaplain counselor q a honor honour your his her my
    lord lords lady ladies gentlemen gentleman president vice governor mayor sheriff marshal
    foreperson foreman forewoman courtroom transcriber stenographer cross direct redirect recross examination continued resumed
    people state government united states narrator host interviewer interviewee all both
    """.split()
)

_CAP = r"[A-Z][\w'’]*(?:-[A-Z][\w'’]*)?"
_CONNECT = r"(?:of|and|for|with|on|the|to|in|&)"
_CONNECT_INNER = r"(?:of|and|for|the|&)"
_COURT_WORD = (
    r"(?:Supreme|Superior|District|Circuit|Appellate|Bankruptcy|Tax|Municipal|Juvenile|Family|"
    r"Probate|Claims|Federal|Trial|Criminal|Civil|Drug|Traffic|Military|Immigration|Appeals)"
)
_NATIONAL = r"(?:United States|U\.\s?S\.|Federal|National|State of California)"
_LOCAL_HEAD = re.compile(
    r"\b(?:Prison|Jail|School|Academy|College|Police|Sheriff's|Sheriff’s|Hospital|Facility|"
    r"Institution|Camp|Hall|House|Church)\b"
)
_INSTRUMENT_HEAD = r"(?:Act|Code|Amendment|Clause|Constitution|Regulations|Statute|Treaty)"
# the last word of a national body's name ("Federal Judicial Center"; not "National City")
_NATIONAL_HEAD = (
    r"(?:Court|Courts|Center|Institute|Institutes|Service|Services|Agency|Administration|Bureau|"
    r"Department|Office|Commission|Council|Board|Guard|Army|Navy|Air Force|Marine Corps|"
    r"Government|Congress|Senate|Attorney|Attorneys|Marshal|Marshals|Constitution|Code|Reports|"
    r"Conference|Archives|Reserve|Academy of Sciences)"
)
_OFFICER = (
    r"(?:Attorney General|Attorney|District Attorney|State(?:['’]s)? Attorney|U\.\s?S\. Attorney|"
    r"United States Attorney|Public Defender|Medical Examiner|Coroner|Sheriff|Solicitor General|"
    r"Inspector General|Marshal|Clerk|Probation|Parole|Police|Fire|Sheriff-Coroner)"
)
_OFFICE = re.compile(
    rf"(?<![\w-])(?:{_OFFICER}['’]s? (?:Office|Department|Dept\.)"
    r"|(?:Justice|State|Defense|Treasury|Labor|Commerce|Interior|Energy|Education|Agriculture|"
    r"Transportation|Health|Police|Fire|Sheriff['’]s|Probation|Parole|Corrections) Department"
    r"|Police|Sheriff['’]s Office|Highway Patrol|Border Patrol|Secret Service|Coast Guard|"
    r"National Guard|Homeland Security|Pentagon|Air Force|Marine Corps|Marines|Army|Navy|"
    r"(?:Congress|Senate|House of Representatives)(?: of the United States)?|"
    r"FBI|CIA|DEA|ATF|IRS|NSA|DHS|FEMA|TSA|USPS|INS|CBP|ICE|DOJ|DOD|NTSB|FDA|FTC|FCC|"
    r"EPA|OSHA)(?![\w-])"
    # in lower case too ("the medical examiner's office"), for the offices only
    rf"|(?<![\w-])(?i:{_OFFICER}['’]s? office)(?![\w-])"
)
_ORDINAL_WORD = (
    r"(?:First|Second|Third|Fourth|Fifth|Sixth|Seventh|Eighth|Ninth|Tenth|Eleventh|Twelfth|"
    r"Thirteenth|Fourteenth|Fifteenth|Sixteenth|Seventeenth|Eighteenth|Nineteenth|Twentieth)"
)

_SHAPES: tuple[tuple[str, re.Pattern], ...] = (
    (
        "court",
        re.compile(
            rf"(?<![\w-])(?:{_NATIONAL} |(?:California|State) )?(?:(?:{_COURT_WORD}) )+Court"
            rf"(?: of (?:Appeals?|Claims|Justice))?(?![\w-])"
            r"|(?<![\w-])Court of (?:Appeals?|Claims|Criminal Appeals)"
            r"(?: (?:for|of) (?:the )?(?:England and Wales|(?!Her |His )[A-Z][a-z]+(?: [A-Z][a-z]+){0,2})"
            r"| \((?:Criminal|Civil) Division\))?(?![\w-])"
            # Commonwealth courts and the Crown (titles of the Crown and courts are public)
            r"|(?<![\w-])(?:(?:Her|His) Majesty(?:['’]s)?(?: the (?:Queen|King))?|Crown Court|"
            r"Crown Prosecution Service|Crown Counsel|Crown Attorney|the Crown(?: (?:Court|Prosecution Service|Counsel|Attorney))?|High Court(?: of Justice)?|"
            r"(?:Court of )?(?:King|Queen)['’]s Bench(?: Division)?|Privy Council|Court of Session|"
            r"Director of Public Prosecutions|Procurator Fiscal|Attorney-General)(?![\w-])"
        ),
    ),
    (
        "body",
        re.compile(
            rf"(?<![\w-])(?:(?:U\.\s?S\.|United States|California|Federal|State) )?"
            rf"(?:Department|Dept\.|Bureau|Office|Division|Board|Commission|Agency|Administration|"
            rf"Ministry|Committee) (?:of|for|on) (?:the )?{_CAP}(?: (?:{_CONNECT_INNER} )?{_CAP}){{0,5}}"
            r"|(?<![\w-])(?:Congress|Senate|House of Representatives|Legislature|Judiciary|"
            r"Attorney General|Solicitor General|Internal Revenue Service|White House)(?![\w-])"
        ),
    ),
    (
        "national",
        re.compile(rf"(?<![\w-]){_NATIONAL}(?: {_CAP}){{0,3}} {_NATIONAL_HEAD}(?![\w-])"),
    ),
    # Public bodies and offices named by their function, not by a place or a person (issue
    # 29): the federal agencies and armed forces, "the Justice Department", an office
    # named by its officer ("the Attorney General's Office", "the medical examiner's
    # office", "the Coroner's Office"), a force named only by its kind ("the Police", "the
    # Sheriff's Department"). A place before them stays apart ("Tulare County" +
    # "Sheriff's Office"): the place is the quasi-identifier, the office is not.
    ("office", _OFFICE),
    (
        "instrument",
        re.compile(
            rf"(?<![\w-])(?:{_CAP} (?:{_CONNECT} )*){{0,6}}{_CAP} {_INSTRUMENT_HEAD}(?![\w-])"
            rf"|(?<![\w-])(?:{_ORDINAL_WORD}) Amendment(?![\w-])"
            rf"|(?<![\w-]){_CAP}['’]s Law(?![\w-])"
        ),
    ),
    (
        "citation",
        re.compile(
            r"(?<![\w-])(?:(?:Penal|Evidence|Government|Civil|Vehicle|Health and Safety|Welfare and "
            r"Institutions) Code,? )?(?:[Ss]ection|[Ss]ec\.|§§?) ?\d+(?:\.\d+)*(?:\([a-z0-9]+\))*"
            r"|(?<![\w-])Title \d+(?![\w-])"
            r"|(?<![\w-])(?:Proposition|Prop\.?) \d+(?![\w-])"
            r"|(?<![\w-])(?:Senate|Assembly) Bill (?:No\. )?\d+(?![\w-])"
            r"|(?<![\w-])(?:SB|AB|HB|HR|H\.R\.|S\.) ?\d{1,5}(?![\w-])"
            r"|(?<![\w-])\d+ (?:U\.\s?S\.\s?C\.?|C\.F\.R\.|U\.S\.|S\.\s?Ct\.|F\.\s?(?:2d|3d|4th|Supp\.)|"
            r"Cal\.\s?(?:App\.\s?)?(?:2d|3d|4th|5th)?) ?(?:§ ?)?\d+"
        ),
    ),
    # A prison's yard or facility named by its letter ("I work on Facility D", "B Yard",
    # "FACILITY C"): every CDCR prison has them, so the letter locates no one. A prison's
    # own name stays apart ("Correctional Training Facility" is an organisation).
    (
        "yard",
        re.compile(
            r"(?<![\w-])(?:Facility|FACILITY|Yard|YARD) [A-H](?:-?\d)?(?![\w'’-])"
            r"|(?<![\w-])[A-H][ -](?:Yard|YARD)(?![\w-])"
        ),
    ),
    (
        "case-number",
        re.compile(
            r"(?<![\w-])(?:No|Nos|Case No|Case Number|Docket No|Number)\.? ?:? ?"
            r"\d[\d:]*(?:-[A-Za-z]{1,4})?(?:-\d+)+(?![\w-])"
            r"|(?<![\w-])\d{1,2}:\d{2}-[a-z]{2}-\d{3,6}(?:-[A-Z]{2,4})*(?![\w-])"
        ),
    ),
)


def _lexicon_pattern() -> re.Pattern:
    body = phrases(sorted(set(DOMAIN_TERMS), key=len, reverse=True))
    # never inside a web or e-mail address (www.facebook.com/…, cdcr.ca.gov): a link stays
    # one identifier
    return re.compile(rf"(?<![\w./@-])(?:{body})(?![\w]|-\w|\.\w)", re.IGNORECASE)


_LEXICON = _lexicon_pattern()
_ACRONYM = re.compile(r"^[A-Z0-9/&-]+$")
_CAPS_LINE = re.compile(r"^[^a-z\n]*$", re.MULTILINE)
_WORD = re.compile(r"[A-Za-z][\w'’-]*")


def is_title_or_role(value: str) -> bool:
    """Whether ``value`` is made only of titles, roles and forms of address
    (``Chief Justice``, ``ESQ.``, ``MR.``, ``THE COURT``, ``Deputy Commissioner``)."""
    words = [w.lower().rstrip(".").replace("’", "'") for w in _WORD.findall(value)]
    return bool(words) and all(w in TITLES or w in ROLE_WORDS for w in words)


class PublicTerms:
    """The public-term regions of one text (computed once per text object)."""

    def __init__(self, text: str) -> None:
        self.text = text
        regions: list[tuple[int, int, str]] = []
        for match in _LEXICON.finditer(text):
            value = match.group(0)
            # An acronym of the lexicon counts only in capitals ("PIA", not "pia")
            if " " not in value and _ACRONYM.match(_canonical(value)) and not value.isupper():
                continue
            regions.append((match.start(), _possessive_end(text, match.end()), "lexicon"))
        for kind, pattern in _SHAPES:
            for match in pattern.finditer(text):
                value = match.group(0)
                if kind in {"national", "body"} and _LOCAL_HEAD.search(value):
                    continue  # a prison, a school, a police department: they locate a person
                if kind == "body" and re.search(r"\b(?:County|City|Town)\b", value):
                    continue  # "Office of the District Attorney of Tulare County": a place
                if kind == "office" and _inside_a_name(text, match.start(), match.end()):
                    continue  # "Red River Army Depot", "Tulare County Sheriff's Office"
                regions.append((match.start(), _possessive_end(text, match.end()), kind))
        self.regions = sorted(regions)
        # the union of the regions, for a bisect lookup (regions overlap: "Penal Code" and
        # "Penal Code section 3041")
        union: list[list] = []
        for start, end, kind in self.regions:
            if union and start <= union[-1][1]:
                union[-1][1] = max(union[-1][1], end)
            else:
                union.append([start, end, kind])
        self._starts = [u[0] for u in union]
        self._union = union
        self.caps_lines = [
            m.span()
            for m in _CAPS_LINE.finditer(text)
            if len(_WORD.findall(m.group(0))) >= 8 and not m.group(0).rstrip().endswith(":")
        ]
        self._caps_starts = [s for s, _ in self.caps_lines]

    def inside(self, start: int, end: int) -> str | None:
        """The kind of public region holding ``[start, end)`` whole, or None."""
        i = bisect.bisect_right(self._starts, start) - 1
        if i >= 0 and end <= self._union[i][1]:
            return self._union[i][2]
        return None

    def holds_only_public(self, start: int, end: int, everyday=None) -> bool:
        """Whether ``[start, end)`` holds a public term and, beside it, nothing but function
        words, numbers (a transcript's line numbers) and a US state's name (``the Texas
        National Guard``, ``22 National Guard``, ``Congress of the United States``), or
        only a word opening its sentence that ``everyday(word)`` says is an everyday word
        (``Rate Congress``)."""
        i = bisect.bisect_right(self._starts, end) - 1
        rest = self.text[start:end]
        found = False
        while i >= 0 and self._union[i][1] > start:
            s, e = max(self._union[i][0], start), min(self._union[i][1], end)
            if s < e:
                found = True
                rest = rest[: s - start] + " " * (e - s) + rest[e - start :]
            i -= 1
        if not found:
            return False
        words = [w for w in _WORD.findall(rest) if w.lower() not in _FUNCTION]
        if len(words) == 1 and everyday and self._opens(start, words[0]) and everyday(words[0]):
            return True  # "Rate Congress" at a line's start: the capital is the sentence's
        return not words or " ".join(words) in _us_states()

    def _opens(self, start: int, word: str) -> bool:
        """``word`` opens the span, and the span opens a sentence or a line."""
        if not self.text.startswith(word, start):
            return False
        before = self.text[max(0, start - 4) : start]
        return not before.strip() or bool(re.search(r"[.!?:]\s*$", before))

    def in_caps_boilerplate(self, start: int, end: int) -> bool:
        i = bisect.bisect_right(self._caps_starts, start) - 1
        return i >= 0 and end <= self.caps_lines[i][1]


_CAPITAL_BEFORE = re.compile(r"\b(?!The\b|A\b|An\b)[A-Z][\w'’]*[ \t]+$")
_CAPITAL_AFTER = re.compile(r"[ \t]+(?!of\b|and\b)[A-Z][a-z]")


def _inside_a_name(text: str, start: int, end: int) -> bool:
    """Whether a public body's words are part of a longer capitalised name: a place or
    a name before them (``Tulare County Sheriff's Office``, ``Red River Army``) or a
    capitalised word after them (``Army Depot``)."""
    before = text[max(0, start - 30) : start]
    return bool(_CAPITAL_BEFORE.search(before) or _CAPITAL_AFTER.match(text, end))


_FUNCTION = frozenset({"the", "of", "a", "an", "and", "s", "'s", "’s"})


def _us_states() -> frozenset[str]:
    return frozenset(vocab.US_STATES)


def _possessive_end(text: str, end: int) -> int:
    """A region runs over its possessive ("the Solicitor General's brief")."""
    return end + 2 if text[end : end + 2] in {"'s", "’s"} else end


def _canonical(value: str) -> str:
    lowered = value.lower()
    for term in DOMAIN_TERMS:
        if term.lower() == lowered:
            return term
    return value


_CACHE: list[PublicTerms] = []


def public_terms(text: str) -> PublicTerms:
    """The public terms of ``text``, cached for the last text (kept referenced)."""
    if not _CACHE or _CACHE[0].text is not text:
        _CACHE[:] = [PublicTerms(text)]
    return _CACHE[0]
