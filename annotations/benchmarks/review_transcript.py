"""The long reviewed transcript the review benchmarks (and many tests) work on: a stored
synthetic hearing with suggested spans and reference groups."""

import random
import uuid

from annotations.services.review import review_assign_entities
from engine.detectors.names import stored_pieces
from transcripts.models import Transcript, Utterance

DETECTORS = ("presidio", "spacy", "rampart", "cover_names", "propagation")


def build_review_transcript(
    *, seed: int = 7, words: int = 15000, max_spans: int | None = 1500, assignees=(), title=None
) -> Transcript:
    """A stored synthetic hearing with suggested spans and reference groups (for benchmarks
    and tests): its gold mentions as suggestions, PERSON split into name parts, thinned
    evenly to ``max_spans``."""
    from annotations.services.annotation import suggestions_create
    from engine.synthetic import generate_hearing

    hearing = generate_hearing(seed, words=words)
    text = hearing.text
    transcript = Transcript.objects.create(
        title=title or f"Synthetic hearing {seed} ({words} words)",
        text=text,
        metadata=hearing.metadata,
        sha256=f"bench-{seed}-{words}-{uuid.uuid4().hex}",
        state=Transcript.State.READY,
        page_count=max((u.page for u in hearing.utterances), default=0),
    )
    Utterance.objects.bulk_create(
        Utterance(
            transcript=transcript,
            index=i,
            speaker=u.speaker,
            role=u.role,
            page=u.page,
            section=u.section,
            start=u.start,
            end=u.end,
        )  # fmt: skip
        for i, u in enumerate(hearing.utterances)
    )
    extents = []
    for span in hearing.gold.spans:
        pieces = stored_pieces(text, span.start, span.end, span.label)
        extents += [(s, e, span.label) for s, e in pieces]
    extents = sorted(set(extents))
    if max_spans and len(extents) > max_spans:
        step = len(extents) / max_spans
        extents = [extents[int(i * step)] for i in range(max_spans)]
    rng = random.Random(seed)
    spans = []
    last_end = -1
    for start, end, label in extents:
        if start < last_end:
            continue
        last_end = end
        score = round(rng.uniform(0.35, 0.99), 2)
        provenance = [{"detector": d, "score": round(min(1.0, score + rng.uniform(-0.1, 0.1)), 2)}
                      for d in rng.sample(DETECTORS, rng.randint(1, 3))]  # fmt: skip
        spans.append((start, end, label, provenance, score))
    # As the annotation stores them: a machine proposal per suggestion (the approval
    # screen compares the decisions with it).
    suggestions_create(transcript=transcript, proposed=spans)
    if assignees:
        transcript.assignees.set(assignees)
    review_assign_entities(transcript=transcript)
    return transcript
