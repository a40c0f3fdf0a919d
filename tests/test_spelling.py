"""The one misspelling rule shared by propagation and the reference groups."""

from engine.pseudonymize.keys import closest_name
from engine.spelling import closest_misspelled, is_misspelling, misspelling_distance


def test_one_edit_is_a_misspelling_of_any_name():
    assert misspelling_distance("stevenston", "stevenson") == 1
    assert misspelling_distance("quil", "quill") == 1
    assert misspelling_distance("smyth", "smith") == 1


def test_two_edits_need_nine_letters_or_the_same_metaphone():
    assert misspelling_distance("weathrbey", "weatherby") == 2  # nine letters
    assert misspelling_distance("hanson", "hanssen") == 2  # same Metaphone HNSN
    assert not is_misspelling("thomsen", "thompson")  # two edits, another Metaphone
    assert not is_misspelling("garcai", "garcia")  # two edits, six letters, another sound


def test_another_initial_or_the_name_itself_is_no_misspelling():
    assert not is_misspelling("olsen", "alden")
    assert not is_misspelling("quill", "quill")


def test_closest_name_follows_the_same_rule_and_never_guesses_a_tie():
    names = {"weatherby", "whitley", "quill"}
    for word in ("wetherby", "whitly", "quil", "thomsen"):
        assert closest_name(word, names) == closest_misspelled(word, names)
    assert closest_name("wetherby", names) == "weatherby"
    assert closest_misspelled("quil", {"quill", "quilt"}) is None  # a tie: no guess
    assert closest_name("quill", names) is None  # an original itself
