"""Counsel blocks and certificates: street addresses, suites, ZIP codes (recognizers/locations.py)."""

import pytest

from engine.detectors.recognizers.locations import AddressRecognizer


def found(text):
    return {text[f.start : f.end] for f in AddressRecognizer().find_all(text)}


def test_a_counsel_block_in_capitals_gives_its_address_suite_city_and_zip():
    text = "LAW OFFICE OF A. NOBODY\n1515 K STREET, SUITE 300\nSACRAMENTO, CA 95814\n"
    assert {"1515 K STREET, SUITE 300", "SACRAMENTO, CA 95814"} <= found(text)


def test_a_mailing_address_with_a_suite_and_a_zip_in_running_text():
    text = "Mailing address: 455 Quill Avenue, Suite 1200, San Jose, CA 95113. Thanks."
    assert {"455 Quill Avenue, Suite 1200", "San Jose, CA 95113"} <= found(text)


def test_a_po_box_and_a_zip_code_after_its_word():
    text = "Write to P.O. Box 4490, zip code 95640."
    assert {"P.O. Box 4490", "95640"} <= found(text)


def test_a_numbered_street_is_an_address_but_a_sentence_after_it_is_not_its_suite():
    text = "We lived at 100 5th Street. Suite 12 was hers."
    # (the cleaning trims the abbreviation's period of "St." style suffixes)
    assert "100 5th Street." in found(text)
    assert not any("Street. Suite" in value for value in found(text))


def test_a_city_in_capitals_before_its_state_is_the_longest_known_place():
    from engine.detectors.recognizers.locations import city_before_state

    text = "STATE PRISON SAN JUAN CAPISTRANO, CALIFORNIA DECEMBER 9\nborn in Fresno, California."
    assert [text[f.start : f.end] for f in city_before_state(text)] == [
        "SAN JUAN CAPISTRANO",
        "Fresno",
    ]
    assert city_before_state("Dear Mr. Okonkwo, Oregon wants it.") == []


def test_county_names_after_the_word_county_each_get_a_span():
    from engine.detectors.recognizers.locations import CountyRecognizer

    text = "The County was Ardenne and Velmont. Arrests in the counties of Tulare, Yolo and Contra Costa."
    found = [text[f.start : f.end] for f in CountyRecognizer().find_all(text)]
    assert found == ["Ardenne", "Velmont", "Tulare", "Yolo", "Contra Costa"]
    assert CountyRecognizer().find_all("the county of his birth") == []


# --- Addresses read into the record, towns named in speech --------------------


def test_a_spoken_address_without_a_street_suffix_and_a_zip_after_the_state_name():
    text = "send the title to you at the 418 West 71st, Dorvale, New York 10023 address"
    assert {"418 West 71st", "Dorvale, New York 10023"} <= found(text)


def test_an_office_address_with_a_comma_before_the_zip_code():
    text = "a corporation with office address at 9 Harbor Lane, Tembley, Connecticut, 06902."
    assert {"9 Harbor Lane", "Tembley, Connecticut, 06902"} <= found(text)


def test_a_house_number_and_street_words_before_a_city_and_state():
    text = "He moved to 22 Okonkwo, Tembley, Texas last year."
    assert "22 Okonkwo" in found(text)


def test_a_flat_in_a_named_building_and_a_street_that_runs_somewhere():
    text = (
        "residing at Flat 3, MacGinley House, Tembley. We came down Varga Ferry, which runs east."
    )
    assert {"Flat 3, MacGinley House", "Varga Ferry"} <= found(text)
    assert found("the corner of Okonkwo and Tembley.") == {"Okonkwo", "Tembley"}


def test_a_counted_thing_before_a_city_is_no_street():
    assert found("He served 12 Years, Tembley, Texas") == set()


def places(text):
    from engine.detectors.recognizers.locations import PlaceRecognizer

    return {text[f.start : f.end]: f.pattern for f in PlaceRecognizer().find_all(text)}


@pytest.mark.parametrize(
    "text, town",
    [
        ("it's in Oyeniyi, so it's our territory", "Oyeniyi"),
        ("she lives in Tembley, Texas", "Tembley"),
        ("we went down to Ensenada", "Ensenada"),
        ("my family is from Cardiff", "Cardiff"),
        ("we lived in Domino, Texas", "Domino"),
        ("the city of Energy", "Energy"),
        ("my cousin, Flat 2, Okafor House, Leeds, United Kingdom", "Leeds"),
    ],
)
def test_a_town_the_gazetteer_may_not_know_is_a_place_where_the_speech_says_so(text, town):
    assert town in places(text)


@pytest.mark.parametrize(
    "text",
    [
        "I went to Church on Sunday",
        "he was in Custody then",
        "it was from Okafor",
        "Yes, California",
        "Thank you, Texas",
        "a letter from Dora Varga",
        "Dear Mr. Okonkwo, Oregon wants it.",
        "I was in Bible study",
    ],
)
def test_ordinary_words_and_people_after_a_preposition_are_no_towns(text):
    assert places(text) == {}


