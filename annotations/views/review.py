"""The review workspace: one page, lazily loaded windows, and htmx POST actions.

Every action is a POST that calls one service and answers with out-of-band fragments
only: the changed utterance lines in both panes, the entity list, the progress counter,
the navigation queue, the inspector and a message. Without htmx the same POST redirects
back to the page (plain form fallback). A stale ``version`` answers 409 with the
refreshed fragments and a message.
"""

import html
import json
from bisect import bisect_left

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET, require_POST

from annotations import selectors
from annotations.models import Span
from annotations.selectors import ReviewFilters, SpanRow
from annotations.services import review as services
from anonreview.core.models import AuditEvent
from engine.labels import LABELS
from transcripts.models import Transcript, Utterance
from transcripts.services.workflow import TransitionError

ACTIONS = (
    "accept", "reject", "relabel", "resize", "add", "delete", "merge", "split",
    "apply_all", "accept_all", "undo", "resume",
)  # fmt: skip
KEY_LABELS = LABELS[:9]  # keys 1–9


def _transcript(request: HttpRequest, transcript_id: int) -> Transcript:
    return get_object_or_404(Transcript.objects.visible_to(request.user), pk=transcript_id)


# --- rendering of lines ----------------------------------------------------------------


def _mark_open(row: SpanRow, filters: ReviewFilters, focus: int | None) -> str:
    classes = f"span lab-{row.label} st-{row.status}"
    if filters.active and not row.matches(filters):
        classes += " dim"
    if focus == row.id:
        classes += " current"
    title = f"{row.label} · {row.status} · {row.provenance_text()}"
    if row.ref:
        title = f"{row.ref} · {title}"
    return format_html(
        '<mark id="s-{}" class="{}" tabindex="0" data-span-id="{}" data-ref="{}" data-label="{}"'
        ' data-status="{}" data-version="{}" data-score="{}" data-start="{}" data-end="{}"'
        ' title="{}">',
        row.id, classes, row.id, row.ref, row.label, row.status, row.version, f"{row.score:.2f}",
        row.start, row.end, title,
    )  # fmt: skip


def _speaker_end(text: str, utterance: Utterance) -> int | None:
    if not utterance.speaker:
        return None
    prefix = utterance.speaker + ":"
    if text.startswith(prefix, utterance.start):
        return utterance.start + len(prefix)
    return None


def line_original_html(
    text: str, utterance: Utterance, spans: list[SpanRow], filters: ReviewFilters, focus=None
) -> str:
    """``SPEAKER: text`` with one ``<mark>`` per span; nested spans nest, crossing ones clip.

    The line's text content is exactly ``text[utterance.start:utterance.end]`` (the page
    computes selection offsets from it).
    """
    u_start, u_end = utterance.start, utterance.end
    items: list[tuple[int, int, int, SpanRow | None]] = []
    speaker_end = _speaker_end(text, utterance)
    if speaker_end:
        items.append((u_start, speaker_end, 0, None))
    items += [(max(r.start, u_start), min(r.end, u_end), 1, r) for r in spans]
    items.sort(key=lambda item: (item[0], -item[1], item[2]))
    out: list[str] = []
    stack: list[tuple[int, str]] = []
    pos = u_start
    for start, end, _kind, row in items:
        while stack and stack[-1][0] <= start:
            close_at, tag = stack.pop()
            out.append(escape(text[pos:close_at]) + tag)
            pos = close_at
        if stack:
            end = min(end, stack[-1][0])
        start = max(start, pos)
        if end <= start:
            continue
        out.append(escape(text[pos:start]))
        pos = start
        if row is None:
            out.append('<span class="spk">')
            stack.append((end, "</span>"))
        else:
            out.append(_mark_open(row, filters, focus))
            stack.append((end, "</mark>"))
    while stack:
        close_at, tag = stack.pop()
        out.append(escape(text[pos:close_at]) + tag)
        pos = close_at
    out.append(escape(text[pos:u_end]))
    return "".join(out)


