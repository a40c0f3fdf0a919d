"""Factories for test data. All text is synthetic."""

import hashlib
import itertools

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from transcripts.models import Transcript, Utterance

_counter = itertools.count(1)


def make_user(username: str | None = None, *, role: str | None = "annotator", **fields):
    User = get_user_model()
    user = User.objects.create_user(
        username=username or f"user{next(_counter)}", password="pw-test-123", **fields
    )
    if role:
        group, _ = Group.objects.get_or_create(name=role)
        user.groups.add(group)
    return user


def make_transcript(
    text: str = "PRESIDING COMMISSIONER ALDEN: Good morning, Mr. Quill.\nINMATE QUILL: Good morning.\n",
    *,
    assignees=(),
    state: str = Transcript.State.READY,
    metadata: dict | None = None,
    title: str | None = None,
) -> Transcript:
    """A transcript from ``SPEAKER: text`` lines, one utterance per line, on page 1."""
    n = next(_counter)
    transcript = Transcript.objects.create(
        title=title or f"Synthetic hearing {n}",
        text=text,
        metadata=metadata or {},
        sha256=hashlib.sha256(f"{n}:{text}".encode()).hexdigest(),
        state=state,
        page_count=1,
    )
    offset = 0
    for index, line in enumerate(text.split("\n")):
        if line.strip():
            speaker, sep, _rest = line.partition(": ")
            Utterance.objects.create(
                transcript=transcript,
                index=index,
                speaker=speaker if sep else "",
                page=1,
                start=offset,
                end=offset + len(line),
            )
        offset += len(line) + 1
    if assignees:
        transcript.assignees.set(assignees)
    return transcript


def make_suggestion(
    transcript,
    start: int,
    end: int,
    label: str,
    *,
    detectors=("cover",),
    score: float = 0.9,
    status: str = "suggested",
):
    """A machine suggestion as the annotation stores it: a ``Proposal`` and its span
    (then given ``status``, as if a reviewer had decided without changing it)."""
    from annotations.services.annotation import suggestions_create

    provenance = [{"detector": d, "score": score} for d in detectors]
    [span] = suggestions_create(
        transcript=transcript, proposed=[(start, end, label, provenance, score)]
    )
    if status != "suggested":
        span.status = status
        span.save(update_fields=["status"])
    return span


def make_transcript_with_mentions(text: str, mentions, annotator):
    """A transcript of ``text`` assigned to ``annotator`` with a suggested span on every
    whole-word occurrence of each ``(words, label)`` of ``mentions``, and its entities."""
    import re

    from annotations.models import Span
    from annotations.services.review import review_assign_entities

    transcript = make_transcript(text, assignees=[annotator])
    for words, label in mentions:
        for m in re.finditer(rf"\b{words}\b", text):
            Span.objects.create(transcript=transcript, start=m.start(), end=m.end(), label=label)
    review_assign_entities(transcript=transcript)
    return transcript
