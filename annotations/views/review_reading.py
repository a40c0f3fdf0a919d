"""Reading mode: the final proofreading pass over the pseudonymized text alone.

Full width, adjustable font size; the release text (reviewed spans replaced, tags) with
what the leak check still finds highlighted (blocking leaks red, non-blocking findings
amber: a lower-case common word, a state named again). Every highlighted place links to
the review page at its undecided span or its line, and the header's count opens the list
of them. A click on a tag flags that span for the lead with a comment (the review's
``flag`` action). A long transcript is read in parts (``?part=N``, whole pages of at most
``READING_PART_CHARS`` characters: annotations/selectors/reading.py), so the page's work
is bounded by the part, not the transcript.
"""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET

from annotations.models import Span
from annotations.selectors.reading import READING_PLACES_MAX, reading_part
from annotations.services import review as services
from annotations.views.review_context import int_or
from transcripts.models import Transcript


def reading_html(text: str, replacements, places, spans: dict[int, tuple]) -> str:
    """``text`` with ``<span class="rep">`` per replacement (its span id, version and flag)
    and ``<mark class="leak" id="leak-N">`` per leak, a link to its place on the review
    page (``places``: :class:`ReadingPlace`, positions in ``text``; they never overlap)."""
    items = [(r.out_start, r.out_end, "rep", r) for r in replacements]
    items += [(p.leak.start, p.leak.end, "leak", p) for p in places]
    items.sort(key=lambda item: (item[0], -item[1]))
    out, pos = [], 0
    for start, end, kind, item in items:
        if start < pos:
            continue
        out.append(escape(text[pos:start]))
        inner = escape(text[start:end])
        if kind == "leak":
            leak = item.leak
            cls = "leak" if leak.blocking else "leak nonblocking"
            out.append(
                f'<mark class="{cls}" id="leak-{item.number}"><a href="{escape(item.url)}"'
                f' title="{escape(leak.label)}: still readable. Open it in the review">'
                f"{inner}</a></mark>"
            )
        else:
            version, flagged = spans.get(item.span_id, (1, False))
            flag = " flagged" if flagged else ""
            out.append(
                f'<span class="rep{flag}" data-span-id="{item.span_id}" data-version="{version}"'
                f' data-ref="{escape(item.ref)}" tabindex="0">{inner}</span>'
            )
        pos = end
    out.append(escape(text[pos:]))
    return mark_safe("".join(out))  # noqa: S308 (every piece is escaped above)


def _context(text: str, start: int, end: int, width: int = 40) -> tuple[str, str, str]:
    """The words before, the leak, the words after (one line of the release text)."""
    before = text[max(0, start - width) : start].rsplit("\n", 1)[-1]
    if start - width > 0 and " " in before and not before.startswith(" "):
        before = "…" + before.split(" ", 1)[1]  # no word cut in half
    after = text[end : end + width].split("\n", 1)[0]
    if len(after) == width and " " in after:
        after = after.rsplit(" ", 1)[0] + "…"
    return before.lstrip(), text[start:end], after.rstrip()


@require_GET
def review_reading(request: HttpRequest, transcript_id: int) -> HttpResponse:
    transcript = get_object_or_404(Transcript.objects.visible_to(request.user), pk=transcript_id)
    part = reading_part(transcript=transcript, number=int_or(request.GET.get("part"), 1))
    ids = [r.span_id for r in part.replacements if r.span_id is not None]
    spans = {}
    for i in range(0, len(ids), 500):
        spans.update(
            (pk, (version, flagged))
            for pk, version, flagged in Span.objects.filter(pk__in=ids[i : i + 500]).values_list(
                "pk", "version", "flagged"
            )
        )
    refusal = services.review_edit_refusal(transcript=transcript, user=request.user)
    leaks = part.leaks
    listed = [
        (place, *_context(part.text, place.leak.start, place.leak.end))
        for place in part.places[:READING_PLACES_MAX]
    ]
    return render(
        request,
        "annotations/review_reading.html",
        {
            "transcript": transcript,
            "part": part,
            "body": reading_html(part.text, part.replacements, part.places, spans),
            "places": listed,
            "unlisted": max(0, len(part.places) - READING_PLACES_MAX),
            "blocking": sum(1 for leak in leaks if leak.blocking),
            "undecided": sum(1 for leak in leaks if leak.kind == "suggested"),
            "nonblocking": sum(1 for leak in leaks if not leak.blocking),
            "can_edit": refusal is None,
        },
    )