def line_pseudonymized_html(
    text: str,
    utterance: Utterance,
    spans: list[SpanRow],
    replacements: dict[int, tuple[int, int, str]],
) -> str:
    """The same line with every replaced span as ``<span class="rep" data-span-id data-ref>``."""
    u_start, u_end = utterance.start, utterance.end
    speaker_end = _speaker_end(text, utterance)
    out: list[str] = []
    pos = u_start
    spk_open = False
    if speaker_end:
        out.append('<span class="spk">')
        spk_open = True
    for row in spans:
        if row.id not in replacements:
            continue
        r_start, r_end, replacement = replacements[row.id]
        if r_start < pos or r_start < u_start or r_end > u_end:
            continue
        if spk_open and r_start >= speaker_end:
            out.append(escape(text[pos:speaker_end]) + "</span>")
            pos, spk_open = speaker_end, False
        out.append(escape(text[pos:r_start]))
        out.append(
            format_html(
                '<span class="rep lab-{} st-{}" id="p-{}" data-span-id="{}" data-ref="{}"'
                ' data-label="{}" title="{}">{}</span>',
                row.label,
                row.status,
                row.id,
                row.id,
                row.ref,
                row.label,
                f"{row.ref or row.label} · {row.status}",
                replacement,
            )  # fmt: skip
        )
        pos = r_end
        if spk_open and pos >= speaker_end:
            out.append("</span>")
            spk_open = False
    if spk_open:
        out.append(escape(text[pos:speaker_end]) + "</span>")
        pos = speaker_end
    out.append(escape(text[pos:u_end]))
    return "".join(out)


class Line:
    def __init__(self, utterance: Utterance, original: str, pseudonymized: str, page_break: bool):
        self.utterance = utterance
        self.original = original
        self.pseudonymized = pseudonymized
        self.page_break = page_break


def build_lines(
    *,
    transcript: Transcript,
    utterances: list[Utterance],
    rows: list[SpanRow],
    filters: ReviewFilters,
    focus: int | None = None,
    page_breaks: bool = True,
) -> list[Line]:
    text = transcript.text
    starts = [r.start for r in rows]
    inside: list[list[SpanRow]] = []
    for utterance in utterances:  # spans starting inside the utterance (none crosses one)
        inside.append(
            rows[bisect_left(starts, utterance.start) : bisect_left(starts, utterance.end)]
        )
    rendered = [r for group in inside for r in group]
    selectors.review_fill_provenance(rendered)
    replacements = selectors.review_replacements(transcript=transcript, rows=rendered)
    lines = []
    last_page = None
    for utterance, spans in zip(utterances, inside, strict=True):
        lines.append(
            Line(
                utterance,
                line_original_html(text, utterance, spans, filters, focus),
                line_pseudonymized_html(text, utterance, spans, replacements),
                page_breaks and utterance.page != last_page,
            )
        )
        last_page = utterance.page
    return lines


def entity_row_html(entity: selectors.EntityRow) -> str:
    """One entry of ``#entities``: ``PERSON_3 — “Doe” ×41, spelled ×2`` and its status.

    Plain string building (``html.escape``): the list has hundreds of entries and is sent
    with every action.
    """
    esc = html.escape
    forms = ", ".join(f"\u201c{esc(form)}\u201d\u00a0\u00d7{n}" for form, n in entity.forms[:3])
    if len(entity.forms) > 3:
        forms += ", \u2026"
    if entity.spelled:
        forms += f", spelled\u00a0\u00d7{entity.spelled}"
    status = f"{entity.undecided} open" if entity.undecided else "\u2713"
    ref = esc(entity.ref)
    return mark_safe(
        f'<li class="ent st-{entity.status}" id="e-{ref}" data-ref="{ref}"'
        f' data-first-span="{entity.first_span_id}" data-page="{entity.first_page}" tabindex="0">'
        f'<a class="ent-ref" href="?span={entity.first_span_id}">{ref}</a>'
        f'<span class="ent-forms">\u2014 {forms}</span>'
        f'<span class="ent-status" title="{entity.decided} of {entity.mentions} decided">'
        f"{status}</span></li>"
    )


# --- context -------------------------------------------------------------------------


