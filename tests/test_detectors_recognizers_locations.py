"""Counsel blocks and certificates: street addresses, suites, ZIP codes (recognizers/locations.py)."""

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
