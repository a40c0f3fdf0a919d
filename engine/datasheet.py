"""Seeded train/dev/test splits by transcript and the counts a datasheet reports. Django-free.

A split is by document group, never by sentence: every document of one transcript (its
double-annotation copy included) lands in the same part, so no text is in two parts.
The same ids, ratios and seed always give the same split.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable, Iterable, Sequence

from engine.evaluation.metrics import _label_sort, tokenize
from engine.gold import GoldDoc

SPLIT_NAMES = ("train", "dev", "test")


def parse_ratios(value: str) -> tuple[int, int, int]:
    """``"80,10,10"`` → ``(80, 10, 10)``; three non-negative integers with a positive sum."""
    try:
        ratios = tuple(int(part) for part in value.split(","))
    except ValueError:
        raise ValueError(f"split {value!r}: give three whole numbers, e.g. 80,10,10") from None
    if len(ratios) != 3 or min(ratios) < 0 or sum(ratios) <= 0:
        raise ValueError(f"split {value!r}: give three non-negative numbers, e.g. 80,10,10")
    return ratios  # type: ignore[return-value]


def split_sizes(n: int, ratios: Sequence[int]) -> list[int]:
    """How many of ``n`` groups go to each part (largest remainder, ties to the earlier part)."""
    total = sum(ratios)
    exact = [n * r / total for r in ratios]
    sizes = [int(x) for x in exact]
    order = sorted(range(len(ratios)), key=lambda i: (-(exact[i] - sizes[i]), i))
    for i in order[: n - sum(sizes)]:
        sizes[i] += 1
    return sizes


def split_groups(
    groups: Iterable[Hashable], ratios: Sequence[int], seed: int
) -> dict[str, list[Hashable]]:
    """The groups (transcript ids) in each part: sorted, shuffled with ``seed``, cut by
    :func:`split_sizes`. Each part's ids are returned sorted."""
    ordered = sorted(set(groups), key=str)
    random.Random(seed).shuffle(ordered)
    out: dict[str, list[Hashable]] = {}
    pos = 0
    for name, size in zip(SPLIT_NAMES, split_sizes(len(ordered), ratios), strict=True):
        out[name] = sorted(ordered[pos : pos + size], key=str)
        pos += size
    return out


def doc_counts(docs: Sequence[GoldDoc]) -> dict:
    """Documents, tokens, mentions and mentions per label of ``docs``."""
    labels: Counter[str] = Counter()
    for doc in docs:
        labels.update(span.label for span in doc.spans)
    return {
        "documents": len(docs),
        "tokens": sum(len(tokenize(doc.text)) for doc in docs),
        "mentions": sum(labels.values()),
        "labels": {label: labels[label] for label in _label_sort(labels)},
    }