def _filters(request: HttpRequest) -> ReviewFilters:
    return ReviewFilters.from_params(request.POST if request.method == "POST" else request.GET)


def _int(value, default=None):
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _inspector_context(transcript: Transcript, rows: list[SpanRow], span_id: int | None) -> dict:
    row = next((r for r in rows if r.id == span_id), None) if span_id else None
    if row is None:
        return {"focus": None}
    selectors.review_fill_provenance([row])
    same_label = [
        (r.ref, r.entity_id) for r in rows if r.label == row.label and r.ref and r.ref != row.ref
    ]
    targets = sorted(set(same_label), key=lambda t: selectors._ref_key(t[0]))
    group = [r for r in rows if r.entity_id == row.entity_id] if row.entity_id else []
    others = len(services.occurrences(transcript.text, row.text)) - 1
    return {
        "focus": row,
        "merge_targets": targets,
        "group_size": len(group),
        "group_open": sum(1 for r in group if not r.decided),
        "occurrences": max(others, 0),
    }


def _groups(rows: list[SpanRow], filters: ReviewFilters) -> list[selectors.LabelGroup]:
    groups = selectors.review_entities(rows=rows, filters=filters if filters.active else None)
    for group in groups:
        for entity in group.entities:
            entity.html = entity_row_html(entity)
    return groups


def _page_context(request, transcript, *, rows, filters, focus=None, lists=True) -> dict:
    """Context of the page and its fragments; ``lists=False`` skips the entity list, the
    progress and the queue (the inspector alone needs none of them)."""
    refusal = services.review_edit_refusal(transcript=transcript, user=request.user)
    context = {
        "transcript": transcript,
        "filters": filters,
        "filter_query": filters.as_query(),
        "labels": LABELS,
        "key_labels": KEY_LABELS,
        "can_edit": refusal is None,
        "refusal": refusal,
        "can_resume": refusal is not None
        and transcript.state == Transcript.State.RETURNED
        and transcript.assignees.filter(pk=request.user.pk).exists(),
        **_inspector_context(transcript, rows, focus),
    }
    if lists:
        context.update(
            {
                "progress": selectors.review_progress(rows=rows),
                "groups": _groups(rows, filters),
                "queue_json": json.dumps(selectors.review_queue(rows=rows, filters=filters)),
            }
        )
    return context


# --- pages ---------------------------------------------------------------------------


@require_GET
def review_page(request: HttpRequest, transcript_id: int) -> HttpResponse:
    """The workspace: first window (or the one holding ``?span=``), the rest lazily."""
    transcript = _transcript(request, transcript_id)
    filters = _filters(request)
    rows = selectors.review_span_rows(transcript=transcript, provenance=bool(filters.detector))
    windows = selectors.review_windows(transcript=transcript)
    focus = _int(request.GET.get("span"))
    page = _int(request.GET.get("page"))
    focus_row = next((r for r in rows if r.id == focus), None)
    if focus_row is not None:
        page = focus_row.page
    open_window = selectors.review_window_of_page(windows=windows, page=page) if page else 0
    lines = []
    if windows:
        utterances = selectors.review_utterances(
            transcript=transcript, pages=windows[open_window].pages
        )
        lines = build_lines(
            transcript=transcript, utterances=utterances, rows=rows,
            filters=filters, focus=focus,
        )  # fmt: skip
    context = _page_context(request, transcript, rows=rows, filters=filters, focus=focus)
    context.update(
        {
            "windows": windows,
            "detectors": selectors.review_detectors(transcript=transcript),
            "open_window": open_window,
            "lines": lines,
            "windows_json": json.dumps([[w.index, w.pages] for w in windows]),
        }
    )
    return render(request, "annotations/review.html", context)


