"""BIO tagging, word-piece label alignment and sliding windows. Django-free, torch-free.

A text is tokenized once, without special tokens, into word pieces with their
character offsets (``offsets[i] = (start, end)`` into the text, end exclusive).

Labels are aligned to *every* word piece: the first piece that overlaps a gold span
gets ``B-LABEL``, the following pieces of that span ``I-LABEL``, the rest ``O``.
Decoding works on *words* (pieces glued together without a gap, e.g. ``v ##12 ##345``):
a word takes the tag of its first piece, so a predicted span never ends inside a word.

Windows: a model sees at most ``max_length`` pieces (including ``[CLS]``/``[SEP]``),
so long texts are cut into overlapping windows. A window boundary is only placed
before a piece that starts a new word and (in training, where the gold is known)
is not inside an entity, so no entity and no word is ever cut; consecutive windows
overlap by about ``stride`` pieces. At inference every piece takes its prediction
from the window in which it lies furthest from an edge (the most context).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

OUTSIDE = "O"
IGNORE_INDEX = -100  # torch's CrossEntropyLoss ignore_index


def bio_tags(labels: Iterable[str]) -> list[str]:
    """The tag inventory: ``O`` then ``B-X``, ``I-X`` for each label, in the given order."""
    tags = [OUTSIDE]
    for label in labels:
        tags += [f"B-{label}", f"I-{label}"]
    return tags


def tag_label(tag: str) -> str | None:
    return None if tag == OUTSIDE else tag[2:]


@dataclass(slots=True)
class Encoded:
    """A tokenized text: word-piece ids and their character offsets."""

    input_ids: list[int]
    offsets: list[tuple[int, int]]

    def __len__(self) -> int:
        return len(self.input_ids)


def encode_text(tokenizer, text: str) -> Encoded:
    """Word pieces of ``text`` with character offsets (a *fast* tokenizer is required)."""
    enc = tokenizer(
        text,
        add_special_tokens=False,
        return_offsets_mapping=True,
        return_attention_mask=False,
        return_token_type_ids=False,
        truncation=False,
        verbose=False,
    )
    pairs = [(int(s), int(e)) for s, e in enc["offset_mapping"]]
    ids = list(enc["input_ids"])
    # Drop zero-width pieces (none for BERT tokenizers; defensive for others).
    keep = [i for i, (s, e) in enumerate(pairs) if e > s]
    if len(keep) != len(ids):
        ids = [ids[i] for i in keep]
        pairs = [pairs[i] for i in keep]
    return Encoded(ids, pairs)


def word_starts(text: str, offsets: Sequence[tuple[int, int]]) -> list[bool]:
    """``True`` where a piece starts a new word.

    A piece continues the previous word when it starts exactly where the previous one
    ended and both characters at the seam are alphanumeric (``v`` + ``##12``).
    """
    starts = []
    for i, (s, _e) in enumerate(offsets):
        if i == 0:
            starts.append(True)
            continue
        prev_end = offsets[i - 1][1]
        glued = s == prev_end and s > 0 and text[s - 1].isalnum() and text[s].isalnum()
        starts.append(not glued)
    return starts


def align_labels(
    offsets: Sequence[tuple[int, int]],
    spans: Iterable[tuple[int, int, str]],
    tag2id: dict[str, int],
) -> list[int]:
    """Tag ids per piece for character ``spans`` ``(start, end, label)``.

    Spans whose label has no tag (not trained) are ignored; where spans overlap, the
    first one (by start) wins. Pieces only partly inside a span count as inside.
    """
    tags = [tag2id[OUTSIDE]] * len(offsets)
    owner = [-1] * len(offsets)
    starts = [s for s, _ in offsets]

    for number, (start, end, label) in enumerate(sorted(spans)):
        b_tag, i_tag = f"B-{label}", f"I-{label}"
        if b_tag not in tag2id:
            continue
        # First piece whose end is after the span start.
        i = max(0, bisect.bisect_right(starts, start) - 1)
        while i < len(offsets) and offsets[i][1] <= start:
            i += 1
        first = True
        while i < len(offsets) and offsets[i][0] < end:
            if owner[i] == -1:
                tags[i] = tag2id[b_tag if first else i_tag]
                owner[i] = number
                first = False
            elif first:
                # The span starts inside a piece another span owns: skip that piece.
                pass
            i += 1
    return tags


def entity_pieces(tags: Sequence[int], id2tag: Sequence[str]) -> list[bool]:
    """``True`` where a piece continues an entity (an ``I-`` tag): no window cut before it."""
    return [id2tag[t].startswith("I-") if t >= 0 else False for t in tags]


def make_windows(
    n_tokens: int,
    *,
    max_tokens: int,
    stride: int,
    can_cut: Callable[[int], bool] | None = None,
) -> list[tuple[int, int]]:
    """Token ranges ``[start, end)`` of at most ``max_tokens`` pieces covering ``0..n``.

    ``can_cut(i)`` says whether a window may begin or end before piece ``i``; the
    boundary moves back to the nearest such piece (never so far that the window gets
    empty; only a single word or entity longer than a window is ever cut). Consecutive
    windows overlap by about ``stride`` pieces (``stride < max_tokens``).
    """
    if max_tokens < 1:
        raise ValueError("max_tokens must be positive")
    stride = max(0, min(stride, max_tokens // 2))
    ok = can_cut or (lambda _i: True)
    windows: list[tuple[int, int]] = []
    start = 0
    while start < n_tokens:
        end = min(start + max_tokens, n_tokens)
        if end < n_tokens:
            cut = end
            while cut > start + 1 and not ok(cut):
                cut -= 1
            if cut > start + 1 or ok(cut):
                end = cut
        windows.append((start, end))
        if end >= n_tokens:
            break
        nxt = max(end - stride, start + 1)
        probe = nxt
        while probe > start + 1 and not ok(probe):
            probe -= 1
        if not ok(probe):
            # Nothing to cut at between this window's start and ``nxt`` (we are inside
            # one long entity): start after it instead, with less overlap.
            probe = nxt
            while probe < end and not ok(probe):
                probe += 1
        if ok(probe) and start < probe <= end:
            nxt = probe
        start = nxt
    return windows


@dataclass(frozen=True, slots=True)
class TaggedSpan:
    start: int
    end: int
    label: str
    score: float


def decode_words(
    text: str,
    offsets: Sequence[tuple[int, int]],
    tag_ids: Sequence[int],
    scores: Sequence[float],
    id2tag: Sequence[str],
) -> list[TaggedSpan]:
    """Character spans from per-piece tags, word by word.

    A word takes its first piece's tag and score. ``B-X`` opens a span; ``I-X``
    continues a span of the same label or opens one (lenient BIO); ``O`` closes.
    A span's score is the mean of its words' scores.
    """
    spans: list[TaggedSpan] = []
    starts = word_starts(text, offsets)
    current: list | None = None  # [start, end, label, [scores]]

    def close() -> None:
        nonlocal current
        if current is not None:
            s, e, label, sc = current
            spans.append(TaggedSpan(s, e, label, sum(sc) / len(sc)))
        current = None

    i = 0
    n = len(offsets)
    while i < n:
        j = i + 1
        while j < n and not starts[j]:
            j += 1
        w_start, w_end = offsets[i][0], offsets[j - 1][1]
        tag = id2tag[tag_ids[i]]
        if tag == OUTSIDE:
            close()
        else:
            label = tag[2:]
            if tag.startswith("I-") and current is not None and current[2] == label:
                current[1] = w_end
                current[3].append(float(scores[i]))
            else:
                close()
                current = [w_start, w_end, label, [float(scores[i])]]
        i = j
    close()
    return glue(text, spans)


def glue(text: str, spans: list[TaggedSpan], *, max_gap: int = 3) -> list[TaggedSpan]:
    """Join consecutive spans of one label separated by a few non-space characters.

    ``555`` ``-`` ``0134`` or ``jo`` ``.`` ``doe@mail.com``: a phone number, an e-mail
    address or an ID is one mention even when the model tagged a punctuation piece
    inside it ``O`` or restarted it with ``B-``. Spans separated by whitespace stay apart
    (``John`` ``Doe`` are two name parts when the gold says so).
    """
    out: list[TaggedSpan] = []
    for span in spans:
        if out:
            last = out[-1]
            gap = text[last.end : span.start]
            if (
                span.label == last.label
                and len(gap) <= max_gap
                and not any(c.isspace() for c in gap)
            ):
                out[-1] = TaggedSpan(
                    last.start, span.end, span.label, (last.score + span.score) / 2
                )
                continue
        out.append(span)
    return out
