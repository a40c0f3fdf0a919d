"""Reading mode: the final proofreading pass over the pseudonymized text alone.

Full width, adjustable font size; the release text (reviewed spans replaced, tags) with
what the leak check still finds highlighted (blocking leaks red, non-blocking findings
amber: a lower-case common word, a state named again). A
click on a tag flags that span for the lead with a comment (the review's ``flag`` action).
"""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET

from annotations.models import Span
from annotations.services import review as services
from annotations.services.leaks import leak_check
from annotations.services.pseudonymization import transcript_pseudonymize
from transcripts.models import Transcript


def reading_html(text: str, replacements, leaks, spans: dict[int, tuple]) -> str:
    """``text`` with ``<span class="rep">`` per replacement (its span id, version and flag)
    and ``<mark class="leak">`` per leak (positions in ``text``; they never overlap)."""
    items = [(r.out_start, r.out_end, "rep", r) for r in replacements]
    items += [(leak.start, leak.end, "leak", leak) for leak in leaks]
    items.sort(key=lambda item: (item[0], -item[1]))
    out, pos = [], 0
    for start, end, kind, item in items:
        if start < pos:
            continue
        out.append(escape(text[pos:start]))
        inner = escape(text[start:end])
        if kind == "leak":
            cls = "leak" if item.blocking else "leak nonblocking"
            out.append(
                f'<mark class="{cls}" title="{escape(item.label)}: still readable">{inner}</mark>'
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


@require_GET
def review_reading(request: HttpRequest, transcript_id: int) -> HttpResponse:
    transcript = get_object_or_404(Transcript.objects.visible_to(request.user), pk=transcript_id)
    result = transcript_pseudonymize(
        transcript=transcript, strategy="tags", include_suggested=False
    )
    leaks = leak_check(
        transcript=transcript,
        output_text=result.text,
        replacements=result.replacements,
    )
    spans = {
        pk: (version, flagged)
        for pk, version, flagged in Span.objects.filter(transcript=transcript).values_list(
            "pk", "version", "flagged"
        )
    }
    refusal = services.review_edit_refusal(transcript=transcript, user=request.user)
    return render(
        request,
        "annotations/review_reading.html",
        {
            "transcript": transcript,
            "body": reading_html(result.text, result.replacements, leaks, spans),
            "blocking": sum(1 for leak in leaks if leak.blocking),
            "undecided": sum(1 for leak in leaks if leak.kind == "suggested"),
            "nonblocking": sum(1 for leak in leaks if not leak.blocking),
            "can_edit": refusal is None,
        },
    )
