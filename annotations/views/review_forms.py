"""The surface-form table: per label, its distinct surface forms with counts and context;
one input accepts or rejects every mention of a form.

The page is keyboard-driven (``static/js/review_forms.js``): ``j``/``k`` move between
forms, ``a``/``x`` decide the focused form and move on, ``A`` accepts the rest of the
label, ``o`` shows every occurrence, ``u`` undoes. Its actions go through the review's
action dispatcher and services; the answer redraws only the forms they touched.
"""

import hashlib
import json

from django.contrib import messages
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from annotations import locking, selectors
from annotations.models import Span
from annotations.selectors.forms import (
    FormRow,
    LabelTab,
    form_alternatives,
    form_widenings,
    review_form_table,
    review_form_tabs,
)
from annotations.services import review as services
from annotations.services.review.bulk import normalize_form
from annotations.views.review import BULK, _do, _needs_confirmation, _transcript
from annotations.views.review_context import LABEL_KEYS, int_or

FORM_ACTIONS = frozenset(
    {"accept_form", "reject_form", "relabel_form", "accept_all", "confirm_carried", "undo"}
)
# Decisions on one occurrence of a form (its list, ``o``, or a row's one open mention):
# the review's span services, with the span's version (a stale one answers 409 and
# redraws the row); ``resize`` widens or shrinks it by a word (``edge``/``edge_shrink``).
OCCURRENCE_ACTIONS = frozenset({"accept", "reject", "relabel", "resize"})


def form_id(label: str, key: str) -> str:
    """A stable element id for a (label, form) row."""
    return "f-" + hashlib.sha1(f"{label}\0{key}".encode(), usedforsecurity=False).hexdigest()[:12]


def _decorate(table: dict, transcript) -> None:
    form_alternatives(transcript=transcript, table=table)
    form_widenings(transcript=transcript, table=table)
    for forms in table.values():
        for form in forms:
            form.element_id = form_id(form.label, form.key)


def _urls(transcript) -> dict:
    """The table's addresses, reversed once: each row's forms and links reversed them
    again (578 reversals, about a third of a 3,000-span table's rendering)."""
    return {
        "forms_actions": reverse("annotations:review-forms-action", args=[transcript.pk, "_"])[:-2],
        "occurrences_url": reverse("annotations:review-forms-occurrences", args=[transcript.pk]),
        "review_url": reverse("annotations:review", args=[transcript.pk]),
    }


def _context(request, transcript, table, label) -> dict:
    refusal = services.review_edit_refusal(transcript=transcript, user=request.user)
    rows = [f for forms in table.values() for f in forms]
    tabs = review_form_tabs(table)
    if label and label not in table:  # its last forms moved to another label: done
        tabs.append(LabelTab(label=label, forms=0, mentions=0, open=0))
    return {
        "transcript": transcript,
        "tabs": tabs,
        "label": label,
        "forms": table.get(label, []),
        "can_edit": refusal is None,
        "refusal": refusal,
        "confirm_above": services.CONFIRM_ABOVE,
        "carried_open": sum(f.carried_pending for f in table.get(label, [])),
        "label_keys": LABEL_KEYS,
        "label_keys_json": json.dumps(dict(LABEL_KEYS)),
        "progress": selectors.Progress(
            decided=sum(f.count - f.open for f in rows), total=sum(f.count for f in rows)
        ),
        **_urls(transcript),
    }


@require_GET
def review_merge_targets(request: HttpRequest, transcript_id: int) -> HttpResponse:
    """The inspector's merge form with every other group of the focused span's label
    (loaded on demand, so that the inspector answers a few KB on each focus change)."""
    from annotations.views.review_context import page_context, review_filters

    transcript = _transcript(request, transcript_id)
    filters = review_filters(request)
    rows = selectors.review_span_rows(transcript=transcript)
    context = page_context(
        request, transcript, rows=rows, filters=filters,
        focus=int_or(request.GET.get("span")), lists=False,
    )  # fmt: skip
    if context.get("focus") is None:
        return HttpResponse("No such span.", status=404)
    return render(request, "annotations/review.html#merge-targets", context)


@require_GET
def review_forms(request: HttpRequest, transcript_id: int) -> HttpResponse:
    """The table of one label's surface forms (``?label=``; by default the first label
    with an undecided mention)."""
    transcript = _transcript(request, transcript_id)
    table = review_form_table(transcript=transcript)
    _decorate(table, transcript)
    label = request.GET.get("label", "")
    if label not in table:
        label = next((lb for lb, forms in table.items() if any(f.open for f in forms)), "")
        label = label or next(iter(table), "")
    context = _context(request, transcript, table, label)
    open_form = request.GET.get("open", "")  # without JavaScript: ▸ is a link
    context["open_form"] = open_form
    context["open_forms"] = {normalize_form(open_form)} if open_form else set()
    return render(request, "annotations/review_forms.html", context)


