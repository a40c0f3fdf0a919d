"""Confirm carried proposals: one input applies, as this reviewer's decision, the
rejections and relabels that approved hearings carried to every undecided mention of one
form, or of one label (``annotations.services.annotation_carried`` proposes them; the
form table offers the input).

Like the other bulk actions (``bulk``): the actor must be able to edit (a submitted
transcript refuses it like any edit), the spans change in bounded UPDATEs (``IN`` lists
of at most ``CHUNK`` ids, whatever the number of spans), and ONE audit event
``review.confirm_carried`` (``after["bulk"]`` ``"form"`` or ``"label"``, ``"count"``)
holds every span's snapshot: one undo step at any size.
"""

from django.db import transaction

from annotations.models import Span
from annotations.services.review.bulk import _label, chunks, normalize_form
from annotations.services.review.permissions import ReviewError, _check_edit
from annotations.services.review.snapshots import (
    _entity_ids,
    _lock_spans,
    _record,
    span_snapshot,
    spans_bulk_save,
)
from annotations.services.review.spans import _regrouped, relabel_locked_spans
from engine.labels import LABELS
from transcripts.models import Transcript

CONFIRM_ACTION = "confirm_carried"


def _carried_proposal(provenance) -> dict | None:
    # imported here: the selectors import this package's ``bulk``
    from annotations.selectors.carried import carried_proposal

    return carried_proposal(provenance)


def _proposals(transcript: Transcript, label: str, form: str) -> list[tuple[Span, dict]]:
    """The undecided spans of ``label`` (of ``form`` if given) with a carried proposal,
    locked, each with its proposal. One query; the text compares in Python."""
    key = normalize_form(form) if form else ""
    text = transcript.text
    out = []
    for span in _lock_spans(
        Span.objects.filter(transcript=transcript, label=label, status=Span.Status.SUGGESTED)
    ):
        entry = _carried_proposal(span.provenance)
        if entry is None or (key and normalize_form(text[span.start : span.end]) != key):
            continue
        out.append((span, entry))
    return out


@transaction.atomic
def spans_confirm_carried(
    *, transcript: Transcript, actor, label: str, form: str = ""
) -> list[Span]:
    """Confirm every carried proposal of ``label`` (of one surface ``form`` when given):
    a carried rejection becomes this reviewer's rejection, a carried relabel this
    reviewer's relabel (accepted with the carried label). Mentions without a proposal,
    and mentions already decided, are left as they are. Returns the spans as decided."""
    _check_edit(transcript=transcript, actor=actor)
    label = _label(label)
    found = _proposals(transcript, label, form)
    if not found:
        raise ReviewError("No carried proposal left to confirm there.")
    spans = [span for span, _entry in found]
    before = [span_snapshot(s) for s in spans]
    entities_before = _entity_ids(transcript)
    rejected: list[Span] = []
    relabels: dict[str, list[Span]] = {}
    for span, entry in found:
        to = entry.get("label", "")
        if entry.get("decision") == "reject":  # ``selectors.carried.REJECT``
            rejected.append(span)
        elif to in LABELS:  # (the same label: a relabel an earlier version applied)
            relabels.setdefault(to, []).append(span)
        else:
            raise ReviewError("A carried proposal here names no label to give; decide it yourself.")
    for part in chunks(rejected):
        spans_bulk_save(part, actor, status=Span.Status.REJECTED)
    relabelled: list[Span] = []
    for to, group in relabels.items():
        relabelled.extend(relabel_locked_spans(transcript, group, actor=actor, to=to))
    if relabelled:
        relabelled = _regrouped(transcript, relabelled)
    result = [*rejected, *relabelled]
    _record(
        actor=actor,
        action=CONFIRM_ACTION,
        transcript=transcript,
        span=spans[0] if len(spans) == 1 else None,
        before=before,
        after=[span_snapshot(s) for s in result],
        created_entities=_entity_ids(transcript) - entities_before,
        extra={
            "label": label,
            "bulk": "form" if form else "label",
            "count": len(spans),
            "rejected": len(rejected),
            "relabelled": sum(len(g) for g in relabels.values()),
        },
    )
    return result
