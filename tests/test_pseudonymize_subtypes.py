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
        ("ORGANIZATION", "State Farm Insurance", "COMPANY"),
        ("ORGANIZATION", "Liberty Mutual", "COMPANY"),
        ("ORGANIZATION", "Delgado Roofing", "COMPANY"),
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


def test_a_place_the_classifier_calls_a_county_without_being_one_is_a_town():
    def county(label, mention, candidates):
        return "COUNTY"

    assert subtype_of("LOCATION", "Riverbend", classifier=county) == "CITY"
    assert subtype_of("LOCATION", "Kern County", classifier=county) == "COUNTY"  # the rules


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


# Mentions for the classifier (made up, or generic).
UNDECIDED = [
    ("ORGANIZATION", "Saint Agnes Medical"),
    ("ORGANIZATION", "Sitting En Banc"),
    ("ORGANIZATION", "BPH"),
    ("ORGANIZATION", "Westbrook Tire and Lube"),
    ("ORGANIZATION", "Narcotics Anonymous"),
    ("ORGANIZATION", "Norteños"),
    ("ORGANIZATION", "Valley Crest Academy"),
    ("ORGANIZATION", "Mercy General"),
    ("ORGANIZATION", "Highway Patrol"),
    ("ORGANIZATION", "Delmar Packing"),
    ("LOCATION", "the Tenderloin"),
    ("LOCATION", "Mule Creek"),
    ("LOCATION", "Riverbend"),
    ("LOCATION", "Harlow Street"),
    ("LOCATION", "the Central Valley"),
    ("NRP", "Lutherans"),
    ("NRP", "Hmong"),
    ("NRP", "Libertarians"),
]


@pytest.fixture(scope="module")
def encoder_onnx_file(tmp_path_factory):
    from engine.pseudonymize.classifier import encoder_onnx

    cache = tmp_path_factory.mktemp("models")
    path = encoder_onnx(default_model_path(), cache, build=True)
    assert path is not None and path.parent == cache
    return path


@pytest.mark.slow
def test_onnx_encoder_decides_every_subtype_as_the_torch_encoder(encoder_onnx_file):
    """The ONNX copy (used by annotation workers, without the torch model) gives the same
    vectors and hence the same subtypes as the torch encoder."""
    import numpy as np

    from engine.pseudonymize.classifier import SubtypeClassifier, encoder_onnx

    model = default_model_path()
    assert encoder_onnx(model, encoder_onnx_file.parent, build=False) == encoder_onnx_file
    torch_side = SubtypeClassifier(model)
    onnx_side = SubtypeClassifier(model, encoder_onnx_file)
    texts = [m for _label, m in UNDECIDED]
    torch_side.load()
    onnx_side.load()
    assert onnx_side._session is not None and onnx_side._model is None
    assert np.abs(torch_side._embed(texts) - onnx_side._embed(texts)).max() < 1e-4
    decided = []
    for label, mention in UNDECIDED:
        cands = SUBTYPES[label]
        assert onnx_side(label, mention, cands) == torch_side(label, mention, cands), mention
        decided.append(onnx_side(label, mention, cands))
    assert any(decided) and None in decided  # it both decides and abstains here


@pytest.mark.slow
def test_onnx_encoder_classifies_without_loading_transformers(encoder_onnx_file):
    """An annotation worker with the ONNX copy never imports ``transformers`` (nor builds
    the torch model): that is what kept a worker above 800 MB."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from engine.pseudonymize.classifier import SubtypeClassifier, default_model_path\n"
        "from engine.pseudonymize.subtypes import subtype_of\n"
        f"c = SubtypeClassifier(default_model_path(), {str(encoder_onnx_file)!r})\n"
        "print(subtype_of('NRP', 'Lutherans', classifier=c))\n"
        "print('transformers' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    ).stdout.split()
    assert out == ["RELIGION", "False"]


def test_no_onnx_copy_is_built_when_not_asked(tmp_path):
    from engine.pseudonymize.classifier import encoder_onnx

    assert encoder_onnx(default_model_path(), tmp_path, build=False) is None
    assert not list(tmp_path.iterdir())
