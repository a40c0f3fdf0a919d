"""engine.datasheet: seeded splits by transcript and the datasheet's counts."""

import pytest

from engine.datasheet import (
    check_seed,
    doc_counts,
    parse_ratios,
    parse_seed,
    split_groups,
    split_sizes,
)
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
        "whitespace_tokens": 0,
        "mentions": 3,
        "labels": {"PERSON": 2, "LOCATION": 1},
    }


def test_doc_counts_count_the_tokens_the_exported_files_hold():
    """``tokens`` was a regex's count, neither the CoNLL's nor the DocBin's. Now
    spaCy's tokens with a cut at every span edge; blank lines are whitespace tokens."""
    from engine.pseudonymize.formats import to_conll

    text = "A: It's Jo-Ann O'Neil.\n\nB: P-E-R-R-Y. At 9:45 a.m.\n"
    doc = GoldDoc("d", text, [GoldSpan(text.index("P-E"), text.index("P-E") + 9, "SPELLED_NAME")])
    counts = doc_counts([doc])
    lines = [
        line
        for line in to_conll([doc]).decode().splitlines()
        if line and not line.startswith(("-DOCSTART-", "# "))
    ]
    assert counts["tokens"] == len(lines)
    assert counts["whitespace_tokens"] >= 1  # the blank line


@pytest.mark.parametrize("bad", ["9" * 5000, "-1", "4294967296", "1e3", "x", " 12 3", "٣"])
def test_parse_seed_refuses_with_a_sentence_before_int_sees_a_huge_number(bad):
    with pytest.raises(ValueError, match="from 0 to 4294967295") as exc:
        parse_seed(bad)
    assert "digits" not in str(exc.value)


def test_parse_seed_and_check_seed_take_whole_numbers_in_bounds():
    assert parse_seed("") == 0 and parse_seed(" 42 ") == 42
    assert parse_seed("4294967295") == 2**32 - 1
    for bad in (-1, 2**32, True, 1.0, "3"):
        with pytest.raises(ValueError):
            check_seed(bad)
