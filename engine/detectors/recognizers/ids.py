"""CDCR numbers and other identifiers made of letters and digits."""

from __future__ import annotations

import re

from engine.detectors.recognizers.base import NATO, UNITS, Found, RegexRecognizer, _c

# --- CDCR_ID ------------------------------------------------------------------------

_ID_PLAIN = _c(r"(?<![\w/#-])(?P<span>[A-Z]{1,2}-?\d{4,5})(?![\w-])")
_ID_NATO = _c(
    rf"(?<![\w-])(?P<span>(?:{NATO})(?:[ ,-]+(?:{NATO}))?[ ,-]*\n?[ ,-]*\d(?:[ ,.-]*\d){{3,4}})(?![\w-])",
    re.IGNORECASE,
)
_ID_DASHED = _c(r"(?<![\w-])(?P<span>[A-Z](?:[ ,.-]{1,3}\d){4,5})(?![\w-]|[ ,.-]\d)")
_ID_SPOKEN = _c(
    rf"(?<![\w-])(?P<span>(?:[A-Z]|{NATO})(?:[ ,.-]{{1,3}}(?:{UNITS})){{4,5}})(?![\w-])",
    re.IGNORECASE,
)
# Letters and digits spelled one by one, also across a line break: "B-K-4-4-1-7",
# "A-3-2-2-6-2", "BK-44-17"
_ID_SPELLED = _c(
    r"(?<![\w-])(?P<span>[A-Z](?:-[ \t]*\n?[ \t]*[A-Z])?(?:-[ \t]*\n?[ \t]*\d{1,5}){1,6})"
    r"(?![\w-]|-[ \t]*\n?[ \t]*\w)"
)
# A letter spelled out with its word, then the digits: "B, as in baker, 65921", "B as in
# boy, K as in king, 4417", "V as in Victor six five nine two one" (also across a line)
_DIGITS_OR_WORDS = rf"(?:\d{{1,6}}|{UNITS})(?:[ ,.-]+(?:\d{{1,6}}|{UNITS})){{0,5}}"
_ID_AS_IN = _c(
    r"(?<![\w-])(?P<span>[A-Za-z],? as in [A-Za-z]+(?:-[A-Za-z]+)?"
    r"(?:[ ,]+(?:and )?[A-Za-z],? as in [A-Za-z]+(?:-[A-Za-z]+)?)?"
    rf",?\s+{_DIGITS_OR_WORDS})(?![\w-])",
    re.IGNORECASE,
)
_UNIT_WORDS = frozenset(UNITS.split("|"))

_NOT_ID_BEFORE = re.compile(
    r"(?:\b(?:p\.?\s*o\.?\s*)?box|\bzip(?:\s*code)?|\bsuite|\bapt\.?|\broom|\bunit|\bform|\bcode|\bpage|\bexhibit|\bpenal)\s*#?\s*$",
    re.IGNORECASE,
)
_STATE_ABBR = frozenset(
    "AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ "
    "NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY".split()
)


class CdcrIdRecognizer(RegexRecognizer):
    """CDCR numbers: ``V12345``, ``BK4821``, ``Victor 12345``, ``T-9-8-7-6-5``.

    Not zip codes (``CA 95814`` has a space and a state), PO boxes, forms or pages.
    """

    ENTITY = "CDCR_ID"
    PATTERNS = (
        ("letters-digits", _ID_PLAIN, 0.85),
        ("nato-digits", _ID_NATO, 0.9),
        ("letter-digit-by-digit", _ID_DASHED, 0.85),
        ("spoken-digits", _ID_SPOKEN, 0.75),
        ("letters-digits-spelled", _ID_SPELLED, 0.85),
        ("letter-as-in-digits", _ID_AS_IN, 0.9),
    )

    def accept(self, text: str, match: re.Match, name: str = "") -> bool:
        start = match.start("span")
        if _NOT_ID_BEFORE.search(text[max(0, start - 20) : start]):
            return False
        value = match.group("span")
        if name in {"letters-digits-spelled", "letter-as-in-digits"}:
            tail = value.lower().split(" as in ")[-1] if name == "letter-as-in-digits" else value
            digits = len(re.findall(r"\d", tail)) + sum(
                1 for w in re.findall(r"[a-z]+", tail) if w in _UNIT_WORDS
            )
            if not 4 <= digits <= 6:
                return False  # "A-1" is a form, "B-2-0-2-4-1-1-7" a phone number
        if name == "nato-digits" and re.match(r"(?i)(?:november|may|march|august)\b", value):
            # "November 9, 2004", "November 1995" are dates; an ID has five plain digits
            if not re.fullmatch(r"(?i)\w+[ -]?\d{5}", value):
                return False
        head = re.match(r"[A-Za-z]+", value)
        if head and head.group(0).upper() in _STATE_ABBR and re.search(r"\s", value):
            return False  # "CA 95814"
        return True