@require_GET
def review_window(request: HttpRequest, transcript_id: int, window: int) -> HttpResponse:
    """One window of pages: the original pane's section, the pseudonymized one out of band."""
    transcript = _transcript(request, transcript_id)
    windows = selectors.review_windows(transcript=transcript)
    if window >= len(windows):
        raise Http404("No such window.")
    filters = _filters(request)
    rows = selectors.review_span_rows(transcript=transcript, provenance=bool(filters.detector))
    utterances = selectors.review_utterances(transcript=transcript, pages=windows[window].pages)
    lines = build_lines(
        transcript=transcript, utterances=utterances, rows=rows,
        filters=filters, focus=_int(request.GET.get("focus")),
    )  # fmt: skip
    return render(
        request,
        "annotations/review.html#window-pair",
        {"w": windows[window], "lines": lines, "transcript": transcript},
    )


@require_GET
def review_inspector(request: HttpRequest, transcript_id: int) -> HttpResponse:
    transcript = _transcript(request, transcript_id)
    filters = _filters(request)
    rows = selectors.review_span_rows(transcript=transcript, provenance=bool(filters.detector))
    context = _page_context(
        request,
        transcript,
        rows=rows,
        filters=filters,
        focus=_int(request.GET.get("span")),
        lists=False,
    )
    return render(request, "annotations/review.html#inspector", context)


# --- actions -------------------------------------------------------------------------


def _do(request: HttpRequest, transcript: Transcript, action: str):
    """Call the service for ``action``; returns (message, focus span id or None)."""
    post = request.POST
    actor = request.user
    span_id = _int(post.get("span"))
    version = _int(post.get("version"))
    if (
        action in {"accept", "reject", "delete", "resize", "relabel", "apply_all"}
        and span_id is None
    ):
        raise services.ReviewError("Choose a span first.")
    if span_id is not None and not Span.objects.filter(pk=span_id, transcript=transcript).exists():
        raise services.SpanConflict("This span no longer exists: someone deleted it.")
    if action == "accept":
        span = services.span_accept(span=span_id, actor=actor, version=version)
        return f"Accepted {span.label}.", span.pk
    if action == "reject":
        span = services.span_reject(span=span_id, actor=actor, version=version)
        return "Rejected: not replaced.", span.pk
    if action == "relabel":
        spans = services.span_relabel(
            span=span_id, actor=actor, version=version, label=post.get("label", "")
        )
        return f"Relabelled as {spans[0].label}.", spans[0].pk
    if action == "resize":
        span = services.span_resize(
            span=span_id, actor=actor, version=version,
            edge=post.get("edge") or post.get("edge_shrink"), grow="edge_shrink" not in post,
            start=_int(post.get("start")), end=_int(post.get("end")),
        )  # fmt: skip
        return "Resized.", span.pk
    if action == "delete":
        services.span_delete(span=span_id, actor=actor, version=version)
        return "Deleted the span.", None
    if action == "add":
        spans = services.span_add(
            transcript=transcript, actor=actor, label=post.get("label", ""),
            start=_int(post.get("start"), -1), end=_int(post.get("end"), -1),
        )  # fmt: skip
        parts = f" ({len(spans)} name parts)" if len(spans) > 1 else ""
        return f"Added {spans[0].label}{parts}.", spans[0].pk
    if action == "merge":
        target = services.entity_merge(
            transcript=transcript, source=post.get("source", ""), target=post.get("target", ""),
            actor=actor,
        )  # fmt: skip
        return f"Merged {post.get('source')} into {target.ref}.", span_id
    if action == "split":
        span = get_object_or_404(Span, pk=span_id, transcript=transcript)
        if span.entity_id is None:
            raise services.ReviewError("This span has no group to split from.")
        new = services.entity_split(
            transcript=transcript, entity=span.entity_id, spans=[span_id], actor=actor
        )
        return f"Split off as {new.ref}.", span_id
    if action == "apply_all":
        created = services.span_apply_to_all(span=span_id, actor=actor, version=version)
        if not created:
            return "Every occurrence is already annotated.", span_id
        return f"{len(created)} new suggestions to review at the other occurrences.", span_id
    if action == "accept_all":
        spans = services.spans_accept_all(
            transcript=transcript, actor=actor, label=post.get("label") or None,
            entity=post.get("entity") or None,
        )  # fmt: skip
        return f"Accepted {len(spans)} suggestions.", span_id
    if action == "undo":
        event = services.review_undo(transcript=transcript, actor=actor)
        restored = event.after.get("spans") or []
        focus = restored[0]["id"] if restored else span_id
        return f"Undid {event.after.get('action', 'the last action').replace('_', ' ')}.", focus
    raise Http404("Unknown action.")


