import pytest

from engine.pseudonymize.keys import (
    cdcr_key,
    closest_name,
    edit_distance_at_most_one,
    entity_key,
    person_key,
    spelled_letters,
)


@pytest.mark.parametrize("mention", ["Doe", "DOE", "Doe's", "doe’s", "Doe."])
def test_person_name_part_variants_share_a_key(mention):
    assert person_key(mention) == "doe"


@pytest.mark.parametrize(
    "mention",
    ["Victor 12345", "V12345", "V-1-2-3-4-5", "v 12345", "Victor one two three four five"],
)
def test_cdcr_number_variants_share_a_key(mention):
    assert cdcr_key(mention) == "V12345"


def test_spelled_letters_ignore_separators_and_case():
    assert spelled_letters("Q-U-I-L-L") == spelled_letters("q. u. i. l. l.") == "quill"
    assert entity_key("SPELLED_NAME", "Q U I L L") == entity_key("PERSON", "Quill")


def test_other_label_keys():
    assert entity_key("PHONE_NUMBER", "(555) 010-0199") == entity_key(
        "PHONE_NUMBER", "555.010.0199"
    )
    assert entity_key("URL", "https://www.Example.org/") == entity_key("URL", "example.org")
    assert entity_key("LOCATION", "the City of Fresno's") == "city of fresno"


def test_edit_distance_and_closest_name():
    assert edit_distance_at_most_one("alden", "aldenn")
    assert not edit_distance_at_most_one("alden", "olsen")
    assert closest_name("wetherby", {"weatherby", "whitley"}) == "weatherby"
    assert closest_name("whitley", {"weatherby"}) is None
    assert closest_name("quil", {"quill", "quilt"}) is None  # ambiguous: no guess
    assert closest_name("quill", {"quill"}) is None  # already an original
