"""engine.alternation: many phrases in one pattern, grouped by first character."""

import re

from engine.alternation import phrase, phrases

TERMS = [
    "board of parole hearings",
    "board of prison terms",
    "Board",
    "parole",
    "parole board",
    "B.P.H.",
    "3 strikes",
    "x",
    "Xavier University",
]


def _flat(terms):
    return re.compile("|".join(rf"(?<!\w){phrase(t)}(?!\w)" for t in terms), re.IGNORECASE)


def test_grouped_phrases_match_exactly_what_the_flat_alternation_matches():
    terms = sorted(TERMS, key=len, reverse=True)
    text = (
        "The BOARD  OF\nPAROLE Hearings met; the Parole Board said parole. "
        "B.P.H. and 3 strikes, x-ray, Xavier university, boarding, board of prison terms."
    )
    grouped = re.compile(rf"(?<!\w)(?:{phrases(terms)})(?!\w)", re.IGNORECASE)
    assert [m.span() for m in grouped.finditer(text)] == [
        m.span() for m in _flat(terms).finditer(text)
    ]
    assert grouped.search(text).group(0) == "BOARD  OF\nPAROLE Hearings"


def test_the_first_matching_phrase_in_the_given_order_wins_as_in_a_flat_alternation():
    shortest_first = ["parole", "parole board"]
    grouped = re.compile(rf"(?:{phrases(shortest_first)})", re.IGNORECASE)
    assert grouped.match("Parole Board").group(0) == "Parole"


def test_without_ignore_case_the_groups_keep_the_case_of_the_first_character():
    grouped = re.compile(phrases(["Xa", "xb"], ignore_case=False))
    assert grouped.fullmatch("Xa") and grouped.fullmatch("xb")
    assert not grouped.fullmatch("xa") and not grouped.fullmatch("Xb")


def test_blank_phrases_are_left_out():
    assert phrases(["", "  ", "a b"]) == r"a(?:\s+b)"
