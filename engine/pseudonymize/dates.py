"""Split a DATE mention into the paper's categorical tags. Django-free.

``May 13, 2012`` → ``[MONTH] [DAY], [YEAR]``; ``Monday`` → ``[DAY_OF_WEEK]``;
``the 1990s`` → ``the [DECADE]``; ``05/13/2012`` → ``[DATE]``; other numbers →
``[NUMBER]``. Connecting words and punctuation stay. A mention with no recognisable
part (``last Christmas``) becomes ``[DATE]`` as a whole, so no identifying word remains.
"""

from __future__ import annotations

import re

from engine import vocab

MONTHS = [m.lower() for m in vocab.MONTHS]
MONTH_ABBR = [m.lower() for m in vocab.MONTH_ABBREVIATIONS]
WEEKDAYS = [d.lower() for d in vocab.WEEKDAYS]
WEEKDAY_ABBR = "mon tue tues wed thu thur thurs fri sat sun".split()
ORDINAL_WORDS = (
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth "
    "thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth "
    "thirtieth"
).split()
NUMBER_WORDS = [*vocab.UNIT_WORDS, *vocab.TEEN_WORDS, *vocab.TENS_WORDS, "hundred", "thousand"]
DECADE_WORDS = "twenties thirties forties fifties sixties seventies eighties nineties".split()
# Words that carry no identifying information and may stay around the tags.
KEEP = frozenset(
    "the of on in at and to from until through since by around about early late mid "
    "beginning end middle year years month months day days week weeks this last next "
    "past previous following or a an".split()
)

_UNITS = vocab.alternation(vocab.UNIT_WORDS)
_TEENS = vocab.alternation(vocab.TEEN_WORDS)
_TENS = vocab.alternation(vocab.TENS_WORDS)
_SEP = r"[\s-]+"
# "nineteen ninety-five", "twenty twelve", "nineteen oh five", "two thousand (and) twelve"
_SPOKEN_YEAR = (
    rf"\b(?:(?:eighteen|nineteen|twenty){_SEP}(?:(?:{_TEENS})|(?:{_TENS})(?:{_SEP}(?:{_UNITS}))?"
    rf"|oh{_SEP}(?:{_UNITS})|hundred)"
    rf"|two{_SEP}thousand(?:{_SEP}(?:and{_SEP})?(?:(?:{_TEENS})|(?:{_TENS})(?:{_SEP}(?:{_UNITS}))?"
    rf"|(?:{_UNITS})))?)\b"
)

_TOKEN = re.compile(
    rf"(?P<spokenyear>{_SPOKEN_YEAR})|"
    r"(?P<numeric>\b\d{1,4}[/.-]\d{1,2}(?:[/.-]\d{2,4})?\b)"
    r"|(?P<decade>\b(?:1[89]|20)\d0['’]?s\b|['’]\d0s\b|\b\d0['’]?s\b)"
    r"|(?P<year>\b(?:1[5-9]|20)\d\d\b|['’]\d\d\b)"
    r"|(?P<day>\b\d{1,2}(?:st|nd|rd|th)?\b)"
    r"|(?P<number>\b\d+(?:st|nd|rd|th)?\b)"
    r"|(?P<word>[A-Za-z]+(?:-[A-Za-z]+)*\.?)",
    re.IGNORECASE,
)


def _word_tag(word: str) -> str | None:
    low = word.lower().rstrip(".")
    if low in MONTHS or (low in MONTH_ABBR and (word.endswith(".") or word[0].isupper())):
        return "MONTH"
    if low in WEEKDAYS or (low in WEEKDAY_ABBR and word[0].isupper()):
        return "DAY_OF_WEEK"
    if low in DECADE_WORDS:
        return "DECADE"
    parts = low.split("-")
    if parts[-1] in ORDINAL_WORDS:
        return "DAY"
    if all(p in NUMBER_WORDS for p in parts):
        return "NUMBER"
    return None


def date_tags(mention: str) -> str:
    """The tag form of one DATE mention (see module docstring)."""
    pieces: list[str] = []
    pos = 0
    found = False
    prev_tag: str | None = None
    for match in _TOKEN.finditer(mention):
        kind = match.lastgroup
        token = match.group(0)
        tag: str | None
        if kind == "spokenyear":
            tag = "YEAR"
        elif kind == "numeric":
            tag = "DATE"
        elif kind == "decade":
            tag = "DECADE"
        elif kind == "year":
            tag = "YEAR"
        elif kind == "day":
            tag = "DAY" if not token.isdigit() or int(token) <= 31 else "NUMBER"
        elif kind == "number":
            tag = "NUMBER"
        else:
            tag = _word_tag(token)
            if tag == "NUMBER" and prev_tag == "MONTH":
                tag = "DAY"  # "May thirteen", "June twenty-five"
            if tag is None:
                if token.lower().rstrip(".") in KEEP:
                    continue
                return "[DATE]"  # an unknown word (a holiday, an event): hide it all
            if token.endswith(".") and tag in {"MONTH", "DAY_OF_WEEK"}:
                token = token[:-1]
                match_end = match.start() + len(token)
                pieces.append(mention[pos : match.start()])
                pieces.append(f"[{tag}]")
                pos = match_end
                found = True
                prev_tag = tag
                continue
        if tag == "NUMBER" and prev_tag == "NUMBER" and pieces and pieces[-1] == "[NUMBER]":
            gap = mention[pos : match.start()]
            if gap.strip() in {"", "-"}:  # "twenty thirteen": one number
                pos = match.end()
                continue
        pieces.append(mention[pos : match.start()])
        pieces.append(f"[{tag}]")
        pos = match.end()
        found = True
        prev_tag = tag
    if not found:
        return "[DATE]"
    pieces.append(mention[pos:])
    return "".join(pieces)
