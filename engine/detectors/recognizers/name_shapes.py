"""Persons named by a shape the other person recognizers miss (PERSON):

* a first name signing a message read aloud (``… Thanks, Ned."``) or given alone as the
  whole answer after it (``Ned.`` when asked how it is signed);
* a surname that is an English function word or pronoun, after a given name
  (``Tom Will``, ``Grace He``): capitalised in mid-sentence, only a name is;
* a three-part East Asian name, whole (``Nguyen Van Thanh``, ``Chan Tai Man``), and a
  Korean given name in its romanised hyphenated shape (``Kim Min-jun``).

The family names are the most common Vietnamese, Korean and Chinese ones (general
knowledge of those names, not drawn from any transcript). Django-free.
"""

from __future__ import annotations

import re

from engine.detectors.extent import LINE_OPENING
from engine.detectors.recognizers.base import RegexRecognizer, _c

# --- a first name signing a message ---------------------------------------------------

_SIGN_OFF = (
    r"(?:Thanks|Thank you|Many thanks|Thanks again|Cheers|Regards|Best regards|Kind regards|"
    r"Warm regards|Best wishes|Best|Love|Sincerely|Yours|Yours truly|Take care|See you)"
)
# the name ends the message: a period, a quote, the line's end
_SIGNED = _c(
    rf"\b{_SIGN_OFF},?[ \t]+(?P<span>[A-Z][a-z]+)(?=[.!]?[\"'”’]|[.!]?[ \t]*$)",
    re.M,
)
# the name alone as the whole answer or its last sentence ("Ned."), after a question
# about a message
_ALONE = _c(
    r"(?:^(?:[QA]\.?[ \t]+|[A-Z][A-Z.'’ -]{0,40}:[ \t]+)?|(?<=[.?!] ))(?P<span>[A-Z][a-z]+)\.[ \t]*$",
    re.M,
)
_MESSAGE_BEFORE = re.compile(
    r"\b(?:sign(?:ed|s|ature)?|e-?mail|message|text|letter|note|card|wrote|reads|says)\b", re.I
)
# roles and words a sign-off is said to in speech: no name
_NOT_SIGNER = frozenset(
    """sir madam ma'am commissioner counsel everyone everybody all both guys folks judge
    officer doctor sergeant detective nurse honor honour mom mum dad god lord again so very
    much""".split()
)

# --- a surname that is a function word -------------------------------------------------

# English function words and pronouns that are also surnames (He, You, An, So, Do, To:
# Chinese, Korean and Vietnamese romanisations; Will, Little, Most, Best: English ones).
_FUNCTION_SURNAMES = (
    r"He|She|You|We|Me|Him|An|So|Do|To|On|Of|Will|Can|May|Must|Shall|Little|Most|Best|More|"
    r"Less|Few|Then|Than|Over|Under|Yet|Still|Even|Just|Very|Too|Also"
)
_GIVEN_FUNCTION = _c(
    rf"(?<![\w'’.-])(?P<span>(?P<given>[A-Z][a-z]{{2,}}) (?:{_FUNCTION_SURNAMES}))"
    r"(?![\w'’-])"
)


def is_given_function_name(value: str) -> bool:
    """Whether ``value`` is a known given name and a surname that is a function word
    (``Oliver An``, ``Helen To``), as this rule reads one; whoever found the words."""
    from engine.detectors.names import is_given_name

    match = _GIVEN_FUNCTION.fullmatch(value)
    return bool(match) and (
        is_given_name(match.group("given"))
        and not re.fullmatch(_FUNCTION_SURNAMES, match.group("given"))
    )


# --- East Asian names ------------------------------------------------------------------

_VIETNAMESE = (
    "Nguyen|Tran|Le|Pham|Hoang|Huynh|Phan|Vu|Vo|Dang|Bui|Do|Ho|Ngo|Duong|Ly|Truong|Dinh|Trinh"
)
_VIETNAMESE_MIDDLE = "Van|Thi|Duc|Minh|Quoc|Ngoc|Huu|Xuan|Thanh|Kim|Dinh|Cong|Hong|Bao"
_KOREAN = (
    "Kim|Lee|Yi|Park|Pak|Choi|Jung|Jeong|Kang|Cho|Yoon|Jang|Lim|Han|Oh|Seo|Shin|Kwon|Hwang|"
    "Ahn|Song|Yoo|Hong|Jeon|Ko|Moon|Bae|Baek"
)
_CHINESE = (
    "Chan|Wong|Leung|Cheung|Lau|Li|Lee|Ng|Ho|Cheng|Yeung|Tsang|Chow|Chu|Lam|Lo|Tang|Wang|"
    "Zhang|Liu|Chen|Yang|Huang|Zhao|Wu|Zhou|Xu|Sun|Ma|Zhu|Hu|Guo|Lin|Gao|Luo|Kwok|Tse|Fung"
)
_SYLLABLE = r"[A-Z][a-z]{1,5}"
_EAST_ASIAN = _c(
    r"(?<![\w'’-])(?P<span>"
    rf"(?:{_VIETNAMESE}) (?:{_VIETNAMESE_MIDDLE}) [A-Z][a-z]+"
    rf"|(?:{_KOREAN}) [A-Z][a-z]+-[a-z]{{2,}}"
    rf"|(?:{_CHINESE}) {_SYLLABLE} {_SYLLABLE}"
    r")(?![\w'’-])"
)
# a word after which the three words are a place or a body, not a name ("Lee County
# Sheriff", "Ho Chi Minh City")
_NOT_NAME_PART = frozenset(
    """County City Street Avenue Road Lane Drive Park School College University Hospital
    Center Centre Church Bank Hotel Inn House Court Department Police Sheriff Company
    Group""".split()
)


class NameShapeRecognizer(RegexRecognizer):
    """Signatures, function-word surnames after a given name, East Asian names (see the
    module docstring)."""

    ENTITY = "PERSON"
    PATTERNS = (
        ("signature", _SIGNED, 0.85),
        ("signature-alone", _ALONE, 0.8),
        ("given-function-surname", _GIVEN_FUNCTION, 0.8),
        ("east-asian-name", _EAST_ASIAN, 0.85),
    )

    def accept(self, text: str, match: re.Match, name: str = "") -> bool:
        from engine.detectors.names import is_given_name
        from engine.detectors.ordinary import is_ordinary

        value = match.group("span")
        if name in {"signature", "signature-alone"}:
            if value.lower() in _NOT_SIGNER or not is_given_name(value):
                return False
            if name == "signature-alone":
                # a first name alone is a name only where a message is spoken of, and
                # not an everyday word ("Right.", "Will.")
                before = text[max(0, match.start() - 400) : match.start()]
                return bool(_MESSAGE_BEFORE.search(before)) and not is_ordinary(value)
            return True
        if name == "given-function-surname":
            given = match.group("given")
            start = text.rfind("\n", 0, match.start()) + 1
            end = text.find("\n", match.end())
            line = LINE_OPENING.sub("", text[start : end if end >= 0 else len(text)], count=1)
            if line.isupper():
                return False  # a line in capitals: its capitals say nothing
            return is_given_name(given) and not re.fullmatch(_FUNCTION_SURNAMES, given)
        words = value.split(" ")
        following = re.match(r"[ \t]+([A-Z][a-z]+)", text[match.end() : match.end() + 20])
        return not any(w in _NOT_NAME_PART for w in words[1:]) and not (
            following and following.group(1) in _NOT_NAME_PART
        )
