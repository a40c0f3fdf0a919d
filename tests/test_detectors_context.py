"""Hearing recognizers that read a name's context: addresses, counties, ages, employers,
persons and nationalities (hand-written sentences; no models needed)."""

import pytest

from engine.detectors.patterns import (
    AddressRecognizer,
    AgeRecognizer,
    CountyRecognizer,
    HearingDateRecognizer,
    HeightRecognizer,
    NrpRecognizer,
    OrganizationRecognizer,
    PersonContextRecognizer,
    PlaceRecognizer,
)


def found(recognizer, text):
    return [text[f.start : f.end] for f in recognizer.find_all(text)]


@pytest.mark.parametrize(
    "text,expected",
    [
        ("We stayed on 8881 Daniel Unions, with a friend.", "8881 Daniel Unions"),
        ("a room in her home on 7829 Courtney Stravenue, she said", "7829 Courtney Stravenue"),
        ("a program at 6388 Odom Forges, San Bernardino", "6388 Odom Forges"),
        ("She lives at 12 Oak Manors now.", "12 Oak Manors"),
    ],
)
def test_a_house_number_with_any_usps_street_suffix_is_an_address(text, expected):
    assert expected in found(AddressRecognizer(), text)


def test_a_street_after_on_is_a_location_but_a_first_and_last_name_is_not():
    recognizer = AddressRecognizer()
    assert found(recognizer, "We got into it at a party on Lori Course.") == ["Lori Course"]
    assert found(recognizer, "It's Hayden Street. That's H as in Henry.") == ["Hayden Street"]
    assert found(recognizer, "I have a job offer from Sarah Lane. It's construction.") == []
    assert found(recognizer, "He spent ten years on Death Row.") == []


@pytest.mark.parametrize(
    "text,expected",
    [
        ("I'd go to Contra Costa County, away from them.", ["Contra Costa County"]),
        ("You were placed in a camp in Tulare County.", ["Tulare County"]),
        ("In Alameda County they said no.", ["Alameda County"]),
        ("the Superior Court, County of Los Angeles.", ["County of Los Angeles"]),
    ],
)
def test_a_county_is_one_span_without_a_leading_function_word(text, expected):
    assert found(CountyRecognizer(), text) == expected


def test_a_gazetteer_place_before_another_capitalised_word_is_left_to_others():
    recognizer = PlaceRecognizer()
    assert found(recognizer, "There's a letter from Franklin Patel, your brother.") == []
    assert found(recognizer, "I went to Sacramento County after that.") == []
    assert found(recognizer, "It's a long drive from Eureka.") == ["Eureka"]


def test_a_place_that_is_also_a_given_name_only_votes():
    (eureka,) = PlaceRecognizer().find_all("a long drive from Eureka.")
    (logan,) = PlaceRecognizer().find_all("letters from Logan.")
    assert eureka.score == 0.9
    assert logan.score < 0.85


@pytest.mark.parametrize(
    "text,expected",
    [
        ("Today I'm forty-four. I think about consequences.", ["forty-four"]),
        ("He was a youth offender, only 20 at the time, and", ["20"]),
        ("The panel also considered your age, 44, and the factors.", ["44"]),
        ("drinking at the age of thirteen, and then PCP by 15. Back then", ["thirteen", "15"]),
    ],
)
def test_ages_in_everyday_phrasings(text, expected):
    assert found(AgeRecognizer(), text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "The meeting ran until 15. Then we left.",
        "I was paid by 15 people.",
        "I'm one of the mentors.",
    ],
)
def test_numbers_without_an_age_context_are_not_ages(text):
    assert found(AgeRecognizer(), text) == []


def test_a_dashed_height_needs_a_word_about_size():
    assert found(HeightRecognizer(), "She was smaller than me, about five-seven.") == ["five-seven"]
    assert found(HeightRecognizer(), "The vote was five-seven against us.") == []


def test_dates_in_capitals_on_a_cover_page_but_not_the_verb_may():
    text = "CENTINELA STATE PRISON\nSEPTEMBER 18, 2020\nYOU MAY THEN REVIEW THE DECISION"
    assert found(HearingDateRecognizer(), text) == ["SEPTEMBER 18, 2020", "2020"]


@pytest.mark.parametrize(
    "text,expected",
    [
        ("He works at Kaiser Permanente now.", ["Kaiser Permanente"]),
        ("My mother got a job at Kennedy-Martin out there.", ["Kennedy-Martin"]),
        ("I have a job offer from Ross and Sons from Alicia Rich.", ["Ross and Sons"]),
        ("She offers you a job at Collins, Quinn and Hicks.", ["Collins, Quinn and Hicks"]),
        ("You were housed at California Medical Facility before?", ["California Medical Facility"]),
        ("I've been accepted to Marks House, a program.", ["Marks House"]),
        ("Welch, White and Caldwell. Keller Ltd called.", ["Keller Ltd"]),
    ],
)
def test_employers_firms_and_facilities_are_organizations(text, expected):
    assert [f for f in found(OrganizationRecognizer(), text) if f in expected] == expected


def test_a_job_offer_from_a_person_or_a_sponsor_named_house_is_no_organization():
    recognizer = OrganizationRecognizer()
    assert found(recognizer, "I have a job offer from Alicia Rich. It's construction.") == []
    assert found(recognizer, "My sponsor is Steven House. I'm on step nine.") == []


@pytest.mark.parametrize(
    "text,expected",
    [
        ("A chrono from Officer Gates says you helped.", ["Gates"]),
        ("after my celly, Marcus, passed away.", ["Marcus"]),
        ("My sponsor is Steven House.", ["Steven House"]),
        ("Amber visits when she can.", ["Amber"]),
        ("Logan has known me since I was a kid.", ["Logan"]),
        ("WILLIAMS: Mendez. M-E-N-D-E-Z.", ["Mendez"]),
    ],
)
def test_names_made_names_by_their_context(text, expected):
    assert found(PersonContextRecognizer(), text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Deputy District Attorney Brooks objected.",
        "Fresno visits are long.",  # not a given name
        "Okay. O-K-A-Y is not how I spell it.",
        "My father is Filipino.",
    ],
)
def test_context_words_alone_make_no_name(text):
    assert found(PersonContextRecognizer(), text) == []


def test_nationalities_religions_and_races_in_context():
    text = (
        "My father is Filipino and we were raised Muslim. The suspect was a white male. "
        "I'm white. I joined the Black history group. A job at Welch, White and Caldwell."
    )
    assert found(NrpRecognizer(), text) == ["Filipino", "Muslim", "white", "white", "Black"]


@pytest.mark.parametrize(
    "text",
    [
        "The Superior Court sentenced him.",
        "we believe the Circuit Court erred",
        "the Federal Circuit Court stated",
    ],
)
def test_a_court_of_law_is_no_street(text):
    assert found(AddressRecognizer(), text) == []