# --- OTHER_ID -----------------------------------------------------------------------
# Identifying numbers outside the paper's schema (DESIGN.md): passport, vehicle
# identification (VIN), bank account, driver's licence, juror badge numbers, a licence
# plate, an e-signature id. Shapes that need no context (a 17-character VIN, a UUID), and
# a value of letters and digits right after its context words (``passport number
# 548201377``, ``account ending in 4471``, ``badge number 2231``), also read out one
# character at a time (``the VIN is 1 H G C M 8 2 6 3 3``).

_ID_CONTEXT = (
    r"(?:passport|VIN|V\.I\.N\.|vehicle identification|serial|chassis|"
    r"(?:bank |checking |savings |credit card |debit card )?account|routing|"
    r"driver['’]?s? licen[cs]e|licen[cs]e plate|plate|badge|juror badge|"
    r"social security|SSN|envelope|e-?signature|DocuSign|member|policy|employee)"
)
_ID_NOUN = r"(?:numbers?|nos?\.?|#|ID|id|identifier)"
# the value: one token of 4-20 letters and digits with a digit in it (dashes inside), or
# single characters read out with spaces, commas or dashes between them (5-20 of them)
_ID_VALUE = (
    r"(?P<span>(?=[A-Za-z0-9-]*\d)[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){3,24}"
    r"|(?:[A-Z0-9](?:,? |-)){4,19}[A-Z0-9](?![\w-]))"
)
_OTHER_CONTEXT = _c(
    rf"(?i:\b{_ID_CONTEXT}(?: {_ID_NOUN})?)"
    r"(?:,? (?i:is|was|reads|ending in|ends in|ending with|number|no\.|:))*"
    rf"[:#]?\s{{1,2}}(?:\#\s?)?{_ID_VALUE}(?![\w-])"
)
_VIN = _c(
    r"(?<![\w-])(?=[A-HJ-NPR-Z0-9]*[A-HJ-NPR-Z])(?=[A-HJ-NPR-Z0-9]*\d{3})[A-HJ-NPR-Z0-9]{17}(?![\w-])"
)
_UUID = _c(
    r"(?<![\w-])[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}(?![\w-])"
)


class OtherIdRecognizer(RegexRecognizer):
    """Identifying numbers outside the paper's schema (``OTHER_ID``, a direct identifier):
    a VIN or a UUID by their shape, other numbers by the words before them."""

    ENTITY = "OTHER_ID"
    PATTERNS = (
        ("id-after-context", _OTHER_CONTEXT, 0.9),
        ("vin", _VIN, 0.9),
        ("uuid", _UUID, 0.9),
    )

    def accept(self, text: str, match: re.Match, name: str = "") -> bool:
        if name != "id-after-context":
            return True
        value = match.group("span")
        chars = re.sub(r"[^A-Za-z0-9]", "", value)
        if not any(c.isdigit() for c in chars) or len(chars) < 4:
            return False  # "the account of ...", "badge 12": too short to identify anyone
        if re.match(r"\s*(?:dollars|percent|cents|%)", text[match.end() :], re.IGNORECASE):
            return False  # "the account was 4000 dollars": an amount
        if re.fullmatch(r"(?:1[89]|20)\d\d", chars):
            # "policy 2004" may be a year; "account ending in 2004", "badge number 1998" not
            lead = match.group(0)[: match.start("span") - match.start()]
            return bool(re.search(r"(?i)number|\bno\.|#|ending|ends|\bis\b|\bwas\b|:", lead))
        return True


# --- URL ------------------------------------------------------------------------------
# A link read into the record or inside embedded markup (``<iframe src="…/embed/ID">``):
# the whole address, whose path holds a video's or a document's id. It ends at a space, a
# quote or a bracket; a sentence's last period or comma is no part of it.
_LINK = _c(r"(?<![\w@/.-])(?:https?://|www\.)[^\s\"'<>()\[\]{}]+")
_LINK_TRAIL = re.compile(r"[.,;:!?]+$")


class LinkRecognizer(RegexRecognizer):
    """``https://www.youtube.com/watch?v=…``, ``https://youtu.be/…``, a link in an
    ``<iframe src="…">`` (URL, the whole address)."""

    ENTITY = "URL"
    PATTERNS = (("link", _LINK, 0.9),)

    def find_all(self, text: str) -> list[Found]:
        out = []
        for f in super().find_all(text):
            trail = _LINK_TRAIL.search(text[f.start : f.end])
            end = f.start + trail.start() if trail else f.end
            if end - f.start > 8:
                out.append(Found(f.start, end, f.label, f.score, f.pattern))
        return out