def test_from_names_a_place_only_after_a_verb_of_origin():
    assert places("I was born in Oyeniyi and raised from Oyeniyi") == {
        "Oyeniyi": "place-after-verb"
    }
    assert places("my family is from Oyeniyi") == {"Oyeniyi": "place-after-verb"}
    assert places("The letters came from Michael today.") == {}
    assert places("a letter came from Oyeniyi") == {}


def test_a_county_whose_name_starts_with_st_is_one_span():
    from engine.detectors.recognizers.locations import CountyRecognizer

    text = "A: Yes. St. Clair County. We moved to Fort Bend County, then Tulare County."
    found = [text[f.start : f.end] for f in CountyRecognizer().find_all(text)]
    assert found == ["St. Clair County", "Fort Bend County", "Tulare County"]


def test_a_road_named_after_a_county_is_a_street_not_the_county():
    from engine.detectors.recognizers.locations import AddressRecognizer, CountyRecognizer

    text = "A: We lived off Maple County Road, out in Tulare County."
    assert [text[f.start : f.end] for f in CountyRecognizer().find_all(text)] == ["Tulare County"]
    assert "Maple County Road" in [
        text[f.start : f.end] for f in AddressRecognizer().find_all(text)
    ]


def test_a_street_after_an_answer_opening_on_is_found():
    from engine.detectors.recognizers.locations import AddressRecognizer

    text = "Q Where did you meet them?\nA On Liberty Street, near the church."
    found = [text[f.start : f.end] for f in AddressRecognizer().find_all(text)]
    assert "Liberty Street" in found


def test_a_street_named_alone_by_an_everyday_word_is_placed_by_the_words_after_it():
    found = AddressRecognizer().find_all
    for text, street in (
        ("A. On Liberty, near the school.", "Liberty"),
        ("They lived on Prospect, by the church.", "Prospect"),
        ("We went down Commerce to the park.", "Commerce"),
    ):
        assert [text[f.start : f.end] for f in found(text)] == [street], text


def test_a_day_a_holiday_a_status_or_a_phrase_after_on_is_no_street():
    found = AddressRecognizer().find_all
    for text in (
        "On Monday, near the end of the month.",
        "On Christmas, near midnight.",
        "He was on Parole, near the end.",
        "I was on Zoom, by the way.",
        "On May, near the end.",
    ):
        assert found(text) == [], text


def test_a_town_after_a_verb_of_stopping_or_opening_a_clause_is_a_place():
    from engine.detectors.recognizers.locations import places_in_context

    for text, town in (
        ("We stopped in Einaudi for gas.", "Einaudi"),
        ("A. Back in Reising we had nothing.", "Reising"),
        ("She moved out to Welcome after the trial.", "Welcome"),
        ("We ended up in Plenty for a while.", "Plenty"),
        ("A guy from Friendship helped us out.", "Friendship"),
        ("People from Reising came.", "Reising"),
    ):
        assert [text[f.start : f.end] for f in places_in_context(text)] == [town], text


def test_an_everyday_word_after_a_verb_of_movement_that_names_an_institution_is_no_town():
    from engine.detectors.recognizers.locations import places_in_context

    for text in (
        "I went to Church.",
        "They moved me to Reception.",
        "He stayed in Isolation.",
        "I moved to Medical.",
        "Back in Court we argued.",
        "I got in Trouble.",
        "A letter from Okafor came.",
        "A friend from Church came.",
    ):
        assert places_in_context(text) == [], text


def test_a_town_out_past_or_up_by_is_a_place_and_a_given_name_only_votes():
    from engine.detectors.recognizers.locations import places_in_context

    text = "Now we're out past Shaffer, on the county road. He lives up past Whitcombe."
    found = {text[f.start : f.end]: f.score for f in places_in_context(text)}
    assert set(found) == {"Shaffer", "Whitcombe"} and min(found.values()) >= 0.85
    text = "I was standing over by Mike. He walked past Johnson."
    assert all(f.score < 0.85 for f in places_in_context(text))


def test_the_next_town_of_a_list_after_then_is_a_place_and_a_given_name_is_not():
    from engine.detectors.recognizers.locations import places_in_context

    text = "We lived in Villanueva for a while, then Ponce. I moved to Ardmoor, then Marcus came."
    found = {text[f.start : f.end]: f.score for f in places_in_context(text)}
    assert found.get("Ponce", 0) >= 0.85 and "Marcus" not in found


def test_an_ordinal_after_a_venue_is_a_street_whatever_a_model_reads():
    from engine.detectors.recognizers.venues import VenueStreetRecognizer

    text = "At the Westin on Eighth, and then the Oakwood Inn on Broadway."
    found = {text[f.start : f.end]: f.score for f in VenueStreetRecognizer().find_all(text)}
    assert found["Eighth"] >= 0.85 and found["Broadway"] < 0.85
