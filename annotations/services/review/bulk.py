"""Decisions on many spans at once: every mention of a surface form, every mention of a
group, the rest of a page, every suggestion of a label.

Each is one ``@transaction.atomic`` service that checks the actor may edit
(``_check_edit``), changes the spans in bounded UPDATEs (``IN`` lists of at most
``CHUNK`` ids: no query grows with the number of spans), and writes ONE audit event
``review.<action>`` whose ``after`` carries ``"bulk"`` (``"form"``, ``"group"``,
``"page"`` or ``"label"``) and ``"count"``: one undo step, whatever its size.
"""

from collections.abc import Iterable, Iterator

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from annotations.models import Entity, Span
from annotations.services.review.groups import _entity
from annotations.services.review.permissions import ReviewError, _check_edit
from annotations.services.review.snapshots import _lock_spans, _record, span_snapshot
from engine.labels import LABELS
from engine.mentions import normalize_form
from transcripts.models import Transcript, Utterance

CHUNK = 500  # ids per UPDATE or SELECT (SQLite's oldest builds allow 999 parameters)
# A single bulk action that decides more spans than this asks first; below it, the
# answer's toast offers undo instead of a confirmation.
CONFIRM_ABOVE = 200

S = Span.Status


def chunks(ids: Iterable[int], size: int = CHUNK) -> Iterator[list[int]]:
    ids = list(ids)
    for i in range(0, len(ids), size):
        yield ids[i : i + size]


def _decide(
    *,
    transcript: Transcript,
    actor,
    spans: list[Span],
    status: str,
    action: str,
    bulk: str,
    extra: dict,
) -> list[Span]:
    """Give ``spans`` (locked) ``status`` and write one audit event (a span the reviewer
    added stays ``added`` when accepted)."""
    if not spans:
        raise ReviewError("Nothing left to decide there.")
    before = [span_snapshot(s) for s in spans]
    user = actor if getattr(actor, "is_authenticated", False) else None
    now = timezone.now()
    targets = {S.ACCEPTED: [], S.ADDED: [], S.REJECTED: []}
    for span in spans:
        new = S.ADDED if status == S.ACCEPTED and span.status == S.ADDED else status
        targets[new].append(span.pk)
        span.status, span.version, span.reviewer, span.updated_at = new, span.version + 1, user, now
    for new, ids in targets.items():
        for part in chunks(ids):
            Span.objects.filter(pk__in=part).update(
                status=new, version=F("version") + 1, reviewer=user, updated_at=now
            )
    _record(
        actor=actor,
        action=action,
        transcript=transcript,
        span=spans[0] if len(spans) == 1 else None,
        before=before,
        after=[span_snapshot(s) for s in spans],
        extra={**extra, "bulk": bulk, "count": len(spans)},
    )
    return spans


def _label(label: str) -> str:
    if label not in LABELS:
        raise ReviewError(f"Unknown label {label!r}.")
    return label


def _form_spans(*, transcript: Transcript, label: str, form: str, statuses) -> list[Span]:
    """The spans of ``label`` whose text is ``form`` (case-folded) with one of
    ``statuses``, locked. One query by label and status; the text compares in Python."""
    key = normalize_form(form)
    if not key:
        raise ReviewError("Choose a surface form.")
    text = transcript.text
    candidates = _lock_spans(
        Span.objects.filter(transcript=transcript, label=label, status__in=list(statuses))
    )
    return [s for s in candidates if normalize_form(text[s.start : s.end]) == key]


@transaction.atomic
def spans_accept_form(*, transcript: Transcript, actor, label: str, form: str) -> list[Span]:
    """Accept every mention of ``form`` as ``label`` (undecided or rejected ones). The audit
    row names the spans, never the form: it is text of the transcript."""
    _check_edit(transcript=transcript, actor=actor)
    spans = _form_spans(
        transcript=transcript, label=_label(label), form=form, statuses=(S.SUGGESTED, S.REJECTED)
    )
    return _decide(
        transcript=transcript, actor=actor, spans=spans, status=S.ACCEPTED,
        action="accept_form", bulk="form", extra={"label": label},
    )  # fmt: skip


