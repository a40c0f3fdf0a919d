"""The BILUO tagger head's tags and their reading back into spans (engine.learning.biluo)."""

import pytest
from spacy.lang.en import English
from spacy.tokens import Doc

from engine.learning.biluo import best_tags, spans_from_tags, tag_labels


def texts(words, tags):
    doc = Doc(English().vocab, words=words)
    return [(doc.text[s:e], label) for s, e, label in spans_from_tags(doc, 0, tags)]


def test_the_tags_are_outside_then_four_per_label_in_a_fixed_order():
    assert tag_labels(["PERSON", "DATE"]) == [
        "O",
        *("B-PERSON", "I-PERSON", "L-PERSON", "U-PERSON"),
        *("B-DATE", "I-DATE", "L-DATE", "U-DATE"),
    ]


def test_well_formed_tags_give_their_mentions_with_offsets():
    words = ["Mr.", "Ann", "Lee", "came", "on", "May", "1", "."]
    tags = ["O", "B-PERSON", "L-PERSON", "O", "O", "B-DATE", "L-DATE", "O"]
    assert texts(words, tags) == [("Ann Lee", "PERSON"), ("May 1", "DATE")]
    doc = Doc(English().vocab, words=words)
    assert spans_from_tags(doc, 100, tags)[0] == (104, 111, "PERSON")


@pytest.mark.parametrize(
    "tags,expected",
    [
        # a mention the softmax began without a B: it begins at its first I or L
        (["O", "I-PERSON", "L-PERSON", "O"], [("Ann Lee", "PERSON")]),
        # a mention left open: it ends where the next tag does not continue it
        (["O", "B-PERSON", "I-PERSON", "O"], [("Ann Lee", "PERSON")]),
        # another label in the middle: two mentions
        (["O", "B-PERSON", "L-LOCATION", "O"], [("Ann", "PERSON"), ("Lee", "LOCATION")]),
        # a U after a B: the B's mention ends, the U is one of its own
        (
            ["U-PERSON", "B-PERSON", "U-PERSON", "O"],
            [("Dr", "PERSON"), ("Ann", "PERSON"), ("Lee", "PERSON")],
        ),
        # no tag at all reads as outside
        (["", "", "", ""], []),
    ],
)
def test_tags_that_break_the_scheme_are_read_leniently(tags, expected):
    assert texts(["Dr", "Ann", "Lee", "spoke"], tags) == expected


def test_the_best_sequence_keeps_to_the_scheme_where_the_likeliest_tags_break_it():
    import numpy

    tags = tag_labels(["PERSON", "LOCATION"])
    at = {t: i for i, t in enumerate(tags)}

    def scores(rows):
        out = numpy.full((len(rows), len(tags)), 0.01, dtype="float32")
        for i, row in enumerate(rows):
            for tag, p in row.items():
                out[i, at[tag]] = p
        return numpy.log(out)  # scores before a softmax

    # "Lena" a little likelier the start of a place, "Hollis" clearly a person's end:
    # one person, not a place and a person
    lena_hollis = scores(
        [{"O": 0.9}, {"B-LOCATION": 0.45, "B-PERSON": 0.4}, {"L-PERSON": 0.8}, {"O": 0.9}]
    )
    plain = scores([{"O": 0.9}, {"U-PERSON": 0.9}])
    a, b = best_tags(tags, [lena_hollis, plain])
    assert a == ["O", "B-PERSON", "L-PERSON", "O"]
    assert b == ["O", "U-PERSON"]
    assert best_tags(tags, []) == []
