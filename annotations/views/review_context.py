"""What the review templates show: the page's context, the inspector's, and the small
answer to an action (only what it changed).

Filters always come from the query string (``request.GET``), never from an action's
POST body: an action's own ``label`` (relabel, add, accept all) is not a filter.
"""

import json
from bisect import bisect_left, bisect_right

from django.http import HttpRequest
from django.utils.safestring import mark_safe

from annotations import selectors
from annotations.models import Span
from annotations.selectors import ReviewFilters, SpanRow
from annotations.services import review as services
from annotations.services.review import Touched
from annotations.views.review_lines import build_lines, span_patches
from engine.labels import LABELS
from transcripts.models import Transcript

KEY_LABELS = LABELS[:9]  # keys 1–9
# Every label on one key, shown on screen: 1–9 for the first nine, a letter (not one of
# the page's other keys) for the rest; a label the engine adds later gets the next free
# letter.
_LETTERS = {"HEIGHT": "h", "PHONE_NUMBER": "t", "EMAIL_ADDRESS": "e", "URL": "l", "NRP": "n"}
_SPARE = "bcdioqrsvwyz"


def label_keys(labels=LABELS) -> list[tuple[str, str]]:
    """``[(key, label), ...]`` for every label."""
    keys, spare = [], iter(_SPARE)
    for i, label in enumerate(labels):
        keys.append((str(i + 1) if i < 9 else _LETTERS.get(label) or next(spare), label))
    return keys


LABEL_KEYS = label_keys()


def review_filters(request: HttpRequest) -> ReviewFilters:
    """The view's filters: from the query string only (also on POST)."""
    return ReviewFilters.from_params(request.GET)


def int_or(value, default=None):
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def inspector_context(transcript: Transcript, rows: list[SpanRow], span_id: int | None) -> dict:
    """The focused span, its group, named merge targets, proposed merge candidates, the
    group's spelling variants (each can be split out at once) and the occurrences of its
    text that have no span yet."""
    row = next((r for r in rows if r.id == span_id), None) if span_id else None
    if row is None:
        return {"focus": None}
    selectors.review_fill_provenance([row])
    entities = {e.id: e for g in selectors.review_entities(rows=rows) for e in g.entities}
    targets = sorted(
        (e for e in entities.values() if e.label == row.label and e.id != row.entity_id),
        key=lambda e: selectors._ref_key(e.ref),
    )
    group = [r for r in rows if r.entity_id == row.entity_id] if row.entity_id else []
    own = entities.get(row.entity_id)
    candidates = selectors.review_merge_candidates(entity=own, others=targets) if own else []
    variants = selectors.review_spelling_variants(group) if own else []
    return {
        "focus": row,
        "note": Span.objects.filter(pk=row.id).values_list("lead_note", flat=True).first() or "",
        "focus_entity": own,
        "merge_targets": targets,
        "merge_candidates": candidates,
        "variants": variants,
        "group_size": len(group),
        "group_open": sum(1 for r in group if not r.decided),
        "occurrences": len(
            selectors.review_free_occurrences(text=transcript.text, row=row, rows=rows)
        ),
    }


def page_context(request, transcript, *, rows, filters, focus=None, lists=True) -> dict:
    """Context of the page and its fragments; ``lists=False`` skips the entity list, the
    progress and the queue (the inspector alone needs none of them)."""
    refusal = services.review_edit_refusal(transcript=transcript, user=request.user)
    context = {
        "transcript": transcript,
        "filters": filters,
        "filter_query": filters.as_query(),
        "labels": LABELS,
        "key_labels": KEY_LABELS,
        "label_keys": LABEL_KEYS,
        "label_keys_json": json.dumps(dict(LABEL_KEYS)),
        "confirm_above": services.CONFIRM_ABOVE,
        "can_edit": refusal is None,
        "refusal": refusal,
        "can_resume": refusal is not None
        and transcript.state == Transcript.State.RETURNED
        and transcript.assignees.filter(pk=request.user.pk).exists(),
        **inspector_context(transcript, rows, focus),
    }
    if lists:
        context.update(
            {
                "progress": selectors.review_progress(rows=rows),
                "groups": selectors.review_entities(
                    rows=rows, filters=filters if filters.active else None
                ),
                "queue_json": json.dumps(selectors.review_queue(rows=rows, filters=filters)),
                "minimap": selectors.review_minimap(rows=rows, pages=transcript.page_count),
            }
        )
    return context