@transaction.atomic
def spans_reject_form(*, transcript: Transcript, actor, label: str, form: str) -> list[Span]:
    """Reject every mention of ``form`` as ``label`` (undecided or accepted ones; spans a
    reviewer added are theirs to delete)."""
    _check_edit(transcript=transcript, actor=actor)
    spans = _form_spans(
        transcript=transcript, label=_label(label), form=form, statuses=(S.SUGGESTED, S.ACCEPTED)
    )
    return _decide(
        transcript=transcript, actor=actor, spans=spans, status=S.REJECTED,
        action="reject_form", bulk="form", extra={"label": label},
    )  # fmt: skip


@transaction.atomic
def spans_reject_all(*, transcript: Transcript, actor, entity: Entity | int | str) -> list[Span]:
    """Reject every remaining suggestion of one reference group."""
    _check_edit(transcript=transcript, actor=actor)
    entity = _entity(transcript=transcript, entity=entity)
    spans = _lock_spans(
        Span.objects.filter(transcript=transcript, entity=entity, status=S.SUGGESTED)
    )
    return _decide(
        transcript=transcript, actor=actor, spans=spans, status=S.REJECTED,
        action="reject_all", bulk="group", extra={"entity": entity.ref},
    )  # fmt: skip


def page_range(*, transcript: Transcript, page: int) -> tuple[int, int | None]:
    """``[start, end)`` of the span starts on ``page`` (a span is on the page of the last
    utterance starting at or before it; ``end`` ``None``: the last page)."""
    starts: dict[int, int] = {}
    for p, start in Utterance.objects.filter(transcript=transcript).values_list("page", "start"):
        starts[p] = min(start, starts.get(p, start))
    if page not in starts:
        raise ReviewError(f"There is no page {page}.")
    ordered = sorted(starts.items(), key=lambda ps: ps[1])
    i = [p for p, _s in ordered].index(page)
    low = ordered[i][1] if i else 0
    high = ordered[i + 1][1] if i + 1 < len(ordered) else None
    return low, high


@transaction.atomic
def spans_accept_page(*, transcript: Transcript, actor, page: int) -> list[Span]:
    """Accept the rest of a page: every suggestion still undecided on ``page`` (after the
    reviewer read it)."""
    _check_edit(transcript=transcript, actor=actor)
    low, high = page_range(transcript=transcript, page=int(page))
    queryset = Span.objects.filter(transcript=transcript, status=S.SUGGESTED, start__gte=low)
    if high is not None:
        queryset = queryset.filter(start__lt=high)
    return _decide(
        transcript=transcript, actor=actor, spans=_lock_spans(queryset), status=S.ACCEPTED,
        action="accept_page", bulk="page", extra={"page": int(page)},
    )  # fmt: skip


def bulk_size(*, transcript: Transcript, action: str, post) -> int:
    """How many spans a bulk action would decide now (to ask first above
    ``CONFIRM_ABOVE``); 0 for an action that is not bulk or cannot be sized."""
    queryset = Span.objects.filter(transcript=transcript)
    if action == "accept_all":
        queryset = queryset.filter(status=S.SUGGESTED)
        if post.get("label"):
            return queryset.filter(label=post.get("label")).count()
        return queryset.filter(entity__ref=post.get("entity", "")).count()
    if action == "reject_all":
        return queryset.filter(status=S.SUGGESTED, entity__ref=post.get("entity", "")).count()
    if action == "accept_page":
        try:
            low, high = page_range(transcript=transcript, page=int(post.get("page", "")))
        except (ReviewError, ValueError):
            return 0
        queryset = queryset.filter(status=S.SUGGESTED, start__gte=low)
        return (queryset.filter(start__lt=high) if high is not None else queryset).count()
    if action == "confirm_carried":
        from annotations.selectors.carried import carried_pending  # (the selectors import bulk)

        return carried_pending(
            transcript=transcript, label=post.get("label", ""), form=post.get("form", "")
        )
    if action in {"accept_form", "reject_form", "relabel_form"}:
        statuses = {
            "accept_form": (S.SUGGESTED, S.REJECTED),
            "reject_form": (S.SUGGESTED, S.ACCEPTED),
            "relabel_form": (S.SUGGESTED, S.ACCEPTED, S.ADDED),
        }[action]
        key = normalize_form(post.get("form", ""))
        text = transcript.text
        return sum(
            1
            for s, e in queryset.filter(
                label=post.get("label", ""), status__in=statuses
            ).values_list("start", "end")
            if normalize_form(text[s:e]) == key
        )
    return 0