def _needs_confirmation(request, action) -> bool:
    return action == "accept_all" and request.POST.get("confirm") != "yes"


def _affected_offsets(transcript: Transcript, actor, since_id: int) -> set[int]:
    offsets = set()
    for before, after in AuditEvent.objects.filter(
        transcript=transcript, actor=actor, pk__gt=since_id
    ).values_list("before", "after"):
        for side in (before, after):
            for snap in (side or {}).get("spans", []) or []:
                offsets.add(snap["start"])
    return offsets


def _loaded_pages(request, windows) -> list[int]:
    loaded = {_int(x) for x in request.POST.get("loaded", "").split(",") if x.strip()}
    return [p for w in windows if w.index in loaded for p in w.pages]


def _fragments(request, transcript, *, offsets, message, level="ok", focus=None, status=200):
    """The out-of-band answer to an htmx action."""
    transcript.refresh_from_db(fields=["state"])
    filters = _filters(request)
    rows = selectors.review_span_rows(transcript=transcript, provenance=bool(filters.detector))
    windows = selectors.review_windows(transcript=transcript)
    pages = _loaded_pages(request, windows)
    lines = []
    if offsets and pages:
        utterances = [
            u
            for u in selectors.review_utterances(transcript=transcript, pages=pages)
            if any(u.start <= o < max(u.end, u.start + 1) for o in offsets)
        ]
        lines = build_lines(
            transcript=transcript, utterances=utterances, rows=rows,
            filters=filters, focus=focus, page_breaks=False,
        )  # fmt: skip
    context = _page_context(request, transcript, rows=rows, filters=filters, focus=focus)
    context.update({"lines": lines, "message": message, "level": level})
    return render(request, "annotations/review.html#action-response", context, status=status)


@require_POST
def review_action(request: HttpRequest, transcript_id: int, action: str) -> HttpResponse:
    transcript = _transcript(request, transcript_id)
    if action not in ACTIONS:
        raise Http404("Unknown action.")
    page_url = reverse("annotations:review", args=[transcript.pk])
    if action == "resume":
        try:
            services.review_resume(transcript=transcript, actor=request.user)
            messages.success(request, "Review resumed: you can change spans again.")
        except (TransitionError, services.ReviewError) as exc:
            messages.error(request, str(exc))
        return redirect(page_url)
    if _needs_confirmation(request, action):
        return render(
            request,
            "annotations/review.html#confirm-page",
            {"transcript": transcript, "post": request.POST.items(), "action": action},
        )
    since = AuditEvent.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    status, level = 200, "ok"
    focus = _int(request.POST.get("span"))
    try:
        message, focus = _do(request, transcript, action)
    except services.SpanConflict as exc:
        message, status, level = str(exc), 409, "error"
        offsets = {s.start for s in exc.spans}
        if focus is not None:
            offsets |= set(Span.objects.filter(pk=focus).values_list("start", flat=True))
        if not request.htmx:
            messages.error(request, message)
            return redirect(f"{page_url}?span={focus or ''}")
        return _fragments(
            request, transcript, offsets=offsets, message=message, level=level,
            focus=focus, status=status,
        )  # fmt: skip
    except services.ReviewError as exc:
        status = 403 if isinstance(exc, services.ReviewPermissionError) else 400
        if not request.htmx:
            messages.error(request, str(exc))
            return redirect(f"{page_url}?span={focus or ''}")
        return _fragments(
            request, transcript, offsets=set(), message=str(exc), level="error",
            focus=focus, status=status,
        )  # fmt: skip
    if not request.htmx:
        messages.success(request, message)
        query = request.POST.get("filters", "")
        return redirect(f"{page_url}?{query}&span={focus or ''}")
    offsets = _affected_offsets(transcript, request.user, since)
    return _fragments(request, transcript, offsets=offsets, message=message, focus=focus)
