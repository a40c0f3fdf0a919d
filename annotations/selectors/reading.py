"""Reading mode in parts: the release text of a bounded stretch of pages, the leaks the
check finds there, and where each one is on the review page.

A transcript whose text fits in ``READING_PART_CHARS`` (every hearing we have seen: a
15,000-word hearing is about 90,000 characters) is one part, checked whole as Submit
checks it. A longer one (a 200,000-line text import, up to the 50 MB limit) is read in
parts of whole pages of at most that many characters: each request pseudonymizes and
checks only its part (the spans, cover page and speaker tags of the whole transcript; the
honorifics and given names of the part), so its cost is bounded by the part, not the
transcript (reading mode of a 14 MB text took 7 s and answered 500 at the size
limit). Offsets are characters into ``Transcript.text``, end exclusive.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field

from django.urls import reverse

from annotations.models import Span
from annotations.selectors.windows import review_pages
from transcripts.models import Transcript, Utterance

READING_PART_CHARS = 150_000
READING_PLACES_MAX = 300  # places listed (the marks in the text show every one)


@dataclass(frozen=True)
class ReadingPartBounds:
    number: int  # 1-based
    first_page: int
    last_page: int
    start: int
    end: int


@dataclass
class ReadingPlace:
    """One leak and where to fix it: ``url`` opens the review page at the undecided span
    that holds it (``span_id``) or at its line."""

    number: int
    leak: object
    page: int | None
    url: str
    span_id: int | None = None


@dataclass
class ReadingPart:
    bounds: ReadingPartBounds
    parts: list[ReadingPartBounds]
    text: str  # the release text of the part (tags)
    replacements: list
    leaks: list
    places: list[ReadingPlace] = field(default_factory=list)

    @property
    def whole(self) -> bool:
        return len(self.parts) == 1


def reading_parts(
    *, transcript: Transcript, max_chars: int | None = None
) -> list[ReadingPartBounds]:
    """The transcript cut into parts of whole pages of at most ``max_chars`` characters
    (default ``READING_PART_CHARS``; a page longer than that is a part of its own); one
    aggregate query."""
    max_chars = max_chars or READING_PART_CHARS
    length = len(transcript.text)
    pages = [p for p in review_pages(transcript=transcript) if p["first"] is not None]
    if length <= max_chars or len(pages) < 2:
        first, last = (pages[0]["page"], pages[-1]["page"]) if pages else (0, 0)
        return [ReadingPartBounds(1, first, last, 0, length)]
    groups: list[list[dict]] = [[pages[0]]]
    for page in pages[1:]:
        if page["last"] - groups[-1][0]["first"] > max_chars:
            groups.append([page])
        else:
            groups[-1].append(page)
    starts = [0] + [g[0]["first"] for g in groups[1:]] + [length]
    return [
        ReadingPartBounds(i + 1, g[0]["page"], g[-1]["page"], starts[i], starts[i + 1])
        for i, g in enumerate(groups)
    ]


def reading_part(*, transcript: Transcript, number: int = 1) -> ReadingPart:
    """Part ``number`` (clamped to the parts there are) with its release text, leaks and
    the places of its leaks."""
    from annotations.services.leaks import leak_check, release_leaks

    parts = reading_parts(transcript=transcript)
    bounds = parts[min(max(number, 1), len(parts)) - 1]
    if len(parts) == 1:  # the release text and its check, once per state (release_leaks)
        result, leaks = release_leaks(transcript=transcript)
        text, replacements, base = result.text, result.replacements, 0
    else:
        text, replacements, base, end = _pseudonymize_part(transcript=transcript, bounds=bounds)
        leaks = leak_check(
            transcript=transcript, output_text=text, replacements=replacements, source=(base, end)
        )
    part = ReadingPart(bounds, parts, text, replacements, leaks)
    part.places = reading_places(transcript=transcript, leaks=leaks, base=base)
    return part


def _pseudonymize_part(*, transcript: Transcript, bounds: ReadingPartBounds):
    """The release text (tags) of the part: its accepted and added spans with their
    groups' refs, as ``transcript_pseudonymize`` writes them for the whole text. Returns
    ``(text, replacements, base, end)``: the canonical ``[base, end)`` it stands for (wider
    than the part when a span reaches across its edge); offsets relative to ``base``."""
    from annotations.services.entities import ref_assigner_for
    from engine.pseudonymize import SpanInput, pseudonymize

    spans = list(
        Span.objects.filter(
            transcript=transcript,
            status__in=[Span.Status.ACCEPTED, Span.Status.ADDED],
            start__lt=bounds.end,
            end__gt=bounds.start,
        )
        .select_related("entity")
        .only("id", "start", "end", "label", "entity__ref", "entity__key")
        .order_by("start", "end", "id")
    )
    base = min([bounds.start, *(s.start for s in spans)])
    end = max([bounds.end, *(s.end for s in spans)])
    inputs = [
        SpanInput(
            s.start - base,
            s.end - base,
            s.label,
            ref=s.entity.ref if s.entity_id else None,
            key=s.entity.key if s.entity_id else None,
            span_id=s.pk,
        )
        for s in spans
    ]
    result = pseudonymize(
        transcript.text[base:end],
        inputs,
        strategy="tags",
        assigner=ref_assigner_for(transcript=transcript),
    )
    return result.text, result.replacements, base, end


def reading_places(*, transcript: Transcript, leaks: list, base: int = 0) -> list[ReadingPlace]:
    """Where each leak is on the review page: the undecided span holding it, else its line
    (two queries over the leaks' stretch of text, however many leaks)."""
    located = [leak for leak in leaks if leak.source_start is not None]
    if not located:
        return [
            ReadingPlace(i + 1, leak, None, reverse("annotations:review", args=[transcript.pk]))
            for i, leak in enumerate(leaks)
        ]
    low = min(leak.source_start for leak in located)
    high = max(leak.source_end for leak in located)
    lines = list(
        Utterance.objects.filter(transcript=transcript, end__gte=low, start__lte=high)
        .order_by("start")
        .values_list("start", "end", "page", "index")
    )
    starts = [line[0] for line in lines]
    undecided = list(
        Span.objects.filter(
            transcript=transcript, status=Span.Status.SUGGESTED, start__lte=high, end__gte=low
        )
        .order_by("start", "-end")
        .values_list("start", "end", "pk")
    )
    span_starts = [s[0] for s in undecided]
    page_url = reverse("annotations:review", args=[transcript.pk])
    places = []
    for i, leak in enumerate(leaks):
        place = ReadingPlace(i + 1, leak, None, page_url)
        if leak.source_start is not None:
            j = bisect_right(span_starts, leak.source_start) - 1
            # the undecided span holding the leak: among the few starting just before it
            for start, end, pk in reversed(undecided[max(0, j - 8) : j + 1]):
                if start <= leak.source_start and leak.source_end <= end:
                    place.span_id, place.url = pk, f"{page_url}?span={pk}"
                    break
            k = bisect_right(starts, leak.source_start) - 1
            if k >= 0 and leak.source_start <= max(lines[k][1], lines[k][0] + 1):
                place.page = lines[k][2]
                if place.span_id is None:
                    place.url = f"{page_url}?page={lines[k][2]}#uo-{lines[k][3]}"
        places.append(place)
    return places
