"""The review at size: a bulk decision and its undo, reading mode and the review page of
transcripts at the sizes people meet (undo of a 6,000-mention form answered 500
after 30 s; reading mode of a 14 MB text 7 s, the size limit 500).

``build_form_transcript`` stores a synthetic transcript of ``mentions`` "Um" taken for a
PERSON (five a line, 25 lines a page) beside a real-looking name; ``measure_undo`` times a
whole-form reject and a whole-form accept against their undo through the services;
``measure_pages`` times reading mode and the review page through Django's test client
(in process: middleware, queries, templates; no network). Everything runs against the
configured database (``DATABASE_URL`` for PostgreSQL).
"""

from __future__ import annotations

import hashlib
import re
import time
import uuid

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from annotations.benchmarks.clients import bench_client
from annotations.models import Span
from transcripts.models import Transcript, Utterance

UM_LINE = "WITNESS: Um, well, um, I think, Um, that UM was, um, so."


def build_form_transcript(*, mentions: int, assignees=()) -> Transcript:
    """``mentions`` suggested PERSON spans of one surface form ("um", four spellings) and
    one real-looking name; synthetic text only."""
    from annotations.services.review import review_assign_entities

    lines = ["WITNESS: I met Darrow Kell there."] + [UM_LINE] * (mentions // 5)
    text = "\n".join(lines) + "\n"
    transcript = Transcript.objects.create(
        title=f"Synthetic hearing of {mentions} ums",
        text=text,
        sha256=hashlib.sha256(f"{uuid.uuid4()}:{text}".encode()).hexdigest(),
        state=Transcript.State.READY,
        page_count=len(lines) // 25 + 1,
    )
    offset, utterances, spans = 0, [], []
    for index, line in enumerate(lines):
        utterances.append(
            Utterance(transcript=transcript, index=index, speaker="WITNESS", page=index // 25 + 1,
                      start=offset, end=offset + len(line))
        )  # fmt: skip
        for m in re.finditer(r"\b(?:um|Darrow Kell)\b", line, re.IGNORECASE):
            spans.append(
                Span(transcript=transcript, start=offset + m.start(), end=offset + m.end(),
                     label="PERSON", score=0.9, provenance=[{"detector": "cover", "score": 0.9}])
            )  # fmt: skip
        offset += len(line) + 1
    Utterance.objects.bulk_create(utterances, batch_size=500)
    Span.objects.bulk_create(spans, batch_size=500)
    transcript.assignees.set(assignees)
    review_assign_entities(transcript=transcript)
    return transcript


def _timed(call) -> tuple[float, int]:
    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        call()
        seconds = time.perf_counter() - started
    return seconds, len(queries)


def measure_undo(*, sizes: list[int], user) -> list[dict]:
    """Per size and action (``reject_form``, ``accept_form``): the action's seconds and
    queries, its undo's, and the ratio undo / action."""
    from annotations.services import review as rs

    rows = []
    for size in sizes:
        transcript = build_form_transcript(mentions=size, assignees=[user])
        try:
            for action, service in (
                ("reject_form", rs.spans_reject_form),
                ("accept_form", rs.spans_accept_form),
            ):
                forward, forward_q = _timed(
                    lambda s=service, t=transcript: s(
                        transcript=t, actor=user, label="PERSON", form="um"
                    )
                )
                undo, undo_q = _timed(lambda t=transcript: rs.review_undo(transcript=t, actor=user))
                left = Span.objects.filter(transcript=transcript).exclude(status="suggested")
                assert not left.exists(), "undo left decided spans"
                rows.append(
                    {"spans": size, "action": action, "forward_s": round(forward, 3),
                     "undo_s": round(undo, 3), "ratio": round(undo / forward, 2),
                     "forward_queries": forward_q, "undo_queries": undo_q}
                )  # fmt: skip
        finally:
            transcript.delete()
    return rows


def _get(client, url: str) -> tuple[float, int, int]:
    started = time.perf_counter()
    response = client.get(url)
    seconds = time.perf_counter() - started
    assert response.status_code == 200, (url, response.status_code)
    return seconds, len(response.content), response.status_code


def measure_pages(*, sizes: list[int], long_lines: int, user, repeat: int = 2) -> list[dict]:
    """Reading mode and the review page: of a form transcript of each size (its mentions
    accepted, so the release text has tags) and of a ``long_lines``-line text import (no
    page marks; 0 leaves it out). Best of ``repeat`` after a warm-up call."""
    from annotations.selectors.reading import reading_parts
    from annotations.services import review as rs

    client = bench_client()
    client.force_login(user)
    made: list[tuple[str, Transcript]] = []
    rows = []
    try:
        for size in sizes:
            transcript = build_form_transcript(mentions=size, assignees=[user])
            rs.spans_accept_form(transcript=transcript, actor=user, label="PERSON", form="um")
            made.append((f"{size} spans", transcript))
        if long_lines:
            from transcripts.management.commands.bench_import import text_lines
            from transcripts.services.importing import transcript_import

            transcript = transcript_import(
                name="long.txt", data=text_lines("prose", long_lines), user=user, annotate=False
            )
            transcript.assignees.add(user)
            made.append((f"{long_lines} lines", transcript))
        for name, transcript in made:
            for page, url in (
                ("reading", reverse("annotations:review-reading", args=[transcript.pk])),
                ("review", reverse("annotations:review", args=[transcript.pk])),
            ):
                _get(client, url)  # warm-up
                timings = [_get(client, url) for _ in range(repeat)]
                rows.append(
                    {"transcript": name, "chars": len(transcript.text), "page": page,
                     "parts": len(reading_parts(transcript=transcript)) if page == "reading" else None,
                     "seconds": round(min(t[0] for t in timings), 3),
                     "bytes": timings[0][1]}
                )  # fmt: skip
    finally:
        for _name, transcript in made:
            transcript.delete()
    return rows
