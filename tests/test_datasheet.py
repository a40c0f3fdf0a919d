"""engine.datasheet: seeded splits by transcript and the datasheet's counts."""

import pytest

from engine.datasheet import doc_counts, parse_ratios, split_groups, split_sizes
from engine.gold import GoldDoc, GoldSpan


def test_split_sizes_use_the_largest_remainder():
    assert split_sizes(10, (80, 10, 10)) == [8, 1, 1]
    assert split_sizes(3, (80, 10, 10)) == [3, 0, 0]
    assert split_sizes(7, (1, 1, 1)) == [3, 2, 2]
    assert split_sizes(0, (80, 10, 10)) == [0, 0, 0]
    assert sum(split_sizes(101, (70, 20, 10))) == 101


def test_split_groups_are_seeded_disjoint_and_complete():
    ids = list(range(1, 21))
    a = split_groups(ids, (80, 10, 10), seed=7)
    assert a == split_groups(reversed(ids), (80, 10, 10), seed=7)  # order of input irrelevant
    assert a != split_groups(ids, (80, 10, 10), seed=8)
    assert sorted(a["train"] + a["dev"] + a["test"]) == ids
    assert [len(a[k]) for k in ("train", "dev", "test")] == [16, 2, 2]


@pytest.mark.parametrize("bad", ["80,20", "a,b,c", "-1,50,51", "0,0,0", ""])
def test_parse_ratios_refuses_anything_but_three_non_negative_numbers(bad):
    with pytest.raises(ValueError, match="80,10,10"):
        parse_ratios(bad)
    assert parse_ratios("80,10,10") == (80, 10, 10)


def test_doc_counts():
    docs = [
        GoldDoc("a", "Ann met Bo.", [GoldSpan(0, 3, "PERSON"), GoldSpan(8, 10, "PERSON")]),
        GoldDoc("b", "In Fresno.", [GoldSpan(3, 9, "LOCATION")]),
    ]
    assert doc_counts(docs) == {
        "documents": 2,
        "tokens": 7,
        "mentions": 3,
        "labels": {"PERSON": 2, "LOCATION": 1},
    }
