"""Employers and institutions (ORGANIZATION); made-up names."""

from engine.detectors.recognizers.organizations import OrganizationRecognizer


def test_an_employers_legal_form_is_part_of_its_name():
    text = "Q: Were you employed by Tembley Logistics, Inc. in 2016? A: I worked at Varga LLC."
    found = [text[f.start : f.end] for f in OrganizationRecognizer().find_all(text)]
    assert found == ["Tembley Logistics, Inc.", "Varga LLC"]
