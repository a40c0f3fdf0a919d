""" "Not a leak here": a per-occurrence exception to the leak check.

A reviewer marks one place the leak check reports (``Good`` in ``Good morning`` when a
participant is named Good) as no identifier *here*, with a reason. It is a review
decision like any other: it goes through the central guard (``_check_edit``: never on a
submitted, approved or released transcript), writes a ``review.not_a_leak`` audit event
(the place, the reason and the exception's id; never the text) that counts for the
four-eyes rule, undo removes it, and the approval screen lists it for the lead. It is
never global: the same word elsewhere, or in another transcript, is still reported.
:func:`leak_exception_add_all` marks every finding identical to one (same text, same
kind) that the leak check reports now, with one reason, in one decision: on a court
transcript counsel's surname that is an everyday word is one finding per greeting, and
each cost the annotator an input.
"""

from django.db import transaction

from annotations.models import LeakException
from annotations.services.review.permissions import ReviewError, _check_edit
from annotations.services.review.snapshots import _record
from transcripts.models import Transcript

NOT_A_LEAK_ACTION = "not_a_leak"
MAX_LENGTH = 120  # characters: an occurrence, not a passage
MAX_NOTE = 200


@transaction.atomic
def leak_exception_add(
    *, transcript: Transcript, actor, start: int, end: int, reason: str, note: str = ""
) -> LeakException:
    """Mark ``transcript.text[start:end]`` "not a leak here" for ``reason`` (one of
    ``LeakException.Reason``; ``other`` needs a ``note``). Returns the exception."""
    _check_edit(transcript=transcript, actor=actor)
    reason, note = _checked_reason(reason, note)
    text = transcript.text
    if not (0 <= start < end <= len(text)) or end - start > MAX_LENGTH:
        raise ReviewError("That place is not an occurrence in this transcript.")
    if not text[start:end].strip():
        raise ReviewError("That place holds no word.")
    if LeakException.objects.filter(transcript=transcript, start=start, end=end).exists():
        raise ReviewError("This place is already marked “not a leak here”.")
    exception = LeakException.objects.create(
        transcript=transcript,
        start=start,
        end=end,
        reason=reason,
        note=note,
        created_by=actor if getattr(actor, "is_authenticated", False) else None,
    )
    _record(
        actor=actor,
        action=NOT_A_LEAK_ACTION,
        transcript=transcript,
        before=[],
        after=[],
        extra={"exception": exception.pk, "reason": reason, "start": start, "end": end},
    )
    return exception


@transaction.atomic
def leak_exception_add_all(
    *, transcript: Transcript, actor, start: int, end: int, reason: str, note: str = ""
) -> list[LeakException]:
    """Mark every finding identical to the one at ``transcript.text[start:end]`` (the same
    text, the same kind) "not a leak here" for one ``reason``: one decision, one audit
    event (``review.not_a_leak`` with every place and exception id), one undo step. The
    places are those the leak check reports now; a later finding of that text is still
    reported. Returns the exceptions, the one at ``start`` first."""
    from annotations.services.leaks import NOT_A_LEAK, release_leaks

    _check_edit(transcript=transcript, actor=actor)
    reason, note = _checked_reason(reason, note)
    text = transcript.text
    leaks = [x for x in release_leaks(transcript=transcript)[1] if x.source_start is not None]
    chosen = next(
        (x for x in leaks if (x.source_start, x.source_end) == (start, end) and x.blocking), None
    )
    if chosen is None:
        raise ReviewError("That place is not a blocking finding of the leak check.")
    form = text[start:end]
    places = [(start, end)] + [
        (x.source_start, x.source_end)
        for x in leaks
        if x.blocking
        and x.kind == chosen.kind
        and x.kind != NOT_A_LEAK
        and text[x.source_start : x.source_end] == form
        and (x.source_start, x.source_end) != (start, end)
    ]
    excepted = set(LeakException.objects.filter(transcript=transcript).values_list("start", "end"))
    actor_row = actor if getattr(actor, "is_authenticated", False) else None
    rows = [
        LeakException(
            transcript=transcript, start=s, end=e, reason=reason, note=note, created_by=actor_row
        )  # fmt: skip
        for s, e in dict.fromkeys(places)
        if (s, e) not in excepted
    ]
    if not rows:
        raise ReviewError("These places are already marked “not a leak here”.")
    LeakException.objects.bulk_create(rows)
    made = {(x.start, x.end) for x in rows}
    ids = [
        (pk, s, e)
        for pk, s, e in LeakException.objects.filter(transcript=transcript)
        .order_by("start")
        .values_list("pk", "start", "end")
        if (s, e) in made
    ]
    _record(
        actor=actor,
        action=NOT_A_LEAK_ACTION,
        transcript=transcript,
        before=[],
        after=[],
        extra={
            "exception": next(pk for pk, s, e in ids if (s, e) == (start, end)),
            "exceptions": [pk for pk, _s, _e in ids],
            "places": [[s, e] for _pk, s, e in ids],
            "reason": reason,
            "start": start,
            "end": end,
            "bulk": "identical",
        },
    )
    return sorted(
        LeakException.objects.filter(pk__in=[pk for pk, _s, _e in ids]),
        key=lambda x: (x.start != start, x.start),
    )


def _checked_reason(reason: str, note: str) -> tuple[str, str]:
    """``(reason, note)`` checked as :func:`leak_exception_add` checks them."""
    if reason not in LeakException.Reason.values:
        raise ReviewError("Choose why this is not a leak here.")
    note = " ".join((note or "").split())
    if "\x00" in note:
        raise ReviewError("The note holds a character that is not text (NUL).")
    if len(note) > MAX_NOTE:
        raise ReviewError(f"Keep the note under {MAX_NOTE} characters.")
    if reason == LeakException.Reason.OTHER and not note:
        raise ReviewError("Say in a few words why this is not a leak here.")
    return reason, note
