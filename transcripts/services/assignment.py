"""Assignment of transcripts to annotators, and double annotation.

A lead assigns one or two annotators to a transcript.

**Double annotation: one copy per extra annotator.** The first annotator reviews the
transcript itself. The second gets a *copy*: a new ``Transcript`` row with the same
canonical text, utterances and metadata, ``double_of`` pointing to the original, and
a fresh set of the machine's suggestions (every span the detectors proposed, in the
shape they proposed it, reset to ``suggested``; nothing a reviewer decided, changed or
added is copied; reference groups are assigned afresh). Because the
copy is an ordinary transcript, the review page, its undo, locking and audit work on
it unchanged, and the two annotators never see or overwrite each other's decisions.
Agreement (``annotations.services.measurements``) compares the original's reviewed
spans with the copy's. Copies are never approved or released, and gold export and the
dashboard's Tables 3/5/8 read only approved (hence original) transcripts.

We preferred the copy to a ``Span.annotator`` dimension because the latter would have
made every span query of the review, export and detection code filter by annotator,
and entity (reference group) merges would have had to be per annotator too.
"""

import hashlib

from django.db import transaction

from anonreview import roles
from anonreview.core.audit import audit_record
from transcripts.hooks import hooks
from transcripts.models import Transcript, Utterance
from transcripts.services.workflow import READ_ONLY_STATES, TransitionError

S = Transcript.State

# States in which the second annotator's copy can be made: the machine's suggestions
# exist and the first annotator has not submitted.
COPYABLE_STATES = frozenset({S.READY, S.IN_REVIEW, S.RETURNED})


class AssignmentError(TransitionError):
    """The assignment is not allowed; the message is fit for users."""


def _copy_sha(original: Transcript, n: int) -> str:
    return hashlib.sha256(f"{original.sha256}:double:{n}".encode()).hexdigest()


def transcript_copy_for_double_annotation(
    *, transcript: Transcript, annotator, actor
) -> Transcript:
    """Make the second annotator's copy of ``transcript`` (text, utterances, metadata,
    the machine's suggestions as ``suggested``), assigned to ``annotator``. The
    suggestions are copied by the ``suggestions_copy`` hook ``annotations`` registers."""
    n = Transcript.objects.filter(double_of=transcript).count() + 1
    copy = Transcript.objects.create(
        title=f"{transcript.title} (second annotation)",
        text=transcript.text,
        metadata=transcript.metadata,
        source_format=transcript.source_format,
        original_name="",
        sha256=_copy_sha(transcript, n),
        page_count=transcript.page_count,
        state=S.READY,
        created_by=actor,
        double_of=transcript,
    )
    Utterance.objects.bulk_create(
        [
            Utterance(
                transcript=copy,
                index=u.index,
                speaker=u.speaker,
                role=u.role,
                page=u.page,
                section=u.section,
                start=u.start,
                end=u.end,
            )
            for u in transcript.utterances.all()
        ]
    )
    copied = hooks.suggestions_copy(source=transcript, target=copy) if hooks.suggestions_copy else 0
    copy.assignees.set([annotator])
    audit_record(
        actor=actor,
        event_type="transcript.double_copy",
        transcript=copy,
        after={
            "double_of": transcript.pk,
            "annotator": annotator.get_username(),
            "spans": copied,
        },
    )
    return copy


@transaction.atomic
def transcript_assign(*, transcript: Transcript, annotators, actor) -> Transcript:
    """Assign ``transcript`` to one or two annotators (leads only).

    The first annotator becomes the transcript's assignee; a second one gets a copy for
    double annotation (see the module docstring). Assigning again replaces the first
    annotator; a second annotator who already has a copy keeps it. Returns the
    transcript.
    """
    annotators = [a for a in annotators if a is not None]
    annotators = list({a.pk: a for a in annotators}.values())
    if not roles.is_lead(actor):
        raise AssignmentError("Only leads can assign transcripts.")
    if transcript.double_of_id:
        raise AssignmentError("Assign the original transcript, not a second annotation.")
    if not 1 <= len(annotators) <= 2:
        raise AssignmentError("Choose one annotator, or two for double annotation.")
    locked = Transcript.objects.select_for_update().get(pk=transcript.pk)
    if locked.state in READ_ONLY_STATES:
        raise AssignmentError(f"A transcript that is {S(locked.state).label.lower()} is read-only.")
    for a in annotators:
        if not roles.is_annotator(a):
            raise AssignmentError(f"{a.get_username()} is not an annotator.")

    first, *rest = annotators
    before = sorted(locked.assignees.values_list("username", flat=True))
    locked.assignees.set([first])
    copies = list(Transcript.objects.filter(double_of=locked).prefetch_related("assignees"))
    copied_for = {a.pk for c in copies for a in c.assignees.all()}
    made = None
    if rest:
        second = rest[0]
        if second.pk == first.pk:
            raise AssignmentError("Double annotation needs two different annotators.")
        if second.pk not in copied_for:
            if locked.state not in COPYABLE_STATES:
                raise AssignmentError(
                    "A second annotator can be added once the automatic annotation is done "
                    "and before the transcript is submitted."
                )
            made = transcript_copy_for_double_annotation(
                transcript=locked, annotator=second, actor=actor
            )
    audit_record(
        actor=actor,
        event_type="transcript.assign",
        transcript=locked,
        before={"assignees": before},
        after={
            "assignees": [first.get_username()],
            "second_annotator": rest[0].get_username() if rest else None,
            "copy": made.pk if made else None,
        },
    )
    return locked


def annotators_available() -> list:
    """Users who can be assigned: annotators and leads, by username."""
    from django.contrib.auth import get_user_model

    users = (
        get_user_model()
        .objects.filter(is_active=True)
        .prefetch_related("groups")
        .order_by("username")
    )
    return [u for u in users if roles.is_annotator(u)]
