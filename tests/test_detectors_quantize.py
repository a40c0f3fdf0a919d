"""The int8 copy of the Rampart model: built once into a cache folder, same findings.

Builds the model into a temporary folder (a second or two) and runs both models.
"""

import sys

import pytest

from engine.detectors import quantize
from engine.detectors.base import Document
from engine.detectors.transformer import TransformerDetector, _model_file, rampart_model_dir

pytestmark = pytest.mark.slow

TEXT = (
    "PRESIDING COMMISSIONER ALDEN: This is the hearing of Thomas Quill at Mule Creek "
    "State Prison in Ione, California.\n"
    "INMATE QUILL: My sister Maria Quill lives in Fresno. Call her at 916-555-0123.\n"
)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    cache = tmp_path_factory.mktemp("models")
    path = quantize.int8_model(_model_file(rampart_model_dir()), cache)
    return cache, path


def test_the_int8_model_is_built_once_into_the_cache_folder(built):
    cache, path = built
    assert path is not None and path.parent == cache and path.exists()
    assert "int8" in path.name
    stamp = path.stat().st_mtime_ns
    assert quantize.int8_model(_model_file(rampart_model_dir()), cache) == path
    assert path.stat().st_mtime_ns == stamp  # not rebuilt


def test_the_int8_model_finds_the_names_the_shipped_model_finds(built):
    cache, path = built
    fast = TransformerDetector(cache_dir=str(cache), threads=1, skip=False)
    shipped = TransformerDetector(quantize="none", threads=1, skip=False)
    fast.ensure_loaded()
    shipped.ensure_loaded()
    assert fast.model.path == path
    assert shipped.model.path.name == "model_q4.onnx"
    doc = Document(TEXT)

    def found(detector):
        return {(TEXT[d.start : d.end], d.label) for d in detector.detect(doc)}

    reference = found(shipped)
    assert ("Maria", "PERSON") in reference
    persons = {item for item in reference if item[1] == "PERSON"}
    assert persons <= found(fast)


def test_without_the_onnx_package_the_shipped_model_is_used(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "onnx", None)  # import onnx -> ImportError
    assert quantize.int8_model(_model_file(rampart_model_dir()), tmp_path) is None
    assert not list(tmp_path.glob("*.onnx"))
