import pytest

from engine.pseudonymize.classifier import default_model_path, load_classifier
from engine.pseudonymize.subtypes import SUBTYPES, rule_subtype, subtype_of


@pytest.mark.parametrize(
    ("label", "mention", "expected"),
    [
        ("LOCATION", "California", "STATE"),
        ("LOCATION", "CA", "STATE"),
        ("LOCATION", "Mexico", "COUNTRY"),
        ("LOCATION", "Fresno", "CITY"),
        ("LOCATION", "Kern County", "COUNTY"),
        ("LOCATION", "4411 Elm Avenue", "ADDRESS"),
        ("ORGANIZATION", "Folsom State Prison", "PRISON"),
        ("ORGANIZATION", "CMF", "PRISON"),
        ("ORGANIZATION", "Fresno County Jail", "JAIL"),
        ("ORGANIZATION", "Sheriff's Department", "POLICE_DEPARTMENT"),
        ("ORGANIZATION", "Kaiser Hospital", "HOSPITAL"),
        ("ORGANIZATION", "Lincoln High School", "SCHOOL"),
        ("ORGANIZATION", "Acme Trucking Inc.", "COMPANY"),
        ("ORGANIZATION", "Board of Parole Hearings", "ORGANIZATION"),
        ("ORGANIZATION", "the Department of Corrections and Rehabilitation", "ORGANIZATION"),
        ("NRP", "Buddhist", "RELIGION"),
        ("NRP", "Salvadoran", "NATIONALITY"),
        ("NRP", "Democrats", "POLITICAL_GROUP"),
    ],
)
def test_gazetteers_and_keyword_rules_decide_first(label, mention, expected):
    assert rule_subtype(label, mention) == expected


def test_undecided_mentions_fall_back_to_the_generic_subtype_without_a_classifier():
    assert rule_subtype("LOCATION", "the yard") is None
    assert subtype_of("LOCATION", "the yard") == "LOCATION"
    assert subtype_of("PERSON", "Quill") is None


def test_a_failing_classifier_does_not_stop_pseudonymization():
    def broken(label, mention, candidates):
        raise RuntimeError("model missing")

    assert subtype_of("ORGANIZATION", "Zeta Omega", classifier=broken) == "ORGANIZATION"


@pytest.mark.slow
def test_minilm_classifier_decides_what_the_gazetteers_cannot():
    path = default_model_path()
    assert path is not None and path.exists()
    classifier = load_classifier(str(path))
    assert subtype_of("ORGANIZATION", "Saint Agnes Medical", classifier=classifier) in {
        "HOSPITAL",
    }
    assert subtype_of("NRP", "Lutherans", classifier=classifier) == "RELIGION"
    assert load_classifier(str(path)) is classifier  # loaded once per process


@pytest.mark.slow
def test_minilm_classifier_abstains_when_unsure():
    classifier = load_classifier(str(default_model_path()))
    assert subtype_of("LOCATION", "the Tenderloin", classifier=classifier) == "LOCATION"
    assert subtype_of("ORGANIZATION", "Sitting En Banc", classifier=classifier) == "ORGANIZATION"
    assert subtype_of("ORGANIZATION", "BPH", classifier=classifier) == "ORGANIZATION"


@pytest.mark.slow
def test_undecided_mentions_are_classified_in_one_batch_and_cached():
    from engine.pseudonymize import SpanInput, pseudonymize
    from engine.pseudonymize.refs import RefAssigner

    classifier = load_classifier(str(default_model_path()))
    text = "At Saint Agnes Medical, then Saint Agnes Medical again, near the Tenderloin."
    spans = [
        SpanInput(3, 22, "ORGANIZATION"),
        SpanInput(29, 48, "ORGANIZATION"),
        SpanInput(61, 75, "LOCATION"),
    ]
    out = pseudonymize(text, spans, assigner=RefAssigner(classifier=classifier))
    assert out.text == "At [HOSPITAL_1], then [HOSPITAL_1] again, near [LOCATION_1]."
    assert ("Saint Agnes Medical", SUBTYPES["ORGANIZATION"]) in classifier._results