# --- the answer to an action ---------------------------------------------------------


def _loaded_pages(request, windows) -> list[int]:
    loaded = {int_or(x) for x in request.POST.get("loaded", "").split(",") if x.strip()}
    return [p for w in windows if w.index in loaded for p in w.pages]


def _recounted_pages(touched: Touched, by_row: dict, page_rows: list[dict]) -> set[int]:
    """The pages whose minimap counts an action changed: where a span went from undecided
    to decided or back, appeared or went away (a merge, a relabel of a decided span or a
    flag changes no count). A span that is gone is placed by its snapshots' offsets."""
    firsts = sorted((p["first"], p["page"]) for p in page_rows)
    starts = [f for f, _p in firsts]

    def page_at(offset: int) -> int:
        return firsts[max(0, bisect_right(starts, offset) - 1)][1] if firsts else 0

    pages = set()
    for span_id in touched.spans:
        row = by_row.get(span_id)
        states = touched.states.get(span_id, set())
        decided = {status != "suggested" for *_rest, status in states}
        if row is not None:
            decided.add(row.decided)
        if len(decided) == 1 and span_id in touched.existed and row is not None:
            continue
        pages |= {page_at(start) for start, *_rest in states}
        if row is not None:
            pages.add(row.page)
    return pages


def _same_queue_entry(touched: Touched, span_id: int, row) -> bool:
    """Whether the span's j/k entry (page, decided, start; the score no action changes)
    is what it was: it was there before, is still there, kept its start and its
    decidedness. Only without filters (a filter may keep or drop it now)."""
    states = touched.states.get(span_id)
    if row is None or not states or span_id not in touched.existed:
        return False
    return {(start, status != "suggested") for start, _e, _l, status in states} == {
        (row.start, row.decided)
    }


def _holds_offset(u, offsets: list[int]) -> bool:
    """Whether utterance ``u`` holds one of the sorted ``offsets`` (an empty utterance
    holds its start); by bisection, not a pass per utterance (bulk answers)."""
    i = bisect_left(offsets, u.start)
    return i < len(offsets) and offsets[i] < max(u.end, u.start + 1)


def _in_utterances(offset: int, utterances: list, starts: list[int]) -> bool:
    i = bisect_right(starts, offset) - 1
    return i >= 0 and offset < max(utterances[i].end, utterances[i].start + 1)


