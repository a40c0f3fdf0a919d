"""What a partly tagged date, time or age leaves in clear. Django-free.

A DATE span that covers the month and year but not the day ("14 October 2003" annotated
as "October 2003") releases "14 [MONTH] [YEAR]": the day in clear beside its month's
tag. A needle cannot see it (the day was never a span), so the output is read for the
shapes a day, an ordinal or a year takes beside a date tag, and for digits glued to a
time or age tag ("10[TIME]", "[AGE]5": a span that cut a number).
"""

from __future__ import annotations

import re

from engine.detectors.recognizers.base import ORDINAL_WORDS

_NUM = r"(?:[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?"
_DATE_TAG = r"\[(?:MONTH|YEAR|DAY)\]"
# "14 [MONTH]", "14th of [MONTH]", "the third of [MONTH]" (an ordinal word only with
# "the ... of": "first [MONTH]" is no date)
_DAY_BEFORE = re.compile(
    rf"(?<![\w.,:/$-])(?P<x>{_NUM})(?:[ \t]+of)?[ \t]+(?=\[MONTH\])"
    rf"|(?i:\bthe)[ \t]+(?P<w>{ORDINAL_WORDS})[ \t]+of[ \t]+(?=\[MONTH\])",
    re.IGNORECASE,
)
# "[MONTH] 14", "[MONTH] 14th,", "[MONTH] the 3rd", "[MONTH] the third" (a number not part
# of a longer one: "[MONTH] 1.5 percent" is none)
_DAY_AFTER = re.compile(
    rf"\[MONTH\],?[ \t]+(?:(?P<x>{_NUM})|the[ \t]+(?P<w>{_NUM}|{ORDINAL_WORDS}))(?![\w:/]|\.\d)",
    re.IGNORECASE,
)
# "[MONTH] [DAY], 2003", "[MONTH] 2003", "2003 [MONTH]"
_YEAR_NEAR = re.compile(
    rf"{_DATE_TAG},?[ \t]+(?P<x>(?:1[89]|20)\d\d)(?![\w:/])"
    rf"|(?<![\w.,:/$-])(?P<y>(?:1[89]|20)\d\d)[ \t]+(?=\[MONTH\])"
)
# digits glued to a time or age tag: "10[TIME]", "[TIME]:30", "2[AGE]"
_GLUED = re.compile(r"(?P<a>\d+[:.]?)(?=\[(?P<la>TIME|AGE)\])|\[(?P<lb>TIME|AGE)\](?P<b>[:.]?\d+)")


def partial_tag_leaks(output: str) -> list[tuple[int, int, str, str]]:
    """``(start, end, label, kind)`` of each day, ordinal or year left in clear beside a
    date tag, and of digits glued to a time or age tag, in ``output``."""
    out: list[tuple[int, int, str, str]] = []
    if "[MONTH]" in output or "[YEAR]" in output or "[DAY]" in output:
        for regex in (_DAY_BEFORE, _DAY_AFTER):
            for m in regex.finditer(output):
                out.append((*m.span("x" if m.group("x") else "w"), "DATE", "partial_date"))
        for m in _YEAR_NEAR.finditer(output):
            group = "x" if m.group("x") else "y"
            out.append((*m.span(group), "DATE", "partial_date"))
    if "[TIME]" in output or "[AGE]" in output:
        for m in _GLUED.finditer(output):
            group, label = ("a", m.group("la")) if m.group("a") else ("b", m.group("lb"))
            start, end = m.span(group)
            digits = re.search(r"\d+", output[start:end])
            kind = "partial_" + label.lower()
            out.append((start + digits.start(), start + digits.end(), label, kind))
    return sorted(set(out))
