"""Whether a word is ordinary English (word frequency + name gazetteers), not a fact about
one transcript."""

import pytest

from engine.detectors.ordinary import is_name_word, is_ordinary, zipf


@pytest.mark.parametrize("word", ["young", "long", "black", "rose", "smith", "Will", "chess"])
def test_everyday_english_words_are_ordinary_even_when_they_are_also_names(word):
    assert is_ordinary(word)


@pytest.mark.parametrize(
    "word", ["pellegrino", "okafor", "tyrell", "Michael", "GARCIA", "jennifer", "Okafor's"]
)
def test_names_are_not_ordinary_words_in_any_case(word):
    assert not is_ordinary(word)


def test_the_word_frequency_list_works_offline_from_the_package_data():
    # wordfreq ships its data inside the package: no download at run time
    assert zipf("the") > 7 and zipf("pellegrino") < 3


def test_a_gazetteer_name_that_is_also_an_english_word_is_no_name_word():
    assert is_name_word("Garcia") and not is_name_word("Smith")