@require_GET
def review_forms_occurrences(request: HttpRequest, transcript_id: int) -> HttpResponse:
    """Every occurrence of one form (``?label=&form=``), loaded when the row is opened
    (``o`` or its ▸): the table itself carries only a context line per form."""
    transcript = _transcript(request, transcript_id)
    label, key = request.GET.get("label", ""), normalize_form(request.GET.get("form", ""))
    rows = selectors.review_span_rows(transcript=transcript, where=Q(label=label))
    table = review_form_table(transcript=transcript, rows=rows)
    form = next((f for f in table.get(label, []) if f.key == key), None)
    if form is None:
        return HttpResponse("No such form.", status=404)
    refusal = services.review_edit_refusal(transcript=transcript, user=request.user)
    return render(
        request,
        "annotations/review_forms.html#fm-occurrences",
        {
            "transcript": transcript,
            "f": form,
            "label": label,
            "can_edit": refusal is None,
            **_urls(transcript),
        },
    )


@require_POST
def review_forms_action(request: HttpRequest, transcript_id: int, action: str) -> HttpResponse:
    """Accept or reject a form, accept the rest of a label, or undo; the htmx answer
    redraws the touched forms, the label tabs, the counter and a toast (with undo)."""
    transcript = _transcript(request, transcript_id)
    label = request.GET.get("label", "") or request.POST.get("label", "")
    page_url = reverse("annotations:review-forms", args=[transcript.pk]) + f"?label={label}"
    if action not in FORM_ACTIONS | OCCURRENCE_ACTIONS:
        return HttpResponse("Unknown action.", status=404)
    if _needs_confirmation(request, transcript, action):
        return render(
            request,
            "annotations/review.html#confirm-page",
            {"transcript": transcript, "post": request.POST.items(), "action": action},
        )
    status, level = 200, "ok"
    try:
        with services.review_touched() as touched:
            message, _focus = _do(request, transcript, action)
    except (services.ReviewError, locking.VersionError) as exc:
        message, level, touched = str(exc), "error", services.Touched()
        status = 403 if isinstance(exc, services.ReviewPermissionError) else 400
        if isinstance(exc, services.SpanConflict):  # a race: redraw what the other did
            status = 409
            for span in exc.spans:
                touched.states.setdefault(span.pk, set()).add(
                    (span.start, span.end, span.label, span.status)
                )
    if not request.htmx:
        (messages.success if level == "ok" else messages.error)(request, message)
        return redirect(page_url)
    table = review_form_table(transcript=transcript)
    _decorate(table, transcript)
    text = transcript.text
    keys: dict[tuple[str, str], str] = {}  # (label, form) -> the form as first written
    for states in touched.states.values():
        for start, end, span_label, _status in states:
            keys.setdefault((span_label, normalize_form(text[start:end])), text[start:end])
    # the rows whose occurrence list is open stay open in the answer (a decision on one
    # occurrence redraws its row with the list and the next occurrence to decide)
    open_forms = {
        normalize_form(k) for v in request.POST.getlist("open") for k in v.split("\n") if k
    }
    changed = [f for forms in table.values() for f in forms if (f.label, f.key) in keys]
    present = {(f.label, f.key) for f in changed}
    resized = _resized(transcript, action, level, touched)
    # A form whose every mention moved to another label stays in the table as "moved"
    # (same row id): an undo redraws it in place, and keys typed meanwhile still reach it.
    for lb, key in sorted(keys.keys() - present):
        if lb == label:
            to = {
                "relabel_form": request.POST.get("to", ""),
                "relabel": request.POST.get("label", ""),
            }.get(action, "")
            # (the proposal stays on the row: an ``r`` typed before an undo's answer uses it)
            moved = FormRow(label=lb, key=key, form=keys[lb, key], alternative=to, moved_to=to)
            moved.element_id = form_id(lb, key)
            if resized:
                moved.moved_as = resized[2]
            changed.append(moved)
    if resized:  # the widened form, new to the page: its row right after the old one
        for f in changed:
            if (f.label, f.key) == (label, normalize_form(resized[2])) and {
                o.span_id for o in f.occurrences
            } <= touched.spans:
                f.insert_after = form_id(label, normalize_form(resized[1]))
    context = _context(request, transcript, table, label)
    context.update(
        {
            "changed": changed,
            "message": message,
            "level": level,
            "toast_undo": level == "ok" and (action in BULK or action in OCCURRENCE_ACTIONS),
            "touched_count": len(touched.spans),
            "open_forms": open_forms,
        }
    )
    return render(request, "annotations/review_forms.html#forms-answer", context, status=status)


def _resized(transcript, action: str, level: str, touched) -> tuple[int, str, str] | None:
    """(span id, its words before, its words now) of a resize that moved one span to
    another form, else None."""
    if action != "resize" or level != "ok" or len(touched.spans) != 1:
        return None
    [span_id] = touched.spans
    span = Span.objects.filter(pk=span_id).values_list("start", "end").first()
    states = touched.states.get(span_id, set())
    if span is None or not states:
        return None
    text = transcript.text
    now = text[span[0] : span[1]]
    before = next((text[a:b] for a, b, _l, _s in states if (a, b) != span), None)
    if before is None or normalize_form(before) == normalize_form(now):
        return None
    return span_id, before, now
