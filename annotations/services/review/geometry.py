"""Word boundaries and occurrences in a transcript's text (offsets: characters, end exclusive)."""

import re
from collections.abc import Iterable

from annotations.models import Span
from annotations.services.review.permissions import ReviewError
from transcripts.models import Transcript

_TRIM = ' \t\n\r,;:!?"“”()[]{}'


def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch in "_@"


def snap_to_words(text: str, start: int, end: int) -> tuple[int, int]:
    """Widen ``[start, end)`` to whole words and trim surrounding spaces and punctuation."""
    start, end = max(0, min(start, end)), min(len(text), max(start, end))
    while start < end and text[start] in _TRIM:
        start += 1
    while end > start and (text[end - 1] in _TRIM or text[end - 1] in ".'’"):
        end -= 1
    while start > 0 and start < len(text) and _is_word(text[start - 1]) and _is_word(text[start]):
        start -= 1
    while end < len(text) and end > 0 and _is_word(text[end - 1]) and _is_word(text[end]):
        end += 1
    return start, end


def word_step(text: str, pos: int, *, forward: bool) -> int:
    """The next word boundary from ``pos``: skip non-word characters, then a word."""
    if forward:
        while pos < len(text) and not _is_word(text[pos]) and text[pos] != "\n":
            pos += 1
        while pos < len(text) and (
            _is_word(text[pos])
            or (text[pos] in "-'’." and pos + 1 < len(text) and _is_word(text[pos + 1]))
        ):
            pos += 1
        return pos
    while pos > 0 and not _is_word(text[pos - 1]) and text[pos - 1] != "\n":
        pos -= 1
    while pos > 0 and (
        _is_word(text[pos - 1]) or (text[pos - 1] in "-'’." and pos > 1 and _is_word(text[pos - 2]))
    ):
        pos -= 1
    return pos


def _check_extent(text: str, start: int, end: int) -> None:
    if not (0 <= start < end <= len(text)):
        raise ReviewError("Select at least one word.")
    if "\n" in text[start:end]:
        raise ReviewError("A span cannot cross from one utterance into the next.")


def _overlapping(*, transcript: Transcript, start: int, end: int, exclude: Iterable[int] = ()):
    return (
        Span.objects.filter(transcript=transcript, start__lt=end, end__gt=start)
        .exclude(status=Span.Status.REJECTED)
        .exclude(pk__in=list(exclude))
    )


def occurrences(text: str, needle: str) -> list[tuple[int, int]]:
    """Whole-word occurrences of ``needle`` in ``text`` (case-sensitive)."""
    if not needle.strip():
        return []
    pattern = re.compile(rf"(?<![\w@]){re.escape(needle)}(?![\w@])")
    return [(m.start(), m.end()) for m in pattern.finditer(text)]
