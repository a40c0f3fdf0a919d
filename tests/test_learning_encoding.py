"""BIO tags, word-piece label alignment and sliding windows (engine.learning.encoding)."""

import random

import pytest

from engine.learning.encoding import (
    OUTSIDE,
    align_labels,
    bio_tags,
    decode_words,
    encode_text,
    make_windows,
    word_starts,
)
from tests.learning_support import hearings


def covered(windows, n):
    seen = set()
    for s, e in windows:
        seen.update(range(s, e))
    return seen == set(range(n))


def test_bio_tags_put_outside_first_then_b_and_i_per_label():
    assert bio_tags(["PERSON", "DATE"]) == ["O", "B-PERSON", "I-PERSON", "B-DATE", "I-DATE"]


@pytest.mark.parametrize("n", [0, 1, 7, 510, 511, 1500, 4097])
@pytest.mark.parametrize("max_tokens,stride", [(510, 128), (62, 16), (8, 3)])
def test_windows_cover_every_token_within_the_size_limit(n, max_tokens, stride):
    windows = make_windows(n, max_tokens=max_tokens, stride=stride)
    assert covered(windows, n)
    assert all(0 < e - s <= max_tokens for s, e in windows)
    assert [s for s, _ in windows] == sorted({s for s, _ in windows})  # strictly advancing
    for (_s0, e0), (s1, _e1) in zip(windows, windows[1:], strict=False):
        assert e0 - s1 == min(stride, max_tokens // 2)  # overlap of `stride` pieces


def test_windows_are_only_cut_where_allowed():
    rng = random.Random(3)
    n = 3000
    forbidden = {i for i in range(n) if rng.random() < 0.6}  # e.g. inside entities or words
    windows = make_windows(n, max_tokens=100, stride=20, can_cut=lambda i: i not in forbidden)
    assert covered(windows, n)
    for s, e in windows:
        assert e - s <= 100
        assert s == 0 or s not in forbidden
        assert e == n or e not in forbidden


def test_an_entity_longer_than_a_window_is_the_only_thing_ever_cut():
    windows = make_windows(50, max_tokens=10, stride=2, can_cut=lambda i: not 5 <= i <= 30)
    assert covered(windows, 50)
    assert all(e - s <= 10 for s, e in windows)


@pytest.mark.slow
def test_labels_align_with_word_pieces():
    from engine.learning import hf

    tokenizer = hf.load_tokenizer(hf.default_base_model_dir())
    text = "Mr. Quillfeather, CDCR number V12345, was born in Ione on May 5, 1970."
    spans = [
        (4, 16, "PERSON"),  # Quillfeather: several pieces
        (30, 36, "CDCR_ID"),  # V12345 → v ##12 ##34 ##5
        (50, 54, "LOCATION"),
        (58, 69, "DATE"),  # May 5, 1970: words and punctuation
    ]
    tags = bio_tags(["PERSON", "CDCR_ID", "LOCATION", "DATE"])
    tag2id = {t: i for i, t in enumerate(tags)}
    encoded = encode_text(tokenizer, text)
    ids = align_labels(encoded.offsets, spans, tag2id)
    by_span = {}
    for (s, e), tag_id in zip(encoded.offsets, ids, strict=True):
        assert text[s:e].strip() == text[s:e] and e > s  # offsets are real characters
        owner = next((sp for sp in spans if sp[0] < e and s < sp[1]), None)
        if owner is None:
            assert tags[tag_id] == OUTSIDE
        else:
            by_span.setdefault(owner, []).append(tags[tag_id])
    for (_start, _end, label), piece_tags in by_span.items():
        assert piece_tags[0] == f"B-{label}"
        assert all(t == f"I-{label}" for t in piece_tags[1:])
    assert len(by_span[(4, 16, "PERSON")]) > 1  # the name is split into word pieces
    assert len(by_span[(30, 36, "CDCR_ID")]) == 4
    assert len(by_span[(58, 69, "DATE")]) == 4  # may 5 , 1970


@pytest.mark.slow
def test_training_windows_cover_every_piece_and_never_cut_an_entity():
    from engine.learning import hf
    from engine.learning.train import training_windows

    tokenizer = hf.load_tokenizer(hf.default_base_model_dir())
    doc = hearings((11,))[0]
    labels = sorted({s.label for s in doc.spans})
    tags = bio_tags(labels)
    tag2id = {t: i for i, t in enumerate(tags)}
    encoded = encode_text(tokenizer, doc.text)
    all_tags = align_labels(encoded.offsets, [(s.start, s.end, s.label) for s in doc.spans], tag2id)
    windows, counts = training_windows(tokenizer, [doc], tag2id, max_length=64, stride=16)
    assert sum(counts.values()) == len(encoded)
    assert len(windows) > 5
    # Rebuild the piece sequence from the windows: every piece is in some window, in order.
    position = 0
    for ids, window_tags in windows:
        assert (
            len(ids) <= 64
            and ids[0] == tokenizer.cls_token_id
            and ids[-1] == tokenizer.sep_token_id
        )
        body, body_tags = ids[1:-1], window_tags[1:-1]
        # Find where this window starts in the document (at or before `position`).
        start = next(
            s
            for s in range(position, -1, -1)
            if encoded.input_ids[s : s + len(body)] == body
            and all_tags[s : s + len(body)] == body_tags
        )
        assert start <= position
        # No window starts inside an entity (so none is cut at its start).
        assert not tags[body_tags[0]].startswith("I-")
        end = start + len(body)
        if end < len(encoded):
            assert not tags[all_tags[end]].startswith("I-")  # ... nor at its end
        position = end
    assert position == len(encoded)


def test_decode_words_returns_whole_words_in_character_offsets():
    text = "Mr. Quillfeather lives in Ione."
    # Pieces: mr . quill ##fea ##ther lives in ione .
    offsets = [(0, 2), (2, 3), (4, 9), (9, 12), (12, 16), (17, 22), (23, 25), (26, 30), (30, 31)]
    assert word_starts(text, offsets) == [True, True, True, False, False, True, True, True, True]
    tags = bio_tags(["PERSON", "LOCATION"])
    t = {tag: i for i, tag in enumerate(tags)}
    # Only the first piece of "Quillfeather" is tagged: the word still comes back whole.
    ids = [t["O"], t["O"], t["B-PERSON"], t["O"], t["O"], t["O"], t["O"], t["I-LOCATION"], t["O"]]
    scores = [0.9, 0.9, 0.8, 0.1, 0.1, 0.9, 0.9, 0.6, 0.9]
    spans = decode_words(text, offsets, ids, scores, tags)
    assert [(s.start, s.end, s.label) for s in spans] == [(4, 16, "PERSON"), (26, 30, "LOCATION")]
    assert text[spans[0].start : spans[0].end] == "Quillfeather"
    assert spans[0].score == pytest.approx(0.8)


def test_decoding_glues_pieces_of_one_mention_split_by_punctuation():
    text = "Call 555-0134 or jo.doe@mail.com now, John Doe."
    # Words: call 555 - 0134 or jo . doe @ mail . com now , john doe .
    offsets = [(0, 4), (5, 8), (8, 9), (9, 13), (14, 16), (17, 19), (19, 20), (20, 23),
               (23, 24), (24, 28), (28, 29), (29, 32), (33, 36), (36, 37), (38, 42),
               (43, 46), (46, 47)]  # fmt: skip
    tags = bio_tags(["PERSON", "PHONE_NUMBER", "EMAIL_ADDRESS"])
    t = {tag: i for i, tag in enumerate(tags)}
    o, ph, em, pe = t["O"], t["B-PHONE_NUMBER"], t["B-EMAIL_ADDRESS"], t["B-PERSON"]
    ids = [o, ph, o, ph, o, em, o, em, t["I-EMAIL_ADDRESS"], em, em, em, o, o, pe, pe, o]
    spans = decode_words(text, offsets, ids, [0.9] * len(ids), tags)
    assert [(text[s.start : s.end], s.label) for s in spans] == [
        ("555-0134", "PHONE_NUMBER"),
        ("jo.doe@mail.com", "EMAIL_ADDRESS"),
        ("John", "PERSON"),  # a space keeps name parts apart
        ("Doe", "PERSON"),
    ]
