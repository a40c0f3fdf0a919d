"""The leak check before a release (and in the headless ``anonymize`` command).

``leak_check`` returns every occurrence in the output of an accepted or added span's
text, each name part and spelled form, and the cover-page names, CDCR number,
institution and hearing date (:mod:`engine.pseudonymize.leaks`). A release is
blocked while any returned leak has ``blocking=True``.
"""

from __future__ import annotations

from dataclasses import replace

from annotations.models import AllowListTerm, Span
from engine.pseudonymize.leaks import Leak, Needle, cover_needles, find_leaks, span_needles
from transcripts.models import Transcript

__all__ = ["Leak", "LeakError", "blocking_leaks", "leak_check"]


class LeakError(Exception):
    """A release was refused because identifiers remain in the output."""

    def __init__(self, leaks_by_transcript: dict[int, list[Leak]]) -> None:
        self.leaks = leaks_by_transcript
        count = sum(len(v) for v in leaks_by_transcript.values())
        super().__init__(
            f"{count} leak(s) in transcript(s) {', '.join(map(str, leaks_by_transcript))}"
        )


def transcript_needles(*, transcript: Transcript) -> list[Needle]:
    needles: list[Needle] = []
    text = transcript.text
    spans = list(
        Span.objects.filter(transcript=transcript)
        .exclude(status=Span.Status.REJECTED)
        .values_list("start", "end", "label", "status")
    )
    for start, end, label, status in spans:
        if status != Span.Status.SUGGESTED:
            needles.extend(span_needles(text[start:end], label))
    needles.extend(cover_needles(transcript.metadata or {}))
    # Still-suggested spans last: reported as unreviewed, never blocking by themselves.
    for start, end, label, status in spans:
        if status == Span.Status.SUGGESTED:
            needles.extend(
                replace(n, unreviewed=True) for n in span_needles(text[start:end], label)
            )
    return needles


def leak_check(
    *,
    transcript: Transcript,
    output_text: str | None = None,
    replaced: list[tuple[int, int]] | None = None,
) -> list[Leak]:
    """Leaks in ``output_text`` (default: the release text, tags, reviewed spans only).

    ``replaced``: the output ranges of the replacements, when known (surrogates).
    """
    if output_text is None:
        from annotations.services.pseudonymization import transcript_pseudonymize

        result = transcript_pseudonymize(
            transcript=transcript, strategy="tags", include_suggested=False
        )
        output_text = result.text
        replaced = [(r.out_start, r.out_end) for r in result.replacements]
    allow = AllowListTerm.objects.values_list("term", flat=True)
    return find_leaks(
        output_text,
        transcript_needles(transcript=transcript),
        allow=allow,
        replaced=replaced or (),
    )


def blocking_leaks(leaks: list[Leak]) -> list[Leak]:
    return [leak for leak in leaks if leak.blocking]
