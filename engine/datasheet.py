"""Seeded train/dev/test splits by transcript and the counts a datasheet reports. Django-free.

A split is by document group, never by sentence: every document of one transcript (its
double-annotation copy included) lands in the same part, so no text is in two parts.
The same ids, ratios and seed always give the same split. A seed is a whole number,
0 ≤ seed < 2**32 (:func:`parse_seed`, :func:`check_seed`).

``tokens`` in a datasheet means the tokens of the exported files (:data:`TOKENIZATION`):
spaCy's English tokenizer with a cut at every span edge
(:func:`engine.pseudonymize.formats.spacy_doc`), whitespace tokens not counted — the
token lines of the CoNLL file, and the DocBin's tokens less its ``whitespace_tokens``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable, Iterable, Sequence

from engine.evaluation.metrics import _label_sort
from engine.gold import GoldDoc

SPLIT_NAMES = ("train", "dev", "test")
SEED_LIMIT = 2**32
TOKENIZATION = (
    "tokens of the exported files: spaCy's English tokenizer (spacy.blank('en')) with a cut "
    "at every span edge, whitespace tokens not counted; they are the token lines of the "
    "CoNLL file, and the DocBin's tokens are tokens + whitespace_tokens (SVALA's source "
    "tokens are whitespace-delimited pieces and differ)"
)


def check_seed(seed: object) -> int:
    """``seed`` if it is a whole number with 0 ≤ seed < 2**32, else ``ValueError`` with a
    sentence (never Python's own message about digit limits)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT:
        raise ValueError(
            f"the split's seed must be a whole number from 0 to {SEED_LIMIT - 1}, e.g. 0 or 42"
        )
    return seed


def parse_seed(value: str) -> int:
    """A seed as typed (``"42"``) → ``42``; anything else (letters, a sign, a 5,000-digit
    number) raises ``ValueError`` with a sentence. The length is checked before ``int``."""
    value = (value or "").strip()
    if not value:
        return 0
    if len(value) > len(str(SEED_LIMIT)) or not value.isascii() or not value.isdigit():
        return check_seed(None)
    return check_seed(int(value))


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


def doc_tokens(doc: GoldDoc) -> tuple[int, int]:
    """(tokens, whitespace tokens) of ``doc`` as the exported files hold it
    (:data:`TOKENIZATION`)."""
    from engine.pseudonymize.formats import spacy_doc

    words = space = 0
    for token in spacy_doc(doc):
        if token.is_space or not token.text.strip():
            space += 1
        else:
            words += 1
    return words, space


def doc_counts(docs: Sequence[GoldDoc]) -> dict:
    """Documents, tokens (:data:`TOKENIZATION`), whitespace tokens, mentions and mentions
    per label of ``docs``."""
    labels: Counter[str] = Counter()
    tokens = space = 0
    for doc in docs:
        labels.update(span.label for span in doc.spans)
        words, blanks = doc_tokens(doc)
        tokens += words
        space += blanks
    return {
        "documents": len(docs),
        "tokens": tokens,
        "whitespace_tokens": space,
        "mentions": sum(labels.values()),
        "labels": {label: labels[label] for label in _label_sort(labels)},
    }
