"""The ensemble's domain member and its model, as a worker would load it now (a read for
the Learning page): a model whose files do not match the SHA-256 recorded at its
training is refused (``engine.detectors.domain.verify_domain_model``), and the page
says so where it shows the active model."""

from __future__ import annotations

from pathlib import Path


def domain_model_status() -> dict | None:
    """``{"model": directory name, "refused": why it would not load, or ""}`` for the
    configured domain member (the active retrained model, else the shipped one); None
    when no domain member is configured."""
    from annotations.services.annotation import detectors_from_settings
    from engine.detectors.domain import ModelChecksumError, verify_domain_model

    member = next((d for d in detectors_from_settings() if d.name == "domain"), None)
    if member is None:
        return None
    try:
        verify_domain_model(member.model_dir)
    except ModelChecksumError as exc:
        return {"model": Path(member.model_dir).name, "refused": str(exc)}
    return {"model": Path(member.model_dir).name, "refused": ""}
