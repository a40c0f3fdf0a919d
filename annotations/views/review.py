"""The review workspace: one page, lazily loaded windows, and htmx POST actions.

Every action is a POST that calls one service and answers with out-of-band fragments
only: the changed utterance lines in both panes, the entity list, the progress counter,
the navigation queue, the inspector and a message. Without htmx the same POST redirects
back to the page (plain form fallback). A stale ``version`` answers 409 with the
refreshed fragments and a message.
"""

import json
import logging
import time

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRefresh

from annotations import locking, selectors
from annotations.models import Span
from annotations.services import review as services
from annotations.services.review.bulk import normalize_form
from annotations.views.review_context import (
    answer_context,
    int_or,
    page_context,
    review_filters,
)
from annotations.views.review_lines import build_lines
from transcripts.models import Transcript
from transcripts.services.workflow import TransitionError

logger = logging.getLogger(__name__)

ACTIONS = (
    "accept", "reject", "relabel", "resize", "add", "delete", "merge", "split",
    "apply_all", "accept_all", "undo", "resume", "flag",
    "accept_form", "reject_form", "relabel_form", "reject_all", "accept_page", "confirm_carried",
)  # fmt: skip
# Decisions on many spans: one undo step each; the answer's toast offers undo.
BULK = frozenset(
    {
        "accept_all", "accept_form", "reject_form", "relabel_form", "reject_all", "accept_page",
        "confirm_carried",
    }
)  # fmt: skip
# Actions on one span: each needs the span's version (optimistic locking).
VERSIONED = frozenset(
    {"accept", "reject", "relabel", "resize", "delete", "apply_all", "split", "flag"}
)


def _transcript(request: HttpRequest, transcript_id: int) -> Transcript:
    return get_object_or_404(Transcript.objects.visible_to(request.user), pk=transcript_id)


# --- pages ---------------------------------------------------------------------------


@require_GET
def review_page(request: HttpRequest, transcript_id: int) -> HttpResponse:
    """The workspace: first window (or the one holding ``?span=``), the rest lazily."""
    transcript = _transcript(request, transcript_id)
    filters = review_filters(request)
    rows = selectors.review_span_rows(transcript=transcript, provenance=bool(filters.detector))
    windows = selectors.review_windows(transcript=transcript)
    focus = int_or(request.GET.get("span"))
    page = int_or(request.GET.get("page"))
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
    context = page_context(request, transcript, rows=rows, filters=filters, focus=focus)
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
    filters = review_filters(request)
    rows = selectors.review_span_rows(transcript=transcript, provenance=bool(filters.detector))
    utterances = selectors.review_utterances(transcript=transcript, pages=windows[window].pages)
    lines = build_lines(
        transcript=transcript, utterances=utterances, rows=rows,
        filters=filters, focus=int_or(request.GET.get("focus")),
    )  # fmt: skip
    return render(
        request,
        "annotations/review.html#window-pair",
        {"w": windows[window], "lines": lines, "transcript": transcript,
         "filter_query": filters.as_query()},
    )  # fmt: skip


@require_GET
def review_inspector(request: HttpRequest, transcript_id: int) -> HttpResponse:
    transcript = _transcript(request, transcript_id)
    filters = review_filters(request)
    rows = selectors.review_span_rows(transcript=transcript, provenance=bool(filters.detector))
    context = page_context(
        request,
        transcript,
        rows=rows,
        filters=filters,
        focus=int_or(request.GET.get("span")),
        lists=False,
    )
    context["lean"] = bool(request.htmx)  # the page's JS sends its CSRF token in a header
    return render(request, "annotations/review.html#inspector", context)


@require_GET
def review_merge_preview(request: HttpRequest, transcript_id: int) -> HttpResponse:
    """The merge confirmation: both groups with their surface forms, then Merge/Cancel."""
    transcript = _transcript(request, transcript_id)
    rows = selectors.review_span_rows(transcript=transcript)
    entities = {e.ref: e for g in selectors.review_entities(rows=rows) for e in g.entities}
    source = entities.get(request.GET.get("source", ""))
    target = entities.get(request.GET.get("target", ""))
    if source is None or target is None:
        raise Http404("No such reference group.")
    return render(
        request,
        "annotations/review.html#merge-confirm",
        {"source": source, "target": target, "span": int_or(request.GET.get("span"))},
    )


