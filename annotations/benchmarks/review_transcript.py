"""The long reviewed transcript the review benchmarks (and many tests) work on: a stored
synthetic hearing with suggested spans and reference groups, or a transcript of another
layout family (``engine.synthetic.families``: a grand jury volume, a deposition, ...)
imported as the importer reads its text export."""

import random
import uuid

from annotations.services.review import review_assign_entities
from engine.detectors.names import stored_pieces
from transcripts.models import Transcript, Utterance

DETECTORS = ("presidio", "spacy", "rampart", "cover_names", "propagation")


def _generated(seed: int, words: int, layout: str):
    """(text, metadata, page count, utterances, gold spans) of a generated transcript.
    ``bph``: ``generate_hearing``'s hearing; another family: its text export as the
    importer reads it (its gold's offsets are into that text; checked)."""
    if layout == "bph":
        from engine.synthetic import generate_hearing

        hearing = generate_hearing(seed, words=words)
        pages = max((u.page for u in hearing.utterances), default=0)
        return hearing.text, hearing.metadata, pages, hearing.utterances, hearing.gold.spans
    from engine.importing import parse_text
    from engine.synthetic.families import family_document
    from engine.synthetic.family_render import render_text

    doc = family_document(seed, layout, words=words)
    parsed = parse_text(render_text(doc).encode())
    if doc.gold is None or parsed.text != doc.gold.text:
        raise ValueError(f"the {layout} family's gold does not fit its imported text")
    return parsed.text, parsed.metadata, parsed.page_count, parsed.utterances, doc.gold.spans


def build_review_transcript(
    *,
    seed: int = 7,
    words: int = 15000,
    max_spans: int | None = 1500,
    assignees=(),
    title=None,
    layout: str = "bph",
) -> Transcript:
    """A stored synthetic transcript with suggested spans and reference groups (for
    benchmarks and tests): its gold mentions as suggestions, PERSON split into name parts,
    thinned evenly to ``max_spans``. ``layout``: ``bph`` (a parole hearing) or another
    family of ``engine.synthetic.families.FAMILIES``."""
    from annotations.services.annotation import suggestions_create

    text, metadata, page_count, utterances, gold = _generated(seed, words, layout)
    kind = "hearing" if layout == "bph" else layout.replace("_", " ")
    transcript = Transcript.objects.create(
        title=title or f"Synthetic {kind} {seed} ({words} words)",
        text=text,
        metadata=metadata,
        sha256=f"bench-{layout}-{seed}-{words}-{uuid.uuid4().hex}"[:64],
        state=Transcript.State.READY,
        page_count=page_count,
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
        for i, u in enumerate(utterances)
    )
    extents = []
    for span in gold:
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
