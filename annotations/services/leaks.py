"""The leak check before a submit, an approval and a release (and in ``anonymize``).

``leak_check`` returns every occurrence in the output of an accepted or added span's
text, each name part and spelled form, the cover-page names (in any case), CDCR number,
institution and hearing date, every name part of a speaker tag, the capitalised word
after a title or honorific, and the text of undecided *possible misses* (suggestions of
the ``safety_net`` detector) (:mod:`engine.pseudonymize.leaks`). A release is
blocked while any returned leak has ``blocking=True``; ``leak_places`` says where each
leak is on the review page.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import replace

from annotations.models import AllowListTerm, LeakException, Span
from engine.detectors.given import given_names
from engine.detectors.names import person_name_parts
from engine.pseudonymize.leaks import (
    Leak,
    Needle,
    beside_name_needles,
    find_leaks,
    is_possible_miss,
    name_needles,
    possible_miss_needles,
    source_offset,
    span_needles,
)
from transcripts.models import Transcript, Utterance

__all__ = ["NOT_A_LEAK", "Leak", "LeakError", "blocking_leaks", "leak_check", "leak_places"]

NOT_A_LEAK = "not_a_leak"  # the kind of a leak at a place marked "Not a leak here"


class LeakError(Exception):
    """A release was refused because identifiers remain in the output."""

    def __init__(self, leaks_by_transcript: dict[int, list[Leak]]) -> None:
        self.leaks = leaks_by_transcript
        count = sum(len(v) for v in leaks_by_transcript.values())
        super().__init__(
            f"{count} leak(s) in transcript(s) {', '.join(map(str, leaks_by_transcript))}"
        )


def transcript_needles(*, transcript: Transcript, scan: str | None = None) -> list[Needle]:
    """The needles of ``transcript``: its reviewed and undecided spans, cover page and
    speaker tags, and the words after an honorific in ``scan`` (default: its whole text;
    a part of a long transcript in reading mode)."""
    needles: list[Needle] = []
    text = transcript.text
    spans = list(
        Span.objects.filter(transcript=transcript)
        .exclude(status=Span.Status.REJECTED)
        .values_list("start", "end", "label", "status", "provenance")
    )
    # A form's needles once (a hearing's 1,700 spans hold a few hundred forms): the same
    # needles, in the same order of first occurrence
    decided = {
        (text[start:end], label): None
        for start, end, label, status, _provenance in spans
        if status != Span.Status.SUGGESTED
    }
    for form, label in decided:
        needles.extend(span_needles(form, label))
    # Name-shaped text whether or not anyone annotated it: the cover page, speaker tags,
    # examination and swearing-in lines, honorifics.
    speakers = (
        Utterance.objects.filter(transcript=transcript)
        .exclude(speaker="")
        .values_list("speaker", flat=True)
        .distinct()
    )
    needles.extend(name_needles(text, transcript.metadata or {}, speakers, scan))
    # Undecided possible misses (the safety net's suggestions) block; so do other
    # still-suggested spans (the release rule: nothing undecided leaves), as "suggested".
    for start, end, label, status, provenance in spans:
        if status == Span.Status.SUGGESTED and is_possible_miss(provenance):
            needles.extend(possible_miss_needles(text[start:end], label))
    undecided = {
        (text[start:end], label): None
        for start, end, label, status, _provenance in spans
        if status == Span.Status.SUGGESTED
    }
    for form, label in undecided:
        needles.extend(replace(n, unreviewed=True) for n in span_needles(form, label))
    return needles


def leak_check(
    *,
    transcript: Transcript,
    output_text: str | None = None,
    replaced: list[tuple[int, int]] | None = None,
    replacements: list | None = None,
    source: tuple[int, int] | None = None,
) -> list[Leak]:
    """Leaks in ``output_text`` (default: the release text, tags, reviewed spans only).

    ``replacements``: the pseudonymization's replacements of ``output_text`` (then each
    leak knows its place in the canonical text); ``replaced``: only their output ranges
    (surrogates), when nothing more is known. The allow-list never hides a name this
    transcript gives (``engine.detectors.given``), and a place a reviewer marked "Not a
    leak here" (:class:`LeakException`) is reported as ``not_a_leak``, not blocking.

    ``source``: ``(start, end)`` of the canonical text that ``output_text`` (with its
    ``replacements``) pseudonymizes, when it is one part of a long transcript (reading
    mode): honorifics and the names the transcript gives are read from that part only
    (bounded work), and leaks' source offsets count from the transcript's start.
    """
    if output_text is None and source is None:
        return list(release_leaks(transcript=transcript)[1])
    if output_text is None:
        from annotations.services.pseudonymization import transcript_pseudonymize

        result = transcript_pseudonymize(
            transcript=transcript, strategy="tags", include_suggested=False
        )
        output_text = result.text
        replacements = result.replacements
    if replacements is not None:
        replaced = [(r.out_start, r.out_end) for r in replacements]
    allow = AllowListTerm.objects.values_list("term", flat=True)
    speakers = set(
        Utterance.objects.filter(transcript=transcript)
        .exclude(speaker="")
        .values_list("speaker", flat=True)
        .distinct()
    )
    scan = None if source is None else transcript.text[source[0] : source[1]]
    needles = transcript_needles(transcript=transcript, scan=scan)
    if replacements is not None:
        # the other part of a name beside an accepted one ("[PERSON_4] Young")
        part = transcript.text if source is None else scan
        needles.extend(beside_name_needles(output_text, replacements, part))
    leaks = find_leaks(
        output_text,
        needles,
        allow=allow,
        replaced=replaced or (),
        protect=given_names(
            transcript.text if scan is None else scan, transcript.metadata or {}, speakers
        ),
    )
    if replacements is not None:
        base = source[0] if source else 0
        leaks = [
            replace(
                leak,
                source_start=base + source_offset(leak.start, replacements),
                source_end=base + source_offset(leak.start, replacements) + (leak.end - leak.start),
            )
            for leak in leaks
        ]
        excepted = set(
            LeakException.objects.filter(transcript=transcript).values_list("start", "end")
        )
        if excepted:
            leaks = [
                replace(leak, kind=NOT_A_LEAK, blocking=False)
                if (leak.source_start, leak.source_end) in excepted
                else leak
                for leak in leaks
            ]
    return leaks


_RELEASE_CACHE: OrderedDict[str, tuple] = OrderedDict()
_RELEASE_CACHE_SIZE = 8  # transcripts (a lead's approvals, a reviewer's reading mode)


def release_leaks(*, transcript: Transcript) -> tuple:
    """``(release text, leaks)``: the release text (tags, reviewed spans only, as
    ``transcript_pseudonymize`` writes it) and its leak check, computed once per state of
    the transcript (``release_state.release_fingerprint``; the approval screen, reading
    mode, Submit and Approve each ran both, 1–2 s on a 15,000-word hearing).
    Read with the fingerprint, so a changed span, group, allow-list term or exception is
    a new state; in this process only."""
    from annotations.services.pseudonymization import transcript_pseudonymize
    from annotations.services.release_state import release_fingerprint

    key = release_fingerprint(transcript=transcript)
    hit = _RELEASE_CACHE.get(key) if key is not None else None
    if hit is not None:
        try:
            _RELEASE_CACHE.move_to_end(key)
        except KeyError:  # evicted meanwhile by another thread: the hit holds
            pass
        return hit[0], list(hit[1])
    result = transcript_pseudonymize(
        transcript=transcript, strategy="tags", include_suggested=False
    )
    leaks = leak_check(
        transcript=transcript, output_text=result.text, replacements=result.replacements
    )
    if key is not None:
        _RELEASE_CACHE[key] = (result, tuple(leaks))
        while len(_RELEASE_CACHE) > _RELEASE_CACHE_SIZE:
            _RELEASE_CACHE.popitem(last=False)
    return result, leaks


def leak_places(*, transcript: Transcript, leaks: list[Leak]) -> list[dict]:
    """Each leak with where it is: ``{"leak", "page", "utterance", "url", "span"}`` (the
    review page anchored at the utterance, or at the undecided span found there)."""
    from django.urls import reverse

    bounds = list(
        Utterance.objects.filter(transcript=transcript)
        .order_by("start")
        .values_list("start", "end", "page", "index")
    )
    base = reverse("annotations:review", args=[transcript.pk])
    causes = _accepted_by_text(transcript) if any(x.kind in CAUSED for x in leaks) else {}
    out = []
    for leak in leaks:
        place = {"leak": leak, "page": None, "utterance": None, "url": base, "span": None}
        cause = causes.get(leak.text.casefold()) if leak.kind in CAUSED else None
        if cause:
            # An accepted span's text found elsewhere: if that span is wrong (an accepted
            # PERSON "Um"), rejecting it is the fix, not a span at every "um".
            place["cause"] = {**cause, "url": f"{base}?span={cause['id']}"}
        if leak.source_start is not None:
            hit = next((b for b in bounds if b[0] <= leak.source_start < max(b[1], b[0] + 1)), None)
            span = (
                Span.objects.filter(
                    transcript=transcript,
                    status=Span.Status.SUGGESTED,
                    start__lte=leak.source_start,
                    end__gte=leak.source_end,
                )
                .values("id", "version")
                .first()
            )
            if span:
                place.update(span=span, url=f"{base}?span={span['id']}")
            elif hit:
                place.update(url=f"{base}?page={hit[2]}#uo-{hit[3]}")
            if hit:
                place.update(page=hit[2], utterance=hit[3])
        out.append(place)
    return out


# Leak kinds that come from a reviewed span's text (its parts, its spelling).
CAUSED = frozenset({"span", "name_part", "spelled"})


def _accepted_by_text(transcript: Transcript) -> dict[str, dict]:
    """{text or name part (case-folded): the first accepted or added span that has it}."""
    text = transcript.text
    out: dict[str, dict] = {}
    spans = (
        Span.objects.filter(
            transcript=transcript, status__in=[Span.Status.ACCEPTED, Span.Status.ADDED]
        )
        .order_by("start")
        .values_list("pk", "version", "start", "end", "label")
    )
    for pk, version, start, end, label in spans:
        mention = text[start:end]
        info = {"id": pk, "version": version, "text": mention, "label": label}
        out.setdefault(mention.casefold(), info)
        if label == "PERSON":
            for s, e in person_name_parts(mention, 0, len(mention)):
                out.setdefault(mention[s:e].casefold(), info)
    return out


def blocking_leaks(leaks: list[Leak]) -> list[Leak]:
    return [leak for leak in leaks if leak.blocking]
