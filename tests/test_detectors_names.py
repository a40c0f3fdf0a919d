from engine.detectors.names import person_name_parts


def parts(text, start=0, end=None):
    return [text[s:e] for s, e in person_name_parts(text, start, len(text) if end is None else end)]


def test_full_name_splits_into_parts():
    assert parts("John Doe") == ["John", "Doe"]


def test_titles_and_possessive_are_left_out():
    assert parts("Mr. Doe's") == ["Doe"]
    assert parts("Presiding Commissioner Alden") == ["Alden"]
    assert parts("Dr. Mary O'Neil-Barker Jr.") == ["Mary", "O'Neil-Barker"]


def test_offsets_are_into_the_whole_text():
    text = "Thank you, Ms. Quill."
    assert person_name_parts(text, 11, 20) == [(15, 20)]


def test_initials_are_parts():
    assert parts("J. R. Tolkien") == ["J", "R", "Tolkien"]


def test_stored_pieces_split_person_into_name_parts_and_keep_other_labels_whole():
    from engine.detectors.names import stored_pieces

    text = "Mr. John Doe's cell at Mule Creek State Prison"
    person = stored_pieces(text, 0, text.index(" cell"), "PERSON")
    assert [text[s:e] for s, e in person] == ["John", "Doe"]
    start = text.index("Mule")
    assert stored_pieces(text, start, len(text), "ORGANIZATION") == [(start, len(text))]
    assert stored_pieces(text, 0, 3, "PERSON") == []  # only a title: nothing to store


def test_everyday_words_given_as_names_that_the_name_list_lacks_are_given_names():
    from engine.detectors.names import is_given_name

    assert is_given_name("Summer") and is_given_name("SUMMER") and is_given_name("Serenity")
    assert not is_given_name("Eureka") and not is_given_name("Kaiser")
