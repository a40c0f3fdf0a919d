"""The domain model's training data: documents cut into chunks at line breaks (never
inside a gold span), people renamed in a share of them (``swap_names``), and spaCy
``Example``s of BILUO tags (``examples``). Every chunk is a cancellation point
(``engine.progress.checkpoint``): preparing ten 15,000-word hearings takes minutes of
CPU on a busy machine, and a cancelled job must not wait for it. Django-free.
"""

from __future__ import annotations

import random
import re
import warnings
from collections import Counter
from collections.abc import Sequence
from typing import Any

from engine.gold import GoldDoc
from engine.labels import LABELS
from engine.progress import checkpoint


def chunks(doc: GoldDoc, max_chars: int) -> list[tuple[int, int]]:
    """``(start, end)`` pieces of ``doc.text`` ending at line breaks, never inside a span."""
    text = doc.text
    inside = sorted((s.start, s.end) for s in doc.spans)
    out, start, n = [], 0, len(text)

    def in_span(offset: int) -> bool:
        return any(s < offset < e for s, e in inside if s < offset)

    while start < n:
        end = min(n, start + max_chars)
        if end < n:
            cut = text.rfind("\n", start, end)
            while cut > start and in_span(cut + 1):
                cut = text.rfind("\n", start, cut)
            if cut > start:
                end = cut + 1
            else:
                nxt = text.find("\n", end)
                end = n if nxt == -1 else nxt + 1
        out.append((start, end))
        start = end
    return out


def _labels_of(docs: Sequence[GoldDoc], wanted: Sequence[str] | None) -> list[str]:
    present = {s.label for d in docs for s in d.spans}
    keep = set(wanted) if wanted else present
    return [label for label in LABELS if label in keep and label in present]


_NAME_WORD = re.compile(r"[^\W\d_][^\W\d_'’-]*(?:['’-][^\W\d_]+)*")
_KEEP_WORDS = frozenset({"mr", "mrs", "ms", "dr", "jr", "sr", "ii", "iii", "iv"})


def _name_pool() -> list[str]:
    from faker.providers.person.en_US import Provider

    return sorted(set(Provider.first_names) | set(Provider.last_names))


def swap_names(
    text: str, spans: list[tuple[int, int, str]], rng: random.Random, pool: Sequence[str]
) -> tuple[str, list[tuple[int, int, str]]]:
    """``text`` with every word of its PERSON spans replaced by a name of ``pool`` (the
    same word by the same name throughout, in the same case: ``SKINNER`` → ``MORROW``,
    ``Skinner`` → ``Morrow``), and the spans moved with it. ``spans``: sorted, disjoint."""
    mapping: dict[str, str] = {}

    def swap(match: re.Match) -> str:
        word = match.group(0)
        key = word.casefold()
        if len(word) < 2 or key in _KEEP_WORDS:
            return word
        new = mapping.setdefault(key, rng.choice(pool))
        if word.isupper():
            return new.upper()
        return new if word[:1].isupper() else new.lower()

    out, moved, pos, size = [], [], 0, 0
    for s, e, label in spans:
        out.append(text[pos:s])
        size += s - pos
        piece = _NAME_WORD.sub(swap, text[s:e]) if label == "PERSON" else text[s:e]
        moved.append((size, size + len(piece), label))
        out.append(piece)
        size += len(piece)
        pos = e
    out.append(text[pos:])
    return "".join(out), moved


def _examples(
    nlp: Any,
    docs: Sequence[GoldDoc],
    labels: Sequence[str],
    chunk_chars: int,
    *,
    swap_share: float = 0.0,
    seed: int = 0,
):
    """spaCy ``Example``s, one per chunk (``swap_share`` of them with their people
    renamed, ``swap_names``); counts of spans taught and left out."""
    from spacy.training import Example, offsets_to_biluo_tags

    keep = set(labels)
    examples, counts = [], Counter()
    rng = random.Random(seed)
    pool = _name_pool() if swap_share else []
    for doc in docs:
        for start, end in chunks(doc, chunk_chars):
            checkpoint()  # a job's cancellation point (engine.progress.watching)
            piece = doc.text[start:end]
            if not piece.strip():
                continue
            spans = sorted(
                (s.start - start, s.end - start, s.label)
                for s in doc.spans
                if start <= s.start and s.end <= end and s.label in keep
            )
            chosen, last = [], -1  # overlapping gold: keep the first
            for s, e, label in spans:
                if s >= last:
                    chosen.append((s, e, label))
                    last = e
            ignore = [(i0 - start, i1 - start) for i0, i1 in doc.ignore]
            if swap_share and not ignore and rng.random() < swap_share:
                piece, chosen = swap_names(piece, chosen, rng, pool)
                counts["chunks_renamed"] += 1
            predicted = nlp.make_doc(piece)
            with warnings.catch_warnings():  # W030: a span off token boundaries (counted)
                warnings.simplefilter("ignore", UserWarning)
                # tokens outside every span are "O"; a span off token boundaries stays "-"
                tags = offsets_to_biluo_tags(predicted, chosen)
            # gold ``ignore`` regions count neither way: their tokens are missing too
            for i0, i1 in ignore:
                for k, token in enumerate(predicted):
                    if i0 < token.idx + len(token) and token.idx < i1:
                        tags[k] = "-"
            aligned = sum(1 for s, e, _ in chosen if predicted.char_span(s, e) is not None)
            counts["spans"] += aligned
            counts["spans_not_on_tokens"] += len(chosen) - aligned
            counts["train_words"] += len(piece.split())
            examples.append(Example.from_dict(predicted, {"entities": tags}))
    return examples, counts