# --- actions -------------------------------------------------------------------------


def _shown_form(transcript, spans, form: str) -> str:
    """The form as the transcript writes it at its first mention (the POST carries the
    case-folded key: "quill" for "Quill"); PERSON mentions may have been split in parts, so
    the text is read from the first part's start for the form's length."""
    if not spans:
        return form
    start = min(s.start for s in spans)
    shown = transcript.text[start : start + len(form)]
    return shown if normalize_form(shown) == normalize_form(form) else form


def _do(request: HttpRequest, transcript: Transcript, action: str):
    """Call the service for ``action``; returns (message, focus span id or None)."""
    post = request.POST
    actor = request.user
    span_id = int_or(post.get("span"))
    if (
        action in {"accept", "reject", "delete", "resize", "relabel", "apply_all", "flag"}
        and span_id is None
    ):
        raise services.ReviewError("Choose a span first.")
    version = locking.parse_version(post.get("version")) if action in VERSIONED else None
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
            start=int_or(post.get("start")), end=int_or(post.get("end")),
        )  # fmt: skip
        return "Resized.", span.pk
    if action == "delete":
        services.span_delete(span=span_id, actor=actor, version=version)
        return "Deleted the span.", None
    if action == "add":
        spans = services.span_add(
            transcript=transcript, actor=actor, label=post.get("label", ""),
            start=int_or(post.get("start"), -1), end=int_or(post.get("end"), -1),
        )  # fmt: skip
        parts = f" ({len(spans)} name parts)" if len(spans) > 1 else ""
        return f"Added {spans[0].label}{parts}.", spans[0].pk
    if action == "merge":
        source, target = post.get("source", ""), post.get("target", "")
        versions = locking.parse_group_versions(
            post.getlist("group_version"), required=[source, target]
        )
        target = services.entity_merge(
            transcript=transcript, source=source, target=target, actor=actor, versions=versions
        )
        return f"Merged {post.get('source')} into {target.ref}.", span_id
    if action == "split":
        span = get_object_or_404(Span, pk=span_id, transcript=transcript)
        if span.entity_id is None:
            raise services.ReviewError("This span has no group to split from.")
        if post.get("form"):
            ref = span.entity.ref
            versions = locking.parse_group_versions(post.getlist("group_version"), required=[ref])
            new = services.entity_split_form(
                transcript=transcript, entity=span.entity_id, form=post["form"], actor=actor,
                versions=versions,
            )  # fmt: skip
            return f"Split every “{post['form']}” off as {new.ref}.", span_id
        new = services.entity_split(
            transcript=transcript, entity=span.entity_id, spans=[span_id], actor=actor,
            versions={span_id: version},
        )  # fmt: skip
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
    if action in {"accept_form", "reject_form"}:
        service = (
            services.spans_accept_form if action == "accept_form" else services.spans_reject_form
        )
        form = post.get("form", "")
        spans = service(transcript=transcript, actor=actor, label=post.get("label", ""), form=form)
        verb = "Accepted" if action == "accept_form" else "Rejected"
        shown = transcript.text[spans[0].start : spans[0].end] if spans else form
        return f"{verb} every “{shown}” ({len(spans)}).", span_id
    if action == "relabel_form":
        to = post.get("to", "")
        form = post.get("form", "")
        spans = services.spans_relabel_form(
            transcript=transcript, actor=actor, label=post.get("label", ""), form=form, to=to
        )
        shown = _shown_form(transcript, spans, form)
        return f"Relabelled every “{shown}” as {to} ({len(spans)} spans).", span_id
    if action == "confirm_carried":
        form = post.get("form", "")
        spans = services.spans_confirm_carried(
            transcript=transcript, actor=actor, label=post.get("label", ""), form=form
        )
        what = f"of “{_shown_form(transcript, spans, form)}”" if form else f"of {post.get('label')}"
        return f"Confirmed the carried decisions {what} ({len(spans)} spans).", span_id
    if action == "reject_all":
        spans = services.spans_reject_all(
            transcript=transcript, actor=actor, entity=post.get("entity") or ""
        )
        return f"Rejected {len(spans)} suggestions of {post.get('entity')}.", span_id
    if action == "accept_page":
        page = int_or(post.get("page"))
        if page is None:
            raise services.ReviewError("Choose a page.")
        spans = services.spans_accept_page(transcript=transcript, actor=actor, page=page)
        return f"Accepted the {len(spans)} undecided suggestions of page {page}.", span_id
    if action == "flag":
        flagged = post.get("flagged") in {"1", "on", "true"}
        span = services.span_flag(
            span=span_id, actor=actor, version=version, flagged=flagged, note=post.get("note", "")
        )
        return ("Flagged for the lead." if flagged else "Flag removed."), span.pk
    if action == "undo":
        event = services.review_undo(transcript=transcript, actor=actor)
        restored = event.after.get("spans") or []
        focus = restored[0]["id"] if restored else span_id
        return f"Undid {event.after.get('action', 'the last action').replace('_', ' ')}.", focus
    raise Http404("Unknown action.")