def answer_context(request, transcript, *, touched: Touched, filters, focus=None) -> dict:
    """The out-of-band fragments of an action's answer: touched spans (or lines) of the
    loaded windows, touched entity rows (or their removal), the headers of touched labels,
    the progress counter, a queue patch and the action's result (its span, for focus).

    Without filters it reads only the rows it draws (the touched lines, spans and groups)
    and takes the counter, the label headers and the minimap cells from SQL aggregates;
    with filters (which narrow the counts to what matches) it reads every span.
    """
    transcript.refresh_from_db(fields=["state"])
    page_rows = selectors.review_pages(transcript=transcript)
    windows = selectors.review_windows(transcript=transcript, pages=page_rows)
    pages = _loaded_pages(request, windows)
    utterances = []
    if touched.offsets and pages:
        utterances = selectors.review_utterances(
            transcript=transcript, pages=pages, containing=touched.offsets
        )
    partial = not filters.active
    if partial:
        rows = selectors.review_answer_rows(
            transcript=transcript, spans=touched.spans | ({focus} if focus else set()),
            entities=touched.entities, utterances=utterances, pages=page_rows,
        )  # fmt: skip
    else:
        rows = selectors.review_span_rows(transcript=transcript, provenance=bool(filters.detector))
    by_row = {r.id: r for r in rows}
    lines, patches = [], {}
    if utterances:
        # A span whose extent did not change is redrawn alone (its mark and its
        # replacement); the lines of the others (added, deleted, resized, overlapping) whole.
        patches = span_patches(
            transcript=transcript, utterances=utterances, rows=rows, filters=filters,
            candidates={
                i: s for i, s in touched.states.items() if i in touched.spans & touched.existed
            },
        )  # fmt: skip
        offsets = {
            s for i, states in touched.states.items() if i not in patches for s, *_ in states
        }
        offsets |= touched.offsets - {s for i in patches for s, *_ in touched.states[i]}
        ordered = sorted(offsets)
        whole = [u for u in utterances if _holds_offset(u, ordered)]
        whole_starts = [u.start for u in whole]
        patches = {
            i: patch
            for i, patch in patches.items()
            if not _in_utterances(by_row[i].start, whole, whole_starts)
        }
        lines = build_lines(  # no focus: the page paints the user's own
            transcript=transcript, utterances=whole, rows=rows,
            filters=filters, page_breaks=False,
        )  # fmt: skip
    groups = selectors.review_entities(
        rows=rows, filters=None if partial else filters, only=touched.entities
    )
    by_id = {e.id: e for g in groups for e in g.entities}
    labels = touched.labels | {by_id[i].label for i in touched.entities if i in by_id}
    if partial:
        groups = selectors.review_label_counts(transcript=transcript, labels=labels)
    upsert, remove = [], []
    for span_id in sorted(touched.spans):
        row = by_row.get(span_id)
        if partial and _same_queue_entry(touched, span_id, row):
            continue  # a merged, relabelled or flagged mention keeps its j/k entry
        if row is not None and row.matches(filters):
            upsert.append(selectors.review_queue_entry(row))
        else:
            remove.append(span_id)
    touched_pages = _recounted_pages(touched, by_row, page_rows)
    if partial:
        progress = selectors.review_progress_counts(transcript=transcript)
        minimap = selectors.review_minimap_cells(
            transcript=transcript, pages=touched_pages, page_rows=page_rows
        )
    else:
        progress = selectors.review_progress(rows=rows)
        minimap = [
            cell
            for cell in selectors.review_minimap(rows=rows, pages=transcript.page_count)
            if cell.page in touched_pages
        ]
    refusal = services.review_edit_refusal(transcript=transcript, user=request.user)
    return {
        "transcript": transcript,
        "filters": filters,
        "can_edit": refusal is None,
        "confirm_above": services.CONFIRM_ABOVE,
        "lines": lines,
        # JSON in a single-quoted attribute: its double quotes need no escaping.
        "span_patch": mark_safe(  # noqa: S308 (&, <, >, ' escaped)
            json.dumps(list(patches.values()), ensure_ascii=False, separators=(",", ":"))
            .replace("&", "&amp;")
            .replace("<", "&lt;")
            .replace(">", "&gt;")
            .replace("'", "&#x27;")
        ),  # fmt: skip
        "progress": progress,
        "entity_rows": [by_id[i] for i in sorted(touched.entities) if i in by_id],
        "entity_gone": sorted(i for i in touched.entities if i not in by_id),
        "label_groups": [g for g in groups if g.label in labels],
        "labels_gone": sorted(
            (label for label in labels if label not in {g.label for g in groups}),
            key=LABELS.index,
        ),
        "queue_patch": json.dumps({"upsert": upsert, "remove": remove}),
        "result_focus": focus,
        "focus": by_row.get(focus) if focus else None,
        "touched_spans": ",".join(str(i) for i in sorted(touched.spans)),
        "minimap": minimap,
    }
