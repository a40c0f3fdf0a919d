""" "Not a leak here": a per-occurrence exception to the leak check.

A reviewer marks one place the leak check reports (``Good`` in ``Good morning`` when a
participant is named Good) as no identifier *here*, with a reason. It is a review
decision like any other: it goes through the central guard (``_check_edit``: never on a
submitted, approved or released transcript), writes a ``review.not_a_leak`` audit event
(the place, the reason and the exception's id; never the text) that counts for the
four-eyes rule, undo removes it, and the approval screen lists it for the lead. It is
never global: the same word elsewhere, or in another transcript, is still reported.
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
    if reason not in LeakException.Reason.values:
        raise ReviewError("Choose why this is not a leak here.")
    note = " ".join((note or "").split())
    if "\x00" in note:
        raise ReviewError("The note holds a character that is not text (NUL).")
    if len(note) > MAX_NOTE:
        raise ReviewError(f"Keep the note under {MAX_NOTE} characters.")
    if reason == LeakException.Reason.OTHER and not note:
        raise ReviewError("Say in a few words why this is not a leak here.")
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