def _needs_confirmation(request, transcript, action) -> bool:
    """A bulk action asks first only when it would decide more than
    ``CONFIRM_ABOVE`` spans; smaller ones are undone from the toast."""
    if action not in BULK or request.POST.get("confirm") == "yes":
        return False
    size = services.bulk_size(transcript=transcript, action=action, post=request.POST)
    return size > services.CONFIRM_ABOVE


def _answer(
    request, transcript, *, touched, message, level="ok", focus=None, status=200, undo=False
):
    """The out-of-band answer to an htmx action: only what changed (``undo``: the toast
    offers to undo it)."""
    context = answer_context(
        request, transcript, touched=touched, filters=review_filters(request), focus=focus
    )
    context.update({"message": message, "level": level, "toast_undo": undo})
    return render(request, "annotations/review.html#action-response", context, status=status)


@require_POST
def review_action(request: HttpRequest, transcript_id: int, action: str) -> HttpResponse:
    """One action; its answer carries ``Server-Timing: app;dur=MS`` (the view's own time,
    read by ``bench_review --browser``)."""
    started = time.perf_counter()
    response = _review_action(request, transcript_id, action)
    response["Server-Timing"] = f"app;dur={(time.perf_counter() - started) * 1000:.1f}"
    return response


def _review_action(request: HttpRequest, transcript_id: int, action: str) -> HttpResponse:
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
    if _needs_confirmation(request, transcript, action):
        return render(
            request,
            "annotations/review.html#confirm-page",
            {"transcript": transcript, "post": request.POST.items(), "action": action},
        )
    focus = int_or(request.POST.get("span"))
    query = review_filters(request).as_query()
    try:
        with services.review_touched() as touched:  # the services report what they changed
            message, focus = _do(request, transcript, action)
    except locking.VersionError as exc:
        if not request.htmx:
            return HttpResponse(str(exc), status=400, content_type="text/plain; charset=utf-8")
        return _answer(
            request, transcript, touched=services.Touched(),  # refused before any change
            message=str(exc), level="error", focus=focus, status=400,
        )  # fmt: skip
    except services.ReviewError as exc:
        conflict = isinstance(exc, services.SpanConflict)
        status = (
            409 if conflict else 403 if isinstance(exc, services.ReviewPermissionError) else 400
        )
        if not request.htmx:
            messages.error(request, str(exc))
            return redirect(f"{page_url}?{query}&span={focus or ''}")
        touched = services.Touched()  # the failed action rolled back: it changed nothing
        if conflict:
            touched.spans |= {s.pk for s in exc.spans}
            touched.offsets |= {s.start for s in exc.spans}
            touched.labels |= {s.label for s in exc.spans}
            touched.entities |= {s.entity_id for s in exc.spans if s.entity_id}
        if focus is not None and conflict:
            for start, label in Span.objects.filter(pk=focus).values_list("start", "label"):
                touched.spans.add(focus)
                touched.offsets.add(start)
                touched.labels.add(label)
        return _answer(
            request, transcript, touched=touched, message=str(exc), level="error",
            focus=focus, status=status,
        )  # fmt: skip
    if not request.htmx:
        messages.success(request, message)
        return redirect(f"{page_url}?{query}&span={focus or ''}")
    try:
        return _answer(
            request, transcript, touched=touched, message=message, focus=focus,
            undo=action in BULK,
        )  # fmt: skip
    except Exception:  # the action is saved: never answer as if nothing changed
        logger.exception("review answer failed after %s on transcript %s", action, transcript.pk)
        messages.success(request, message)
        return HttpResponseClientRefresh()
