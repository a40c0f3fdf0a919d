import pytest

from engine.pseudonymize.dates import date_tags


@pytest.mark.parametrize(
    ("mention", "expected"),
    [
        ("May 13, 2012", "[MONTH] [DAY], [YEAR]"),
        ("Tuesday, May 13th, 2012", "[DAY_OF_WEEK], [MONTH] [DAY], [YEAR]"),
        ("the 13th of May", "the [DAY] of [MONTH]"),
        ("Sept. 3", "[MONTH]. [DAY]"),
        ("05/13/2012", "[DATE]"),
        ("2012", "[YEAR]"),
        ("'98", "[YEAR]"),
        ("the 1990s", "the [DECADE]"),
        ("the nineties", "the [DECADE]"),
        ("May thirteenth", "[MONTH] [DAY]"),
        ("twenty twelve", "[YEAR]"),
        ("nineteen ninety-five", "[YEAR]"),
        ("May thirteen, two thousand and twelve", "[MONTH] [DAY], [YEAR]"),
        ("June twenty-five", "[MONTH] [DAY]"),
        ("three weeks", "[NUMBER] weeks"),
        ("last Christmas", "[DATE]"),
        ("yesterday", "[DATE]"),
    ],
)
def test_date_mentions_split_into_paper_tags(mention, expected):
    assert date_tags(mention) == expected
