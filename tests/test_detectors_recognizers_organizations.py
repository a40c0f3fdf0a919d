"""Employers and institutions (ORGANIZATION); made-up names."""

from engine.detectors.recognizers.organizations import OrganizationRecognizer


def test_an_employers_legal_form_is_part_of_its_name():
    text = "Q: Were you employed by Tembley Logistics, Inc. in 2016? A: I worked at Varga LLC."
    found = [text[f.start : f.end] for f in OrganizationRecognizer().find_all(text)]
    assert found == ["Tembley Logistics, Inc.", "Varga LLC"]


def test_a_police_force_named_by_its_county_is_one_organization():
    from engine.detectors.recognizers.organizations import OrganizationRecognizer

    found = OrganizationRecognizer().find_all
    text = "Then the Tarrant County Police came, and Fort Worth Police took him."
    assert [text[f.start : f.end] for f in found(text)] == [
        "Tarrant County Police",
        "Fort Worth Police",
    ]


def test_a_police_force_named_only_by_its_kind_or_a_sentence_start_is_no_organization():
    from engine.detectors.recognizers.organizations import OrganizationRecognizer

    found = OrganizationRecognizer().find_all
    for text in (
        "the State Police came",
        "Campus Police took him",
        "County Police came",
        "Then Police came.",
        "When Police arrived, we ran.",
        "Deputy Sheriff Brown was there.",
    ):
        assert found(text) == [], text


def test_a_question_or_answer_mark_is_no_part_of_a_police_forces_name():
    from engine.detectors.recognizers.organizations import OrganizationRecognizer

    found = OrganizationRecognizer().find_all
    text = "Who came?\nQ. The Tarrant County Police?\nA. The State Police came."
    assert [text[f.start : f.end] for f in found(text)] == ["The Tarrant County Police"]


def test_a_state_prison_is_found_by_its_name_in_capitals_but_never_in_lower_case():
    text = (
        "The copy is stamped ORDER SIGNED BY SEN. ANN LEE AT IRONWOOD STATE PRISON BLYTHE, "
        "CALIFORNIA. He was at Pleasant Valley State Prison; mule creek state prison; CAL."
    )
    found = {text[f.start : f.end] for f in OrganizationRecognizer().find_all(text)}
    assert {"IRONWOOD STATE PRISON", "Pleasant Valley State Prison"} <= found
    assert not any(v.islower() or v == "CAL" for v in found)


def test_a_state_prison_in_a_stamp_in_capitals_reaches_the_ensembles_spans():
    from engine.detectors.base import Document
    from engine.detectors.ensemble import Ensemble
    from engine.detectors.patterns import PatternDetector

    text = (
        "THE COPY IS STAMPED ORDER SIGNED BY SEN. ANN LEE AT IRONWOOD STATE PRISON BLYTHE, "
        "CALIFORNIA, ATTENTION RECORDS OFFICE.\n"
    )
    result = Ensemble([PatternDetector()]).run(Document(text))
    spans = {(text[s.start : s.end], s.label) for s in result.spans}
    assert ("IRONWOOD STATE PRISON", "ORGANIZATION") in spans


def test_a_name_an_appositive_or_a_copula_makes_a_business_is_an_organization():
    found = OrganizationRecognizer().find_all
    for text, name in (
        ("My wife works for Tolliver Nash, the law office downtown.", "Tolliver Nash"),
        ("Huerta Odonnell is an insurance agency on the square.", "Huerta Odonnell"),
        ("Ardenvale is a trucking outfit.", "Ardenvale"),
        ("We bought it from Quillstone, a freight company in town.", "Quillstone"),
        ("I'll go to Davis House, a transitional housing program.", "Davis House"),
    ):
        assert [text[f.start : f.end] for f in found(text)] == [name], text


def test_a_person_before_a_role_or_a_compound_noun_is_no_business():
    found = OrganizationRecognizer().find_all
    for text in (
        "I spoke to Dana Whitcombe, the office manager.",
        "Fresno is a company town.",
        "It was Marcus, a store clerk, who called.",
        "The Hilton is a hotel.",
        "He is a law student.",
        "Ask Dana Whitcombe, the program director.",
        "This is a business, Your Honor.",
    ):
        assert found(text) == [], text


def test_a_job_held_at_a_named_place_makes_it_an_employer():
    found = OrganizationRecognizer().find_all
    for text, name in (
        ("I'm a dispatcher at Ardenwood.", "Ardenwood"),
        ("She was the office manager at Coleman Pryor for years.", "Coleman Pryor"),
        ("He worked as a mechanic at Thistlebrook.", "Thistlebrook"),
    ):
        assert [text[f.start : f.end] for f in found(text)] == [name], text
    for text in (
        "I was a guest at Johnson's house.",
        "I was a witness for Garcia.",
        "I'm a student at 4 o'clock.",
    ):
        assert found(text) == [], text
