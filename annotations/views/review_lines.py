"""The two panes' lines: ``<mark>`` per span in the original, replacements in the
pseudonymized text (tags strategy).

Built as strings with ``format_html``/``escape`` rather than a template per span: a
window holds hundreds of marks, nested and clipped by offsets, and a template call per
mark costs more than the whole line. Everything else of the page is in the templates.
"""

from bisect import bisect_left
from dataclasses import replace

from django.utils.html import escape, format_html

from annotations import selectors
from annotations.selectors import ReviewFilters, SpanRow
from transcripts.models import Transcript, Utterance

POSSIBLE_MISS = "safety_net"  # a detector whose lone finds are shown as possible misses


def _mark_classes(row: SpanRow, filters: ReviewFilters, focus: int | None) -> str:
    classes = f"span lab-{row.label} st-{row.status}"
    if filters.active and not row.matches(filters):
        classes += " dim"
    if focus == row.id:
        classes += " current"
    if row.provenance and set(row.detectors) == {POSSIBLE_MISS}:
        classes += " miss"
    if row.flagged:
        classes += " flagged"
    return classes


def _mark_open(row: SpanRow, filters: ReviewFilters, focus: int | None) -> str:
    classes = _mark_classes(row, filters, focus)
    # Only what the page reads (the inspector shows scores and provenance): an action's
    # answer repeats every mark of the lines it touched.
    return (
        f'<mark id="s-{row.id}" class="{classes}" tabindex="0" data-span-id="{row.id}"'
        f' data-ref="{escape(row.ref)}" data-label="{row.label}" data-status="{row.status}"'
        f' data-version="{row.version}" data-start="{row.start}">'
    )


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
        if row.id in replacements:
            r_start, r_end, replacement = replacements[row.id]
        elif row.status == "rejected":  # kept as it is, but visibly a decision
            r_start, r_end, replacement = row.start, row.end, None
        else:
            continue
        if r_start < pos or r_start < u_start or r_end > u_end:
            continue
        if spk_open and r_start >= speaker_end:
            out.append(escape(text[pos:speaker_end]) + "</span>")
            pos, spk_open = speaker_end, False
        out.append(escape(text[pos:r_start]))
        out.append(_pseudo_element(text, row, r_start, r_end, replacement))
        pos = r_end
        if spk_open and pos >= speaker_end:
            out.append("</span>")
            spk_open = False
    if spk_open:
        out.append(escape(text[pos:speaker_end]) + "</span>")
        pos = speaker_end
    out.append(escape(text[pos:u_end]))
    return "".join(out)


def _pseudo_element(text: str, row: SpanRow, start: int, end: int, replacement) -> str:
    """A span in the pseudonymized pane: its replacement, or (rejected) its kept text."""
    if replacement is None:
        return format_html(
            '<span class="kept" id="k-{}" data-kept-id="{}" title="{}">{}</span>',
            row.id, row.id, f"{row.label} rejected: kept", text[start:end],
        )  # fmt: skip
    return format_html(
        '<span class="rep lab-{} st-{}" id="p-{}" data-span-id="{}" data-ref="{}"'
        ' data-label="{}">{}</span>',
        row.label, row.status, row.id, row.id, row.ref, row.label, replacement,
    )  # fmt: skip


# --- one span alone, instead of its whole line ----------------------------------------


def span_patches(
    *,
    transcript: Transcript,
    utterances: list[Utterance],
    rows: list[SpanRow],
    candidates: dict[int, set[tuple[int, int, str, str]]],
    filters: ReviewFilters,
) -> dict[int, list]:
    """Span id → ``[id, label, status, version, ref, replacement, classes]`` for each
    candidate that can be redrawn alone: the same extent in every state it had
    (``candidates``: span id → its ``(start, end, label, status)`` snapshots), no other
    span overlapping or nested in it, inside one utterance and not across the speaker tag,
    and a pseudonymized element covering exactly its extent before and after.
    ``replacement`` is ``None`` for a rejected span (its text is kept); ``classes`` are
    the mark's classes after ``span lab-LABEL st-STATUS`` (``dim``, ``miss``). The page
    (``applySpanPatch`` in ``review_marks.js``) sets those attributes on ``<mark id="s-ID">``
    and rebuilds its ``#p-ID``/``#k-ID`` element, which gives the same line as drawing it
    again (``tests/test_review_answer.py``, ``tests/test_browser_review_real.py``); any
    other span's line is sent whole.
    """
    text = transcript.text
    index = {r.id: i for i, r in enumerate(rows)}
    starts = [u.start for u in utterances]
    chosen: list[SpanRow] = []
    prefix_end: list[int] = []
    highest = -1
    for r in rows:  # the furthest end of the rows before each one (rows are by start)
        prefix_end.append(highest)
        highest = max(highest, r.end)
    for span_id, states in candidates.items():
        i = index.get(span_id)
        if i is None:
            continue
        row = rows[i]
        if {(s, e) for s, e, _l, _st in states} != {(row.start, row.end)}:
            continue
        if prefix_end[i] > row.start or (i + 1 < len(rows) and rows[i + 1].start < row.end):
            continue
        u = bisect_left(starts, row.start + 1) - 1
        if u < 0 or row.end > utterances[u].end:
            continue
        speaker_end = _speaker_end(text, utterances[u])
        if speaker_end and row.start < speaker_end < row.end:
            continue
        chosen.append(row)
    if not chosen:
        return {}
    selectors.review_fill_provenance(chosen)
    whole = {}  # label → ids whose replacement under that label covers the whole span
    labels = {label for r in chosen for _s, _e, label, _st in candidates[r.id]} | {
        r.label for r in chosen
    }
    for label in labels:
        trial = [replace(r, label=label, status="suggested") for r in chosen]
        reps = selectors.review_replacements(transcript=transcript, rows=trial)
        whole[label] = {r.id for r in trial if reps.get(r.id, (0, 0))[:2] == (r.start, r.end)}
    current = selectors.review_replacements(transcript=transcript, rows=chosen)
    patches = {}
    for row in chosen:
        states = candidates[row.id] | {(row.start, row.end, row.label, row.status)}
        if any(st != "rejected" and row.id not in whole[label] for _s, _e, label, st in states):
            continue
        replacement = current[row.id][2] if row.id in current else None
        extra = _mark_classes(row, filters, None).removeprefix(
            f"span lab-{row.label} st-{row.status}"
        )
        patches[row.id] = [
            row.id, row.label, row.status, row.version, row.ref, replacement, extra.strip(),
        ]  # fmt: skip
    return patches


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
